#!/usr/bin/env bash
# syscage inject against strace --inject on one workload: N getppid() calls
# that no rule touches, then one openat() that gets ENOENT injected (the
# third openat of the process; the loader makes the first two).
#
#   bench/inject-vs-strace.sh [N] [RUNS]     (defaults: 200000 calls, 5 runs)
#
# Prints the median wall time of each tool and the ratio.  Needs strace and
# `ninja -C build` with the tests (build/syscage, build/tests/helpers/inject_probe).
set -u
N=${1:-200000}
RUNS=${2:-5}
BUILD=${BUILD:-build}
S=${SYSCAGE:-$BUILD/syscage}
P=$BUILD/tests/helpers/inject_probe
RULE='openat:error=ENOENT:when=3'
for f in "$S" "$P"; do
	[ -x "$f" ] || { echo "missing $f: run 'ninja -C $BUILD'" >&2; exit 2; }
done
command -v strace >/dev/null || { echo "strace is not installed" >&2; exit 2; }
export LC_ALL=C

# median_ms CMD...: runs CMD $RUNS times (checking it injected), prints the median in ms
median_ms() {
	local times=() i start end out
	for ((i = 0; i < RUNS; i++)); do
		start=$(date +%s%N)
		out=$("$@" 2>/dev/null)
		end=$(date +%s%N)
		if [ "$out" != "open: ENOENT" ]; then
			echo "no injection seen from: $* (output: $out)" >&2
			exit 1
		fi
		times+=($(((end - start) / 1000000)))
	done
	printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}

echo "workload: $N getppid() calls, then openat() with $RULE; median of $RUNS runs"
base=$(median_ms "$P" loop "$N" /nonexistent-but-injected 2>/dev/null || true)
ours=$(median_ms "$S" inject -q "$RULE" -- "$P" loop "$N" /etc/hostname)
theirs=$(median_ms strace -f -qq -o /dev/null --inject="$RULE" "$P" loop "$N" /etc/hostname)
bpf=$(median_ms strace -f -qq -o /dev/null --seccomp-bpf -e trace=openat --inject="$RULE" \
	"$P" loop "$N" /etc/hostname)
printf '  %-58s %6s ms\n' "no tool (openat fails by itself: bad path)" "${base:-?}" \
	"syscage inject '$RULE'" "$ours" \
	"strace -f --inject='$RULE'" "$theirs" \
	"strace -f --seccomp-bpf -e trace=openat --inject=..." "$bpf"
awk -v a="$theirs" -v b="$ours" -v c="$bpf" 'BEGIN {
	if (b < 1) b = 1
	printf "syscage inject is %.1fx faster than strace -f --inject (%.1fx against --seccomp-bpf)\n", a / b, c / b
}'
