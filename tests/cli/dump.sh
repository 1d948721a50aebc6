#!/usr/bin/env bash
# syscage status and syscage dump: a process holding two filters, a program
# caught at its install, -o DIR with atomic files, --json, exit statuses.
. "$(dirname "$0")/../cli_lib.bash"

HELPER=${BUILD:-build}/tests/helpers/install_filter
if [ ! -x "$HELPER" ]; then
	HELPER=$TMP/install_filter
	cc -D_GNU_SOURCE -o "$HELPER" "$(dirname "$0")/../helpers/install_filter.c" -lpthread
fi

cat >"$TMP/f.s" <<'ASM'
ld [nr]
jeq #39, deny, ok
deny: ret ERRNO(1)
ok: ret ALLOW
ASM
"$SYSCAGE" asm "$TMP/f.s" -o "$TMP/f.bpf" || not_ok "assemble the test filter"

# missing_of FEATURE...: the first FEATURE (a have_feature name, or x86_64) this machine lacks
missing_of() {
	for f in "$@"; do
		case $f in
		x86_64) [ "$(uname -m)" = x86_64 ] || { echo "$f"; return; } ;;
		*) have_feature "$f" || { echo "$f"; return; } ;;
		esac
	done
}

# waits (at most 10 s) for a file to appear
wait_for() { for _ in $(seq 300); do [ -e "$1" ] && return 0; sleep 0.1; done; return 1; }

# --- status ------------------------------------------------------------
# The suite may run under a filter of its environment (a container's): counts are
# relative to this shell's, and modes as /proc says for it.
base=$(sed -n 's/^Seccomp_filters:[[:space:]]*//p' /proc/$$/status)
case $(sed -n 's/^Seccomp:[[:space:]]*//p' /proc/$$/status) in
0) mode=none ;; 1) mode=strict ;; *) mode=filter ;;
esac
expect_status 0 "status without PID: the calling process" -- "$SYSCAGE" status
expect_grep "$TMP/out" "^$$ \(.*\): seccomp $mode" "status names the parent shell"
expect_grep "$TMP/out" '^  32-bit emulation \(int \$0x80\): (on|off)$' "status shows 32-bit emulation"
expect_grep "$TMP/out" '^  x32: (on|off)$' "status shows x32"
expect_grep "$TMP/out" '^  PTRACE_SECCOMP_GET_FILTER: (yes|no \(.+\))$' "status shows PTRACE_SECCOMP_GET_FILTER"
expect_grep "$TMP/out" '^  filter flags: tsync' "status shows the filter flags"
expect_grep "$TMP/out" '^  missing: ' "status names the missing features"
expect_status 0 "status --json" -- "$SYSCAGE" status --json $$ 1
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [p["pid"] for p in d["processes"]] == [int(sys.argv[2]), 1]
assert d["processes"][0]["seccomp"] == sys.argv[3]
k = d["kernel"]
assert k["seccomp_syscall"] is True and "ALLOW" in k["actions"] and "tsync" in k["filter_flags"]
names = ["tsync", "log", "spec-allow", "new-listener", "tsync-esrch", "wait-killable-recv",
         "user-notif", "i386-emulation", "x32", "ptrace-get-filter", "landlock",
         "landlock-scope", "cgroup-kill"]
assert sorted(k["features"]) == sorted(names), k["features"]
assert isinstance(k["landlock_abi"], int) and (k["landlock_abi"] > 0) == k["features"]["landlock"]
assert k["process_tree"] == ("cgroup" if k["features"]["cgroup-kill"] else "subreaper")
assert all(isinstance(v, bool) for v in k["features"].values())
assert (k["ptrace_get_filter_error"] is None) == k["features"]["ptrace-get-filter"]
' "$TMP/out" $$ "$mode" 2>"$TMP/err"; then
	ok "status --json: processes, one object per PID, and the kernel's features"
else
	not_ok "status --json: processes, one object per PID, and the kernel's features" "$(cat "$TMP/err")"
fi
SYSCAGE_DISABLE_FEATURES=ia32-emulation,x32,ptrace-get-filter expect_status 0 \
	"status with SYSCAGE_DISABLE_FEATURES" -- "$SYSCAGE" status
expect_grep "$TMP/out" '^  missing: .*i386-emulation x32 ptrace-get-filter' "disabled features are missing"
expect_grep "$TMP/out" '^  32-bit emulation \(int \$0x80\): off$' "disabled 32-bit emulation is off"
expect_grep "$TMP/out" '^  PTRACE_SECCOMP_GET_FILTER: no \(disabled by SYSCAGE_DISABLE_FEATURES\)$' \
	"says why PTRACE_SECCOMP_GET_FILTER is off"
