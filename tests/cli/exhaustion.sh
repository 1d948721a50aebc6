#!/usr/bin/env bash
# Resource exhaustion: with too few file descriptors or too little memory,
# syscage fails with a clear message and a non-zero status, writes nothing,
# and never runs a program with a weaker filter (or none): the program
# either runs with its filter installed or does not run at all.
. "$(dirname "$0")/../cli_lib.bash"

# filtered_or_refused NAME LIMIT -- CMD...: under `ulimit LIMIT`, CMD (which runs
# grep Seccomp: /proc/self/status as the program) shows filter mode, or fails
# with a syscage message and prints nothing.
filtered_or_refused() {
	local name=$1 limit=$2
	shift 3
	(ulimit $limit && "$@") >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if grep -q '^Seccomp:[[:space:]]*2$' "$TMP/out"; then
		ok "$name: ran with its filter"
	elif [ "$rc" -ne 0 ] && [ ! -s "$TMP/out" ] && grep -qE '^(syscage: |.*error while loading)' "$TMP/err"; then
		ok "$name: refused ($(head -n 1 "$TMP/err" | cut -c1-60))"
	else
		not_ok "$name" "exit $rc, stdout: $(head -c 200 "$TMP/out")" "stderr: $(head -c 300 "$TMP/err")"
	fi
}

SEE=(/bin/grep Seccomp: /proc/self/status)
for fds in 4 5 6 8; do
	filtered_or_refused "run, $fds descriptors" "-n $fds" -- "$SYSCAGE" run -- "${SEE[@]}"
	filtered_or_refused "inject, $fds descriptors" "-n $fds" -- \
		"$SYSCAGE" inject -q 'getppid:error=EPERM:when=2' -- "${SEE[@]}"
	filtered_or_refused "learn, $fds descriptors" "-n $fds" -- "$SYSCAGE" learn -o "$TMP/learned" -- "${SEE[@]}"
done

# Memory: sanitizer builds reserve terabytes of address space and cannot start under ulimit -v.
if grep -qa '__asan_init' "$SYSCAGE" 2>/dev/null; then
	for t in "compile, little memory" "run, little memory"; do
		# the plain build runs it
		skip_feature sanitizer-ulimit-v "$t (a sanitizer build cannot start under ulimit -v)"
	done
else
	{
		echo "arch x86_64"
		echo "default errno(EPERM)"
		for i in $(seq 1 100000); do echo "allow read if arg0 == $i"; done
	} >"$TMP/huge.policy"
	mkdir "$TMP/outdir"
	(ulimit -v 30000 && "$SYSCAGE" compile -o "$TMP/outdir/huge.bpf" "$TMP/huge.policy") \
		>/dev/null 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q 'Cannot allocate memory' "$TMP/err" &&
		! grep -q 'error:' "$TMP/err"; then
		ok "compile, little memory: out of memory, said plainly"
	else
		not_ok "compile, little memory" "exit $rc" "stderr: $(head -c 300 "$TMP/err")"
	fi
	if [ -z "$(ls -A "$TMP/outdir")" ]; then ok "compile, little memory: nothing written"; else
		not_ok "compile, little memory: nothing written" "$(ls "$TMP/outdir")"
	fi
	filtered_or_refused "run, little memory, a huge policy" "-v 30000" -- \
		"$SYSCAGE" run -p "$TMP/huge.policy" -- "${SEE[@]}"
	filtered_or_refused "run, little memory, the default profile" "-v 30000" -- \
		"$SYSCAGE" run -- "${SEE[@]}"
fi
