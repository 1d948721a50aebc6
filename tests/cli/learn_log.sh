#!/usr/bin/env bash
# syscage learn --from-log: policies from the kernel's seccomp audit records in every
# form they are found in (audit.log, ausearch -i, /dev/kmsg, dmesg, journalctl -k),
# --exe and --comm, --merge, the errors; and live: a program under a filter that
# logs some calls, its records read back from the kernel's log, learned, and the
# policy allowing exactly those calls.  Also --ebpf's usage errors.
. "$(dirname "$0")/../cli_lib.bash"
S=$SYSCAGE
# `syscage run` installs filters: under the valgrind suite it runs without valgrind
R=${SYSCAGE_REAL:-$SYSCAGE}
T="timeout -k 5 60"

expect_status 0 "learn --from-log --help" -- "$S" learn --from-log - --help
expect_grep "$TMP/out" 'usage: syscage learn --from-log' "help names --from-log"
expect_grep "$TMP/out" '^ +--comm NAME' "help names --comm"
expect_status 0 "learn --help points to --from-log" -- "$S" learn --help
expect_grep "$TMP/out" 'syscage learn --from-log FILE' "learn --help names --from-log"

# One record in each form, all of the program /usr/bin/prog, and lines that are not records.
GS=$(printf '\035')
cat >"$TMP/mixed.log" <<EOF
type=SYSCALL msg=audit(1796461154.990:470): arch=c000003e syscall=59 success=yes exit=0
type=SECCOMP msg=audit(1796461154.992:471): auid=4294967295 uid=0 gid=0 ses=4294967295 subj=unconfined pid=100 comm="prog" exe="/usr/bin/prog" sig=0 arch=c000003e syscall=110 compat=0 ip=0x7f0000001000 code=0x7ffc0000${GS}AUID="unset" UID="root" ARCH=x86_64 SYSCALL=getppid
type=1326 audit(1796461154.993:472): auid=4294967295 uid=0 gid=0 ses=4294967295 pid=100 comm="prog" exe="/usr/bin/prog" sig=0 arch=c000003e syscall=110 compat=0 ip=0x7f0000001000 code=0x7ffc0000
----
time->Sat Dec  5 08:59:09 2026
type=SECCOMP msg=audit(12/05/2026 08:59:09.994:473) : auid=unset uid=root gid=root ses=unset pid=100 comm=prog exe=/usr/bin/prog sig=0 arch=x86_64 syscall=uname compat=0 ip=0x7f0000001000 code=log
6,474,3142136907,-;audit: type=1326 audit(1796461154.995:474): auid=4294967295 uid=0 gid=0 ses=4294967295 pid=100 comm="prog" exe="/usr/bin/prog" sig=0 arch=40000003 syscall=20 compat=1 ip=0xf7f00000 code=0x7ffc0000
[ 3142.136907] audit: type=1326 audit(1796461154.996:475): auid=4294967295 uid=0 gid=0 ses=4294967295 pid=100 comm="prog" exe="/usr/bin/prog" sig=31 arch=c000003e syscall=1073741863 compat=0 ip=0x7f0000001000 code=0x0
Dec 05 08:59:09 host kernel: audit: type=1326 audit(1796461154.997:476): auid=4294967295 uid=0 gid=0 ses=4294967295 pid=101 comm="other" exe="/usr/bin/other" sig=0 arch=c000003e syscall=102 compat=0 ip=0x7f0000001000 code=0x7ffc0000
Dec 05 08:59:09 host kernel: kauditd_printk_skb: 3 callbacks suppressed
EOF
expect_status 0 "learn from every form" -- "$S" learn --from-log "$TMP/mixed.log" --exe /usr/bin/prog -o "$TMP/m.policy"
expect_grep "$TMP/m.policy" '^allow getppid on x86_64 +# 2 calls$' "audit.log (raw and enriched): x86_64 getppid twice"
expect_grep "$TMP/m.policy" '^allow uname on x86_64 +# 1 call$' "ausearch -i: names read as names"
expect_grep "$TMP/m.policy" '^allow getpid on x86 +# 1 call$' "/dev/kmsg: arch=40000003 is x86"
expect_grep "$TMP/m.policy" '^allow getpid on x32 +# 1 call$' "dmesg: bit 30 is x32"
if grep -q getuid "$TMP/m.policy"; then not_ok "--exe leaves other programs out"; else
	ok "--exe leaves other programs out"; fi
