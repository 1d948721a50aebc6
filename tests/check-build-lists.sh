#!/usr/bin/env bash
# Every C source in the tree is named by a meson.build, so a new file cannot be left out of
# the build (or linger in the tree, built by nothing).  TAP output, like tests/cli/*.sh.
cd "$(dirname "$0")/.."
n=0 status=0
while IFS= read -r f; do
	base=$(basename "$f")
	name=${base%.c}
	n=$((n + 1))
	# Named in a meson.build (by path, or by bare name in a loop over names), or compiled by
	# the script that uses it (tests/cli/*.sh, tools/*.sh).
	if grep -rqsF --include=meson.build -e "$base'" -e "'$name'" . ||
		grep -qsF "$f" tests/cli/*.sh tools/*.sh; then
		echo "ok $n - $f is built"
	else
		echo "not ok $n - $f is named by no meson.build"
		status=1
	fi
done < <(find lib cli compat tests fuzz bench tools examples -name '*.c' ! -path '*/corpus/*' | sort)
exit $status
