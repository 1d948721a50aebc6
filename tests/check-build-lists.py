#!/usr/bin/env python3
"""Every C source in the tree is named by a meson.build, so a new file cannot be left out of
the build (or linger in the tree, built by nothing).  A file counts as named when a
meson.build quotes its path relative to that meson.build's directory, or quotes its bare name
(a loop over names) in its own directory or beside the quoted directory path ('../../fuzz/'),
or when a script compiles it (tests/cli/*.sh, tools/*.sh, tests/vm/vm-run).  TAP output, like tests/cli/*.sh."""
import glob
import os
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SOURCE_DIRS = ["lib", "cli", "compat", "tests", "fuzz", "bench", "tools", "examples"]
builds = {os.path.dirname(m): open(m, encoding="utf-8").read()
          for m in glob.glob("**/meson.build", recursive=True)
          if m.split(os.sep)[0] in SOURCE_DIRS + ["meson.build"]}
scripts = "".join(open(s, encoding="utf-8").read()
                  for s in glob.glob("tests/cli/*.sh") + glob.glob("tools/*.sh")
                  + ["tests/vm/vm-run"])


def named(path):
    name = os.path.splitext(os.path.basename(path))[0]
    for where, text in builds.items():
        rel = os.path.relpath(path, where or ".")
        reldir = os.path.dirname(rel)
        if f"'{rel}'" in text:
            return True
        if f"'{name}'" in text and (reldir == "" or f"'{reldir}/'" in text):
            return True
    return path in scripts


status = 0
sources = sorted(f for d in SOURCE_DIRS for f in glob.glob(f"{d}/**/*.c", recursive=True)
                 if "/corpus/" not in f)
for n, f in enumerate(sources, 1):
    if named(f):
        print(f"ok {n} - {f} is built")
    else:
        print(f"not ok {n} - {f} is named by no meson.build")
        status = 1
print(f"1..{len(sources)}")
sys.exit(status)
