#!/usr/bin/env bash
# bench/report.sh, which writes docs/PERFORMANCE.md: every section runs in its quick mode
# (few rounds) and prints its heading, its command, its output and its load; the header
# names the command, date, commit, machine and load; a missing tool is said, not failed;
# -o writes only a complete document; bad usage exits 2.  No assertion is about speed.
# The valgrind section (compile-time, tens of seconds under lackey) is left out of the
# run; its heading and command are checked in the script itself.
. "$(dirname "$0")/../cli_lib.bash"
cd "${SYSCAGE_SRCDIR:-.}" || exit 1
R=bench/report.sh
export REPORT_QUICK=1

expect_status 0 "--list names the sections" -- "$R" --list
read -r -a sections <"$TMP/out"
[ "${#sections[@]}" -ge 10 ] && ok "at least ten sections (${#sections[@]})" ||
	not_ok "at least ten sections" "got: ${sections[*]}"
for s in "${sections[@]}"; do
	expect_grep "$R" "^sec_$s\(\) \{" "section $s has its function"
done
expect_grep "$R" "valgrind --tool=lackey" "compile-time runs valgrind's instruction count"
expect_grep "$R" 'missing "valgrind is not installed"' "and says so without valgrind"

expect_status 2 "an unknown section is bad usage" -- "$R" --only nosuch
expect_grep "$TMP/err" "no section 'nosuch'" "and is named"
expect_status 2 "an unknown option is bad usage" -- "$R" --frobnicate
echo previous >"$TMP/doc.md"
expect_status 2 "bad rounds are bad usage" -- env REPORT_ROUNDS=x "$R" -o "$TMP/doc.md"
[ "$(cat "$TMP/doc.md")" = previous ] && ok "bad usage leaves -o's file as it was" ||
	not_ok "bad usage leaves -o's file as it was"

# every section but compile-time, quick, into a file
only=$(printf '%s\n' "${sections[@]}" | grep -vx compile-time | paste -sd,)
expect_status 0 "the quick report runs ($only)" -- "$R" -o "$TMP/doc.md" --only "$only"
grep -q 'command failed' "$TMP/out" && echo "# $(grep -B30 'command failed' "$TMP/out" | head -c 1500 | tr '\n' '|')"
doc=$TMP/doc.md
[ ! -s "$TMP/out" ] && ok "with -o nothing goes to stdout" || not_ok "with -o nothing goes to stdout"
ls "$TMP"/doc.md.tmp.* >/dev/null 2>&1 && not_ok "no temporary file is left" || ok "no temporary file is left"
expect_grep "$doc" '^# Performance$' "the document has its title"
for key in command rounds date commit machine compiler kafel libseccomp "BPF programs bpftool lists" 'load average'; do
	expect_grep "$doc" "^$key: ." "the header gives the $key"
done
expect_grep "$doc" '^command: bench/report.sh -o .* --only .*\(REPORT_QUICK=1\)$' "the header gives the command as run"
expect_grep "$doc" '^machine: .*[0-9]+ CPUs, Linux ' "the machine line has the CPUs and the kernel"
headings=$(awk '/^```/ { fence = !fence } !fence && /^## / { n++ } END { print n + 0 }' "$doc")
# the sections run (all but compile-time) and the end
[ "$headings" -eq $((${#sections[@]} - 1 + 1)) ] && ok "one heading per section and the end ($headings)" ||
	not_ok "one heading per section and the end" "$headings headings for ${#sections[@]} sections and the end"
commands=$(grep -c '^```sh$' "$doc")
measured=$(grep -cE '^Took [0-9.]+ s; load average [0-9.]+ [0-9.]+ [0-9.]+ before, .* after \([0-9]+ CPUs\)\.' "$doc")
[ "$commands" -gt 0 ] && [ "$commands" -eq "$measured" ] &&
	ok "every command shown has its time and load ($commands)" ||
	not_ok "every command shown has its time and load" "$commands commands, $measured measured"
fences=$(grep -c '^```' "$doc")
[ $((fences % 2)) -eq 0 ] && ok "code fences are balanced" || not_ok "code fences are balanced" "$fences"
if grep -q 'command failed' "$doc"; then
	not_ok "no section's command failed" "$(grep -B3 'command failed' "$doc" | head -c 600)"
else
	ok "no section's command failed"
fi
expect_grep "$doc" '^\| 8 filters \(stack\)|^\*Not measured here: ' "the fuse section has its table or says why not"
expect_grep "$doc" '^(fuse|getppid|personality)' "the fuse section explains the comparison"
expect_grep "$doc" '^the whole report took [0-9]+ s$' "the end gives the time the report took"

# a missing peer is said, not failed
expect_status 0 "a missing kafel is no failure" -- \
	env KAFEL_COMPILE=/nonexistent/kafel-compile "$R" --only compile-startup
expect_grep "$TMP/out" '^kafel: not found at /nonexistent/kafel-compile' "the header says kafel is missing"
expect_grep "$TMP/out" '^kafel: no compiler at /nonexistent/kafel-compile' "and so does the section"

