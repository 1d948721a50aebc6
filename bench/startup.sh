#!/usr/bin/env bash
# The CPU time `syscage run` adds to starting a program.
#
#   bench/startup.sh [RUNS] [PROGRAM [ARG...]]
#
# Starts PROGRAM (default /bin/true) RUNS times (default 20) bare and RUNS
# times under `syscage run` (built-in default profile), interleaved, and
# takes the CPU time of each start: user + system time of the whole process
# tree, from wait4()'s rusage, so the supervisor, the watchdog and the child
# all count.  Prints the medians, their ratio and the overhead in ms.  Also
# `run -p` with a one-rule policy and `run --no-report`, for comparison.
#
# Needs the CLI (ninja -C build syscage; SYSCAGE=PATH measures another
# binary, unbuilt) and Python 3.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
RUNS=${1:-20}
shift || true
[ $# -gt 0 ] || set -- "$(type -P true)"
if [ -n "${SYSCAGE:-}" ]; then
	S=$SYSCAGE
else
	S=$BUILD/syscage
	ninja -C "$BUILD" syscage >/dev/null
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf 'default allow\n' >"$TMP/allow.policy"

echo "machine: $(uname -sr) $(uname -m), $(nproc) cores; $RUNS runs each, interleaved"
python3 - "$RUNS" "$S" "$TMP/allow.policy" "$@" <<'PY'
import os, statistics, sys

runs, syscage, allow, program = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
commands = [
    ("bare", program),
    ("syscage run (default profile)", [syscage, "run", "--"] + program),
    ("syscage run -p allow-all", [syscage, "run", "-p", allow, "--"] + program),
    ("syscage run --no-report", [syscage, "run", "--no-report", "--"] + program),
]

def cpu_ms(argv):
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("%s: exit status %d" % (" ".join(argv), os.waitstatus_to_exitcode(status)))
    return (usage.ru_utime + usage.ru_stime) * 1000

times = {name: [] for name, _ in commands}
for _ in range(runs):
    for name, argv in commands:
        times[name].append(cpu_ms(argv))
bare = statistics.median(times["bare"])
print("%-32s %12s %8s %12s" % ("command", "median ms", "ratio", "overhead ms"))
for name, _ in commands:
    m = statistics.median(times[name])
    print("%-32s %12.2f %8.2f %12.2f" % (name, m, m / bare, m - bare))
PY
