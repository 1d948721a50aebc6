#!/usr/bin/env bash
# syscage fuse: one filter for a stack, from files in every input format and from a
# running process; the result decides every call as the stack does (emu --batch over
# many calls, and syscage diff between the two constructions), written atomically.
. "$(dirname "$0")/../cli_lib.bash"
# run and bench install filters, which valgrind's own syscalls would meet, and valgrind does
# not model PTRACE_SECCOMP_GET_FILTER: under the valgrind suite those run unwrapped
# (SYSCAGE_REAL), the rest of fuse under memcheck
REAL=${SYSCAGE_REAL:-$SYSCAGE}

cat >"$TMP/a.policy" <<'EOF'
default allow
errno(EPERM) ptrace, mount
kill reboot
errno(EACCES) openat if (flags & O_CREAT) != 0
errno(EPERM) personality if persona != 0xffffffff
EOF
cat >"$TMP/b.policy" <<'EOF'
default allow
errno(EIO) mount, umount2
trap(3) reboot
errno(ENOENT) openat if (flags & O_TRUNC) != 0
allow socket if domain == AF_UNIX
errno(EAFNOSUPPORT) socket
log getppid
EOF
cat >"$TMP/c.s" <<'EOF'
; hand-written: checks the ABI, denies getpid and uname with different errnos
	ld [arch]
	jne #AUDIT_ARCH_X86_64, kill
	ld [nr]
	jeq #getpid, pid
	jeq #uname, un
	jeq #mount, mnt
	ret ALLOW
pid:	ret ERRNO(11)
un:	ret TRACE(9)
mnt:	ret ERRNO(5)
kill:	ret KILL_PROCESS
EOF
"$SYSCAGE" compile "$TMP/b.policy" -o "$TMP/b.bpf" 2>/dev/null
"$SYSCAGE" compile "$TMP/a.policy" -o "$TMP/a.bpf" 2>/dev/null
"$SYSCAGE" asm "$TMP/c.s" -o "$TMP/c.bpf" 2>/dev/null

# Calls for emu --batch: every ABI the filters know something of, interesting arguments.
calls() {
	local abi
	for abi in x86_64 x86 x32; do
		for sc in getpid getppid uname mount umount2 reboot ptrace read write; do
			echo "$abi $sc"
		done
		for fl in 0 0x40 0x200 0x240 0x10000; do echo "$abi openat 0 0 $fl"; done
		for d in 0 1 2 10 0x100000001; do echo "$abi socket $d 0 0"; done
		for p in 0 0xffffffff 8; do echo "$abi personality $p"; done
	done
	echo "aarch64 getpid"
	echo "x86_64 999"
}
calls >"$TMP/calls"

# same_as_stack NAME FUSED FILTER...: emu --batch of the stack and of the fused filter agree
same_as_stack() {
	local name=$1 fused=$2
	shift 2
	local args=() f
	for f in "$@"; do args+=(-f "$f"); done
	"$SYSCAGE" emu "${args[@]}" --batch "$TMP/calls" >"$TMP/stack.out" 2>"$TMP/err"
	"$SYSCAGE" emu -f "$fused" --batch "$TMP/calls" >"$TMP/fused.out" 2>>"$TMP/err"
	if [ -s "$TMP/stack.out" ] && cmp -s "$TMP/stack.out" "$TMP/fused.out"; then ok "$name"; else
		not_ok "$name" "$(diff "$TMP/stack.out" "$TMP/fused.out" | head -n 8)" "$(head -c 300 "$TMP/err")"
	fi
}

expect_status 0 "fuse a policy, a raw filter and assembler" -- \
	"$SYSCAGE" fuse -f "$TMP/a.policy" -f "$TMP/b.bpf" -f "$TMP/c.s" -o "$TMP/f.bpf"
expect_grep "$TMP/err" "3 filters \([0-9]+ instructions\) decompiled and compiled into one of [0-9]+ instructions, proven equal to the stack" \
	"fuse says what it did and that it was proven"
