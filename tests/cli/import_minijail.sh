#!/usr/bin/env bash
# minijail seccomp policies through the CLI: compile, emu, explain naming the policy's
# line, run with a denial reported against that line, @include and @frequency beside the
# file, detection, errors with file:line:column, and policies written as minijail policies
# and imported again, proven equal with syscage diff.
. "$(dirname "$0")/../cli_lib.bash"
# run installs filters in its child: unwrapped under the valgrind suite (SYSCAGE_REAL)
REAL=${SYSCAGE_REAL:-$SYSCAGE}

mkdir -p "$TMP/mj"
cat >"$TMP/mj/base.policy" <<'POLICY'
# what every program here needs
read: 1
write: 1
POLICY
cat >"$TMP/mj/app.frequency" <<'FREQ'
read: 100
openat: 20
FREQ
cat >"$TMP/mj/app-seccomp.policy" <<'POLICY'
@include ./base.policy
@frequency ./app.frequency
openat: arg2 in O_RDONLY|O_CLOEXEC|O_DIRECTORY|O_NONBLOCK; return EACCES
ioctl: arg1 == TCGETS; return ENOTTY
mmap: arg2 in ~PROT_EXEC || arg2 in ~PROT_WRITE
sethostname: return EPERM
uname: log
POLICY

expect_status 0 "compile a minijail policy" -- "$SYSCAGE" compile -o "$TMP/app.bpf" \
	"$TMP/mj/app-seccomp.policy"
expect_emu "an included line allows read" "ALLOW" -- -f "$TMP/app.bpf" read
expect_emu "openat read-only is allowed" "ALLOW" -- -f "$TMP/app.bpf" openat 0 0 0x80000
expect_emu "openat for writing gets the line's errno" "ERRNO(13)" -- -f "$TMP/app.bpf" openat 0 0 1
expect_emu "mmap W+X is killed" "KILL_PROCESS" -- -f "$TMP/app.bpf" mmap 0 4096 7
expect_emu "an unlisted call kills the process" "KILL_PROCESS" -- -f "$TMP/app.bpf" ptrace

expect_status 0 "explain names the policy's line" -- "$SYSCAGE" explain \
	"$TMP/mj/app-seccomp.policy" sethostname
expect_grep "$TMP/out" "app-seccomp\.policy:6" "the line of sethostname"
expect_status 0 "explain names the included file's line" -- "$SYSCAGE" explain \
	"$TMP/mj/app-seccomp.policy" write
expect_grep "$TMP/out" "base\.policy:3" "the line in base.policy"
expect_status 0 "the compiled filter equals the policy" -- "$SYSCAGE" diff "$TMP/app.bpf" \
	"$TMP/mj/app-seccomp.policy"
expect_grep "$TMP/out" "^equivalent" "diff proves it"
expect_status 0 "@frequency files are the compile workload" -- "$SYSCAGE" compile --stats \
	"$TMP/mj/app-seccomp.policy"
expect_grep "$TMP/out" "1 syscalls, 20 calls in the workload" "the counts of app.frequency (openat: 20)"

# a live run: a shell whose sethostname fails with the line's errno
cat >"$TMP/mj/live.minijail" <<'POLICY'
sethostname: return EPERM
POLICY
"$REAL" syscalls --list 2>/dev/null | awk '$2 != "sethostname" { print $2 ": 1" }' \
	>>"$TMP/mj/live.minijail"
if [ "$(wc -l <"$TMP/mj/live.minijail")" -gt 100 ]; then
	expect_status 0 "run a program under a minijail policy" -- "$REAL" run -p \
		"$TMP/mj/live.minijail" -- sh -c 'hostname syscage-test 2>/dev/null; exit 0'
	expect_grep "$TMP/err" "sethostname.*ERRNO\(EPERM\).*live\.minijail:1" \
		"the denial names the policy's line"
else
	skip_feature syscalls "the live run needs 'syscage syscalls --list' to list the table"
fi

# detection, --input-format, ambiguity
printf 'read: 1\nwrite: arg0 == 1\n' >"$TMP/mj/plain.txt"
expect_status 0 "a minijail policy is recognised by its content" -- "$SYSCAGE" compile \
	-o "$TMP/plain.bpf" "$TMP/mj/plain.txt"
expect_emu "write(2) is killed" "KILL_PROCESS" -- -f "$TMP/plain.bpf" write 2
printf 'allow read\nread: 1\n' >"$TMP/mj/both.txt"
expect_status 2 "content that fits two formats is refused" -- "$SYSCAGE" compile "$TMP/mj/both.txt"
expect_grep "$TMP/err" "fits several input formats \(policy, minijail\)" "the error names the candidates"

printf 'read: 1\nwrtie: arg0 == O_RDONLI\n' >"$TMP/mj/bad.txt"
expect_status 2 "an unknown syscall is an error" -- "$SYSCAGE" compile --input-format minijail \
	-o "$TMP/bad.bpf" "$TMP/mj/bad.txt"
expect_grep "$TMP/err" "bad\.txt:2:1: error: unknown syscall 'wrtie'" "with file:line:column"
expect_grep "$TMP/err" "did you mean 'write'" "and a hint"
test -e "$TMP/bad.bpf" && not_ok "no output on error" || ok "no output on error"

# minijail's compiler: a {a, b} set and a @denylist policy
cat >"$TMP/mj/deny.policy" <<'POLICY'
@denylist
{mount, umount2}: return ENOSYS
openat: arg2 & O_CREAT; return EACCES
POLICY
expect_status 0 "compile a @denylist policy with a set" -- "$SYSCAGE" compile -o "$TMP/deny.bpf" \
	"$TMP/mj/deny.policy"
