#!/usr/bin/env bash
# A short tour of syscage on examples/deny-open.s: assemble it, read the
# bytes back, ask whether the kernel would load it, and run it on three
# syscalls without loading it anywhere; then run real programs under
# policies with syscage run.  Each step says what it shows, and after it
# whether it went as intended; the last line counts them, and the exit
# status is 0 only when every step did.  Run by `./bootstrap demo`; by
# hand, `SYSCAGE=build/syscage examples/demo.sh` after `ninja -C build`.
set -uo pipefail

SYSCAGE=${SYSCAGE:-build/syscage}
here=$(cd "$(dirname "$0")" && pwd)
filter=$here/deny-open.s
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bpf=$work/deny-open.bpf

steps=0
missed=0
step() { steps=$((steps + 1)); printf '\n== %d. %s\n' "$steps" "$*"; }
as_intended() { printf -- '-> %s\n' "$*"; }
not_intended() { missed=$((missed + 1)); printf -- '-> NOT as intended: %s\n' "$*"; }

# expect STATUS WHAT -- CMD...: runs CMD, its output shown; says whether it exited with STATUS
expect() {
	local want=$1 what=$2 got=0
	shift 3
	"$@" || got=$?
	if [ "$got" -eq "$want" ]; then as_intended "as intended: $what"
	else not_intended "exit status $got, where $want was expected ($what)"; fi
}

# verdict WANT WHAT -- CMD...: runs `syscage emu` CMD; says whether its verdict is WANT
verdict() {
	local want=$1 what=$2 got
	shift 3
	got=$("$@" 2>&1 | head -n 1)
	printf '%s\n' "$got"
	if [ "$got" = "$want" ]; then as_intended "as intended: $what"
	else not_intended "got '$got', where $want was expected ($what)"; fi
}

step "The filter, in assembler (bpf_asm syntax with seccomp names):"
show_source() { grep -v '^;' "$filter" | sed '/^$/d'; }
expect 0 "open and openat get EACCES, everything else runs, other ABIs are killed" -- show_source

step "Assemble it into raw struct sock_filter records: syscage asm"
expect 0 "the filter is written" -- "$SYSCAGE" asm --arch x86_64 -o "$bpf" "$filter"
size=$(wc -c <"$bpf" 2>/dev/null || echo 0)
echo "$size bytes: $((size / 8)) instructions of 8 bytes"

step "Disassemble the bytes; the comments name syscalls, errno values and ABIs: syscage disasm"
expect 0 "the bytes read back as the source's instructions" -- \
	"$SYSCAGE" disasm --arch x86_64 "$bpf"

step "The same as a table with pseudo-C: syscage disasm --format table"
expect 0 "one row per instruction" -- "$SYSCAGE" disasm --arch x86_64 --format table "$bpf"

step "Would the kernel load it? syscage verify (exit 0: yes)"
expect 0 "the kernel would load it" -- "$SYSCAGE" verify "$bpf"

step "Run it, as the kernel would, on getpid(): syscage emu"
verdict ALLOW "ALLOW, getpid runs" -- "$SYSCAGE" emu --arch x86_64 -f "$bpf" getpid

step "... and on openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY):"
verdict "ERRNO(13)" "ERRNO(13) is EACCES, so openat fails" -- \
	"$SYSCAGE" emu --arch x86_64 -f "$bpf" openat -100 0 0

step "... and on open() made through the i386 ABI (int \$0x80):"
verdict KILL_PROCESS "KILL_PROCESS, a call through another ABI kills the process" -- \
	"$SYSCAGE" emu --arch x86 -f "$bpf" open

step "Run a program under the built-in default profile: syscage run"
expect 0 "ls ran under the profile, nothing denied" -- "$SYSCAGE" run -- ls -l /

printf 'default allow\nerrno(EACCES) mkdir, mkdirat\n' >"$work/no-mkdir.policy"
step "Run mkdir under a policy that denies it, on purpose; syscage names the call and the rule:"
cat -n "$work/no-mkdir.policy"
status=0
"$SYSCAGE" run -p "$work/no-mkdir.policy" -- mkdir "$work/new" 2>&1 | tee "$work/run.log" || status=$?
if [ "$status" -eq 1 ] && [ ! -e "$work/new" ] && grep -q "no-mkdir.policy:2" "$work/run.log"; then
	as_intended "denied, as intended: mkdir got EACCES and failed, and syscage named rule 2 of the policy"
else
	not_intended "exit status $status, the directory $([ -e "$work/new" ] && echo was || echo was not) made"
fi

echo
if [ "$missed" -eq 0 ]; then
	echo "demo: all $steps steps went as intended"
else
	echo "demo: $missed of $steps steps did not go as intended"
	exit 1
fi