same_as_stack "the fused filter decides every call as the stack does" "$TMP/f.bpf" \
	"$TMP/a.bpf" "$TMP/b.bpf" "$TMP/c.bpf"
expect_emu "mount: ERRNO from three filters, the newest one's errno" "ERRNO(5)" -- \
	-f "$TMP/f.bpf" mount
expect_emu "reboot: KILL beats TRAP" "KILL_PROCESS" -- -f "$TMP/f.bpf" reboot
expect_emu "uname: TRACE from the newest filter" "TRACE(9)" -- -f "$TMP/f.bpf" uname
expect_emu "getppid: LOG" "LOG" -- -f "$TMP/f.bpf" getppid
expect_emu "openat O_CREAT|O_TRUNC: the newer filter's errno" "ERRNO(2)" -- \
	-f "$TMP/f.bpf" openat 0 0 'O_CREAT|O_TRUNC'

expect_status 0 "fuse --chain" -- \
	"$SYSCAGE" fuse --chain -f "$TMP/a.bpf" -f "$TMP/b.bpf" -f "$TMP/c.bpf" -o "$TMP/fc.bpf"
expect_grep "$TMP/err" "chained into one of" "fuse --chain chains"
same_as_stack "the chained filter decides every call as the stack does" "$TMP/fc.bpf" \
	"$TMP/a.bpf" "$TMP/b.bpf" "$TMP/c.bpf"
expect_status 0 "syscage diff proves the two constructions equal" -- \
	"$SYSCAGE" diff "$TMP/f.bpf" "$TMP/fc.bpf"
expect_grep "$TMP/out" "^equivalent$" "diff: equivalent"

# the order is the install order: reversed, the other filter's errno wins the tie
expect_status 0 "fuse in the other order" -- \
	"$SYSCAGE" fuse -f "$TMP/c.bpf" -f "$TMP/b.bpf" -f "$TMP/a.bpf" -o "$TMP/r.bpf"
expect_emu "mount: reversed, the now newest filter's errno" "ERRNO(1)" -- -f "$TMP/r.bpf" mount
same_as_stack "the reversed stack, fused" "$TMP/r.bpf" "$TMP/c.bpf" "$TMP/b.bpf" "$TMP/a.bpf"

# kernel-semantics.md D2: ERRNO 11, 13, 12 installed in that order -> 12
for e in 11 13 12; do
	printf 'ld [arch]\njne #AUDIT_ARCH_X86_64, k\nld [nr]\njeq #getpid, e\nret ALLOW\ne: ret ERRNO(%s)\nk: ret KILL_PROCESS\n' \
		"$e" >"$TMP/e$e.s"
done
expect_status 0 "fuse three ERRNO filters" -- \
	"$SYSCAGE" fuse -f "$TMP/e11.s" -f "$TMP/e13.s" -f "$TMP/e12.s" -o "$TMP/e.bpf"
expect_emu "ERRNO 11, 13, 12: the newest wins" "ERRNO(12)" -- -f "$TMP/e.bpf" getpid

# built-in profiles and Docker's JSON
docker="$(dirname "$0")/../data/docker-default.json"
"$SYSCAGE" compile default -o "$TMP/default.bpf" 2>/dev/null
"$SYSCAGE" compile "$docker" -o "$TMP/docker.bpf" 2>/dev/null
expect_status 0 "fuse Docker's JSON under the default profile and a policy" -- \
	"$SYSCAGE" fuse -f "$docker" -f default -f "$TMP/b.policy" -o "$TMP/d.bpf"
same_as_stack "Docker's JSON, default and a policy, fused" "$TMP/d.bpf" \
	"$TMP/docker.bpf" "$TMP/default.bpf" "$TMP/b.bpf"

