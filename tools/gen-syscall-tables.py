#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes data/syscalls.csv, the project's syscall names and numbers per ABI,
from reference syscall tables; the build turns the CSV into C
(tools/gen-tables-c.py).  Run it (`ninja -C build tables`) when the
reference tables move to a newer kernel.

usage: gen-syscall-tables.py TABLE_DIR OUTPUT.csv [REMOVED.tsv]

TABLE_DIR holds one NAME.tbl per ABI, each line "syscall<TAB>number"; a
name without a number is a syscall this ABI does not have.  REMOVED.tsv
(the project's data/syscalls-removed.tsv) adds the syscalls older kernels'
tables listed: "TABLE<TAB>syscall<TAB>number" per line, '#' comments.

The output depends only on the contents of the tables: files are read in
sorted order and nothing about the machine or the time is written.
"""

import os
import re
import sys

NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
NUMBER_RE = re.compile(r"^[0-9]+$")
# The name index is a uint16_t array; the C side relies on this limit.
MAX_ENTRIES = 0xFFFF


class TableError(Exception):
    pass


def parse_table(path):
    """Returns (present, absent): {name: nr} and the set of absent names."""
    present, absent, seen_numbers = {}, set(), {}
    with open(path, encoding="ascii") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            where = "%s:%d" % (os.path.basename(path), lineno)
            fields = line.split("\t")
            name = fields[0].strip()
            number = fields[1].strip() if len(fields) > 1 else ""
            if len(fields) > 2 or not NAME_RE.match(name):
                raise TableError("%s: expected NAME<TAB>NUMBER, got %r" % (where, line))
            if name in present or name in absent:
                raise TableError("%s: '%s' listed twice" % (where, name))
            if not number:
                absent.add(name)
                continue
            if not NUMBER_RE.match(number) or int(number) > 0xFFFFFFFF:
                raise TableError("%s: bad syscall number %r" % (where, number))
            nr = int(number)
            if nr in seen_numbers:
                raise TableError("%s: number %d already used by '%s'"
                                 % (where, nr, seen_numbers[nr]))
            seen_numbers[nr] = name
            present[name] = nr
    if len(present) > MAX_ENTRIES:
        raise TableError("%s: too many entries for a 16-bit index" % path)
    return present, absent


def add_removed(tables, path):
    """Adds the entries of REMOVED.tsv to the parsed tables."""
    with open(path, encoding="ascii") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            where = "%s:%d" % (os.path.basename(path), lineno)
            fields = line.split("\t")
            if (len(fields) != 3 or not NAME_RE.match(fields[1])
                    or not NUMBER_RE.match(fields[2])):
                raise TableError("%s: expected TABLE<TAB>NAME<TAB>NUMBER, got %r"
                                 % (where, line))
            stem, name, nr = fields[0], fields[1], int(fields[2])
            if stem not in tables:
                raise TableError("%s: no table '%s'" % (where, stem))
            present, absent = tables[stem]
            if name in present:
                raise TableError("%s: '%s' is in %s.tbl already" % (where, name, stem))
            if nr in present.values():
                raise TableError("%s: number %d is taken in %s.tbl" % (where, nr, stem))
            present[name] = nr
            absent.discard(name)


def source_title(table_dir):
    """The first heading of the tables' README, which names their kernel version."""
    try:
        with open(os.path.join(table_dir, "README.md"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("#"):
                    return line.lstrip("#").strip()
    except OSError:
        pass
    return None


def header_comment(title, removed):
    out = [
        "# Syscall names and numbers, one column per ABI (the C side calls each a",
        "# table, after its reference file: mipso32 serves MIPS o32 big and little",
        "# endian).  Numbers are what the kernel puts in seccomp_data.nr: x32's carry",
        "# bit 30, MIPS's their ABI's base.  An empty cell: the ABI lacks the syscall,",
        "# which still counts as a name (a rule naming it is not a typo).",
        "#",
        "# Written by tools/gen-syscall-tables.py (`ninja -C build tables`) from the",
        "# reference tables%s" % (' ("%s")' % title if title else ""),
    ]
    if removed:
        out.append("# and the syscalls older kernels listed (%s)." % removed)
    out.append("# The build turns this file into C (tools/gen-tables-c.py).  Rows sorted by name.")
    return out


def generate(table_dir, removed=None):
    stems = sorted(name[:-4] for name in os.listdir(table_dir) if name.endswith(".tbl"))
    if not stems:
        raise TableError("%s: no *.tbl files" % table_dir)
    tables = {stem: parse_table(os.path.join(table_dir, stem + ".tbl")) for stem in stems}
    if removed:
        add_removed(tables, removed)
    # Absent names count too: a name no covered ABI numbers (alpha's
    # getxpid, sparc's perfctr) is still a syscall, not a typo.
    all_names = set()
    for present, absent in tables.values():
        all_names.update(present)
        all_names.update(absent)

    out = header_comment(source_title(table_dir),
                         "data/" + os.path.basename(removed) if removed else None)
    out.append(",".join(["syscall"] + stems))
    for name in sorted(all_names):
        out.append(",".join([name] + [str(tables[stem][0].get(name, "")) for stem in stems]))
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write("usage: %s TABLE_DIR OUTPUT.csv [REMOVED.tsv]\n" % argv[0])
        return 2
    table_dir, output = argv[1], argv[2]
    try:
        text = generate(table_dir, argv[3] if len(argv) == 4 else None)
    except (OSError, UnicodeDecodeError, TableError) as e:
        sys.stderr.write("gen-syscall-tables: %s\n" % e)
        return 1
    # Write beside the target and rename, so a failed run leaves the old file.
    tmp = output + ".tmp"
    try:
        with open(tmp, "w", encoding="ascii", newline="\n") as f:
            f.write(text)
        os.replace(tmp, output)
    except OSError as e:
        sys.stderr.write("gen-syscall-tables: %s\n" % e)
        if os.path.exists(tmp):
            os.remove(tmp)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
