#!/usr/bin/env bash
# What `syscage run` costs a program.
#
#   bench/run-overhead.sh [RUNS] [CALLS]
#
# (a) Start-up: RUNS (default 200) starts of /bin/true, bare and under
#     `syscage run` (built-in default profile, an allow-all policy, and
#     --no-report), interleaved; medians and the difference to bare.
#     `syscage run --help` shows what loading the syscage binary alone costs.
# (b) Allowed syscalls: getppid CALLS times (default 500000, median of 7
#     rounds) under the same filter installed two ways: compiled with
#     `syscage compile` and installed by the program itself, and under
#     `syscage run -p` (the filter with the exec-cookie rules and denials
#     turned into USER_NOTIF).  Three policies: one whose getppid verdict the
#     kernel caches (the filter does not even run), one whose filter must run
#     for getppid (an argument condition on it), and the built-in default
#     profile.  Each pair runs PAIRS (default 5) times alternately; the
#     median of the median rounds, and the fastest round (the least disturbed
#     on a busy machine).
# (c) fcntl(0, F_GETFD) under the built-in default profile, which allows it
#     unconditionally: installed directly, under `syscage run` (where the
#     kernel has Landlock's scopes the guard leaves fcntl alone, so the kernel
#     caches it as it does the direct filter) and under `run --no-landlock`
#     (the guard tests fcntl's arguments: not cacheable).
#
# Needs the CLI and two helpers (the helpers come with the tests, which need cmocka):
# ninja -C build syscage tests/helpers/spawn_median tests/helpers/syscall_loop
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
RUNS=${1:-200}
CALLS=${2:-500000}
S=$BUILD/syscage
SPAWN=$BUILD/tests/helpers/spawn_median
LOOP=$BUILD/tests/helpers/syscall_loop
ninja -C "$BUILD" syscage tests/helpers/spawn_median tests/helpers/syscall_loop >/dev/null

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TRUE=$(type -P true)
printf 'default allow\n' >"$TMP/allow.policy"

echo "machine: $(uname -sr) $(uname -m), $(nproc) cores"
echo
echo "## start-up: $RUNS runs of $TRUE each, interleaved"
"$SPAWN" "$RUNS" "$TRUE" \
	:: "$S" run --help \
	:: "$S" run -- "$TRUE" \
	:: "$S" run -p "$TMP/allow.policy" -- "$TRUE" \
	:: "$S" run --no-report -- "$TRUE" >"$TMP/spawn"
awk -v bare_name="$TRUE" '
BEGIN { split("bare|syscage run --help (loading syscage alone)|syscage run (default profile)|syscage run -p allow-all|syscage run --no-report (default profile)", names, "|") }
{ med[NR] = $2; min[NR] = $4; st[NR] = $6 }
END {
	printf "%-44s %12s %12s %14s %8s\n", "command", "median us", "min us", "minus bare us", "ratio"
	for (i = 1; i <= NR; i++)
		printf "%-44s %12.1f %12.1f %14.1f %8.2f%s\n", names[i], med[i], min[i], med[i] - med[1],
			med[i] / med[1], st[i] == 0 ? "" : "  (exit status " st[i] ")"
}' "$TMP/spawn"

# median and minimum of numbers
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
minimum() { printf '%s\n' "$@" | sort -g | head -n 1; }

# per_call NAME POLICY: getppid, the filter installed directly vs under syscage run,
# alternately PAIRS times; prints medians of the median rounds and the fastest rounds
PAIRS=${PAIRS:-5}
per_call() {
	local name=$1 policy=$2 dmed=() dmin=() rmed=() rmin=() i out
	"$S" compile -o "$TMP/f.bpf" "$policy"
	for i in $(seq "$PAIRS"); do
		out=$("$LOOP" -f "$TMP/f.bpf" "$CALLS")
		dmed+=("$(echo "$out" | awk '{ print $2 }')") dmin+=("$(echo "$out" | awk '{ print $4 }')")
		out=$("$S" run -q -p "$policy" -- "$LOOP" "$CALLS")
		rmed+=("$(echo "$out" | awk '{ print $2 }')") rmin+=("$(echo "$out" | awk '{ print $4 }')")
	done
	awk -v n="$name" -v len="$(($(stat -c %s "$TMP/f.bpf") / 8))" \
		-v dm="$(median "${dmed[@]}")" -v rm="$(median "${rmed[@]}")" \
		-v dn="$(minimum "${dmin[@]}")" -v rn="$(minimum "${rmin[@]}")" \
		'BEGIN { printf "%-38s %6d %11.1f %11.1f %7.3f %11.1f %11.1f %7.3f\n", n, len, dm, rm, rm / dm, dn, rn, rn / dn }'
}