# a filter that tests no ABI cannot be a policy: chained, and said so
printf 'ld [nr]\njeq #getpid, d\nret ALLOW\nd: ret ERRNO(7)\n' >"$TMP/noarch.s"
expect_status 0 "a stack without any ABI check" -- \
	"$SYSCAGE" fuse -f "$TMP/noarch.s" -f "$TMP/noarch.s" -o "$TMP/na.bpf"
expect_grep "$TMP/err" "not decompiled, chained instead" "fuse says why it chained"
expect_emu "the chained filter on x86, nr 39 alike" "ERRNO(7)" -- -a x86 -f "$TMP/na.bpf" 39

# formats
expect_status 0 "--format policy" -- "$SYSCAGE" fuse -f "$TMP/a.policy" -f "$TMP/b.policy" --format policy
expect_grep "$TMP/out" "^errno\(EIO\) mount" "the fused policy names the newest errno"
expect_status 0 "--format asm" -- "$SYSCAGE" fuse -f "$TMP/a.policy" -f "$TMP/b.policy" -F asm
expect_grep "$TMP/out" "ld \[arch\]" "assembler output"
expect_status 2 "--format policy of a chained stack" -- \
	"$SYSCAGE" fuse --chain -f "$TMP/a.policy" -f "$TMP/b.policy" --format policy
expect_status 0 "--json" -- "$SYSCAGE" fuse -f "$TMP/a.policy" -f "$TMP/b.policy" -o "$TMP/j.bpf" --json
expect_grep "$TMP/out" '"filters": 2, .*"method": "decompiled", "proven_equal": true' "--json says what was done"

# USER_NOTIF
printf 'default allow\nnotify mkdirat\n' >"$TMP/n.policy"
expect_status 0 "a stack with USER_NOTIF" -- "$SYSCAGE" fuse -f "$TMP/n.policy" -f "$TMP/a.policy" -o "$TMP/n.bpf"
expect_grep "$TMP/err" "returns USER_NOTIF: install it with SECCOMP_FILTER_FLAG_NEW_LISTENER" "fuse states the listener"
expect_emu "mkdirat: USER_NOTIF" "USER_NOTIF" -- -f "$TMP/n.bpf" mkdirat

# nothing is written when anything fails; the old file stays as it was
echo keep >"$TMP/keep.bpf"
expect_status 2 "a missing input" -- "$SYSCAGE" fuse -f "$TMP/a.policy" -f "$TMP/nope.bpf" -o "$TMP/keep.bpf"
if [ "$(cat "$TMP/keep.bpf")" = keep ] && [ "$(ls "$TMP" | grep -c '^keep')" -eq 1 ]; then
	ok "a failed fuse leaves OUT and the directory as they were"
else
	not_ok "a failed fuse leaves OUT and the directory as they were" "$(ls "$TMP")"
fi
printf 'ld [nr]\nret a\n' >"$TMP/bad.s"
expect_status 2 "a filter the kernel refuses is no input" -- \
	"$SYSCAGE" fuse -f "$TMP/a.policy" -f "$TMP/bad.s" -o "$TMP/keep.bpf"
expect_status 2 "no filter" -- "$SYSCAGE" fuse -o "$TMP/x.bpf"
expect_status 2 "both -f and --pid" -- "$SYSCAGE" fuse -f "$TMP/a.policy" --pid 1
expect_status 2 "an operand" -- "$SYSCAGE" fuse "$TMP/a.policy"

# --- syscage bench's fuse section (one short round: the rows exist and load) --------
expect_status 0 "bench --only fuse" -- "$REAL" bench --only fuse --quick --reps 1 --json
expect_grep "$TMP/out" '"fuse": \[' "bench: a fuse section"
expect_grep "$TMP/out" '"label": "8 filters \(stack\), uncacheable", "call": "getppid"' "bench: the stack of 8"
expect_grep "$TMP/out" '"label": "fused", "call": "personality"' "bench: the fused filter"
# A row can come out untrusted (a repetition faster than the fastest call with no filter): that is
# the machine's timing, said in the row; any other error is a row that failed to run.
if grep '"error"' "$TMP/out" | grep -qv '"error": "untrusted: '; then
	not_ok "bench: every fuse row measured" "$(grep '"error"' "$TMP/out" | grep -m1 -v '"error": "untrusted: ')"
