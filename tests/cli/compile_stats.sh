#!/usr/bin/env bash
# syscage compile --stats: the layout for the built-in workload against the best decision
# tree over syscall numbers; the compiler stays within 1.10 of it on the profiles that matter.
. "$(dirname "$0")/../cli_lib.bash"

docker="$(dirname "$0")/../data/docker-default.json"
for p in default docker-default "$docker"; do
	name=$(basename "$p")
	expect_status 0 "compile --stats --json $name" -- "$SYSCAGE" compile --stats --json "$p"
	expect_grep "$TMP/out" '"length": [0-9]+, .*"weighted_uncached": [0-9.]+, "optimal_weighted_uncached": [0-9.]+' \
		"$name: length, weighted_uncached and optimal_weighted_uncached"
	ratio=$(sed -n 's/.*"ratio": \([0-9.]*\).*/\1/p' "$TMP/out")
	if [ -n "$ratio" ] && awk -v r="$ratio" 'BEGIN { exit !(r >= 0.999999 && r <= 1.10) }'; then
		ok "$name: within 1.10 of the optimum ($ratio)"
	else
		not_ok "$name: within 1.10 of the optimum" "ratio '$ratio'" "$(cat "$TMP/out")"
	fi
done
expect_status 0 "compile --stats, text" -- "$SYSCAGE" compile --stats default
expect_grep "$TMP/out" "^optimal_weighted_uncached: [0-9.]+" "the text names the optimum"
expect_status 0 "compile --stats -o writes the filter too" -- \
	"$SYSCAGE" compile --stats default -o "$TMP/d.bpf"
if [ -s "$TMP/d.bpf" ]; then ok "the filter was written"; else not_ok "the filter was written"; fi
expect_status 0 "compile --stats --no-workload" -- "$SYSCAGE" compile --stats --json --no-workload default
expect_grep "$TMP/out" '"uncached_calls": 0' "no workload: no calls weigh"
expect_status 2 "--json without --stats" -- "$SYSCAGE" compile --json default
expect_status 2 "--stats with -O0" -- "$SYSCAGE" compile --stats -O0 default

# too many weighted syscalls for the exact search: said so, not as errno E2BIG's text
{
	printf 'arch x86_64\ndefault allow\nerrno(EPERM) '
	"$SYSCAGE" syscalls --list --arch x86_64 | awk 'NR % 3 == 0 { print $1 }' | paste -sd, -
} >"$TMP/many.policy"
"$SYSCAGE" compile --stats "$TMP/many.policy" -o "$TMP/many.bpf" >"$TMP/out" 2>"$TMP/err"
expect_grep "$TMP/err" "the exact search for the best tree gave up" "--stats says the search gave up"
if grep -q "Argument list too long" "$TMP/err"; then not_ok "--stats: no E2BIG text" "$(cat "$TMP/err")"; else ok "--stats: no E2BIG text"; fi

echo "1..$n"
