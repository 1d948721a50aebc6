#!/usr/bin/env bash
# syscage emu: the canonical action line, stacks, --json, --trace, --batch,
# bad input with file:line:column, exit statuses.
. "$(dirname "$0")/../cli_lib.bash"

# expect_first NAME WANT -- CMD...: CMD succeeds and its first output line is WANT.
expect_first() {
	local name=$1 want=$2
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$? got
	got=$(head -n 1 "$TMP/out")
	if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then ok "$name"; else
		not_ok "$name" "exit $rc, first line '$got', wanted '$want'" "stderr: $(head -c 300 "$TMP/err")"
	fi
}

cat >"$TMP/deny_getpid.s" <<'EOF'
ld [nr]
jeq #39, deny, ok
deny: ret ERRNO(1)
ok: ret ALLOW
EOF
cat >"$TMP/arg0.s" <<'EOF'
ld [16]
jgt #10, big, small
big: ret TRAP(7)
small: ret #0x10000000
EOF
for e in 11 13 12; do printf 'ret ERRNO(%s)\n' "$e" >"$TMP/errno$e.s"; done
cat >"$TMP/high_word.s" <<'EOF'
ld [16]
jeq #0x11223344, yes, no
yes: ret ERRNO(1)
no: ret ALLOW
EOF
cat >"$TMP/math.s" <<'EOF'
ld [20]
tax
ld #1
lsh x
or #0x50000
ret a
EOF
# RET ALLOW as one raw struct sock_filter record (little-endian host)
printf '\x06\x00\x00\x00\x00\x00\xff\x7f' >"$TMP/allow.bpf"

D=$TMP/deny_getpid.s
expect_first "a matching rule gives its action" "ERRNO(1)" -- "$SYSCAGE" emu -f "$D" getpid
expect_first "the default gives ALLOW" "ALLOW" -- "$SYSCAGE" emu -f "$D" getppid
expect_first "a syscall number works like its name" "ERRNO(1)" -- "$SYSCAGE" emu -f "$D" 39
expect_first "a raw filter file" "ALLOW" -- "$SYSCAGE" emu -f "$TMP/allow.bpf" getpid
expect_first "i386 numbers come from --arch" "ALLOW" -- "$SYSCAGE" emu --arch x86 -f "$D" getpid
expect_first "x32 numbers carry bit 30" "ALLOW" -- "$SYSCAGE" emu --arch x32 -f "$D" getpid

# arguments: negative numbers, errno names, both byte orders
expect_first "arg0 above 10 traps" "TRAP(7)" -- "$SYSCAGE" emu -f "$TMP/arg0.s" getpid 11
expect_first "-1 is 0xffffffffffffffff" "TRAP(7)" -- "$SYSCAGE" emu -f "$TMP/arg0.s" getpid -1
expect_first "errno names are values" "KILL_PROCESS" -- "$SYSCAGE" emu -f "$TMP/arg0.s" getpid EPERM
expect_first "little endian: [16] is the low word" "ALLOW" -- \
	"$SYSCAGE" emu -f "$TMP/high_word.s" getpid 0x1122334455667788
expect_first "big endian: [16] is the high word" "ERRNO(1)" -- \
	"$SYSCAGE" emu --arch s390x -f "$TMP/high_word.s" getpid 0x1122334455667788
expect_first "shifts by X use X & 31" "ERRNO(2)" -- "$SYSCAGE" emu -f "$TMP/math.s" getpid 0x2100000000

# unknown actions and the kernel's own exception
expect_first "an unknown action kills the process" "KILL_PROCESS" -- "$SYSCAGE" emu -f "$TMP/arg0.s" getpid 1
expect_grep "$TMP/out" '^unknown action 0x10000000 \(the kernel kills the process\)$' "and says why"
expect_first "uretprobe is never filtered" "ALLOW" -- "$SYSCAGE" emu -f "$TMP/arg0.s" uretprobe 1
expect_grep "$TMP/out" '^note: the kernel never filters uretprobe' "with a note"
expect_first "not for x32-tagged numbers" "KILL_PROCESS" -- "$SYSCAGE" emu -f "$TMP/arg0.s" 0x4000014f 1

