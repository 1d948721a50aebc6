#!/usr/bin/env bash
# syscage run --complain: the program runs unchanged; each call the policy
# would deny is reported as run reports denials (decoded, with its rule) and
# logged with --log, through the supervisor answering CONTINUE; with
# --no-report, or without user notification, the kernel logs them
# (SECCOMP_RET_LOG) instead.
. "$(dirname "$0")/../cli_lib.bash"
S=$SYSCAGE
T="timeout -k 5 60"

printf 'default allow\nerrno(EACCES) mkdir, mkdirat\nkill-process rmdir\n' >"$TMP/deny.policy"
D=$TMP/made

# the policy denies: without --complain mkdir fails and rmdir kills
if have_feature user-notif; then
	rm -rf "$D"
	expect_status 1 "without --complain the policy denies mkdir" -- $T "$S" run -p "$TMP/deny.policy" -- \
		mkdir "$D"

	rm -rf "$D"
	expect_status 0 "--complain: the program runs unchanged" -- $T "$S" run --complain \
		-p "$TMP/deny.policy" --log "$TMP/c.log" -- sh -c "mkdir '$D' && rmdir '$D' && echo done"
	expect_grep "$TMP/out" '^done$' "--complain: mkdir and rmdir both ran"
	if [ ! -e "$D" ]; then ok "--complain: the directory was made and removed"; else
		not_ok "--complain: the directory was made and removed" "$D is still there"
	fi
	expect_grep "$TMP/err" "^syscage: would deny mkdir\(\"$D\", 0777\) from pid [0-9]+: ERRNO\(EACCES\) by rule $TMP/deny.policy:2" \
		"--complain: mkdir reported decoded, with its verdict and rule"
	expect_grep "$TMP/err" "^syscage: would deny rmdir\(\"$D\"\) from pid [0-9]+: KILL_PROCESS by rule $TMP/deny.policy:3" \
		"--complain: the KILL verdict reported, not carried out"
	expect_grep "$TMP/err" '^syscage: syscalls the policy would deny \(run unchanged\):$' "--complain: the summary says so"
	expect_grep "$TMP/err" '^ +1  rmdir +KILL_PROCESS$' "--complain: the summary counts rmdir"
	if [ "$(wc -l <"$TMP/c.log")" -eq 2 ]; then ok "--complain --log: one JSON line per call"; else
		not_ok "--complain --log: one JSON line per call" "$(cat "$TMP/c.log")"
	fi
	expect_grep "$TMP/c.log" "^\{\"pid\":[0-9]+,\"syscall\":\"rmdir\",\"nr\":[0-9]+,\"call\":\"rmdir\(\\\\\"$D\\\\\"\)\",\"read_after_call\":true,\"verdict\":\"KILL_PROCESS\",\"by\":\"rule $TMP/deny.policy:3\",\"complain\":true\}$" \
		"--complain --log: the JSON line says complain"
	"$S" run -q -p "$TMP/deny.policy" --log "$TMP/plain.log" -- mkdir "$D" >/dev/null 2>&1
	if grep -q '"complain"' "$TMP/plain.log"; then not_ok "plain run: no complain in the log"; else
		ok "plain run: no complain in the log"; fi

	# -q: nothing on stderr, the log all the same
	rm -rf "$D"
	expect_status 0 "--complain -q" -- $T "$S" run --complain -q -p "$TMP/deny.policy" \
		--log "$TMP/q.log" -- mkdir "$D"
	if [ ! -s "$TMP/err" ] && [ "$(wc -l <"$TMP/q.log")" -eq 1 ]; then ok "--complain -q: silent, logged"; else
		not_ok "--complain -q: silent, logged" "stderr: $(cat "$TMP/err")" "log: $(cat "$TMP/q.log")"
	fi

	# the built-in profile (prebuilt filter) complains the same way
	expect_status 0 "--complain under the built-in default profile" -- $T "$S" run --complain -- \
		sh -c 'unshare -U true 2>/dev/null; echo ran'
	expect_grep "$TMP/err" '^syscage: would deny unshare\(CLONE_NEWUSER\) from pid [0-9]+: .* by rule <default>:[0-9]+$' \
		"--complain: default profile's rule named"

	# The guard still stands: the program cannot kill the supervisor or the watchdog.
	A=$(helper supervisor_attack)
	printf 'default allow\nkill-process unshare\n' >"$TMP/unshare.policy"
	rm -f "$TMP/r.attack"
	expect_status 0 "--complain: a program that kills syscage and its watchdog" -- $T setsid "$S" run \
		--complain -p "$TMP/unshare.policy" -- "$A" pdeathsig "$TMP/r.attack"
	if grep -qx 'kill syscage-watch EPERM' "$TMP/r.attack" && grep -qx 'kill syscage EPERM' "$TMP/r.attack" &&
		grep -q '^unshare 0 ' "$TMP/r.attack"; then
		ok "--complain: the guard refuses the kills, unshare runs"; else
		not_ok "--complain: the guard refuses the kills, unshare runs" "$(cat "$TMP/r.attack" 2>/dev/null)"
	fi
