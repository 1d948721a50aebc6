#!/usr/bin/env bash
# Records the built-in workload profile: `syscage learn --counts` over a set
# of common programs, one JSON file each in data/workload/.  Then
# The build turns them into C (tools/gen-workload.py).
#
#   tools/measure-workload.sh [SYSCAGE] [OUTDIR]
set -eu
SYSCAGE=${1:-build/syscage}
OUT=${2:-data/workload}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"

learn() { # NAME CMD...: records one workload
	local name=$1
	shift
	"$SYSCAGE" learn -o /dev/null --counts "$OUT/$name.json" -- "$@" >/dev/null
	echo "$name: $(grep -m1 '"total"' "$OUT/$name.json")"
}

cat >"$WORK/prog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) { printf("%d %s\n", argc, getenv("HOME")); return argc > 1 ? atoi(argv[1]) : 0; }
C

learn shell sh -c 'for i in 1 2 3 4 5; do ls -l /usr/bin | grep -c x >/dev/null; done; echo $(date) | tr a-z A-Z >/dev/null'
learn coreutils sh -c "cp -r /usr/include/linux '$WORK/inc' && find '$WORK/inc' -type f | sort | xargs wc -l >/dev/null && \
	tar cf - -C '$WORK' inc | gzip -1 >'$WORK/inc.tgz' && rm -rf '$WORK/inc' && stat '$WORK/inc.tgz' >/dev/null"
learn compiler sh -c "cd '$WORK' && cc -O2 -o prog prog.c && ./prog 0 x >/dev/null"
learn python python3 -c 'import json, os, subprocess, threading
def work(n): json.dumps([list(range(n))] * 10)
ts = [threading.Thread(target=work, args=(i * 100,)) for i in range(8)]
[t.start() for t in ts]; [t.join() for t in ts]
subprocess.run(["true"]); print(len(os.listdir("/usr/lib")))'
learn perl perl -e 'opendir(my $d, "/etc") or die; my @f = readdir($d); for (@f) { open(my $h, "<", "/etc/$_") and close($h) } print scalar(@f), "\n"; system("true")'
learn grep grep -r --include='*.h' -l socket /usr/include/linux
