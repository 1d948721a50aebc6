#!/usr/bin/env bash
# syscage asm and disasm: exit statuses, diagnostics, atomic output, the
# byte-exact round trip through the CLI, and the C and Graphviz formats
# checked by the real compiler and by dot.
. "$(dirname "$0")/../cli_lib.bash"

SRC=$(cd "$(dirname "$0")/../.." && pwd)
DENY=$SRC/examples/deny-open.s

# expect_size NAME FILE BYTES: FILE is exactly BYTES long.
expect_size() {
	local got
	got=$(wc -c <"$2" 2>/dev/null || echo missing)
	if [ "$got" = "$3" ]; then ok "$1"; else not_ok "$1" "size $got, wanted $3"; fi
}

expect_absent() {
	if [ ! -e "$2" ]; then ok "$1"; else not_ok "$1" "$2 exists"; fi
}

# --- usage ---------------------------------------------------------------
expect_status 0 "asm --help" -- "$SYSCAGE" asm --help
expect_grep "$TMP/out" '^usage: syscage asm' "asm --help prints the usage"
expect_status 0 "disasm --help" -- "$SYSCAGE" disasm --help
expect_grep "$TMP/out" '^usage: syscage disasm' "disasm --help prints the usage"
expect_status 2 "asm: unknown format" -- "$SYSCAGE" asm --format elf "$DENY"
expect_status 2 "disasm: unknown format" -- "$SYSCAGE" disasm --format svg "$DENY"
expect_status 2 "asm: unknown arch" -- "$SYSCAGE" asm --arch x86-46 "$DENY"
expect_grep "$TMP/err" "did you mean 'x86-64'|did you mean 'x86_64'" "asm: unknown arch has a hint"
expect_status 2 "asm: two inputs" -- "$SYSCAGE" asm "$DENY" "$DENY"
expect_status 2 "asm: missing file" -- "$SYSCAGE" asm "$TMP/none.s"

# --- assembling ----------------------------------------------------------
expect_status 0 "asm deny-open.s" -- "$SYSCAGE" asm -o "$TMP/deny.bpf" "$DENY"
expect_size "asm writes 10 instructions" "$TMP/deny.bpf" 80
"$SYSCAGE" asm <"$DENY" >"$TMP/stdin.bpf" 2>"$TMP/err"
expect_same "$TMP/deny.bpf" "$TMP/stdin.bpf" "asm reads standard input"
"$SYSCAGE" asm - <"$DENY" >"$TMP/dash.bpf" 2>"$TMP/err"
expect_same "$TMP/deny.bpf" "$TMP/dash.bpf" "asm reads '-'"

printf 'ld [nr]\njeg #2, deny\njeq #opnat, deny\nst #1\ndeny: ret ERRNO(EPERM)\n' >"$TMP/bad.s"
expect_status 2 "asm: errors exit 2" -- "$SYSCAGE" asm -o "$TMP/bad.bpf" "$TMP/bad.s"
expect_grep "$TMP/err" "bad.s:2:1: error: unknown instruction 'jeg'" "asm: file:line:column"
expect_grep "$TMP/err" "hint: did you mean 'jeq'\?" "asm: hint"
expect_grep "$TMP/err" "bad.s:3:6: error: unknown name 'opnat'" "asm: several errors in one run"
expect_grep "$TMP/err" "bad.s:4:4: error: 'st' does not take #k" "asm: bad operand"
expect_absent "asm: no output file on error" "$TMP/bad.bpf"
if [ -s "$TMP/out" ]; then not_ok "asm: nothing on stdout on error"; else ok "asm: nothing on stdout on error"; fi

# -o: written beside the target and renamed; nothing left behind on failure
expect_status 2 "asm -o into a missing directory" -- "$SYSCAGE" asm -o "$TMP/nodir/x.bpf" "$DENY"
expect_absent "asm -o: no file in a missing directory" "$TMP/nodir/x.bpf"
mkdir "$TMP/adir"
expect_status 2 "asm -o onto a directory" -- "$SYSCAGE" asm -o "$TMP/adir" "$DENY"
if ls -a "$TMP" | grep -q '^\.syscage-'; then not_ok "asm -o: no temporary file left"; else
	ok "asm -o: no temporary file left"; fi