# stacks: the strongest action wins, ties go to the newest filter
expect_first "a stack: TRAP beats ERRNO's ALLOW" "TRAP(7)" -- \
	"$SYSCAGE" emu -f "$D" -f "$TMP/arg0.s" getpid 20
expect_first "older ERRNO beats a newer unknown action" "ERRNO(1)" -- \
	"$SYSCAGE" emu -f "$D" -f "$TMP/arg0.s" getpid 3
expect_first "ERRNO 11, 13, 12 installed in order gives 12" "ERRNO(12)" -- \
	"$SYSCAGE" emu -f "$TMP/errno11.s" -f "$TMP/errno13.s" -f "$TMP/errno12.s" getpid

# --json
expect_status 0 "--json" -- "$SYSCAGE" emu --json -f "$D" -f "$TMP/arg0.s" getpid 3
expect_grep "$TMP/out" '"action": "ERRNO\(1\)"' "json action"
expect_grep "$TMP/out" '"ret": "0x00050001"' "json ret"
expect_grep "$TMP/out" '"winner": 0,' "json winner is the older filter"
expect_grep "$TMP/out" '"ret": "0x10000000", "executed": 3' "json per-filter result"
if python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["data"] == 1 and len(d["filters"]) == 2' \
	<"$TMP/out" 2>"$TMP/err"; then ok "json parses"; else not_ok "json parses" "$(cat "$TMP/err")"; fi

# --trace
expect_status 0 "--trace" -- "$SYSCAGE" emu --trace -f "$D" getpid
expect_grep "$TMP/out" '^ +0 +ld .*A=0x00000027 X=0x00000000$' "trace shows the load and A"
expect_grep "$TMP/out" '^ +2 +ret ERRNO\(1\)' "trace shows the taken branch"
if grep -qE '^ +3 ' "$TMP/out"; then not_ok "trace shows only the executed path"; else
	ok "trace shows only the executed path"; fi
expect_grep "$TMP/out" 'returns 0x00050001 ERRNO\(1\) after 3 instructions' "trace sums up"
# the call as run reports it, decoded into the constants a policy reads back
expect_status 0 "--trace names the call" -- "$SYSCAGE" emu --trace -f "$D" unshare 'CLONE_NEWNS|CLONE_NEWUSER'
expect_grep "$TMP/out" '^call unshare\(CLONE_NEWNS\|CLONE_NEWUSER\)$' "trace: the call decoded"
expect_status 0 "--json names the call" -- "$SYSCAGE" emu --json -a x86_64 -f "$D" socket 2 0x80001 6
expect_grep "$TMP/out" '"call": "socket\(AF_INET, SOCK_STREAM\|SOCK_CLOEXEC, IPPROTO_TCP\)"' "json: the call decoded"

# --batch: 100,000 cases
awk 'BEGIN {
	print "# arch syscall args"
	for (i = 0; i < 100000; i++) {
		if (i % 4 == 0) print "x86_64 getpid"
		else if (i % 4 == 1) print "x86_64 getppid " i
		else if (i % 4 == 2) print "x86 20 1 2 3"
		else print "x86_64 39 0 0 0 0 0 0 0x401000"
	}
}' >"$TMP/cases.txt"
expect_status 0 "--batch with 100,000 cases" -- "$SYSCAGE" emu -f "$D" --batch "$TMP/cases.txt"
lines=$(wc -l <"$TMP/out")
if [ "$lines" -eq 100000 ]; then ok "one line per case"; else not_ok "one line per case" "got $lines"; fi
if [ "$(sed -n 1p "$TMP/out")" = "ERRNO(1)" ] && [ "$(sed -n 2p "$TMP/out")" = "ALLOW" ] &&
	[ "$(sed -n 3p "$TMP/out")" = "ALLOW" ] && [ "$(sed -n 100000p "$TMP/out")" = "ERRNO(1)" ]; then
	ok "batch values"
else
	not_ok "batch values" "$(sed -n '1,4p;100000p' "$TMP/out")"
