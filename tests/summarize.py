#!/usr/bin/env python3
"""Reads the log `meson test` writes and prints one closing line that counts test cases:

    skipped: i386-emulation (6), x32 (2)
    N passed, N failed, N skipped

Cases are cmocka tests and TAP checks.  A test that names a missing kernel feature prints
"SKIP: <feature>: <what>" (cmocka) or "ok N - <name> # SKIP <feature>" (TAP); a skip without a
feature name is reported as such, since every skip must say what it waits for.  A test that
crashed or timed out without a counted failure counts as one failure.  Exits 1 on any failure.

With --forbid-skip A,B (the kernel matrix, for the features a guest kernel is booted with),
a skip by one of those names counts as a failure too.

usage: tests/summarize.py BUILD/meson-logs/testlog.json [--slowest N] [--forbid-skip A,B]
"""
import collections
import json
import re
import sys

CMOCKA = {
    "passed": re.compile(r"^\[  PASSED  \] (\d+) test"),
    "failed": re.compile(r"^\[  FAILED  \] (\d+) test"),
    "skipped": re.compile(r"^\[  SKIPPED \] (\d+) test"),
}
MARKER = re.compile(r"^SKIP: ([A-Za-z0-9_.-]+): ")
TAP_OK = re.compile(r"^ok \d+")
TAP_NOT_OK = re.compile(r"^not ok \d+")
TAP_SKIP = re.compile(r"^ok \d+.*# SKIP ([A-Za-z0-9_.-]+)?")


def count_output(text):
    """Passed, failed, skipped and the skipped features of one test's output."""
    cmocka = {key: 0 for key in CMOCKA}
    tap = collections.Counter()
    features = collections.Counter()
    for line in text.splitlines():
        for key, pattern in CMOCKA.items():
            m = pattern.match(line)
            if m:
                cmocka[key] = int(m.group(1))  # the last summary of the binary wins
        m = MARKER.match(line)
        if m:
            features[m.group(1)] += 1
            continue
        m = TAP_SKIP.match(line)
        if m:
            tap["skipped"] += 1
            features[m.group(1) or "unnamed"] += 1
        elif TAP_OK.match(line):
            tap["passed"] += 1
        elif TAP_NOT_OK.match(line):
            tap["failed"] += 1
    markers = sum(features.values()) - tap["skipped"]
    unnamed = cmocka["skipped"] - markers
    if unnamed > 0:
        features["unnamed"] += unnamed
    passed = cmocka["passed"] + tap["passed"]
    failed = cmocka["failed"] + tap["failed"]
    skipped = max(cmocka["skipped"], markers) + tap["skipped"]
    return passed, failed, skipped, features


def failed_check_lines(text):
    """The "not ok" lines of a TAP script and the "#" detail lines under each: what failed,
    even when it happened long before the output's last lines."""
    lines, keep = [], False
    for line in text.splitlines():
        if TAP_NOT_OK.match(line):
            keep = True
        elif not line.startswith("#"):
            keep = False
        if keep:
            lines.append(line)
    return lines


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    slowest = int(argv[argv.index("--slowest") + 1]) if "--slowest" in argv else 8
    forbidden = set()
    if "--forbid-skip" in argv:
        forbidden = set(argv[argv.index("--forbid-skip") + 1].split(","))
    totals = collections.Counter()
    features = collections.Counter()
    failing = []
    durations = []
    with open(argv[1], encoding="utf-8") as log:
        for line in log:
            entry = json.loads(line)
            out = entry.get("stdout") or ""
            if entry.get("stderr"):
                out += "\n" + entry["stderr"]
            passed, failed, skipped, feats = count_output(out)
            result = entry.get("result", "")
            if result not in ("OK", "SKIP", "EXPECTEDFAIL") and failed == 0:
                failed = 1  # crashed, timed out, or failed outside a counted case
            if result == "SKIP" and skipped == 0:
                skipped, feats = 1, feats + collections.Counter(unnamed=1)
            totals.update(passed=passed, failed=failed, skipped=skipped)
            features.update(feats)
            durations.append((entry.get("duration", 0.0), entry["name"]))
            if failed:
                failing.append((entry["name"], result, out))

    for name, result, out in failing:
        failed_checks = failed_check_lines(out)
        if failed_checks:
            print(f"--- {name} ({result}), failed checks:")
            for line in failed_checks[:60]:
                print(f"    {line}")
        print(f"--- {name} ({result}), last lines:")
        for line in out.splitlines()[-40:]:
            print(f"    {line}")
    if durations:
        durations.sort(reverse=True)
        print("slowest: " + ", ".join(f"{n} {d:.0f}s" for d, n in durations[:slowest]))
    if failing:
        print("failing: " + " ".join(name for name, _, _ in failing))
    if features:
        print("skipped: " + ", ".join(f"{f} ({n})" for f, n in sorted(features.items())))
    wrongly = {f: n for f, n in features.items() if f in forbidden}
    if wrongly:
        print("skipped, though this kernel has them: "
              + ", ".join(f"{f} ({n})" for f, n in sorted(wrongly.items())))
        totals["failed"] += sum(wrongly.values())
    print(f"{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped")
    return 1 if totals["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