echo
echo "## allowed syscalls: getppid x $CALLS per round, 7 rounds per run, $PAIRS runs each, alternating"
bmed=() bmin=()
for i in $(seq "$PAIRS"); do
	out=$("$LOOP" "$CALLS")
	bmed+=("$(echo "$out" | awk '{ print $2 }')") bmin+=("$(echo "$out" | awk '{ print $4 }')")
done
echo "no filter: median $(median "${bmed[@]}") ns/call, fastest $(minimum "${bmin[@]}") ns/call"
printf '%-38s %6s %11s %11s %7s %11s %11s %7s\n' "policy" "insns" "direct med" "run med" "ratio" \
	"direct min" "run min" "ratio"
printf 'default allow\nerrno(EACCES) mkdir, mkdirat\n' >"$TMP/cached.policy"
per_call "cacheable (getppid always allowed)" "$TMP/cached.policy"
printf 'default allow\nerrno(EACCES) mkdir, mkdirat\nerrno(EPERM) getppid if arg0 == 0x5eed\n' \
	>"$TMP/uncached.policy"
per_call "not cacheable (condition on getppid)" "$TMP/uncached.policy"
per_call "built-in default profile" default

echo
echo "## fcntl(0, F_GETFD) x $CALLS per round under the default profile, $PAIRS runs each, alternating"
"$S" compile -o "$TMP/f.bpf" default
fd=() fr=() fn=()
for i in $(seq "$PAIRS"); do
	fd+=("$("$LOOP" -c fcntl -f "$TMP/f.bpf" "$CALLS" | awk '{ print $2 }')")
	fr+=("$("$S" run -q -- "$LOOP" -c fcntl "$CALLS" | awk '{ print $2 }')")
	fn+=("$("$S" run -q --no-landlock -- "$LOOP" -c fcntl "$CALLS" | awk '{ print $2 }')")
done
echo "no filter: $("$LOOP" -c fcntl "$CALLS" | awk '{ print $2 }') ns/call"
echo "direct: median $(median "${fd[@]}") ns/call; run: $(median "${fr[@]}"); run --no-landlock: $(median "${fn[@]}")"

# What the kernel executes for getppid in each filter, from the emulator: exact,
# unlike the timings.  The filter `syscage run` installed is read back from a
# running program with `syscage dump`, which needs CAP_SYS_ADMIN.
executed() { "$S" emu --json -f "$1" getppid | sed -n 's/^  "executed": \([0-9]*\),$/\1/p'; }
echo
echo "## instructions run for getppid (syscage emu), direct vs syscage run"
if [ "$(id -u)" -ne 0 ]; then
	echo "(skipped: syscage dump needs root)"
	exit 0
fi
for policy in "$TMP/cached.policy" "$TMP/uncached.policy" default; do
	"$S" compile -o "$TMP/f.bpf" "$policy"
	"$S" run -q -p "$policy" -- sleep 10 2>/dev/null &
	sv=$!
	prog=
	for _ in $(seq 100); do
		prog=$(pgrep -P "$sv" -x sleep) && break
		sleep 0.05
	done
	rm -rf "$TMP/dump"
	"$S" dump --format raw -o "$TMP/dump" "$prog" >/dev/null
	kill "$sv"
	wait "$sv" 2>/dev/null || true
	printf '%-38s direct %3s of %4d   run %3s of %4d\n' "$(basename "$policy")" \
		"$(executed "$TMP/f.bpf")" $(($(stat -c %s "$TMP/f.bpf") / 8)) \
		"$(executed "$TMP/dump/filter-0.bpf")" $(($(stat -c %s "$TMP/dump/filter-0.bpf") / 8))
done
