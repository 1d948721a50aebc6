#!/usr/bin/env bash
# `make check-valgrind`: the CLI tests (tests/cli/*.sh) with every syscage invocation under
# valgrind memcheck (tools/valgrind-syscage).  Left out, and why (docs/hardening.md):
#   run, run_programs, dump, learn, inject, exhaustion, compat (runs `dump` on runc): they install
#     filters, trace or supervise children; under valgrind the filters would judge
#     valgrind's own syscalls, not the CLI's.
#   bench: measures time.  fuzz_regress: does not run the CLI.
#   adversarial: 100,000-rule and 50 MB inputs take tens of minutes under memcheck; its
#     parsers are covered by the fuzz targets under ASan instead.
# Usage: tools/check-valgrind.sh BUILD_DIR
set -u
build=${1:-build}
skip=" run run_programs dump learn inject compat bench fuzz_regress adversarial exhaustion "
export SYSCAGE_REAL=$PWD/$build/syscage SYSCAGE=$PWD/tools/valgrind-syscage BUILD=$build
passed=0 failed=0 failing=()
for t in tests/cli/*.sh; do
	name=$(basename "$t" .sh)
	case "$skip" in *" $name "*) continue ;; esac
	echo "=== $name.sh (valgrind)"
	out=$(bash "$t" 2>&1)
	rc=$?
	echo "$out"
	p=$(grep -c '^ok ' <<<"$out")
	f=$(grep -c '^not ok ' <<<"$out")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$f" -gt 0 ] && failing+=("$name.sh")
done
echo
[ "${#failing[@]}" -gt 0 ] && echo "failing under valgrind: ${failing[*]}"
echo "$passed passed, $failed failed (valgrind)"
[ "$failed" -eq 0 ]
