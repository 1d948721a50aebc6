#!/usr/bin/env bash
# syscage bench: every section runs and prints, JSON and SVG are well formed,
# bad usage exits 2 with a clear message.  No assertion is about speed: the
# numbers only have to be there, be positive, never fall below the same
# call's no-filter row, and say which clock and which syscall they are.
# The statistics on made-up samples are tests/test_bench_stats.c.
. "$(dirname "$0")/../cli_lib.bash"

expect_status 0 "bench --quick runs" -- "$SYSCAGE" bench --quick
cp "$TMP/out" "$TMP/quick.txt"
for section in baseline cache stack length compare; do
	expect_grep "$TMP/quick.txt" "^$section: " "--quick prints the $section section"
done
expect_grep "$TMP/quick.txt" '^BPF JIT: (on|off|unreadable)' "the JIT state is reported"
expect_grep "$TMP/quick.txt" '^libseccomp: ([0-9]+(\.[0-9]+)*|libseccomp not found, skipped)$' \
	"libseccomp is found or said to be skipped"
expect_grep "$TMP/quick.txt" '^  no filter +getppid +0 +- +0 +[0-9]+\.[0-9] +[0-9]+\.[0-9]-[0-9]+\.[0-9]\*? ' \
	"the no-filter row names its call and has a time and its middle half"
expect_grep "$TMP/quick.txt" '^\(ns/call: the median CPU time per call over the repetitions, or wall-clock time on the rows that say so' \
	"the header says the figures are CPU time unless a row says otherwise"
expect_grep "$TMP/quick.txt" "'noise' unless the medians differ by more than both middle halves together" \
	"the header states the noise rule"
expect_grep "$TMP/quick.txt" '^  deny-open \(classic 6 insns\) +getppid +6 +yes ' \
	"the classic filter is 6 instructions and cacheable for getppid"
expect_grep "$TMP/quick.txt" '^  deny-open, uncacheable +getppid +7 +no ' "its uncacheable variant is not"
expect_grep "$TMP/quick.txt" '^  4096 insns, uncacheable +getppid +4096 +no +4096 ' "the longest filter runs every instruction"
expect_grep "$TMP/quick.txt" '^  16 x deny-open, uncacheable +getppid +112 ' "stacks count every copy"
# Every table row names its call: the column after the label is a syscall, with its arguments
# when it has any.
if awk '/^  filter +call /{table=1; next} /^$|^  syscage \/ /{table=0} table && /^  [^ ]/ {
		if ($0 !~ /  [a-z_0-9]+(\(0x[0-9a-f]+(, 0x[0-9a-f]+)*\))? +[0-9]+ +(yes|no|-) +[0-9]+ /) { print; bad=1 }
	} END { exit bad }' "$TMP/quick.txt" >"$TMP/unnamed"; then
	ok "every table row names its syscall"
else
	not_ok "every table row names its syscall" "$(head -5 "$TMP/unnamed")"
fi
if grep -q '^libseccomp: [0-9]' "$TMP/quick.txt"; then
	expect_grep "$TMP/quick.txt" '^  docker-default: libseccomp -O2 +personality\(0xffffffff\) ' \
		"libseccomp -O2 is timed on the argument-checked call"
	expect_grep "$TMP/quick.txt" '^  syscage / libseccomp -O2 on docker-default: length [0-9.]+x' \
		"the ratio to libseccomp is printed"
else
	expect_grep "$TMP/quick.txt" '^note: libseccomp not found, skipped$' "the skip is noted"
fi

expect_status 0 "--json runs" -- "$SYSCAGE" bench --quick --json --only baseline,compare,fuse --plot "$TMP/rows.svg"
if python3 - "$TMP/out" "$TMP/rows.svg" >"$TMP/py" 2>&1 <<'EOF'; then ok "--json is valid JSON with the expected keys"; else not_ok "--json is valid JSON with the expected keys" "$(cat "$TMP/py")"; fi
import json, sys
doc = json.load(open(sys.argv[1]))
for key in ("version", "syscall", "kernel", "cpu", "reps", "clock", "jit", "libseccomp", "sections"):
    assert key in doc, key
