#!/usr/bin/env bash
# Runs every test binary and shell test, then prints one summary line that
# counts individual test cases: "N passed, N failed".
set -u
passed=0
failed=0
failed_names=()

count_cmocka() {
	# cmocka prints "[  PASSED  ] N test(s)." and "[  FAILED  ] N test(s)..."
	local log=$1 p f
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	echo "${p:-0} ${f:-0}"
}

for t in "$@"; do
	log=$(mktemp)
	name=$(basename "$t")
	echo "=== $name"
	"$t" >"$log" 2>&1
	rc=$?
	cat "$log"
	read -r p f < <(count_cmocka "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 # crashed or failed outside a counted test
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$f" -gt 0 ] && failed_names+=("$name")
	rm -f "$log"
done

for t in tests/cli/*.sh; do
	[ -e "$t" ] || continue
	name=$(basename "$t")
	echo "=== $name"
	out=$(bash "$t" 2>&1)
	rc=$?
	echo "$out"
	p=$(echo "$out" | grep -c '^ok ')
	f=$(echo "$out" | grep -c '^not ok ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$f" -gt 0 ] && failed_names+=("$name")
done

echo
[ "${#failed_names[@]}" -gt 0 ] && echo "failing: ${failed_names[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
