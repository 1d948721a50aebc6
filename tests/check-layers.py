#!/usr/bin/env python3
"""Arrows between layers point down: tools/layers.txt gives each directory of lib/ (and the
public headers, cli/ and compat/) a level, and a layer may use only lower levels and itself.

  check-layers.py ARCHIVE...

Checked: every #include of lib/, include/syscage/, cli/ and compat/ (a public header belongs
to the layer layers.txt names for it), and every symbol the objects in the ARCHIVEs (the
internal libraries, the command's and the drop-in's objects; members are named after their
source, lib_<dir>_<file>.c.o) take from another layer.  TAP output."""
import glob
import os
import re
import sys

from objfiles import includes, member_symbols

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def read_layers():
    level, header_layer = {}, {}
    with open(os.path.join(SRC, "tools/layers.txt"), encoding="utf-8") as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            level[words[0]] = int(words[1])
            for h in words[2:]:
                header_layer["syscage/" + h] = words[0]
    return level, header_layer


def allowed(level, user, used):
    return user == used or level[used] < level[user]


def layer_of_source(rel):
    """lib/bpf/emu.c -> bpf; include/syscage/emu.h -> None (by header); cli/x.c -> cli."""
    parts = rel.split("/")
    if parts[0] == "lib":
        return parts[1]
    if parts[0] in ("cli", "compat"):
        return parts[0]
    return None


def layer_of_path(rel, header_layer):
    """The layer a file belongs to, from its path relative to the tree, or None."""
    parts = rel.split("/")
    if parts[0] == "include" and len(parts) == 3 and parts[1] == "syscage":
        return header_layer.get("syscage/" + parts[2], "?")
    return layer_of_source(rel)


def include_edges(header_layer):
    """(file, its layer, included header, that header's layer; "?" when no layer has it).
    Quoted includes are resolved as the compiler does: beside the file first, then in lib/
    (for lib/) or cli/ (for the command), so "../../cli/run.h" is seen for what it is."""
    files = (glob.glob(os.path.join(SRC, "lib/*/*.[ch]")) +
             glob.glob(os.path.join(SRC, "include/syscage/*.h")) +
             glob.glob(os.path.join(SRC, "cli/**/*.[ch]"), recursive=True) +
             glob.glob(os.path.join(SRC, "compat/**/*.[ch]"), recursive=True))
    for path in sorted(files):
        rel = os.path.relpath(path, SRC)
        user = layer_of_path(rel, header_layer)
        for quote, inc in includes(path):
            if inc.startswith("syscage/"):
                yield rel, user, inc, header_layer.get(inc, "?")
                continue
            if quote != '"':
                continue  # the system's headers
            roots = [os.path.dirname(path), os.path.join(SRC, "lib"), os.path.join(SRC, "cli")]
            found = [os.path.normpath(os.path.join(r, inc)) for r in roots
                     if os.path.exists(os.path.join(r, inc))]
            if not found:
                yield rel, user, inc, "?"
                continue
            target = os.path.relpath(found[0], SRC)
            yield rel, user, inc, layer_of_path(target, header_layer) or target


def table_in_architecture_md(level):
    """Differences between docs/ARCHITECTURE.md's layer table and tools/layers.txt."""
    want = {}
    for name, lvl in level.items():
        shown = {"cli": "cli/", "compat": "compat/"}.get(name, name)
        if name != "umbrella":
            want.setdefault(lvl, set()).add(shown)
    got = {}
    with open(os.path.join(SRC, "docs/ARCHITECTURE.md"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\|\s*(\d+)\s*\|([^|]*)\|", line)
            if m:
                got[int(m.group(1))] = set(re.findall(r"`([^`]+)`", m.group(2)))
    return [f"level {lvl}: ARCHITECTURE.md has {sorted(got.get(lvl, set()))}, "
            f"tools/layers.txt {sorted(want.get(lvl, set()))}"
            for lvl in sorted(set(want) | set(got)) if got.get(lvl, set()) != want.get(lvl, set())]


def member_layer(member):
    name = os.path.basename(member)
    # a source the build wrote (lib/arch/meson.build): named after its build directory
    name = name.replace("meson-generated_.._", "", 1)
    if name.startswith("lib_"):
        return name.split("_")[1]
    if name.startswith("cli_"):
        return "cli"
    return "compat"


def symbol_edges(archives):
    """{(user layer, defining layer): {symbol: {user members}}}"""
    defined, used = {}, []
    for archive in archives:
        for member, kind, name in member_symbols(archive):
            if kind == "U":
                used.append((member_layer(member), name, member))
            elif kind.isupper():
                defined.setdefault(name, member_layer(member))
    edges = {}
    for user, name, member in used:
        owner = defined.get(name)
        if owner and owner != user:
            edges.setdefault((user, owner), {}).setdefault(name, set()).add(member)
    return edges


def main():
    level, header_layer = read_layers()
    n, failed = 0, False

    def check(ok, name, detail):
        nonlocal n, failed
        n += 1
        print(f"{'ok' if ok else 'not ok'} {n} - {name}")
        for d in detail:
            print(f"# {d}")
        failed |= not ok

    dirs = sorted(os.path.basename(d) for d in glob.glob(os.path.join(SRC, "lib/*"))
                  if os.path.isdir(d))
    headers = sorted("syscage/" + os.path.basename(h)
                     for h in glob.glob(os.path.join(SRC, "include/syscage/*.h")))
    missing = [f"lib/{d} has no level" for d in dirs if d not in level]
    missing += [f"include/{h} belongs to no layer" for h in headers if h not in header_layer]
    check(not missing, "tools/layers.txt places every lib/ directory and public header",
          missing + ["add it to tools/layers.txt"] * bool(missing))

    bad, unknown, private = [], [], []
    for rel, user, inc, owner in include_edges(header_layer):
        if rel.startswith("include/") and not inc.startswith("syscage/"):
            private.append(f"{rel} includes \"{inc}\"")
        if owner == "?":
            unknown.append(f"{rel} includes {inc}, which is no header of the tree"
                           if not inc.startswith("syscage/") else
                           f"{rel} includes <{inc}>, which is no public header")
            continue
        if user not in level or owner not in level:
            if owner not in level and owner not in ("cli", "compat") and user in level:
                unknown.append(f"{rel} includes {inc} ({owner}), outside every layer")
            continue  # a lib/ directory without a level is reported above
        if not allowed(level, user, owner):
            bad.append(f"{rel} ({user}, level {level[user]}) includes {inc} "
                       f"({owner}, level {level[owner]})")
    check(not bad, "every #include points to the same or a lower layer", bad)
    check(not unknown, "every quoted #include names a header of the tree, and every "
          "<syscage/*.h> a public one", unknown)
    check(not private, "public headers include only public headers", private)
    diff = table_in_architecture_md(level)
    check(not diff, "docs/ARCHITECTURE.md's layer table is tools/layers.txt", diff)

    bad = []
    for (user, owner), names in sorted(symbol_edges(sys.argv[1:]).items()):
        if user in level and owner in level and not allowed(level, user, owner):
            for name, members in sorted(names.items()):
                bad.append(f"{user} (level {level[user]}) uses {name} of {owner} "
                           f"(level {level[owner]}): {', '.join(sorted(members))}")
    check(not bad, "every symbol a layer takes from another comes from a lower layer", bad)

    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
