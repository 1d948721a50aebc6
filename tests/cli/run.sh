#!/usr/bin/env bash
# syscage run: exit statuses, denials reported with their rule, kill verdicts,
# signals, descendants and threads, the one-time exec, supervisor death.
. "$(dirname "$0")/../cli_lib.bash"
S=$SYSCAGE
T="timeout -k 5 60"

printf 'default allow\n' >"$TMP/allow.policy"
printf 'default allow\nerrno(EACCES) mkdir, mkdirat\nkill-process rmdir\n' >"$TMP/deny.policy"
printf 'default allow\nerrno(EPERM) execve, execveat\n' >"$TMP/noexec.policy"

# waits (at most ~30 s, for loaded machines) until process $1 has a child; prints its pid
child_of() {
	local i c
	for i in $(seq 300); do
		c=$(pgrep -P "$1" | head -n 1)
		if [ -n "$c" ]; then echo "$c"; return 0; fi
		sleep 0.1
	done
	return 1
}

expect_status 0 "run -- true" -- $T "$S" run -p "$TMP/allow.policy" -- true
expect_status 3 "exit status is the program's" -- $T "$S" run -p "$TMP/allow.policy" -- sh -c 'exit 3'
expect_status 127 "missing program: 127" -- $T "$S" run -p "$TMP/allow.policy" -- no-such-program-here
expect_status 0 "run --help" -- $T "$S" run --help
expect_grep "$TMP/out" 'usage: syscage run' "help text"
expect_status 2 "no program: usage error" -- $T "$S" run -p "$TMP/allow.policy"

# the built-in default profile
if "$S" compile --list-profiles 2>/dev/null | grep -qw default; then
	expect_status 0 "default profile: true" -- $T "$S" run -- true
	expect_status 0 "default profile: ls -l /" -- $T "$S" run -- ls -l /
	expect_status 0 "default profile: cat" -- $T "$S" run -- cat /etc/hostname
	expect_status 0 "default profile: sh -c" -- $T "$S" run -- sh -c 'echo hi; ls / >/dev/null'
	if command -v python3 >/dev/null; then
		expect_status 0 "default profile: python3" -- $T "$S" run -- python3 -c 'print(1)'
		expect_grep "$TMP/out" '^1$' "default profile: python3 output"
	else
		ok "default profile: python3 # SKIP python3 not installed"
	fi
else
	ok "default profile # SKIP the built-in profile 'default' does not exist yet"
fi

# a denial: the program sees the errno, the user sees syscall and rule (reports come
# through seccomp user notification)
expect_status 1 "denied mkdir fails" -- $T "$S" run -p "$TMP/deny.policy" -- mkdir "$TMP/d"
expect_grep "$TMP/err" 'Permission denied' "program sees EACCES"
with_feature user-notif expect_grep "$TMP/err" "denied mkdirat?\\(AT_FDCWD, \"$TMP/d\"|denied mkdir\\(\"$TMP/d\"" "report decodes the call"
with_feature user-notif expect_grep "$TMP/err" 'ERRNO\(EACCES\) by rule .*deny\.policy:2' "report names the rule"
with_feature user-notif expect_grep "$TMP/err" '^ +1 +mkdir' "summary counts it"
if [ ! -e "$TMP/d" ]; then ok "directory not created"; else not_ok "directory not created"; fi

expect_status 1 "--log" -- $T "$S" run -p "$TMP/deny.policy" --log "$TMP/log.json" -q -- mkdir "$TMP/d"
with_feature user-notif expect_grep "$TMP/log.json" '"syscall":"mkdir(at)?".*"verdict":"ERRNO\(EACCES\)".*deny\.policy:2' "--log writes JSON"
if grep -q 'syscage: denied' "$TMP/err"; then not_ok "-q is quiet"; else ok "-q is quiet"; fi
if command -v python3 >/dev/null; then
	if python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/log.json"; then
		ok "--log lines are JSON"; else not_ok "--log lines are JSON"; fi
fi

expect_status 1 "--no-report installs the real verdict" -- $T "$S" run -p "$TMP/deny.policy" --no-report -- mkdir "$TMP/d"
if grep -q 'syscage: denied' "$TMP/err"; then not_ok "--no-report: no report"; else ok "--no-report: no report"; fi

# a kernel without user notifications (before 5.0): the verdicts as they are, and a warning
SYSCAGE_DISABLE_FEATURES=user-notif expect_status 1 "no USER_NOTIF: runs without reports" -- \
	$T "$S" run -p "$TMP/deny.policy" -- mkdir "$TMP/d"
expect_grep "$TMP/err" 'no SECCOMP_RET_USER_NOTIF \(Linux 5.0\); running without reports' "no USER_NOTIF: says so"
expect_grep "$TMP/err" 'mkdir: cannot create directory.*Permission denied' "no USER_NOTIF: the kernel's EACCES"
if grep -q 'syscage: denied' "$TMP/err"; then not_ok "no USER_NOTIF: no report"; else ok "no USER_NOTIF: no report"; fi
SYSCAGE_DISABLE_FEATURES=user-notif,no-such-thing expect_status 0 "an unknown feature name is only a warning" -- \
	$T "$S" run -p "$TMP/deny.policy" -- true