cp "$TMP/deny.bpf" "$TMP/keep.bpf"
expect_status 2 "asm -o: failing run" -- "$SYSCAGE" asm -o "$TMP/keep.bpf" "$TMP/bad.s"
expect_same "$TMP/deny.bpf" "$TMP/keep.bpf" "asm -o: an error leaves the old file alone"

# raw output never goes to a terminal
if command -v script >/dev/null 2>&1; then
	script -qec "$SYSCAGE asm $DENY" /dev/null >"$TMP/tty" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q 'refusing to write binary output to a terminal' "$TMP/tty"; then
		ok "asm refuses raw output to a terminal"
	else
		not_ok "asm refuses raw output to a terminal" "exit $rc" "$(head -c 300 "$TMP/tty")"
	fi
	script -qec "$SYSCAGE asm --format c $DENY" /dev/null >"$TMP/tty" 2>&1
	if grep -q 'BPF_STMT' "$TMP/tty"; then ok "asm --format c may go to a terminal"; else
		not_ok "asm --format c may go to a terminal" "$(head -c 300 "$TMP/tty")"; fi
else
	skip_feature script "asm refuses raw output to a terminal"
	skip_feature script "asm --format c may go to a terminal"
fi

# big-endian ABI: [arg0.lo] is the second word
printf 'ld [arg0.lo]\nld [arg0.hi]\nret a\n' >"$TMP/be.s"
expect_status 0 "asm --arch s390x" -- "$SYSCAGE" asm --arch s390x -o "$TMP/be.bpf" "$TMP/be.s"
"$SYSCAGE" disasm --format table "$TMP/be.bpf" >"$TMP/be.txt" 2>&1
expect_grep "$TMP/be.txt" '^   0  0x0020    0    0  0x00000014' "s390x: arg0.lo at offset 20"
expect_grep "$TMP/be.txt" '^   1  0x0020    0    0  0x00000010' "s390x: arg0.hi at offset 16"

# --- disassembling ---------------------------------------------------------
expect_status 0 "disasm" -- "$SYSCAGE" disasm "$TMP/deny.bpf"
expect_grep "$TMP/out" 'jeq #257, L[0-9]+ +; openat' "disasm names syscalls"
expect_grep "$TMP/out" 'ret ERRNO\(13\) +; EACCES' "disasm names errno values"
"$SYSCAGE" disasm <"$TMP/deny.bpf" >"$TMP/stdin.txt" 2>&1
expect_same "$TMP/out" "$TMP/stdin.txt" "disasm reads standard input"
expect_status 0 "disasm of assembler text (.s)" -- "$SYSCAGE" disasm "$DENY"

head -c 13 "$TMP/deny.bpf" >"$TMP/odd.bpf"
expect_status 2 "disasm: size not a multiple of 8" -- "$SYSCAGE" disasm "$TMP/odd.bpf"
expect_grep "$TMP/err" 'size 13 is not a multiple of 8' "disasm: odd size is explained"
: >"$TMP/empty.bpf"
expect_status 2 "disasm: empty file" -- "$SYSCAGE" disasm "$TMP/empty.bpf"
expect_status 2 "disasm: missing file" -- "$SYSCAGE" disasm "$TMP/none.bpf"

# round trip through the CLI: raw -> asm text -> raw, valid and garbage
"$SYSCAGE" disasm -o "$TMP/deny2.s" "$TMP/deny.bpf"
"$SYSCAGE" asm -o "$TMP/deny2.bpf" "$TMP/deny2.s"
expect_same "$TMP/deny.bpf" "$TMP/deny2.bpf" "round trip of deny-open"
LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 8 * 300; i++) printf "%c", int(rand() * 256) }' \
	>"$TMP/garbage.bpf"
expect_size "garbage input is 2400 bytes" "$TMP/garbage.bpf" 2400
"$SYSCAGE" disasm --arch aarch64 -o "$TMP/garbage.s" "$TMP/garbage.bpf"
"$SYSCAGE" asm --arch aarch64 -o "$TMP/garbage2.bpf" "$TMP/garbage.s"
expect_same "$TMP/garbage.bpf" "$TMP/garbage2.bpf" "round trip of random bytes"

# --- the C format compiles and holds the same bytes -------------------------
expect_status 0 "disasm --format c" -- "$SYSCAGE" disasm --format c -o "$TMP/filter.h" "$TMP/garbage.bpf"
CC=${CC:-cc}
if command -v "$CC" >/dev/null 2>&1; then
	cat >"$TMP/dump.c" <<'EOF'
