#!/usr/bin/env bash
# syscage run's denial reports: arguments decoded as strace decodes them and as a
# policy reads them back, repeats collapsed on the terminal but all in the log, and
# the built-in profile's rule a report names, shown by `compile --show-profile`.
. "$(dirname "$0")/../cli_lib.bash"
S=$SYSCAGE
T="timeout -k 5 60"

LOOP=$(helper syscall_loop)

# The default profile denies unshare: the flags print as names, not 268435456
if command -v unshare >/dev/null; then
	$T "$S" run -- unshare -U true >"$TMP/out" 2>"$TMP/err"
	with_feature user-notif expect_grep "$TMP/err" \
		'denied unshare\(CLONE_NEWUSER\) from pid [0-9]+: ERRNO\(EPERM\) by rule <default>:[0-9]+$' \
		"unshare's flags decoded"
	$T "$S" run -- unshare -m -U true >"$TMP/out" 2>"$TMP/err"
	with_feature user-notif expect_grep "$TMP/err" 'denied unshare\(CLONE_NEWNS\|CLONE_NEWUSER\)' \
		"several flags joined with |"
else
	ok "unshare's flags decoded # SKIP unshare (util-linux) not installed"
fi

# Values a policy denies print as the constants that policy would name; each one reads
# back: the decoded call's arguments make the same rule match again.
printf 'default allow\nerrno(EPERM) socket if domain == AF_INET6\nerrno(EPERM) ioctl if fd == 99\n' \
	>"$TMP/net.policy"
if command -v python3 >/dev/null; then
	cat >"$TMP/calls.py" <<'PY'
import ctypes, socket
libc = ctypes.CDLL(None, use_errno=True)
try:
    socket.socket(socket.AF_INET6, socket.SOCK_STREAM | socket.SOCK_CLOEXEC, socket.IPPROTO_TCP)
except OSError:
    pass
libc.ioctl(99, 0x5401, 0)
PY
	$T "$S" run -p "$TMP/net.policy" -- python3 "$TMP/calls.py" >"$TMP/out" 2>"$TMP/err"
	with_feature user-notif expect_grep "$TMP/err" \
		'denied socket\(AF_INET6, SOCK_STREAM\|SOCK_CLOEXEC, IPPROTO_TCP\)' "socket decoded"
	with_feature user-notif expect_grep "$TMP/err" 'denied ioctl\(99, TCGETS, (0|NULL)\)' \
		"ioctl request decoded"
	# the decoded values, given back to the policy language, are the values denied
	if have_feature user-notif; then
		call=$(grep -oE 'socket\([^)]*\)' "$TMP/err" | head -n 1)
		args=${call#socket(}
		args=${args%)}
		IFS=, read -r dom typ proto <<<"$args"
		printf 'default allow\nerrno(EPERM) socket if domain == %s && type == %s && protocol == %s\n' \
			"$dom" "$typ" "$proto" >"$TMP/back.policy"
		$T "$S" run -p "$TMP/back.policy" -- python3 "$TMP/calls.py" >"$TMP/out" 2>"$TMP/err2"
		expect_grep "$TMP/err2" 'denied socket\(AF_INET6' "the printed values read back as a rule"
	else
		skip_feature user-notif "the printed values read back as a rule"
	fi
else
	ok "socket decoded # SKIP python3 not installed"
fi

# A pointer parameter named mode is a pointer: hexadecimal, never octal, never cut to 32 bits
printf 'default allow\nerrno(EPERM) get_mempolicy\n' >"$TMP/mempolicy.policy"
if command -v python3 >/dev/null; then
	$T "$S" run -p "$TMP/mempolicy.policy" -- python3 -c '
import ctypes
libc = ctypes.CDLL(None)
libc.syscall.restype = ctypes.c_long
libc.syscall(ctypes.c_long(239), ctypes.c_long(0x7ffd12345678), ctypes.c_long(0), ctypes.c_long(0), ctypes.c_long(0), ctypes.c_long(0))
' >"$TMP/out" 2>"$TMP/err"
	with_feature user-notif expect_grep "$TMP/err" 'denied get_mempolicy\(0x7ffd12345678, NULL, 0, NULL, 0\)' \
		"a pointer named mode prints whole, in hexadecimal"
fi

