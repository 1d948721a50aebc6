#!/usr/bin/env bash
# syscage learn: learned policies run the same workload and deny others, exact
# counts across threads and processes, per-ABI recording (int 0x80, x32),
# argument values, --merge, --format oci, --counts, and an unprivileged user.
. "$(dirname "$0")/../cli_lib.bash"
S=$SYSCAGE
T="timeout -k 5 60"
H=${BUILD:-build}/tests/helpers/learn_workload
if [ ! -x "$H" ]; then
	cc -D_GNU_SOURCE -o "$H" "$(dirname "$0")/../helpers/learn_workload.c" -lpthread >&2
fi
H=$(realpath "$H")

expect_status 0 "learn --help" -- "$S" learn --help
expect_grep "$TMP/out" 'usage: syscage learn' "help text"
expect_status 2 "no program: usage error" -- "$S" learn -o "$TMP/x.policy"
expect_status 2 "bad --format" -- "$S" learn --format yaml -- true
SYSCAGE_DISABLE_FEATURES=user-notif expect_status 125 "no USER_NOTIF: cannot learn" -- "$S" learn -- true
expect_grep "$TMP/err" "learn needs seccomp user notification" "no USER_NOTIF: says what it needs"
# everything below learns, through seccomp user notification
if ! have_feature user-notif; then
	skip_feature user-notif "learn.sh: every check that learns a program"
	exit 0
fi
expect_status 127 "missing program: 127" -- "$S" learn -o "$TMP/x.policy" -- no-such-program-here
if [ ! -e "$TMP/x.policy" ]; then ok "nothing written when the program never ran"; else
	not_ok "nothing written when the program never ran"; fi

# learn, then run the same workload under the learned policy
learn_then_run() {
	local name=$1
	shift
	expect_status 0 "learn: $name" -- $T "$S" learn -o "$TMP/w.policy" -- "$@"
	expect_grep "$TMP/w.policy" '^default kill$' "$name: denies the rest"
	expect_status 0 "run under the learned policy: $name" -- $T "$S" run -p "$TMP/w.policy" -- "$@"
	if grep -q 'denied' "$TMP/err"; then not_ok "$name: nothing denied" "$(cat "$TMP/err")"
	else ok "$name: nothing denied"; fi
}
learn_then_run "ls /" ls /
learn_then_run "sh -c" sh -c 'echo hi > /dev/null'
if command -v python3 >/dev/null; then
	learn_then_run "python3" python3 -c 'print(1)'
else
	ok "python3 # SKIP python3 not installed"
fi

# the program's output and exit status pass through
expect_status 3 "exit status is the program's" -- $T "$S" learn -o "$TMP/e.policy" -- sh -c 'echo out; exit 3'
expect_grep "$TMP/out" '^out$' "program output on stdout"
expect_grep "$TMP/e.policy" '^allow exit_group ' "policy written although the program failed"
expect_status 0 "policy on stdout without -o" -- $T "$S" learn -- "$H" uname
expect_grep "$TMP/out" '^allow uname +# 1 call$' "stdout holds the policy"
# without -o the policy alone goes to stdout: the program's output goes to stderr
expect_status 0 "learn without -o, a program that writes" -- \
	$T "$S" learn -- sh -c 'echo program-output-line; echo to-stderr >&2'
cp "$TMP/out" "$TMP/stdout.policy"
if grep -qx 'program-output-line' "$TMP/stdout.policy"; then
	not_ok "the program's output is not in the policy" "$(head -c 400 "$TMP/stdout.policy")"
else ok "the program's output is not in the policy"; fi
expect_grep "$TMP/err" '^program-output-line$' "the program's stdout goes to stderr"
expect_grep "$TMP/err" '^to-stderr$' "the program's stderr stays stderr"
expect_status 0 "the policy written to stdout compiles" -- \
	"$S" compile -o "$TMP/stdout.bpf" "$TMP/stdout.policy"
expect_status 0 "learn -o -: the same" -- $T "$S" learn -o - -- sh -c 'echo program-output-line'
if grep -qx 'program-output-line' "$TMP/out"; then not_ok "-o -: the output is not in the policy"
else ok "-o -: the output is not in the policy"; fi
# standard output by another name (a path that cannot be replaced: /proc/self/fd/1)
expect_status 0 "learn -o /proc/self/fd/1: the same" -- \
	$T "$S" learn -o /proc/self/fd/1 -- sh -c 'echo program-output-line'
