#!/usr/bin/env bash
# syscage verify: decisions, exit statuses, messages with the instruction
# index and rule, warnings, stacks, the cache report and JSON.
. "$(dirname "$0")/../cli_lib.bash"

# Raw records: code (LE 16), jt, jf, k (LE 32), written with printf escapes.
ret_allow='\006\000\000\000\000\000\377\177'
printf "$ret_allow" >"$TMP/allow.bpf"
# ld [0]; jeq #1, +5, +0 (past the end); ret ALLOW
printf '\040\000\000\000\000\000\000\000\025\000\005\000\001\000\000\000'"$ret_allow" >"$TMP/jump.bpf"
printf '\006\200\000\000\000\000\000\000' >"$TMP/opcode.bpf"
printf '\006\000\000\000\000\000\377' >"$TMP/short.bpf"
for i in $(seq 4096); do printf "$ret_allow"; done >"$TMP/big.bpf"

cat >"$TMP/good.s" <<'ASM'
ld [4]
jeq #0xc000003e, arch_ok, kill
arch_ok:
ld [0]
jge #0x40000000, kill, native
native:
jeq #59, deny, allow
deny:
ret #0x50001
allow:
ret #0x7fff0000
kill:
ret #0x80000000
ASM
cat >"$TMP/bad.s" <<'ASM'
ld [0]
jeq #59, +0, +1
ret #0x80000000
ld [2]
ret a
ASM
cat >"$TMP/warn.s" <<'ASM'
ld [0]
jeq #59, +0, +1
ret #0
ret a
ASM
# kernel-semantics.md C2: safe on every path, refused by the kernel's linear check
cat >"$TMP/scratch.s" <<'ASM'
ld [0]
jeq #1, +0, +2
st M[0]
ja +1
ret #0x7fff0000
ld M[0]
ret a
ASM

expect_status 0 "accepted asm exits 0" -- "$SYSCAGE" verify "$TMP/good.s"
expect_grep "$TMP/out" 'good\.s: accepted \(8 instructions, 15 translated; 1724 filters of this size fit in one stack\)$' \
	"accepted line gives lengths and capacity"
if [ "$(wc -l <"$TMP/out")" -eq 1 ]; then ok "a careful filter has no warnings"; else
	not_ok "a careful filter has no warnings" "$(cat "$TMP/out")"; fi

expect_status 1 "refused asm exits 1" -- "$SYSCAGE" verify "$TMP/bad.s"
expect_grep "$TMP/out" 'bad\.s: insn 3: error: ld \[2\] is not 4-byte aligned.*\[seccomp-load-offset\]$' \
	"refusal names the instruction and rule"
expect_grep "$TMP/out" '^  hint: ' "refusal has a hint"

expect_status 1 "linear scratch rule refuses like the kernel" -- "$SYSCAGE" verify "$TMP/scratch.s"
expect_grep "$TMP/out" 'insn 5: error: ld M\[0\]: .*\[scratch-read-before-write\]$' "scratch refusal at insn 5"

expect_status 0 "raw filter accepted" -- "$SYSCAGE" verify "$TMP/allow.bpf"
expect_grep "$TMP/out" 'allow\.bpf: accepted \(1 instruction, 5 translated; 3641 filters' "raw filter capacity 3641"
expect_status 1 "jump past the end refused" -- "$SYSCAGE" verify "$TMP/jump.bpf"
expect_grep "$TMP/out" 'insn 1: error: jeq jumps 5 ahead \(true branch\) to index 7, past the last instruction \(index 2\) \[jump-out-of-range\]' \
	"jump message with indices"
expect_status 1 "unknown opcode refused" -- "$SYSCAGE" verify "$TMP/opcode.bpf"
expect_grep "$TMP/out" 'insn 0: error: code 0x8006 .*\[opcode-unknown\]' "unknown opcode rule"
expect_status 0 "stdin is read as raw records" -- sh -c "\"$SYSCAGE\" verify - <\"$TMP/allow.bpf\""
expect_grep "$TMP/out" '^<stdin>: accepted' "stdin is named <stdin>"

