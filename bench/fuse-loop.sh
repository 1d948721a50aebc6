#!/usr/bin/env bash
# The hardening stack of `syscage bench --only fuse`, as files, under perf stat.
#
#   bench/fuse-loop.sh [RUNS] [CALLS]      (defaults: 3 runs, 200000 calls a round)
#
# Compiles bench/data/hardening/*.policy for x86_64 with `syscage compile`,
# fuses them with `syscage fuse` (proven equal to the stack), then runs
# tests/helpers/syscall_loop (5 rounds of CALLS calls) under
# `perf stat -e task-clock,instructions,cycles` with no filter, the allow list
# alone (8-system-call-filter), the stack of 8 and the fused filter, for
# getppid (which every one of these filters lets the kernel cache) and
# personality(0xffffffff) (which none does: LockPersonality= checks its
# argument).  RUNS runs of every row, interleaved; prints a table through
# bench/report_fuse.py --loop.  Hardware counters are often missing in a
# virtual machine: perf then prints "<not supported>" and the table says so.
# Then where the time of personality(0xffffffff) goes, by `perf record -e
# cpu-clock` of one more loop of each (the kernel's symbols need root): the
# samples in seccomp's own code, in the filters' JITed code, in other BPF
# programs (tracing attached elsewhere on the machine), in the rest of the
# kernel and in user space, as ns a call.
# Needs perf and the build (ninja -C build syscage tests/helpers/syscall_loop).
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
RUNS=${1:-3}
CALLS=${2:-200000}
S=$BUILD/syscage
L=$BUILD/tests/helpers/syscall_loop
ninja -C "$BUILD" syscage tests/helpers/syscall_loop >/dev/null
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
stack=()
for p in bench/data/hardening/*.policy; do
	f=$TMP/$(basename "$p" .policy).bpf
	"$S" compile --arch x86_64 -o "$f" "$p"
	stack+=(-f "$f")
done
"$S" fuse "${stack[@]}" -o "$TMP/fused.bpf"
# filters_of CFG: the loop's -f options for CFG (none, one, stack, fused), in a
filters_of() {
	case $1 in
	none) a=() ;;
	one) a=(-f "$TMP/8-system-call-filter.bpf") ;;
	stack) a=("${stack[@]}") ;;
	fused) a=(-f "$TMP/fused.bpf") ;;
	esac
}
for r in $(seq "$RUNS"); do
	for call in getppid personality; do
		for cfg in none one stack fused; do
			filters_of "$cfg"
			printf '%s %s %s ' "$call" "$cfg" "$r"
			perf stat -x, -e task-clock,instructions,cycles \
				"$L" "${a[@]}" -r 5 -c "$call" "$CALLS" 2>"$TMP/perf" | tr '\n' ' '
			awk -F, '$3 != "" { printf "%s=%s ", $3, $1 }' "$TMP/perf"
			echo
		done
	done
done >"$TMP/loop.txt"
python3 bench/report_fuse.py --loop "$TMP/loop.txt" $((CALLS * 5 + CALLS / 10))
for cfg in none one stack fused; do
	filters_of "$cfg"
	perf record -q -e cpu-clock -o "$TMP/$cfg.data" "$L" "${a[@]}" -r 5 -c personality "$CALLS" >/dev/null 2>&1 &&
		perf report -i "$TMP/$cfg.data" --stdio --sort sym --percent-limit 0 2>/dev/null |
		sed -n "s/^ *\([0-9.]*\)% *\[\([.k]\)\] \(.*\)/$cfg \1 \2 \3/p"
done >"$TMP/profile.txt"
python3 bench/report_fuse.py --profile "$TMP/loop.txt" "$TMP/profile.txt" $((CALLS * 5 + CALLS / 10))