if grep -qx 'program-output-line' "$TMP/out"; then not_ok "-o /proc/self/fd/1: the output is not in the policy"
else ok "-o /proc/self/fd/1: the output is not in the policy"; fi
expect_grep "$TMP/out" '^default kill$' "-o /proc/self/fd/1: the policy is there"

# a workload that needs a syscall the learned one did not make is stopped
expect_status 0 "learn: prio" -- $T "$S" learn -o "$TMP/prio.policy" -- "$H" prio 0
expect_status 159 "new syscall killed under the learned policy" -- \
	$T "$S" run -p "$TMP/prio.policy" -- "$H" uname
expect_grep "$TMP/err" 'denied uname' "the denial names the new syscall"
expect_status 159 "sh -c policy denies mkdir" -- \
	$T "$S" run -p "$TMP/w.policy" -- sh -c 'mkdir "$1"' sh "$TMP/newdir"
if [ ! -e "$TMP/newdir" ]; then ok "directory not created"; else not_ok "directory not created"; fi
# the launcher's own syscalls before exec are not in the policy
if grep -qE '^allow (sendmsg|prctl|seccomp|execve)\b' "$TMP/prio.policy"; then
	not_ok "no launcher syscalls recorded" "$(grep -E '^allow (sendmsg|prctl|seccomp|execve)' "$TMP/prio.policy")"
else ok "no launcher syscalls recorded"; fi

# exact counts: 4 processes x 2 threads, 1000 getppid between them, repeatedly
exact=0
for i in 1 2 3 4 5; do
	$T "$S" learn -o "$TMP/c.policy" --counts "$TMP/c.json" -- "$H" getppid 4 2 1000 >/dev/null 2>&1
	if grep -qE '^allow getppid +# 1000 calls$' "$TMP/c.policy" &&
		grep -qE '^      "getppid": 1000,?$' "$TMP/c.json"; then exact=$((exact + 1)); fi
done
if [ "$exact" -eq 5 ]; then ok "1000 getppid in 8 threads of 4 processes: counted exactly, 5 runs"
else not_ok "1000 getppid in 8 threads of 4 processes: counted exactly, 5 runs" \
	"$exact of 5 exact" "$(grep getppid "$TMP/c.policy" "$TMP/c.json")"; fi
expect_status 0 "more threads: 16 x 8, 4096 calls" -- \
	$T "$S" learn -o "$TMP/c.policy" -- "$H" getppid 8 16 4096
expect_grep "$TMP/c.policy" '^allow getppid +# 4096 calls$' "4096 counted exactly"
if command -v python3 >/dev/null; then
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["version"] == 1; assert sum(d["abis"]["x86_64"].values()) == d["total"]' "$TMP/c.json"; then
		ok "--counts is JSON and sums to the total"; else not_ok "--counts is JSON and sums to the total"; fi
fi

# calls interrupted by signals while they wait for the supervisor restart: once each
expect_status 0 "learn: getppid under a storm of SIGUSR1" -- \
	$T "$S" learn -o "$TMP/s.policy" -- "$H" signals 3000
expect_grep "$TMP/s.policy" '^allow getppid +# 3000 calls$' "interrupted calls counted exactly once"
expect_grep "$TMP/s.policy" '^allow rt_sigreturn ' "the signals were delivered"

# descendants that outlive the program are still recorded
expect_status 0 "learn: a background child outliving the shell" -- \
	$T "$S" learn -o "$TMP/bg.policy" -- sh -c "(sleep 0.3; $H uname) & exit 0"
expect_grep "$TMP/bg.policy" '^allow uname ' "the late child's uname recorded"

# run -w: a daemon the learned policy kills after the program exited 0 fails the run
expect_status 0 "learn: a daemon calling getppid after the program exits" -- \
	$T "$S" learn -o "$TMP/d.policy" -- "$H" daemon getppid
expect_status 0 "run -w: the same daemon runs" -- $T "$S" run -w -p "$TMP/d.policy" -- "$H" daemon getppid
expect_status 159 "run -w: a daemon killed by the policy makes the run fail" -- \
	$T "$S" run -w -p "$TMP/d.policy" -- "$H" daemon uname
expect_grep "$TMP/err" 'descendant process killed: the policy.s KILL verdict for uname in pid [0-9]+' \
	"run -w: says which descendant was killed, and why"
expect_grep "$TMP/err" 'although the program exited 0' "run -w: says the program itself exited 0"

