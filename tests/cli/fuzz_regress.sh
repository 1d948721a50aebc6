#!/usr/bin/env bash
# Every fuzz target's entry point on its seed corpus (fuzz/corpus/<target>/) and on the
# inputs that once broke it (fuzz/regress/<target>/), through tests/fuzz_replay.c.
. "$(dirname "$0")/../cli_lib.bash"
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$(dirname "$SYSCAGE")}

# One target per seed corpus (fuzz/run.sh needs one); fuzz_import_* share fuzz/fuzz_import.c.
for seeds in "$root"/fuzz/corpus/fuzz_*/; do
	target=$(basename "$seeds")
	bin=$build/tests/replay/$target
	if [ ! -x "$bin" ]; then
		not_ok "$target: replay program built" "$bin is missing (ninja -C $build with the tests)"
		continue
	fi
	for kind in corpus regress; do
		dir=$root/fuzz/$kind/$target
		[ -d "$dir" ] || continue
		count=$(find "$dir" -maxdepth 1 -type f ! -name '.*' | wc -l)
		# A target that aborts (broken property) or trips a sanitizer exits non-zero.
		if "$bin" "$dir" >"$TMP/out" 2>"$TMP/err" && grep -qx "replayed $count inputs" "$TMP/out"; then
			ok "$target: $count $kind inputs"
		else
			not_ok "$target: $count $kind inputs" "$(grep -v '^replay: ' "$TMP/err" | head -c 600)" \
				"last input: $(grep '^replay: ' "$TMP/err" | tail -n 1)"
		fi
	done
done