# A loop of one denied call: one line and a count on the terminal, every call in the log
printf 'default allow\nerrno(EPERM) getppid\n' >"$TMP/loop.policy"
expect_status 0 "a program denied 300 times" -- $T "$S" run -p "$TMP/loop.policy" --log "$TMP/loop.json" -- "$LOOP" -r 1 300
if have_feature user-notif; then
	lines=$(grep -c 'denied getppid()' "$TMP/err")
	if [ "$lines" -eq 1 ]; then ok "repeats collapse to one line"; else
		not_ok "repeats collapse to one line" "$lines lines"; fi
	# the helper makes a few calls of its own before the 300
	logged=$(grep -c '"syscall":"getppid"' "$TMP/loop.json")
	if [ "$logged" -ge 300 ]; then ok "--log keeps every denial"; else
		not_ok "--log keeps every denial" "$logged lines"; fi
	expect_grep "$TMP/err" "^syscage: \.\.\. $((logged - 1)) more like this\$" "the count of the rest"
	expect_grep "$TMP/err" "^ +$logged  getppid +ERRNO\(EPERM\)\$" "the summary counts them all"
else
	skip_feature user-notif "repeats collapse to one line"
fi

# A different line ends the run of repeats: the count comes before it
printf 'default allow\nerrno(EPERM) getppid, mkdir, mkdirat\n' >"$TMP/two.policy"
$T "$S" run -p "$TMP/two.policy" -- sh -c "\"$LOOP\" -r 1 5; mkdir \"$TMP/x\"" >"$TMP/out" 2>"$TMP/err"
if have_feature user-notif; then
	# (the shell asks for its parent too, from another pid: a line of its own)
	order=$(grep -oE 'denied (getppid|mkdir)|[0-9]+ more like this' "$TMP/err" | tr '\n' ,)
	case $order in
	*'denied getppid,'[0-9]*' more like this,denied mkdir,') ok "the count comes when another line does" ;;
	*) not_ok "the count comes when another line does" "$order" ;;
	esac
else
	skip_feature user-notif "the count comes when another line does"
fi

# Each line syscage writes to stderr, and each record of the log, is one write(2): byte by
# byte, a program sharing stderr landed its output inside report lines, and 100,000
# warnings took 13 million calls.
if command -v strace >/dev/null; then
	printf 'allow read\nallow read\nallow open\nallow getpid\nallow getpid\n' >"$TMP/warn.policy"
	strace -o "$TMP/strace" -e trace=write "$S" compile --arch x86_64,aarch64 -o "$TMP/w.bpf" \
		"$TMP/warn.policy" 2>"$TMP/err"
	lines=$(wc -l <"$TMP/err")
	writes=$(grep -c '^write(2,' "$TMP/strace")
	if [ "$lines" -ge 4 ] && [ "$writes" -eq "$lines" ]; then ok "one write per warning line"; else
		not_ok "one write per warning line" "$writes writes for $lines lines"; fi
	if have_feature user-notif; then
		# strace without -f: syscage's writes only, not the program's
		strace -o "$TMP/strace" -y -e trace=write "$S" run -p "$TMP/two.policy" --log "$TMP/two.json" \
			-- sh -c "\"$LOOP\" -r 1 1; mkdir \"$TMP/x\" 2>/dev/null" >"$TMP/out" 2>"$TMP/err"
		lines=$(wc -l <"$TMP/err")
		writes=$(grep -c '^write(2<' "$TMP/strace")
		if grep -q '^syscage: denied mkdir' "$TMP/err" && [ "$writes" -eq "$lines" ]; then
			ok "one write per report line"; else
			not_ok "one write per report line" "$writes writes for $lines lines"; fi
		lines=$(wc -l <"$TMP/two.json")
		writes=$(grep -c "^write([0-9]*<$TMP/two.json>" "$TMP/strace")
		if [ "$lines" -ge 2 ] && [ "$writes" -eq "$lines" ]; then ok "one write per log record"; else
			not_ok "one write per log record" "$writes writes for $lines records"; fi
	else
		skip_feature user-notif "one write per report line"
		skip_feature user-notif "one write per log record"
	fi
else
	ok "one write per warning line # SKIP strace not installed"
fi

# 100,000 names a target ABI lacks: 200,000 warning lines, all written (in 0.5 s of CPU
# time here; 42 s, most of it in write(2), when every byte was a call)
awk 'BEGIN { for (i = 0; i < 50000; i++) print "allow open\nallow stat" }' >"$TMP/absent.policy"
expect_status 0 "100,000 rules, each warned about" -- \
	"$S" compile --arch x86_64,aarch64 -o "$TMP/absent.bpf" "$TMP/absent.policy"