SYSCAGE_DISABLE_FEATURES=i386-emulation expect_status 0 "status --json: i386-emulation disabled" -- \
	"$SYSCAGE" status --json
expect_grep "$TMP/out" '"i386-emulation": false' "the feature list says so"
gone=$(sh -c 'echo $$')
expect_status 2 "status of a process that does not exist" -- "$SYSCAGE" status "$gone"
expect_grep "$TMP/err" "no process $gone" "status names the missing PID"
expect_status 2 "status of something that is not a PID" -- "$SYSCAGE" status 12ab
expect_status 2 "status: a missing PID among good ones still fails" -- "$SYSCAGE" status $$ "$gone"

# --- a process holding two filters --------------------------------------
"$HELPER" hold "$TMP/f.bpf" "$TMP/held" &
held=$!
if wait_for "$TMP/held"; then ok "helper installed two filters"; else not_ok "helper installed two filters"; fi
expect_status 0 "status of the filtered process" -- "$SYSCAGE" status "$held"
expect_grep "$TMP/out" "^$held \(install_filter\): seccomp filter, $((base + 2)) filters, no_new_privs 1$" \
	"status: filter mode, 2 filters, NO_NEW_PRIVS"
expect_status 0 "status --json of the filtered process" -- "$SYSCAGE" status --json "$held"
expect_grep "$TMP/out" "\"pid\": $held, \"name\": \"install_filter\", \"seccomp\": \"filter\", \"filters\": $((base + 2)), \"no_new_privs\": true" \
	"status --json: filter mode, 2 filters"
# dump PID reads filters back with PTRACE_SECCOMP_GET_FILTER
dump_pid_checks=(
	"dump PID" "dump says which filter is oldest" "dump says which filter is newest"
	"dump disassembles the filters" "dump --format table" "table format" "dump --format policy"
	"policy format: a filter without an arch check has no policy, says so"
	"two filters do not go raw to standard output" "dump --format raw -o DIR"
	"filter-0.bpf holds the installed bytes" "filter-1.bpf holds the installed bytes"
	"-o DIR leaves no temporary files" "dump -o DIR with asm"
	"dumped assembler reassembles to the same bytes" "the dumped process runs on, not stopped"
	"dump of a process without filters"
)
if have_feature ptrace-get-filter; then
	expect_status 0 "dump PID" -- "$SYSCAGE" dump "$held"
	expect_grep "$TMP/out" "^; --- filter 0 \(oldest, installed first\) ---" "dump says which filter is oldest"
	expect_grep "$TMP/out" "^; --- filter 1 \(newest, installed last\) ---" "dump says which filter is newest"
	expect_grep "$TMP/out" "j(eq|ne) #39, L3 +; getpid" "dump disassembles the filters"
	expect_status 0 "dump --format table" -- "$SYSCAGE" dump --format table "$held"
	expect_grep "$TMP/out" "if \(A == 39\)" "table format"
	expect_status 0 "dump --format policy" -- "$SYSCAGE" dump -f policy "$held"
	expect_grep "$TMP/out" "tests what the policy language cannot say" \
		"policy format: a filter without an arch check has no policy, says so"
	expect_status 2 "two filters do not go raw to standard output" -- "$SYSCAGE" dump -f raw "$held"
	expect_status 0 "dump --format raw -o DIR" -- "$SYSCAGE" dump -f raw -o "$TMP/held.d" "$held"
	expect_same "$TMP/held.d/filter-0.bpf" "$TMP/f.bpf" "filter-0.bpf holds the installed bytes"
	expect_same "$TMP/held.d/filter-1.bpf" "$TMP/f.bpf" "filter-1.bpf holds the installed bytes"
	left=$(ls -A "$TMP/held.d" | tr '\n' ' ')
	if [ "$left" = "filter-0.bpf filter-1.bpf " ]; then ok "-o DIR leaves no temporary files"; else
		not_ok "-o DIR leaves no temporary files" "found: $left"; fi
	expect_status 0 "dump -o DIR with asm" -- "$SYSCAGE" dump -o "$TMP/held.s" "$held"
	"$SYSCAGE" asm "$TMP/held.s/filter-1.s" -o "$TMP/re.bpf" 2>/dev/null
	expect_same "$TMP/re.bpf" "$TMP/f.bpf" "dumped assembler reassembles to the same bytes"
	if kill -0 "$held" 2>/dev/null && grep -q '^State:.*S (sleeping)' "/proc/$held/status"; then
		ok "the dumped process runs on, not stopped"
	else
		not_ok "the dumped process runs on, not stopped" "$(grep State "/proc/$held/status" 2>&1)"
	fi
