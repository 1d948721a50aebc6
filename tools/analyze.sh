#!/usr/bin/env bash
# cppcheck and clang-tidy over lib/ and cli/ (docs/hardening.md); part of ./bootstrap check.
# Any finding fails the run.  Checks live in .clang-tidy and tools/cppcheck.supp,
# each exclusion with its reason.
set -u
cd "$(dirname "$0")/.."
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
tidy=${CLANG_TIDY:-$(command -v clang-tidy-14 || command -v clang-tidy)}
# cli/ is searched for "..." includes only: its headers must not shadow the system's.
flags=(-std=c11 -D_GNU_SOURCE -DSCG_BUILDING_LIBRARY -Iinclude -Ilib -iquote cli
	$(pkg-config --cflags json-c 2>/dev/null))
status=0

echo "=== cppcheck $(cppcheck --version | sed 's/^Cppcheck //')"
# warning/portability/performance only: "style" is the compiler's and clang-format's job.
if ! cppcheck --std=c11 --enable=warning,portability,performance --inline-suppr \
	--suppressions-list=tools/cppcheck.supp --error-exitcode=1 -q -j"$jobs" \
	-D_GNU_SOURCE -DSCG_BUILDING_LIBRARY -Iinclude -Ilib -Icli lib cli; then
	status=1
fi

echo "=== clang-tidy ($("$tidy" --version | sed -n 's/.*version \([0-9.]*\).*/\1/p'))"
# One file per run: clang-tidy 14 carries analyzer state from one file to the next
# when given several, and then reports findings that do not exist.
# lib/ebpf/object.c only includes the skeleton the build writes (bpf/meson.build).
if ! find lib cli -name '*.c' ! -path lib/ebpf/object.c | sort | xargs -P"$jobs" -I{} \
	"$tidy" --quiet --warnings-as-errors='*' {} -- "${flags[@]}" 2>/dev/null; then
	status=1
fi
[ "$status" -eq 0 ] && echo "analyze: no findings"
exit "$status"
