#!/bin/sh
# prelink-archive.sh OUT.a ARCHIVE...
#
# The installed static libraries: every member of the ARCHIVEs linked into one relocatable
# object whose hidden symbols (everything not marked SCG_API: the build uses
# -fvisibility=hidden) are made local, packed as OUT.a.  A program linking OUT.a sees the
# public API and nothing else, as with the shared library, and the library's internal names
# (tree_build, arena_alloc, ...) cannot collide with the program's own.
set -eu
out=$1
shift
obj="$out.prelink.o"
trap 'rm -f "$obj"' EXIT
"${LD:-ld}" -r -o "$obj" --whole-archive "$@" --no-whole-archive
"${OBJCOPY:-objcopy}" --localize-hidden "$obj"
rm -f "$out"
"${AR:-ar}" rcs "$out" "$obj"