fi
if [ "$(grep -c '^ERRNO(1)$' "$TMP/out")" -eq 50000 ]; then ok "batch counts"; else
	not_ok "batch counts" "$(sort "$TMP/out" | uniq -c)"; fi
printf 'x86_64 getpid\n' | "$SYSCAGE" emu -f "$D" --batch - >"$TMP/out" 2>"$TMP/err"
if [ "$(cat "$TMP/out")" = "ERRNO(1)" ]; then ok "--batch - reads stdin"; else
	not_ok "--batch - reads stdin" "$(cat "$TMP/out" "$TMP/err")"; fi

# --batch errors: file:line:column on stderr, ERROR in place, exit 2 at the end
cat >"$TMP/bad.txt" <<'EOF'
x86_64 getpid

x86_64 getpidd
x86_65 getpid
x86_64 getppid 1 2 3 4 5 6 7 8
x86_64 getppid EPRM
x86_64 getppid
EOF
expect_status 2 "bad batch lines exit 2" -- "$SYSCAGE" emu -f "$D" --batch "$TMP/bad.txt"
expect_grep "$TMP/err" "bad.txt:3:8: error: unknown syscall 'getpidd' on x86_64" "syscall typo at line:column"
expect_grep "$TMP/err" "hint: did you mean 'getpid'\?" "with a hint"
expect_grep "$TMP/err" "bad.txt:4:1: error: unknown architecture 'x86_65'" "arch typo at line:column"
expect_grep "$TMP/err" "bad.txt:5:30: error: too many fields" "extra field at its column"
expect_grep "$TMP/err" "bad.txt:6:16: error: unknown constant 'EPRM'" "bad value at its column"
if [ "$(tr '\n' ' ' <"$TMP/out")" = "ERRNO(1) ERROR ERROR ERROR ERROR ALLOW " ]; then
	ok "good lines still run, bad ones print ERROR"
else
	not_ok "good lines still run, bad ones print ERROR" "$(cat "$TMP/out")"
fi

# usage and input errors
expect_status 2 "no filter" -- "$SYSCAGE" emu getpid
expect_status 2 "no syscall" -- "$SYSCAGE" emu -f "$D"
expect_status 2 "too many arguments" -- "$SYSCAGE" emu -f "$D" getpid 1 2 3 4 5 6 7
expect_status 2 "unknown syscall" -- "$SYSCAGE" emu -f "$D" getpidd
expect_grep "$TMP/err" "did you mean 'getpid'" "unknown syscall gets a hint"
expect_status 2 "unknown arch" -- "$SYSCAGE" emu --arch x86_65 -f "$D" getpid
expect_status 2 "unknown option" -- "$SYSCAGE" emu --bogus -f "$D" getpid
expect_status 2 "missing filter file" -- "$SYSCAGE" emu -f "$TMP/nothere.s" getpid
printf 'ld [2]\nret ALLOW\n' >"$TMP/refused.s"
expect_status 2 "a filter the kernel refuses" -- "$SYSCAGE" emu -f "$TMP/refused.s" getpid
expect_grep "$TMP/err" "refused.s: the kernel would refuse this filter" "says which filter"
expect_grep "$TMP/err" "insn 0: error" "and which instruction"
for i in $(seq 4096); do cat "$TMP/allow.bpf"; done >"$TMP/long.bpf"
L=$TMP/long.bpf
expect_first "three 4096-instruction filters fit one path" "ALLOW" -- \
	"$SYSCAGE" emu -f "$L" -f "$L" -f "$L" getpid
expect_status 2 "four do not (translated lengths count)" -- \
	"$SYSCAGE" emu -f "$L" -f "$L" -f "$L" -f "$L" getpid
expect_grep "$TMP/err" "the kernel would refuse this stack" "says the stack is refused"
expect_status 2 "--batch with a syscall" -- "$SYSCAGE" emu -f "$D" --batch "$TMP/cases.txt" getpid
expect_status 0 "--help" -- "$SYSCAGE" emu --help
expect_grep "$TMP/out" '^usage: syscage emu' "--help prints usage"

