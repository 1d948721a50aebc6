#!/usr/bin/env bash
# syscage syscalls: resolving both ways, hints, listings, exit statuses.
. "$(dirname "$0")/../cli_lib.bash"

expect_status 0 "name and number resolve" -- "$SYSCAGE" syscalls --arch x86_64 openat 257
expect_grep "$TMP/out" '^openat 257$' "a name prints NAME NUMBER"
if [ "$(sed -n 2p "$TMP/out")" = "openat 257" ]; then ok "a number prints NAME NUMBER"; else
	not_ok "a number prints NAME NUMBER" "$(cat "$TMP/out")"
fi

expect_status 0 "x32 numbers carry bit 30" -- "$SYSCAGE" syscalls --arch x32 read
expect_grep "$TMP/out" '^read 1073741824$' "x32 read is 0x40000000"

expect_status 2 "a typo fails but the rest resolve" -- "$SYSCAGE" syscalls -a x86_64 opnat read
expect_grep "$TMP/err" "unknown syscall 'opnat' on x86_64; did you mean 'openat'\?" "typo gets a hint"
expect_grep "$TMP/out" '^read 0$' "the other argument still resolves"

expect_status 2 "a syscall missing on this ABI fails" -- "$SYSCAGE" syscalls --arch arm64 open
expect_grep "$TMP/err" "not on aarch64; it exists on x86_64" "says where it exists"

# Syscalls older kernels' tables listed: libseccomp names them, and so must
# the tables, or rules for them (Podman's uselib) add nothing.
expect_status 0 "removed syscalls keep their numbers" -- "$SYSCAGE" syscalls --arch x86_64 uselib _sysctl create_module
expect_grep "$TMP/out" '^uselib 134$' "x86_64 uselib is 134"
expect_grep "$TMP/out" '^create_module 174$' "x86_64 create_module is 174"
expect_status 0 "on m68k too" -- "$SYSCAGE" syscalls --arch m68k uselib 189
expect_grep "$TMP/out" '^uselib 86$' "m68k uselib is 86"
expect_grep "$TMP/out" '^putpmsg 189$' "m68k 189 is putpmsg"

expect_status 0 "--all-arches shows every ABI" -- "$SYSCAGE" syscalls --all-arches open
expect_grep "$TMP/out" '^aarch64 +open -$' "absent ABIs show '-'"
expect_grep "$TMP/out" '^mips +open 4005$' "mips o32 numbers carry 4000"

expect_status 0 "--list prints a whole table" -- "$SYSCAGE" syscalls --list --arch arm
expect_grep "$TMP/out" '^983042 cacheflush$' "arm private syscalls are listed"

expect_status 0 "--arches lists the ABIs" -- "$SYSCAGE" syscalls --arches
expect_grep "$TMP/out" '^sheb +0x0000002a +AUDIT_ARCH_SH ' "sheb is plain AUDIT_ARCH_SH"
expect_grep "$TMP/out" '\(native\)$' "the native ABI is marked"

expect_status 0 "--json output" -- "$SYSCAGE" syscalls --json --arch x86 socketcall
expect_grep "$TMP/out" '"name": "socketcall", "nr": 102' "JSON has name and number"

expect_status 2 "no argument is a usage error" -- "$SYSCAGE" syscalls
expect_status 2 "an unknown ABI is a usage error" -- "$SYSCAGE" syscalls --arch amd46 read
expect_grep "$TMP/err" "did you mean 'amd64'" "unknown ABI gets a hint"
