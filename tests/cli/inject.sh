#!/usr/bin/env bash
# syscage inject: strace-style fault injection into real programs -- errors,
# return values, signals, when= counting per syscall and thread, static rules
# compiled into the filter, groups, bad rules, exit statuses, strace parity.
. "$(dirname "$0")/../cli_lib.bash"
S=$SYSCAGE
T="timeout -k 5 60"
P=${BUILD:-build}/tests/helpers/inject_probe
if [ ! -x "$P" ]; then
	cc -D_GNU_SOURCE -o "$P" "$(dirname "$0")/../helpers/inject_probe.c" -lpthread >&2
fi
echo hello >"$TMP/file"

# strace, for the parity checks: installed by ./bootstrap, and able to trace here.
have_strace() { command -v strace >/dev/null && strace -qq -o /dev/null true 2>/dev/null; }

# expect_lines FILE NAME LINE...: FILE contains each LINE exactly (as a whole line).
expect_lines() {
	local file=$1 name=$2 missing=()
	shift 2
	for l in "$@"; do grep -qxF -- "$l" "$file" || missing+=("$l"); done
	if [ ${#missing[@]} -eq 0 ]; then ok "$name"; else
		not_ok "$name" "missing: ${missing[*]}" "got: $(head -c 400 "$file")"
	fi
}

expect_status 0 "inject --help" -- $T "$S" inject --help
expect_grep "$TMP/out" 'usage: syscage inject' "help text"
expect_status 2 "no program: usage error" -- $T "$S" inject 'getpid:error=EPERM'
expect_status 2 "no rule: usage error" -- $T "$S" inject -- true

# bad rules: exit 2, the column and a hint, and the program never starts
expect_status 2 "unknown errno: exit 2" -- $T "$S" inject 'openat:error=ENOENTT' -- touch "$TMP/started"
expect_grep "$TMP/err" "inject: rule 1, column 14: unknown errno 'ENOENTT' \(did you mean ENOENT\?\)" \
	"unknown errno: column and hint"
if [ -e "$TMP/started" ]; then not_ok "bad rule: program not started"; else ok "bad rule: program not started"; fi
expect_status 2 "unknown syscall: exit 2" -- $T "$S" inject 'getpid:error=EPERM' 'opnat:error=EIO' -- true
expect_grep "$TMP/err" "rule 2, column 1: unknown syscall 'opnat' \(did you mean openat\?\)" \
	"unknown syscall: did you mean"
expect_status 2 "bad when=: exit 2" -- $T "$S" inject 'getppid:retval=1:when=2..1' -- true
expect_grep "$TMP/err" "column 26: bad when-expression" "bad when=: column"
expect_status 2 "bad if=: exit 2" -- $T "$S" inject 'openat:error=EIO:if=flgs == 0' -- true
expect_grep "$TMP/err" "column 21: 'openat' has no parameter 'flgs'" "bad if=: the policy parser's message"
expect_status 2 "poke_enter= refused" -- $T "$S" inject 'getpid:poke_enter=@arg1=0' -- true
expect_grep "$TMP/err" "rule 1, column 8: strace's 'poke_enter=' is not possible with seccomp, because " \
	"poke_enter=: why not, with the column"
expect_status 2 "syscall= refused" -- $T "$S" inject 'getpid:syscall=gettid' -- true
expect_grep "$TMP/err" "column 8: strace's 'syscall=' is not possible with seccomp, because .*cannot change its number" \
	"syscall=: why not"
expect_status 2 "delay_exit= on a call that runs: refused" -- $T "$S" inject 'getpid:delay_exit=10' -- true
expect_grep "$TMP/err" "column 8: delay_exit= on a call that runs is not possible with seccomp, because .*never sees it return" \
	"delay_exit=: why not"

# a static rule: the kernel answers (SECCOMP_RET_ERRNO), no supervisor
expect_status 1 "static rule: cat gets EACCES" -- env LC_ALL=C $T "$S" inject \
	'openat:error=EACCES:if=(flags & O_CLOEXEC) == 0' -- cat "$TMP/file"
expect_grep "$TMP/err" "cat: .*file: Permission denied" "static rule: Permission denied"
expect_grep "$TMP/err" "in the filter; the kernel answers" "static rule: summary says in the filter"

# before Linux 5.0: rules the filter answers alone still work, counted ones cannot
SYSCAGE_DISABLE_FEATURES=user-notif expect_status 0 "no USER_NOTIF: a filter-only rule" -- \
	$T "$S" inject 'getppid:error=EPERM' -- "$P" getppid 1
expect_lines "$TMP/out" "no USER_NOTIF: the kernel answers" "getppid 1: EPERM"
SYSCAGE_DISABLE_FEATURES=user-notif expect_status 125 "no USER_NOTIF: a counted rule is refused" -- \
	$T "$S" inject 'getppid:error=EPERM:when=2' -- "$P" getppid 1
expect_grep "$TMP/err" "need SECCOMP_RET_USER_NOTIF" "no USER_NOTIF: says why"

# counted rules: the supervisor counts calls through seccomp user notification
if ! have_feature user-notif; then
	skip_feature user-notif "inject.sh: every check of a counted rule (when=, signals, summaries, --log)"
	exit 0
fi

# cat and the third openat (the loader makes the first two with LC_ALL=C)
expect_status 1 "cat fails on its 3rd openat" -- env LC_ALL=C $T "$S" inject 'openat:error=ENOENT:when=3' -- cat "$TMP/file"
expect_grep "$TMP/err" "cat: .*file: No such file or directory" "cat says: No such file or directory"
expect_grep "$TMP/err" "1 fault injected" "summary counts the injection"
expect_grep "$TMP/err" "rule 1  openat:error=ENOENT:when=3: 1 fault \(openat 1\) in pid [0-9]+" \
	"summary names rule, syscall and pid"

expect_status 0 "dump catches the installed filter" -- $T "$S" dump --format asm -- \
	"$S" inject 'getpid:error=EPERM' 'getppid:retval=3:when=2' -- true
expect_grep "$TMP/out" 'ret ERRNO\(1\)' "static rule compiled as ERRNO(1)"
expect_grep "$TMP/out" 'ret USER_NOTIF' "counted rule compiled as USER_NOTIF"
expect_grep "$TMP/out" 'ret ALLOW' "everything else: ALLOW"

# when= forms, on getppid (the loader never calls it)
expect_status 0 "retval, when=2..3" -- $T "$S" inject 'getppid:retval=42:when=2..3' -- "$P" getppid 4
expect_lines "$TMP/out" "retval, when=2..3: calls 2 and 3" "getppid 1: ppid" "getppid 2: 42" "getppid 3: 42" "getppid 4: ppid"
expect_status 0 "error, when=3" -- $T "$S" inject 'getppid:error=EPERM:when=3' -- "$P" getppid 4
expect_lines "$TMP/out" "error, when=3: call 3 only" "getppid 2: ppid" "getppid 3: EPERM" "getppid 4: ppid"
expect_status 0 "when=2+3" -- $T "$S" inject 'getppid:retval=42:when=2+3' -- "$P" getppid 6
expect_lines "$TMP/out" "when=2+3: calls 2 and 5" "getppid 1: ppid" "getppid 2: 42" "getppid 3: ppid" \
	"getppid 4: ppid" "getppid 5: 42" "getppid 6: ppid"
expect_status 0 "when=2+" -- $T "$S" inject 'getppid:retval=42:when=2+' -- "$P" getppid 3
expect_lines "$TMP/out" "when=2+: call 2 and later" "getppid 1: ppid" "getppid 2: 42" "getppid 3: 42"

# signals: alone the call runs; with error= both happen.  Twice: as this
# kernel allows (the signal before the answer, WAIT_KILLABLE_RECV keeps the
# call from restarting), and as before Linux 5.19 (the signal after it).
# After the answer, the signal can reach the program a little later than the
# call's return, but never after its next supervised call returns: each case
# ends with one more getppid, uninjected but counted, that the supervisor
# serves only after sending the signal before it.
for feat in "" wait-killable-recv; do
	k=${feat:+ (no $feat)}
	export SYSCAGE_DISABLE_FEATURES=$feat
	expect_status 0 "signal only$k" -- $T "$S" inject 'getppid:signal=SIGUSR1:when=2..3' -- "$P" getppid 4
	expect_lines "$TMP/out" "signal only: delivered twice, calls unchanged$k" "getppid 1: ppid" \
		"getppid 2: ppid" "getppid 3: ppid" "getppid 4: ppid" "SIGUSR1: 2"
	expect_grep "$TMP/err" "rule 1  getppid:signal=SIGUSR1:when=2\.\.3: 2 " "each call counted once$k"
	expect_status 0 "signal and error$k" -- $T "$S" inject 'getppid:error=EIO:signal=USR1:when=1' -- "$P" getppid 2
	expect_lines "$TMP/out" "signal and error: both$k" "getppid 1: EIO" "getppid 2: ppid" "SIGUSR1: 1"
	expect_status 143 "fatal injected signal: 128 + SIGTERM$k" -- $T "$S" inject 'getppid:signal=TERM:when=1' -- "$P" getppid 2
done
unset SYSCAGE_DISABLE_FEATURES

# several rules for one syscall: as under strace, the last one replaces the others for it
expect_status 0 "the last rule for a syscall wins" -- $T "$S" inject 'getppid:retval=42:when=2' 'getppid:retval=7' -- "$P" getppid 4
expect_lines "$TMP/out" "last rule wins: 7, 7, 7, 7" "getppid 1: 7" "getppid 2: 7" "getppid 3: 7" "getppid 4: 7"
expect_grep "$TMP/err" "inject: warning: rule 1: later rules replace this one for all its syscalls \(getppid\)" \
	"last rule wins: a warning names the replaced rule"
expect_grep "$TMP/err" "^  rule 1  getppid:retval=42:when=2: replaced by later rules for all its syscalls$" \
	"last rule wins: the summary says so"
expect_status 0 "a rule keeps the syscalls no later rule names" -- $T "$S" inject 'getppid,gettid:retval=42:when=2' 'getppid:retval=7' -- "$P" getppid 2
expect_lines "$TMP/out" "other syscalls stay with the first rule" "getppid 1: 7" "getppid 2: 7"
expect_grep "$TMP/err" "warning: rule 1: a later rule replaces this one for getppid " "the warning names the syscall"

# groups and strace's spellings
expect_status 0 "a group (@sync)" -- $T "$S" inject '@sync:error=EROFS:when=2' -- "$P" -f sync 2
expect_lines "$TMP/out" "group: each process's 2nd sync" "child sync 1: 0" "child sync 2: EROFS" \
	"parent sync 1: 0" "parent sync 2: EROFS"
expect_status 0 "-e inject= and --inject=" -- $T "$S" inject -e inject=getppid:retval=42:when=1 --inject=getppid:retval=43:when=2 -- "$P" getppid 2
expect_lines "$TMP/out" "strace spellings (the second rule replaces the first)" "getppid 1: ppid" "getppid 2: 43"
expect_status 0 "-e fault= defaults to ENOSYS" -- $T "$S" inject -e fault=getppid:when=1 -- "$P" getppid 1
expect_lines "$TMP/out" "fault: ENOSYS" "getppid 1: ENOSYS"

# processes: a forked child counts from 1 (per thread, like strace's per tracee)
expect_status 0 "forked child" -- $T "$S" inject 'getppid:retval=42:when=2' -- "$P" -f getppid 2
expect_lines "$TMP/out" "child and parent each get their 2nd call" "child getppid 2: 42" "parent getppid 2: 42" \
	"child getppid 1: ppid" "parent getppid 1: ppid"
expect_grep "$TMP/err" "2 faults injected" "forked child: both injections counted"
expect_grep "$TMP/err" "in pids [0-9]+, [0-9]+" "forked child: two pids"

expect_status 0 "second thread" -- $T "$S" inject 'getppid:retval=42:when=2' -- "$P" -t getppid 2
expect_lines "$TMP/out" "each thread counts its own calls" "thread getppid 1: ppid" "thread getppid 2: 42" \
	"main getppid 1: ppid" "main getppid 2: 42"

# exit statuses pass through
expect_status 7 "exit status passthrough" -- $T "$S" inject 'getppid:retval=1:when=5' -- sh -c 'exit 7'
expect_status 137 "killed program: 128 + SIGKILL" -- $T "$S" inject 'getppid:retval=1:when=5' -- sh -c 'kill -KILL $$'
expect_status 127 "missing program: 127" -- $T "$S" inject 'getpid:error=EPERM' -- no-such-program-here

# -q, --log, -p
expect_status 0 "-q: no summary" -- $T "$S" inject -q 'getppid:retval=42:when=1' -- "$P" getppid 1
if [ -s "$TMP/err" ]; then not_ok "-q: stderr empty" "$(cat "$TMP/err")"; else ok "-q: stderr empty"; fi
expect_status 0 "--log" -- $T "$S" inject --log "$TMP/log.json" 'getppid:retval=42:when=2' -- "$P" getppid 2
expect_grep "$TMP/log.json" '^\{"rule":1,"pid":[0-9]+,"tid":[0-9]+,"syscall":"getppid","decoded":"getppid\(\)","call":2,"retval":42\}$' \
	"--log: a JSON line per injection"
# the decoded call: which file the third openat opened, in the log and the summary
(cd "$TMP" && env LC_ALL=C $T "$S" inject --log "$TMP/open.json" 'openat:error=ENOENT:when=3' -- cat file) >"$TMP/out" 2>"$TMP/err"
expect_grep "$TMP/open.json" '"syscall":"openat","decoded":"openat\(AT_FDCWD, \\"file\\", O_RDONLY(, 0)?\)","call":3,"error":"ENOENT"' \
	"--log: the decoded call names the file"
expect_grep "$TMP/err" '^    openat\(AT_FDCWD, "file", O_RDONLY(, 0)?\)$' "summary: the decoded call under its rule"
expect_status 0 "summary: at most 3 calls shown" -- $T "$S" inject 'getppid:retval=42' -- "$P" getppid 5
expect_grep "$TMP/err" '^    \.\.\. 2 more \(--log FILE lists each\)$' "summary: the rest counted"
printf 'default allow\nerrno(EACCES) mkdir, mkdirat\n' >"$TMP/deny.policy"
expect_status 1 "-p: the policy still applies" -- $T "$S" inject -p "$TMP/deny.policy" 'getppid:retval=42' -- mkdir "$TMP/d"
expect_grep "$TMP/err" "Permission denied" "-p: mkdir denied by the policy"

# A kill verdict of -p's policy kills as the kernel does, under inject as under run, even a
# program that ignores SIGSYS (-s): the kernel carries it out, ahead of every rule.  A rule's
# counted calls that the policy kills therefore never reach it.
printf 'default allow\nkill unshare\n' >"$TMP/kill.policy"
expect_status 159 "run: a policy's kill ends a program that ignores SIGSYS" -- \
	$T "$S" run -p "$TMP/kill.policy" -- "$P" -s unshare 5
expect_status 159 "inject: the same kill ends it (128 + SIGSYS)" -- \
	$T "$S" inject -p "$TMP/kill.policy" 'unshare:retval=0:when=5' -- "$P" -s unshare 5
if grep -q '^unshare' "$TMP/out"; then not_ok "inject: no killed call returns" "$(cat "$TMP/out")"
else ok "inject: no killed call returns"; fi
expect_status 159 "inject: a static rule does not undo a kill" -- \
	$T "$S" inject -p "$TMP/kill.policy" 'unshare:error=EPERM' -- "$P" -s unshare 2
printf 'default allow\nkill-thread unshare\n' >"$TMP/kill-thread.policy"
expect_status 159 "inject: kill-thread kills the calling thread, then the last one" -- \
	$T "$S" inject -p "$TMP/kill-thread.policy" 'unshare:retval=0:when=5' -- "$P" -s -t unshare 5
expect_lines "$TMP/out" "inject: kill-thread: the other thread lives on" "thread joined"
if grep -q 'unshare' "$TMP/out"; then not_ok "inject: kill-thread: no killed call returns" "$(cat "$TMP/out")"
else ok "inject: kill-thread: no killed call returns"; fi
printf 'default allow\nkill unshare if (flags & CLONE_NEWUSER) != 0\n' >"$TMP/kill-some.policy"
expect_status 0 "inject: calls the policy lets run still get the rule" -- \
	$T "$S" inject -p "$TMP/kill-some.policy" 'unshare:error=EPERM:when=2' -- "$P" -s unshare 3
expect_lines "$TMP/out" "inject: a kill for some arguments only" "unshare 1: 0" "unshare 2: EPERM" "unshare 3: 0"

# parity with strace on the same rules
for rule in 'getppid:retval=42:when=2+3' 'getppid:error=EACCES:when=2..4'; do
	if have_strace; then
		$T strace -f -qq -o /dev/null -e inject="$rule" "$P" getppid 7 >"$TMP/strace.out" 2>/dev/null
		$T "$S" inject -q "$rule" -- "$P" getppid 7 >"$TMP/inject.out" 2>/dev/null
		expect_same "$TMP/strace.out" "$TMP/inject.out" "same results as strace for $rule"
	else
		skip_feature strace "same results as strace for $rule"
	fi
done

# several rules, personalities and delays, the same as under strace
for rules in "getppid:retval=42:when=2 getppid:retval=7" "getppid:retval=7 getppid:retval=42:when=2" \
	"getppid@64:retval=5:when=2+ getppid@32:retval=9" "getppid:error=EIO:delay_enter=1000:when=2" \
	"getppid:retval=3:delay_exit=2ms:when=1..2" "%pure:retval=42:when=2+" "%process,%pure:error=EIO:when=3" \
	"!%file,%desc,%memory,%signal,%process,%creds:retval=9:when=2..3"; do
	if have_strace; then
		set -- $rules
		sargs=() # strace's spelling: -e inject= for each rule
		for r in "$@"; do sargs+=(-e "inject=$r"); done
		$T strace -f -qq -o /dev/null "${sargs[@]}" "$P" getppid 4 >"$TMP/strace.out" 2>/dev/null
		$T "$S" inject -q "$@" -- "$P" getppid 4 >"$TMP/inject.out" 2>/dev/null
		expect_same "$TMP/strace.out" "$TMP/inject.out" "same results as strace for $rules"
	else
		skip_feature strace "same results as strace for $rules"
	fi
done
expect_status 2 "unknown class" -- $T "$S" inject '%fle:error=EIO' -- true
expect_grep "$TMP/err" "rule 1, column 1: unknown syscall class '%fle' \(did you mean %file\?\)" "unknown class: did you mean"
expect_status 2 "unknown personality" -- $T "$S" inject 'getppid@x3:retval=3' -- true
expect_grep "$TMP/err" "rule 1, column 9: unknown personality '@x3' \(strace's personalities are @64, @32 and @x32\)" \
	"unknown personality: the column and the choices"

# Path tests, like strace's -P: only calls that name the file count and get the fault.  cat's
# loader opens other files first; the second open of "file" fails, and the third succeeds.
cd "$TMP" || exit 1
for how in "if" "-P"; do
	if [ "$how" = if ]; then args=('openat:error=ENOENT:if=path == "file":when=2'); else
		args=(-P file 'openat:error=ENOENT:when=2'); fi
	expect_status 1 "path test ($how): the second open of the file fails" -- env LC_ALL=C $T "$S" inject "${args[@]}" -- cat file file file
	expect_same "$TMP/out" <(printf 'hello\nhello\n') "path test ($how): the first and third opens work"
	expect_grep "$TMP/err" "^cat: file: No such file or directory$" "path test ($how): cat says which"
	expect_grep "$TMP/err" '^    openat\(AT_FDCWD, "file", O_RDONLY(, 0)?\)$' "path test ($how): the summary shows the call"
done
# a descriptor open on the file counts too (cat reads, or copies with copy_file_range)
expect_status 1 "-P: a call on a descriptor of the file" -- env LC_ALL=C $T "$S" inject -P file \
	'read,copy_file_range,sendfile,splice:error=EIO' -- cat file
expect_grep "$TMP/err" "^cat: file: Input/output error$" "-P: the read fails, not the loader's"
if have_strace; then
	env LC_ALL=C $T strace -qq -o /dev/null -P file -e inject=openat:error=ENOENT:when=2 cat file file file \
		>"$TMP/strace.out" 2>"$TMP/strace.err"
	echo "status $?" >>"$TMP/strace.out"
	env LC_ALL=C $T "$S" inject -q -P file 'openat:error=ENOENT:when=2' -- cat file file file \
		>"$TMP/inject.out" 2>"$TMP/inject.err"
	echo "status $?" >>"$TMP/inject.out"
	expect_same "$TMP/strace.out" "$TMP/inject.out" "-P: the same results as strace -P"
else
	skip_feature strace "-P: the same results as strace -P"
fi
cd - >/dev/null || exit 1
expect_status 2 "a path test under ||" -- $T "$S" inject 'openat:error=EIO:if=flags == 0 || path == "x"' -- true
expect_grep "$TMP/err" 'rule 1, column 43: bad path test \(a path test is path == "FILE", joined to the rest of the condition with &&' \
	"a path test under ||: the column and how to write it"

# delays: the supervisor waits before it answers (sleeping never ends early, so the bound holds)
start=$(date +%s%N)
expect_status 0 "delay_enter=300ms" -- $T "$S" inject 'getppid:delay_enter=300ms:when=1' -- "$P" getppid 2
elapsed=$((($(date +%s%N) - start) / 1000000))
expect_lines "$TMP/out" "delay_enter: the call runs" "getppid 1: ppid" "getppid 2: ppid"
if [ "$elapsed" -ge 300 ]; then ok "delay_enter: at least 300 ms passed"
else not_ok "delay_enter: at least 300 ms passed" "only $elapsed ms"; fi
expect_status 2 "delay: a bad unit" -- $T "$S" inject 'getppid:error=EIO:delay_exit=0.2s' -- "$P" getppid 1
expect_grep "$TMP/err" "column 30: bad delay '0.2s'" "delay: bad delay, with the column"
start=$(date +%s%N)
expect_status 0 "delay_exit= with error=" -- $T "$S" inject 'getppid:error=EIO:delay_exit=200ms' -- "$P" getppid 1
elapsed=$((($(date +%s%N) - start) / 1000000))
expect_lines "$TMP/out" "delay_exit: the error" "getppid 1: EIO"
if [ "$elapsed" -ge 200 ]; then ok "delay_exit: at least 200 ms passed"
else not_ok "delay_exit: at least 200 ms passed" "only $elapsed ms"; fi

# retval=-1 is ambiguous: the program sees EPERM.  Warned about, as strace does, and injected.
expect_status 0 "retval=-1: injected" -- $T "$S" inject 'getppid:retval=-1' -- "$P" getppid 1
expect_lines "$TMP/out" "retval=-1: the program sees EPERM" "getppid 1: EPERM"
cp "$TMP/out" "$TMP/minus1.out"
expect_grep "$TMP/err" "inject: warning: rule 1, column 16: retval=-1 is ambiguous: .*errno EPERM.*\(write error=EPERM" \
	"retval=-1: a warning with the column and error=EPERM"
expect_status 0 "retval=42: no warning" -- $T "$S" inject 'getppid:retval=42' -- "$P" getppid 1
if grep -q warning "$TMP/err"; then not_ok "retval=42: no warning" "$(cat "$TMP/err")"; else ok "retval=42: no warning"; fi
if have_strace; then
	$T strace -f -qq -o /dev/null -e inject=getppid:retval=-1 "$P" getppid 1 >"$TMP/strace.out" 2>"$TMP/strace.err"
	expect_same "$TMP/strace.out" "$TMP/minus1.out" "retval=-1: strace's result is the same"
	expect_grep "$TMP/strace.err" "error 1 is possible" "retval=-1: strace warns too"
else
	skip_feature strace "retval=-1: strace's result is the same"
	skip_feature strace "retval=-1: strace warns too"
fi

# Rules in the filter: the summary says their faults go uncounted; --count counts them.
expect_status 0 "filter rule: summary" -- $T "$S" inject 'getppid:error=EPERM' 'acct:retval=1:when=1' -- "$P" getppid 2
expect_grep "$TMP/err" "^syscage: inject: 0 faults injected by the supervisor; the kernel injects the faults of 1 rule in the filter, uncounted \(--count counts them\)$" \
	"filter rule: the summary says it is not counted"
expect_status 0 "--count: the supervisor answers a filter rule" -- $T "$S" inject --count 'getppid:error=EPERM' -- "$P" getppid 2
expect_lines "$TMP/out" "--count: the same faults" "getppid 1: EPERM" "getppid 2: EPERM"
expect_grep "$TMP/err" "^syscage: inject: 2 faults injected by the supervisor$" "--count: counted"
# the filter's EPERM returns, less the guard's: the rule's is gone with --count
expect_status 0 "dump without --count" -- $T "$S" dump --format asm -- "$S" inject 'getpid:error=EPERM' 'getppid:retval=1:when=1' -- true
without=$(grep -c 'ret ERRNO(1) ' "$TMP/out")
expect_status 0 "dump with --count" -- $T "$S" dump --format asm -- "$S" inject --count 'getpid:error=EPERM' 'getppid:retval=1:when=1' -- true
with=$(grep -c 'ret ERRNO(1) ' "$TMP/out")
if [ "$with" -lt "$without" ]; then ok "--count: the rule's ERRNO is not in the filter"
else not_ok "--count: the rule's ERRNO is not in the filter" "ERRNO(1) returns: $with with --count, $without without"; fi

# A supervised program cannot start another supervisor (one listener per filter chain): the
# inner command fails with 125, says why, and prints no summary of a program that never ran.
expect_status 0 "nested inject" -- $T "$S" inject -q 'getppid:retval=1:when=9' -- sh -c \
	"$S inject 'getppid:retval=1:when=2' -- true; echo inner=\$?; $S learn -o $TMP/nested.policy -- true; echo learn=\$?"
expect_lines "$TMP/out" "nested: both inner commands fail to set up" "inner=125" "learn=125"
expect_grep "$TMP/err" "already supervised .*run the command outside" "nested: says why"
if grep -qE "faults? injected|--no-report" "$TMP/err"; then
	not_ok "nested: no summary, no --no-report hint" "$(cat "$TMP/err")"
else ok "nested: no summary, no --no-report hint"; fi
