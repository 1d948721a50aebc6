#!/usr/bin/env python3
"""The shared libraries load with few relocations: tables keep names in string pools or in
place, not as a pointer each (docs/ARCHITECTURE.md, "Tables as data").

  check-relocations.py LIBRARY:MAX...

Counts the dynamic relocations `readelf -r` lists for each LIBRARY and fails above MAX,
naming the symbols that hold the most.  Skipped, by name, without readelf.
TAP output, like tests/cli/*.sh."""
import bisect
import collections
import shutil
import subprocess
import sys


def relocation_offsets(path):
    out = subprocess.run(["readelf", "-rW", path], capture_output=True, text=True,
                         check=True).stdout
    offsets = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[2].startswith("R_"):
            try:
                offsets.append((int(fields[0], 16), fields[2]))
            except ValueError:
                pass
    return offsets


def holders(path, offsets, top=8):
    """The symbols whose storage holds the most relocations, as 'COUNT NAME'."""
    if not shutil.which("nm"):
        return []
    syms = []
    for line in subprocess.run(["nm", "-S", "--defined-only", path], capture_output=True,
                               text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 4:
            syms.append((int(f[0], 16), int(f[1], 16), f[3]))
    syms.sort()
    starts = [s[0] for s in syms]
    count = collections.Counter()
    for off, kind in offsets:
        i = bisect.bisect_right(starts, off) - 1
        inside = i >= 0 and syms[i][0] <= off < syms[i][0] + syms[i][1]
        count[syms[i][2] if inside else "(%s)" % kind] += 1
    return ["%d %s" % (n, name) for name, n in count.most_common(top)]


def main(args):
    if not shutil.which("readelf"):
        print("1..0 # SKIP readelf is not installed (binutils)")
        return 0
    status = 0
    for n, arg in enumerate(args, 1):
        path, _, bound = arg.rpartition(":")
        offsets = relocation_offsets(path)
        ok = len(offsets) <= int(bound)
        print("%s %d - %s: %d relocations, at most %s" % (
            "ok" if ok else "not ok", n, path, len(offsets), bound))
        if not ok:
            print("# the symbols that hold the most:")
            for h in holders(path, offsets):
                print("#   " + h)
            status = 1
    print("1..%d" % len(args))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