expect_status 0 "warnings do not change the decision" -- "$SYSCAGE" verify "$TMP/warn.s"
expect_grep "$TMP/out" 'warn\.s: insn 1: warning: .*\[no-arch-check\]$' "no-arch-check warning"
expect_grep "$TMP/out" 'warn\.s: insn 2: warning: returns KILL_THREAD.*\[kill-thread\]$' "kill-thread warning"
expect_grep "$TMP/out" 'warn\.s: insn 3: warning: ret a.*\[ret-a\]$' "ret-a warning"

expect_status 2 "no file is a usage error" -- "$SYSCAGE" verify
expect_status 2 "unknown option is a usage error" -- "$SYSCAGE" verify --bogus "$TMP/allow.bpf"
expect_status 2 "unknown arch is a usage error" -- "$SYSCAGE" verify --arch x68 "$TMP/allow.bpf"
expect_grep "$TMP/err" "did you mean" "unknown arch gets a hint"
expect_status 2 "missing file is an I/O error" -- "$SYSCAGE" verify "$TMP/missing.bpf"
expect_grep "$TMP/err" "missing\.bpf" "the missing file is named"
expect_status 2 "truncated raw file is an input error" -- "$SYSCAGE" verify "$TMP/short.bpf"
expect_status 0 "--help exits 0" -- "$SYSCAGE" verify --help
expect_grep "$TMP/out" '^usage: syscage verify' "--help prints usage"

expect_status 0 "a stack that fits" -- "$SYSCAGE" verify "$TMP/good.s" "$TMP/allow.bpf"
expect_grep "$TMP/out" '^stack of 2 filters: accepted \(path length 24 of 32768 translated instructions; 3638 more copies of .*allow\.bpf would fit\)$' \
	"stack line gives the path length and what else fits"
expect_status 1 "four 4096-instruction filters exceed the path limit" -- \
	"$SYSCAGE" verify "$TMP/big.bpf" "$TMP/big.bpf" "$TMP/big.bpf" "$TMP/big.bpf"
expect_grep "$TMP/out" 'big\.bpf: accepted \(4096 instructions, 8195 translated; 3 filters' "4096 x ret fits 3 times"
expect_grep "$TMP/out" '^stack of 4 filters: .*big\.bpf: error: filter 4 of 4: .*\[path-limit\]$' \
	"path-limit names the filter"
expect_status 1 "one refused file refuses the run" -- "$SYSCAGE" verify "$TMP/good.s" "$TMP/bad.s"

expect_status 0 "--cache" -- "$SYSCAGE" verify --cache --arch x86_64 "$TMP/good.s"
expect_grep "$TMP/out" '^cache: x86_64 \(AUDIT_ARCH_X86_64\): [0-9]+ of [0-9]+ syscall numbers always allowed: 0-58 \(read\.\.vfork\), 60-' \
	"x86_64 cache ranges with names, execve excluded"
expect_grep "$TMP/out" '^cache: x86 \(AUDIT_ARCH_I386\): 0 of ' "i386 compat ABI reported, nothing cached"

expect_status 1 "--json exits like text" -- "$SYSCAGE" verify --json "$TMP/bad.s" "$TMP/warn.s"
expect_grep "$TMP/out" '^  "accepted": false,$' "json run verdict"
expect_grep "$TMP/out" '"file": ".*bad\.s", "accepted": false, .*"error": \{"insn": 3, "rule": "seccomp-load-offset", ' \
	"json error object"
expect_grep "$TMP/out" '"errno": "EINVAL"' "json errno"
expect_grep "$TMP/out" '"warnings": \[\{"insn": 1, "rule": "no-arch-check", ' "json warnings"
opens=$(tr -cd '{[' <"$TMP/out" | wc -c)
closes=$(tr -cd '}]' <"$TMP/out" | wc -c)
if [ "$opens" -eq "$closes" ] && [ "$opens" -gt 3 ]; then ok "json brackets balance"; else
	not_ok "json brackets balance" "$opens opening, $closes closing"; fi
expect_status 0 "--json of an accepted stack" -- "$SYSCAGE" verify --json --arch x86_64 "$TMP/good.s" "$TMP/allow.bpf"
expect_grep "$TMP/out" '"stack": \{"filters": 2, "accepted": true, "limit": 32768, "path_len": 24, ' "json stack"
expect_grep "$TMP/out" '\{"arch": "x86_64", "audit_arch": "0xc000003e", "max_nr": [0-9]+, "count": [0-9]+, "ranges": \[\[0, 58\], \[60, ' \
	"json cache ranges"