#include <stdio.h>
#include "filter.h"
int main(int argc, char **argv)
{
	FILE *f = fopen(argv[1], "wb");
	(void)argc;
	if (!f || fwrite(prog.filter, sizeof(prog.filter[0]), prog.len, f) != prog.len)
		return 1;
	return fclose(f) != 0;
}
EOF
	"$SYSCAGE" disasm --format c "$TMP/deny.bpf" >"$TMP/deny.c"
	expect_status 0 "the C format compiles (cc -c)" -- "$CC" -c -o "$TMP/deny.o" "$TMP/deny.c"
	expect_status 0 "a program using the C array compiles" -- \
		"$CC" -Wall -Werror -o "$TMP/dump" "$TMP/dump.c" -I"$TMP"
	"$TMP/dump" "$TMP/from_c.bpf"
	expect_same "$TMP/garbage.bpf" "$TMP/from_c.bpf" "the C array holds the same bytes (random input)"
	"$SYSCAGE" asm --format c -o "$TMP/filter.h" "$DENY"
	"$CC" -Wall -Werror -o "$TMP/dump" "$TMP/dump.c" -I"$TMP" && "$TMP/dump" "$TMP/from_c.bpf"
	expect_same "$TMP/deny.bpf" "$TMP/from_c.bpf" "asm --format c holds the same bytes"
else
	skip_feature cc "the C format compiles"
fi

# --- Graphviz ----------------------------------------------------------------
expect_status 0 "disasm --format dot" -- "$SYSCAGE" disasm --format dot -o "$TMP/deny.dot" "$TMP/deny.bpf"
"$SYSCAGE" disasm --format dot -o "$TMP/garbage.dot" "$TMP/garbage.bpf"
if command -v dot >/dev/null 2>&1; then
	expect_status 0 "dot accepts the graph" -- dot -Tsvg -o "$TMP/deny.svg" "$TMP/deny.dot"
	expect_grep "$TMP/deny.svg" '<svg' "dot draws an svg"
	expect_status 0 "dot accepts the graph of random bytes" -- dot -Tsvg -o "$TMP/g.svg" "$TMP/garbage.dot"
else
	skip_feature dot "dot accepts the graph"
fi
expect_grep "$TMP/deny.dot" 'label="true"' "dot: true edges are labelled"
expect_grep "$TMP/deny.dot" 'label="false"' "dot: false edges are labelled"

# assembler for a big-endian first ABI names its words for that ABI in its header
cat >"$TMP/be.policy" <<'POL'
arch s390x, x86
default kill-process
allow socket if arg1 == 7
allow read, write
POL
"$SYSCAGE" compile --format asm "$TMP/be.policy" -o "$TMP/be.s" 2>/dev/null
"$SYSCAGE" compile "$TMP/be.policy" -o "$TMP/be.bpf" 2>/dev/null
expect_status 0 "asm reads a .s for the ABI its header names" -- "$SYSCAGE" asm "$TMP/be.s" -o "$TMP/be2.bpf"
expect_same "$TMP/be.bpf" "$TMP/be2.bpf" "the same filter as the compiled one"
expect_status 0 "asm --arch of the header's own ABI" -- "$SYSCAGE" asm --arch s390x "$TMP/be.s" -o "$TMP/be3.bpf"
expect_same "$TMP/be.bpf" "$TMP/be3.bpf" "the same filter again"
expect_status 2 "asm --arch of another ABI than the header's is refused" -- \
	"$SYSCAGE" asm --arch x86 "$TMP/be.s" -o "$TMP/be4.bpf"
expect_grep "$TMP/err" "be.s:1:1: error: the header says the names are for s390x, not for x86" \
	"the refusal names both ABIs"
if [ -e "$TMP/be4.bpf" ]; then not_ok "nothing written" "be4.bpf exists"; else ok "nothing written"; fi
sed '1s/s390x$/vax/' "$TMP/be.s" >"$TMP/vax.s"
expect_status 2 "a header naming an unknown ABI is refused" -- "$SYSCAGE" asm "$TMP/vax.s"
expect_grep "$TMP/err" "vax.s:1:[0-9]*: error: the header names the ABI 'vax'" "at its column"