else
	for check in "${dump_pid_checks[@]}"; do skip_feature ptrace-get-filter "$check"; done
fi
kill "$held" 2>/dev/null
wait "$held" 2>/dev/null

if have_feature ptrace-get-filter; then
	sleep 30 &
	plain=$!
	expect_status 1 "dump of a process without filters" -- "$SYSCAGE" dump "$plain"
	kill "$plain"
	wait "$plain" 2>/dev/null
fi

# --- status --all ------------------------------------------------------
"$HELPER" hold "$TMP/f.bpf" "$TMP/held2" &
held=$!
wait_for "$TMP/held2" || not_ok "helper installed two filters for status --all"
sleep 30 &
plain=$!
expect_status 0 "status --all" -- "$SYSCAGE" status --all
expect_grep "$TMP/out" "^$held \(install_filter\): seccomp filter" "status --all lists a filtered process"
if grep -q "^$plain " "$TMP/out" && [ "$mode" = none ]; then
	not_ok "status --all leaves out processes without seccomp" "$(grep "^$plain " "$TMP/out")"
else
	ok "status --all leaves out processes without seccomp"
fi
expect_status 0 "status --all --json" -- "$SYSCAGE" status --all --json
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
pids = [p["pid"] for p in d["processes"]]
assert int(sys.argv[2]) in pids, pids
assert pids == sorted(pids)
for p in d["processes"]:
    assert p["seccomp"] != "none" or any(t["seccomp"] != "none" for t in p["threads"]), p
assert sorted(d["skipped"]) == ["unreadable", "vanished"], d["skipped"]
assert "kernel" in d
' "$TMP/out" "$held" 2>"$TMP/err"; then
	ok "status --all --json: only processes under seccomp, and what was skipped"
else
	not_ok "status --all --json: only processes under seccomp, and what was skipped" "$(cat "$TMP/err")"
fi
expect_status 2 "status --all with a PID is bad usage" -- "$SYSCAGE" status --all "$held"
# processes that end while the scan runs are left out, never an error
( for _ in $(seq 200); do /bin/true; done ) &
churn=$!
churn_ok=yes
for _ in 1 2 3; do "$SYSCAGE" status --all >/dev/null 2>"$TMP/err" || churn_ok=$(cat "$TMP/err"); done
wait "$churn"
if [ "$churn_ok" = yes ]; then ok "status --all while processes come and go"; else
	not_ok "status --all while processes come and go" "$churn_ok"; fi
kill "$plain" 2>/dev/null

# --- dump --format policy: text that compiles ----------------------------
cat >"$TMP/pol.policy" <<'POL'
default allow
errno(EPERM) mkdir
errno(EACCES) socket if domain == AF_INET
POL
"$SYSCAGE" compile "$TMP/pol.policy" -o "$TMP/pol.bpf" || not_ok "compile the test policy"
"$HELPER" hold "$TMP/pol.bpf" "$TMP/held3" &
polheld=$!
wait_for "$TMP/held3" || not_ok "helper installed the compiled policy"
policy_checks=("dump --format policy of a stack" "the policy text starts with a policy comment"
	"the dumped policy compiles" "the recompiled policy is equivalent to the dumped filters")
lack=$(missing_of ptrace-get-filter no-inherited-filter)
if [ -z "$lack" ]; then
	expect_status 0 "dump --format policy of a stack" -- "$SYSCAGE" dump -f policy "$polheld"
	cp "$TMP/out" "$TMP/dumped.policy"
	if head -1 "$TMP/dumped.policy" | grep -q '^#'; then ok "the policy text starts with a policy comment"
	else not_ok "the policy text starts with a policy comment" "$(head -1 "$TMP/dumped.policy")"; fi
	expect_status 0 "the dumped policy compiles" -- "$SYSCAGE" compile "$TMP/dumped.policy" -o "$TMP/re.bpf"
	# the stack holds the same filter twice, which means what it means once
	expect_status 0 "the recompiled policy is equivalent to the dumped filters" -- \
		"$SYSCAGE" diff "$TMP/re.bpf" "$TMP/pol.bpf"
