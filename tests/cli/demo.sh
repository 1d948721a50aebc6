#!/usr/bin/env bash
# The demo (examples/demo.sh, ./bootstrap demo): every step says whether it went as
# intended, the mkdir the last step denies on purpose reads as intended, and the last
# line counts the steps.
. "$(dirname "$0")/../cli_lib.bash"
REAL=${SYSCAGE_REAL:-$SYSCAGE}

if ! have_feature user-notif; then
	skip_feature user-notif "the demo runs programs under syscage run"
	echo "1..$n"
	exit 0
fi
expect_status 0 "the demo runs" -- env SYSCAGE="$REAL" "$(dirname "$0")/../../examples/demo.sh"
steps=$(grep -c '^== ' "$TMP/out")
told=$(grep -c '^-> ' "$TMP/out")
if [ "$steps" -gt 0 ] && [ "$steps" = "$told" ]; then ok "each of the $steps steps says how it went"
else not_ok "each step says how it went" "$steps steps, $told verdicts"; fi
expect_grep "$TMP/out" "^-> denied, as intended: mkdir got EACCES" "the denied mkdir reads as intended"
expect_grep "$TMP/out" "^demo: all $steps steps went as intended$" "the last line counts them"
if grep -qE "NOT as intended|\(exit status" "$TMP/out"; then not_ok "nothing looks failed" "$(grep -E 'NOT|exit status' "$TMP/out")"
else ok "nothing looks failed"; fi
# a step that does not go as intended is told, and fails the demo
printf '#!/bin/sh\nexec "%s" "$@"\n' "$REAL" >"$TMP/syscage"
sed 's/verdict ALLOW "ALLOW, getpid runs"/verdict KILL_PROCESS "a wrong expectation"/' \
	"$(dirname "$0")/../../examples/demo.sh" >"$TMP/demo.sh"
cp "$(dirname "$0")/../../examples/deny-open.s" "$TMP/"
chmod +x "$TMP/syscage" "$TMP/demo.sh"
expect_status 1 "a step that goes wrong fails the demo" -- env SYSCAGE="$TMP/syscage" "$TMP/demo.sh"
expect_grep "$TMP/out" "^-> NOT as intended: got 'ALLOW', where KILL_PROCESS was expected" "and is told"
expect_grep "$TMP/out" "^demo: 1 of [0-9]+ steps did not go as intended$" "the last line says so"
echo "1..$n"