# per ABI: int 0x80 is the x86 ABI, bit 30 is x32
if ! have_feature i386-emulation; then
	# without 32-bit emulation int $0x80 kills the workload whatever the policy
	for check in "learn: int 0x80" "x86 becomes a target" "int 0x80 getpid under x86, counted" \
		"run int 0x80 workload under its policy" "int 0x80 killed under a policy learned without it"; do
		skip_feature i386-emulation "$check"
	done
else
	expect_status 0 "learn: int 0x80" -- $T "$S" learn -o "$TMP/i.policy" -- "$H" int80 7
	expect_grep "$TMP/i.policy" '^arch x86_64, x86$' "x86 becomes a target"
	expect_grep "$TMP/i.policy" '^allow getpid on x86 +# 7 calls$' "int 0x80 getpid under x86, counted"
	expect_status 0 "run int 0x80 workload under its policy" -- \
		$T "$S" run -p "$TMP/i.policy" -- "$H" int80 7
	expect_status 159 "int 0x80 killed under a policy learned without it" -- \
		$T "$S" run -p "$TMP/prio.policy" -- "$H" int80 1
fi
# the x32 number is seen by seccomp, and so learned, with or without x32 in the kernel
if [ "$(uname -m)" = x86_64 ]; then
	expect_status 0 "learn: x32" -- $T "$S" learn -o "$TMP/x.policy" -- "$H" x32 5
	expect_grep "$TMP/x.policy" '^allow getpid on x32 +# 5 calls$' "x32 getpid recorded apart"
	# where the kernel runs x32 calls, the learned policy lets them run, and one learned
	# without them kills them (x32-ran compares each result with its own getpid)
	with_feature x32 expect_status 0 "learn: x32 calls that run" -- \
		$T "$S" learn -o "$TMP/xr.policy" -- "$H" x32-ran 5
	with_feature x32 expect_status 0 "x32 getpid runs under its learned policy" -- \
		$T "$S" run -p "$TMP/xr.policy" -- "$H" x32-ran 5
	with_feature x32 expect_status 159 "x32 getpid killed under a policy learned without it" -- \
		$T "$S" run -p "$TMP/prio.policy" -- "$H" x32-ran 1
else
	skip_feature x32 "learn: x32 (not an x86_64 machine)"
fi

# --args: values of flag-like arguments
expect_status 0 "learn --args" -- $T "$S" learn --args -o "$TMP/a0.policy" -- "$H" prio 0
expect_grep "$TMP/a0.policy" '^allow getpriority if which == 0 +# 1 call$' "--args records the value"
expect_status 159 "other value denied" -- $T "$S" run -p "$TMP/a0.policy" -- "$H" prio 1
expect_status 0 "same value allowed" -- $T "$S" run -p "$TMP/a0.policy" -- "$H" prio 0

# only arguments whose values mean something: never an address (prctl's unnamed
# unsigned longs), which changes from run to run
expect_status 0 "learn --args: prctl(PR_SET_NAME, address)" -- \
	$T "$S" learn --args -o "$TMP/pr.policy" -- "$H" prctl-name
expect_grep "$TMP/pr.policy" '^allow prctl if option == PR_SET_NAME +# 1 call$' "prctl: the option, not the address"
for i in 1 2 3; do
	expect_status 0 "prctl with a new address runs under the policy ($i)" -- \
		$T "$S" run -p "$TMP/pr.policy" -- "$H" prctl-name
done
expect_status 2 "--args takes nothing or =fd" -- "$S" learn --args=pointers -- true
expect_status 0 "learn --args=fd" -- $T "$S" learn --args=fd -o "$TMP/fd.policy" -- "$H" uname
expect_grep "$TMP/fd.policy" '^allow close if fd ' "--args=fd: descriptor numbers recorded"
expect_status 0 "learn --args: no descriptor numbers" -- $T "$S" learn --args -o "$TMP/nofd.policy" -- "$H" uname
if grep -qE '\bfd (==|in)' "$TMP/nofd.policy"; then
	not_ok "--args alone: no descriptor numbers" "$(grep -E '\bfd (==|in)' "$TMP/nofd.policy")"
else ok "--args alone: no descriptor numbers"; fi

# a policy learned with --args from real programs replays the same workload
args_replay() {
	local name=$1
	shift
	expect_status 0 "learn --args: $name" -- $T "$S" learn --args -o "$TMP/r.policy" -- "$@"
	expect_status 0 "replay under the --args policy: $name" -- $T "$S" run -p "$TMP/r.policy" -- "$@"
	if grep -q 'denied' "$TMP/err"; then not_ok "--args $name: nothing denied" "$(head -c 600 "$TMP/err")"
	else ok "--args $name: nothing denied"; fi
}
# a socket option is named by its level, and the name reads back
expect_status 0 "learn --args: setsockopt(SOL_SOCKET, SO_REUSEADDR)" -- \
	$T "$S" learn --args -o "$TMP/so.policy" -- "$H" reuseaddr
