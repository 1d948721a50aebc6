#!/usr/bin/env bash
# syscage explain: the deciding rule, the instruction path, the argument
# tests that mattered and the values that keep the verdict.
. "$(dirname "$0")/../cli_lib.bash"

cat >"$TMP/p.policy" <<'POL'
arch x86_64
default errno(EPERM)
allow read, write
allow socket if domain == AF_UNIX
kill ptrace
POL

expect_status 0 "a rule decides" -- "$SYSCAGE" explain -a x86_64 "$TMP/p.policy" socket 1 1 0
expect_grep "$TMP/out" "^policy verdict: ALLOW$" "policy verdict"
expect_grep "$TMP/out" "decided by the rule at .*p\.policy:4$" "names the rule's file and line"
expect_grep "$TMP/out" "^filter verdict: ALLOW$" "the compiled filter agrees"
expect_grep "$TMP/out" "^ +[0-9]+  ld \[arch\]$" "the path starts with the arch load"
expect_grep "$TMP/out" "^ +[0-9]+  ret ALLOW$" "the path ends with the return"
expect_grep "$TMP/out" "^  arg0\.lo == 1$" "the domain test mattered"
expect_grep "$TMP/out" "arg0\.lo = 0x1; the same path for 0x1\.\.0x1" "only that value keeps the path"

expect_status 0 "another domain" -- "$SYSCAGE" explain -a x86_64 "$TMP/p.policy" socket 2
expect_grep "$TMP/out" "^policy verdict: ERRNO\(1\)$" "denied"
expect_grep "$TMP/out" "no rule matched: the 'default' verdict" "by the default"
expect_grep "$TMP/out" "arg0\.lo = 0x2; the same path for 0x2\.\.0xffffffff" "the range that keeps it"

expect_status 0 "a call without argument tests" -- "$SYSCAGE" explain -a x86_64 "$TMP/p.policy" read
expect_grep "$TMP/out" "no argument was tested" "says no argument mattered"
expect_status 0 "a call from a non-target ABI" -- "$SYSCAGE" explain -a x86 "$TMP/p.policy" read
expect_grep "$TMP/out" "not a target of the policy: the 'badarch' verdict" "badarch"

"$SYSCAGE" compile "$TMP/p.policy" -o "$TMP/p.bpf" 2>/dev/null
expect_status 0 "a raw filter" -- "$SYSCAGE" explain -a x86_64 "$TMP/p.bpf" ptrace
expect_grep "$TMP/out" "^filter verdict: KILL_PROCESS$" "filter verdict"
if grep -q "policy verdict" "$TMP/out"; then not_ok "no policy for a raw filter"; else ok "no policy for a raw filter"; fi

expect_status 2 "an unknown syscall" -- "$SYSCAGE" explain -a x86_64 "$TMP/p.policy" sockett
expect_grep "$TMP/err" "socket" "suggests a name"
expect_status 2 "no syscall" -- "$SYSCAGE" explain "$TMP/p.policy"
expect_status 0 "--help" -- "$SYSCAGE" explain --help
# Filters that stall a path-by-path engine (tests/data/analysis): the path and its
# values under a 1 s budget, or exit 3 with the verdict and path and the values not
# decided.  No timing is asserted.
CRAFT=$(dirname "$0")/../data/analysis
for f in jset-chain-64 jset-chain-76 arg-eq mul-shift div-x scratch-chain; do
	"$SYSCAGE" explain -a x86_64 --timeout 1 "$CRAFT/$f.s" openat 5 2 >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ $st -eq 0 ] && grep -q '^filter verdict: ' "$TMP/out"; then ok "$f: explained"
	elif [ $st -eq 3 ] && grep -q '^filter verdict: ' "$TMP/out" &&
		grep -q 'not decided (the time budget ran out)' "$TMP/out"; then ok "$f: out of time, says so"
	else not_ok "$f: explained, or exit 3" "exit $st" "$(head -c 300 "$TMP/out" "$TMP/err")"; fi
done
expect_status 2 "--timeout of a word" -- "$SYSCAGE" explain --timeout soon "$CRAFT/arg-eq.s" openat

echo "1..$n"
