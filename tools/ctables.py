# SPDX-License-Identifier: LGPL-2.1-or-later
"""C output shared by the table generators of tools/: strings go into one pool per
table and rows hold 16-bit offsets into it, so a table carries no pointer and the
shared library needs no load-time relocation for it.  Also the reader of
data/syscalls.csv, for the generators that need the syscall names."""

import re


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Pool:
    """NUL-separated strings, each stored once; offset 0 is the empty string."""

    def __init__(self):
        self.offsets = {"": 0}
        self.strings = [""]
        self.size = 1

    def add(self, s):
        if s not in self.offsets:
            self.offsets[s] = self.size
            self.strings.append(s)
            self.size += len(s.encode()) + 1
        if self.offsets[s] > 0xffff:
            raise SystemExit("string pool past 64 KiB: offsets are 16-bit")
        return self.offsets[s]

    def render(self, name, width=96):
        """The pool as a C definition, strings packed into lines no wider than @width; the
        rows that index it name each string in a comment."""
        out, line = ["const char %s[] =" % name], "\t"
        for s in self.strings:
            cell = c_string(s)[:-1] + '\\0" '
            if len((line + cell).expandtabs(8)) > width and line.strip():
                out.append(line.rstrip())
                line = "\t"
            line += cell
        out.append(line.rstrip())
        out.append(";")
        return out


def number_lines(numbers, indent="\t", width=92):
    """Numbers as comma-separated C lines no wider than @width."""
    out, line = [], indent
    for n in numbers:
        cell = "%s, " % n
        if len(line.expandtabs(8)) + len(cell) > width and line.strip():
            out.append(line.rstrip())
            line = indent
        line += cell
    if line.strip():
        out.append(line.rstrip())
    return out


def render_groups(prefix, entry_type, table, count, groups):
    """Named groups of names as C: @prefix_pool, @prefix_members (offsets into the pool,
    each group's run in order), the array @table of @entry_type { name, summary, first,
    count } and its length @count.  @groups is a list of (name, summary, members)."""
    pool = Pool()
    members, rows = [], []
    for name, summary, names in groups:
        rows.append("\t{ %d, %d, %d, %d }, /* %s */" % (
            pool.add(name), pool.add(summary), len(members), len(names), name))
        members += [pool.add(m) for m in names]
    if len(members) > 0xffff:
        raise SystemExit("more than 65535 group members: the index is 16-bit")
    out = pool.render(prefix + "_pool") + [""]
    out.append("const uint16_t %s_members[] = {" % prefix)
    out += number_lines(members)
    out += ["};", "", "const %s %s[] = {" % (entry_type, table)] + rows + ["};", ""]
    out.append("const size_t %s = %d;" % (count, len(groups)))
    return out


def read_syscalls(path):
    """data/syscalls.csv as (abis, {name: {abi: nr}}): the column names in order, and for
    every name the ABIs that number it (an ABI missing from a name's dict lacks it)."""
    abis, names = None, {}
    with open(path, encoding="ascii") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split(",")
            if abis is None:
                if cells[0] != "syscall" or len(cells) < 2:
                    raise SystemExit("%s:%d: expected the header syscall,ABI,..." % (path, lineno))
                abis = cells[1:]
                continue
            if len(cells) != len(abis) + 1:
                raise SystemExit("%s:%d: expected %d cells" % (path, lineno, len(abis) + 1))
            name = cells[0]
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or name in names:
                raise SystemExit("%s:%d: bad or repeated name %r" % (path, lineno, name))
            if names and name < max(names):
                raise SystemExit("%s:%d: rows out of order at %r" % (path, lineno, name))
            row = {}
            for abi, cell in zip(abis, cells[1:]):
                if cell:
                    if not cell.isdigit() or int(cell) > 0xFFFFFFFF:
                        raise SystemExit("%s:%d: bad number %r" % (path, lineno, cell))
                    row[abi] = int(cell)
            names[name] = row
    if abis is None:
        raise SystemExit("%s: no header row" % path)
    return abis, names