expect_grep "$TMP/so.policy" '^allow setsockopt if level == SOL_SOCKET && optname == SO_REUSEADDR( |$)' \
	"setsockopt: the option by its name"
expect_status 0 "setsockopt runs under the learned policy" -- $T "$S" run -p "$TMP/so.policy" -- "$H" reuseaddr
# options at two levels are learned as (level, optname) pairs, one term per level:
# an option is allowed only at the level it was seen at
"$H" sockopts
if [ $? = 3 ]; then
	for check in "pairs: learned" "pairs: one term per level" "pairs: replay" "pairs: a crossed pair is refused" \
		"pairs: emu allows a pair seen" "pairs: emu refuses a crossed pair" "pairs: --merge keeps them" \
		"pairs: --format oci" "pairs: the OCI export refuses a crossed pair"; do
		ok "$check # SKIP no AF_INET sockets here"
	done
else
	expect_status 0 "pairs: learned" -- $T "$S" learn --args -o "$TMP/so2.policy" -- "$H" sockopts
	so2='^allow setsockopt if \(level == SOL_SOCKET && optname == SO_REUSEADDR\) \|\| \(level == IPPROTO_TCP && optname == TCP_NODELAY\)( |$)'
	expect_grep "$TMP/so2.policy" "$so2" "pairs: one term per level"
	expect_status 0 "pairs: replay" -- $T "$S" run -p "$TMP/so2.policy" -- "$H" sockopts
	expect_status 159 "pairs: a crossed pair is refused" -- $T "$S" run -p "$TMP/so2.policy" -- "$H" sockopts crossed
	expect_emu "pairs: emu allows a pair seen" ALLOW -- -f "$TMP/so2.policy" setsockopt 3 6 1
	expect_emu "pairs: emu refuses a crossed pair" KILL_PROCESS -- -f "$TMP/so2.policy" setsockopt 3 6 2
	$T "$S" learn --args --merge "$TMP/so2.policy" -o "$TMP/so3.policy" -- "$H" sockopts 2>"$TMP/err"
	expect_grep "$TMP/so3.policy" "$so2"'.*# 4 calls' "pairs: --merge keeps them"
	expect_status 0 "pairs: --format oci" -- $T "$S" learn --args --format oci -o "$TMP/so.json" -- "$H" sockopts
	expect_emu "pairs: the OCI export refuses a crossed pair" KILL_PROCESS -- -f "$TMP/so.json" setsockopt 3 6 2
fi

args_replay "sh -c 'ls; cat'" sh -c 'ls / >/dev/null; cat </dev/null'
for prog in python3 git curl; do
	if ! command -v $prog >/dev/null; then
		ok "--args $prog # SKIP $prog not installed"
		continue
	fi
	case $prog in
	python3) args_replay "python3 -c" python3 -c 'import os, json; print(json.dumps(os.listdir("/")))' ;;
	*) args_replay "$prog --version" $prog --version ;;
	esac
done

# --merge widens
expect_status 0 "learn --merge" -- \
	$T "$S" learn --args --merge "$TMP/a0.policy" -o "$TMP/a01.policy" -- "$H" prio 1
expect_grep "$TMP/a01.policy" '^allow getpriority if which in \{0, 1\} +# 2 calls$' "--merge widens values and adds counts"
expect_status 0 "merged policy runs both" -- $T "$S" run -p "$TMP/a01.policy" -- "$H" prio 0 1
expect_status 0 "merge another syscall" -- \
	$T "$S" learn --merge "$TMP/prio.policy" -o "$TMP/m.policy" -- "$H" uname
expect_grep "$TMP/m.policy" '^allow uname ' "merged: the new syscall"
expect_grep "$TMP/m.policy" '^allow getpriority ' "merged: the old syscall"
expect_status 0 "merged policy runs the first workload" -- $T "$S" run -p "$TMP/m.policy" -- "$H" prio 0
expect_status 0 "merged policy runs the second workload" -- $T "$S" run -p "$TMP/m.policy" -- "$H" uname
printf 'allow read\nnot a policy\n' >"$TMP/bad.policy"
expect_status 2 "--merge of a broken policy" -- $T "$S" learn --merge "$TMP/bad.policy" -- true
expect_grep "$TMP/err" 'bad\.policy:2' "the error names the line"