expect_grep "$TMP/err" '3 suppressed by printk' "warns about suppressed records"
expect_status 0 "--comm" -- "$S" learn --from-log "$TMP/mixed.log" --comm other
expect_grep "$TMP/out" '^allow getuid +# 1 call$' "--comm other: getuid only"
if [ "$(grep -c '^allow' "$TMP/out")" = 1 ]; then ok "--comm keeps one program"; else
	not_ok "--comm keeps one program" "$(cat "$TMP/out")"; fi
expect_status 0 "--from-log - reads stdin" -- sh -c "'$S' learn -L - --counts '$TMP/c.json' -o '$TMP/s.policy' < '$TMP/mixed.log'"
expect_grep "$TMP/c.json" '"getuid": 1' "--counts from a log"
expect_grep "$TMP/s.policy" 'seccomp audit records in standard input' "origin comment names the log"

# --merge widens a policy learned by the notification learner or from a log
printf '%s\n' "arch x86_64" "default kill" "allow read    # 5 calls" >"$TMP/base.policy"
expect_status 0 "--merge" -- "$S" learn --from-log "$TMP/mixed.log" --comm other --merge "$TMP/base.policy" -o "$TMP/mm.policy"
expect_grep "$TMP/mm.policy" '^allow read +# 5 calls$' "--merge keeps the old rules"
expect_grep "$TMP/mm.policy" '^allow getuid +# 1 call$' "--merge adds the log's"
expect_status 0 "--format oci" -- "$S" learn --from-log "$TMP/mixed.log" --comm other --format oci
expect_grep "$TMP/out" '"getuid"' "OCI JSON from a log"

# errors: malformed records at file:line:column, nothing written; other lines never matter
printf '%s\n' "not a record" "type=SECCOMP msg=audit(1.2:3): pid=1 syscall=39" \
	"audit: type=1326 audit(1.2:4): arch=c000003e syscall=getppidd" \
	"type=1326 audit(1.2:5): comm=\"unterminated arch=c000003e syscall=1" >"$TMP/bad.log"
expect_status 2 "malformed records: usage error" -- "$S" learn --from-log "$TMP/bad.log" -o "$TMP/bad.policy"
expect_grep "$TMP/err" "bad.log:2:1: error: a seccomp record without arch=" "no arch: line and column"
expect_grep "$TMP/err" "bad.log:3:.*syscall=getppidd is neither" "unknown name: line"
expect_grep "$TMP/err" "did you mean 'getppid'" "unknown name: a hint"
expect_grep "$TMP/err" "bad.log:4:.*no closing quote" "unterminated quote: line"
if [ -e "$TMP/bad.policy" ]; then not_ok "nothing written for a malformed log"; else
	ok "nothing written for a malformed log"; fi
printf 'nothing here\n' >"$TMP/none.log"
expect_status 1 "no records: exit 1" -- "$S" learn --from-log "$TMP/none.log"
expect_grep "$TMP/err" 'no seccomp records' "no records: says so"
expect_status 2 "missing log file" -- "$S" learn --from-log "$TMP/no-such.log"
expect_status 2 "--args with --from-log" -- "$S" learn --from-log "$TMP/mixed.log" --args
expect_grep "$TMP/err" 'carry no argument values' "--args: why not"
expect_status 2 "a program with --from-log" -- "$S" learn --from-log "$TMP/mixed.log" -- true
expect_status 2 "--exe without --from-log" -- "$S" learn --ebpf --exe /bin/true -- true
expect_status 2 "--ebpf without what to record" -- "$S" learn --ebpf
expect_grep "$TMP/err" 'one of --cgroup PATH, --pid PID or -- CMD' "--ebpf: what it records"

