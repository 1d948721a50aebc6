#!/usr/bin/env bash
# syscage diff: proofs of equivalence, listed differences confirmed by the
# emulator through the printed command lines, options, JSON, exit statuses.
. "$(dirname "$0")/../cli_lib.bash"

cat >"$TMP/a.policy" <<'POL'
arch x86_64
default errno(EPERM)
allow read, write, close
allow openat if (flags & 3) == 0
POL
# the same meaning written differently
cat >"$TMP/b.policy" <<'POL'
arch x86_64
default errno(EPERM)
allow close, write
allow read
errno(EPERM) openat if (flags & 3) != 0
allow openat
POL
# one change: write denied with another errno, openat allowed for writing
cat >"$TMP/c.policy" <<'POL'
arch x86_64
default errno(EPERM)
allow read, close
errno(EACCES) write
allow openat if (flags & 3) != 3
POL

expect_status 0 "equivalent policies" -- "$SYSCAGE" diff "$TMP/a.policy" "$TMP/b.policy"
expect_grep "$TMP/out" "^equivalent$" "says equivalent"
"$SYSCAGE" compile "$TMP/a.policy" -o "$TMP/a.bpf" 2>/dev/null
expect_status 0 "a policy and its compiled filter" -- "$SYSCAGE" diff "$TMP/a.policy" "$TMP/a.bpf"
expect_status 0 "a profile and itself" -- "$SYSCAGE" diff docker-default docker-default

expect_status 1 "different policies" -- "$SYSCAGE" diff "$TMP/a.policy" "$TMP/c.policy"
expect_grep "$TMP/out" "^x86_64 write: ALLOW in A, ERRNO\(13\) in B$" "lists write with both verdicts"
expect_grep "$TMP/out" "^x86_64 openat if .*arg2\.lo.*: ERRNO\(1\) in A, ALLOW in B$" \
	"lists openat with its argument condition"
expect_grep "$TMP/out" "^2 differing regions$" "counts the regions"

