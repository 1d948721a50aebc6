#!/usr/bin/env bash
# Hostile inputs: every one gets a clear error and a non-zero exit, never a crash or a hang,
# and nothing is written to the -o path (no file, no temporary left beside it).
# Sizes and nesting at and past every limit, numbers at the edges of 64 bits, invalid
# UTF-8, binary garbage as filters, unreadable inputs and unwritable outputs.
. "$(dirname "$0")/../cli_lib.bash"

OUT=$TMP/out.d # the only place -o points to; must stay empty after a refusal
mkdir -p "$OUT"
LIMIT=${SYSCAGE_ADVERSARIAL_TIMEOUT:-300} # a hang guard, not a performance bound

# expect_refused NAME OUTPUT PATTERN -- CMD...: CMD fails with status 1 or 2 (not a signal,
# not the hang guard), its stderr matches PATTERN (grep -E), OUTPUT does not exist and no
# temporary file is left in $OUT.
expect_refused() {
	local name=$1 output=$2 pattern=$3
	shift 4
	timeout "$LIMIT" "$@" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null
	local rc=$? problems=()
	[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || problems+=("exit status $rc, wanted 1 or 2")
	grep -qE -- "$pattern" "$TMP/stderr" || problems+=("stderr does not match /$pattern/")
	[ -n "$output" ] && [ -e "$output" ] && problems+=("$output was written")
	local left
	left=$(ls -A "$OUT")
	[ -n "$left" ] && problems+=("left in the output directory: $left")
	if [ "${#problems[@]}" -eq 0 ]; then ok "$name"; else
		not_ok "$name" "${problems[@]}" "stderr: $(head -c 300 "$TMP/stderr")"
	fi
	rm -rf "${OUT:?}"/* "$OUT"/.[!.]* 2>/dev/null
}

# --- policies --------------------------------------------------------------
policy() { printf 'default kill\narch x86_64\n%s\n' "$1" >"$TMP/p.policy"; }

# More than 4096 instructions: one 64-bit comparison per rule.
awk 'BEGIN { print "default kill"; print "arch x86_64";
	for (i = 0; i < 3000; i++) printf "errno(%d) read if arg0 == %d\n", i % 4000 + 1, i * 7 }' \
	>"$TMP/big.policy"
expect_refused "a policy needing more than 4096 instructions is refused" "$OUT/f.bpf" \
	"needs [0-9]+ instructions; the kernel accepts at most 4096" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/big.policy"

# 100,000 rules: finishes (the hang guard), then compiles or says why not.
awk 'BEGIN { print "default kill"; print "arch x86_64";
	for (i = 0; i < 100000; i++) printf "errno(%d) read if arg0 == %d\n", i % 4000 + 1, i }' \
	>"$TMP/huge.policy"
expect_refused "100,000 rules: a clear refusal in reasonable time" "$OUT/f.bpf" \
	"at most 4096" -- "$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/huge.policy"
awk 'BEGIN { print "default kill"; print "arch x86_64";
	for (i = 0; i < 100000; i++) print "allow read, write" }' >"$TMP/same.policy"
expect_status 0 "100,000 rules that overlap compile" -- \
	"$SYSCAGE" compile -o "$TMP/same.bpf" "$TMP/same.policy"

# 100,000 nested parentheses: a depth limit, not a stack overflow.
awk 'BEGIN { s = "allow read if "; for (i = 0; i < 100000; i++) s = s "(";
	s = s "arg0 == 1"; for (i = 0; i < 100000; i++) s = s ")"; print s }' >"$TMP/nest"
policy "$(cat "$TMP/nest")"
expect_refused "100,000 nested parentheses" "$OUT/f.bpf" "nesting deeper than" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.policy"
awk 'BEGIN { s = "allow read if "; for (i = 0; i < 100000; i++) s = s "!"; print s "arg0 == 1" }' \
	>"$TMP/nots"
policy "$(cat "$TMP/nots")"
expect_refused "100,000 nested negations" "$OUT/f.bpf" "nesting deeper than" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.policy"

# 100,000 includes, uses and tokens: the lexer grows its token array while the parser
# reads, past 256, 512, ... 131,072 tokens; no statement may keep a token it moved.
: >"$TMP/empty.policy"
awk 'BEGIN { for (i = 0; i < 100000; i++) print "include \"empty.policy\""; print "allow read" }' \
	>"$TMP/includes.policy"
expect_status 0 "100,000 includes" -- "$SYSCAGE" compile -o "$TMP/inc.bpf" "$TMP/includes.policy"
awk 'BEGIN { for (i = 0; i < 100000; i++) print "use stdio" }' >"$TMP/uses.policy"
expect_status 0 "100,000 uses of a built-in profile" -- \
	"$SYSCAGE" compile -o "$TMP/uses.bpf" "$TMP/uses.policy"
awk 'BEGIN { s = "allow read if (arg0 == 1"; for (i = 0; i < 100000; i++) s = s " || arg0 == 1";
	print s }' >"$TMP/p.policy"
expect_refused "an unclosed '(' after 400,000 tokens" "$OUT/f.bpf" \
	"p.policy:1:1300025: error: expected '\)' to close the '\(' at 1:15" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.policy"
awk 'BEGIN { for (i = 0; i < 100000; i++) print "allow read"; print "allow 500..3" }' >"$TMP/p.policy"
expect_refused "an empty range after 300,000 tokens" "$OUT/f.bpf" \
	"p.policy:100001:7: error: empty syscall number range: 500 is above 3" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.policy"

policy "allow read if arg0 == 18446744073709551615"
expect_status 0 "2^64-1 is a value" -- "$SYSCAGE" compile -o "$TMP/max.bpf" "$TMP/p.policy"
for bad in 18446744073709551616 0x10000000000000000 99999999999999999999999999999999; do
	policy "allow read if arg0 == $bad"
	expect_refused "$bad is out of range" "$OUT/f.bpf" "out of range" -- \
		"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.policy"
done
for bad in 0x 0b 0x_ 08 1e3; do
	policy "allow read if arg0 == $bad"
	expect_refused "'$bad' is not a number" "$OUT/f.bpf" "invalid number" -- \
		"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.policy"
done
policy "errno(65536) read"
expect_refused "errno(65536) is out of range" "$OUT/f.bpf" "error" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.policy"
long=$(head -c 100000 /dev/zero | tr '\0' a)
policy "allow $long"
expect_refused "a 100,000-character syscall name" "$OUT/f.bpf" "unknown syscall" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.policy"
if [ "$(wc -c <"$TMP/stderr")" -lt 2000 ]; then ok "the error quotes a long name briefly"; else
	not_ok "the error quotes a long name briefly" "$(wc -c <"$TMP/stderr") bytes of stderr"; fi
policy "allow read if $long == 1"
expect_refused "a 100,000-character parameter name" "$OUT/f.bpf" "error" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.policy"

printf 'default kill\nallow re\xffad\n' >"$TMP/p.policy"
expect_refused "invalid UTF-8 in a policy" "$OUT/f.bpf" "invalid UTF-8" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.policy"
printf '# \xc3\x28 in a comment\ndefault kill\n' >"$TMP/p.policy"
expect_refused "invalid UTF-8 in a comment" "$OUT/f.bpf" "invalid UTF-8" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.policy"
printf 'default kill\nallow read\n\0\n' >"$TMP/p.policy"
expect_refused "a NUL byte in a policy" "$OUT/f.bpf" "NUL" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.policy"
head -c 65536 /dev/urandom >"$TMP/garbage.policy"
expect_refused "binary garbage as a policy" "$OUT/f.bpf" "error" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/garbage.policy"

# --- assembler -------------------------------------------------------------
asm() { printf '%b' "$1" >"$TMP/p.s"; }
asm 'ld [0]\nret #0x\n'
expect_refused "asm: 0x with no digits" "$OUT/f.bpf" "not a number" -- \
	"$SYSCAGE" asm -o "$OUT/f.bpf" "$TMP/p.s"
for bad in 4294967296 18446744073709551615 18446744073709551616 -2147483649; do
	asm "ret #$bad\n"
	expect_refused "asm: $bad does not fit in 32 bits" "$OUT/f.bpf" "does not fit in 32 bits" -- \
		"$SYSCAGE" asm -o "$OUT/f.bpf" "$TMP/p.s"
done
asm 'ld [0]\nr\xe9t #0\n'
expect_refused "asm: invalid UTF-8" "$OUT/f.bpf" "unexpected byte" -- \
	"$SYSCAGE" asm -o "$OUT/f.bpf" "$TMP/p.s"
awk 'BEGIN { for (i = 0; i < 4097; i++) print "ld [0]"; print "ret #0" }' >"$TMP/p.s"
expect_refused "asm: 4098 instructions" "$OUT/f.bpf" "4096" -- \
	"$SYSCAGE" asm -o "$OUT/f.bpf" "$TMP/p.s"
label=$(head -c 100000 /dev/zero | tr '\0' L)
asm "jmp $label\nret #0\n"
expect_refused "asm: a 100,000-character undefined label" "$OUT/f.bpf" "error" -- \
	"$SYSCAGE" asm -o "$OUT/f.bpf" "$TMP/p.s"
expect_refused "asm: binary garbage" "$OUT/f.bpf" "error" -- \
	"$SYSCAGE" asm -o "$OUT/f.bpf" "$TMP/garbage.policy"

# --- OCI JSON --------------------------------------------------------------
json() { printf '%b' "$1" >"$TMP/p.json"; }
json '{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read"'
expect_refused "truncated JSON" "$OUT/f.bpf" "truncated|end of" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.json"
json ''
expect_refused "empty JSON" "$OUT/f.bpf" "empty" -- "$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.json"
json '{"defaultAction": 5}'
expect_refused "a number where a string belongs" "$OUT/f.bpf" "must be a string" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.json"
json '{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["re\xffad"], "action": "SCMP_ACT_ALLOW"}]}'
expect_refused "invalid UTF-8 in JSON" "$OUT/f.bpf" "UTF-8|utf-8" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.json"
awk 'BEGIN { s = ""; for (i = 0; i < 100000; i++) s = s "["; print s }' >"$TMP/p.json"
expect_refused "100,000 nested JSON arrays" "$OUT/f.bpf" "nesting|deep" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.json"
{ printf '{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"action": "SCMP_ACT_ALLOW", "names": ['
	head -c 50000000 /dev/zero | tr '\0' ' '
	printf '"read"]}]}\n'; } >"$TMP/p.json"
expect_refused "a 50 MB profile" "$OUT/f.bpf" "limit" -- \
	"$SYSCAGE" compile -o "$OUT/f.bpf" "$TMP/p.json"
rm -f "$TMP/p.json"

# --- size: work per rule stays flat ----------------------------------------
# Shapes that once took time quadratic in their size (bench/scaling.sh,
# docs/PERFORMANCE.md), each refused as too big after the whole compilation,
# under a limit on CPU time: the process's own work, not the wall clock, so a
# loaded machine cannot fail it.  The limit is about ten times what the
# compilation needs, and several times below what the quadratic code took.
CPU_LIMIT=$((10 * ${SYSCAGE_TEST_SCALE:-1}))
# expect_linear NAME FILE: refused as too big within CPU_LIMIT seconds of CPU time
# (SIGXCPU past it: exit status 152).
expect_linear() {
	expect_refused "$1 (CPU time under ${CPU_LIMIT} s)" "$OUT/f.bpf" "at most 4096" -- \
		bash -c 'ulimit -c 0 && ulimit -S -t "$1" && shift && exec "$@"' limit "$CPU_LIMIT" \
		"$SYSCAGE" compile -o "$OUT/f.bpf" "$2"
	rm -f "$2"
}
awk 'BEGIN { print "default allow"; print "arch x86_64, x86, x32"
	for (i = 0; i < 100000; i++)
		printf "errno(%s) write if count >= %d && count <= %d\n", i % 2 ? "EACCES" : "EPERM", i, i + 64 }' \
	>"$TMP/overlap.policy"
expect_linear "100,000 overlapping ranges on one syscall, two actions" "$TMP/overlap.policy"
awk 'BEGIN { print "default allow"; print "arch x86_64"
	for (i = 0; i < 200000; i++) printf "errno(EPERM) %d if arg0 == %d\n", 100000 + 2 * i, i }' \
	>"$TMP/numbers.policy"
expect_linear "200,000 numbered syscalls, each with its own check" "$TMP/numbers.policy"
awk 'BEGIN { printf "default allow\narch x86_64\nerrno(EPERM) "
	for (i = 0; i < 200000; i++) printf "%d%s", 100000 + 2 * i, i + 1 < 200000 ? ", " : "\n" }' \
	>"$TMP/statement.policy"
expect_linear "200,000 syscall numbers in one statement" "$TMP/statement.policy"
awk 'BEGIN { print "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"architectures\": [\"SCMP_ARCH_X86_64\"],"
	print "\"syscalls\": ["
	for (i = 0; i < 100000; i++)
		printf "{\"names\": [\"write\"], \"action\": \"%s\", \"args\": [{\"index\": 0, \"value\": %d, \"op\": \"SCMP_CMP_EQ\"}]}%s\n",
			i % 2 ? "SCMP_ACT_LOG" : "SCMP_ACT_ERRNO", i, i + 1 < 100000 ? "," : ""
	print "]}" }' >"$TMP/entries.json"
expect_linear "100,000 OCI entries on one syscall, two actions" "$TMP/entries.json"

# --- programs: odd sizes and garbage ---------------------------------------
: >"$TMP/0.bpf"
head -c 7 /dev/urandom >"$TMP/7.bpf"
head -c $((4097 * 8)) /dev/zero >"$TMP/4097.bpf"
head -c $((4096 * 8)) /dev/urandom >"$TMP/garbage.bpf"
for f in 0 7 4097; do
	want=error
	expect_refused "disasm: a $f-byte/instruction file" "$OUT/f.s" "$want" -- \
		"$SYSCAGE" disasm -o "$OUT/f.s" "$TMP/$f.bpf"
	expect_refused "verify: a $f-byte/instruction file" "" "$want" -- "$SYSCAGE" verify "$TMP/$f.bpf"
	expect_refused "emu: a $f-byte/instruction file" "" "$want" -- \
		"$SYSCAGE" emu -f "$TMP/$f.bpf" --arch x86_64 read
done
expect_refused "emu: random instructions the kernel would refuse" "" "refuse" -- \
	"$SYSCAGE" emu -f "$TMP/garbage.bpf" --arch x86_64 read
expect_status 1 "verify: random instructions are refused" -- "$SYSCAGE" verify "$TMP/garbage.bpf"
expect_status 0 "disasm: random instructions still disassemble" -- \
	"$SYSCAGE" disasm -o "$TMP/garbage.s" "$TMP/garbage.bpf"

# --- unreadable inputs -----------------------------------------------------
mkdir -p "$TMP/dir.policy" "$TMP/dir.bpf"
mkfifo "$TMP/fifo.policy" "$TMP/fifo.bpf"
for input in "$TMP/dir.policy" /proc/self/mem "$TMP/fifo.policy" "$TMP/missing.policy"; do
	expect_refused "compile: unreadable input $(basename "$input")" "$OUT/f.bpf" "cannot read|error" -- \
		"$SYSCAGE" compile -o "$OUT/f.bpf" "$input"
done
for input in "$TMP/dir.bpf" /proc/self/mem "$TMP/fifo.bpf"; do
	expect_refused "disasm: unreadable input $(basename "$input")" "$OUT/f.s" "cannot read|error" -- \
		"$SYSCAGE" disasm -o "$OUT/f.s" "$input"
	expect_refused "verify: unreadable input $(basename "$input")" "" "cannot read|error" -- \
		"$SYSCAGE" verify "$input"
	expect_refused "asm: unreadable input $(basename "$input")" "$OUT/f.bpf" "cannot read|error" -- \
		"$SYSCAGE" asm -o "$OUT/f.bpf" "$input"
done

# --- unwritable outputs ----------------------------------------------------
printf 'default kill\nallow read\n' >"$TMP/ok.policy"
for output in "$OUT/missing/f.bpf" "$OUT" /proc/version /sys/kernel/syscage-test; do
	expect_refused "compile -o $output" "" "cannot write" -- \
		"$SYSCAGE" compile -o "$output" "$TMP/ok.policy"
done
if [ -d "$OUT" ] && [ -z "$(ls -A "$OUT")" ]; then ok "-o DIRECTORY leaves it as it was"; else
	not_ok "-o DIRECTORY leaves it as it was"; fi
printf 'ret #0\n' >"$TMP/ok.s"
expect_refused "asm -o /proc/version" "" "cannot write" -- \
	"$SYSCAGE" asm -o /proc/version "$TMP/ok.s"
expect_refused "compile -o into a FIFO nobody reads" "" "cannot write" -- \
	"$SYSCAGE" compile -o "$TMP/fifo.bpf" "$TMP/ok.policy"
# A device stays a device: the output goes into it, not over it.
ln -s /dev/null "$TMP/null-link"
expect_status 0 "compile -o a link to /dev/null" -- \
	"$SYSCAGE" compile -o "$TMP/null-link" "$TMP/ok.policy"
if [ -L "$TMP/null-link" ] && [ -c /dev/null ]; then ok "/dev/null and the link to it are intact"; else
	not_ok "/dev/null and the link to it are intact" "$(ls -l "$TMP/null-link" /dev/null)"; fi

# every command names itself and the bad option, exits 2, and points at its --help
for cmd in asm disasm verify emu syscalls compile run status dump learn inject bench diff \
	explain decompile lint; do
	expect_status 2 "$cmd: an unknown option" -- "$SYSCAGE" "$cmd" --no-such-option -- true
	expect_grep "$TMP/err" "^syscage: $cmd: unknown option '--no-such-option' \('syscage $cmd --help'\)" \
		"$cmd: the message names the command and the option"
done
for pair in asm:-a emu:-a compile:-a run:-p dump:-a inject:-p bench:-p diff:-a explain:-a \
	decompile:-a lint:-a; do
	cmd=${pair%%:*} opt=${pair#*:}
	expect_status 2 "$cmd: an option without its value" -- "$SYSCAGE" "$cmd" "$opt"
	expect_grep "$TMP/err" "^syscage: $cmd: option '$opt' needs an argument" "$cmd: says the value is missing"
done

# Names echoed in messages carry their control characters escaped (\x01), never raw: a name
# must not drive the terminal (escape sequences, C1 controls) or fake a line of its own.
expect_escaped() { # NAME TEXT: stderr holds TEXT (grep -F) and no raw control character
	if grep -qF -- "$2" "$TMP/err" && ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]\|\xc2[\x80-\x9f]' "$TMP/err"
	then ok "$1"; else not_ok "$1" "stderr: $(od -c "$TMP/err" | head -5)"; fi
}
expect_status 2 "an unknown command with a control character" -- "$SYSCAGE" $'fo\x01o'
expect_escaped "unknown command: the name escaped" "syscage: unknown command 'fo\x01o'"
expect_status 127 "run: a missing program named with an escape sequence" -- "$SYSCAGE" run -- $'no\x1b[2Jcmd'
expect_escaped "run: the name escaped" 'syscage: no\x1b[2Jcmd: command not found'
expect_status 127 "inject: a missing program named with a bell" -- "$SYSCAGE" inject 'getpid:error=EPERM' -- $'a\x07b'
expect_escaped "inject: the name escaped" 'syscage: a\x07b: command not found'
expect_status 2 "compile: a profile name with a C1 control (CSI)" -- "$SYSCAGE" compile $'p\xc2\x9b2J'
expect_escaped "compile: the name escaped" "syscage: 'p\xc2\x9b2J' is neither a file nor a built-in profile"
expect_status 2 "compile: a policy file named with a control character" -- "$SYSCAGE" compile $'x\x01y.policy'
expect_escaped "compile: the diagnostic escapes the file name" "cannot read 'x\x01y.policy'"
printf 'x86_64 get\001pid\n' >"$TMP/batch"
printf 'ret ALLOW\n' >"$TMP/allow.s"
expect_status 2 "emu --batch: a word with a control character" -- "$SYSCAGE" emu -f "$TMP/allow.s" --batch "$TMP/batch"
expect_escaped "emu --batch: the word escaped" "unknown syscall 'get\x01pid'"
expect_status 2 "inject: a rule with a control character" -- "$SYSCAGE" inject $'getpid:error=E\x01' -- true
expect_escaped "inject: the rule's word escaped" "unknown errno 'E\x01'"
cp "$(dirname "$0")/../data/docker-default.json" "$TMP/"$'d\x1b[2J.json'
"$SYSCAGE" lint "$TMP/"$'d\x1b[2J.json' >"$TMP/err" 2>&1
expect_escaped "lint: the file name escaped in findings" 'd\x1b[2J.json:465: error: '
