# SPDX-License-Identifier: LGPL-2.1-or-later
"""C output shared by the table generators of tools/: strings go into one pool per
table and rows hold 16-bit offsets into it, so a table carries no pointer and the
shared library needs no load-time relocation for it."""


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

    def render(self, name):
        """The pool as a C definition, one string a line with its offset."""
        out = ["const char %s[] =" % name]
        out += ['\t%s\\0" /* %d */' % (c_string(s)[:-1], self.offsets[s]) for s in self.strings]
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