# every printed emu command line gives the verdict printed next to it
cmds=$(grep -c '^  syscage emu ' "$TMP/out")
confirmed=0
while IFS= read -r line; do
	cmd=${line%%   #*}
	want=${line##*# }
	got=$(eval "${cmd/syscage/$SYSCAGE}" 2>&1)
	[ "$got" = "$want" ] && confirmed=$((confirmed + 1))
done < <(grep '^  syscage emu ' "$TMP/out" | sed 's/^  //')
if [ "$cmds" -eq 4 ] && [ "$confirmed" -eq "$cmds" ]; then ok "the emulator confirms every example"
else not_ok "the emulator confirms every example" "$confirmed of $cmds confirmed"; fi

sed 's/^default errno(EPERM)/default errno(EACCES)/' "$TMP/a.policy" >"$TMP/d.policy"
expect_status 1 "another default errno differs" -- "$SYSCAGE" diff "$TMP/a.policy" "$TMP/d.policy"
expect_status 0 "--ignore-errno: only the errno differs" -- \
	"$SYSCAGE" diff --ignore-errno "$TMP/a.policy" "$TMP/d.policy"
"$SYSCAGE" compile "$TMP/c.policy" -o "$TMP/c.bpf" 2>/dev/null
expect_status 0 "--arch x86: both filters kill x86 alike" -- \
	"$SYSCAGE" diff --arch x86 "$TMP/a.bpf" "$TMP/c.bpf"
expect_status 1 "--arch x86_64: they differ there" -- \
	"$SYSCAGE" diff --arch x86_64 "$TMP/a.bpf" "$TMP/c.bpf"

expect_status 1 "--json" -- "$SYSCAGE" diff --json "$TMP/a.policy" "$TMP/c.policy"
expect_grep "$TMP/out" '"equivalent": false' "json: not equivalent"
expect_grep "$TMP/out" '"syscall": "write", "args": "", "a": "ALLOW", "b": "ERRNO\(13\)"' \
	"json: the write region"
if command -v python3 >/dev/null; then
	if python3 -m json.tool "$TMP/out" >/dev/null 2>&1; then ok "json parses"; else not_ok "json parses"; fi
fi

# hand-written filters: a jump retargeted
cat >"$TMP/h1.s" <<'ASM'
ld [arch]
jne #AUDIT_ARCH_X86_64, kill
ld [nr]
jeq #getpid, allow
jgt #500, enosys, deny
allow: ret ALLOW
enosys: ret ERRNO(ENOSYS)
deny: ret ERRNO(EPERM)
kill: ret KILL_PROCESS
ASM
sed 's/jgt #500, enosys, deny/jgt #400, enosys, deny/' "$TMP/h1.s" >"$TMP/h2.s"
expect_status 1 "a changed constant in hand-written assembler" -- "$SYSCAGE" diff "$TMP/h1.s" "$TMP/h2.s"
expect_grep "$TMP/out" "^x86_64 .*nr >= 0x191 && nr <= 0x1f4.*: ERRNO\(1\) in A, ERRNO\(38\) in B$" \
	"the region is the numbers 401..500"

expect_status 2 "one input only" -- "$SYSCAGE" diff "$TMP/a.policy"
expect_status 2 "a missing file" -- "$SYSCAGE" diff "$TMP/a.policy" "$TMP/none.bpf"
expect_status 2 "an unknown ABI" -- "$SYSCAGE" diff --arch nonesuch "$TMP/a.policy" "$TMP/b.policy"
expect_status 0 "--help" -- "$SYSCAGE" diff --help
expect_grep "$TMP/out" "^usage: syscage diff" "help text"
# Filters that stall a path-by-path engine (tests/data/analysis, docs/PERFORMANCE.md):
# under a 1 s budget each is proven equal to itself, or the command says what it did
# not compare and exits 3.  No timing is asserted: either answer passes.
CRAFT=$(dirname "$0")/../data/analysis
for f in jset-chain-64 jset-chain-76 arg-eq mul-shift div-x; do
	"$SYSCAGE" diff --timeout 1 "$CRAFT/$f.s" "$CRAFT/$f.s" >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ $st -eq 0 ] && grep -q '^equivalent$' "$TMP/out"; then ok "$f: proven equivalent to itself"
	elif [ $st -eq 3 ] && grep -q '^not decided: ' "$TMP/out"; then ok "$f: out of time, says so"
	else not_ok "$f: a proof or exit 3" "exit $st" "$(head -c 300 "$TMP/out" "$TMP/err")"; fi
done
# 2^16 paths that never meet: a millisecond is not enough (a machine fast enough to
# finish gets the proof, which passes too)
expect_status_in() { # STATUSES NAME -- CMD...: like expect_status, any of the statuses
	local want=$1 name=$2
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	local got=$?
	case " $want " in *" $got "*) ok "$name" ;;
	*) not_ok "$name" "exit status $got, wanted one of $want" "stderr: $(head -c 400 "$TMP/err")" ;; esac
	return $got
}
expect_status_in "0 3" "a tiny budget" -- "$SYSCAGE" diff --timeout 0.001 "$CRAFT/scratch-chain.s" \
	"$CRAFT/scratch-chain.s"
if [ $? -eq 3 ]; then
	expect_grep "$TMP/out" "^undecided: x86_64 .*: [0-9]+ regions?$" "the inputs not compared, by ABI and syscall"
	expect_grep "$TMP/out" "^not decided: [0-9]+ regions? of inputs not compared; 0 differing regions found before that$" \
		"the answer is not claimed"
	expect_grep "$TMP/err" "time budget of 0.001 s ran out" "stderr says why"
	if grep -q '^equivalent$' "$TMP/out"; then not_ok "no partial proof"; else ok "no partial proof"; fi
	expect_status 3 "--json with a tiny budget" -- "$SYSCAGE" diff --json --timeout 0.001 \
		"$CRAFT/scratch-chain.s" "$CRAFT/scratch-chain.s"
	expect_grep "$TMP/out" '"equivalent": null' "json: equivalence not decided"
	expect_grep "$TMP/out" '"undecided": \[\{"inputs": "[^"]+", "regions": [0-9]+\}' "json: the undecided inputs"
	if command -v python3 >/dev/null; then
		if python3 -m json.tool "$TMP/out" >/dev/null 2>&1; then ok "json parses out of time too"
		else not_ok "json parses out of time too"; fi
	fi
