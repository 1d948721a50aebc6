#!/usr/bin/env bash
# syscage run beyond the filter: the program's Landlock domain (no /proc/PID/mem,
# ptrace or signals out of it), its process tree killed whole when it ends,
# and what -v and status say about both.  docs/run.md, "Layers".
. "$(dirname "$0")/../cli_lib.bash"
SYSCAGE=$(realpath "$SYSCAGE")
S=$SYSCAGE
N=$(helper notif_attack)
T="timeout -k 5 120"
cd "$TMP" || exit 1
chmod 755 "$TMP"

printf 'default allow\nkill-process uname\n' >"$TMP/kill.policy"

# --- Landlock: the escape through /proc/PID/mem ------------------------------

# A shell of uid 65534 starts syscage; the program, of the same uid, tries to
# write into that shell's memory (it is outside the sandbox, and dumpable).
as_nobody() { $T setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
mem_escape() { # mem_escape RUN-OPTION...: prints OPENED when the program could open it
	as_nobody sh -c '"$0" run "$@" -- sh -c "exec 3<>/proc/\$1/mem && echo OPENED" sh $$' \
		"$S" "$@"
}
signal_out() {
	as_nobody sh -c '"$0" run "$@" -- sh -c "kill -0 \$1 && echo SIGNALLED" sh $$' "$S" "$@"
}
no_line() { # no_line FILE TEXT NAME
	if ! grep -q "$2" "$1"; then ok "$3"; else not_ok "$3" "$(head -c 300 "$1")"; fi
}
if ! command -v setpriv >/dev/null || [ "$(id -u)" != 0 ]; then
	skip_feature setpriv "/proc/PID/mem of a shell of the same uid outside the sandbox"
elif have_feature landlock; then
	expect_status 2 "uid 65534, run -p default: opening /proc/SHELL/mem O_RDWR fails" -- \
		mem_escape -p default
	expect_grep "$TMP/err" "/proc/[0-9]+/mem: Permission denied" "  with EACCES"
	no_line "$TMP/out" OPENED "  and the program never had it open"
	SYSCAGE_DISABLE_FEATURES=landlock-scope expect_status 2 \
		"the same without Landlock's scopes (ABI 1-5): fails too" -- mem_escape -p default
	# Without Yama the kernel lets a process of the same uid in: the check
	# above is what stands in the way.
	if [ ! -e /proc/sys/kernel/yama/ptrace_scope ]; then
		expect_status 0 "--no-landlock: the same program opens it (what the domain prevents)" -- \
			mem_escape --no-landlock -p default
		expect_grep "$TMP/out" OPENED "  --no-landlock: opened"
	fi
else
	skip_feature landlock "uid 65534, run -p default: opening /proc/SHELL/mem O_RDWR fails"
fi
if have_feature landlock-scope && command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	expect_status 1 "scoped domain: kill -0 of the shell outside fails" -- signal_out -p default
	expect_grep "$TMP/err" "Operation not permitted" "  with EPERM"
	no_line "$TMP/out" SIGNALLED "  and nothing was signalled"
else
	skip_feature landlock-scope "scoped domain: kill -0 of the shell outside fails"
fi

# The supervisor, outside the domain, still reads the program's memory (the
# path of a denied call) and kills it.
printf 'default allow\nerrno(EACCES) mkdir, mkdirat\n' >"$TMP/deny.policy"
expect_status 1 "in the domain: a denied mkdir reported with its path" -- \
	$T "$S" run -p "$TMP/deny.policy" -- mkdir "$TMP/not-made"
expect_grep "$TMP/err" "denied mkdir(at)?\\(.*not-made" "  the path read from the program"
expect_status 159 "in the domain: a KILL verdict kills" -- $T "$S" run -p "$TMP/kill.policy" -- uname

# --- a KILL verdict that loses the waiting thread to an execve ------------------

# The second thread of a program waits in unshare, which the policy kills;
# syscage has received the call and is held up writing its report (stderr is
# a full pipe nobody reads); the first thread execs, which ends the waiting
# thread.  Once the report is written, the process must die all the same:
# syscage exits 159, rather than wait for the new image (sleep 1000).
if command -v python3 >/dev/null; then
	printf 'default allow\nkill-process unshare\n' >"$TMP/unshare.policy"
	mkfifo "$TMP/full"
	exec 9<>"$TMP/full"
	python3 -c '
import fcntl, os
fcntl.fcntl(9, fcntl.F_SETFL, fcntl.fcntl(9, fcntl.F_GETFL) | os.O_NONBLOCK)
for size in (4096, 1):
    try:
        while True:
            os.write(9, b"x" * size)
    except BlockingIOError:
        pass
'
	rm -f "$TMP/race.ready" "$TMP/race.go" "$TMP/race.result"
	$T "$S" run -p "$TMP/unshare.policy" -- "$N" exec-race "$TMP/race.ready" "$TMP/race.go" \
		"$TMP/race.result" 2>"$TMP/full" &
	sv=$!
	for _ in $(seq 600); do [ -s "$TMP/race.ready" ] && break; sleep 0.05; done
	read -r prog _ _ <"$TMP/race.ready"
	svpid=$(pgrep -P "$sv" -x syscage || echo "$sv")
	write=$("$S" syscalls write | cut -d' ' -f2)
	for _ in $(seq 600); do
		[ "$(cut -d' ' -f1 "/proc/$svpid/syscall" 2>/dev/null)" = "$write" ] && break
		sleep 0.05
	done
	touch "$TMP/race.go"
	for _ in $(seq 600); do [ -s "$TMP/race.result" ] && break; sleep 0.05; done
	cat "$TMP/full" >/dev/null &
	drain=$!
	wait "$sv"
	rc=$?
	kill "$drain" 2>/dev/null
	exec 9>&-
	if [ "$rc" = 159 ] && grep -qx survived "$TMP/race.result"; then
		ok "KILL verdict, the waiting thread ended by another thread's execve: the process dies"; else
		not_ok "KILL verdict, the waiting thread ended by another thread's execve: the process dies" \
			"status $rc, result '$(cat "$TMP/race.result" 2>/dev/null)'"
		[ -n "${prog:-}" ] && kill -9 "$prog" 2>/dev/null
	fi
else
	skip_feature python3 "KILL verdict, the waiting thread ended by another thread's execve"
fi

# --- what the guard leaves to the domain stays cacheable --------------------------

# The filter run installs, read back from the running program: where the
# domain is scoped, the calls the default profile allows unconditionally
# (fcntl, kill, tgkill, ...) stay in the kernel's action cache, as with the
# profile installed directly; without Landlock the guard tests their arguments.
sleep_below() { # sleep_below PID: the sleep among PID's descendants (--unshare-pid: its grandchild)
	local c
	for c in $(pgrep -P "$1"); do
		if [ "$(cat "/proc/$c/comm" 2>/dev/null)" = sleep ]; then echo "$c"; else sleep_below "$c"; fi
	done
}
cached_calls() { # cached_calls RUN-OPTION...: the names among CALLS the installed filter caches
	local sv p
	"$S" run -q "$@" -- sleep 30 2>/dev/null &
	sv=$!
	for _ in $(seq 200); do p=$(sleep_below "$sv") && [ -n "$p" ] && break; sleep 0.05; done
	rm -rf "$TMP/dump"
	"$S" dump --format raw -o "$TMP/dump" "$p" >/dev/null 2>&1
	kill "$sv"
	wait "$sv" 2>/dev/null
	"$S" verify --cache --json "$TMP/dump/filter-0.bpf" | python3 -c '
import json, subprocess, sys
c = [x for x in json.load(sys.stdin)["cache"] if x["arch"] == "x86_64"][0]
for name in sys.argv[2:]:
    nr = int(subprocess.run([sys.argv[1], "syscalls", name], capture_output=True, text=True).stdout.split()[1])
    if any(a <= nr <= b for a, b in c["ranges"]):
        print(name)
' "$S" fcntl kill tgkill tkill rt_sigqueueinfo pidfd_open pidfd_send_signal prlimit64 prctl
}
if [ "$(uname -m)" = x86_64 ] && command -v python3 >/dev/null && have_feature ptrace-get-filter &&
	have_feature landlock-scope; then
	got=$(cached_calls -p default | tr '\n' ' ')
	if [ "$got" = "fcntl kill tgkill tkill rt_sigqueueinfo pidfd_open pidfd_send_signal " ]; then
		ok "run -p default, scoped domain: fcntl, kill, tgkill, tkill, rt_sigqueueinfo, pidfd_* cached"; else
		not_ok "run -p default, scoped domain: fcntl, kill, tgkill, tkill, rt_sigqueueinfo, pidfd_* cached" "cached: $got"
	fi
	got=$(cached_calls --no-landlock -p default | tr '\n' ' ')
	if [ -z "$got" ]; then ok "  --no-landlock: the guard tests their arguments, none cached"; else
		not_ok "  --no-landlock: the guard tests their arguments, none cached" "cached: $got"
	fi
	# In a pid namespace the program cannot name the supervisor: nothing is left to test
	# but SIGKILL to a group, so prlimit64 is cached too, and prctl where no filter the
	# program installs needs watching (--no-report).
	scoped="fcntl kill tgkill tkill rt_sigqueueinfo pidfd_open pidfd_send_signal"
	got=$(cached_calls --unshare-pid -p default | tr '\n' ' ')
	if [ "$got" = "$scoped prlimit64 " ]; then ok "  --unshare-pid: prlimit64 cached as well"; else
		not_ok "  --unshare-pid: prlimit64 cached as well" "cached: $got"
	fi
	got=$(cached_calls --unshare-pid --no-report -p default | tr '\n' ' ')
	if [ "$got" = "$scoped prlimit64 prctl " ]; then
		ok "  --unshare-pid --no-report: prlimit64 and prctl cached as well"; else
		not_ok "  --unshare-pid --no-report: prlimit64 and prctl cached as well" "cached: $got"
	fi
else
	# named by what this machine lacks: the scopes, or reading the filter back
	missing=ptrace-get-filter
	have_feature landlock-scope || missing=landlock-scope
	skip_feature "$missing" "run -p default, scoped domain: the calls the guard leaves are cached"
fi

# --- the layers, said -----------------------------------------------------------

expect_status 0 "run -v: says which layers are in force" -- $T "$S" run -v -- true
if have_feature landlock-scope; then
	expect_grep "$TMP/err" "layers: seccomp filter \\(supervised\\); Landlock: ABI [0-9]+, scoped: signals" \
		"  run -v: Landlock with its scopes"
elif have_feature landlock; then
	expect_grep "$TMP/err" "Landlock: ABI [1-5], no scopes" "  run -v: Landlock without scopes"
else
	expect_grep "$TMP/err" "Landlock: none" "  run -v: no Landlock"
fi
if have_feature cgroup-kill; then
	expect_grep "$TMP/err" "process tree: cgroup, killed whole /" "  run -v: the tree in a cgroup"
else
	expect_grep "$TMP/err" "process tree: subreaper" "  run -v: the tree under the subreaper"
fi
expect_status 0 "run -v --no-landlock --keep-children" -- \
	$T "$S" run -v --no-landlock --keep-children -- true
expect_grep "$TMP/err" "Landlock: none; process tree: kept" "  says neither is in force"
SYSCAGE_DISABLE_FEATURES=landlock,cgroup-kill expect_status 0 \
	"run -v on a kernel without Landlock or cgroup.kill" -- $T "$S" run -v -- true
expect_grep "$TMP/err" "Landlock: none; process tree: subreaper" "  the subreaper then"
expect_status 0 "status names the layers" -- "$S" status
expect_grep "$TMP/out" "^  Landlock: " "  status: a Landlock line"
expect_grep "$TMP/out" "^  process tree: " "  status: a process tree line"

# --- the tree ends with the program ---------------------------------------------

# A child in the background and a daemon (forked by a shell that exits, so it
# re-parents), then the program calls what the policy kills.  Each writes its pid.
tree_prog='sleep 1000.1 & echo $! >child.pid; sh -c "sleep 1000.2 & echo \$! >daemon.pid"; exec uname'
# alive PIDFILE: the process is still there, running what we started
alive() { local p; p=$(cat "$1" 2>/dev/null) && { tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null | grep -q '^sleep 1000\.[12] $'; }
tree_gone() { # tree_gone NAME
	local left=""
	alive child.pid && left="$left child"
	alive daemon.pid && left="$left daemon"
	if [ -z "$left" ]; then ok "$1"; else
		not_ok "$1" "still running:$left"
		for f in child.pid daemon.pid; do alive $f && kill -9 "$(cat $f)"; done
	fi
}
for mode in default subreaper; do
	env=""
	[ $mode = subreaper ] && env=cgroup-kill
	rm -f child.pid daemon.pid
	SYSCAGE_DISABLE_FEATURES=$env expect_status 159 "tree ($mode): the program killed by a verdict" -- \
		$T "$S" run -p "$TMP/kill.policy" -- sh -c "$tree_prog"
	tree_gone "tree ($mode): its child and its daemon are gone when syscage exits"
done
rm -f child.pid daemon.pid
expect_status 159 "tree, -w: the program killed by a verdict ends the wait" -- \
	$T "$S" run -w -p "$TMP/kill.policy" -- sh -c "$tree_prog"
tree_gone "tree, -w: its child and its daemon are gone"
rm -f child.pid daemon.pid
expect_status 0 "tree: a program that starts a daemon and exits 0" -- \
	$T "$S" run -p "$TMP/kill.policy" -- sh -c 'sh -c "sleep 1000.2 & echo \$! >daemon.pid"'
if ! alive daemon.pid; then ok "  the daemon is gone when syscage exits"; else
	not_ok "  the daemon is gone when syscage exits"
	kill -9 "$(cat daemon.pid)"
fi
rm -f child.pid daemon.pid
expect_status 159 "--keep-children: the program killed by a verdict" -- \
	$T "$S" run --keep-children -p "$TMP/kill.policy" -- sh -c "$tree_prog"
if alive daemon.pid; then ok "  --keep-children: the daemon lives on"; else
	not_ok "  --keep-children: the daemon lives on"
fi
for f in child.pid daemon.pid; do alive $f && kill -9 "$(cat $f)"; done
if have_feature cgroup-kill; then
	expect_status 159 "-v, a program that leaves a daemon, killed by a verdict" -- \
		$T "$S" run -v -p "$TMP/kill.policy" -- sh -c 'sh -c "sleep 1000.2 &"; exec uname'
	cg=$(sed -n 's/.*process tree: cgroup, killed whole //p' "$TMP/err")
	if [ -n "$cg" ] && [ ! -e "$cg" ]; then ok "  its cgroup is removed"; else
		not_ok "  its cgroup is removed" "'$cg'"
	fi
fi

# --unshare-pid: the program is pid 2 of a namespace of its own (its init,
# syscage's, is 1), sees only that in /proc, and the namespace ends with it.
expect_status 7 "--unshare-pid: the program's exit status" -- \
	$T "$S" run -q --unshare-pid -- sh -c 'echo $$; ls /proc | grep -c "^[0-9]"; exit 7'
if [ "$(head -n 1 "$TMP/out")" = 2 ] && [ "$(sed -n 2p "$TMP/out")" -le 4 ]; then
	ok "  it is pid 2 and /proc shows its namespace alone"; else
	not_ok "  it is pid 2 and /proc shows its namespace alone" "$(cat "$TMP/out")"
fi
expect_status 159 "--unshare-pid: a KILL verdict" -- $T "$S" run --unshare-pid -p "$TMP/kill.policy" -- uname
expect_grep "$TMP/err" "program killed: the policy's KILL verdict for uname" "  said as the program's"
rm -f child.pid daemon.pid
expect_status 159 "--unshare-pid --keep-children: the program killed by a verdict" -- \
	$T "$S" run --unshare-pid --keep-children -p "$TMP/kill.policy" -- sh -c "$tree_prog"
if [ -s daemon.pid ] && ! pgrep -fx 'sleep 1000\.[12]' >/dev/null; then
	ok "  the namespace ended with it: no child or daemon left"; else
	not_ok "  the namespace ended with it: no child or daemon left" "$(pgrep -afx 'sleep 1000\.[12]')"
fi
rm -f "$TMP/up"
$T "$S" run -q --unshare-pid -- sh -c "touch '$TMP/up'; exec sleep 1000.3" &
sv=$!
for _ in $(seq 600); do [ -e "$TMP/up" ] && break; sleep 0.05; done
kill -TERM "$(pgrep -P "$sv" -x syscage || echo "$sv")"
wait "$sv"
rc=$?
if [ "$rc" = 143 ]; then ok "--unshare-pid: SIGTERM to syscage reaches the program"; else
	not_ok "--unshare-pid: SIGTERM to syscage reaches the program" "status $rc"
fi
# No pid outside is there to name: prlimit64 on this shell fails as on a pid that
# does not exist, which is why the guard leaves prlimit64 alone under --unshare-pid.
expect_status 1 "--unshare-pid: prlimit64 on a process outside finds no such process" -- \
	$T "$S" run -q --unshare-pid -- prlimit --pid $$ --cpu
expect_grep "$TMP/err" "No such process" "  ESRCH"
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	as_nobody "$S" run -q --unshare-pid -- sh -c 'id -u; echo $$' >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc = 0 ] && [ "$(tr '\n' ' ' <"$TMP/out")" = "65534 2 " ]; then
		ok "--unshare-pid as uid 65534 (a user namespace too): still uid 65534, pid 2"
	elif [ $rc = 125 ] && grep -q "user namespaces may be disabled" "$TMP/err"; then
		skip_feature user-namespaces "--unshare-pid as uid 65534 (a user namespace too)"
	else
		not_ok "--unshare-pid as uid 65534 (a user namespace too): still uid 65534, pid 2" \
			"status $rc" "$(cat "$TMP/out" "$TMP/err")"
	fi
fi

# syscage killed: the watchdog kills the tree through cgroup.kill and then
# removes the cgroup, once its processes are reaped.
if have_feature cgroup-kill; then
	rm -f "$TMP/up" child.pid
	"$S" run -v -p "$TMP/kill.policy" -- sh -c "sleep 1000.1 & echo \$! >child.pid; touch '$TMP/up'; wait" \
		2>"$TMP/killed.err" &
	sv=$!
	for _ in $(seq 600); do [ -e "$TMP/up" ] && break; sleep 0.05; done
	cg=$(sed -n 's/.*process tree: cgroup, killed whole \([^;]*\).*/\1/p' "$TMP/killed.err")
	kill -KILL "$sv"
	wait "$sv" 2>/dev/null
	for _ in $(seq 600); do [ -n "$cg" ] && [ ! -e "$cg" ] && ! alive child.pid && break; sleep 0.05; done
	if [ -n "$cg" ] && [ ! -e "$cg" ] && ! alive child.pid; then
		ok "syscage killed: the watchdog ends the tree and removes its cgroup"; else
		not_ok "syscage killed: the watchdog ends the tree and removes its cgroup" "'$cg'"
		alive child.pid && kill -9 "$(cat child.pid)"
	fi
fi

# One left behind by a syscage and watchdog both killed (syscage dump does
# that to what it traces) is removed by the next launch: its pid is dead.
if have_feature cgroup-kill && command -v findmnt >/dev/null; then
	mnt=$(findmnt -t cgroup2 -n -o TARGET | head -n 1)
	own=$(sed -n 's/^0:://p' /proc/self/cgroup)
	sh -c 'echo $$ >"$1"' sh "$TMP/dead.pid"
	stale="$mnt${own%/}/syscage-$(cat "$TMP/dead.pid")"
	if mkdir "$stale" 2>/dev/null; then
		expect_status 0 "a cgroup left by a killed syscage" -- $T "$S" run -- true
		if [ ! -e "$stale" ]; then ok "  is removed by the next launch"; else
			not_ok "  is removed by the next launch" "$stale"
			rmdir "$stale"
		fi
	fi
fi

# nginx: the master killed by a verdict (its main loop waits in rt_sigsuspend,
# which the policy kills); the workers it forked must not keep serving.
if command -v nginx >/dev/null && [ "$(id -u)" = 0 ]; then
	mkdir -p "$TMP/nginx"
	cat >"$TMP/nginx/nginx.conf" <<EOF
worker_processes 2;
pid $TMP/nginx/nginx.pid;
error_log $TMP/nginx/error.log;
events {}
http {
	access_log off;
	client_body_temp_path $TMP/nginx;
	proxy_temp_path $TMP/nginx;
	fastcgi_temp_path $TMP/nginx;
	uwsgi_temp_path $TMP/nginx;
	scgi_temp_path $TMP/nginx;
	server { listen 127.0.0.1:$((20000 + RANDOM % 20000)); }
}
EOF
	printf 'default allow\nkill-process rt_sigsuspend\n' >"$TMP/nginx.policy"
	workers_before=$(pgrep -cfx "nginx: worker process" || true)
	expect_status 159 "nginx: the master killed by a verdict" -- $T "$S" run -p "$TMP/nginx.policy" -- \
		nginx -p "$TMP/nginx" -c "$TMP/nginx/nginx.conf" -g 'daemon off; user root;'
	workers=$(pgrep -cfx "nginx: worker process" || true)
	if [ -z "$(pgrep -f "$TMP/nginx/nginx.conf")" ] && [ "$workers" = "$workers_before" ]; then
		ok "nginx: no worker keeps running"; else
		not_ok "nginx: no worker keeps running" "$(pgrep -af nginx)"
	fi
fi

echo "1..$n"
