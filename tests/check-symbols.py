#!/usr/bin/env python3
"""The front ends use the libraries' public API only, and the installed archives expose it alone.

  check-symbols.py --cli ARCHIVE --compat ARCHIVE --internal ARCHIVE... --shared LIB...
                   [--installed ARCHIVE...]

cli/ and compat/ may include, of the library's headers, only <syscage/*.h> (their own headers
beside them are theirs), and every library symbol their objects use must be one the shared
libraries export.  The compat library links libsyscage's objects in, so nothing stops it at
link time from calling an internal function; this holds it to the same rule as a program
linked against libsyscage.so: only functions declared SCG_API in the public headers.
Each installed static archive must define no global symbol without the scg_ prefix, and the
prefix is the public API's alone: an internal function or table has none.
TAP output, like tests/cli/*.sh."""
import argparse
import glob
import os
import re
import subprocess
import sys

from objfiles import includes, member_symbols

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

# What the front ends still use of the internals, and why.  Each entry is a debt: remove it
# when the use goes away (the test fails on a stale entry, so the list cannot rot).
#
# By design, not debt: libseccomp's verdict for high x86_64 numbers is a quirk of libseccomp's
# filter layout, which overlapping rules it refuses and which of several matching rules its
# filter lets decide properties of its rule tree, and which of two rules decides where the tree
# is not used a matter of the values its comparisons accept, not API;
# the drop-in and the OCI import share one internal model of each (lib/libseccomp/).
ALLOWED_INCLUDES = {
    ("compat/generate.c", "libseccomp/high_numbers.h"),
    ("compat/generate.c", "libseccomp/cmp_set.h"),
    ("compat/rules.c", "libseccomp/rule_tree.h"),
    ("compat/generate.c", "libseccomp/rule_tree.h"),
    ("compat/generate.c", "libseccomp/overlap.h"),
}
ALLOWED_SYMBOLS = {
    ("compat", "libseccomp_high_add"),
    ("compat", "libseccomp_cmp_empty"),
    ("compat", "libseccomp_cmp_subset"),
    ("compat", "libseccomp_tree_new"),
    ("compat", "libseccomp_tree_add"),
    ("compat", "libseccomp_tree_free"),
    ("compat", "libseccomp_overlap_rules"),
}



def nm(path, *flags):
    out = subprocess.run(["nm", *flags, path], check=True, capture_output=True, text=True)
    return out.stdout.splitlines()


def defined_globals(path):
    """Global symbols an archive or shared object defines (nm -g --defined-only)."""
    names = set()
    for line in nm(path, "-g", "--defined-only"):
        parts = line.split()
        if len(parts) == 3:
            names.add(parts[2].split("@")[0])
    return names


def exported(path):
    """Dynamic symbols a shared library exports."""
    names = set()
    for line in nm(path, "-D", "--defined-only"):
        parts = line.split()
        if len(parts) == 3 and parts[1] != "A":
            names.add(parts[2].split("@")[0])
    return names


def undefined_by_member(path):
    """{member object: undefined symbols} of an archive."""
    uses = {}
    for member, kind, name in member_symbols(path):
        if kind == "U":
            uses.setdefault(member, set()).add(name)
    return uses


def source_of(member):
    """cli_cmd_emu.c.o -> cmd_emu.c; context.c.o -> context.c."""
    name = member[:-2] if member.endswith(".o") else member
    return re.sub(r"^(cli|compat)_", "", name)


def quoted_includes(front):
    """(file, header) for every #include "..." in @front that is not a header of its own."""
    found = []
    for path in sorted(glob.glob(os.path.join(SRC, front, "**/*.[ch]"), recursive=True)):
        rel = os.path.relpath(path, SRC)
        for quote, header in includes(path):
            own = (os.path.exists(os.path.join(SRC, front, header)) or
                   os.path.exists(os.path.join(os.path.dirname(path), header)))
            if quote == '"' and not own and not header.startswith("syscage/"):
                found.append((rel, header))
    return found


TYPE_DEF = re.compile(r"^\s*(?:typedef\s+)?(struct|enum|union)\s+(scg_\w+)\s*\{", re.M)


def internal_prefixed_types():
    """(header, type) for struct/enum/union scg_* defined in lib/ but named in no public header
    (an opaque public type, like struct scg_arch, is defined inside lib/ and that is fine)."""
    public_text = "".join(open(h, encoding="utf-8").read()
                          for h in glob.glob(os.path.join(SRC, "include/syscage/*.h")))
    found = []
    for path in sorted(glob.glob(os.path.join(SRC, "lib/**/*.[ch]"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            for kind, name in TYPE_DEF.findall(f.read()):
                if not re.search(rf"\b{kind}\s+{name}\b", public_text):
                    found.append((os.path.relpath(path, SRC), f"{kind} {name}"))
    return found


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = False

    def check(self, ok, name, detail=()):
        self.n += 1
        print(f"{'ok' if ok else 'not ok'} {self.n} - {name}")
        for d in detail:
            print(f"# {d}")
        self.failed |= not ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--compat")
    ap.add_argument("--internal", nargs="+", action="extend", required=True)
    ap.add_argument("--shared", nargs="+", action="extend", required=True)
    ap.add_argument("--installed", nargs="+", action="extend", default=[])
    a = ap.parse_args()

    tap = Tap()
    library = set().union(*(defined_globals(p) for p in a.internal))
    public = set().union(*(exported(p) for p in a.shared))

    fronts = [("cli", a.cli)] + ([("compat", a.compat)] if a.compat else [])
    for front, archive in fronts:
        includes = quoted_includes(front)
        bad = [f"{f} includes \"{h}\"" for f, h in includes if (f, h) not in ALLOWED_INCLUDES]
        tap.check(not bad, f"{front}/ includes only <syscage/*.h> of the library's headers", bad)

        used = {}
        for member, names in undefined_by_member(archive).items():
            for name in names & library:
                used.setdefault(name, set()).add(source_of(member))
        internal = sorted(n for n in used if n not in public)
        bad = [f"{n} (used by {', '.join(sorted(used[n]))}) is not exported"
               for n in internal if (front, n) not in ALLOWED_SYMBOLS]
        tap.check(not bad, f"{front}/ uses only symbols the shared libraries export", bad)
        stale = [f"{n} is allowed but no longer used" for f, n in ALLOWED_SYMBOLS
                 if f == front and n not in internal]
        stale += [f"{f} is allowed to include \"{h}\" but does not" for f, h in ALLOWED_INCLUDES
                  if f.startswith(front + "/") and (f, h) not in includes]
        tap.check(not stale, f"{front}/: every allowance is still needed", stale)

    prefixed = sorted(n for n in library if n.startswith("scg_") and n not in public)
    bad = [f"{n} is internal: drop the scg_ prefix" for n in prefixed]
    tap.check(not bad, "no internal symbol carries the public scg_ prefix", bad)
    bad = [f"{f} defines {t}, which no public header declares: drop the scg_ prefix"
           for f, t in internal_prefixed_types()]
    tap.check(not bad, "no internal type carries the public scg_ prefix", bad)

    for archive in a.installed:
        names = defined_globals(archive)
        bad = sorted(n for n in names if not n.startswith("scg_"))
        shown = bad[:20] + ([f"... {len(bad) - 20} more"] if len(bad) > 20 else [])
        tap.check(not bad and names, f"{os.path.basename(archive)} defines only scg_* globals",
                  shown)

    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
