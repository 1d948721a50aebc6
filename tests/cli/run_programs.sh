#!/usr/bin/env bash
# syscage run with real programs: coreutils, shells and python3 under the
# default profile give the same output and status as without syscage;
# denials from threads, grandchildren and concurrent stress are reported
# once each with the rule that decided them; signals; a supervisor killed
# while the program waits in a denied call; programs that fork and exit,
# close every fd, exec in a loop or try to forge the exec cookie; stdio
# passes through byte for byte and exit statuses 0..255 unchanged; a
# program that tries to kill syscage and its watchdog (as a grandchild,
# without its parent-death signal, as root) under run, inject and learn;
# reports of memory a racing thread rewrites; a program with a seccomp
# filter of its own, CLONE_PARENT with exit signal SIGKILL, the guard through
# int 0x80, and denied calls with pointers no report can read.
. "$(dirname "$0")/../cli_lib.bash"
S=$(realpath "$SYSCAGE") # the checks below run in other directories
T="timeout -k 5 60"

# Every run here is supervised: reports come through seccomp user notification, and
# without it syscage warns on stderr, which the same-as-without-syscage checks compare.
if ! have_feature user-notif; then
	skip_feature user-notif "run_programs.sh: supervised runs of real programs"
	exit 0
fi

W=$(helper run_workload)
REAP=$(helper reap_all)

# Tools every check below needs; a missing one is a failure, never a skip
# (./bootstrap installs them).
for tool in python3 bash tar find sed grep sort cmp timeout script setsid; do
	if command -v "$tool" >/dev/null; then ok "tool $tool present"; else
		not_ok "tool $tool present" "install it (./bootstrap lists the packages)"
	fi
done

# waits (at most 10 s) for a file to appear
wait_for() { for _ in $(seq 600); do [ -s "$1" ] && return 0; sleep 0.05; done; return 1; }

# --- the default profile: same output, status and stderr as without syscage ---

mkdir -p "$TMP/fixture/sub/deeper"
printf 'alpha\nbeta\ngamma\nfoo bar\n' >"$TMP/fixture/a.txt"
printf 'x marks\nthe spot\n' >"$TMP/fixture/b.txt"
printf '10\n9\n100\n-3\n42\n' >"$TMP/fixture/nums.txt"
printf 'inner\n' >"$TMP/fixture/sub/inner.txt"
head -c 4096 /dev/urandom >"$TMP/fixture/sub/deeper/blob.bin"

# the tree below $1: paths, types, modes, and the content of every file
snapshot() {
	(cd "$1" && find . -printf '%p %y %m\n' | LC_ALL=C sort &&
		find . -type f -exec cksum {} + | LC_ALL=C sort)
}

# same_as_direct NAME CMD...: runs CMD in a fresh copy of the fixture, once
# directly and once under the default profile (stdin /dev/null both times);
# stdout, stderr, exit status and the resulting tree must be the same (so
# nothing was reported denied either).  EXPECT_FAIL=N: N is the status wanted.
same_as_direct() {
	local name=$1 want got
	shift
	# the same directory both times, so even $PWD is the same
	rm -rf "$TMP/w" && cp -a "$TMP/fixture" "$TMP/w"
	(cd "$TMP/w" && "$@") </dev/null >"$TMP/d.out" 2>"$TMP/d.err"
	want=$?
	snapshot "$TMP/w" >"$TMP/d.tree"
	rm -rf "$TMP/w" && cp -a "$TMP/fixture" "$TMP/w"
	(cd "$TMP/w" && $T "$S" run -- "$@") </dev/null >"$TMP/u.out" 2>"$TMP/u.err"
	got=$?
	snapshot "$TMP/w" >"$TMP/u.tree"
	if [ "$got" -ne "$want" ]; then
		not_ok "$name" "exit status $got under syscage, $want without" "$(head -c 600 "$TMP/u.err")"
	elif ! cmp -s "$TMP/d.out" "$TMP/u.out"; then
		not_ok "$name" "stdout differs:" "$(diff "$TMP/d.out" "$TMP/u.out" | head -n 10)"
	elif ! cmp -s "$TMP/d.err" "$TMP/u.err"; then
		not_ok "$name" "stderr differs:" "$(diff "$TMP/d.err" "$TMP/u.err" | head -n 10)"
	elif ! cmp -s "$TMP/d.tree" "$TMP/u.tree"; then
		not_ok "$name" "files differ:" "$(diff "$TMP/d.tree" "$TMP/u.tree" | head -n 10)"
	elif [ "$want" -ne "${EXPECT_FAIL:-0}" ]; then
		not_ok "$name" "the command itself gave status $want" "$(head -c 600 "$TMP/d.err")"
	else
		ok "$name"
	fi
}

same_as_direct "default profile: ls" ls -1aRF
same_as_direct "default profile: ls -l" ls -ln --time-style=+%s sub
same_as_direct "default profile: cat" cat a.txt b.txt sub/deeper/blob.bin
same_as_direct "default profile: cp -a" cp -a sub copy
same_as_direct "default profile: cp" cp a.txt c.txt
same_as_direct "default profile: mv" mv a.txt sub/moved.txt
same_as_direct "default profile: rm -r" rm -r sub b.txt
same_as_direct "default profile: mkdir -p" mkdir -p new/deeper/still
same_as_direct "default profile: stat" stat -c '%n %s %F %a %h' a.txt sub sub/deeper/blob.bin
same_as_direct "default profile: sort" sort -n -r nums.txt
same_as_direct "default profile: sort -o" sort -o sorted.txt a.txt b.txt
same_as_direct "default profile: wc" wc a.txt b.txt nums.txt
same_as_direct "default profile: date" date -u -d @1234567890 '+%F %T %s'
same_as_direct "default profile: env" env -u _
same_as_direct "default profile: id" id
same_as_direct "default profile: find" find . -name '*.txt' -newer sub -o -type d -print
same_as_direct "default profile: grep" grep -rn -e a -e x .
EXPECT_FAIL=1 same_as_direct "default profile: grep, no match (status 1)" grep nothing-like-this a.txt
same_as_direct "default profile: sed" sed -e 's/a/A/g' -e '2d' a.txt
same_as_direct "default profile: sed -i" sed -i 's/x/y/' b.txt
same_as_direct "default profile: tar" sh -c 'tar -cf t.tar sub a.txt && mkdir ex &&
	tar -xpf t.tar -C ex && tar -tf t.tar | LC_ALL=C sort'
same_as_direct "default profile: tar -z" sh -c 'tar -czf t.tgz sub && tar -tzf t.tgz | LC_ALL=C sort'
same_as_direct "default profile: sh pipes, redirections, subshells" sh -c '
	cat a.txt | tr a-z A-Z | sort -r >up.txt
	(cd sub && ls; echo "in $(basename "$PWD")") 2>&1
	echo "lines $(wc -l <up.txt)"
	{ echo out; echo err >&2; } 2>err.txt
	exec 3>fd3.txt; echo three >&3; exec 3>&-
	cat err.txt fd3.txt; echo here | (read -r x; echo "read $x")
	false || echo "status $?"; sh -c "exit 4"; echo "child $?"'
same_as_direct "default profile: python3 threads, subprocess, os.listdir" python3 -c '
import os, subprocess, threading
squares = []
lock = threading.Lock()
def work(i):
    with lock:
        squares.append(i * i)
threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
for t in threads: t.start()
for t in threads: t.join()
print(sorted(squares))
print(subprocess.run(["sort", "-n", "nums.txt"], capture_output=True, text=True, check=True).stdout, end="")
p = subprocess.Popen("cat | wc -l", shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
print(p.communicate(b"1\n2\n3\n")[0].decode().strip(), p.returncode)
print(sorted(os.listdir(".")), sorted(os.listdir("sub")))
os.mkdir("made"); os.rename("b.txt", "made/b.txt")'
same_as_direct "default profile: bash job control without a tty" bash -c '
	sleep 0.2 & j=$!
	jobs | wc -l
	wait $j; echo "wait $?"
	(exit 7) & wait $!; echo "subshell $?"
	set -m
	sleep 0.1 &
	fg %1 >/dev/null; echo "fg $?"
	sleep 5 & kill %1; wait; echo "killed"
	sleep 5 & kill -STOP %1; kill -CONT %1; kill %1; wait
	trap "echo usr1" USR1; kill -USR1 $$
	echo end'

# --- a denied syscall: its name, the rule's file:line, in stderr and --log ---

cat >"$TMP/deny.policy" <<'EOF'
# test policy: mkdir is refused
default allow

errno(EACCES) mkdir, mkdirat
EOF
deny=$TMP/deny.policy

expect_status 1 "coreutils mkdir denied" -- $T "$S" run -p "$deny" --log "$TMP/mk.log" -- mkdir "$TMP/nope"
expect_grep "$TMP/err" "^syscage: denied mkdir(at)?\\((AT_FDCWD, )?\"$TMP/nope\", 0777\\) from pid [0-9]+: ERRNO\\(EACCES\\) by rule $deny:4 \\[\\*\\]\$" \
	"stderr names the call, the verdict and the rule's file:line, marks the path as read after the call"
expect_grep "$TMP/err" "^syscage: \\[\\*\\] strings and data in a report are read from the program's memory after the call" \
	"the marker is explained"
expect_grep "$TMP/err" "cannot create directory.*Permission denied" "mkdir saw EACCES"
expect_grep "$TMP/err" '^ +1  mkdir(at)? +ERRNO\(EACCES\)$' "summary counts one denial"
if [ ! -e "$TMP/nope" ]; then ok "nothing created"; else not_ok "nothing created"; fi

expect_status 0 "grandchild's denial" -- $T "$S" run -p "$deny" --log "$TMP/tree.log" -- "$W" forktree "$TMP/nope"
gc=$(sed -n 's/^grandchild //p' "$TMP/out")
expect_grep "$TMP/out" '^errno 13$' "grandchild saw EACCES"
expect_grep "$TMP/err" "^syscage: denied mkdirat\\(AT_FDCWD, \"$TMP/nope\", 0755\\) from pid ${gc:-none}: ERRNO\\(EACCES\\) by rule $deny:4 \\[\\*\\]\$" \
	"grandchild's denial reported with its pid"
if python3 - "$TMP/tree.log" "${gc:-0}" "$deny" "$TMP/nope" <<'EOF' 2>"$TMP/py.err"
import json, sys
log, pid, policy, path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
lines = [json.loads(l) for l in open(log)]
assert len(lines) == 1, lines
d = lines[0]
assert d["pid"] == pid, d
assert d["syscall"] == "mkdirat", d
assert d["call"] == 'mkdirat(AT_FDCWD, "%s", 0755)' % path, d
assert d["read_after_call"] is True, d
assert d["verdict"] == "ERRNO(EACCES)", d
assert d["by"] == "rule %s:4" % policy, d
assert isinstance(d["nr"], int), d
EOF
then ok "--log: one JSON line with pid, syscall, call, read_after_call, verdict and rule"; else
	not_ok "--log: one JSON line with pid, syscall, call, read_after_call, verdict and rule" "$(cat "$TMP/py.err")"
fi

# --- threads ---------------------------------------------------------------

expect_status 0 "16 threads, one denied" -- $T "$S" run -p "$deny" --log "$TMP/th.log" -- "$W" threads 16 "$TMP/nope"
tid=$(sed -n 's/^tid \([0-9]*\) .*/\1/p' "$TMP/out")
expect_grep "$TMP/out" '^tid [0-9]+ errno 13$' "the thread saw EACCES"
expect_grep "$TMP/err" "denied mkdirat\\(.*\\) from pid ${tid:-none}: ERRNO\\(EACCES\\)" "denial reported with the thread's id"
if [ "$(wc -l <"$TMP/th.log")" -eq 1 ]; then ok "exactly one denial logged"; else
	not_ok "exactly one denial logged" "$(cat "$TMP/th.log")"
fi

# a KILL verdict for one thread kills the whole process (found through its thread id)
printf 'default allow\nkill-process rmdir\n' >"$TMP/kill.policy"
expect_status 159 "KILL verdict in a second thread: 128 + SIGSYS" -- $T "$S" run -p "$TMP/kill.policy" -- python3 -c '
import os, sys, threading, time
def deny():
    try: os.rmdir(sys.argv[1])
    except OSError: print("thread survived")
t = threading.Thread(target=deny); t.start(); t.join()
time.sleep(2); print("process survived")' "$TMP/nope"
if [ ! -s "$TMP/out" ]; then ok "neither the thread nor the process ran on"; else not_ok "neither the thread nor the process ran on" "$(cat "$TMP/out")"; fi
expect_grep "$TMP/err" "KILL verdict for rmdir" "the message names the syscall"

# --- signals sent to syscage reach the program -----------------------------

# start_bg READY CMD...: starts syscage in the background; its pid in $sv,
# the program's (written by run_workload to READY) in $prog
start_bg() {
	local ready=$1
	shift
	rm -f "$ready"
	"$S" "$@" >"$TMP/bg.out" 2>"$TMP/bg.err" &
	sv=$!
	prog=
	wait_for "$ready" && prog=$(cat "$ready")
}

for sig in TERM INT HUP; do
	num=$(kill -l "$sig")
	start_bg "$TMP/ready" run -p "$deny" -- "$W" trap "$TMP/ready"
	[ -n "$prog" ] && kill -s "$sig" "$sv"
	wait "$sv"
	rc=$?
	if [ "$rc" -eq 0 ] && grep -qx "caught SIG$sig" "$TMP/bg.out"; then ok "SIG$sig reaches a program that traps it"; else
		not_ok "SIG$sig reaches a program that traps it" "status $rc" "$(cat "$TMP/bg.out" "$TMP/bg.err")"
	fi

	start_bg "$TMP/ready" run -p "$deny" -- "$W" die "$TMP/ready"
	[ -n "$prog" ] && kill -s "$sig" "$sv"
	wait "$sv"
	rc=$?
	if [ "$rc" -eq $((128 + num)) ]; then ok "SIG$sig kills the program: status $((128 + num))"; else
		not_ok "SIG$sig kills the program: status $((128 + num))" "status $rc" "$(cat "$TMP/bg.err")"
	fi
	expect_grep "$TMP/bg.err" "^syscage: program killed by signal $num \\(SIG$sig\\)\$" "message names SIG$sig"
done

# Ctrl-C on a terminal (script(1) provides one): the kernel sends SIGINT to
# the foreground process group.  A program in syscage's group gets it from
# the kernel; one that made itself a session of its own (setsid) only
# through syscage.  `exec`: script(1) starts $SHELL -c, and a shell that
# stays to wait (dash does) would itself be killed by the Ctrl-C.
for how in "" setsid; do
	rm -f "$TMP/ready"
	( wait_for "$TMP/ready" && printf '\003' ) |
		$T script -qfec "exec $S run -p $deny -- $how $W trap $TMP/ready" /dev/null >"$TMP/tty.out" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q "caught SIGINT" "$TMP/tty.out"; then ok "Ctrl-C reaches the program${how:+ in its own session}"; else
		not_ok "Ctrl-C reaches the program${how:+ in its own session}" "status $rc" "$(cat "$TMP/tty.out")"
	fi
done

start_bg "$TMP/ready" run -p "$deny" -- "$W" die "$TMP/ready"
[ -n "$prog" ] && kill -KILL "$prog"
wait "$sv"
rc=$?
if [ "$rc" -eq 137 ]; then ok "SIGKILL of the program: 137"; else not_ok "SIGKILL of the program: 137" "status $rc"; fi
expect_grep "$TMP/bg.err" 'SIGKILL' "message names SIGKILL"

# --- the supervisor killed while the program waits in a denied call -------

# Runs under reap_all (a child subreaper), which collects every process the
# scenario leaves behind and reports how each ended.  The program and its
# grandchild both wait in mkdirat, which only the (stopped) supervisor can
# answer; then the supervisor is killed.  --keep-children: the grandchild is
# left to the watchdog's answers (by default the watchdog kills the tree).
cat >"$TMP/killsv.sh" <<'EOF'
S=$1 W=$2 deny=$3 dir=$4
"$S" run --keep-children -p "$deny" -- "$W" block "$dir/ks.ready" "$dir/ks.go" "$dir/nope" 2>"$dir/killsv.err" &
sv=$!
for _ in $(seq 600); do [ -s "$dir/ks.ready" ] && break; sleep 0.05; done
read -r prog grandchild nr <"$dir/ks.ready" || exit 3
kill -STOP "$sv"
touch "$dir/ks.go"
# both wait in the denied call (the kernel shows its number first in /proc/PID/syscall)
for _ in $(seq 600); do
	a=$(cut -d' ' -f1 "/proc/$prog/syscall") b=$(cut -d' ' -f1 "/proc/$grandchild/syscall")
	[ "$a" = "$nr" ] && [ "$b" = "$nr" ] && break
	sleep 0.05
done
[ "$a" = "$nr" ] && [ "$b" = "$nr" ] || exit 4
kill -KILL "$sv"
wait "$sv"
echo "supervisor $?"
EOF
$T "$REAP" 30 bash "$TMP/killsv.sh" "$S" "$W" "$deny" "$TMP" >"$TMP/reap.out" 2>&1
rc=$?
read -r prog grandchild _ <"$TMP/ks.ready" 2>/dev/null
if [ "$rc" -eq 0 ] && grep -qx 'supervisor 137' "$TMP/reap.out"; then ok "supervisor killed mid-call"; else
	not_ok "supervisor killed mid-call" "status $rc" "$(cat "$TMP/reap.out")"
fi
if grep -q '^left' "$TMP/reap.out"; then not_ok "nothing hangs or stays behind" "$(cat "$TMP/reap.out")"; else
	ok "nothing hangs or stays behind"
fi
expect_grep "$TMP/reap.out" "^reaped ${prog:-none} signal 9\$" "the program dies with its supervisor (parent-death SIGKILL)"
expect_grep "$TMP/reap.out" "^reaped ${grandchild:-none} exit 13\$" \
	"the grandchild's pending call gets the policy's EACCES from the watchdog, it goes on"
if [ ! -e "$TMP/nope" ]; then ok "the denied call never ran"; else not_ok "the denied call never ran"; fi

# The same after the program changed its user (root only): the kernel then
# drops its parent-death signal, and syscage's watchdog must kill it instead.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	cat >"$TMP/setuid.sh" <<'EOF'
S=$1 policy=$2
"$S" run -p "$policy" -- setpriv --reuid=65534 --regid=65534 --clear-groups sleep 30 &
sv=$!
for _ in $(seq 600); do
	prog=$(pgrep -P "$sv" -x sleep) # not the watchdog, syscage's other child
	[ -n "$prog" ] && grep -q '^Uid:[[:space:]]*65534' "/proc/$prog/status" &&
		[ "$(cat "/proc/$prog/comm")" = sleep ] && break
	sleep 0.05
done
echo "program $prog"
kill -KILL "$sv"
wait "$sv"
echo "supervisor $?"
EOF
	printf 'default allow\n' >"$TMP/allow.policy"
	$T "$REAP" 10 bash "$TMP/setuid.sh" "$S" "$TMP/allow.policy" >"$TMP/reap.out" 2>&1
	prog=$(sed -n 's/^program //p' "$TMP/reap.out")
	if grep -qx "reaped ${prog:-none} signal 9" "$TMP/reap.out" && ! grep -q '^left' "$TMP/reap.out"; then
		ok "a program that changed its user dies with its supervisor too"; else
		not_ok "a program that changed its user dies with its supervisor too" "$(cat "$TMP/reap.out")"
	fi
else
	skip_feature root-setpriv "a program that changed its user dies with its supervisor too"
fi

# The supervisor killed while it answers a call: it has received the
# child's denied call and is blocked writing the report (its stderr is a
# full pipe nobody reads).  The watchdog answers that call from the slot
# they share, and every later one, with the policy's EACCES: the child
# makes all 3000 calls, none fails with ENOSYS, none hangs.
rm -f "$TMP/cl.ready" "$TMP/cl.result"
mkfifo "$TMP/full"
cat >"$TMP/slot.sh" <<'SCRIPT'
S=$1 W=$2 deny=$3 dir=$4
exec 9<>"$dir/full" # a reader that never reads
# filled up front: identical reports collapse, so the first one must already block
python3 -c '
import fcntl, os
fcntl.fcntl(9, fcntl.F_SETFL, fcntl.fcntl(9, fcntl.F_GETFL) | os.O_NONBLOCK)
for size in (4096, 1):
    try:
        while True:
            os.write(9, b"x" * size)
    except BlockingIOError:
        pass
' || exit 5
"$S" run --keep-children -p "$deny" -- "$W" child-loop 3000 "$dir/nope" "$dir/cl.ready" "$dir/cl.result" 2>"$dir/full" &
sv=$!
for _ in $(seq 600); do [ -s "$dir/cl.ready" ] && break; sleep 0.05; done
read -r child nr <"$dir/cl.ready" || exit 3
write=$("$S" syscalls write | cut -d' ' -f2)
for _ in $(seq 600); do
	a=$(cut -d' ' -f1 "/proc/$sv/syscall") b=$(cut -d' ' -f1 "/proc/$child/syscall")
	[ "$a" = "$write" ] && [ "$b" = "$nr" ] && break
	sleep 0.05
done
[ "$a" = "$write" ] && [ "$b" = "$nr" ] || exit 4
kill -KILL "$sv"
wait "$sv"
echo "supervisor $?"
SCRIPT
$T "$REAP" 30 bash "$TMP/slot.sh" "$S" "$W" "$deny" "$TMP" >"$TMP/reap.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -qx 'supervisor 137' "$TMP/reap.out" && ! grep -q '^left' "$TMP/reap.out"; then
	ok "supervisor killed while it reports a call: nothing hangs or stays behind"; else
	not_ok "supervisor killed while it reports a call: nothing hangs or stays behind" "status $rc" "$(cat "$TMP/reap.out")"
fi
if [ "$(cat "$TMP/cl.result" 2>/dev/null)" = "denied 3000 of 3000" ]; then
	ok "the call it had received, and every later one, get the policy's EACCES"; else
	not_ok "the call it had received, and every later one, get the policy's EACCES" "got '$(cat "$TMP/cl.result" 2>/dev/null)'"
fi

# --- a program that tries to end its own supervision -------------------------

# supervisor_attack kills syscage's watchdog and syscage (or tries), then
# calls unshare(0), which these policies kill or refuse; it writes each
# step to its result file, so an "unshare" line there means it ran on past
# a call its policy kills.  Each run is in a session of its own (setsid), so
# a group kill that got through would reach nothing else.
A=$(helper supervisor_attack)
printf 'default allow\nkill-process unshare\n' >"$TMP/unshare.policy"
printf 'default allow\nerrno(EACCES) unshare\n' >"$TMP/eacces.policy"

# attacked NAME RESULT: the two kills were refused, and nothing ran past the KILL verdict
attacked() {
	local name=$1 result=$2
	if grep -qx 'kill syscage-watch EPERM' "$result" && grep -qx 'kill syscage EPERM' "$result" &&
		! grep -q '^unshare' "$result"; then
		ok "$name: the kills are refused, unshare still kills"; else
		not_ok "$name: the kills are refused, unshare still kills" "$(cat "$result" 2>/dev/null)"
	fi
}

# Unprivileged (uid 65534 when we are root): a grandchild, which has no
# parent-death signal, kills both and would run on.  The programs are
# copied where that user can reach them.
att=$TMP/att
mkdir -p "$att" && chmod 711 "$TMP" && chmod 1777 "$att" &&
	cp "$S" "$A" "$TMP/unshare.policy" "$att/" &&
	chmod a+rx "$att/syscage" "$att/supervisor_attack" && chmod a+r "$att/unshare.policy"
as_user=()
[ "$(id -u)" -eq 0 ] && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
rm -f "$att/r.grandchild"
expect_status 0 "attack: an unprivileged grandchild kills syscage and its watchdog" -- $T \
	"${as_user[@]}" setsid "$att/syscage" run -p "$att/unshare.policy" -- \
	"$att/supervisor_attack" grandchild "$att/r.grandchild"
attacked "attack: an unprivileged grandchild" "$att/r.grandchild"
expect_grep "$TMP/out" '^attacker signal 9$' "attack: the grandchild dies at unshare"
expect_grep "$TMP/err" '^syscage: denied unshare\(0\) from pid [0-9]+: KILL_PROCESS by rule .*:2$' \
	"attack: and its unshare is reported"

# The program itself, after clearing its parent-death signal.
rm -f "$att/r.pdeathsig"
expect_status 159 "attack: the program clears PR_SET_PDEATHSIG and kills both" -- $T \
	"${as_user[@]}" setsid "$att/syscage" run -p "$att/unshare.policy" -- \
	"$att/supervisor_attack" pdeathsig "$att/r.pdeathsig"
attacked "attack: the program without its parent-death signal" "$att/r.pdeathsig"
expect_grep "$TMP/err" 'KILL verdict for unshare' "attack: the program dies by the policy's KILL"

# Root, after setegid(1) (a credential change clears the parent-death signal);
# root may signal anything, so only the guard stands in the way.
if [ "$(id -u)" -eq 0 ]; then
	rm -f "$TMP/r.setegid"
	expect_status 159 "attack: a root program changes its group and kills both" -- $T \
		setsid "$S" run -p "$TMP/unshare.policy" -- "$A" setegid "$TMP/r.setegid"
	expect_grep "$TMP/r.setegid" '^pdeathsig 9 then 0$' "attack: setegid cleared the parent-death signal"
	attacked "attack: a root program after setegid" "$TMP/r.setegid"
else
	skip_feature root "attack: a root program changes its group and kills both"
fi

# The guard decides only calls the policy lets run: where the policy itself
# refuses kill, its verdict holds and is reported, a KILL as an errno.
printf 'default allow\nkill-process kill\n' >"$TMP/killkill.policy"
expect_status 159 "attack under a policy that kills kill(): killed by that verdict" -- $T \
	setsid "$S" run -p "$TMP/killkill.policy" -- "$A" pdeathsig "$TMP/r.killkill"
expect_grep "$TMP/err" '^syscage: denied kill\([0-9]+, SIGKILL\) from pid [0-9]+: KILL_PROCESS by rule .*:2$' \
	"attack under a policy that kills kill(): reported"
printf 'default allow\nerrno(EACCES) kill\nkill-process unshare\n' >"$TMP/eacceskill.policy"
rm -f "$TMP/r.eacceskill"
expect_status 159 "attack under a policy that refuses kill() with EACCES" -- $T \
	setsid "$S" run -p "$TMP/eacceskill.policy" -- "$A" pdeathsig "$TMP/r.eacceskill"
if grep -qx 'kill syscage-watch EACCES' "$TMP/r.eacceskill" && grep -qx 'kill syscage EACCES' "$TMP/r.eacceskill"; then
	ok "attack under a policy that refuses kill() with EACCES: the policy's errno, not the guard's"; else
	not_ok "attack under a policy that refuses kill() with EACCES: the policy's errno, not the guard's" \
		"$(cat "$TMP/r.eacceskill" 2>/dev/null)"
fi
expect_grep "$TMP/err" '^syscage: denied kill\([0-9]+, SIGKILL\) from pid [0-9]+: ERRNO\(EACCES\) by rule .*:2$' \
	"attack under a policy that refuses kill() with EACCES: reported"

# inject: a call the base policy refuses and a counted rule covers goes to
# the supervisor; after the attack it still gets the base policy's EACCES.
for mode in grandchild pdeathsig; do
	rm -f "$TMP/r.inject"
	expect_status 0 "attack on inject: $mode" -- $T setsid "$S" inject -q -p "$TMP/eacces.policy" \
		'unshare:error=EPERM:when=5' -- "$A" $mode "$TMP/r.inject"
	if grep -qx 'kill syscage-watch EPERM' "$TMP/r.inject" && grep -qx 'kill syscage EPERM' "$TMP/r.inject" &&
		grep -qx 'unshare -1 EACCES' "$TMP/r.inject"; then
		ok "attack on inject: $mode: the kills are refused, unshare still gets EACCES"; else
		not_ok "attack on inject: $mode: the kills are refused, unshare still gets EACCES" "$(cat "$TMP/r.inject")"
	fi
done

# learn denies nothing, but a killed supervisor would write no policy.
rm -f "$TMP/r.learn" "$TMP/learned.policy"
expect_status 0 "attack on learn: a grandchild kills both" -- $T setsid "$S" learn -o "$TMP/learned.policy" -- \
	"$A" grandchild "$TMP/r.learn"
if grep -qx 'kill syscage-watch EPERM' "$TMP/r.learn" && grep -qx 'kill syscage EPERM' "$TMP/r.learn" &&
	grep -qw 'unshare' "$TMP/learned.policy" 2>/dev/null; then
	ok "attack on learn: the kills are refused, the policy is written and has unshare"; else
	not_ok "attack on learn: the kills are refused, the policy is written and has unshare" \
		"$(cat "$TMP/r.learn" "$TMP/learned.policy" 2>/dev/null | head -n 20)"
fi

# Under learn every call comes to the supervisor, which answers those calls
# as the guard would and records them, so the policy it writes runs the same
# program under run, where the guard refuses them and the policy allows them.
rm -f "$TMP/r.lv" "$TMP/r.rv"
# Without Landlock: with its scopes the kernel refuses the signals to syscage
# and a SIGKILL to the group kills the program itself (tests/cli/run_sandbox.sh).
export SYSCAGE_DISABLE_FEATURES=landlock
expect_status 0 "learn a program the guard refuses" -- $T setsid "$S" learn -o "$TMP/vectors.policy" -- \
	"$A" vectors "$TMP/r.lv"
expect_status 0 "run it under the learned policy" -- $T setsid "$S" run -p "$TMP/vectors.policy" -- \
	"$A" vectors "$TMP/r.rv"
expect_same "$TMP/r.lv" "$TMP/r.rv" "the same refusals, learning and running"
if grep -q 'denied' "$TMP/err"; then not_ok "and nothing denied" "$(cat "$TMP/err")"; else
	ok "and nothing denied"; fi

# Every other way to signal, trace or limit syscage and its watchdog.
rm -f "$TMP/r.vectors"
expect_status 0 "attack: every other way in" -- $T setsid "$S" run -p "$TMP/unshare.policy" -- \
	"$A" vectors "$TMP/r.vectors"
if grep -qx 'vectors done' "$TMP/r.vectors" &&
	! grep -v -e ' EPERM$' -e '^pidfd_send_signal .* ENOSYS$' -e '^vectors done$' "$TMP/r.vectors" | grep -q .; then
	ok "attack: each refused (pidfd_send_signal with ENOSYS)"; else
	not_ok "attack: each refused (pidfd_send_signal with ENOSYS)" "$(cat "$TMP/r.vectors" 2>/dev/null)"
fi
# kill(-1) reaches every process the caller may signal: only ever tried in a
# pid namespace of its own, with a shell as its init.
if [ "$(id -u)" -eq 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null; then
	rm -f "$TMP/r.all"
	expect_status 0 "attack: kill(-1, SIGKILL), in a pid namespace" -- $T unshare --pid --fork --mount-proc \
		sh -c '"$1" run -p "$2" -- "$3" vectors "$4" broadcast' sh "$S" "$TMP/unshare.policy" "$A" "$TMP/r.all"
	expect_grep "$TMP/r.all" '^kill -1 all EPERM$' "attack: kill(-1, SIGKILL) refused"
else
	skip_feature pid-namespace "attack: kill(-1, SIGKILL), in a pid namespace"
fi
# Landlock without scopes (ABI 1-5): the guard refuses the signals, the domain the tracing.
rm -f "$TMP/r.vectors"
SYSCAGE_DISABLE_FEATURES=landlock-scope expect_status 0 "attack, Landlock without scopes: every other way in" -- \
	$T setsid "$S" run -p "$TMP/unshare.policy" -- "$A" vectors "$TMP/r.vectors"
if grep -qx 'vectors done' "$TMP/r.vectors" &&
	! grep -v -e ' EPERM$' -e '^pidfd_send_signal .* ENOSYS$' -e '^vectors done$' "$TMP/r.vectors" | grep -q .; then
	ok "attack, Landlock without scopes: each refused"; else
	not_ok "attack, Landlock without scopes: each refused" "$(cat "$TMP/r.vectors" 2>/dev/null)"
fi
unset SYSCAGE_DISABLE_FEATURES

# --- ways past the supervisor the guard does not see (tests/helpers/notif_attack.c) ---

N=$(helper notif_attack)
# A filter of the program's own that answers unshare with USER_NOTIF (it can
# have no listener: ENOSYS) or an errno outranks syscage's USER_NOTIF
# (docs/run.md, "Filters of the program's own").  By default the install is
# let in and reported, and the call, which never runs, gets that filter's
# answer; --own-filters=refuse makes the install fail with EPERM and the
# KILL holds; with --no-report the kernel's KILL holds anyway.
for how in notify:ENOSYS:seccomp errno:E2BIG:seccomp prctl:E2BIG:prctl; do
	IFS=: read -r way err call <<<"$how"
	rm -f "$TMP/r.own"
	expect_status 0 "own filter ($way) before a killed call: let in, the program lives on" -- \
		$T setsid "$S" run -p "$TMP/unshare.policy" --log "$TMP/own.log" -- "$N" own-filter "$way" "$TMP/r.own"
	if grep -qx 'install 0 0' "$TMP/r.own" && grep -qx "unshare -1 $err" "$TMP/r.own"; then
		ok "own filter ($way): unshare does not run, it gets $err"; else
		not_ok "own filter ($way): unshare does not run, it gets $err" "$(cat "$TMP/r.own" 2>/dev/null)"
	fi
	expect_grep "$TMP/err" "^syscage: pid [0-9]+ asks to install a seccomp filter of its own \($call\): let in$" \
		"own filter ($way): the install is reported"
	expect_grep "$TMP/err" "a call the policy kills may get that filter's answer instead" \
		"own filter ($way): the report says what it means"
	expect_grep "$TMP/err" "^syscage: seccomp filters the program asked to install: 1 let in, 0 refused$" \
		"own filter ($way): counted in the summary"
	expect_grep "$TMP/own.log" "^\\{\"pid\":[0-9]+,\"syscall\":\"$call\",\"nr\":[0-9]+,\"own_filter\":\"allowed\"\\}$" \
		"own filter ($way): in the --log"
	rm -f "$TMP/r.own"
	expect_status 159 "own filter ($way) under --own-filters=refuse: the KILL verdict holds" -- \
		$T setsid "$S" run --own-filters=refuse -p "$TMP/unshare.policy" -- "$N" own-filter "$way" "$TMP/r.own"
	if grep -qx 'install -1 EPERM' "$TMP/r.own" && ! grep -q '^unshare' "$TMP/r.own"; then
		ok "own filter ($way) refused: EPERM, nothing ran past unshare"; else
		not_ok "own filter ($way) refused: EPERM, nothing ran past unshare" "$(cat "$TMP/r.own" 2>/dev/null)"
	fi
	expect_grep "$TMP/err" "pid [0-9]+ asks to install a seccomp filter of its own \($call\): refused with EPERM" \
		"own filter ($way) refused: reported"
	expect_grep "$TMP/err" "denied unshare\(0\) from pid [0-9]+: KILL_PROCESS" \
		"own filter ($way) refused: the killed call is reported"
done
# The filter at address 0, passed as a NULL program (how flag probes look):
# root with CAP_SYS_RAWIO can map page 0, and the kernel then installs it.
rm -f "$TMP/r.own"
$T setsid "$S" run -q --own-filters=refuse -p "$TMP/unshare.policy" -- "$N" own-filter page0 "$TMP/r.own" \
	>"$TMP/out" 2>"$TMP/err"
st=$?
if grep -qx 'install skip' "$TMP/r.own"; then
	skip_feature page-zero "own filter on page 0 (a NULL program) under --own-filters=refuse"
elif [ "$st" -eq 159 ] && grep -qx 'install -1 EPERM' "$TMP/r.own" && ! grep -q '^unshare' "$TMP/r.own"; then
	ok "own filter on page 0 (a NULL program) under --own-filters=refuse: refused, the KILL holds"; else
	not_ok "own filter on page 0 (a NULL program) under --own-filters=refuse: refused, the KILL holds" \
		"exit $st" "$(cat "$TMP/r.own" 2>/dev/null)"
fi
rm -f "$TMP/r.own"
expect_status 159 "own filter under --no-report: the KILL verdict holds" -- $T setsid "$S" \
	run --no-report -p "$TMP/unshare.policy" -- "$N" own-filter errno "$TMP/r.own"
if grep -qx 'install 0 0' "$TMP/r.own" && ! grep -q '^unshare' "$TMP/r.own"; then
	ok "own filter under --no-report: nothing ran past unshare"; else
	not_ok "own filter under --no-report: nothing ran past unshare" "$(cat "$TMP/r.own" 2>/dev/null)"
fi
# A descendant left behind (--keep-children) installs its filter once syscage has exited: the
# watchdog answers alone, unreported, and keeps the choice made for the run.
for answer in allow refuse; do
	rm -f "$TMP/r.own"
	expect_status 0 "own filter from an orphan after syscage exited (--own-filters=$answer)" -- \
		$T "$REAP" 30 "$S" run -q --keep-children --own-filters=$answer -p "$TMP/unshare.policy" -- \
		"$N" own-filter-orphan errno "$TMP/r.own"
	if [ $answer = allow ]; then want='install 0 0'; else want='install -1 EPERM'; fi
	if grep -qx "$want" "$TMP/r.own" && { [ $answer = allow ] || ! grep -q '^unshare' "$TMP/r.own"; }; then
		ok "own filter from an orphan (--own-filters=$answer): the watchdog answers '$want'"; else
		not_ok "own filter from an orphan (--own-filters=$answer): the watchdog answers '$want'" \
			"$(cat "$TMP/r.own" 2>/dev/null)"
	fi
done
expect_status 2 "--own-filters=refuse with --no-report: a usage error" -- \
	$T "$S" run --no-report --own-filters=refuse -p "$TMP/unshare.policy" -- true
expect_grep "$TMP/err" "own-filters=refuse goes with the report" "--own-filters=refuse with --no-report: says why"
expect_status 2 "--own-filters=maybe: a usage error" -- $T "$S" run --own-filters=maybe -- true
expect_grep "$TMP/err" "--own-filters takes allow or refuse, not 'maybe'" "--own-filters=maybe: says what it takes"
# A policy that denies seccomp itself: the install is an ordinary denial.
printf 'default allow\nkill-process unshare\nerrno(EACCES) seccomp\n' >"$TMP/noseccomp.policy"
rm -f "$TMP/r.own"
expect_status 159 "own filter denied by the policy: the KILL verdict holds" -- $T setsid "$S" \
	run -p "$TMP/noseccomp.policy" -- "$N" own-filter errno "$TMP/r.own"
expect_grep "$TMP/err" "denied seccomp\(SECCOMP_SET_MODE_FILTER.* ERRNO\(EACCES\) by rule" \
	"own filter denied by the policy: an ordinary denial"
if grep -q "asks to install a seccomp filter" "$TMP/err"; then
	not_ok "own filter denied by the policy: not reported as let in" "$(cat "$TMP/err")"
else ok "own filter denied by the policy: not reported as let in"; fi
# syscage itself as the program: --no-report probes with
# seccomp(SECCOMP_SET_MODE_FILTER, flags, NULL), then installs its filter;
# each is told (page 0 can be mapped by root), repeats folded into a count.
# (A sanitizer build of syscage cannot run as the program: its runtime
# does not get past the outer filter's default profile.)
nested=("syscage run --no-report under syscage run" "syscage run under syscage run: the install is told"
	"syscage run under syscage run: repeats folded"
	"the same under --own-filters=refuse: the inner one cannot install"
	"--own-filters=refuse: the inner syscage says why")
if [ -n "${SYSCAGE_SAN_FLAGS:-}" ]; then
	for t in "${nested[@]}"; do skip_feature sanitizer "$t"; done
else
	expect_status 0 "${nested[0]}" -- $T "$S" run -- "$S" run --no-report -- true
	expect_grep "$TMP/err" 'asks to install a seccomp filter of its own \(seccomp\): let in$' "${nested[1]}"
	if [ "$(grep -c 'asks to install a seccomp filter' "$TMP/err")" -le 3 ]; then
		ok "${nested[2]}"; else not_ok "${nested[2]}" "$(cat "$TMP/err")"
	fi
	expect_status 125 "${nested[3]}" -- $T "$S" run --own-filters=refuse -- "$S" run --no-report -- true
	expect_grep "$TMP/err" "cannot install the filter: Operation not permitted" "${nested[4]}"
fi

# syscage made the parent of a process whose exit signal is SIGKILL
# (CLONE_PARENT): the kernel gives such a child its creator's exit signal.
rm -f "$TMP/r.sib"
expect_status 159 "CLONE_PARENT with exit signal SIGKILL: the program is still killed" -- $T setsid "$S" \
	run -p "$TMP/unshare.policy" -- "$N" clone-parent "$TMP/r.sib"
if grep -qx 'syscage alive' "$TMP/r.sib" && ! grep -q '^unshare' "$TMP/r.sib"; then
	ok "CLONE_PARENT: syscage outlives the sibling, unshare still kills"; else
	not_ok "CLONE_PARENT: syscage outlives the sibling, unshare still kills" "$(cat "$TMP/r.sib" 2>/dev/null)"
fi

# Denied calls whose pointers the report reads: unmapped, non-canonical, in
# the kernel's half, a path without a NUL up to an unreadable page, 1 MiB
# without a NUL, clone3 structs unreadable or of 1 MiB.  Each is denied and
# reported; syscage neither crashes nor hangs.
printf 'default allow\nerrno(EACCES) mkdir, mkdirat, clone3\n' >"$TMP/bp.policy"
rm -f "$TMP/r.bp"
expect_status 0 "bad pointers in 10 denied calls" -- $T "$S" run -p "$TMP/bp.policy" --log "$TMP/bp.log" -- \
	"$N" bad-pointers "$TMP/r.bp"
if grep -qx 'bad-pointers done' "$TMP/r.bp" && [ "$(grep -c ' -1 EACCES$' "$TMP/r.bp")" -eq 10 ]; then
	ok "bad pointers: each call gets the policy's EACCES"; else
	not_ok "bad pointers: each call gets the policy's EACCES" "$(cat "$TMP/r.bp" 2>/dev/null)"
fi
if [ "$(grep -c '"verdict":"ERRNO(EACCES)"' "$TMP/bp.log")" -eq 10 ]; then
	ok "bad pointers: 10 denials logged"; else not_ok "bad pointers: 10 denials logged" "$(cat "$TMP/bp.log")"
fi
for a in 0x1 0x8000000000000000 0xffffffff81000000 0xffffffffffffffff; do
	expect_grep "$TMP/err" "^syscage: denied mkdirat\\(AT_FDCWD, $a, 0700\\) from pid [0-9]+: ERRNO\\(EACCES\\)" \
		"bad pointers: $a reported as an address"
done
# A PROT_NONE page is memory the program cannot read and the call would fault
# on (a debugger's read of /proc/PID/mem would show it): the path on it, the
# path running into it without a NUL and the clone3 struct on it are
# reported as addresses, like unmapped ones.
if [ "$(grep -cE '^syscage: denied mkdirat\(AT_FDCWD, 0x[0-9a-f]+, 0700\)' "$TMP/err")" -eq 6 ] &&
	! grep -qE 'mkdirat\(AT_FDCWD, "(x*)"' "$TMP/err"; then
	ok "bad pointers: paths on or into a PROT_NONE page reported as addresses"; else
	not_ok "bad pointers: paths on or into a PROT_NONE page reported as addresses" "$(grep mkdirat "$TMP/err" | cut -c1-120)"
fi
expect_grep "$TMP/err" '^syscage: denied clone3\(0x[0-9a-f]+, 64\) from pid' \
	"bad pointers: a clone3 struct on a PROT_NONE page reported as an address"

# The guard through the i386 ABI (int $0x80), with junk in the registers' upper halves too.
if have_feature i386-emulation; then
	rm -f "$TMP/r.int80"
	expect_status 0 "int 0x80: kill, tkill, tgkill at syscage and its watchdog" -- $T setsid "$S" \
		run -p "$TMP/unshare.policy" -- "$N" int80 "$TMP/r.int80"
	if grep -qx 'int80 done' "$TMP/r.int80" && [ "$(grep -c ' EPERM$' "$TMP/r.int80")" -eq 12 ] &&
		[ "$(wc -l <"$TMP/r.int80")" -eq 13 ]; then
		ok "int 0x80: each refused with EPERM"; else
		not_ok "int 0x80: each refused with EPERM" "$(cat "$TMP/r.int80" 2>/dev/null)"
	fi
else
	skip_feature i386-emulation "int 0x80: kill, tkill, tgkill at syscage and its watchdog"
	skip_feature i386-emulation "int 0x80: each refused with EPERM"
fi
# And through the x32 ABI, where the kernel runs x32 calls.
if have_feature x32; then
	rm -f "$TMP/r.x32"
	expect_status 0 "x32: kill, tkill, tgkill at syscage and its watchdog" -- $T setsid "$S" \
		run -p "$TMP/unshare.policy" -- "$N" x32 "$TMP/r.x32"
	if grep -qx 'x32 done' "$TMP/r.x32" && [ "$(grep -c ' EPERM$' "$TMP/r.x32")" -eq 6 ] &&
		[ "$(wc -l <"$TMP/r.x32")" -eq 7 ]; then
		ok "x32: each refused with EPERM"; else
		not_ok "x32: each refused with EPERM" "$(cat "$TMP/r.x32" 2>/dev/null)"
	fi
else
	skip_feature x32 "x32: kill, tkill, tgkill at syscage and its watchdog"
	skip_feature x32 "x32: each refused with EPERM"
fi

# --- reports show memory the program may have changed after the call --------

# One thread makes 300 denied mkdir calls on a buffer another thread keeps
# rewriting: the reports may show either path, or a torn one, so each is
# marked as read after the call; every call is denied all the same.
expect_status 0 "a racing thread rewrites the path of 300 denied calls" -- $T "$S" run -p "$deny" \
	--log "$TMP/race.log" -- "$W" race 300 "$TMP/shadow-REAL" "$TMP/INNOCENT"
expect_grep "$TMP/out" '^denied 300 of 300$' "race: every call saw EACCES"
if [ "$(grep -c '"read_after_call":true,"verdict":"ERRNO(EACCES)"' "$TMP/race.log")" -eq 300 ]; then
	ok "race: 300 log lines, each marked read_after_call, each ERRNO(EACCES)"; else
	not_ok "race: 300 log lines, each marked read_after_call, each ERRNO(EACCES)" "$(head -n 3 "$TMP/race.log")"
fi
# (identical lines in a row collapse into "... N more like this")
shown=$(grep -c '^syscage: denied mkdirat(.*) from pid [0-9]*: ERRNO(EACCES) by rule .* \[\*\]$' "$TMP/err")
more=$(awk '/^syscage: \.\.\. [0-9]+ more like this$/ { n += $3 } END { print n + 0 }' "$TMP/err")
if [ "$((shown + ${more:-0}))" -eq 300 ] &&
	[ "$(grep -c '^syscage: \[\*\] ' "$TMP/err")" -eq 1 ]; then
	ok "race: 300 stderr reports marked [*], the marker explained once"; else
	not_ok "race: 300 stderr reports marked [*], the marker explained once" "$(head -n 3 "$TMP/err")"
fi
if [ ! -e "$TMP/shadow-REAL" ] && [ ! -e "$TMP/INNOCENT" ]; then ok "race: neither directory exists"; else
	not_ok "race: neither directory exists"
fi
echo "# race: $(grep -c INNOCENT "$TMP/race.log") of 300 reports showed the rewritten path"

# --- programs that fork and exit, close every fd, exec in a loop ------------

rm -f "$TMP/result"
expect_status 0 "program forks and exits at once" -- $T "$REAP" 30 "$S" run --keep-children -p "$deny" -- "$W" fork-exit "$TMP/result" "$TMP/nope"
if [ "$(grep -c '^reaped .* exit 0$' "$TMP/out")" -ge 2 ] && ! grep -q -v '^reaped .* exit 0$' "$TMP/out"; then
	ok "the orphan ends on its own"; else not_ok "the orphan ends on its own" "$(cat "$TMP/out")"
fi
if [ "$(cat "$TMP/result" 2>/dev/null)" = 13 ]; then ok "the orphan's denied call after syscage exited: the watchdog gives the policy's EACCES"; else
	not_ok "the orphan's denied call after syscage exited: the watchdog gives the policy's EACCES" "got '$(cat "$TMP/result" 2>/dev/null)'"
fi

# --wait: syscage stays for the daemon, whose denied call gets the policy's
# errno and is reported; the exit status is still the program's.
rm -f "$TMP/result"
expect_status 0 "--wait: the program forks and exits at once" -- $T "$REAP" 30 "$S" run -w -p "$deny" -- "$W" daemon "$TMP/result" "$TMP/nope"
if [ "$(cat "$TMP/result" 2>/dev/null)" = 13 ]; then ok "--wait: the daemon's denied call gets the policy's EACCES"; else
	not_ok "--wait: the daemon's denied call gets the policy's EACCES" "got '$(cat "$TMP/result" 2>/dev/null)'" "$(cat "$TMP/err")"
fi
expect_grep "$TMP/err" "denied mkdir(at)?\\(.* from pid [0-9]+: ERRNO\\(EACCES\\)" "--wait: and reported"
if ! grep -q '^left' "$TMP/out"; then ok "--wait: nothing left behind"; else not_ok "--wait: nothing left behind" "$(cat "$TMP/out")"; fi

# The program exits while three children wait in a denied call the
# (stopped) supervisor has not answered yet: syscage still answers them as
# the policy says and reports them, before it closes the listener.
rm -f "$TMP/ready" "$TMP/go" "$TMP/result".*
"$S" run --keep-children -p "$deny" --log "$TMP/pending.log" -- "$W" pending "$TMP/ready" "$TMP/go" "$TMP/result" "$TMP/nope" \
	>"$TMP/pending.out" 2>"$TMP/pending.err" &
sv=$!
wait_for "$TMP/ready" && read -r prog _ children <"$TMP/ready"
kill -STOP "$sv"
touch "$TMP/go"
for _ in $(seq 600); do
	[ "$(cut -d' ' -f3 "/proc/${prog:-0}/stat" 2>/dev/null)" = Z ] && break
	sleep 0.05
done
kill -CONT "$sv"
wait "$sv"
rc=$?
results=
for i in 0 1 2; do
	wait_for "$TMP/result.$i"
	results="$results $(cat "$TMP/result.$i" 2>/dev/null)"
done
if [ "$rc" -eq 0 ] && [ "$results" = " 13 13 13" ]; then
	ok "calls still waiting when the program exits get the policy's errno"; else
	not_ok "calls still waiting when the program exits get the policy's errno" "status $rc, errnos$results"
fi
for c in ${children:-none}; do
	if ! grep -qE "denied mkdirat.* from pid $c: ERRNO\\(EACCES\\)" "$TMP/pending.err"; then
		not_ok "and they are reported" "nothing for pid $c in:" "$(cat "$TMP/pending.err")"
		c=bad
		break
	fi
done
[ "${c:-}" != bad ] && ok "and they are reported"

expect_status 13 "program closes every fd, then a denied call" -- $T "$S" run -p "$deny" --log "$TMP/fd.log" -- "$W" closefds "$TMP/nope" 3<"$TMP/fixture/a.txt" 7>"$TMP/fd7"
expect_grep "$TMP/err" 'denied mkdirat.*from pid [0-9]+: ERRNO\(EACCES\)' "its denial is reported"
if [ "$(wc -l <"$TMP/fd.log")" -eq 1 ]; then ok "and logged once"; else not_ok "and logged once"; fi

# syscage's own descriptors (listener, socket, signalfd, log) never reach the program
ls /proc/self/fd >"$TMP/fds.direct" 3<"$TMP/fixture/a.txt"
expect_status 0 "program's descriptors" -- $T "$S" run -p "$deny" --log "$TMP/x.log" -- ls /proc/self/fd 3<"$TMP/fixture/a.txt"
expect_same "$TMP/fds.direct" "$TMP/out" "the program gets exactly the descriptors it would get without syscage"
# even when syscage starts with stdin and stderr closed (its own descriptors take those numbers)
ls /proc/self/fd <&- 2>&- >"$TMP/fds.direct"
"$S" run -p "$deny" -- ls /proc/self/fd <&- 2>&- >"$TMP/fds.under"
expect_same "$TMP/fds.direct" "$TMP/fds.under" "started with stdin and stderr closed: the same descriptors"

expect_status 0 "200 execs in a row" -- $T "$S" run -p "$deny" -- "$W" execloop 200 "$TMP/nope"
expect_grep "$TMP/out" '^execs done errno 13$' "after 200 execs the policy still applies"
expect_grep "$TMP/err" 'denied mkdirat' "and denials are still reported"

cat >"$TMP/noexec.policy" <<'EOF'
default allow
errno(EACCES) execve, execveat
errno(EACCES) mkdir, mkdirat
EOF
expect_status 0 "forged exec cookies are refused" -- $T "$S" run -p "$TMP/noexec.policy" -q --log "$TMP/forge.log" -- "$W" forge 100
expect_grep "$TMP/out" '^denied 200 of 200$' "200 guesses at the sixth argument, all denied"
if [ "$(grep -c '"syscall":"execve\(at\)\?".*"verdict":"ERRNO(EACCES)"' "$TMP/forge.log")" -eq 200 ]; then
	ok "every refused exec reported"; else not_ok "every refused exec reported" "$(wc -l <"$TMP/forge.log") lines"
fi
expect_status 126 "a denied exec stays denied" -- $T "$S" run -p "$TMP/noexec.policy" -- sh -c 'exec /bin/true'
expect_grep "$TMP/err" 'denied execve\("/bin/true"' "and is reported"

# --- stress: 64 threads and 32 processes deny at once -----------------------

threads=64 procs=32 calls=50
total=$(((threads + procs) * calls))
expect_status 0 "stress: $threads threads + $procs processes" -- $T "$S" run -p "$deny" --log "$TMP/stress.log" -- \
	"$W" stress $threads $procs $calls "$TMP/nope"
expect_grep "$TMP/out" "^calls $total failed-as-denied $total\$" "every denied call saw EACCES"
if [ "$(wc -l <"$TMP/stress.log")" -eq "$total" ]; then ok "every denial logged exactly once"; else
	not_ok "every denial logged exactly once" "$(wc -l <"$TMP/stress.log") lines, wanted $total"
fi
expect_grep "$TMP/err" "^ +$total  mkdirat +ERRNO\\(EACCES\\)\$" "summary counts $total"
# each denial is a line, or counted in the "... N more like this" after an identical one
shown=$(grep -c 'syscage: denied mkdirat' "$TMP/err")
more=$(awk '/^syscage: \.\.\. [0-9]+ more like this$/ { n += $3 } END { print n + 0 }' "$TMP/err")
if [ "$((shown + more))" -eq "$total" ]; then ok "one stderr report per denial"; else
	not_ok "one stderr report per denial"
fi
pids=$(sed 's/^{"pid":\([0-9]*\),.*/\1/' "$TMP/stress.log" | sort -u | wc -l)
if [ "$pids" -eq $((threads + procs)) ]; then ok "denials from $((threads + procs)) distinct threads and processes"; else
	not_ok "denials from $((threads + procs)) distinct threads and processes" "$pids"
fi

# Signals that interrupt a denied call: a call the supervisor has received
# is not restarted (WAIT_KILLABLE_RECV), so it is never reported twice.
# (fewer calls under a sanitizer, which sets SYSCAGE_TEST_SCALE)
storm=$((2000 / ${SYSCAGE_TEST_SCALE:-1}))
expect_status 0 "denied calls under a storm of signals" -- $T "$S" run -p "$deny" -q --log "$TMP/storm.log" -- "$W" storm "$storm" "$TMP/nope"
expect_grep "$TMP/out" "^denied $storm of $storm\$" "every call saw EACCES"
if [ "$(wc -l <"$TMP/storm.log")" -eq "$storm" ]; then ok "each reported exactly once"; else
	not_ok "each reported exactly once" "$(wc -l <"$TMP/storm.log") lines for $storm calls"
fi

# Nobody reads syscage's stderr any more: reporting must not kill it (nor so the program).
python3 - "$S" "$deny" "$W" "$TMP/nope" "$TMP/epipe.log" >"$TMP/out" 2>&1 <<'EOF'
import os, subprocess, sys
S, deny, W, path, log = sys.argv[1:]
r, w = os.pipe()
os.close(r)  # a pipe without a reader
p = subprocess.run([S, "run", "-p", deny, "--log", log, "--", W, "closefds", path], stderr=w)
print("status", p.returncode)
EOF
expect_grep "$TMP/out" '^status 13$' "stderr a broken pipe: the program runs on and gets its errno"
if [ "$(wc -l <"$TMP/epipe.log" 2>/dev/null)" = 1 ]; then ok "and the denial is still logged"; else not_ok "and the denial is still logged"; fi

# --- stdio and exit statuses pass through untouched --------------------------

{ for i in $(seq 0 255); do printf "\\$(printf %o "$i")"; done; head -c 300000 /dev/urandom; } >"$TMP/bin"
$T "$S" run -- cat <"$TMP/bin" >"$TMP/bin.out" 2>"$TMP/bin.err"
expect_same "$TMP/bin" "$TMP/bin.out" "binary stdin to stdout through cat, byte for byte"
$T "$S" run -- sh -c 'cat >&2' <"$TMP/bin" >"$TMP/bin.out" 2>"$TMP/bin.err"
expect_same "$TMP/bin" "$TMP/bin.err" "binary data to stderr, byte for byte"
if [ ! -s "$TMP/bin.out" ]; then ok "nothing added to stdout"; else not_ok "nothing added to stdout"; fi

bad=
for i in $(seq 0 255); do
	"$S" run -p "$deny" -- "$W" exit "$i" </dev/null >/dev/null 2>&1
	rc=$?
	[ "$rc" -eq "$i" ] || bad="$bad $i:$rc"
done
if [ -z "$bad" ]; then ok "exit statuses 0..255 pass through"; else not_ok "exit statuses 0..255 pass through" "$bad"; fi