# Warnings about a syscall one target ABI lacks are compile's business; -v shows them
printf 'arch x86_64, x86\nallow newfstatat, read\n' >"$TMP/absent.policy"
expect_first "a policy naming a syscall x86 lacks" "ALLOW" -- "$SYSCAGE" emu -f "$TMP/absent.policy" read
if [ -s "$TMP/err" ]; then not_ok "emu stays quiet about it" "$(cat "$TMP/err")"; else
	ok "emu stays quiet about it"; fi
expect_status 0 "emu -v" -- "$SYSCAGE" emu -v -f "$TMP/absent.policy" read
expect_grep "$TMP/err" "'newfstatat' does not exist on x86" "-v shows the warning"

# Argument values as the policy language writes them, with its hints
cat >"$TMP/args.policy" <<'POL'
arch x86_64
default errno(EPERM)
allow socket if domain == AF_INET
allow openat if dirfd == AT_FDCWD && (flags & O_CREAT) == 0
POL
expect_first "a constant argument" "ALLOW" -- "$SYSCAGE" emu -f "$TMP/args.policy" socket AF_INET 1 0
expect_first "another constant" "ERRNO(1)" -- "$SYSCAGE" emu -f "$TMP/args.policy" socket AF_INET6
expect_first "AT_FDCWD, O_WRONLY" "ALLOW" -- "$SYSCAGE" emu -f "$TMP/args.policy" openat AT_FDCWD 0 O_WRONLY
expect_first "O_WRONLY|O_CREAT" "ERRNO(1)" -- "$SYSCAGE" emu -f "$TMP/args.policy" openat AT_FDCWD 0 'O_WRONLY|O_CREAT'
expect_first "~0 is all ones" "ERRNO(1)" -- "$SYSCAGE" emu -f "$TMP/args.policy" openat '~0'
expect_status 2 "a misspelt constant" -- "$SYSCAGE" emu -f "$TMP/args.policy" socket AF_INTE
expect_grep "$TMP/err" "unknown constant 'AF_INTE'; did you mean 'AF_INET'\?" "the language's hint"
expect_status 2 "two values in one argument" -- "$SYSCAGE" emu -f "$TMP/args.policy" socket 'AF_INET AF_UNIX'
expect_grep "$TMP/err" "combine constants with '\|'" "says how to combine them"
printf 'x86_64 openat AT_FDCWD 0 O_WRONLY|O_CREAT\nx86_64 socket AF_INET\nx86_64 socket AF_INTE\n' >"$TMP/constcases.txt"
expect_status 2 "--batch takes them too" -- "$SYSCAGE" emu -f "$TMP/args.policy" --batch "$TMP/constcases.txt"
if [ "$(tr '\n' ' ' <"$TMP/out")" = "ERRNO(1) ALLOW ERROR " ]; then ok "--batch verdicts with constants"; else
	not_ok "--batch verdicts with constants" "$(cat "$TMP/out")"; fi
expect_grep "$TMP/err" "constcases.txt:3:15: error: unknown constant 'AF_INTE'" "--batch: the bad one at its column"

# assembler for a big-endian first ABI names its words for that ABI in its header
cat >"$TMP/be.policy" <<'POL'
arch s390x, x86
default kill-process
allow socket if arg1 == 7
allow read, write
POL
"$SYSCAGE" compile --format asm "$TMP/be.policy" -o "$TMP/be.s" 2>/dev/null
"$SYSCAGE" compile "$TMP/be.policy" -o "$TMP/be.bpf" 2>/dev/null
for args in "0 7" "0 0x700000000"; do
	want=$("$SYSCAGE" emu -a x86 -f "$TMP/be.policy" socket $args)
	expect_emu "the .s header's ABI names its words: x86 socket $args" "$want" -- \
		-a x86 -f "$TMP/be.s" socket $args
	expect_emu "and the compiled filter agrees: x86 socket $args" "$want" -- \
		-a x86 -f "$TMP/be.bpf" socket $args
done
expect_emu "x86 socket 0 0x700000000 is killed" KILL_PROCESS -- -a x86 -f "$TMP/be.s" socket 0 0x700000000