expect_grep "$TMP/err" "unknown feature 'no-such-thing'" "names the unknown feature"
[ "$(grep -c "unknown feature" "$TMP/err")" -eq 1 ] && ok "warned once" || not_ok "warned once" "$(cat "$TMP/err")"

printf 'default allow\nerrno(EPERM) write\n' >"$TMP/nowrite.policy"
expect_status 1 "denied write" -- $T "$S" run -p "$TMP/nowrite.policy" -- printf 'hi\n'
with_feature user-notif expect_grep "$TMP/err" 'denied write\(1, "hi\\n", 3\) from pid [0-9]+: ERRNO\(EPERM\)' "write data decoded"

# kill verdicts
expect_status 159 "kill rule: 128 + SIGSYS" -- $T "$S" run -p "$TMP/deny.policy" -- rmdir "$TMP/nothing"
with_feature user-notif expect_grep "$TMP/err" 'KILL verdict for rmdir' "kill message names the syscall"
expect_status 159 "--no-report kill: 128 + SIGSYS" -- $T "$S" run -p "$TMP/deny.policy" --no-report -- rmdir "$TMP/nothing"
expect_grep "$TMP/err" 'SIGSYS' "--no-report kill message names SIGSYS"

# descendants and threads are covered
expect_status 0 "forked child covered" -- $T "$S" run -p "$TMP/deny.policy" -- sh -c "mkdir $TMP/f 2>/dev/null; test ! -e $TMP/f"
with_feature user-notif expect_grep "$TMP/err" 'denied mkdir' "forked child's denial reported"
if command -v python3 >/dev/null; then
	expect_status 0 "thread covered" -- $T "$S" run -p "$TMP/deny.policy" -- python3 -c '
import os, sys, threading
r = []
def f():
    try: os.mkdir(sys.argv[1])
    except PermissionError: r.append(1)
t = threading.Thread(target=f); t.start(); t.join()
sys.exit(0 if r else 1)' "$TMP/th"
else
	ok "thread covered # SKIP python3 not installed"
fi

# one listener per filter chain: a nested supervised run is refused with a hint
with_feature user-notif expect_status 125 "nested run refused" -- $T "$S" run -p "$TMP/allow.policy" -- "$S" run -p "$TMP/allow.policy" -- true
with_feature user-notif expect_grep "$TMP/err" 'use --no-report' "nested run hint"
expect_status 0 "nested --no-report runs" -- $T "$S" run -p "$TMP/allow.policy" -- "$S" run --no-report -p "$TMP/allow.policy" -- true

# the first exec gets through once; later ones do not
expect_status 126 "execve denied after the start" -- $T "$S" run -p "$TMP/noexec.policy" -- sh -c 'echo started; exec /bin/true'
expect_grep "$TMP/out" '^started$' "program started despite the policy"
with_feature user-notif expect_grep "$TMP/err" 'denied execve\("/bin/true"' "later execve reported"

# signals sent to syscage reach the program (sleep bounds the wait if they do not)
"$S" run -p "$TMP/allow.policy" -- sleep 30 >"$TMP/sig.out" 2>"$TMP/sig.err" &
sv=$!
if c=$(child_of "$sv"); then
	kill -TERM "$sv"
fi
wait "$sv"
rc=$?
if [ "$rc" -eq 143 ]; then ok "SIGTERM forwarded: 143"; else not_ok "SIGTERM forwarded: 143" "status $rc" "$(cat "$TMP/sig.err")"; fi
expect_grep "$TMP/sig.err" 'SIGTERM' "signal named"

# killing the supervisor leaves nothing behind
"$S" run -p "$TMP/allow.policy" -- sleep 300 >/dev/null 2>&1 &
sv=$!
if c=$(child_of "$sv"); then
	kill -KILL "$sv"
	wait "$sv" 2>/dev/null
	gone=no
	for i in $(seq 300); do
		if ! kill -0 "$c" 2>/dev/null; then gone=yes; break; fi
		sleep 0.1
	done
	if [ $gone = yes ]; then ok "program dies with the supervisor"; else
		not_ok "program dies with the supervisor" "pid $c still alive"
		kill -KILL "$c" 2>/dev/null
	fi
else
	kill -KILL "$sv" 2>/dev/null
	not_ok "program dies with the supervisor" "no child appeared"
fi

# Warnings about a syscall one target ABI lacks are compile's business; -v shows them
printf 'arch x86_64, x86\ndefault allow\nallow newfstatat\n' >"$TMP/absent.policy"
expect_status 0 "a policy naming a syscall x86 lacks" -- $T "$S" run -p "$TMP/absent.policy" -- true
if grep -q "newfstatat" "$TMP/err"; then not_ok "run stays quiet about it" "$(cat "$TMP/err")"; else
	ok "run stays quiet about it"; fi
expect_status 0 "run -v" -- $T "$S" run -v -p "$TMP/absent.policy" -- true
expect_grep "$TMP/err" "'newfstatat' does not exist on x86" "-v shows the warning"

# A writer whose reader went away dies of SIGPIPE: normal in a pipeline, so nothing is said.
"$S" run -- yes 2>"$TMP/pipe.err" | head -n 1 >/dev/null
if [ -s "$TMP/pipe.err" ]; then not_ok "SIGPIPE in a pipeline: nothing said" "$(head -c 300 "$TMP/pipe.err")"; else
	ok "SIGPIPE in a pipeline: nothing said"; fi
