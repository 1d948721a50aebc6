"""What tests/check-symbols.py and tests/check-layers.py read: the #include lines of a source
file, and the symbols of an archive's members (nm)."""
import re
import subprocess

INCLUDE = re.compile(r'\s*#\s*include\s+([<"])([^>"]+)[>"]')
# "archive.a:dir/member.o: 0000 T name", "archive.a:dir/member.o:  U name" (GNU nm -A)
MEMBER_SYMBOL = re.compile(r"^.*?[\[:]([^\[\]:]+\.o)\]?:\s*(?:[0-9a-fA-F]+)?\s+(\w)\s+(\S+)$")


def includes(path):
    """(quote or angle bracket, header) for each #include of the file at @path."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = INCLUDE.match(line)
            if m:
                yield m.group(1), m.group(2)


def member_symbols(archive, *flags):
    """(member basename, nm kind letter, symbol) for the symbols of @archive's objects."""
    out = subprocess.run(["nm", "-A", *flags, archive], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        m = MEMBER_SYMBOL.match(line)
        if m:
            member, kind, name = m.groups()
            yield member.rsplit("/", 1)[-1], kind, name
