#!/usr/bin/env python3
"""The fuse section of bench/report.sh: tables and the sentences that explain them,
every number taken from the measurement.

  report_fuse.py BENCH.json|-          `syscage bench --only fuse,length --json`
  report_fuse.py --loop FILE CALLS     the syscall loops under perf stat (bench/report.sh)
"""
import json
import statistics
import sys

TARGET = 1.05


def apart(a, b):
    """syscage bench's rule (docs/bench.md): two rows differ only when their middle
    halves do not overlap and their medians are further apart than the wider one."""
    wa, wb = a["q3_ns"] - a["q1_ns"], b["q3_ns"] - b["q1_ns"]
    overlap = a["q1_ns"] <= b["q3_ns"] and b["q1_ns"] <= a["q3_ns"]
    return not overlap and abs(a["ns_per_call"] - b["ns_per_call"]) > max(wa, wb)


def slope(rows):
    """ns per executed instruction: least squares over the length section's rows."""
    pts = [(r["executed"], r["ns_per_call"]) for r in rows if r.get("ok") and "ns_per_call" in r]
    if len(pts) < 2:
        return None
    mx = statistics.mean(p[0] for p in pts)
    my = statistics.mean(p[1] for p in pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx else None


def bench(path):
    d = json.load(sys.stdin if path == "-" else open(path))
    fuse = d["sections"].get("fuse")
    if not fuse:
        print("syscage bench ran no fuse section:", "; ".join(d.get("notes", [])))
        return 0
    k = slope(d["sections"].get("length", []))
    print("syscage bench --only fuse, %d rounds, %s time; median ns per call [middle half]" %
          (d["reps"], d["clock"]))
    print("| filter | call | filters | insns | executed | ns/call | middle half | own ns | own vs one filter |")
    print("|---|---|---|---|---|---|---|---|---|")
    groups = {}
    for r in fuse:
        groups.setdefault(r["call"], []).append(r)
    for call, rows in groups.items():
        base = next((r for r in rows if r["filters"] == 0), None)
        one = next((r for r in rows if r["filters"] == 1 and "fused" not in r["label"]), None)
        for r in rows:
            if "ns_per_call" not in r:
                print("| %s | %s | %d | %d | %d | %s | | | |" % (r["label"], call, r["filters"],
                      r["instructions"], r["executed"], r.get("error", "not measured")))
                continue
            own = r["ns_per_call"] - base["ns_per_call"] if base and r is not base else None
            vs = ""
            if own is not None and one and r is not one:
                vs = "%.2fx" % (own / (one["ns_per_call"] - base["ns_per_call"]))
            elif r is one:
                vs = "1"
            print("| %s | %s | %d | %d | %d | %.1f%s | %.1f-%.1f | %s | %s |" % (
                r["label"], call, r["filters"], r["instructions"], r["executed"],
                r["ns_per_call"], " *" if r.get("noisy") else "", r["q1_ns"], r["q3_ns"],
                "%.1f" % own if own is not None else "", vs))
    print()
    if k:
        print("The length section of the same run: %.3f ns per executed instruction "
              "(least squares over its rows)." % k)
    for call, rows in groups.items():
        base = next((r for r in rows if r["filters"] == 0), None)
        one = next((r for r in rows if r["filters"] == 1 and "fused" not in r["label"]), None)
        fused = next((r for r in rows if "fused" in r["label"]), None)
        stack = next((r for r in rows if r["filters"] > 1), None)
        if not (base and one and fused and stack) or any("ns_per_call" not in r for r in (base, one, fused, stack)):
            print("%s: a row is missing; no comparison." % call)
            continue
        o1, of, os_ = (r["ns_per_call"] - base["ns_per_call"] for r in (one, fused, stack))
        print()
        if not apart(base, one) or o1 <= 0:
            print("%s: one filter's row cannot be told from the no-filter row on this run (the "
                  "machine's noise): no ratio of the filters' own time is given." % call)
            continue
        ratio = of / o1
        noise = not apart(one, fused)
        print("%s: the fused filter's own time is %.2fx one filter's (%.1f against %.1f ns a call); %s." % (
            call, ratio, of, o1,
            "within %.2fx" % TARGET if ratio <= TARGET
            else "the two rows cannot be told apart on this run (the machine's noise)" if noise
            else "NOT within %.2fx" % TARGET))
        extra = fused["executed"] - one["executed"]
        if k:
            print("It runs %d instructions where the allow list alone runs %d; the %d more cost "
                  "about %.1f ns at the length section's slope, against a measured difference of "
                  "%.1f ns (the two rows' middle halves are %.1f and %.1f ns wide)." % (
                      fused["executed"], one["executed"], extra, extra * k, of - o1,
                      one["q3_ns"] - one["q1_ns"], fused["q3_ns"] - fused["q1_ns"]))
            if apart(one, stack):
                fixed = o1 - one["executed"] * k
                per = (os_ - o1 - (stack["executed"] - one["executed"]) * k) / (stack["filters"] - 1)
                print("The stack of %d costs %.2fx one filter, not %dx: it runs %d instructions "
                      "over its filters, and of one filter's %.1f ns about %.1f ns do not depend on "
                      "its length (entering the filter path for a call the cache cannot skip, paid "
                      "once however many filters run); each further filter adds about %.1f ns "
                      "besides its instructions." % (
                          stack["filters"], os_ / o1, stack["filters"], stack["executed"], o1,
                          fixed, per))
    return 0


def loop(path, calls):
    runs = {}
    for line in open(path):
        f = line.split()
        if len(f) < 7 or f[3] != "ns/call":
            continue
        call, cfg = f[0], f[1]
        ev = dict(x.split("=", 1) for x in f[7:] if "=" in x)
        runs.setdefault((call, cfg), []).append((float(f[4]), ev))
    if not runs:
        print("no measurement")
        return 1
    hw = all(v[1].get("instructions", "").replace(".", "").isdigit() for rs in runs.values() for v in rs)
    print("syscall loop under perf stat, %d calls a run; CPU ns a call: perf's task-clock over the "
          "calls, median over the runs [min, max]; wall ns a call: the loop's own median round, "
          "median over the runs%s" % (calls, "" if hw else
          "; perf: hardware counters (instructions, cycles) not supported on this machine"))
    print("| call | filters | CPU ns a call | own ns | own vs one filter | wall ns a call |%s" %
          (" instructions a call | cycles a call |" if hw else ""))
    print("|---|---|---|---|---|---|%s" % ("---|---|" if hw else ""))

    def cpu(v):
        return float(v[1].get("task-clock", "nan")) * 1e6 / calls

    for call in ("getppid", "personality"):
        med = {cfg: statistics.median(cpu(v) for v in runs[(call, cfg)])
               for cfg in ("none", "one", "stack", "fused") if (call, cfg) in runs}
        for cfg in ("none", "one", "stack", "fused"):
            rs = runs.get((call, cfg))
            if not rs:
                continue
            ns = [cpu(v) for v in rs]
            own = med[cfg] - med["none"] if cfg != "none" and "none" in med else None
            o1 = med.get("one", 0) - med.get("none", 0)
            vs = ("1" if cfg == "one" else "%.2fx" % (own / o1) if own is not None and o1 > 0 else "")
            row = "| %s | %s | %.1f [%.1f, %.1f] | %s | %s | %.1f |" % (
                call if cfg == "none" else "", cfg, med[cfg], min(ns), max(ns),
                "%.1f" % own if own is not None else "", vs,
                statistics.median(v[0] for v in rs))
            if hw:
                ins = statistics.median(float(v[1]["instructions"]) for v in rs) / calls
                cyc = statistics.median(float(v[1].get("cycles", "nan")) for v in rs) / calls
                row += " %.1f | %.1f |" % (ins, cyc)
            print(row)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--loop":
        sys.exit(loop(sys.argv[2], int(sys.argv[3])))
    if len(sys.argv) == 2:
        sys.exit(bench(sys.argv[1]))
    print(__doc__.strip(), file=sys.stderr)
    sys.exit(2)
