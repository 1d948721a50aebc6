#!/usr/bin/env bash
# syscage compile --stats: the layout for the built-in workload against the best decision
# tree over syscall numbers; the compiler stays within 1.05 of it on the profiles that matter.
# The uniform figure and the longest path are printed with theirs; every policy that
# compiles gets its figures, however many syscalls weigh.
. "$(dirname "$0")/../cli_lib.bash"

docker="$(dirname "$0")/../data/docker-default.json"
for p in default docker-default "$docker"; do
	name=$(basename "$p")
	expect_status 0 "compile --stats --json $name" -- "$SYSCAGE" compile --stats --json "$p"
	expect_grep "$TMP/out" '"length": [0-9]+, .*"weighted_uncached": [0-9.]+, "optimal_weighted_uncached": [0-9.]+' \
		"$name: length, weighted_uncached and optimal_weighted_uncached"
	ratio=$(sed -n 's/.*"ratio": \([0-9.]*\).*/\1/p' "$TMP/out")
	if [ -n "$ratio" ] && awk -v r="$ratio" 'BEGIN { exit !(r >= 0.999999 && r <= 1.05) }'; then
		ok "$name: within 1.05 of the optimum ($ratio)"
	else
		not_ok "$name: within 1.05 of the optimum" "ratio '$ratio'" "$(cat "$TMP/out")"
	fi
	expect_grep "$TMP/out" '"uniform_uncached": [0-9.]+, "optimal_uniform_uncached": [0-9.]+' \
		"$name: uniform_uncached and its optimum"
	expect_grep "$TMP/out" '"max_path": [0-9]+, "max_dispatch": [0-9]+, "optimal_max_dispatch": [0-9]+' \
		"$name: max_path and its optimum"
done
expect_status 0 "compile --stats, text" -- "$SYSCAGE" compile --stats default
expect_grep "$TMP/out" "^optimal_weighted_uncached: [0-9.]+" "the text names the optimum"
expect_status 0 "compile --stats -o writes the filter too" -- \
	"$SYSCAGE" compile --stats default -o "$TMP/d.bpf"
if [ -s "$TMP/d.bpf" ]; then ok "the filter was written"; else not_ok "the filter was written"; fi
expect_status 0 "compile --stats --no-workload" -- "$SYSCAGE" compile --stats --json --no-workload default
expect_grep "$TMP/out" '"uncached_calls": [1-9][0-9]*' "no workload: measured on the built-in one"
expect_status 2 "--json without --stats" -- "$SYSCAGE" compile --json default
expect_status 2 "--stats with -O0" -- "$SYSCAGE" compile --stats -O0 default

# more weighted syscalls than the exact search takes: the figures all the same, against
# the best tree whose jeq tests take the most weighted numbers, and said so
{
	printf 'arch x86_64\ndefault allow\nerrno(EPERM) '
	"$SYSCAGE" syscalls --list --arch x86_64 | awk 'NR % 3 == 0 { print $1 }' | paste -sd, -
} >"$TMP/many.policy"
expect_status 0 "--stats with 120 uncached syscalls" -- \
	"$SYSCAGE" compile --stats "$TMP/many.policy" -o "$TMP/many.bpf"
expect_grep "$TMP/out" "^uniform_uncached: [0-9.]+" "the uniform figure"
expect_grep "$TMP/out" "^note: the uniform optimum is over trees whose jeq tests take only the [0-9]+ most weighted of [0-9]+ numbers" "--stats says which trees the optimum is over"
# argument checks on many syscalls, each called by the workload (failed with E2BIG before)
args="$(dirname "$0")/../../bench/data/layout/args.policy"
expect_status 0 "--stats on an argument-heavy policy" -- "$SYSCAGE" compile --stats --json "$args"
expect_grep "$TMP/out" '"weighted_uncached": [0-9.]+' "argument-heavy: the weighted figure"

# every input of the project's own that compiles gets its figures, or an error naming the
# one limit the search has (2048 ranges), never errno's text
SRC=$(cd "$(dirname "$0")/../.." && pwd)
inputs=("$SRC"/profiles/*.policy "$SRC"/tests/data/docker-default.json "$SRC"/tests/data/systemd/*.service
	"$SRC"/tests/data/firejail/*.profile "$SRC"/bench/data/layout/*)
for d in policy compile import_kafel import_minijail import_systemd import_firejail oci; do
	inputs+=("$SRC"/fuzz/corpus/fuzz_$d/*)
done
compiled=0 stats=0
for path in "${inputs[@]}"; do
	f=${path#"$SRC"/}
	(cd "$SRC" && "$SYSCAGE" compile -o "$TMP/in.bpf" "$path") >/dev/null 2>&1 || continue
	compiled=$((compiled + 1))
	if (cd "$SRC" && "$SYSCAGE" compile --stats --json -o "$TMP/in.bpf" "$path") >"$TMP/out" 2>"$TMP/err"; then
		grep -q '"uniform_uncached": ' "$TMP/out" && stats=$((stats + 1)) ||
			not_ok "$f: --stats prints the figures" "$(head -c 300 "$TMP/out")"
	elif grep -q "more ranges than the search for the best tree takes" "$TMP/err"; then
		stats=$((stats + 1))
	else
		not_ok "$f: --stats prints the figures or names the limit" "$(head -c 300 "$TMP/err")"
	fi
done
if [ "$compiled" -ge 40 ] && [ "$stats" -eq "$compiled" ]; then
	ok "--stats on every one of $compiled inputs that compile"
else
	not_ok "--stats on every input that compiles" "$stats of $compiled"
fi

echo "1..$n"