else
	for c in "without --complain the policy denies mkdir" "--complain: the program runs unchanged" \
		"--complain reports"; do
		skip_feature user-notif "$c"
	done
fi

# --no-report --complain: the kernel runs and logs the calls (SECCOMP_RET_LOG)
if have_feature log; then
	rm -rf "$D"
	expect_status 0 "--complain --no-report: the program runs unchanged" -- $T "$S" run --complain \
		--no-report -p "$TMP/deny.policy" -- sh -c "echo \$\$; exec mkdir '$D'"
	if [ -d "$D" ]; then ok "--complain --no-report: mkdir ran"; else not_ok "--complain --no-report: mkdir ran"; fi
	if grep -q 'would deny' "$TMP/err"; then
		not_ok "--complain --no-report: syscage itself reports nothing" "$(cat "$TMP/err")"; else
		ok "--complain --no-report: syscage itself reports nothing"
	fi
	pid=$(head -n 1 "$TMP/out")
	if dmesg >/dev/null 2>&1; then
		# The record may take a moment to reach the ring buffer, and the kernel drops
		# audit lines past its printk rate limit ("callbacks suppressed") while other
		# tests fill it: up to three runs, some seconds apart, one of them recorded.
		for attempt in 1 2 3; do
			for _ in $(seq 10); do
				dmesg | grep -q "type=1326 .* pid=$pid .*code=0x7ffc0000" && break 2
				sleep 0.2
			done
			[ $attempt = 3 ] && break
			sleep 3
			rm -rf "$D"
			$T "$S" run --complain --no-report -p "$TMP/deny.policy" -- \
				sh -c "echo \$\$; exec mkdir '$D'" >"$TMP/out" 2>/dev/null
			pid=$(head -n 1 "$TMP/out")
		done
		expect_grep <(dmesg) "type=1326 .* pid=$pid .*code=0x7ffc0000" \
			"--complain --no-report: the kernel logged the call (SECCOMP_RET_LOG)"
	else
		skip_feature dmesg "--complain --no-report: the kernel logged the call (SECCOMP_RET_LOG)"
	fi
	rm -rf "$D"
	SYSCAGE_DISABLE_FEATURES=user-notif expect_status 0 \
		"--complain without user notification: the kernel's log instead" -- $T "$S" run --complain \
		-p "$TMP/deny.policy" -- mkdir "$D"
	expect_grep "$TMP/err" 'no SECCOMP_RET_USER_NOTIF .* the kernel logs the calls the policy would deny' \
		"--complain without user notification: says so"
	if [ -d "$D" ]; then ok "--complain without user notification: mkdir ran"; else
		not_ok "--complain without user notification: mkdir ran"; fi
else
	skip_feature log "--complain --no-report: the kernel logs the calls"
fi

expect_status 0 "run --help names --complain" -- "$S" run --help
expect_grep "$TMP/out" '--complain' "run --help: --complain"