else
	for check in "${policy_checks[@]}"; do skip_feature "$lack" "$check"; done
fi
kill "$polheld" "$held" 2>/dev/null
wait "$polheld" "$held" 2>/dev/null

# a filter that tests the same bits twice on one path: the condition reads once
fold_checks=("dump --format policy of a filter testing bits twice" "repeated conditions are folded"
	"the folded policy compiles" "the folded policy is equivalent to the filter"
	"dump --format policy and decompile print the same policy")
lack=$(missing_of x86_64 ptrace-get-filter no-inherited-filter)
if [ -z "$lack" ]; then
	twice_filter >"$TMP/twice.s"
	"$SYSCAGE" asm "$TMP/twice.s" -o "$TMP/twice.bpf" || not_ok "assemble the twice filter"
	"$HELPER" hold1 "$TMP/twice.bpf" "$TMP/held4" &
	twice=$!
	wait_for "$TMP/held4" || not_ok "helper installed the twice filter"
	expect_status 0 "dump --format policy of a filter testing bits twice" -- "$SYSCAGE" dump -f policy "$twice"
	cp "$TMP/out" "$TMP/twice.policy"
	if grep -q '0x30000000) != 0 && (arg0.lo & 0x30000000) != 0' "$TMP/twice.policy"; then
		not_ok "repeated conditions are folded" "$(grep clone "$TMP/twice.policy")"
	else
		expect_grep "$TMP/twice.policy" '^errno\(EACCES\) clone if \(arg0.lo & 0x30000000\) != 0 && ' \
			"repeated conditions are folded"
	fi
	expect_status 0 "the folded policy compiles" -- "$SYSCAGE" compile "$TMP/twice.policy" -o "$TMP/twice-re.bpf"
	expect_status 0 "the folded policy is equivalent to the filter" -- "$SYSCAGE" diff "$TMP/twice-re.bpf" "$TMP/twice.bpf"
	# one simplifier: decompile prints the same rules (the comment lines aside)
	"$SYSCAGE" decompile "$TMP/twice.bpf" 2>"$TMP/err" | grep -v '^#' >"$TMP/twice-dec.policy"
	if grep -v '^#' "$TMP/twice.policy" | diff - "$TMP/twice-dec.policy" >"$TMP/diff"; then
		ok "dump --format policy and decompile print the same policy"
	else
		not_ok "dump --format policy and decompile print the same policy" "$(head -c 600 "$TMP/diff")"
	fi
	kill "$twice" 2>/dev/null
	wait "$twice" 2>/dev/null
else
	for check in "${fold_checks[@]}"; do skip_feature "$lack" "$check"; done
fi

# --- threads ---------------------------------------------------------------
"$HELPER" thread-hold "$TMP/f.bpf" "$TMP/held5" &
thr=$!
wait_for "$TMP/held5" || not_ok "a thread of the helper installed a filter"
tid=$(ls "/proc/$thr/task" | grep -vx "$thr" | head -1)
expect_status 0 "status of a process whose other thread holds a filter" -- "$SYSCAGE" status "$thr"
expect_grep "$TMP/out" "^  thread $tid: seccomp filter, $((base + 1)) filter" "status names the filtered thread"
thread_checks=("dump PID when only another thread holds a filter" "dump names the thread that holds it"
	"dump shows that thread's filter" "dump TID" "dump TID says it is that thread alone"
	"dump of a process whose threads differ" "dump names each group of threads"
	"dump -f policy refuses threads that differ" "and says how to dump them"
	"dump -o DIR: a directory per thread" "each thread's files")
