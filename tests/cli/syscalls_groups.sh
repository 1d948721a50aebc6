#!/usr/bin/env bash
# syscage syscalls --groups: the policy language's syscall groups.
. "$(dirname "$0")/../cli_lib.bash"

expect_status 0 "--groups lists every group" -- "$SYSCAGE" syscalls --groups
expect_grep "$TMP/out" '^@basic-io +reading, writing' "a group and its summary"
expect_grep "$TMP/out" '^@system-service ' "systemd's names"
if [ "$(wc -l <"$TMP/out")" -ge 28 ]; then ok "28 groups or more"; else
	not_ok "28 groups or more" "$(cat "$TMP/out")"
fi

expect_status 0 "--groups NAME lists the members" -- "$SYSCAGE" syscalls --groups @sync @swap
expect_grep "$TMP/out" '^fdatasync$' "one member a line"
expect_grep "$TMP/out" '^swapon$' "members of every group named"

expect_status 0 "a name without '@' works too" -- "$SYSCAGE" syscalls --groups basic-io
expect_grep "$TMP/out" '^pread64$' "basic-io has pread64"

expect_status 2 "an unknown group fails with a hint" -- "$SYSCAGE" syscalls --groups @bsic-io
expect_grep "$TMP/err" "unknown group '@bsic-io'; did you mean '@basic-io'\?" "did you mean"

expect_status 0 "--groups --json" -- "$SYSCAGE" syscalls --groups --json @swap
expect_grep "$TMP/out" '"members": \["swapoff", "swapon"\]' "JSON members"
expect_status 2 "--groups --json with an unknown group last" -- \
	"$SYSCAGE" syscalls --groups --json @swap @nosuch
if python3 -m json.tool "$TMP/out" >/dev/null 2>&1; then ok "still one JSON array"; else
	not_ok "still one JSON array" "$(cat "$TMP/out")"; fi

expect_status 2 "--groups excludes --list" -- "$SYSCAGE" syscalls --groups --list

expect_status 0 "several groups" -- "$SYSCAGE" syscalls --groups @sync swap
if [ "$(grep -c '^@sync:$' "$TMP/out")" = 1 ] && [ "$(grep -c '^@swap:$' "$TMP/out")" = 1 ] &&
	[ "$(grep -c '^@' "$TMP/out")" = 2 ] && [ "$(head -n1 "$TMP/out")" = "@sync:" ]; then
	ok "one heading per group"
else
	not_ok "one heading per group" "$(cat "$TMP/out")"
fi
expect_status 0 "one group" -- "$SYSCAGE" syscalls --groups @swap
if grep -q '^@' "$TMP/out"; then not_ok "one group: its members only" "$(cat "$TMP/out")"; else
	ok "one group: its members only"; fi
