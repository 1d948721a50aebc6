#!/usr/bin/env python3
"""Each shared library exports exactly the names its linker map lists, and no name leaves two.

  check-exports.py MAP LIBRARY [MAP LIBRARY ...]

A map lists every exported name explicitly (no wildcard in a global: list), each in one version
node (lib/libsyscage.map says how releases add nodes); the drop-in libseccomp's map has no node,
as libseccomp's binaries carry unversioned references.  For each library the test fails on a
name it exports that its map does not list, a name its map lists that it does not export, a
name listed twice or exported at another node than its map's, and a name exported by two of
the libraries.  It reads the dynamic symbol tables with nm -D (binutils); without nm it skips.
TAP output, like tests/cli/*.sh."""
import os
import re
import shutil
import subprocess
import sys

NODE = re.compile(r"(?:(\w[\w.]*)\s*)?\{(.*?)\}\s*([\w.]*)\s*;", re.S)


def read_map(path):
    """[(node or None, [names])] of the global: lists of the linker map at @path."""
    text = re.sub(r"/\*.*?\*/", "", open(path, encoding="utf-8").read(), flags=re.S)
    nodes = []
    for node, body, _parent in NODE.findall(text):
        names = []
        scope = "global"
        for item in re.split(r";", body):
            item = item.strip()
            m = re.match(r"(global|local)\s*:\s*(.*)", item, re.S)
            if m:
                scope, item = m.group(1), m.group(2).strip()
            if item and scope == "global":
                names.append(item)
        nodes.append((node or None, names))
    return nodes


def exports(lib):
    """{name: version node or None} of what @lib's dynamic table defines (not the nodes)."""
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True,
                         text=True).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 3 or parts[1] == "A":
            continue
        name, _, node = parts[2].partition("@")
        found[name] = node.lstrip("@") or None
    return found


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = False

    def check(self, ok, name, detail=()):
        self.n += 1
        print(f"{'ok' if ok else 'not ok'} {self.n} - {name}")
        for d in detail[:30]:
            print(f"# {d}")
        if len(detail) > 30:
            print(f"# ... {len(detail) - 30} more")
        self.failed |= not ok

    def skip(self, name, why):
        self.n += 1
        print(f"ok {self.n} - {name} # SKIP {why}")


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__, file=sys.stderr)
        return 2
    pairs = list(zip(argv[0::2], argv[1::2]))
    tap = Tap()
    if not shutil.which("nm"):
        for _map, lib in pairs:
            tap.skip(f"{os.path.basename(lib)} exports what its map lists", "nm")
        print(f"1..{tap.n}")
        return 0

    owner = {}  # name -> libraries exporting it
    for map_path, lib in pairs:
        base = os.path.basename(lib)
        listed = {}
        bad = []
        for node, names in read_map(map_path):
            for n in names:
                if any(c in n for c in "*?["):
                    bad.append(f"{n}: a pattern, not a name")
                elif n in listed:
                    bad.append(f"{n} is listed twice")
                listed[n] = node
        tap.check(not bad, f"{os.path.basename(map_path)} lists each name once, no pattern", bad)

        got = exports(lib)
        unlisted = sorted(n for n in got if n not in listed)
        tap.check(not unlisted, f"{base} exports no name its map leaves out",
                  [f"{n} is exported but not in {os.path.basename(map_path)}" for n in unlisted])
        missing = sorted(n for n in listed if n not in got)
        tap.check(not missing, f"{base} exports every name its map lists",
                  [f"{n} is listed but not exported" for n in missing])
        wrong = sorted(f"{n} is exported at {got[n] or 'no node'}, listed at "
                       f"{listed[n] or 'no node'}" for n in got
                       if n in listed and got[n] != listed[n])
        tap.check(not wrong, f"{base} exports each name at its map's version node", wrong)
        for n in got:
            owner.setdefault(n, []).append(base)

    twice = sorted(f"{n}: {', '.join(libs)}" for n, libs in owner.items() if len(libs) > 1)
    tap.check(not twice, "no name is exported by two libraries", twice)
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
