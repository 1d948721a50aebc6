#!/usr/bin/env bash
# syscage bench: every section runs and prints, JSON and SVG are well formed,
# bad usage exits 2 with a clear message.  No assertion is about speed: the
# numbers only have to be there and be positive.
. "$(dirname "$0")/../cli_lib.bash"

# The noise logic on made-up samples (tests/bench_noise.c with cli/bench/stats.c): its own TAP
# lines, renumbered into this script's.
src=$(cd "$(dirname "$0")/../.." && pwd)
if ${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Werror -iquote "$src/cli" -I"$src/include" -o "$TMP/bench_noise" \
	"$src/tests/bench_noise.c" "$src/cli/bench/stats.c" 2>"$TMP/cc.err"; then
	"$TMP/bench_noise" >"$TMP/noise.tap"
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "bench noise: ${line#* - }" ;;
		"not ok "*) not_ok "bench noise: ${line#* - }" ;;
		esac
	done <"$TMP/noise.tap"
else
	not_ok "tests/bench_noise.c compiles" "$(head -c 400 "$TMP/cc.err")"
fi

expect_status 0 "bench --quick runs" -- "$SYSCAGE" bench --quick
cp "$TMP/out" "$TMP/quick.txt"
for section in baseline cache stack length compare; do
	expect_grep "$TMP/quick.txt" "^$section: " "--quick prints the $section section"
done
expect_grep "$TMP/quick.txt" '^BPF JIT: (on|off|unreadable)' "the JIT state is reported"
expect_grep "$TMP/quick.txt" '^libseccomp: ([0-9]+(\.[0-9]+)*|libseccomp not found, skipped)$' \
	"libseccomp is found or said to be skipped"
expect_grep "$TMP/quick.txt" '^  no filter +0 +- +0 +[0-9]+\.[0-9] +[0-9]+\.[0-9]-[0-9]+\.[0-9]\*? ' \
	"the no-filter row has a time and its middle half"
expect_grep "$TMP/quick.txt" '^\(ns/call: the median (CPU|wall-clock) time per call' "the header says which clock"
expect_grep "$TMP/quick.txt" '^  deny-open \(classic 6 insns\) +6 +yes ' \
	"the classic filter is 6 instructions and cacheable for getppid"
expect_grep "$TMP/quick.txt" '^  deny-open, uncacheable +7 +no ' "its uncacheable variant is not"
expect_grep "$TMP/quick.txt" '^  4096 insns, uncacheable +4096 +no +4096 ' "the longest filter runs every instruction"
expect_grep "$TMP/quick.txt" '^  16 x deny-open, uncacheable +112 ' "stacks count every copy"
if grep -q '^libseccomp: [0-9]' "$TMP/quick.txt"; then
	expect_grep "$TMP/quick.txt" '^  docker-default: libseccomp -O2 +personality ' \
		"libseccomp -O2 is timed on the argument-checked call"
	expect_grep "$TMP/quick.txt" '^  syscage / libseccomp -O2 on docker-default: length [0-9.]+x' \
		"the ratio to libseccomp is printed"
else
	expect_grep "$TMP/quick.txt" '^note: libseccomp not found, skipped$' "the skip is noted"
fi

expect_status 0 "--json runs" -- "$SYSCAGE" bench --quick --json --only baseline,compare
if python3 - "$TMP/out" >"$TMP/py" 2>&1 <<'EOF'; then ok "--json is valid JSON with the expected keys"; else not_ok "--json is valid JSON with the expected keys" "$(cat "$TMP/py")"; fi
import json, sys
doc = json.load(open(sys.argv[1]))
for key in ("version", "syscall", "kernel", "cpu", "reps", "clock", "jit", "libseccomp", "sections"):
    assert key in doc, key
assert doc["clock"] in ("cpu", "wall"), doc["clock"]
assert set(doc["jit"]) == {"enable", "harden"}
assert set(doc["sections"]) == {"baseline", "compare"}, doc["sections"].keys()
rows = doc["sections"]["baseline"]
assert [r["label"] for r in rows][:2] == ["no filter", "deny-open (classic 6 insns)"], rows
for r in rows + doc["sections"]["compare"]:
    assert r["ok"] and r["ns_per_call"] > 0 and r["min_ns"] <= r["ns_per_call"] <= r["max_ns"], r
    assert r["min_ns"] <= r["q1_ns"] <= r["ns_per_call"] <= r["q3_ns"] <= r["max_ns"], r
    assert isinstance(r["noisy"], bool), r
    if "overhead_pct" in r:
        assert isinstance(r["overhead_within_noise"], bool), r
