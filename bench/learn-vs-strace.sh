#!/usr/bin/env bash
# Recording overhead: `syscage learn` against `strace -f -c` on the same
# syscall-heavy workload.  Prints the median wall time of each over RUNS runs
# and the ratio (strace / learn; above 1 means learn is faster).
#
#   bench/learn-vs-strace.sh [RUNS]      (SYSCAGE=path/to/syscage, COUNT=syscalls/2)
set -eu
RUNS=${1:-5}
SYSCAGE=${SYSCAGE:-build/syscage}
COUNT=${COUNT:-200000}
# 2 * COUNT syscalls: one read and one write per byte
WORKLOAD=(dd if=/dev/zero of=/dev/null bs=1 "count=$COUNT")

command -v strace >/dev/null || { echo "strace is not installed" >&2; exit 2; }
[ -x "$SYSCAGE" ] || { echo "no $SYSCAGE: run ninja -C build first" >&2; exit 2; }

# seconds (with nanoseconds) one run of "$@" takes
seconds() {
	local start end
	start=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }'
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

measure() {
	local i
	for i in $(seq "$RUNS"); do seconds "$@"; done | median
}

plain=$(measure "${WORKLOAD[@]}")
learn=$(measure "$SYSCAGE" learn -o /dev/null -- "${WORKLOAD[@]}")
strace=$(measure strace -f -c -o /dev/null "${WORKLOAD[@]}")
printf 'workload: %s (%d syscalls), median of %d runs\n' "${WORKLOAD[*]}" $((2 * COUNT)) "$RUNS"
printf '  %-38s %8.3f s\n' "unrecorded" "$plain"
printf '  %-38s %8.3f s\n' "syscage learn -o /dev/null" "$learn"
printf '  %-38s %8.3f s\n' "strace -f -c -o /dev/null" "$strace"
printf '  %-38s %8.2fx\n' "strace / learn" "$(awk -v s="$strace" -v l="$learn" 'BEGIN { print s / l }')"