expect_emu "a name of the set gets the errno" "ERRNO(38)" -- -f "$TMP/deny.bpf" umount2
expect_emu "openat with O_CREAT gets the line's errno" "ERRNO(13)" -- -f "$TMP/deny.bpf" openat 0 0 0x40
expect_emu "openat without it is allowed" "ALLOW" -- -f "$TMP/deny.bpf" openat 0 0 0
expect_emu "a call no line names is allowed" "ALLOW" -- -f "$TMP/deny.bpf" ptrace
printf '@denylist\n{read, wrtie}: kill\n' >"$TMP/mj/baddeny.policy"
expect_status 2 "a bad name in a set is an error" -- "$SYSCAGE" compile -o "$TMP/baddeny.bpf" \
	"$TMP/mj/baddeny.policy"
expect_grep "$TMP/err" "baddeny\.policy:2:8: error: unknown syscall 'wrtie'" "at its column in the set"

# minijail's compiler: @default, [arch=...] tags and filter lists
cat >"$TMP/mj/tagged.policy" <<'POLICY'
@default trap
mmap2[arch=arm, i386]: 1
{openat, open[arch=arm]}: return EPERM
write: arg0 == 1
close: {arg0 == 0, arg0 == 1; return EBADF}
POLICY
expect_status 0 "compile a policy with @default, tags and a filter list" -- "$SYSCAGE" compile -o "$TMP/tagged.bpf" \
	"$TMP/mj/tagged.policy"
expect_emu "a call no line names gets @default's action" "TRAP(0)" -- -f "$TMP/tagged.bpf" getpid
expect_emu "a call the argument filter leaves gets it too" "TRAP(0)" -- -f "$TMP/tagged.bpf" write 2
expect_emu "a name of the set kept for this ABI" "ERRNO(1)" -- -f "$TMP/tagged.bpf" openat
expect_emu "a name tagged for other ABIs is left out" "TRAP(0)" -- -f "$TMP/tagged.bpf" open
expect_emu "a filter list: the first filter allows fd 0" "ALLOW" -- -f "$TMP/tagged.bpf" close 0
expect_emu "a filter list: the second gives fd 1 its errno" "ERRNO(9)" -- -f "$TMP/tagged.bpf" close 1
expect_emu "a filter list: the rest get the default" "TRAP(0)" -- -f "$TMP/tagged.bpf" close 2
printf 'read: 1\n@default log\n' >"$TMP/mj/baddefault.policy"
expect_status 2 "a default that lets calls run is an error" -- "$SYSCAGE" compile \
	-o "$TMP/baddefault.bpf" "$TMP/mj/baddefault.policy"
expect_grep "$TMP/err" "baddefault\.policy:2:10: error: 'log' is no default" "at its column"

# round trips: import, export, import again
expect_status 0 "compile --format minijail" -- "$SYSCAGE" compile --format minijail \
	-o "$TMP/mj/rt.minijail" "$TMP/mj/app-seccomp.policy"
expect_grep "$TMP/mj/rt.minijail" "^openat: arg2 in " "an 'in' test written back"
expect_status 0 "the written policy equals the original" -- "$SYSCAGE" diff \
	"$TMP/mj/app-seccomp.policy" "$TMP/mj/rt.minijail"
expect_grep "$TMP/out" "^equivalent" "diff proves the round trip"
cat >"$TMP/mj/open.policy" <<'POLICY'
arch x86_64
default allow
badarch kill-process
errno(EPERM) ptrace
errno(EACCES) openat if (arg2 & O_CREAT) != 0
POLICY
expect_status 0 "a policy whose default allows is written as a @denylist one" -- "$SYSCAGE" compile \
	--format minijail -o "$TMP/mj/open.minijail" "$TMP/mj/open.policy"
expect_grep "$TMP/mj/open.minijail" "^@denylist$" "with its @denylist line"
expect_grep "$TMP/mj/open.minijail" "^openat: arg2 & 0x40; return 13$" "each line says when the errno is given"
expect_status 0 "the @denylist policy written equals the original" -- "$SYSCAGE" diff \
	"$TMP/mj/open.policy" "$TMP/mj/open.minijail"
expect_grep "$TMP/out" "^equivalent" "diff proves the denylist round trip"
cat >"$TMP/mj/lang.policy" <<'POLICY'
arch x86_64
default kill-process
badarch kill-process
errno(EPERM) write if arg0 == 2
allow write
allow close if !(arg0 < 3)
errno(EBADF) close
allow read
POLICY
expect_status 0 "a policy of the language as minijail" -- "$SYSCAGE" compile --format minijail \
	-o "$TMP/mj/lang.minijail" "$TMP/mj/lang.policy"
expect_status 0 "equal to the policy" -- "$SYSCAGE" diff "$TMP/mj/lang.policy" "$TMP/mj/lang.minijail"
printf 'arch x86_64\ndefault kill-process\nbadarch kill-process\nallow read if (arg0 & 0xf0) == 0x30\n' \
	>"$TMP/mj/cannot.policy"
expect_status 2 "a test minijail has no operator for is refused" -- "$SYSCAGE" compile \
	--format minijail -o "$TMP/mj/cannot.minijail" "$TMP/mj/cannot.policy"
expect_grep "$TMP/err" "cannot\.policy:4:.*error: a condition on 'read' has a test minijail cannot write" \
	"the error names the rule"
test -e "$TMP/mj/cannot.minijail" && not_ok "nothing written" || ok "nothing written"

echo "1..$n"