assert "overhead_pct" in rows[1] and rows[1]["instructions"] == 6
if doc["libseccomp"] is not None:
    comps = {r["compiler"] for r in doc["sections"]["compare"] if "compiler" in r}
    assert comps == {"syscage", "libseccomp-O1", "libseccomp-O2"}, comps
EOF

expect_status 0 "--plot writes a chart" -- "$SYSCAGE" bench --quick --only length --plot "$TMP/chart.svg"
if python3 - "$TMP/chart.svg" >"$TMP/py" 2>&1 <<'EOF'; then ok "the chart is an SVG document with bars and labels"; else not_ok "the chart is an SVG document with bars and labels" "$(cat "$TMP/py")"; fi
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg", root.tag
texts = [t.text or "" for t in root.iter(ns + "text")]
assert any("4096 insns" in t for t in texts), texts
assert any("nanoseconds per call" in t and "middle half" in t for t in texts), texts
assert any(l.get("stroke-width") == "5" for l in root.iter(ns + "line")), "no spread drawn"
assert len(list(root.iter(ns + "rect"))) >= 4
EOF
if command -v xmllint >/dev/null; then
	if xmllint --noout "$TMP/chart.svg" 2>"$TMP/xl"; then ok "xmllint accepts the chart"; else not_ok "xmllint accepts the chart" "$(cat "$TMP/xl")"; fi
fi
expect_grep "$TMP/out" '^length: ' "--plot still prints the table"
if ls -A "$TMP" | grep -q '^\.syscage-'; then not_ok "no temporary file is left beside the chart"; else ok "no temporary file is left beside the chart"; fi
if grep -q '^baseline: ' "$TMP/out"; then not_ok "--only length prints no other section"; else ok "--only length prints no other section"; fi

# kcmp is denied by the default profile's first rules and allowed by a later
# group: libseccomp, which has no rule order, must still be handed the denial.
if grep -q '^libseccomp: [0-9]' "$TMP/quick.txt"; then
	expect_status 0 "compare times a denied call" -- "$SYSCAGE" bench --quick --only compare --syscall kcmp
	expect_grep "$TMP/out" '^  default: libseccomp -O2 +kcmp +[0-9]+ +no ' \
		"libseccomp's filter for the default profile keeps kcmp's denial (not cached as allowed)"
	expect_grep "$TMP/out" '^  syscage / libseccomp -O2 on default: .*kcmp: per call ([0-9.]+x|within the noise) \(a filter answers instead of the syscall\)' \
		"a denied call gets no filter-only ratio"
fi

expect_status 0 "--syscall times another call" -- "$SYSCAGE" bench --quick --only baseline --syscall getuid
expect_grep "$TMP/out" '^syscage bench: getuid on ' "the header names it"

expect_status 0 "--progress reports on stderr" -- "$SYSCAGE" bench --quick --only length --progress
expect_grep "$TMP/err" '^syscage bench: round 1/[0-9]+ \[1/[0-9]+\] baseline: no filter' "progress lines count rounds and measurements"

expect_status 2 "an unknown syscall is refused" -- "$SYSCAGE" bench --syscall getppdi
expect_grep "$TMP/err" "unknown syscall 'getppdi' on [a-z0-9_]+; did you mean 'getppid'\?" "with a did-you-mean hint"
expect_status 2 "a syscall that would end the loop is refused" -- "$SYSCAGE" bench --syscall exit_group
expect_grep "$TMP/err" "'exit_group' cannot be timed in a loop" "and the reason is given"
expect_status 2 "an unknown section is refused" -- "$SYSCAGE" bench --only nosuch
expect_grep "$TMP/err" "unknown section 'nosuch' \(baseline, cache, stack, length, compare or fuse\)" "listing the sections"
expect_status 2 "--reps 0 is refused" -- "$SYSCAGE" bench --reps 0
expect_grep "$TMP/err" "--reps wants a number from 1 to [0-9]+, not '0'" "naming the range"
expect_status 2 "an unknown option is refused" -- "$SYSCAGE" bench --fast
expect_grep "$TMP/err" "unknown option '--fast'" "naming the option"
expect_status 2 "a missing option argument is refused" -- "$SYSCAGE" bench --plot
expect_grep "$TMP/err" "option '--plot' needs an argument" "naming the option"
expect_status 2 "an unknown policy is refused" -- "$SYSCAGE" bench --quick -p "$TMP/none.policy"
expect_status 2 "an unwritable plot path fails" -- "$SYSCAGE" bench --quick --only baseline --plot "$TMP/no/dir/x.svg"
expect_grep "$TMP/err" "cannot write '$TMP/no/dir/x.svg'" "naming the file"
expect_status 0 "--help" -- "$SYSCAGE" bench --help
expect_grep "$TMP/out" '^usage: syscage bench' "prints the usage"
