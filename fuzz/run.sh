#!/usr/bin/env bash
# Runs libFuzzer targets on their seed corpora.
#
#   fuzz/run.sh [--forever] build/fuzz/fuzz_asm [build/fuzz/fuzz_raw ...]
#
# Each target runs for $FUZZ_SECONDS seconds (default 20), or until stopped
# with --forever, with fuzz/<target>.dict as its dictionary when there is one.  Seeds come from fuzz/corpus/<target>/ and are never
# modified; what the fuzzer learns goes to $FUZZ_WORK/<target>/ (default
# build/fuzz/work) and crashing inputs to $FUZZ_WORK/<target>-crash-*.
# Exits non-zero if any target finds a crash.
set -u

here=$(cd "$(dirname "$0")" && pwd)
forever=0
if [ "${1:-}" = "--forever" ]; then
	forever=1
	shift
fi
if [ $# -eq 0 ]; then
	echo "usage: fuzz/run.sh [--forever] FUZZ_BINARY..." >&2
	exit 2
fi

seconds=${FUZZ_SECONDS:-20}
work=${FUZZ_WORK:-build/fuzz/work}
status=0
for bin in "$@"; do
	name=$(basename "$bin")
	seeds=$here/corpus/$name
	if [ ! -x "$bin" ] || [ ! -d "$seeds" ]; then
		echo "fuzz/run.sh: $bin is not built or $seeds is missing" >&2
		status=2
		continue
	fi
	mkdir -p "$work/$name"
	limit=-max_total_time=$seconds
	[ "$forever" -eq 1 ] && limit=-max_total_time=0
	echo "=== $name ($([ "$forever" -eq 1 ] && echo "until stopped" || echo "${seconds}s"))"
	dict=()
	[ -f "$here/$name.dict" ] && dict=(-dict="$here/$name.dict")
	if "$bin" "$limit" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" \
		-artifact_prefix="$work/$name-" "$work/$name" "$seeds"; then
		echo "=== $name: no crash"
	else
		echo "=== $name: FAILED; the input is in $work/$name-crash-* (or leak-/timeout-)" >&2
		status=1
	fi
done
exit $status
