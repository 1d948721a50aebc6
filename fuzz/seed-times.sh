#!/usr/bin/env bash
# How long each seed takes a libFuzzer target: the slowest seeds per target.
#
#   fuzz/seed-times.sh [--top N] [--repeat R] [--max MS] FUZZ_BINARY...
#
# Runs each binary once over its seed corpus fuzz/corpus/<target>/ and its
# regression inputs fuzz/regress/<target>/ (libFuzzer runs each file once
# and prints "Executed FILE in N ms"), R times (default 3), and prints per
# target the N slowest files (default 3) by their best time, with their
# worst.  The best of R is what the input costs; the worst is what one run
# under the machine's load saw.  With --max MS it exits 1 when some seed's
# best time is above MS (1000 is the rule: docs/fuzzing.md); it exits 2
# when a binary is missing or crashes on a seed.  Measure on an idle machine.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=3 repeat=3 max=
usage() {
	echo "usage: fuzz/seed-times.sh [--top N] [--repeat R] [--max MS] FUZZ_BINARY..." >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--top) top=${2:-}; shift 2 || usage ;;
	--repeat) repeat=${2:-}; shift 2 || usage ;;
	--max) max=${2:-}; shift 2 || usage ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || usage
for n in "$top" "$repeat" ${max:+"$max"}; do
	case $n in '' | *[!0-9]*) usage ;; esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0 over=0
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null), $(nproc) cores"
for bin in "$@"; do
	name=$(basename "$bin")
	files=()
	for dir in "$here/corpus/$name" "$here/regress/$name"; do
		[ -d "$dir" ] && for f in "$dir"/*; do [ -f "$f" ] && files+=("$f"); done
	done
	if [ ! -x "$bin" ] || [ ${#files[@]} -eq 0 ]; then
		echo "$name: not built, or no seeds in fuzz/corpus/$name/" >&2
		status=2
		continue
	fi
	: >"$tmp/times"
	for ((pass = 0; pass < repeat; pass++)); do
		if ! "$bin" -runs=1 -rss_limit_mb=2048 "${files[@]}" >"$tmp/log" 2>&1; then
			echo "$name: FAILED on $(grep '^Running: ' "$tmp/log" | tail -n 1 | cut -c10-)" >&2
			tail -n 20 "$tmp/log" >&2
			status=2
			continue 2
		fi
		sed -n 's/^Executed \(.*\) in \([0-9]*\) ms$/\2 \1/p' "$tmp/log" >>"$tmp/times"
	done
	# per file: best and worst of the passes, slowest best first
	awk '{ f = $2; if (!(f in best) || $1 < best[f]) best[f] = $1; if (!(f in worst) || $1 > worst[f]) worst[f] = $1 }
	     END { for (f in best) print best[f], worst[f], f }' "$tmp/times" |
		sort -k1,1nr -k2,2nr >"$tmp/sorted"
	echo "$name ($(wc -l <"$tmp/sorted") seeds; best / worst of $repeat, ms):"
	head -n "$top" "$tmp/sorted" | while read -r best worst file; do
		printf '  %6d %6d  %s\n' "$best" "$worst" "${file#"$here"/}"
	done
	if [ -n "$max" ]; then
		slow=$(awk -v m="$max" '$1 > m' "$tmp/sorted" | wc -l)
		[ "$slow" -gt 0 ] && echo "  $slow seed(s) above $max ms" && over=1
	fi
done
[ "$status" -ne 0 ] && exit "$status"
exit "$over"
