#!/usr/bin/env bash
# Runs libFuzzer targets on their seed corpora, several at once.
#
#   fuzz/run.sh [--forever] FUZZ_BINARY...
#
# Each target runs for $FUZZ_SECONDS seconds (default 10), or with --forever
# until stopped (Ctrl-C), with fuzz/<target>.dict as its dictionary when
# there is one; directories among the arguments are skipped (Meson puts
# fuzz_asm.p/ beside fuzz_asm, so a glob fuzz_* will do).  The targets are
# built by `CC=clang meson setup build-clang -Dfuzzing=enabled && ninja -C
# build-clang` (docs/fuzzing.md).  Seeds come from fuzz/corpus/<target>/ and
# are never modified; what the fuzzer learns goes to $FUZZ_WORK/<target>/
# (default: work/ beside the first binary, build-clang/fuzz/work for
# build-clang/fuzz/fuzz_asm), crashing inputs to $FUZZ_WORK/<target>-crash-*
# (or leak-, timeout-, oom-).
#
# $FUZZ_JOBS targets run at a time (default: nproc).  Each one's output goes
# to $FUZZ_WORK/<target>.log and is printed whole, in the order the targets
# were given, as soon as it and those before it are done; with --forever it
# is printed as it comes, each line led by "[target] " when several run.
#
# $FUZZ_TIMEOUT is libFuzzer's -timeout, the seconds one input may take
# before it counts as a hang.  By default it is 25 s times the machine's
# load per core, counting the targets about to start: (1-minute load
# average + jobs) / nproc, rounded up, at least 1.  A seed takes well under
# 1 s on an idle machine (fuzz/seed-times.sh); the margin is for sanitizers
# on a loaded one.
#
# Exits 0 when no target found anything, 1 when one crashed (its input's
# path is printed), 2 for a usage error or a target not built, 130 when
# stopped with nothing found.
set -u

here=$(cd "$(dirname "$0")" && pwd)
forever=0
if [ "${1:-}" = "--forever" ]; then
	forever=1
	shift
fi
if [ $# -eq 0 ] || [ "${1#-}" != "$1" ]; then
	echo "usage: fuzz/run.sh [--forever] FUZZ_BINARY..." >&2
	exit 2
fi

number() {
	case ${2:-} in
	'' | *[!0-9]*)
		echo "fuzz/run.sh: $1 must be a whole number, not '${2:-}'" >&2
		exit 2
		;;
	esac
}

names=() bins=()
for bin in "$@"; do
	[ -d "$bin" ] && continue # Meson's fuzz_asm.p/ beside fuzz_asm: fuzz_* can stay a glob
	name=$(basename "$bin")
	if [ ! -x "$bin" ] || [ ! -d "$here/corpus/$name" ]; then
		echo "fuzz/run.sh: $bin is not built or $here/corpus/$name is missing" >&2
		exit 2
	fi
	for seen in "${names[@]}"; do
		if [ "$seen" = "$name" ]; then
			echo "fuzz/run.sh: $name is given twice (one work directory, one log)" >&2
			exit 2
		fi
	done
	names+=("$name")
	bins+=("$bin")