# --format oci imports back
expect_status 0 "learn --format oci" -- \
	$T "$S" learn --args --format oci -o "$TMP/l.json" -- "$H" prio 0 1
expect_grep "$TMP/l.json" '"defaultAction": *"SCMP_ACT_KILL_PROCESS"' "OCI default action"
expect_status 0 "syscage compile accepts the OCI output" -- "$S" compile -o "$TMP/l.bpf" "$TMP/l.json"
expect_status 0 "run under the OCI policy" -- $T "$S" run -p "$TMP/l.json" -- "$H" prio 0 1
expect_grep "$TMP/l.json" '"execve"' "OCI: the runtime's exec of the program is allowed"
# the policy text says what the export holds: the same verdicts for the learned calls
expect_status 0 "learn the same as policy text" -- \
	$T "$S" learn --args -o "$TMP/l.policy" -- "$H" prio 0 1
expect_status 0 "compile the policy text" -- "$S" compile -o "$TMP/lp.bpf" "$TMP/l.policy"
expect_status 0 "compile the OCI export" -- "$S" compile -o "$TMP/lj.bpf" "$TMP/l.json"
for c in "getpriority 0" "getpriority 1" "getpriority 2" "uname"; do
	"$S" emu -f "$TMP/lp.bpf" $c >"$TMP/emu.policy" 2>&1
	"$S" emu -f "$TMP/lj.bpf" $c >"$TMP/emu.json" 2>&1
	expect_same "$TMP/emu.policy" "$TMP/emu.json" "OCI export and policy text agree: $c"
done
"$S" emu -f "$TMP/lp.bpf" execve >"$TMP/emu.policy" 2>&1
"$S" emu -f "$TMP/lj.bpf" execve >"$TMP/emu.json" 2>&1
expect_grep "$TMP/emu.policy" 'KILL_PROCESS' "execve: killed by the policy text (syscage run's exec passes with its cookie)"
expect_grep "$TMP/emu.json" 'ALLOW' "execve: allowed by the OCI export (the runtime's exec)"
# an OCI runtime starts the program under the exported profile
oci_checks=("runc starts a container under the learned OCI profile" "runc does not report the container process dead")
if ! have_feature runc; then
	for check in "${oci_checks[@]}"; do skip_feature runc "$check"; done
elif ! cc -static -O2 -D_GNU_SOURCE -o "$TMP/static_workload" \
	"$(dirname "$0")/../helpers/learn_workload.c" -lpthread 2>"$TMP/err"; then
	not_ok "containers possible here (static linking)" "$(head -3 "$TMP/err")"
else
	mkdir -p "$TMP/bundle/rootfs/bin" && cp "$TMP/static_workload" "$TMP/bundle/rootfs/bin/workload"
	expect_status 0 "learn --format oci: the static workload" -- \
		$T "$S" learn --format oci -o "$TMP/c.json" -- "$TMP/bundle/rootfs/bin/workload" prio 0
	(cd "$TMP/bundle" && runc spec)
	python3 - "$TMP/bundle/config.json" "$TMP/c.json" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
profile = json.load(open(sys.argv[2]))
config["process"]["args"] = ["/bin/workload", "prio", "0"]
config["process"]["terminal"] = False
config["root"]["readonly"] = True
config["linux"]["seccomp"] = profile.get("linux", {}).get("seccomp", profile)
json.dump(config, open(sys.argv[1], "w"))
PY
	expect_status 0 "${oci_checks[0]}" -- $T unshare -m sh -c \
		"mount --make-rprivate / && cd '$TMP/bundle' && runc run scg-learn-$$"
	if grep -q 'already dead\|bad system call' "$TMP/err"; then
		not_ok "${oci_checks[1]}" "$(head -c 400 "$TMP/err")"
	else ok "${oci_checks[1]}"; fi
fi

# a real program's policy text, exported with `compile --format oci`: the export adds the
# runtime's start calls, and runc runs python3 from the host's /usr under it; without them
# (--no-runtime-calls) the container dies before python3 starts
real_checks=("runc runs python3 under the exported policy" "python3 answered in the container"
	"--no-runtime-calls: the container is killed before the program starts")
if ! have_feature runc || [ ! -x /usr/bin/python3 ]; then
	for check in "${real_checks[@]}"; do skip_feature runc "$check"; done