fi
expect_status 0 "--timeout 0: no limit" -- "$SYSCAGE" diff --timeout 0 "$TMP/a.policy" "$TMP/b.policy"
expect_status 2 "--timeout of a negative number" -- "$SYSCAGE" diff --timeout -1 "$TMP/a.policy" "$TMP/b.policy"
expect_status 2 "--timeout of a word" -- "$SYSCAGE" diff --timeout soon "$TMP/a.policy" "$TMP/b.policy"

# `div x` with X == 0 ends the filter with 0 (KILL_THREAD): X never written, loaded
# with 0, or copied from a zero A
for setup in "" "ldx #0" "ld #0; tax"; do
	div_by_zero_filter "$setup" >"$TMP/dz.s"
	printf 'arch x86_64, x32\ndefault kill-thread\n' >"$TMP/dz.policy"
	expect_status 0 "div by a zero X (${setup:-X never written}) is KILL_THREAD" -- \
		"$SYSCAGE" diff "$TMP/dz.s" "$TMP/dz.policy"
	printf 'default trap(0)\n' >"$TMP/dz-trap.policy"
	expect_status 1 "div by a zero X (${setup:-X never written}) never goes on to TRAP" -- \
		"$SYSCAGE" diff --arch x86_64 "$TMP/dz.s" "$TMP/dz-trap.policy"
done

# assembler for a big-endian first ABI names its words for that ABI in its header
cat >"$TMP/be.policy" <<'POL'
arch s390x, x86
default kill-process
allow socket if arg1 == 7
allow read, write
POL
"$SYSCAGE" compile --format asm "$TMP/be.policy" -o "$TMP/be.s" 2>/dev/null
"$SYSCAGE" compile "$TMP/be.policy" -o "$TMP/be.bpf" 2>/dev/null
expect_status 0 "diff reads a .s for its header's ABI" -- "$SYSCAGE" diff "$TMP/be.s" "$TMP/be.bpf"
expect_status 0 "and with --arch of another ABI" -- "$SYSCAGE" diff --arch x86 "$TMP/be.s" "$TMP/be.policy"
expect_status 0 "explain -a x86 of the .s gives the policy's verdict" -- \
	"$SYSCAGE" explain -a x86 "$TMP/be.s" socket 0 0x700000000
expect_grep "$TMP/out" "verdict: KILL_PROCESS" "explain: KILL_PROCESS"
# a .s without a header: -a names its words
printf '\tld [arg1.lo]\n\tjeq #7, ok\n\tret KILL_PROCESS\nok:\tret ALLOW\n' >"$TMP/nohdr.s"
printf '\tld [28]\n\tjeq #7, ok\n\tret KILL_PROCESS\nok:\tret ALLOW\n' >"$TMP/num.s"
expect_status 0 "diff -a s390x names the words of a .s without a header" -- \
	"$SYSCAGE" diff -a s390x "$TMP/nohdr.s" "$TMP/num.s"

# verdicts as emu says them: an errno above 4095 is 4095, an unknown action kills the process
printf '\tld [nr]\n\tjeq #getpid, e\n\tret ALLOW\ne:\tret #0x00051000\n' >"$TMP/big-errno.s"
printf '\tld [nr]\n\tjeq #getpid, e\n\tret ALLOW\ne:\tret #0x721754ef\n' >"$TMP/unknown.s"
expect_status 1 "an errno above 4095 against an unknown action" -- \
	"$SYSCAGE" diff -a x86_64 "$TMP/big-errno.s" "$TMP/unknown.s"
expect_grep "$TMP/out" "^x86_64 getpid: ERRNO\(4095\) in A, KILL_PROCESS \(unknown action 0x721754ef\) in B$" \
	"the verdicts as the kernel applies them"
confirmed=0
while IFS= read -r line; do
	cmd=${line%%   #*}
	want=${line##*# }
	got=$(eval "${cmd/syscage/$SYSCAGE}" 2>&1 | head -n 1)
	[ "$got" = "$want" ] && confirmed=$((confirmed + 1))
done < <(grep '^  syscage emu ' "$TMP/out" | sed 's/^  //')
if [ "$confirmed" -eq 2 ]; then ok "emu prints what diff says beside each command"
else not_ok "emu prints what diff says beside each command" "$(cat "$TMP/out")"; fi

echo "1..$n"