done
if [ ${#names[@]} -eq 0 ]; then
	echo "fuzz/run.sh: no fuzz binary among the arguments" >&2
	exit 2
fi

seconds=${FUZZ_SECONDS:-10}
number FUZZ_SECONDS "$seconds"
cores=$(nproc 2>/dev/null || echo 1)
jobs=${FUZZ_JOBS:-$cores}
number FUZZ_JOBS "$jobs"
[ "$jobs" -ge 1 ] || jobs=1
[ "$jobs" -le "${#names[@]}" ] || jobs=${#names[@]}
if [ -n "${FUZZ_TIMEOUT:-}" ]; then
	timeout=$FUZZ_TIMEOUT
	number FUZZ_TIMEOUT "$timeout"
else
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
	timeout=$(awk -v l="$load" -v j="$jobs" -v c="$cores" \
		'BEGIN { f = (l + j) / c; n = int(f); if (n < f) n++; if (n < 1) n = 1; print 25 * n }')
fi
work=${FUZZ_WORK:-$(dirname "${bins[0]}")/work}
mkdir -p "$work" || exit 2

budget="${seconds}s"
[ "$forever" -eq 1 ] && budget="until stopped"
echo "fuzz/run.sh: ${#names[@]} target(s), $budget each, $jobs at a time," \
	"-timeout=$timeout (load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null), $cores cores)"

# fuzz_one I: runs target I, its output on stdout and stderr.
fuzz_one() {
	local bin=${bins[$1]} name=${names[$1]} limit dict=()
	limit=-max_total_time=$seconds
	[ "$forever" -eq 1 ] && limit=-max_total_time=0
	[ -f "$here/$name.dict" ] && dict=(-dict="$here/$name.dict")
	mkdir -p "$work/$name"
	"$bin" "$limit" -timeout="$timeout" -rss_limit_mb=2048 -print_final_stats=1 \
		"${dict[@]}" -artifact_prefix="$work/$name-" "$work/$name" "$here/corpus/$name"
}

# artifacts NAME: the inputs libFuzzer wrote for NAME, one per line.
artifacts() {
	local f
	for f in "$work/$1"-crash-* "$work/$1"-leak-* "$work/$1"-timeout-* "$work/$1"-oom-*; do
		[ -f "$f" ] && echo "$f"
	done
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in "${!names[@]}"; do
	artifacts "${names[$i]}" >"$tmp/$i.before"
done

# Each target runs as a job of its own (its own process group), so that a
# Ctrl-C reaches only this script, which passes it on as libFuzzer's
# "stop": SIGINT to every running target, which then exits with 72.
set -m
pids=() stopping=0
# shellcheck disable=SC2317 # run by the trap
stop() {
	local i
	stopping=1
	for i in "${!pids[@]}"; do
		[ -f "$tmp/$i.rc" ] || kill -INT -- "-${pids[$i]}" 2>/dev/null
	done
}
trap stop INT TERM

# report I: the verdict on target I from its exit status.
status=0
report() {
	local i=$1 name=${names[$1]} rc f
	rc=$(cat "$tmp/$i.rc")
	if [ "$rc" -eq 0 ]; then
		echo "=== $name: no crash"
		return
	fi
	if [ "$stopping" -eq 1 ] && [ "$rc" -eq 72 ]; then
		echo "=== $name: stopped"
		return
	fi
	status=1
	echo "=== $name: FAILED (exit $rc)" >&2
	artifacts "$name" | grep -vxF -f "$tmp/$i.before" | while read -r f; do
		echo "=== $name: the input is $f" >&2
		echo "===   replay it: ${bins[$i]} $f" >&2
	done
}

# Prints the finished targets' logs in order, up to the first still running.
printed=0
flush() {
	while [ "$printed" -lt "${#names[@]}" ] && [ -f "$tmp/$printed.rc" ]; do
		if [ "$forever" -eq 0 ]; then
			echo "=== ${names[$printed]} (${seconds}s)"
			cat "$work/${names[$printed]}.log"
		fi
		report "$printed"
		printed=$((printed + 1))
	done
}

# start I: target I in the background; its exit status lands in $tmp/I.rc.
# With --forever its output is shown as it comes (tee and sed ignore the
# Ctrl-C, so libFuzzer's last words still get through).
start() {
	local i=$1 name=${names[$1]}
	if [ "$forever" -eq 0 ]; then
		(
			fuzz_one "$i" >"$work/$name.log" 2>&1
			echo $? >"$tmp/$i.rc.part" && mv "$tmp/$i.rc.part" "$tmp/$i.rc"
		) &
	else
		local lead=""
		[ "${#names[@]}" -gt 1 ] && lead="[$name] "
		(
			fuzz_one "$i" 2>&1 | (trap '' INT && tee "$work/$name.log" | sed -u "s/^/$lead/")
			echo "${PIPESTATUS[0]}" >"$tmp/$i.rc.part" && mv "$tmp/$i.rc.part" "$tmp/$i.rc"
		) &
	fi
	pids[i]=$!
}

finished() {
	local n=0 i
	for i in "${!pids[@]}"; do
		[ -f "$tmp/$i.rc" ] && n=$((n + 1))
	done
	echo "$n"
}

# wait_some: until a target ends (or a signal comes).
wait_some() {
	wait -n 2>/dev/null || [ $? -ne 127 ] || sleep 0.2
	flush
}

for i in "${!names[@]}"; do
	while [ $((i - $(finished))) -ge "$jobs" ]; do
		wait_some
	done
	[ "$stopping" -eq 1 ] && break
	start "$i"
done
while [ "$(finished)" -lt "${#pids[@]}" ]; do
	wait_some
done
flush
[ "$stopping" -eq 1 ] && [ "$status" -eq 0 ] && status=130
exit $status
