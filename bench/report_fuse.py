#!/usr/bin/env python3
"""The fuse section of bench/report.sh: tables and the sentences that explain them,
every number taken from the measurement.

  report_fuse.py BENCH.json|-          `syscage bench --only fuse,length --json`
  report_fuse.py --loop FILE CALLS     the syscall loops under perf stat (bench/fuse-loop.sh)
  report_fuse.py --profile LOOP PROFILE CALLS   where personality's time goes (perf record)
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
            # a ratio only where one filter's row stands apart from no filter's
            if one and base and apart(base, one) and one["ns_per_call"] > base["ns_per_call"]:
                if r is one:
                    vs = "1"
                elif own is not None:
                    vs = "%.2fx" % (own / (one["ns_per_call"] - base["ns_per_call"]))
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
    print()
    for call in ("getppid", "personality"):
        rs = {cfg: [cpu(v) for v in runs.get((call, cfg), [])] for cfg in ("none", "one", "fused")}
        if not all(rs.values()):
            continue
        n, o, f = (statistics.median(rs[c]) for c in ("none", "one", "fused"))
        if o - n <= 0:
            print("%s: one filter's CPU time is not above no filter's on this run: no ratio." % call)
            continue
        ratio = (f - n) / (o - n)
        overlap = min(rs["fused"]) <= max(rs["one"]) and min(rs["one"]) <= max(rs["fused"])
        print("%s: the fused filter's own CPU time is %.2fx one filter's (%.1f against %.1f ns a "
              "call); %s%s." % (call, ratio, f - n, o - n,
                                "within %.2fx" % TARGET if ratio <= TARGET else "NOT within %.2fx" % TARGET,
                                ", one run each: no spread to judge it by" if len(rs["one"]) < 2 else
                                ", and the runs of the two overlap (noise)" if overlap else
                                ", the runs of the two apart"))
    return 0


def read_loop(path):
    runs = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 7 and f[3] == "ns/call":
            ev = dict(x.split("=", 1) for x in f[7:] if "=" in x)
            runs.setdefault((f[0], f[1]), []).append(ev)
    return runs


def kind(space, sym):
    import re
    if space == ".":
        return "user"
    if "seccomp" in sym:
        return "seccomp"
    # the filters' JITed code: seccomp's programs have no name in kallsyms, so perf
    # shows their addresses in the module area where the JIT puts its images
    if re.match(r"bpf_prog_[0-9a-f]{16}_?$|0xffffffffc0", sym):
        return "filter"
    if re.search(r"bpf|htab|_map_", sym):
        return "other BPF"
    return "kernel"


def profile(loop_path, prof_path, calls):
    runs = read_loop(loop_path)
    share = {}
    for line in open(prof_path):
        f = line.split(None, 3)
        if len(f) == 4:
            k = share.setdefault(f[0], {})
            k[kind(f[2], f[3].strip())] = k.get(kind(f[2], f[3].strip()), 0) + float(f[1])
    if not share:
        print("perf record gave no samples (the kernel's symbols need root)")
        return 0
    kinds = ["seccomp", "filter", "other BPF", "kernel", "user"]
    print("personality(0xffffffff): where the CPU time of a call goes, by perf record -e cpu-clock "
          "(its share of the samples times the CPU ns a call above), ns a call")
    print("| filters | seccomp's code | JITed filter code (unnamed, in the JIT's area) | other BPF programs | rest of the kernel | user space |")
    print("|---|---|---|---|---|---|")
    per = {}
    for cfg in ("none", "one", "stack", "fused"):
        if cfg not in share or ("personality", cfg) not in runs:
            continue
        ns = statistics.median(float(e.get("task-clock", "nan")) for e in runs[("personality", cfg)]) * 1e6 / calls
        tot = sum(share[cfg].values()) or 1
        per[cfg] = {k: ns * share[cfg].get(k, 0) / tot for k in kinds}
        print("| %s | %s |" % (cfg, " | ".join("%.1f" % per[cfg][k] for k in kinds)))
    if all(c in per for c in ("one", "fused", "stack")):
        f = {c: per[c]["seccomp"] + per[c]["filter"] for c in per}
        print()
        print("seccomp's code and the filters' together: %.1f ns a call for one filter, %.1f for the "
              "fused filter (%+.1f), %.1f for the stack of 8 (%+.1f); the rest of each row is the "
              "syscall itself and whatever else the kernel ran on that path, which the filters do "
              "not change." % (f["one"], f["fused"], f["fused"] - f["one"], f["stack"],
                               f["stack"] - f["one"]))
        if per["one"]["other BPF"] > 1:
            print("Other BPF code ran on every call (%.1f ns a call with one filter): tracing "
                  "attached elsewhere on the machine (whether bpftool lists it or not), such as a "
                  "syscall tracepoint, which slows every syscall alike." % per["one"]["other BPF"])
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--profile":
        sys.exit(profile(sys.argv[2], sys.argv[3], int(sys.argv[4])))
    if len(sys.argv) == 4 and sys.argv[1] == "--loop":
        sys.exit(loop(sys.argv[2], int(sys.argv[3])))
    if len(sys.argv) == 2:
        sys.exit(bench(sys.argv[1]))
    print(__doc__.strip(), file=sys.stderr)
    sys.exit(2)
