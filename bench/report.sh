#!/usr/bin/env bash
# Regenerates docs/PERFORMANCE.md: runs every benchmark behind it in turn and
# prints the whole document, each figure under the command that made it.
#
#   bench/report.sh [-o FILE] [--only SECTION,...]    (the document on stdout, or FILE)
#   bench/report.sh --list                            (the sections, in order)
#
# The header gives the command, the date, the commit, the machine (CPU model,
# CPUs, kernel) and its load average before and after; each section its
# command, the load average around it, how long it took, and the command's
# output as it printed it.  Where the load average exceeded the number of
# CPUs, the section says that its timed figures carry waiting for a CPU.  A
# section whose tool is missing (kafel, libseccomp, valgrind, strace, perf,
# root) says so instead of failing.  With -o the file is written atomically,
# and only when every section ran.
#
# Environment:
#   BUILD=DIR          the build directory (default build; ninja builds what
#                      the sections need)
#   KAFEL_COMPILE=PATH kafel's compiler (default ../shared/peers/kafel/kafel-compile,
#                      beside the checkout)
#   REPORT_QUICK=1     few rounds everywhere: to check the script, not to publish
#   REPORT_ROUNDS=N    rounds of the interleaved timings that take a count
#                      (default 21; 3 with REPORT_QUICK)
#   REPORT_RUNS=N      runs of the whole-process timings (strace, learn, inject;
#                      default 3; 1 with REPORT_QUICK)
#
# Exit status: 0 when every section ran, 1 when one failed (it says so in the
# document; with -o nothing is written), 2 for bad usage.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BUILD
S=$BUILD/syscage
KAFEL=${KAFEL_COMPILE:-../shared/peers/kafel/kafel-compile}
QUICK=${REPORT_QUICK:-0}
if [ "$QUICK" = 1 ]; then
	ROUNDS=${REPORT_ROUNDS:-3} RUNS=${REPORT_RUNS:-1}
else
	ROUNDS=${REPORT_ROUNDS:-21} RUNS=${REPORT_RUNS:-3}
fi
ALL="compile-stats layout-stats layout compile-time compile-startup scaling bench fuse
inject learn-strace learn-overhead diff-docker analysis run-overhead startup"

usage() {
	sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit "$1"
}

OUT= ONLY=
while [ $# -gt 0 ]; do
	case $1 in
	-o) [ $# -ge 2 ] || usage 2 >&2; OUT=$2; shift 2 ;;
	--only) [ $# -ge 2 ] || usage 2 >&2; ONLY=${2//,/ }; shift 2 ;;
	--list) echo $ALL; exit 0 ;;
	-h | --help) usage 0 ;;
	*) echo "bench/report.sh: unknown argument '$1'" >&2; usage 2 >&2 ;;
	esac
done
for s in $ONLY; do
	case " $(echo $ALL) " in
	*" $s "*) ;;
	*) echo "bench/report.sh: no section '$s' (--list names them)" >&2; exit 2 ;;
	esac
done
[ -n "$ONLY" ] || ONLY=$ALL
case $ROUNDS$RUNS in *[!0-9]*) echo "bench/report.sh: REPORT_ROUNDS and REPORT_RUNS are counts" >&2; exit 2 ;; esac

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
NCPU=$(nproc)
FAILED=0
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
# "loaded" when the one-minute load average exceeds the CPUs
loaded() { awk -v l="$(cut -d' ' -f1 /proc/loadavg)" -v n="$NCPU" 'BEGIN { exit !(l > n) }'; }
have() { command -v "$1" >/dev/null 2>&1; }

# run CMD: the command in a sh block, then what it printed in a plain block,
# with the load average around it and the time it took.  CMD is a shell line.
run() {
	local cmd=$1 before after t0 t1 rc
	printf '```sh\n%s\n```\n\n' "$cmd"
	before=$(loadavg)
	t0=$(date +%s.%N)
	(set -o pipefail; eval "$cmd") >"$TMP/out" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	after=$(loadavg)
	printf '```\n'
	sed 's/\s*$//' "$TMP/out"
	printf '```\n\n'
	printf 'Took %s s; load average %s before, %s after (%s CPUs).' \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" "$before" "$after" "$NCPU"
	if [ "$rc" != 0 ]; then
		printf ' **The command failed (exit status %s)**: its figures are missing or partial.' "$rc"
		FAILED=1
	fi
	printf '\n'
	if awk -v a="${before%% *}" -v b="${after%% *}" -v n="$NCPU" 'BEGIN { exit !(a > n || b > n) }'; then
		printf 'The machine was loaded (more runnable tasks than CPUs): timed figures here can\n'
		printf 'include waiting for a CPU, and a difference within the spread of its rows is noise.\n'
	fi
	printf '\n'
}