# Live: a program under a filter that logs some calls; its records read back from the
# kernel's log.  Without auditd the kernel prints them (printk, rate-limited).
live() {
	if ! have_feature log; then skip_feature log "$1"; return 1; fi
	if ! grep -qw log /proc/sys/kernel/seccomp/actions_logged 2>/dev/null; then
		skip_feature seccomp-actions-logged "$1 (log is not in actions_logged)"; return 1; fi
	if ! dmesg >/dev/null 2>&1; then skip_feature kmsg "$1 (the kernel log is unreadable)"; return 1; fi
	if pgrep -x auditd >/dev/null 2>&1; then
		skip_feature no-auditd "$1 (auditd takes the records from the kernel log)"; return 1; fi
	return 0
}
W=$(helper learn_workload)
# A copy under a name no other run has: its records are told apart by exe=.
P="$TMP/lw-$$-$RANDOM"
cp "$W" "$P"
cat >"$TMP/log.policy" <<'EOF'
arch x86_64, x86, x32
default allow
log getppid, uname on x86_64
log getpid on x86, x32
EOF
want="getppid on x86_64 2
uname on x86_64 1"
run_logged() {
	$T "$R" run -p "$TMP/log.policy" -- "$P" getppid 1 1 2 &&
		$T "$R" run -p "$TMP/log.policy" -- "$P" uname || return 1
	if have_feature i386-emulation; then $T "$R" run -p "$TMP/log.policy" -- "$P" int80 1 || return 1; fi
	$T "$R" run -p "$TMP/log.policy" -- "$P" x32 1 >/dev/null 2>&1
	return 0
}
have_feature i386-emulation && want="$want
getpid on x86 1"
want="$want
getpid on x32 1"
learned() { sed -nE 's/^allow ([a-z0-9_]+) on ([a-z0-9_]+) +# ([0-9]+) calls?$/\1 on \2 \3/p' "$1" | sort; }
if live "live: learn --from-log from the kernel's log"; then
	got=
	for attempt in 1 2 3; do
		# printk's rate limit (10 records per 5 s) is shared with every other test
		# that logs; a second try after it has passed.
		[ "$attempt" = 1 ] || sleep 6
		if ! run_logged >"$TMP/run.out" 2>&1; then
			not_ok "live: the logging runs" "$(head -c 400 "$TMP/run.out")"; break; fi
		sleep 0.2
		dmesg >"$TMP/kmsg.log" 2>/dev/null
		"$S" learn --from-log "$TMP/kmsg.log" --exe "$P" -o "$TMP/live.policy" 2>"$TMP/live.err"
		rc=$?
		got=$(learned "$TMP/live.policy" 2>/dev/null)
		[ "$rc" = 0 ] && [ "$got" = "$(printf '%s\n' "$want" | sort)" ] && break
		rm -f "$P"; P="$TMP/lw-$$-$RANDOM-$attempt"; cp "$W" "$P"
		got=
	done
	if [ -n "$got" ]; then
		ok "live: the learned policy allows exactly the logged calls"
		# only the logged calls: the policy allows them and kills the rest
		expect_emu "live: getppid allowed" "ALLOW" -- -f "$TMP/live.policy" getppid
		expect_emu "live: getpid on x32 allowed" "ALLOW" -- -f "$TMP/live.policy" -a x32 getpid
		expect_emu "live: getpid on x86_64 killed" "KILL_PROCESS" -- -f "$TMP/live.policy" getpid
		expect_emu "live: brk killed" "KILL_PROCESS" -- -f "$TMP/live.policy" brk
	elif grep -q 'suppressed\|lost' "$TMP/live.err" 2>/dev/null || [ ! -s "$TMP/live.policy" ]; then
		skip_feature kmsg-audit-records "live: the kernel printed no or rate-limited records ($(head -c 200 "$TMP/live.err"))"
	else
		not_ok "live: the learned policy allows exactly the logged calls" \
			"want: $(printf '%s' "$want" | tr '\n' ';')" "got: $(learned "$TMP/live.policy" | tr '\n' ';')"
	fi
fi
echo "1..$n"