if have_feature ptrace-get-filter; then
	expect_status 0 "dump PID when only another thread holds a filter" -- "$SYSCAGE" dump "$thr"
	expect_grep "$TMP/out" "^; thread $tid of process $thr \(2 threads\) holds these filters" \
		"dump names the thread that holds it"
	expect_grep "$TMP/out" "j(eq|ne) #39, L3 +; getpid" "dump shows that thread's filter"
	expect_status 0 "dump TID" -- "$SYSCAGE" dump -f policy "$tid"
	expect_grep "$TMP/out" "thread $tid of process $thr alone" "dump TID says it is that thread alone"
	kill "$thr" 2>/dev/null
	wait "$thr" 2>/dev/null
	"$HELPER" thread-more "$TMP/f.bpf" "$TMP/held6" &
	thr=$!
	wait_for "$TMP/held6" || not_ok "the helper's threads installed their filters"
	tid=$(ls "/proc/$thr/task" | grep -vx "$thr" | head -1)
	expect_status 0 "dump of a process whose threads differ" -- "$SYSCAGE" dump "$thr"
	expect_grep "$TMP/out" "^; thread $tid of process $thr \(2 threads\) holds these filters" \
		"dump names each group of threads"
	expect_status 2 "dump -f policy refuses threads that differ" -- "$SYSCAGE" dump -f policy "$thr"
	expect_grep "$TMP/err" "^syscage: dump: .*syscage dump TID" "and says how to dump them"
	expect_status 0 "dump -o DIR: a directory per thread" -- "$SYSCAGE" dump -f raw -o "$TMP/thr.d" "$thr"
	if [ -e "$TMP/thr.d/thread-$thr/filter-$base.bpf" ] && [ -e "$TMP/thr.d/thread-$tid/filter-$((base + 1)).bpf" ]; then
		ok "each thread's files"
	else
		not_ok "each thread's files" "$(cd "$TMP/thr.d" && find . | tr '\n' ' ')"
	fi
else
	for check in "${thread_checks[@]}"; do skip_feature ptrace-get-filter "$check"; done
fi
kill "$thr" 2>/dev/null
wait "$thr" 2>/dev/null

# --- a supervisor's filter: notify explained --------------------------------
printf 'default allow\nerrno(EPERM) mkdir\n' >"$TMP/run.policy"
notify_checks=("dump of a program under syscage run" "dump says notify is answered by a supervisor"
	"dump names syscage run and its policy")
lack=$(missing_of ptrace-get-filter user-notif)
if [ -z "$lack" ]; then
	"$SYSCAGE" run -q -p "$TMP/run.policy" -- sleep 30 2>/dev/null &
	runner=$!
	prog=
	for _ in $(seq 300); do
		prog=$(cat "/proc/$runner/task/$runner/children" 2>/dev/null | tr ' ' '\n' | while read -r c; do
			[ "$(cat "/proc/$c/comm" 2>/dev/null)" = sleep ] && echo "$c"; done | head -1)
		[ -n "$prog" ] && [ "$(sed -n 's/^Seccomp:[[:space:]]*//p' "/proc/$prog/status")" = 2 ] && break
		sleep 0.1
	done
	expect_status 0 "dump of a program under syscage run" -- "$SYSCAGE" dump -f policy "$prog"
	expect_grep "$TMP/out" "^# This filter returns USER_NOTIF \(notify\)" "dump says notify is answered by a supervisor"
	expect_grep "$TMP/out" "^# process $runner is .syscage run.*|^# Its policy's own verdicts: syscage compile -f policy $TMP/run.policy" \
		"dump names syscage run and its policy"
	kill "$runner" 2>/dev/null
	wait "$runner" 2>/dev/null
else
	for check in "${notify_checks[@]}"; do skip_feature "$lack" "$check"; done
fi

