#!/usr/bin/env bash
# A short tour of syscage on examples/deny-open.s: assemble it, read the
# bytes back, ask whether the kernel would load it, and run it on two
# syscalls without loading it anywhere; then run real programs under
# policies with syscage run.  Run by `./bootstrap demo`; by hand,
# `SYSCAGE=build/syscage examples/demo.sh` after `ninja -C build`.
set -euo pipefail

SYSCAGE=${SYSCAGE:-build/syscage}
here=$(cd "$(dirname "$0")" && pwd)
filter=$here/deny-open.s
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bpf=$work/deny-open.bpf

step() { printf '\n== %s\n' "$*"; }

step "The filter, in assembler (bpf_asm syntax with seccomp names):"
grep -v '^;' "$filter" | sed '/^$/d'

step "Assemble it into raw struct sock_filter records: syscage asm"
"$SYSCAGE" asm --arch x86_64 -o "$bpf" "$filter"
size=$(wc -c <"$bpf")
echo "$size bytes: $((size / 8)) instructions of 8 bytes"

step "Disassemble the bytes; the comments name syscalls, errno values and ABIs: syscage disasm"
"$SYSCAGE" disasm --arch x86_64 "$bpf"

step "The same as a table with pseudo-C: syscage disasm --format table"
"$SYSCAGE" disasm --arch x86_64 --format table "$bpf"

step "Would the kernel load it? syscage verify (exit 0: yes)"
"$SYSCAGE" verify "$bpf"

step "Run it, as the kernel would, on getpid(): syscage emu"
"$SYSCAGE" emu --arch x86_64 -f "$bpf" getpid

step "... and on openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY):"
"$SYSCAGE" emu --arch x86_64 -f "$bpf" openat -100 0 0

step "... and on open() made through the i386 ABI (int \$0x80):"
"$SYSCAGE" emu --arch x86 -f "$bpf" open

printf '\nERRNO(13) is EACCES: that openat fails; getpid runs; the i386 call kills the process.\n'

step "Run a program under the built-in default profile: syscage run"
"$SYSCAGE" run -- ls -l /

printf 'default allow\nerrno(EACCES) mkdir, mkdirat\n' >"$work/no-mkdir.policy"
step "Run mkdir under a policy that denies it; syscage names the call and the rule:"
cat -n "$work/no-mkdir.policy"
"$SYSCAGE" run -p "$work/no-mkdir.policy" -- mkdir "$work/new" || echo "(exit status $?)"
