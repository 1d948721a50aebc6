#!/usr/bin/env bash
# Messages that say what is wrong, once: lint of a filter the kernel would refuse, a
# mistyped command, fuse --pid without the right to read the filters, inject's summary
# telling delays from faults, emu's refusal with its hint on a line of its own.
. "$(dirname "$0")/../cli_lib.bash"
REAL=${SYSCAGE_REAL:-$SYSCAGE}

# lint of binary data the kernel would not load: what is wrong, not a bare errno text
head -c 64 /dev/zero >"$TMP/zero.bin"
expect_status 2 "lint zero.bin: refused" -- "$SYSCAGE" lint "$TMP/zero.bin"
expect_grep "$TMP/err" "zero\.bin: insn 7: error: .*would not load \(last-not-ret\)" "lint zero.bin: the reason, with the file"
expect_grep "$TMP/err" "^syscage: lint: .*zero\.bin is no filter the kernel would load, so nothing was checked$" \
	"lint zero.bin: says nothing was checked"
if grep -q "Invalid argument" "$TMP/err"; then not_ok "lint zero.bin: no bare errno text" "$(cat "$TMP/err")"
else ok "lint zero.bin: no bare errno text"; fi

# emu's refusal: the hint on a line of its own, no escaped newline
printf '\x15\x00\x00\x01\x00\x00\x00\x00\x06\x00\x00\x00\x00\x00\xff\x7f\x20\x00\x00\x00\x00\x00\x00\x00' >"$TMP/random.bin"
for f in zero.bin random.bin; do
	expect_status 2 "emu -f $f: refused" -- "$SYSCAGE" emu -f "$TMP/$f" read
	expect_grep "$TMP/err" "the kernel would refuse this filter" "emu -f $f: why"
	if grep -qF '\x0a' "$TMP/err"; then not_ok "emu -f $f: no literal \\x0a" "$(cat "$TMP/err")"
	else ok "emu -f $f: no literal \\x0a"; fi
	expect_grep "$TMP/err" "^    hint: " "emu -f $f: the hint on its own line"
done

# a mistyped command
expect_status 2 "syscage compil: refused" -- "$SYSCAGE" compil
expect_grep "$TMP/err" "^syscage: unknown command 'compil'; did you mean 'compile'\?" "did you mean 'compile'"
expect_status 2 "syscage frobnicate: refused" -- "$SYSCAGE" frobnicate
expect_grep "$TMP/err" "^usage: syscage" "no near command: the list"

# fuse --pid of another user's process: the error once
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip_feature root "fuse --pid as another user: the error once"
else
	"$REAL" run --no-report -p "$(dirname "$0")/../../profiles/default.policy" sleep 30 >/dev/null 2>&1 &
	runner=$!
	pid=
	for _ in $(seq 100); do
		pid=$(pgrep -P "$runner" sleep) && [ -n "$pid" ] && grep -qE '^Seccomp:[[:space:]]+2' "/proc/$pid/status" && break
		sleep 0.1
	done
	setpriv --reuid=65534 --regid=65534 --clear-groups "$SYSCAGE" fuse --pid "$pid" -o "$TMP/fused.bpf" >"$TMP/out" 2>"$TMP/err"
	kill "$pid" 2>/dev/null
	wait "$runner" 2>/dev/null
	if [ "$(grep -c 'cannot\|error' "$TMP/err")" = 1 ] && grep -q "CAP_SYS_PTRACE" "$TMP/err"; then
		ok "fuse --pid as another user: the error once"
	else not_ok "fuse --pid as another user: the error once" "$(cat "$TMP/err")"; fi
fi

# inject: delays are counted as delays, not faults
if have_feature user-notif; then
	"$REAL" inject -e 'inject=getppid:delay_enter=1ms' -- sh -c 'echo $PPID; echo $PPID' >"$TMP/out" 2>"$TMP/err"
	expect_grep "$TMP/err" "^syscage: inject: 0 faults and [0-9]+ delays? injected by the supervisor$" "inject: delays told apart"
	expect_grep "$TMP/err" "rule 1  getppid:delay_enter=1ms: [0-9]+ delays? \(getppid" "inject: the rule's delays"
	"$REAL" inject --count -e 'inject=getppid:error=EPERM' -- sh -c 'echo $PPID' >"$TMP/out" 2>"$TMP/err"
	expect_grep "$TMP/err" "^syscage: inject: [1-9][0-9]* faults? injected by the supervisor$" "inject: faults alone"
else
	skip_feature user-notif "inject: delays told apart"
fi
echo "1..$n"
