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
         "user-notif", "i386-emulation", "x32", "ptrace-get-filter"]
assert sorted(k["features"]) == sorted(names), k["features"]
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