else
	ok "bench: every fuse row measured"
fi

# cli/bench/fuse_data.c is what tools/gen-bench-hardening.py makes of bench/data/hardening/
src=$(dirname "$0")/../..
if python3 "$src/tools/gen-bench-hardening.py" "$TMP/gen.c" "$src"/bench/data/hardening/*.policy 2>"$TMP/err" &&
	cmp -s "$TMP/gen.c" "$src/cli/bench/fuse_data.c"; then
	ok "cli/bench/fuse_data.c is up to date with bench/data/hardening/"
else
	not_ok "cli/bench/fuse_data.c is up to date with bench/data/hardening/" \
		"run: tools/gen-bench-hardening.py cli/bench/fuse_data.c bench/data/hardening/*.policy"
fi

# --- a process's stack -------------------------------------------------------------
fuse_pid() {
	"$REAL" run -q -p "$TMP/a.policy" -- "$REAL" run -q --no-report -p "$TMP/b.policy" -- \
		sh -c 'echo $$; exec sleep 30' >"$TMP/pid" 2>/dev/null & # a.policy denies O_CREAT
	local runner=$! i
	for i in $(seq 100); do [ -s "$TMP/pid" ] && break; sleep 0.1; done
	local pid
	pid=$(cat "$TMP/pid" 2>/dev/null)
	if [ -z "$pid" ]; then
		not_ok "a process under two nested syscage run"
		kill "$runner" 2>/dev/null
		return
	fi
	# valgrind does not know what PTRACE_SECCOMP_GET_FILTER writes: unwrapped here too
	expect_status 0 "fuse --pid: the stack of a running process" -- \
		"$REAL" fuse --pid "$pid" -o "$TMP/p.bpf"
	expect_grep "$TMP/err" "proven equal to the stack" "fuse --pid proves the result"
	mkdir -p "$TMP/dump"
	"$REAL" dump --format raw -o "$TMP/dump" "$pid" >/dev/null 2>&1
	local files=() f
	while read -r f; do files+=("$f"); done < <(ls "$TMP"/dump/filter-*.bpf 2>/dev/null | sort -V)
	if [ ${#files[@]} -ge 2 ]; then
		same_as_stack "fuse --pid decides as the dumped stack does" "$TMP/p.bpf" "${files[@]}"
	else
		not_ok "dump wrote the process's filters" "$(ls "$TMP/dump")"
	fi
	expect_emu "fuse --pid: mount gets the inner run's errno" "ERRNO(5)" -- -f "$TMP/p.bpf" mount
	kill "$pid" "$runner" 2>/dev/null
	wait "$runner" 2>/dev/null
}
if have_feature ptrace-get-filter; then
	fuse_pid
else
	skip_feature ptrace-get-filter "fuse --pid"
fi
if have_feature no-inherited-filter; then
	expect_status 2 "fuse --pid of a process without filters" -- "$REAL" fuse --pid $$ -o "$TMP/y.bpf"
	expect_grep "$TMP/err" "has no seccomp filter" "fuse --pid says there is no filter"
else
	skip_feature no-inherited-filter "fuse --pid of a process without filters"
fi

# `div x` with X == 0 ends the filter with 0 (KILL_THREAD): X never written, loaded
# with 0, or copied from a zero A
for setup in "" "ldx #0" "ld #0; tax"; do
	div_by_zero_filter "$setup" >"$TMP/dz.s"
	printf 'default allow\n' >"$TMP/allowall.policy"
	expect_status 0 "fuse: div by a zero X (${setup:-X never written})" -- \
		"$SYSCAGE" fuse -f "$TMP/dz.s" -f "$TMP/allowall.policy" -o "$TMP/dz.bpf"
	expect_emu "fuse: div by a zero X (${setup:-X never written}) kills the thread" KILL_THREAD -- \
		-a x86_64 -f "$TMP/dz.bpf" getpid
done

# An older filter's KILL_PROCESS wins over a newer filter's exit by a zero divisor, in
# the decompiled filter and the chained one (each of the stack's filters runs to its end)
cat >"$TMP/kp.s" <<'ASM'
	ld [nr]
	jeq #seccomp, allow
	ret KILL_PROCESS
allow:	ret ALLOW
ASM
printf '\tld [nr]\n\tdiv x\n\tret ALLOW\n' >"$TMP/dz0.s"
for how in "" --chain; do
	expect_status 0 "fuse ${how:-(decompiled)}: KILL_PROCESS, then a zero divisor" -- \
		"$SYSCAGE" fuse $how -f "$TMP/kp.s" -f "$TMP/dz0.s" -o "$TMP/kpdz.bpf"
	expect_emu "fuse ${how:-(decompiled)}: the older KILL_PROCESS wins" KILL_PROCESS -- \
		-a x86_64 -f "$TMP/kpdz.bpf" getpid
	expect_emu "fuse ${how:-(decompiled)}: seccomp gets the zero divisor's KILL_THREAD" \
		KILL_THREAD -- -a x86_64 -f "$TMP/kpdz.bpf" seccomp
	expect_emu "fuse ${how:-(decompiled)}: an unknown ABI too" KILL_PROCESS -- \
		-a aarch64 -f "$TMP/kpdz.bpf" getpid
done

# assembler for a big-endian first ABI names its words for that ABI in its header
cat >"$TMP/be.policy" <<'POL'
arch s390x, x86
default kill-process
allow socket if arg1 == 7
allow read, write
POL
"$SYSCAGE" compile --format asm "$TMP/be.policy" -o "$TMP/be.s" 2>/dev/null
"$SYSCAGE" compile "$TMP/be.policy" -o "$TMP/be.bpf" 2>/dev/null
expect_status 0 "fuse reads a .s for its header's ABI" -- \
	"$SYSCAGE" fuse -f "$TMP/be.s" -f "$TMP/be.s" -o "$TMP/be-fused.bpf"
expect_emu "fuse of the .s: x86 socket 0 0x700000000 is killed" KILL_PROCESS -- \
	-a x86 -f "$TMP/be-fused.bpf" socket 0 0x700000000
expect_emu "fuse of the .s: x86 socket 0 7 is allowed" ALLOW -- \
	-a x86 -f "$TMP/be-fused.bpf" socket 0 7
printf '\tld [arg1.lo]\n\tjeq #7, ok\n\tret KILL_PROCESS\nok:\tret ALLOW\n' >"$TMP/nohdr.s"
expect_status 0 "fuse -a names the words of a .s without a header" -- \
	"$SYSCAGE" fuse -a s390x --chain -f "$TMP/nohdr.s" -o "$TMP/nohdr.bpf"
expect_emu "fuse -a s390x: arg1.lo is s390x's" ALLOW -- -a s390x -f "$TMP/nohdr.bpf" read 0 7

# past the engine's limits: said as that, not as errno E2BIG's text
printf '\tld [nr]\n\tret a\n' >"$TMP/ret-nr.s"
expect_status 2 "fuse of a filter past the engine's limits" -- "$SYSCAGE" fuse -f "$TMP/ret-nr.s" -o "$TMP/rn.bpf"
expect_grep "$TMP/err" "fuse: nothing written: the analysis gave up where" "fuse says the analysis gave up"
if grep -q "Argument list too long" "$TMP/err"; then not_ok "fuse: no E2BIG text" "$(cat "$TMP/err")"; else ok "fuse: no E2BIG text"; fi

echo "1..$n"