assert doc["clock"] in ("cpu", "wall", "mixed"), doc["clock"]
assert set(doc["jit"]) == {"enable", "harden"}
assert set(doc["sections"]) == {"baseline", "compare", "fuse"}, doc["sections"].keys()
rows = doc["sections"]["baseline"]
assert [r["label"] for r in rows][:2] == ["no filter", "deny-open (classic 6 insns)"], rows
for r in rows + doc["sections"]["compare"] + doc["sections"]["fuse"]:
    assert r["call"] and r["call_text"].startswith(r["call"]), r
    if not r["ok"]:
        assert r["untrusted"] and r["error"].startswith("untrusted: "), r
        continue
    assert r["ns_per_call"] > 0 and r["min_ns"] <= r["ns_per_call"] <= r["max_ns"], r
    assert r["min_ns"] <= r["q1_ns"] <= r["ns_per_call"] <= r["q3_ns"] <= r["max_ns"], r
    assert isinstance(r["noisy"], bool), r
    assert r["clock"] in ("cpu", "wall"), r
    assert r["reps_used"] + r["reps_other_clock"] + r["reps_below_no_filter"] == doc["reps"], r
    if "overhead_pct" in r:
        assert isinstance(r["overhead_within_noise"], bool), r
assert "overhead_pct" in rows[1] and rows[1]["instructions"] == 6
clocks = {r["clock"] for s in doc["sections"].values() for r in s if r["ok"]}
assert doc["clock"] == (clocks.pop() if len(clocks) == 1 else "mixed"), (doc["clock"], clocks)
if doc["libseccomp"] is not None:
    comps = {r["compiler"] for r in doc["sections"]["compare"] if "compiler" in r}
    assert comps == {"syscage", "libseccomp-O1", "libseccomp-O2"}, comps
EOF
# No filtered row that lets its call through is faster than its no-filter row (the same call,
# in its own section, else in baseline): not its fastest repetition, and so no figure of it.
if python3 - "$TMP/out" >"$TMP/py" 2>&1 <<'EOF'; then ok "no row is faster than the same call with no filter"; else not_ok "no row is faster than the same call with no filter" "$(cat "$TMP/py")"; fi
import json, sys
doc = json.load(open(sys.argv[1]))
secs = doc["sections"]
def bare(section, call):
    for name in (section, "baseline"):
        for r in secs[name]:
            if r["filters"] == 0 and r["call_text"] == call:
                return r
    raise AssertionError("no no-filter row for %s in %s" % (call, section))
checked = 0
for name, rows in secs.items():
    for r in rows:
        if r["filters"] == 0 or not r["ok"]:
            continue
        b = bare(name, r["call_text"])
        if b["ok"] and b["result"] == r["result"] and (b["clock"] == "cpu" or r["clock"] == "wall"):
            assert r["min_ns"] >= b["min_ns"], (r, b)
            checked += 1
assert checked >= 5, checked
EOF
# The chart of that same run labels a row 'wall clock' exactly when its JSON says so.
if python3 - "$TMP/out" "$TMP/rows.svg" >"$TMP/py" 2>&1 <<'EOF'; then ok "only the rows timed by the wall clock say so"; else not_ok "only the rows timed by the wall clock say so" "$(cat "$TMP/py")"; fi
import json, sys, xml.etree.ElementTree as ET
doc = json.load(open(sys.argv[1]))
ns = "{http://www.w3.org/2000/svg}"
labels = [t.text or "" for t in ET.parse(sys.argv[2]).getroot().iter(ns + "text")
          if t.get("text-anchor") == "end"]
rows = [r for s in ("baseline", "compare", "fuse") for r in doc["sections"][s] if r["ok"]]
assert len(labels) == len(rows), (labels, len(rows))
for label, r in zip(labels, rows):
    assert label.startswith(r["label"] + " (" + r["call_text"]), (label, r)
    assert label.endswith(", wall clock)") == (r["clock"] == "wall"), (label, r)
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