# --- without privileges: the message says which one is missing ----------------
priv_checks=("dump of root's process as nobody" "names CAP_SYS_PTRACE" "dump of one's own process as nobody"
	"names CAP_SYS_ADMIN" "status under hidepid as nobody" "status names CAP_SYS_PTRACE")
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
mkdir -p "$TMP/nobody" && chmod 777 "$TMP/nobody" && chmod 755 "$TMP"
lack=$(missing_of ptrace-get-filter)
if [ -z "$lack" ] && ! { [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	$NOBODY test -x "$SYSCAGE" && $NOBODY test -x "$HELPER" && $NOBODY test -r "$TMP/f.bpf"; }; then
	lack=root-setpriv # giving up root needs root, and nobody must reach the build
fi
if [ -z "$lack" ]; then
	"$HELPER" hold1 "$TMP/f.bpf" "$TMP/held7" &
	rooted=$!
	wait_for "$TMP/held7" || not_ok "helper installed a filter as root"
	expect_status 2 "dump of root's process as nobody" -- $NOBODY "$SYSCAGE" dump "$rooted"
	expect_grep "$TMP/err" "^syscage: dump: process $rooted: .*CAP_SYS_PTRACE" "names CAP_SYS_PTRACE"
	kill "$rooted" 2>/dev/null
	wait "$rooted" 2>/dev/null
	expect_status 2 "dump of one's own process as nobody" -- $NOBODY sh -c \
		"\"\$0\" hold1 \"\$1\" \"\$2\" & while [ ! -e \"\$2\" ]; do sleep 0.1; done; \"\$3\" dump \$!; r=\$?; kill \$!; exit \$r" \
		"$HELPER" "$TMP/f.bpf" "$TMP/nobody/held" "$SYSCAGE"
	expect_grep "$TMP/err" "^syscage: dump: process [0-9]+: reading its filters needs CAP_SYS_ADMIN" "names CAP_SYS_ADMIN"
	if unshare -m --propagation private true 2>/dev/null; then
		expect_status 2 "status under hidepid as nobody" -- unshare -m --propagation private sh -c \
			"mount -t proc -o hidepid=1 proc /proc && exec $NOBODY \"\$0\" status 1" "$SYSCAGE"
		expect_grep "$TMP/err" "^syscage: status: .*CAP_SYS_PTRACE" "status names CAP_SYS_PTRACE"
	else
		skip_feature mount-namespace "status under hidepid as nobody"
		skip_feature mount-namespace "status names CAP_SYS_PTRACE"
	fi
else
	for check in "${priv_checks[@]}"; do skip_feature "$lack" "$check"; done
fi

# --- catching a program at its install ----------------------------------
expect_status 0 "dump -- CMD catches the filter" -- "$SYSCAGE" dump -- "$HELPER" seccomp "$TMP/f.bpf" "$TMP/m1"
expect_grep "$TMP/out" "j(eq|ne) #39, L3 +; getpid" "the caught filter is disassembled"
expect_grep "$TMP/err" "killed before the install" "dump says the program was killed"
if [ ! -e "$TMP/m1" ]; then ok "the program did not run past the install"; else
	not_ok "the program did not run past the install"; fi
expect_status 0 "dump -f raw -o DIR -- CMD (prctl)" -- "$SYSCAGE" dump -f raw -o "$TMP/cap.d" -- "$HELPER" prctl "$TMP/f.bpf" "$TMP/m2"
expect_same "$TMP/cap.d/filter-0.bpf" "$TMP/f.bpf" "caught bytes equal the installed filter"
expect_status 0 "a filter installed by a forked child is caught" -- "$SYSCAGE" dump -f raw -- "$HELPER" fork "$TMP/f.bpf" "$TMP/m3"
expect_same "$TMP/out" "$TMP/f.bpf" "one caught filter goes raw to standard output"
if [ ! -e "$TMP/m2" ] && [ ! -e "$TMP/m3" ]; then ok "no install went through"; else
	not_ok "no install went through"; fi
# the tracing filter is hidden from prctl(PR_GET_SECCOMP): a program that sandboxes itself
# only when it is not filtered yet (man-db) still installs
lack=$(missing_of x86_64 no-inherited-filter)
if [ -z "$lack" ]; then
	expect_status 0 "dump -- CMD that installs only when unfiltered" -- \
		"$SYSCAGE" dump -f raw -- "$HELPER" unfiltered-only "$TMP/f.bpf" "$TMP/m5"
	expect_same "$TMP/out" "$TMP/f.bpf" "its filter is caught"
else
	skip_feature "$lack" "dump -- CMD that installs only when unfiltered"
	skip_feature "$lack" "its filter is caught"
fi
expect_status 1 "dump -- CMD that installs nothing" -- "$SYSCAGE" dump -- "$HELPER" none "$TMP/f.bpf" "$TMP/m4"
expect_grep "$TMP/err" "exited with status 3 without installing a filter" "says the program exited"
expect_status 2 "dump -- a command that does not exist" -- "$SYSCAGE" dump -- "$TMP/no-such-program"
expect_grep "$TMP/err" "no-such-program" "names the missing command"

expect_status 2 "dump -- CMD that outlives --timeout" -- "$SYSCAGE" dump --timeout 1 -- sleep 30
expect_grep "$TMP/err" "neither installed a filter nor exited in time" "says it timed out"

# --- usage errors ------------------------------------------------------
expect_status 2 "dump without a target" -- "$SYSCAGE" dump
expect_status 2 "dump of something that is not a PID" -- "$SYSCAGE" dump ls
expect_grep "$TMP/err" "dump -- ls" "suggests -- for commands"
expect_status 2 "dump of a missing PID" -- "$SYSCAGE" dump "$gone"
expect_status 2 "dump with an unknown format" -- "$SYSCAGE" dump -f dot 1
expect_status 0 "dump --help" -- "$SYSCAGE" dump --help
expect_status 0 "status --help" -- "$SYSCAGE" status --help
