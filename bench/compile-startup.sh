#!/usr/bin/env bash
# `syscage compile` of a small policy as a whole process, against kafel's compiler.
#
#   bench/compile-startup.sh [ROUNDS]
#
# bench/data/startup/ten.policy (ten syscalls, four with argument checks) and
# the same policy in kafel's language (ten.kafel), first proven equivalent
# with `syscage diff`.  Each round runs, in turn: `syscage compile -o FILE
# ten.policy`, kafel's compiler on ten.kafel, and `syscage --version` (what
# starting the command costs before any work).  ROUNDS (default 100) rounds,
# interleaved, so that a drift of the machine's speed touches all three
# alike.  Per command: the CPU time of the whole process (user + system, from
# wait4()'s rusage) and its wall time, as median [min, max]; then the
# median of the per-round ratios against kafel.
#
# kafel is not packaged: its compiler is taken from KAFEL_COMPILE (default
# ../shared/peers/kafel/kafel-compile, beside the checkout); without it the
# script says so and measures syscage alone.  Needs the CLI (ninja -C build
# syscage) and Python 3.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
ROUNDS=${1:-100}
S=$BUILD/syscage
ninja -C "$BUILD" syscage >/dev/null
KAFEL=${KAFEL_COMPILE:-../shared/peers/kafel/kafel-compile}
if [ ! -x "$KAFEL" ]; then
	echo "kafel: no compiler at $KAFEL (set KAFEL_COMPILE); syscage is measured alone"
	KAFEL=
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
DATA=bench/data/startup

echo "command: KAFEL_COMPILE=${KAFEL:-(none)} bench/compile-startup.sh $ROUNDS"
echo "syscage $(git describe --always --dirty 2>/dev/null || echo '?'), $(date -u +%Y-%m-%dT%H:%MZ)," \
	"$(uname -sr) $(uname -m)"
echo "machine: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs;" \
	"load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs"
if [ -n "$KAFEL" ]; then
	"$KAFEL" "$DATA/ten.kafel" "$TMP/kafel.bpf" >/dev/null 2>&1
	"$S" compile -o "$TMP/syscage.bpf" "$DATA/ten.policy"
	if "$S" diff --arch x86_64 "$TMP/kafel.bpf" "$TMP/syscage.bpf" >/dev/null; then
		echo "kafel's filter is equivalent to syscage's on x86_64 (syscage diff)"
	else
		echo "kafel's filter is NOT equivalent to syscage's on x86_64"
		exit 1
	fi
fi

python3 - "$ROUNDS" "$S" "$DATA" "$TMP" "$KAFEL" <<'PY'
import os, statistics, sys, time

rounds, syscage, data, tmp, kafel = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
commands = [("syscage compile", [syscage, "compile", "-o", tmp + "/s.bpf", data + "/ten.policy"])]
if kafel:
    commands.append(("kafel-compile", [kafel, data + "/ten.kafel", tmp + "/k.bpf"]))
commands.append(("syscage --version", [syscage, "--version"]))

def run(argv):
    start = time.monotonic()
    # posix_spawn (a vfork in glibc): the child's CPU time is the command's, not a copy of Python
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0)
                                       for fd in (0, 1, 2)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("%s: exit status %d" % (" ".join(argv), os.waitstatus_to_exitcode(status)))
    return (usage.ru_utime + usage.ru_stime) * 1000, wall * 1000

for _, argv in commands:  # one unmeasured run each: page cache, first faults
    run(argv)
cpu = {n: [] for n, _ in commands}
wall = {n: [] for n, _ in commands}
for _ in range(rounds):
    for name, argv in commands:
        c, w = run(argv)
        cpu[name].append(c)
        wall[name].append(w)

def spread(v):
    return "%.3f [%.3f, %.3f]" % (statistics.median(v), min(v), max(v))

print("%d rounds, interleaved; median [min, max] in ms" % rounds)
print("| command | CPU ms | wall ms | CPU vs kafel | wall vs kafel |")
print("|---|---|---|---|---|")
for name, _ in commands:
    ratio_c = ratio_w = "-"
    if kafel:
        k = "kafel-compile"
        ratio_c = "%.2f" % statistics.median(a / b for a, b in zip(cpu[name], cpu[k]) if b > 0)
        ratio_w = "%.2f" % statistics.median(a / b for a, b in zip(wall[name], wall[k]))
    print("| %s | %s | %s | %s | %s |" % (name, spread(cpu[name]), spread(wall[name]), ratio_c, ratio_w))
PY
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs"