warned=$(grep -c "does not exist on aarch64" "$TMP/err")
if [ "$warned" -eq 100000 ]; then ok "every warning written"; else
	not_ok "every warning written" "$warned warnings"; fi

# The log is the user's: created 0600, whatever the umask, so another user (here one of
# the same group, under umask 002) cannot add forged records to it.
printf 'default allow\nerrno(EPERM) getppid\n' >"$TMP/log.policy"
rm -f "$TMP/mode.json"
(umask 002 && $T "$S" run -p "$TMP/log.policy" --log "$TMP/mode.json" -- "$LOOP" -r 1 1) \
	>"$TMP/out" 2>"$TMP/err"
mode=$(stat -c %a "$TMP/mode.json" 2>/dev/null)
if [ "$mode" = 600 ]; then ok "--log creates its file 0600"; else
	not_ok "--log creates its file 0600" "mode $mode"; fi
forge='echo "{\"pid\":1,\"syscall\":\"forged\"}" >>"$0"'
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$TMP"
	rm -f "$TMP/forged.json"
	(umask 002 && $T "$S" run -p "$TMP/log.policy" --log "$TMP/forged.json" -- \
		setpriv --reuid=65534 --regid="$(id -g)" --clear-groups sh -c "$forge" "$TMP/forged.json") \
		>"$TMP/out" 2>"$TMP/err"
	if ! grep -q forged "$TMP/forged.json"; then ok "a program of another uid cannot forge a log record"; else
		not_ok "a program of another uid cannot forge a log record" "$(cat "$TMP/forged.json")"; fi
else
	ok "a program of another uid cannot forge a log record # SKIP needs root and setpriv"
fi

# --log-fd: the log on a descriptor the caller opened; the program never gets it, so even
# a program of the same uid cannot write to it.
if have_feature user-notif; then
	$T "$S" run -p "$TMP/log.policy" --log-fd 3 -- sh -c "\"$LOOP\" -r 1 1; $forge" /dev/fd/3 \
		3>"$TMP/fd.json" >"$TMP/out" 2>"$TMP/err"
	expect_grep "$TMP/fd.json" '^\{"pid":[0-9]+,"syscall":"getppid",' "--log-fd writes the log"
	if ! grep -q forged "$TMP/fd.json"; then ok "the program does not inherit --log-fd's descriptor"; else
		not_ok "the program does not inherit --log-fd's descriptor" "$(cat "$TMP/fd.json")"; fi
else
	skip_feature user-notif "--log-fd writes the log"
	skip_feature user-notif "the program does not inherit --log-fd's descriptor"
fi
expect_status 2 "--log-fd of a closed descriptor" -- "$S" run --log-fd 9 -- true
expect_grep "$TMP/err" '^syscage: run: --log-fd 9: no such open file descriptor' "the error says so"
expect_status 2 "--log-fd open for reading only" -- sh -c "exec \"$S\" run --log-fd 9 -- true 9</dev/null"
expect_grep "$TMP/err" '^syscage: run: --log-fd 9: the descriptor is open for reading only' "the error says so"
expect_status 2 "--log-fd of a word" -- "$S" run --log-fd x -- true
expect_grep "$TMP/err" "^syscage: run: --log-fd takes a file descriptor number, not 'x'" "the error says so"
expect_status 2 "--log and --log-fd together" -- "$S" run --log "$TMP/a" --log-fd 1 -- true

# The rule a report names (<default>:LINE) can be looked up
expect_status 0 "compile --show-profile default" -- "$S" compile --show-profile default
if have_feature user-notif && command -v unshare >/dev/null; then
	$T "$S" run -- unshare -U true >/dev/null 2>"$TMP/err"
	line=$(grep -oE 'by rule <default>:[0-9]+' "$TMP/err" | head -n 1 | cut -d: -f2)
	"$S" compile --show-profile default >"$TMP/src"
	expect_grep "$TMP/src" "^ *$line  .*unshare" "line $line of the shown profile is the unshare rule"
	expect_grep "$TMP/err" "compile --show-profile default" "the report says how to see the rule"
fi
expect_status 2 "--show-profile of an unknown profile" -- "$S" compile --show-profile defualt
expect_grep "$TMP/err" '^  docker-default$' "the error lists the built-in profiles"

echo "1..$n"
