#!/usr/bin/env bash
# The compiler's layout against kafel's and libseccomp's on three inputs.
#
#   bench/layout.sh
#
# Inputs (bench/data/layout/): Docker's profile (docker-default.json, the
# copy in tests/data), Docker's unconditional allow list on x86_64
# (docker-allow.policy, and docker-allow.kafel), and an argument-heavy
# policy (args.policy, and args.kafel).  For each: syscage's filter
# (default layout, and --no-workload), kafel's (where a .kafel file is
# given) and libseccomp's at optimisation level 2 (the policy's rules handed
# to the system libseccomp, build/bench/layout-figures --libseccomp).  Every
# peer's filter is first proven equivalent to syscage's on x86_64 with
# `syscage diff` (kafel compiles for x86_64 only), then
# build/bench/layout-figures prints, on the first target ABI, each filter's
# length, instructions per uncached call weighted by the built-in workload,
# their mean over the uncached syscall numbers, the longest path, and
# ratios against kafel and libseccomp; `syscage compile --stats` adds the
# optimum of each figure for the default layout.
#
# kafel is not packaged: its compiler is taken from KAFEL_COMPILE (default
# ../shared/peers/kafel/kafel-compile, beside the checkout); without it the
# kafel columns are left out and the script says so.  Needs the build
# (-Dbench=enabled: the system libseccomp) and the analysis engine (Z3) for
# `syscage diff`.  Exit status 1 when a peer's filter is not equivalent.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
S=$BUILD/syscage
FIG=$BUILD/bench/layout-figures
ninja -C "$BUILD" syscage bench/layout-figures >/dev/null
KAFEL=${KAFEL_COMPILE:-../shared/peers/kafel/kafel-compile}
if [ ! -x "$KAFEL" ]; then
	echo "kafel: no compiler at $KAFEL (set KAFEL_COMPILE); the kafel columns are left out"
	KAFEL=
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
DATA=bench/data/layout
status=0

echo "command: KAFEL_COMPILE=${KAFEL:-(none)} bench/layout.sh"
echo "syscage $(git describe --always --dirty 2>/dev/null || echo '?'), $(date -u +%Y-%m-%dT%H:%MZ)," \
	"$(uname -sr) $(uname -m)"
echo "machine: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs;" \
	"load average $(cut -d' ' -f1-3 /proc/loadavg) (the figures are emulated: exact, not timed)"

equivalent() { # LABEL FILTER POLICY
	if "$S" diff --arch x86_64 "$2" "$3" >"$TMP/diff" 2>&1; then
		echo "$1: equivalent to syscage's on x86_64 (syscage diff)"
	else
		echo "$1: NOT equivalent to syscage's on x86_64:"
		sed 's/^/  /' "$TMP/diff" | head -20
		status=1
	fi
}

# libseccomp cannot follow every policy: it kills x86_64 numbers with bit 31
# set (lib/libseccomp/high_numbers.c), it has no verdict of its own for
# numbers no table knows (runc's ENOSYS stub is not part of it), and the
# system's version may not know the newest syscalls (their rules are left
# out).  Regions of those three kinds are listed and allowed; any other
# difference fails.
scmp_equivalent() { # FILTER SYSCAGE_FILTER LOG
	"$S" diff --json --arch x86_64 "$1" "$2" >"$TMP/diff.json" 2>/dev/null || true
	python3 - "$TMP/diff.json" "$3" <<'PY' || status=1
import json, re, sys
d = json.load(open(sys.argv[1]))
unknown = {l.split(": ", 1)[1].strip() for l in open(sys.argv[2]) if l.startswith("unknown to")}
bad, allowed = [], []
for r in d.get("differences", []):
    names = [n for n in re.split(r"[ ,]+", r["syscall"]) if re.fullmatch(r"[a-z_][a-z0-9_]*", n) and n != "nr"]
    if r["example"]["nr"] >= 0x80000000:
        why = "numbers with bit 31 (libseccomp kills them)"
    elif names and all(n in unknown for n in names):
        why = "syscalls this libseccomp does not know"
    elif not names:
        why = "numbers no syscall table names"
    else:
        bad.append(r)
        continue
    allowed.append("%s: %s in libseccomp's, %s in syscage's: %s" % (r["syscall"], r["a"], r["b"], why))
if bad:
    print("libseccomp: NOT equivalent to syscage's on x86_64:")
    for r in bad:
        print("  %s%s: %s in libseccomp's, %s in syscage's" % (r["syscall"], (" if " + r["args"]) if r["args"] else "", r["a"], r["b"]))
    sys.exit(1)
print("libseccomp: equivalent to syscage's on x86_64 (syscage diff) but where libseccomp cannot follow the policy:" if allowed
      else "libseccomp: equivalent to syscage's on x86_64 (syscage diff)")
for a in allowed:
    print("  " + a)
PY
}

for input in docker-default.json docker-allow.policy args.policy; do
	name=${input%.*}
	policy=$DATA/$input
	echo
	echo "## $name"
	"$S" compile -o "$TMP/$name.syscage" "$policy" 2>/dev/null
	"$S" compile --no-workload -o "$TMP/$name.uniform" "$policy" 2>/dev/null
	filters=("syscage=$TMP/$name.syscage" "syscage --no-workload=$TMP/$name.uniform")
	equivalent "syscage --no-workload" "$TMP/$name.uniform" "$TMP/$name.syscage"
	if [ -n "$KAFEL" ] && [ -f "$DATA/$name.kafel" ]; then
		"$KAFEL" "$DATA/$name.kafel" "$TMP/$name.kafel" 2>/dev/null
		equivalent kafel "$TMP/$name.kafel" "$TMP/$name.syscage"
		filters+=("kafel=$TMP/$name.kafel")
	fi
	"$FIG" --libseccomp "$TMP/$name.scmp" "$policy" 2>"$TMP/scmp.log"
	scmp_equivalent "$TMP/$name.scmp" "$TMP/$name.syscage" "$TMP/scmp.log"
	filters+=("libseccomp=$TMP/$name.scmp")
	"$FIG" "$policy" "${filters[@]}" 2>/dev/null
	echo
	echo "syscage compile --stats (the default layout against the optimum of each figure):"
	"$S" compile --stats "$policy" 2>/dev/null | sed 's/^/  /'
done
exit $status
