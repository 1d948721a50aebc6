#!/usr/bin/env bash
# syscage lint: each finding on a filter built to have it, rule lines for
# policies, severities, --severity exit statuses and JSON.
. "$(dirname "$0")/../cli_lib.bash"

printf 'ld [nr]\njeq #101, deny\nret ALLOW\ndeny: ret KILL_THREAD\nret TRACE(1)\n' >"$TMP/noarch.s"
expect_status 1 "a filter without an arch check" -- "$SYSCAGE" lint "$TMP/noarch.s"
expect_grep "$TMP/out" "^insn 0: error: .*never tests the ABI.*\[no-arch-check\]$" "no-arch-check"
expect_grep "$TMP/out" "^  fix: " "every finding has a fix"
expect_grep "$TMP/out" "denied on x86_64 .* allowed through the x86 ABI \(first: ptrace\) \[abi-bypass\]" \
	"i386 numbers bypass it"
expect_grep "$TMP/out" "allowed through the x32 ABI .*\[abi-bypass\]" "x32 numbers bypass it"
expect_grep "$TMP/out" "^insn 3: warning: KILL_THREAD .*\[kill-thread\]" "kill-thread at its instruction"
expect_grep "$TMP/out" "^insn 4: warning: no input reaches instructions 4\.\.4 \[unreachable\]" "unreachable"
expect_grep "$TMP/out" "^insn 4: info: TRACE .*\[trace-without-tracer\]" "trace"
expect_grep "$TMP/out" "bpf is allowed.*\[risky-syscall\]" "risky syscalls"

cat >"$TMP/p.policy" <<'POL'
arch x86_64, x86
default errno(EPERM)
allow read, write, close, getpid, socketcall, io_uring_setup, io_uring_enter
allow socket if domain == AF_UNIX
allow openat
allow unshare
allow openat
POL
expect_status 1 "a policy" -- "$SYSCAGE" lint "$TMP/p.policy"
expect_grep "$TMP/out" "p\.policy:3: warning: on x86, socket is restricted but socketcall.*\[multiplexer-bypass\]" \
	"socketcall, at its rule line"
expect_grep "$TMP/out" "p\.policy:3: warning: on x86_64, io_uring is allowed while [a-z]+ is restricted.*\[io-uring-bypass\]" \
	"io_uring, at its rule line"
expect_grep "$TMP/out" "p\.policy:6: warning: on x86_64, unshare is allowed.*CLONE_NEWUSER" "unshare, at its line"
expect_grep "$TMP/out" "p\.policy:7: " "the parser's own warning for the repeated rule"
expect_grep "$TMP/out" "info: on x86_64, syscalls newer than the filter get ERRNO\(1\).*\[unknown-not-enosys\]" \
	"EPERM for unknown syscalls"
if grep -q "no-arch-check\|abi-bypass" "$TMP/out"; then not_ok "compiled policies check the ABI"
else ok "compiled policies check the ABI"; fi

expect_status 0 "--severity error: nothing at that level" -- "$SYSCAGE" lint --severity error "$TMP/p.policy"
expect_status 1 "--severity info" -- "$SYSCAGE" lint --severity info "$TMP/p.policy"
expect_status 2 "--severity nonsense" -- "$SYSCAGE" lint --severity loud "$TMP/p.policy"

cat >"$TMP/wide.policy" <<'POL'
arch x86_64
default kill-process
unknown errno(ENOSYS)
allow read, write
allow kill if arg1 == 0xffffffff
POL
expect_status 1 "an int parameter compared over 64 bits" -- "$SYSCAGE" lint "$TMP/wide.policy"
expect_grep "$TMP/out" "wide\.policy:5: warning: on x86_64, kill's argument 1 \(int sig\) is tested over 64 bits.*\[int-compared-64\]" \
	"int-compared-64 at the rule"
printf 'arch x86_64\ndefault kill-process\nunknown errno(ENOSYS)\nallow kill if sig == -1\n' >"$TMP/narrow.policy"
expect_status 0 "the parameter's name compares 32 bits" -- "$SYSCAGE" lint "$TMP/narrow.policy"

cat >"$TMP/good.policy" <<'POL'
arch x86_64
default kill-process
unknown errno(ENOSYS)
allow read, write, close, exit_group
POL
expect_status 0 "a tight policy" -- "$SYSCAGE" lint "$TMP/good.policy"
expect_grep "$TMP/out" "^no findings$" "no findings"

expect_status 1 "--json" -- "$SYSCAGE" lint --json "$TMP/noarch.s"
expect_grep "$TMP/out" '"severity": "error", "code": "no-arch-check", "insn": 0' "json finding"
if command -v python3 >/dev/null; then
	if python3 -m json.tool "$TMP/out" >/dev/null 2>&1; then ok "json parses"; else not_ok "json parses"; fi
fi
expect_status 2 "a missing file" -- "$SYSCAGE" lint "$TMP/none.bpf"
expect_status 0 "--help" -- "$SYSCAGE" lint --help
echo "1..$n"
