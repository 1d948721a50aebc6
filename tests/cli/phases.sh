#!/usr/bin/env bash
# Policies with phases (docs/phases.md): the language and its diagnostics,
# compile --phase, and run following a program from its start phase into the
# next at its trigger, in every thread, per process, failing closed.
. "$(dirname "$0")/../cli_lib.bash"
S=$SYSCAGE
H=$(helper phase_threads)
T="timeout -k 5 120"

cat >"$TMP/ph.policy" <<'P'
# start: everything; getppid ends it
default allow
phase serving after getppid
errno(EPERM) getuid, execve
P

# --- the language and compile -------------------------------------------------

expect_status 0 "compile --phase start" -- "$S" compile --format asm --phase start "$TMP/ph.policy"
expect_grep "$TMP/out" "ret TRACE\(1\)" "  the trigger goes to the tracer with the next phase's number"
expect_status 0 "compile --phase serving" -- "$S" compile --format asm --phase serving "$TMP/ph.policy"
expect_grep "$TMP/out" "ERRNO\(1\)" "  serving denies getuid with EPERM"
expect_status 0 "compile --format asm: every phase" -- "$S" compile --format asm "$TMP/ph.policy"
expect_grep "$TMP/out" "^; phase serving" "  each under its name"
expect_status 2 "compile raw without --phase is refused" -- "$S" compile "$TMP/ph.policy"
expect_grep "$TMP/err" "--phase NAME" "  and says how to pick one"
expect_status 2 "compile --phase of no such phase" -- "$S" compile --phase nope "$TMP/ph.policy"
expect_grep "$TMP/err" "the phases: start, serving" "  lists the phases"

cat >"$TMP/looser.policy" <<'P'
default errno(EPERM)
allow read, write, getppid
phase serving after getppid
allow read, write, getppid, execve
P
expect_status 2 "a later phase that allows more is refused" -- "$S" compile --phase start "$TMP/looser.policy"
expect_grep "$TMP/err" "looser.policy:4:29: error: phase 'serving' gives 'execve' ALLOW, more than phase 'start' does" \
	"  at the rule's file:line:column"

printf 'allow read\nphase x aftr read\nphase y after opnat\n' >"$TMP/syntax.policy"
expect_status 2 "a bad phase line" -- "$S" compile --phase start "$TMP/syntax.policy"
expect_grep "$TMP/err" "syntax.policy:2:9: error: expected 'after'" "  'after' missing, at its column"
expect_grep "$TMP/err" "syntax.policy:3:15: error: unknown syscall 'opnat'" "  a trigger's unknown syscall"

cat >"$TMP/cond.policy" <<'P'
default errno(EPERM)
allow read, write, getppid
allow socket if domain == AF_UNIX
phase serving after getppid
allow read, write, getppid
allow socket if domain == AF_UNIX || domain == AF_INET
P
expect_status 1 "lint proves what the parser cannot: a condition looser in the later phase" -- \
	"$S" lint "$TMP/cond.policy"
expect_grep "$TMP/out" "cond.policy:6: error: phase 'serving' gives socket if arg0.lo == 2 ALLOW where phase 'start' gives ERRNO\(1\) \[phase-not-stricter\]" \
	"  at the rule, with the calls it lets through"
expect_status 0 "lint: a phase that only takes calls away" -- "$S" lint "$TMP/ph.policy"
expect_grep "$TMP/out" "^no findings" "  no findings"

# --- run ----------------------------------------------------------------------

run_phases() { $T "$S" run -v -p "$TMP/ph.policy" -- "$H" "$@"; }
if have_feature tsync; then
	expect_status 0 "run: getuid works before the trigger, fails after it, in both threads" -- \
		run_phases
	expect_grep "$TMP/out" "^thread after=-EPERM" "  the second thread is in the new phase"
	expect_grep "$TMP/out" "^main after=-EPERM" "  the thread that made the trigger too"
	expect_grep "$TMP/err" "entered phase 'serving'" "  -v says so"
	expect_status 0 "run: a child forked before the trigger enters the phase on its own" -- \
		run_phases fork
	expect_grep "$TMP/out" "^child after=-EPERM" "  the child, after its trigger"
	expect_grep "$TMP/out" "^parent still=ok" "  its parent, which never made the trigger, not"
	expect_status 125 "run: a transition that cannot move every thread ends the program" -- \
		run_phases diverge
	expect_grep "$TMP/err" "could not enter phase 'serving'" "  and says why"
	if grep -q "passed the trigger" "$TMP/out"; then
		not_ok "  the program never went past the trigger" "$(cat "$TMP/out")"
	else
		ok "  the program never went past the trigger"
	fi
	expect_status 0 "run --no-report: the same without a supervisor's report" -- \
		$T "$S" run --no-report -p "$TMP/ph.policy" -- "$H"
	expect_status 1 "run: execve is denied in the serving phase" -- \
		$T "$S" run -p "$TMP/ph.policy" -- perl -e 'getppid(); exec("/bin/true") or exit 1'
else
	skip_feature tsync "run: a policy with phases"
fi
# --- learn --phases ------------------------------------------------------------

if have_feature user-notif; then
	# the helper's own checks fail outside phases (exit 1): what it called is what counts
	expect_status 1 "learn --phases getppid records the program" -- \
		$T "$S" learn --phases getppid -o "$TMP/learned.policy" -- "$H" fork
	expect_grep "$TMP/learned.policy" "^phase serving after getppid$" "  a policy with a serving phase"
	expect_grep "$TMP/err" "phases: start allows [0-9]+ syscalls \([0-9]+ dangerous\), serving [0-9]+ \(0 dangerous\); serving drops [0-9]+" \
		"  what serving drops, counted"
	expect_grep "$TMP/err" "phases: dropped others: .*clone" "  the fork before the trigger is not serving's"
	expect_status 0 "  the learned policy lints clean" -- "$S" lint "$TMP/learned.policy"
	expect_status 2 "learn --phases refuses --format oci" -- \
		"$S" learn --phases getppid --format oci -- true
else
	skip_feature user-notif "learn --phases getppid records the program"
fi
expect_status 2 "run: phases and --unshare-pid do not go together" -- \
	"$S" run --unshare-pid -p "$TMP/ph.policy" -- true
