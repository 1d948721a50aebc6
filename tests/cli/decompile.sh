#!/usr/bin/env bash
# syscage decompile (and dump --format policy's engine): policies that
# compile back to equivalent filters, proven with syscage diff.
. "$(dirname "$0")/../cli_lib.bash"

roundtrip() { # NAME FILTER...: decompile, compile, and prove the result equal
	local name=$1
	shift
	if ! "$SYSCAGE" decompile "$@" >"$TMP/rt.policy" 2>"$TMP/err"; then
		not_ok "$name: decompiles" "$(head -c 400 "$TMP/err")"
		return
	fi
	if [ $# -eq 1 ] && "$SYSCAGE" diff "$TMP/rt.policy" "$1" >"$TMP/out" 2>&1; then
		ok "$name: round trip proven equivalent"
	elif [ $# -gt 1 ]; then
		ok "$name: a stack decompiles"
	else
		not_ok "$name: round trip proven equivalent" "$(head -c 600 "$TMP/out")"
	fi
}

for profile in default docker-default; do
	"$SYSCAGE" compile "$profile" -o "$TMP/$profile.bpf" 2>/dev/null
	roundtrip "$profile" "$TMP/$profile.bpf"
done

cat >"$TMP/hand.s" <<'ASM'
; hand-written: masks, ranges, a 64-bit test, scratch memory
ld [arch]
jne #AUDIT_ARCH_X86_64, kill
ld [nr]
st M[3]
jset #0x40000000, kill
ld M[3]
jeq #openat, open
jeq #mmap, mmap
jgt #400, enosys
jeq #getpid, allow, deny
open: ld [arg2.lo]
and #3
jeq #0, allow, deny
mmap: ld [arg2.lo]
jset #4, deny
ld [arg1.hi]
jeq #0, allow, deny
allow: ret ALLOW
enosys: ret ERRNO(ENOSYS)
deny: ret ERRNO(EPERM)
kill: ret KILL_PROCESS
ASM
"$SYSCAGE" asm "$TMP/hand.s" -o "$TMP/hand.bpf" 2>"$TMP/err" || not_ok "assemble the hand-written filter" "$(cat "$TMP/err")"
roundtrip "hand-written assembler" "$TMP/hand.bpf"
expect_status 0 "decompile hand-written" -- "$SYSCAGE" decompile "$TMP/hand.bpf"
expect_grep "$TMP/out" "^arch x86_64$" "one target ABI"
expect_grep "$TMP/out" "^default errno\(EPERM\)$" "the commonest verdict is the default"
expect_grep "$TMP/out" "openat if \(arg2\.lo & (0x)?3\) == 0" "the masked test comes back"
expect_grep "$TMP/out" "arg1 & 0xffffffff00000000" "the high-word test comes back"

# conditions come back as the compiler laid them out (&& and || folded, one rule), and
# syscalls with the same rules share them on one line
printf 'arch x86_64\ndefault allow\nerrno(EPERM) read, write, close if arg0 == 1 || arg1 > 5\n' >"$TMP/same.policy"
"$SYSCAGE" compile "$TMP/same.policy" -o "$TMP/same.bpf" 2>"$TMP/err" || not_ok "compile same.policy" "$(cat "$TMP/err")"
expect_status 0 "decompile of three syscalls with one condition" -- "$SYSCAGE" decompile "$TMP/same.bpf"
expect_grep "$TMP/out" '^errno\(EPERM\) read, write, close if \(arg0 & 0xffffffff00000000\) == 0 && arg0\.lo == 1 \|\| \(arg1 & 0xffffffff00000000\) > 0 \|\| arg1\.lo > 5 on x86_64$' \
	"one rule, the condition folded, the syscalls on one line"
if [ "$(grep -c '^errno' "$TMP/out")" = 1 ]; then ok "no other rule"; else not_ok "no other rule" "$(cat "$TMP/out")"; fi
roundtrip "three syscalls with one condition" "$TMP/same.bpf"

for ex in "$(dirname "$0")"/../../examples/*.s; do
	[ -f "$ex" ] || continue
	"$SYSCAGE" asm "$ex" -o "$TMP/ex.bpf" 2>/dev/null || continue
	if "$SYSCAGE" decompile "$TMP/ex.bpf" >"$TMP/ex.policy" 2>"$TMP/err"; then
		roundtrip "examples/$(basename "$ex")" "$TMP/ex.bpf"
	else
		expect_grep "$TMP/err" "error:" "examples/$(basename "$ex"): says why it cannot"
	fi
done

# examples/deny-open.s kills x86_64 numbers 0x80000000-0xbfffffff (bit 31 without
# the x32 bit) and allows the rest: one range rule says it.
"$SYSCAGE" asm "$(dirname "$0")/../../examples/deny-open.s" -o "$TMP/do.bpf"
expect_status 0 "unknown numbers split over two ranges" -- "$SYSCAGE" decompile "$TMP/do.bpf"
expect_grep "$TMP/out" "^kill 0x80000000\.\.0xbfffffff on x86_64$" "one range rule for bit 31"
expect_grep "$TMP/out" "^default allow$" "the other unknown numbers take the default"
roundtrip "examples/deny-open.s" "$TMP/do.bpf"

# Odd numbers denied, even ones allowed: no policy of sensible size says it.
cat >"$TMP/parity.s" <<'ASM'
	ld [arch]
	jne #AUDIT_ARCH_X86_64, kill
	ld [nr]
	jset #1, odd
	ret ALLOW
odd:	ret ERRNO(1)
kill:	ret KILL_PROCESS
ASM
"$SYSCAGE" asm "$TMP/parity.s" -o "$TMP/parity.bpf"
expect_status 2 "unknown numbers in too many runs" -- "$SYSCAGE" decompile "$TMP/parity.bpf"
expect_grep "$TMP/err" "numbers no table knows get (ALLOW|ERRNO\(1\)) from 0x[0-9a-f]+ on, other unknown numbers (ALLOW|ERRNO\(1\)), over more than [0-9]+ separate runs" "names the verdicts and the limit"
expect_grep "$TMP/err" "hint: a policy gives unknown numbers one verdict" "with a hint"

# a filter that tests the same bits twice on one path: the condition states the test once
twice_filter >"$TMP/twice.s"
expect_status 0 "decompile of a filter testing bits twice" -- "$SYSCAGE" decompile "$TMP/twice.s"
if grep -q '0x30000000) != 0 && (arg0.lo & 0x30000000) != 0' "$TMP/out"; then
	not_ok "repeated conditions are simplified" "$(grep clone "$TMP/out")"
else
	expect_grep "$TMP/out" '^errno\(EACCES\) clone if \(arg0.lo & 0x30000000\) != 0 on x86_64$' \
		"repeated conditions are simplified"
fi
roundtrip "a filter testing bits twice" "$TMP/twice.s"

roundtrip "a stack of two filters" "$TMP/hand.bpf" "$TMP/default.bpf"
expect_status 0 "-o writes the file" -- "$SYSCAGE" decompile -o "$TMP/o.policy" "$TMP/hand.bpf"
expect_grep "$TMP/o.policy" "^arch x86_64$" "-o content"

printf 'ld [nr]\njeq #39, deny\nret ALLOW\ndeny: ret ERRNO(1)\n' >"$TMP/noarch.s"
"$SYSCAGE" asm "$TMP/noarch.s" -o "$TMP/noarch.bpf" 2>/dev/null
expect_status 2 "no arch check: no policy can say it" -- "$SYSCAGE" decompile "$TMP/noarch.bpf"
expect_grep "$TMP/err" "unknown ABIs get more than one verdict" "says why"
expect_status 2 "a missing file" -- "$SYSCAGE" decompile "$TMP/none.bpf"
expect_status 0 "--help" -- "$SYSCAGE" decompile --help
# Filters that stall a path-by-path engine (tests/data/analysis): under a 1 s budget a
# policy proven equal, a reason none can be written, or exit 3, nothing written and
# what was not decided named.  No timing is asserted.
CRAFT=$(dirname "$0")/../data/analysis
for f in jset-chain-64 jset-chain-76 arg-eq mul-shift div-x; do
	"$SYSCAGE" decompile --timeout 1 "$CRAFT/$f.s" >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ $st -eq 0 ]; then
		cp "$TMP/out" "$TMP/craft.policy"
		if "$SYSCAGE" diff "$TMP/craft.policy" "$CRAFT/$f.s" >/dev/null 2>&1; then
			ok "$f: decompiled, proven"
		else not_ok "$f: decompiled, proven"; fi
	elif [ $st -eq 2 ] && grep -q 'error:' "$TMP/err"; then ok "$f: says why no policy can say it"
	elif [ $st -eq 3 ] && [ ! -s "$TMP/out" ] && grep -q 'not decided: ' "$TMP/err"; then
		ok "$f: out of time, says so"
	else not_ok "$f: a policy, a reason, or exit 3" "exit $st" "$(head -c 300 "$TMP/err")"; fi
done
"$SYSCAGE" decompile --timeout 0.001 "$CRAFT/scratch-chain.s" >"$TMP/out" 2>"$TMP/err"
st=$?
if [ $st -eq 3 ]; then
	ok "a tiny budget: exit 3"
	if [ -s "$TMP/out" ]; then not_ok "no partial policy"; else ok "no partial policy"; fi
	expect_grep "$TMP/err" "error: the time budget ran out before the policy was complete, so none is written; not decided: " \
		"names what was not decided"
	expect_grep "$TMP/err" "time budget of 0.001 s ran out" "stderr says why"
elif [ $st -eq 0 ] || [ $st -eq 2 ]; then
	ok "a tiny budget: a definite answer all the same"
else
	not_ok "a tiny budget: exit 3" "exit $st"
fi

# `div x` with X == 0 ends the filter with 0 (KILL_THREAD): X never written, loaded
# with 0, or copied from a zero A
for setup in "" "ldx #0" "ld #0; tax"; do
	div_by_zero_filter "$setup" >"$TMP/dz.s"
	expect_status 0 "decompile: div by a zero X (${setup:-X never written})" -- \
		"$SYSCAGE" decompile "$TMP/dz.s"
	expect_grep "$TMP/out" "^default kill-thread$" \
		"decompile: div by a zero X (${setup:-X never written}) is kill-thread"
done

# one verdict for every call of every ABI: a policy all the same
for v in 0x7fff0000 0x00050001 0x80000000; do
	printf '\tret #%s\n' "$v" >"$TMP/const.s"
	expect_status 0 "decompile of a filter that only returns $v" -- \
		"$SYSCAGE" decompile -o "$TMP/const.policy" "$TMP/const.s"
	expect_status 0 "... compiles to an equivalent filter" -- \
		"$SYSCAGE" diff "$TMP/const.s" "$TMP/const.policy"
done

# Every compiled filter of the project's own test inputs decompiles to a policy that
# compiles and is proven equivalent.  The only exceptions are listed here with the words
# their error must contain: inputs that are not valid (fuzzing seeds of errors), and
# filters no policy can say.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
declare -A invalid=(
	# seeds of parse errors, missing includes, or fuzzer bytes: compile refuses them
	[fuzz/corpus/fuzz_policy/errors.policy]="error: unknown action"
	[fuzz/corpus/fuzz_policy/include-errors.policy]="error: cannot read"
	[fuzz/corpus/fuzz_policy/includes-past-256-tokens.policy]="error: cannot read"
	[fuzz/corpus/fuzz_policy/nesting.policy]="error: expected an argument"
	[fuzz/corpus/fuzz_import_kafel/seed4.txt]="error: unterminated comment"
	[fuzz/corpus/fuzz_import_minijail/seed4.txt]="error: unknown syscall"
	[fuzz/corpus/fuzz_import_systemd/seed4.txt]="error: section header"
	[fuzz/corpus/fuzz_import_firejail/seed-include.txt]="error: the content fits several input formats"
	[fuzz/corpus/fuzz_import_firejail/seed4.txt]="error: bad value"
	[fuzz/corpus/fuzz_oci/errors.json]="error: syscalls\[0\].action: unknown action"
	[fuzz/corpus/fuzz_asm/errors.s]="error: unknown instruction"
	[fuzz/corpus/fuzz_asm/numbers.s]="error: number .* does not fit in 32 bits"
	# phases: a later phase may only take calls away; one filter per phase
	[fuzz/corpus/fuzz_policy/phases-errors.policy]="error: phase 'serving' gives 'execve' ALLOW, more than phase 'start'"
	[fuzz/corpus/fuzz_policy/phases.policy]="--phase NAME picks the one to write"
)
for f in all-abis-deep big-endian one-rule-any-abi ppc64 x86-x32 x86_64-depth3; do
	invalid[fuzz/corpus/fuzz_compile/$f]="error: size [0-9]+ is not a multiple of 8"
done
declare -A refused=(
	# no ABI check: every ABI gets the same numbers, which no policy says
	[tests/data/analysis/arg-eq.s]="unknown ABIs get more than one verdict"
	# verdicts computed with arithmetic, which conditions cannot test
	[tests/data/analysis/div-x.s]="values the filter computes"
	[tests/data/analysis/mul-shift.s]="values the filter computes"
	# stalls a path-by-path engine: given 1 s, out of time (or an answer, proven below)
	[tests/data/analysis/scratch-chain.s]="not decided: "
	# filters the kernel refuses to load
	[fuzz/corpus/fuzz_raw/short.bpf]="size 7 is not a multiple of 8"
)
for f in actions arg64 jset-arg jumps labels-comments; do
	refused[fuzz/corpus/fuzz_asm/$f.s]="unknown ABIs get more than one verdict"
done
for f in actions arg64 jumps; do
	refused[fuzz/corpus/fuzz_raw/$f.bpf]="unknown ABIs get more than one verdict"
done
for f in ancillary bpf-asm insn instructions; do
	refused[fuzz/corpus/fuzz_asm/$f.s]="would not load"
done
for f in bpf-asm insn instructions odd-fields random64; do
	refused[fuzz/corpus/fuzz_raw/$f.bpf]="would not load"
done
inputs=("$SRC"/profiles/*.policy "$SRC"/tests/data/docker-default.json "$SRC"/tests/data/systemd/*.service
	"$SRC"/tests/data/firejail/*.profile "$SRC"/tests/data/analysis/*.s)
for d in policy compile import_kafel import_minijail import_systemd import_firejail oci asm raw load; do
	inputs+=("$SRC"/fuzz/corpus/fuzz_$d/*)
done
# Under the valgrind suite (SYSCAGE_REAL set) a fifth of the inputs, compiled and proven
# unwrapped.  There, and in the sanitizer build (SYSCAGE_SAN_FLAGS), a time budget running
# out is an answer too: the budget assumes an uninstrumented build, which memcheck is some
# 50 times and ASan some 3 times faster than.
REAL=${SYSCAGE_REAL:-$SYSCAGE}
stride=1 want_proven=63 slow=
if [ -n "${SYSCAGE_SAN_FLAGS:-}" ]; then want_proven=55 slow=1; fi
if [ -n "${SYSCAGE_REAL:-}" ]; then stride=5 want_proven=10 slow=1; fi
sampled=()
for i in "${!inputs[@]}"; do [ $((i % stride)) = 0 ] && sampled+=("${inputs[$i]}"); done
proven=0
for path in "${sampled[@]}"; do
	f=${path#"$SRC"/}
	case $f in
	*.s) make=(asm "$path" -o "$TMP/in.bpf") ;;
	*.bpf) make=(asm --help) && cp "$path" "$TMP/in.bpf" ;;
	*) make=(compile "$path" -o "$TMP/in.bpf") ;;
	esac
	if ! (cd "$SRC" && "$REAL" "${make[@]}") >/dev/null 2>"$TMP/err"; then
		if [ -n "${invalid[$f]:-}" ] && grep -Eq -- "${invalid[$f]}" "$TMP/err"; then
			ok "$f: not valid input, says why"
		else
			not_ok "$f: compiles" "$(head -c 300 "$TMP/err")"
		fi
		continue
	fi
	budget=()
	[ "$f" = tests/data/analysis/scratch-chain.s ] && budget=(--timeout 1)
	if ! "$SYSCAGE" decompile "${budget[@]}" -o "$TMP/rt.policy" "$TMP/in.bpf" 2>"$TMP/err"; then
		if [ -n "${refused[$f]:-}" ] && grep -Eq -- "error: .*${refused[$f]}" "$TMP/err"; then
			ok "$f: no policy can say it, says why"
		elif [ -n "$slow" ] && grep -q "error: the time budget ran out" "$TMP/err"; then
			ok "$f: out of time in an instrumented build, says so"
		else
			not_ok "$f: decompiles" "$(head -c 300 "$TMP/err")"
		fi
		continue
	fi
	if "$REAL" diff "$TMP/rt.policy" "$TMP/in.bpf" >"$TMP/out" 2>&1; then
		ok "$f: round trip proven equivalent"
		proven=$((proven + 1))
	elif [ -n "$slow" ] && grep -q "the time budget of .* ran out" "$TMP/out"; then
		ok "$f: the proof out of time in an instrumented build, says so"
	else
		not_ok "$f: round trip proven equivalent" "$(head -c 600 "$TMP/out")"
	fi
done
[ "$proven" -ge $want_proven ] && ok "$proven inputs round trip" ||
	not_ok "$want_proven inputs round trip" "only $proven"

# a policy with phases: each phase's filter round trips
for phase in start serving quiet; do
	if "$SYSCAGE" compile --phase "$phase" -o "$TMP/phase.bpf" "$SRC/fuzz/corpus/fuzz_policy/phases.policy" &&
		"$SYSCAGE" decompile -o "$TMP/phase.policy" "$TMP/phase.bpf" &&
		"$SYSCAGE" diff "$TMP/phase.policy" "$TMP/phase.bpf" >"$TMP/out" 2>&1; then
		ok "phases.policy, phase $phase: round trip proven equivalent"
	else
		not_ok "phases.policy, phase $phase: round trip proven equivalent" "$(head -c 600 "$TMP/out")"
	fi
done

# The OCI export of the same inputs: a profile that compiles (within the kernel's 4096
# instructions), or a refusal that says why (an action or a range OCI cannot name, an
# entry that would apply to ABIs the policy tells apart, ...).
for path in "${sampled[@]}"; do
	f=${path#"$SRC"/}
	case $f in *.s | *.bpf | fuzz/corpus/fuzz_compile/*) continue ;; esac
	[ -n "${invalid[$f]:-}" ] && continue
	if (cd "$SRC" && "$SYSCAGE" compile --format oci --no-runtime-calls -o "$TMP/oci.json" "$path") \
		>/dev/null 2>"$TMP/err"; then
		if "$REAL" compile -o "$TMP/oci.bpf" "$TMP/oci.json" >/dev/null 2>"$TMP/err"; then
			ok "$f: the OCI export compiles"
		else
			not_ok "$f: the OCI export compiles" "$(head -c 300 "$TMP/err")"
		fi
	elif grep -q "error: " "$TMP/err" && [ ! -e "$TMP/oci.json" ]; then
		ok "$f: no OCI export, says why"
	else
		not_ok "$f: an OCI export or a reason" "$(head -c 300 "$TMP/err")"
	fi
	rm -f "$TMP/oci.json"
done

# a filter whose policy would not compile: refused with the size it would need (the
# parity of 14 bits of mount's arg0: 2^14 paths that no && or || folds)
{
	printf '\tld [arch]\n\tjne #AUDIT_ARCH_X86_64, kill\n\tld [nr]\n\tjne #mount, allow\n\tld [arg0.lo]\n'
	for i in $(seq 0 13); do
		printf 'E%d:\tjset #%d, O%d, E%d\n' $i $((1 << i)) $((i + 1)) $((i + 1))
		printf 'O%d:\tjset #%d, E%d, O%d\n' $i $((1 << i)) $((i + 1)) $((i + 1))
	done
	printf 'E14:\tret ERRNO(1)\nO14:\tret ERRNO(2)\nallow:\tret ALLOW\nkill:\tret KILL_PROCESS\n'
} >"$TMP/parity.s"
expect_status 2 "decompile of a filter whose policy would not compile" -- \
	"$SYSCAGE" decompile -o "$TMP/parity.policy" "$TMP/parity.s"
expect_grep "$TMP/err" "the policy would have [0-9]+ rules and does not compile: the filter needs [0-9]+ instructions" \
	"says the size it would need"
if [ -e "$TMP/parity.policy" ]; then not_ok "no policy written" "parity.policy exists"; else ok "no policy written"; fi

echo "1..$n"
