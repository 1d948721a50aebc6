#!/usr/bin/env bash
# kafel policies through the CLI: compile, emu, explain naming the policy's line, run with
# a denial reported against that line, #include beside the file, detection, errors with
# file:line:column, and policies written as kafel policies and imported again, proven
# equal with syscage diff.
. "$(dirname "$0")/../cli_lib.bash"
# run installs filters in its child: unwrapped under the valgrind suite (SYSCAGE_REAL)
REAL=${SYSCAGE_REAL:-$SYSCAGE}

mkdir -p "$TMP/kf"
cat >"$TMP/kf/common.policy" <<'POLICY'
#define STDERR 2
POLICY stdio {
  ALLOW { read, write { fd == 1 || fd == STDERR } }
}
POLICY
cat >"$TMP/kf/app.kafel" <<'POLICY'
#include "common.policy"
POLICY app {
  USE stdio,
  ERRNO(13) { openat(dirfd, path, flags) { (flags & 3) != 0 } },
  ALLOW { openat, close, mmap { (prot & 0x4) == 0 } },
  ERRNO(1) { sethostname }
}
USE app DEFAULT KILL
POLICY

expect_status 0 "compile a kafel policy" -- "$SYSCAGE" compile -o "$TMP/app.bpf" "$TMP/kf/app.kafel"
expect_emu "write(1) is allowed" "ALLOW" -- -f "$TMP/app.bpf" write 1
expect_emu "write(3) is killed (the thread: kafel's KILL)" "KILL_THREAD" -- -f "$TMP/app.bpf" write 3
expect_emu "write(1 | 1<<32) is allowed: fd is an int" "ALLOW" -- -f "$TMP/app.bpf" write 0x100000001
expect_emu "openat for writing is refused" "ERRNO(13)" -- -f "$TMP/app.bpf" openat 0 0 1
expect_emu "openat read-only is allowed" "ALLOW" -- -f "$TMP/app.bpf" openat 0 0 0
expect_emu "i386 calls are killed" "KILL_THREAD" -- -a x86 -f "$TMP/app.bpf" read

expect_status 0 "explain names the policy's line" -- "$SYSCAGE" explain "$TMP/kf/app.kafel" sethostname
expect_grep "$TMP/out" "app\.kafel:6" "the line of sethostname"
expect_status 0 "explain names the included file's line" -- "$SYSCAGE" explain "$TMP/kf/app.kafel" read
expect_grep "$TMP/out" "common\.policy:3" "the line in common.policy"
expect_status 0 "the compiled filter equals the policy" -- "$SYSCAGE" diff "$TMP/app.bpf" "$TMP/kf/app.kafel"
expect_grep "$TMP/out" "^equivalent" "diff proves it"

# a live run: DEFAULT ALLOW, one refusal
printf 'POLICY p {\n  ERRNO(1) { sethostname }\n}\nUSE p DEFAULT ALLOW\n' >"$TMP/kf/live.kafel"
expect_status 0 "run a program under a kafel policy" -- "$REAL" run -p "$TMP/kf/live.kafel" \
	-- sh -c 'hostname syscage-test 2>/dev/null; exit 0'
expect_grep "$TMP/err" "sethostname.*ERRNO\(EPERM\).*live\.kafel:2" "the denial names the policy's line"

# detection, --input-format, ambiguity
printf 'ALLOW {\n  read\n}\n' >"$TMP/kf/plain.txt"
expect_status 0 "a kafel policy is recognised by its content" -- "$SYSCAGE" compile \
	-o "$TMP/plain.bpf" "$TMP/kf/plain.txt"
expect_emu "read is allowed" "ALLOW" -- -f "$TMP/plain.bpf" read
printf 'POLICY a { ALLOW { read } }\nread: 1\n' >"$TMP/kf/both.txt"
expect_status 2 "content that fits two formats is refused" -- "$SYSCAGE" compile "$TMP/kf/both.txt"
expect_grep "$TMP/err" "fits several input formats \(minijail, kafel\)" "the error names the candidates"
expect_status 2 "an unknown format lists them all" -- "$SYSCAGE" compile --input-format kafle \
	"$TMP/kf/both.txt"
expect_grep "$TMP/err" "the formats: raw, asm, policy, oci, k8s, systemd, minijail, kafel, firejail" "the list"

printf 'POLICY a {\n  ALLOW { read, wrtie }\n}\nUSE a DEFAULT KILL\n' >"$TMP/kf/bad.txt"
expect_status 2 "an unknown syscall is an error" -- "$SYSCAGE" compile --input-format kafel \
	-o "$TMP/bad.bpf" "$TMP/kf/bad.txt"
expect_grep "$TMP/err" "bad\.txt:2:17: error: undefined syscall 'wrtie'" "with file:line:column"
expect_grep "$TMP/err" "did you mean 'write'" "and a hint"
test -e "$TMP/bad.bpf" && not_ok "no output on error" || ok "no output on error"
# kafel compares two arguments through scratch memory; a condition here cannot: refused
printf 'POLICY a {\n  ALLOW {\n    lseek(fd, off, whence) { off < whence }\n  }\n}\nUSE a DEFAULT KILL\n' \
	>"$TMP/kf/args.txt"
expect_status 2 "a comparison of two arguments is refused" -- "$SYSCAGE" lint \
	--input-format kafel "$TMP/kf/args.txt"
expect_grep "$TMP/err" "args\.txt:3:30: error: the rule for 'lseek' compares two arguments" \
	"naming the rule and its place"

# round trips: import, export, import again
expect_status 0 "compile --format kafel" -- "$SYSCAGE" compile --format kafel \
	-o "$TMP/kf/rt.kafel" "$TMP/kf/app.kafel"
expect_grep "$TMP/kf/rt.kafel" "^USE syscage DEFAULT KILL" "the default written back"
expect_status 0 "the written policy equals the original" -- "$SYSCAGE" diff \
	"$TMP/kf/app.kafel" "$TMP/kf/rt.kafel"
expect_grep "$TMP/out" "^equivalent" "diff proves the round trip"
cat >"$TMP/kf/lang.policy" <<'POLICY'
arch x86_64, x32
default errno(EPERM)
badarch kill-thread
allow read on x86_64
errno(EACCES) openat if (arg2.lo & 3) != 0 on x86_64
allow openat on x86_64
log write on x86_64
POLICY
expect_status 0 "a policy of the language as kafel" -- "$SYSCAGE" compile --format kafel \
	-o "$TMP/kf/lang.kafel" "$TMP/kf/lang.policy"
expect_status 0 "equal to the policy" -- "$SYSCAGE" diff "$TMP/kf/lang.policy" "$TMP/kf/lang.kafel"
printf 'arch x86_64\ndefault kill-thread\nbadarch kill-thread\nallow write if arg0 == 1\n' \
	>"$TMP/kf/cannot.policy"
expect_status 2 "a 64-bit test of an int argument is refused" -- "$SYSCAGE" compile \
	--format kafel -o "$TMP/kf/cannot.kafel" "$TMP/kf/cannot.policy"
expect_grep "$TMP/err" "cannot\.policy:4:.*error: a condition on 'write' compares an argument over a width kafel does not" \
	"the error names the rule"
test -e "$TMP/kf/cannot.kafel" && not_ok "nothing written" || ok "nothing written"

echo "1..$n"
