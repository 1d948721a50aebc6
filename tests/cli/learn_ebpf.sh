#!/usr/bin/env bash
# syscage learn --ebpf: the raw_syscalls tracepoint records what the notification learner
# records (the same counts per ABI, the same argument values, the same policy text) for
# workloads whose calls are known; --pid and --cgroup targets; the errors that name what
# is missing.  Checks that need root, BPF, BTF, i386 emulation or cgroup v2 are skipped
# under those names when the machine lacks them.
. "$(dirname "$0")/../cli_lib.bash"
S=$SYSCAGE
T="timeout -k 5 60"
H=$(helper learn_workload)
# tools/valgrind-syscage: memcheck reports the bpf() attributes libbpf leaves partly unset,
# and the program traced would be valgrind's.
if [ -n "${SYSCAGE_REAL-}" ]; then
	skip_feature not-under-valgrind "learn_ebpf.sh: every check (libbpf's bpf() calls under memcheck)"
	echo "1..$n"
	exit 0
fi

expect_status 0 "learn --ebpf --help" -- "$S" learn --ebpf --help
expect_grep "$TMP/out" '--ebpf +record through the raw_syscalls:sys_enter' "help names --ebpf"
expect_status 2 "--ebpf without a target: usage error" -- "$S" learn --ebpf
expect_status 2 "--ebpf with two targets: usage error" -- "$S" learn --ebpf --pid 1 -- true

# What the machine lacks, as syscage itself finds it.
expect_status 125 "cannot learn: nothing to trace" -- "$S" learn --ebpf --pid 999999999
probe() {
	$T "$S" learn --ebpf -o "$TMP/probe.policy" -- true 2>"$TMP/probe.err" >/dev/null
	local rc=$?
	[ "$rc" -eq 0 ] && return 0
	if grep -q 'built without eBPF' "$TMP/probe.err"; then lack=ebpf-build
	elif grep -q 'needs root' "$TMP/probe.err"; then lack=root
	elif grep -q 'no BTF' "$TMP/probe.err"; then lack=btf
	elif grep -q 'tracepoint' "$TMP/probe.err"; then lack=raw_syscalls-tracepoint
	elif grep -q 'cannot load\|cannot attach\|bpf()' "$TMP/probe.err"; then lack=bpf
	else
		not_ok "learn --ebpf -- true" "exit status $rc" "$(head -c 400 "$TMP/probe.err")"
		lack=unknown
	fi
	return 1
}
lack=
if ! probe; then
	skip_feature "$lack" "learn_ebpf.sh: every check that records ($(head -c 200 "$TMP/probe.err"))"
	exit 0
fi
ok "learn --ebpf -- true"

# Without privileges: an error that says what is needed.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	expect_status 125 "unprivileged: cannot record" -- \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$S" learn --ebpf -- true
	expect_grep "$TMP/err" '^syscage: learn --ebpf: .*needs root \(CAP_BPF' \
		"unprivileged: the error names the capabilities"
else
	skip_feature root-setpriv "unprivileged: cannot record"
fi

# libbpf is loaded on first use, never linked: the command starts without it, and
# learn --ebpf says which package it needs (libbpf hidden in a mount namespace).
if LD_TRACE_LOADED_OBJECTS=1 "$S" | grep -q 'libbpf\|libelf'; then
	not_ok "the command does not link libbpf" "$(LD_TRACE_LOADED_OBJECTS=1 "$S" | grep 'libbpf\|libelf')"
else
	ok "the command does not link libbpf"
fi
libbpf=$(ldconfig -p 2>/dev/null | sed -n 's/^[[:space:]]*libbpf\.so\.1 .* => //p' | head -1)
if [ "$(id -u)" = 0 ] && [ -n "$libbpf" ] && command -v unshare >/dev/null &&
	unshare -m true 2>/dev/null; then
	expect_status 125 "without libbpf.so.1: cannot record" -- unshare -m sh -c \
		'mount --bind /dev/null "$1" && exec "$2" learn --ebpf -- true' sh \
		"$(readlink -f "$libbpf")" "$S"
	expect_grep "$TMP/err" '^syscage: learn --ebpf: libbpf\.so\.1 .*package libbpf1' \
		"without libbpf.so.1: the error names the package"
else
	skip_feature root-mount-namespace "without libbpf.so.1: cannot record"
fi

# both W...: the workload W under both learners, with --args; the counts and the policy
# (less its first line, which names the source) must be the same.  In a sanitizer build the
# workload carries ASan's run-time, which now and then makes one more mmap at start-up
# depending on where the kernel placed its mappings (about 1 run in 300): without address
# randomization its calls are the same from run to run.
fixed_layout=()
[ -n "${SYSCAGE_SAN_FLAGS-}" ] && fixed_layout=(setarch "$(uname -m)" -R)
both() {
	local name=$1
	shift
	expect_status 0 "ebpf: $name" -- $T "$S" learn --ebpf --args -o "$TMP/e.policy" \
		--counts "$TMP/e.json" -- "${fixed_layout[@]}" "$H" "$@"
	expect_status 0 "notification: $name" -- $T "$S" learn --args -o "$TMP/n.policy" \
		--counts "$TMP/n.json" -- "${fixed_layout[@]}" "$H" "$@"
	expect_same "$TMP/e.json" "$TMP/n.json" "$name: the same counts"
	tail -n +2 "$TMP/e.policy" >"$TMP/e.rest"
	tail -n +2 "$TMP/n.policy" >"$TMP/n.rest"
	if cmp -s "$TMP/e.rest" "$TMP/n.rest"; then ok "$name: the same policy"; else
		not_ok "$name: the same policy" "$(diff "$TMP/e.rest" "$TMP/n.rest" | head -c 600)"
	fi
}
if have_feature user-notif; then
	both "getpriority with known arguments" prio 0 1 2
	both "x32 calls (the x32 bit of nr)" x32 3
	expect_grep "$TMP/e.policy" '^allow getpid on x32 +# 3 calls$' "x32: counted apart from x86_64"
	if have_feature i386-emulation; then
		both "i386 calls through int 0x80" int80 5
		# the program is x86_64 and made its calls through int 0x80: both ABIs are named,
		# and the getpid calls are counted on x86 alone
		expect_grep "$TMP/e.policy" '^arch x86_64, x86$' "int 0x80: both ABIs named"
		expect_grep "$TMP/e.policy" '^allow getpid on x86 +# 5 calls$' "int 0x80: recorded as i386"
	else
		skip_feature i386-emulation "i386 calls through int 0x80"
	fi
