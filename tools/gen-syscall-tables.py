#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Generate lib/arch/syscall_tables.c from the reference syscall tables.

usage: gen-syscall-tables.py TABLE_DIR OUTPUT.c [REMOVED.tsv]

TABLE_DIR holds one NAME.tbl per ABI, each line "syscall<TAB>number"; a
name without a number is a syscall this ABI does not have.  REMOVED.tsv
(the project's data/syscalls-removed.tsv) adds the syscalls older kernels'
tables listed: "TABLE<TAB>syscall<TAB>number" per line, '#' comments.  For every table
the output holds the entries sorted by number and an index sorted by name,
so both directions are a binary search, and one sorted list of every name
any table knows, which tells "not on this ABI" from "no such syscall".

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
# Numbers this large (x32's bit 30, ARM's private range) read better in hex.
HEX_FROM = 0x10000


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


def c_identifier(stem):
    ident = re.sub(r"[^A-Za-z0-9_]", "_", stem)
    if not re.match(r"^[A-Za-z_]", ident):
        ident = "t_" + ident
    return ident


def format_nr(nr):
    return "0x%x" % nr if nr >= HEX_FROM else "%d" % nr


def wrap(items, indent="\t", width=96):
    """Joins items with ", " into lines no wider than width (tabs count 8)."""
    lines, current = [], ""
    for item in items:
        piece = item + ","
        candidate = current + " " + piece if current else piece
        if current and 8 + len(candidate) > width:
            lines.append(indent + current)
            candidate = piece
        current = candidate
    if current:
        lines.append(indent + current)
    return lines


def emit_table(out, stem, present, offset):
    ident = c_identifier(stem)
    by_nr = sorted(present.items(), key=lambda item: item[1])
    position = {name: i for i, (name, _) in enumerate(by_nr)}
    # Python orders str by code point, which for ASCII names is strcmp order.
    by_name = sorted(present)

    out.append("/* %s.tbl: %d syscalls */" % (stem, len(by_nr)))
    out.append("static const struct syscall_entry %s_by_nr[] = {" % ident)
    for name, nr in by_nr:
        out.append("\t{ %d, %s }, /* %s */" % (offset[name], format_nr(nr), name))
    out.append("};")
    out.append("")
    out.append("static const uint16_t %s_by_name[] = {" % ident)
    out.extend(wrap(str(position[name]) for name in by_name))
    out.append("};")
    out.append("")
    out.append("const struct syscall_table syscall_table_%s = {" % ident)
    out.append('\t.name = "%s",' % stem)
    out.append("\t.by_nr = %s_by_nr," % ident)
    out.append("\t.by_name = %s_by_name," % ident)
    out.append("\t.count = %d," % len(by_nr))
    out.append("};")
    out.append("")


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


def header_comment(title, stems, removed):
    out = [
        "/* SPDX-License-Identifier: LGPL-2.1-or-later */",
        "/*",
        " * Generated by tools/gen-syscall-tables.py -- do not edit; run `ninja -C build tables`.",
        " *",
        " * Source: the project's shared reference tables, syscalls/ABI.tbl%s"
        % ("" if title else "."),
    ]
    if title:
        out.append(' * ("%s").' % title)
    if removed:
        out.append(" * With the syscalls older kernels listed: %s." % removed)
    out.append(" * Tables:")
    out.extend(wrap(stems, indent=" *  "))
    out[-1] = out[-1].rstrip(",") + "."
    out.append(" */")
    return out


def generate(table_dir, removed=None):
    stems = sorted(name[:-4] for name in os.listdir(table_dir) if name.endswith(".tbl"))
    if not stems:
        raise TableError("%s: no *.tbl files" % table_dir)
    tables = {stem: parse_table(os.path.join(table_dir, stem + ".tbl")) for stem in stems}
    if removed:
        add_removed(tables, removed)
    identifiers = [c_identifier(stem) for stem in stems]
    if len(set(identifiers)) != len(identifiers):
        raise TableError("two table file names map to the same C identifier")

    # Absent names count too: a name no covered ABI numbers (alpha's
    # getxpid, sparc's perfctr) is still a syscall, not a typo.
    all_names = set()
    for present, absent in tables.values():
        all_names.update(present)
        all_names.update(absent)

    out = header_comment(source_title(table_dir), stems,
                         "data/" + os.path.basename(removed) if removed else None)
    out += ['#include "syscall_tables.h"', ""]

    # Every name once, in one pool: entries hold offsets, so the tables need
    # no pointer (and no relocation) per name.
    names = sorted(all_names)
    offset, at = {}, 0
    for name in names:
        offset[name] = at
        at += len(name) + 1
    if at > 0xFFFF:
        raise TableError("the name pool outgrows its 16-bit offsets")
    out.append("/* Every name any table lists, with or without a number, NUL-separated. */")
    out.append("const char syscall_name_pool[] =")
    out.extend('\t"%s\\0" /* %d */' % (name, offset[name]) for name in names)
    out[-1] = out[-1].replace('\\0" /*', '" /*', 1)
    out.append(";")
    out.append("")
    out.append("/* The pool's names in strcmp order, as offsets. */")
    out.append("const uint16_t syscall_all_names[] = {")
    out.extend(wrap(str(offset[name]) for name in names))
    out.append("};")
    out.append("")
    out.append("const size_t syscall_all_count = %d;" % len(names))
    out.append("")
    for stem in stems:
        emit_table(out, stem, tables[stem][0], offset)
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write("usage: %s TABLE_DIR OUTPUT.c [REMOVED.tsv]\n" % argv[0])
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
