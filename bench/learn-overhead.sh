#!/usr/bin/env bash
# What recording costs the program recorded: the same syscall-heavy workload bare, under
# `syscage learn --ebpf` (counted in the kernel), `learn --ebpf --args` (every call through
# the ring buffer), the notification learner `syscage learn`, and `strace -f -c`.  Prints
# the median wall time of each over RUNS runs and its ratio to the bare run.
# learn --ebpf needs root; the rows it cannot run say so.
#
#   bench/learn-overhead.sh [RUNS]      (SYSCAGE=path/to/syscage, COUNT=syscalls/2,
#                                        WORKLOAD="command ..." instead of dd,
#                                        ROWS="ebpf ebpf-args start-up notification strace":
#                                        the rows besides bare, for long workloads)
set -eu
RUNS=${1:-5}
SYSCAGE=${SYSCAGE:-build/syscage}
COUNT=${COUNT:-200000}
if [ -n "${WORKLOAD-}" ]; then
	read -r -a CMD <<<"$WORKLOAD"
	DESC=$WORKLOAD
else
	# 2 * COUNT syscalls: one read and one write per byte
	CMD=(dd if=/dev/zero of=/dev/null bs=1 "count=$COUNT")
	DESC="${CMD[*]} ($((2 * COUNT)) syscalls)"
fi

[ -x "$SYSCAGE" ] || { echo "no $SYSCAGE: run ninja -C build first" >&2; exit 2; }

# seconds (with nanoseconds) one run of "$@" takes; "failed" when it fails
seconds() {
	local start end
	start=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || { echo failed; return; }
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }'
}

median() {
	sort -g | awk '/failed/ { bad = 1 } { v[NR] = $1 }
		END { if (bad) print "failed"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

run() {
	case $1 in
	bare) "${CMD[@]}" ;;
	ebpf) "$SYSCAGE" learn --ebpf -o /dev/null -- "${CMD[@]}" ;;
	ebpf-args) "$SYSCAGE" learn --ebpf --args -o /dev/null -- "${CMD[@]}" ;;
	start-up) "$SYSCAGE" learn --ebpf -o /dev/null -- true ;;
	notification) "$SYSCAGE" learn -o /dev/null -- "${CMD[@]}" ;;
	strace) strace -f -c -o /dev/null "${CMD[@]}" ;;
	esac
}
declare -A names
names=([bare]="bare" [ebpf]="syscage learn --ebpf" [ebpf-args]="syscage learn --ebpf --args"
	[start-up]="learn --ebpf -- true (start-up alone)"
	[notification]="syscage learn (user notification)" [strace]="strace -f -c")
if [ -n "${ROWS-}" ]; then
	read -r -a configs <<<"bare $ROWS"
else
	configs=(bare ebpf ebpf-args start-up notification)
	command -v strace >/dev/null && configs+=(strace)
fi

# Round after round, each configuration once per round: a change in the machine's load
# falls on all of them alike.
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for _ in $(seq "$RUNS"); do
	for c in "${configs[@]}"; do seconds run "$c" >>"$OUT/$c"; done
done
bare=$(median <"$OUT/bare")
printf 'workload: %s, median of %d runs\n' "$DESC" "$RUNS"
for c in "${configs[@]}"; do
	t=$(median <"$OUT/$c")
	if [ "$t" = failed ]; then
		printf '  %-40s %s\n' "${names[$c]}" "could not run here"
	elif [ "$c" = start-up ]; then
		# What loading the BPF program costs (libbpf reads the kernel's BTF for CO-RE)
		# before the command starts: part of both --ebpf rows, whatever the workload.
		printf '  %-40s %8.3f s\n' "${names[$c]}" "$t"
	else
		printf '  %-40s %8.3f s  %6.2fx\n' "${names[$c]}" "$t" \
			"$(awk -v t="$t" -v b="$bare" 'BEGIN { print t / b }')"
	fi
done
[ -n "${ROWS-}" ] || command -v strace >/dev/null || printf '  %-40s %s\n' "strace -f -c" "strace is not installed"