# missing WHAT: a section's tool is not there
missing() { printf '*Not measured here: %s.*\n\n' "$1"; }

build_targets() { ninja -C "$BUILD" "$@" >"$TMP/ninja" 2>&1 || { cat "$TMP/ninja" >&2; return 1; }; }

# the BPF programs loaded on the machine, by type: tracing programs attached to
# syscalls slow every syscall of every process while they run
bpf_programs() {
	have bpftool || { echo "unknown (no bpftool)"; return; }
	bpftool -j prog show 2>/dev/null | python3 -c '
import collections, json, sys
try:
    c = collections.Counter(p["type"] for p in json.load(sys.stdin))
except ValueError:
    sys.exit(print("unknown (bpftool prog show failed; it needs root)"))
print(", ".join("%d %s" % (n, t) for t, n in sorted(c.items())) or "none")'
}

header() {
	local commit
	commit=$(git describe --always --dirty 2>/dev/null || echo unknown)
	cat <<EOF
# Performance

Every figure below was printed by one command, \`bench/report.sh\`, which
runs each benchmark in turn and writes this document; nothing here was typed
in by hand but the explanations. Each section gives the command that made
its figures, the load average around it and what it printed. Timings on a
shared machine move with its load, so they come as medians of interleaved
rounds with their spread (rounds of every row in turn, so that a change of
load touches every row alike); lengths and executed-instruction counts come
from the emulator and are exact.

\`\`\`
command: bench/report.sh${OUT:+ -o $OUT}${ONLY_ARG:+ --only $ONLY_ARG}$([ "$QUICK" = 1 ] && echo ' (REPORT_QUICK=1)')
rounds: $ROUNDS interleaved rounds per timing, $RUNS runs per whole-process timing
date: $(date -u +%Y-%m-%dT%H:%MZ)
commit: syscage $commit
machine: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $NCPU CPUs, $(uname -sr) $(uname -m)
compiler: $(cc --version | head -1), meson buildtype $(python3 -c 'import json, sys; print([o["value"] for o in json.load(open(sys.argv[1])) if o["name"] == "buildtype"][0])' "$BUILD/meson-info/intro-buildoptions.json" 2>/dev/null)
kafel: $([ -x "$KAFEL" ] && echo "$KAFEL" || echo "not found at $KAFEL (KAFEL_COMPILE)")
libseccomp: $(pkg-config --modversion libseccomp 2>/dev/null || echo 'not found')
BPF programs bpftool lists: $(bpf_programs)
load average: $(loadavg) before
\`\`\`

EOF
}

sec_compile-stats() {
	echo "## Compiler vs libseccomp (\`bench/compile-stats\`)"
	echo
	cat <<'EOF'
`build/bench/compile-stats` (bench/compile-stats.c) hands the same policy to
libseccomp (`SCMP_FLTATR_CTL_OPTIMIZE` 1 and 2, exported with
`seccomp_export_bpf` to a memfd) and to `scg_compile()` (`-O0`, `-O1`
without a workload profile, `-O1` as `syscage compile` runs it), then runs
each program in the emulator:

- *executed mean / max*: on every syscall number of every target ABI, every
  instruction run counted, including the final `ret`. On kernels before 5.11
  every call pays this.
- *uncached, weighted*: what calls pay on 5.11 and later, where the kernel
  skips the filter for syscalls it always allows: the mean over the syscalls
  of the policy's first ABI that either program sends down a path the kernel
  cannot cache, weighted by how often common programs make them (the
  built-in workload profile, from `data/workload/`; arguments 0).
- *compile us*: the median wall time of N compilations, interleaved: for
  libseccomp, `seccomp_init` through the export, as runc does it (one
  context for all ABIs, rules added by name); for syscage, `scg_compile()`
  on the policy. The ratio to libseccomp is taken within the run.

libseccomp gets the rules the way runc would: by name, once each; rules
written as raw syscall numbers (Docker's ENOSYS stub and x32 entries, which
runc builds by hand in front of libseccomp's filter), rules repeating the
default action and conditions libseccomp cannot express are left out and
counted. syscage's program also contains the ENOSYS stub that runc puts in
front of libseccomp's, which libseccomp's length does not count. The
synthetic policies: `allow-args` (300 allowed x86_64 syscalls and Docker-like
argument checks), `deny-list` (default ALLOW, 45 denied syscalls, four
argument checks), `alternating` (every other x86_64 syscall allowed: the
most ranges an allow list can produce).

EOF
	if ! pkg-config --exists libseccomp 2>/dev/null; then
		missing "libseccomp's development files (libseccomp-dev) are not installed"
		return
	fi
	build_targets bench/compile-stats || { missing "bench/compile-stats does not build"; FAILED=1; return; }
	run "$BUILD/bench/compile-stats -n $ROUNDS tests/data/docker-default.json allow-args deny-list alternating"
}

sec_layout-stats() {
	echo "## The layout against the optimum (\`syscage compile --stats\`)"
	echo
	cat <<'EOF'
Instructions executed per call the kernel cannot cache on x86_64, weighted
by the built-in workload and over every uncached syscall number alike,
counted by the emulator, each against the same with the best decision tree
over syscall numbers (docs/compiler.md). Exact, not timed.

EOF
	build_targets syscage || { FAILED=1; return; }
	run "for p in default docker-default tests/data/docker-default.json; do
	echo \"== \$p\"; $S compile --stats -o /dev/null \"\$p\"
done"
}

sec_layout() {
	echo "## The layout against kafel and libseccomp (\`bench/layout.sh\`)"
	echo
	cat <<'EOF'
Three inputs (bench/data/layout/): Docker's profile, Docker's unconditional
allow list on x86_64, and an argument-heavy policy (47 syscalls with sets,
masks, one-sided ranges and 64-bit comparisons), the last two also in
kafel's language; libseccomp gets the policy's rules (optimisation level 2).
Every peer's filter is first proven equivalent to syscage's with `syscage
diff` on x86_64 (for libseccomp, but where it cannot follow the policy; the
script lists those regions). Figures on x86_64, emulated: exact and not
subject to load.

EOF
	if ! pkg-config --exists libseccomp 2>/dev/null; then
		missing "libseccomp's development files are not installed (bench/layout-figures needs them)"
		return
	fi
	run "KAFEL_COMPILE=$KAFEL bench/layout.sh"
}

sec_compile-time() {
	echo "## What compiling costs: instructions of a whole \`syscage compile\`"
	echo
	cat <<'EOF'
Docker's JSON profile (three ABIs) compiled by the whole command, with the
built-in workload (the bounded layout with its hot chain, docs/compiler.md)
and with `--no-workload`, counted by valgrind (every instruction the
process runs, so the count does not depend on load; reading and importing
the JSON is part of both).

EOF
	if ! have valgrind; then
		missing "valgrind is not installed"
		return
	fi
	build_targets syscage || { FAILED=1; return; }
	run "for w in '' --no-workload; do
	printf 'syscage compile %s: ' \"\${w:-(workload)}\"
	valgrind --tool=lackey --basic-counts=yes $S compile \$w -o /dev/null tests/data/docker-default.json 2>&1 |
		sed -n 's/.*guest instrs: *//p'
done"
}

sec_compile-startup() {
	echo "## Compile start-up against kafel (\`bench/compile-startup.sh\`)"
	echo
	cat <<'EOF'
`syscage compile` of a ten-syscall policy (bench/data/startup/ten.policy,
four syscalls with argument checks) as a whole process, against kafel's
compiler (statically linked, its own driver) on the same policy in kafel's
language, and `syscage --version` for what starting the command costs.
Rounds interleaved; CPU time (user + system, from `wait4()`) and wall time,
median [min, max]. On a loaded machine the wall times are mostly waiting
for a CPU; the CPU times are the figure.

EOF
	run "KAFEL_COMPILE=$KAFEL bench/compile-startup.sh $((ROUNDS * 5))"
	echo "Where a start goes, by \`perf stat\` (task-clock and page faults):"
	echo
	if ! have perf; then
		missing "perf is not installed"
		return
	fi
	local k=
	[ -x "$KAFEL" ] && k="$KAFEL bench/data/startup/ten.kafel >/dev/null; "
	run "for c in ${k:+'$KAFEL bench/data/startup/ten.kafel'} '$S --version' '$S compile -o /dev/null bench/data/startup/ten.policy'; do
	echo \"== \$c\"
	perf stat -r $((ROUNDS * 5)) -e task-clock,page-faults \$c 2>&1 >/dev/null | grep -E 'task-clock|page-faults'
done"
}

sec_scaling() {
	echo "## Scaling with the size of the input (\`bench/scaling.sh\`)"
	echo
	cat <<'EOF'
`bench/scaling.sh` writes policies and OCI profiles of N entries of nine
kinds and times one `syscage compile -o FILE` of each (parse or import, the
shadowing check, compilation, the too-big check and its report): time per
entry that stays flat as N grows means linear work. Most inputs need more
than the kernel's 4096 instructions and are refused after the whole
compilation ("too big" in the status column); the time counts all the same.
One run each, wall time: under load single figures move, but quadratic work
shows as a per-entry time that grows tenfold and more.
`tests/cli/adversarial.sh` holds the shapes that once were quadratic to a
CPU-time limit, without a timed assertion.

EOF
	build_targets syscage || { FAILED=1; return; }
	local sizes="1000 10000 100000"
	[ "$QUICK" = 1 ] && sizes="1000"
	run "SYSCAGE=$S SIZES='$sizes' LIMIT=120 bench/scaling.sh"
}

sec_bench() {
	echo "## Syscall cost under filters (\`syscage bench\`)"
	echo
	cat <<'EOF'
docs/bench.md explains every column. Each row is timed in a fresh pinned
child as CPU time, rounds interleaved; `*` marks a row whose middle half
spans more than 10% of its median, and `noise` an overhead the machine's
spread cannot tell from none. `getppid` is cached by every filter of the
baseline and compare sections, so there the comparison is between calls that
run no filter: what is left is the price of entering seccomp at all.

EOF
	build_targets syscage || { FAILED=1; return; }
	if [ "$QUICK" = 1 ]; then
		run "$S bench --quick"
	else
		run "$S bench --reps $ROUNDS"
	fi
}

sec_fuse() {
	echo "## A stack of 8 hardening filters against its fusion (\`syscage fuse\`)"
	echo
	cat <<'EOF'
8 filters shaped like systemd's hardening directives (`bench/data/hardening/`,
docs/bench.md), installed as a stack, against the allow list
`SystemCallFilter=@system-service` alone and against the stack fused into one
filter by `syscage fuse` (proven equal to the stack). First `syscage bench`'s
fuse section, CPU time per call in pinned children: `getppid` with every
filter made uncacheable, and `personality(0xffffffff)`, which
`LockPersonality=` checks, so no filter can be cached for it. Then the
same filters as `syscage compile` and `syscage fuse` write them, installed
by a syscall loop (tests/helpers/syscall_loop.c) under `perf stat`: there
`getppid` is cached by every filter and `personality(0xffffffff)` by none.

EOF
	if [ "$(uname -m)" != x86_64 ]; then
		missing "the hardening policies are written for x86_64"
		return
	fi
	build_targets syscage tests/helpers/syscall_loop || { FAILED=1; return; }
	run "$S bench --only fuse,length --reps $ROUNDS --json | bench/report_fuse.py -"
	if ! have perf; then
		missing "perf is not installed (the syscall loops under perf stat)"
		return
	fi
	run "bench/fuse-loop.sh $RUNS $([ "$QUICK" = 1 ] && echo 20000 || echo 200000)"
}

sec_inject() {
	echo "## Fault injection: \`syscage inject\` vs \`strace --inject\`"
	echo
	cat <<'EOF'
The workload (`tests/helpers/inject_probe loop`) makes N `getppid()` calls,
then one `openat()`; both tools inject ENOENT into the process's third
`openat` (the loader makes the first two), and the script checks that the
program saw the error every run. strace stops the program at every syscall
entry and exit; syscage's filter lets `getppid` through in the kernel (a
cached ALLOW) and sends only `openat` to the supervisor. strace's
`--seccomp-bpf` mode does the same kind of filtering with ptrace. Median
wall time of the runs.

EOF
	if ! have strace; then
		missing "strace is not installed"
		return
	fi
	build_targets syscage tests/helpers/inject_probe || { FAILED=1; return; }
	run "bench/inject-vs-strace.sh $([ "$QUICK" = 1 ] && echo 20000 || echo 200000) $RUNS"
}

sec_learn-strace() {
	echo "## Recording: \`syscage learn\` vs \`strace -f -c\`"
	echo
	cat <<'EOF'
The workload is `dd if=/dev/zero of=/dev/null bs=1 count=N`: one `read` and
one `write` per byte in one thread. Both tools see every call: `syscage
learn -o /dev/null` records each through a user notification answered
CONTINUE; `strace -f -c -o /dev/null` stops it at entry and exit under
ptrace. Recording makes a syscall-bound program many times slower, which is
why `learn` is a tool for test runs; strace's `--seccomp-bpf` cannot help
here, since every call is traced. Median wall time of the runs.

EOF
	if ! have strace; then
		missing "strace is not installed"
		return
	fi
	build_targets syscage || { FAILED=1; return; }
	run "COUNT=$([ "$QUICK" = 1 ] && echo 5000 || echo 100000) bench/learn-vs-strace.sh $RUNS"
}

sec_learn-overhead() {
	echo "## Recording overhead: \`learn --ebpf\` vs \`learn\`, \`strace -f -c\` and bare"
	echo
	cat <<'EOF'
The same workload bare, under `syscage learn --ebpf -o /dev/null` (calls
counted in the kernel), `learn --ebpf --args` (every call and its arguments
through the ring buffer), the notification learner and `strace -f -c`,
round after round; medians, and the ratio to the bare run. `learn --ebpf`
needs root and a build with the eBPF recorder; the rows it cannot run say
so. `learn --ebpf` loads its program first (libbpf reading the kernel's BTF
for the CO-RE relocations), and while it runs the syscall tracepoint sends
every task of the machine through the kernel's slow syscall path, so a
workload that does nothing but make syscalls back to back pays the most;
the second workload computes between its calls.

EOF
	build_targets syscage || { FAILED=1; return; }
	local count=200000
	[ "$QUICK" = 1 ] && count=5000
	run "COUNT=$count bench/learn-overhead.sh $RUNS"
	if [ "$QUICK" != 1 ]; then
		run "W=\$(mktemp); trap 'rm -f \"\$W\"' EXIT; chmod +x \$W
printf '#!/bin/sh\\ntar cf - /usr/share/doc 2>/dev/null | gzip -1 > /dev/null\\n' >\$W
WORKLOAD=\$W ROWS='ebpf ebpf-args notification' bench/learn-overhead.sh $RUNS"
	fi
}

sec_diff-docker() {
	echo "## Equivalence proofs: \`syscage diff\` on Docker's profile"
	echo
	cat <<'EOF'
`tests/test_analysis_docker.c` builds two filters from
`tests/data/docker-default.json`: syscage's (OCI import, then
`scg_compile()`) and runc + libseccomp's with runc's ENOSYS stub
(tests/oci_oracle.c). Both cover x86_64, x86 and x32. `syscage diff` walks
every path of both and proves them equivalent over all of seccomp_data.

EOF
	if ! build_targets syscage tests/test_analysis_docker 2>/dev/null; then
		missing "tests/test_analysis_docker does not build here (it needs cmocka, libseccomp and the analysis engine)"
		return
	fi
	run "D=\$(mktemp -d); trap 'rm -rf \"\$D\"' EXIT
SYSCAGE_ANALYSIS_DUMP=\$D $BUILD/tests/test_analysis_docker >/dev/null 2>&1 || exit
for f in docker-syscage.bpf docker-libseccomp.bpf; do echo \"\$f: \$((\$(stat -c %s \$D/\$f) / 8)) instructions\"; done
python3 - $((RUNS * 5)) $S \$D/docker-syscage.bpf \$D/docker-libseccomp.bpf <<'PY'
import subprocess, sys, time
runs, cmd = int(sys.argv[1]), [sys.argv[2], 'diff'] + sys.argv[3:]
times = []
for _ in range(runs):
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    times.append((time.perf_counter() - t) * 1000)
times.sort()
print('answer:', r.stdout.strip() or r.stderr.strip(), '(exit %d)' % r.returncode)
print('syscage diff, whole command, %d runs: median %.1f ms [%.1f, %.1f]' % (runs, times[len(times) // 2], times[0], times[-1]))
PY"
}

sec_analysis() {
	echo "## Analysis of crafted filters"
	echo
	cat <<'EOF'
Small filters written to stall an engine that walks every path
(`tests/data/analysis/`, docs/analysis.md): `jset-chain-64` (20 JSET forks
whose two sides meet again, 2^20 paths), `jset-chain-76` (22 such forks after
a few syscall tests), `arg-eq` (`arg0 == arg1`), `mul-shift`
(`(arg0 * 3) >> 2 == 5`), `div-x` (`arg0 / arg1`, where `arg1` may be 0), and
`scratch-chain` (16 forks storing different values in scratch memory read at
the end: 2^16 paths that never meet, so nothing merges). Wall seconds of the
whole command, one run each, with the default budget of 10 s (exit status 3
when it runs out; 2 when the policy language cannot say a computed
condition, which `decompile` refuses).

EOF
	build_targets syscage || { FAILED=1; return; }
	local filters="jset-chain-64 jset-chain-76 arg-eq mul-shift div-x scratch-chain"
	[ "$QUICK" = 1 ] && filters="jset-chain-64 arg-eq"
	run "printf '%-14s %-10s %8s %s\n' filter command seconds exit
for f in $filters; do
	for c in lint decompile diff explain; do
		case \$c in diff) a=\"tests/data/analysis/\$f.s tests/data/analysis/\$f.s\" ;;
		explain) a=\"tests/data/analysis/\$f.s openat 1 2\" ;; *) a=tests/data/analysis/\$f.s ;; esac
		t0=\$(date +%s.%N); $S \$c \$a >/dev/null 2>&1; rc=\$?; t1=\$(date +%s.%N)
		awk -v f=\$f -v c=\$c -v a=\$t0 -v b=\$t1 -v rc=\$rc 'BEGIN { printf \"%-14s %-10s %8.2f %s\\n\", f, c, b - a, rc }'
	done
done"
}

sec_run-overhead() {
	echo "## syscage run (\`bench/run-overhead.sh\`)"
	echo
	cat <<'EOF'
(a) how long starting `/bin/true` takes, bare and under `syscage run`, the
commands interleaved run by run (tests/helpers/spawn_median.c: fork, exec,
wait); (b) the cost of an allowed `getppid` under the same policy installed
two ways: compiled with `syscage compile` and installed by the program
itself, or under `syscage run -p`, whose filter adds the exec-cookie rules
and the guard that keeps the program away from `syscage` and its watchdog
(docs/run.md); (c) `fcntl(0, F_GETFD)` under the default profile, directly,
under `run` and under `run --no-landlock`, where the guard tests its
arguments and the kernel cannot cache it; (d) the instructions the kernel
runs for `getppid` in each filter, from `syscage emu` (exact).

EOF
	build_targets syscage tests/helpers/spawn_median tests/helpers/syscall_loop || { FAILED=1; return; }
	if [ "$QUICK" = 1 ]; then
		run "PAIRS=1 bench/run-overhead.sh 10 20000"
	else
		run "PAIRS=$RUNS bench/run-overhead.sh $((ROUNDS * 5)) 200000"
	fi
}

sec_startup() {
	echo "## Start-up CPU time (\`bench/startup.sh\`)"
	echo
	cat <<'EOF'
CPU time (user + system of the whole process tree, from `wait4()`'s
rusage: supervisor, watchdog and program) of starting `/bin/true`, bare and
under `syscage run`, interleaved. The built-in profiles ship compiled
(`scg_profile_prebuilt()`), so the default profile costs about what a
one-rule policy does; the supervisor parses the profile only when a denial
needs its rules for a report.

EOF
	build_targets syscage || { FAILED=1; return; }
	run "bench/startup.sh $ROUNDS"
}

ONLY_ARG=
[ "$ONLY" = "$ALL" ] || ONLY_ARG=${ONLY// /,}
{
	START=$(date +%s)
	header
	for s in $ONLY; do
		"sec_$s"
	done
	echo "## End of the run"
	echo
	echo '```'
	echo "load average: $(loadavg) after"
	echo "the whole report took $(($(date +%s) - START)) s"
	echo '```'
} >"$TMP/report.md"
if [ -n "$OUT" ]; then
	if [ "$FAILED" = 1 ]; then
		echo "bench/report.sh: a section failed; $OUT left as it was (the report is on stdout)" >&2
		cat "$TMP/report.md"
		exit 1
	fi
	cp "$TMP/report.md" "$OUT.tmp.$$" && mv "$OUT.tmp.$$" "$OUT" || { rm -f "$OUT.tmp.$$"; exit 1; }
else
	cat "$TMP/report.md"
fi
exit "$FAILED"