else
	py='import json; print(json.dumps({"answer": 6 * 7}))'
	expect_status 0 "learn python3 as policy text" -- $T "$S" learn -o "$TMP/py.policy" -- /usr/bin/python3 -c "$py"
	expect_status 0 "compile --format oci adds the runtime's calls" -- \
		"$S" compile --format oci -o "$TMP/py.json" "$TMP/py.policy"
	expect_grep "$TMP/err" '^note: allowed for the OCI runtime, which makes them before the program starts: execve' \
		"the export names the calls it added"
	expect_status 0 "compile --format oci --no-runtime-calls" -- \
		"$S" compile --format oci --no-runtime-calls -o "$TMP/py-bare.json" "$TMP/py.policy"
	mkdir -p "$TMP/pybundle/rootfs"
	(cd "$TMP/pybundle" && runc spec)
	py_bundle() { # PROFILE: the bundle's config runs python3 under PROFILE
		python3 - "$TMP/pybundle/config.json" "$1" "$py" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
profile = json.load(open(sys.argv[2]))
config["process"]["args"] = ["/usr/bin/python3", "-c", sys.argv[3]]
config["process"]["terminal"] = False
config["root"]["readonly"] = True
config["mounts"] = [m for m in config["mounts"] if m["destination"] not in ("/usr", "/lib", "/lib64", "/bin", "/etc")]
for d in ("usr", "lib", "lib64", "bin", "etc"):
    config["mounts"].append({"destination": "/" + d, "type": "bind", "source": "/" + d,
                             "options": ["rbind", "ro"]})
config["linux"]["seccomp"] = profile.get("linux", {}).get("seccomp", profile)
json.dump(config, open(sys.argv[1], "w"))
PY
		for d in usr lib lib64 bin etc; do mkdir -p "$TMP/pybundle/rootfs/$d"; done
	}
	py_bundle "$TMP/py.json"
	expect_status 0 "${real_checks[0]}" -- $T unshare -m sh -c \
		"mount --make-rprivate / && cd '$TMP/pybundle' && runc run scg-py-$$"
	expect_grep "$TMP/out" '^\{"answer": 42\}$' "${real_checks[1]}"
	py_bundle "$TMP/py-bare.json"
	# runc's init dies by SIGSYS; runc tells it three ways, by where the kill lands: at the
	# program's exec, the container's status 159; after init opened runc's exec fifo and
	# before it wrote to it, runc reads nothing ("cannot start an already running
	# container"); before it opened it, "container process is already dead"
	$T unshare -m sh -c "mount --make-rprivate / && cd '$TMP/pybundle' && runc run scg-pyb-$$" \
		>"$TMP/out" 2>"$TMP/err"
	status=$?
	if grep -q answer "$TMP/out"; then
		not_ok "${real_checks[2]}" "python3 ran: $(head -c 200 "$TMP/out")"
	elif [ "$status" -eq 159 ] || { [ "$status" -ne 0 ] &&
		grep -q 'already running container\|already dead' "$TMP/err"; }; then
		ok "${real_checks[2]}"
	else
		not_ok "${real_checks[2]}" "exit status $status, wanted 159 or runc's report of its dead init" \
			"stderr: $(head -c 400 "$TMP/err")"
	fi
fi

# an ordinary user
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	# copies nobody can reach wherever the tree is; the policy goes to stdout,
	# which this (root) shell writes
	mkdir "$TMP/pub" && cp "$S" "$H" "$TMP/pub/" && chmod 755 "$TMP" "$TMP/pub"
	expect_status 0 "learn as nobody" -- $T setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TMP/pub/syscage" learn -- "$TMP/pub/learn_workload" getppid 2 2 100
	expect_grep "$TMP/out" '^allow getppid +# 100 calls$' "as nobody: counted"
elif [ "$(id -u)" -ne 0 ]; then
	expect_status 0 "learn as an ordinary user" -- $T "$S" learn -o "$TMP/user.policy" -- "$H" getppid 2 2 100
	expect_grep "$TMP/user.policy" '^allow getppid +# 100 calls$' "as a user: counted"
else
	not_ok "learn as nobody" "setpriv (util-linux) is missing"
fi

# a program that wants its own listener: the kernel refuses with EBUSY
printf 'default allow\n' >"$TMP/allow.policy"
expect_status 125 "nested supervised run fails (EBUSY)" -- \
	$T "$S" learn -o "$TMP/n.policy" -- "$S" run -p "$TMP/allow.policy" -- true
expect_grep "$TMP/err" 'already in place' "the nested run says why"