else
	skip_feature user-notif "the same recording as the notification learner"
fi

# Threads and processes: every getppid of 3 processes of 4 threads, counted in the kernel.
expect_status 0 "ebpf: getppid in 3 processes of 4 threads" -- \
	$T "$S" learn --ebpf --counts "$TMP/t.json" -o "$TMP/t.policy" -- "$H" getppid 3 4 1200
expect_grep "$TMP/t.json" '"getppid": 1200,?$' "every thread's calls counted: 1200"
expect_grep "$TMP/t.policy" '^allow clone3? ' "the forks themselves are seen"
# Calls the reader could not take in time are counted and reported: a ring buffer of one
# page (64 calls), then read only every 50 ms, cannot hold the calls of a tight loop.
SYSCAGE_EBPF_RING_PAGES=1 expect_status 0 "a full ring buffer: still written" -- \
	$T "$S" learn --ebpf --args -o "$TMP/l.policy" -- "$H" getppid 1 1 200000
expect_grep "$TMP/err" '^syscage: warning: learn --ebpf: [0-9]+ calls \(or new processes\) were lost to a full ring buffer' \
	"a full ring buffer: the lost calls are reported"
expect_grep "$TMP/l.policy" '^allow getppid ' "a full ring buffer: what was read is in the policy"
expect_status 127 "missing program: 127" -- "$S" learn --ebpf -o "$TMP/m.policy" -- no-such-program-here
if [ ! -e "$TMP/m.policy" ]; then ok "nothing written when the program never ran"; else
	not_ok "nothing written when the program never ran"; fi
expect_status 3 "exit status is the program's" -- $T "$S" learn --ebpf -o "$TMP/x.policy" \
	-- sh -c 'exit 3'
expect_grep "$TMP/x.policy" '^allow exit_group ' "policy written although the program failed"
expect_status 0 "policy on stdout: the program's output goes to stderr" -- \
	$T "$S" learn --ebpf -- sh -c 'echo program-output-line'
if grep -qx 'program-output-line' "$TMP/out"; then not_ok "the program's output is not in the policy"
else ok "the program's output is not in the policy"; fi
expect_grep "$TMP/err" '^program-output-line$' "the program's stdout is on stderr"

# wait_recording FILE: until syscage says in FILE that it records (10 s at most).
wait_recording() {
	for _ in $(seq 100); do
		grep -q 'recording' "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# --pid: a process waiting on a FIFO, then running the workload; ends with the process.
mkfifo "$TMP/go"
sh -c 'read x < "$1"; exec "$2" prio 7' sh "$TMP/go" "$H" &
target=$!
$T "$S" learn --ebpf --pid "$target" --counts "$TMP/p.json" -o "$TMP/p.policy" \
	2>"$TMP/p.err" &
learner=$!
if wait_recording "$TMP/p.err"; then ok "--pid: recording"; else
	not_ok "--pid: recording" "$(cat "$TMP/p.err")"; fi
echo go >"$TMP/go"
wait "$target"
wait "$learner"
rc=$?
if [ "$rc" -eq 0 ]; then ok "--pid: ends with the process"; else
	not_ok "--pid: ends with the process" "exit status $rc" "$(cat "$TMP/p.err")"; fi
expect_grep "$TMP/p.policy" '^allow getpriority if which in \{7\} +# 1 call$|^allow getpriority +# 1 call$' \
	"--pid: the process's call after exec"
expect_grep "$TMP/p.json" '"execve": 1' "--pid: its execve"

# --cgroup: a fresh cgroup v2 directory; what runs there is recorded until SIGINT.
cg_root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
cg=${cg_root:+$cg_root/syscage-learn-ebpf-$$}
if [ -n "$cg_root" ] && mkdir "$cg" 2>/dev/null; then
	$T "$S" learn --ebpf --cgroup "$cg" --counts "$TMP/c.json" -o "$TMP/c.policy" \
		2>"$TMP/c.err" &
	learner=$!
	if wait_recording "$TMP/c.err"; then ok "--cgroup: recording"; else
		not_ok "--cgroup: recording" "$(cat "$TMP/c.err")"; fi
	sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" prio 5 5' sh "$cg" "$H"
	kill -INT "$learner"
	wait "$learner"
	rc=$?
	if [ "$rc" -eq 0 ]; then ok "--cgroup: SIGINT ends it"; else
		not_ok "--cgroup: SIGINT ends it" "exit status $rc" "$(cat "$TMP/c.err")"; fi
	expect_grep "$TMP/c.json" '"getpriority": 2' "--cgroup: the calls made in the cgroup"
	rmdir "$cg"
	expect_status 125 "--cgroup of a plain directory: refused" -- \
		"$S" learn --ebpf --cgroup "$TMP"
	expect_grep "$TMP/err" 'not a directory of a cgroup v2' "--cgroup: says why"
else
	skip_feature cgroup2 "--cgroup: the calls made in the cgroup"
fi
echo "1..$n"
