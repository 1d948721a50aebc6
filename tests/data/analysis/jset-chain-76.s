; jset-chain-76.s: a few syscalls denied, then 22 JSET forks on bits of the six
; arguments.  The not-taken side loads X, which nothing reads, so the two sides of
; each fork meet again at the next load in the same live state: 2^22 paths.
; docs/PERFORMANCE.md: the analysis commands on it.

	ld [arch]
	jne #AUDIT_ARCH_X86_64, kill
	ld [nr]
	jeq #ptrace, kill
	jeq #bpf, kill
	jeq #mount, eperm
	jeq #reboot, eperm
	ld [arg0.lo]
	jset #0x8, f1
	ldx #0
f1:	ld [arg1.lo]
	jset #0x10, f2
	ldx #1
f2:	ld [arg2.lo]
	jset #0x20, f3
	ldx #2
f3:	ld [arg3.lo]
	jset #0x40, f4
	ldx #3
f4:	ld [arg4.lo]
	jset #0x80, f5
	ldx #4
f5:	ld [arg5.lo]
	jset #0x100, f6
	ldx #5
f6:	ld [arg0.lo]
	jset #0x200, f7
	ldx #6
f7:	ld [arg1.lo]
	jset #0x400, f8
	ldx #7
f8:	ld [arg2.lo]
	jset #0x800, f9
	ldx #8
f9:	ld [arg3.lo]
	jset #0x1000, f10
	ldx #9
f10:	ld [arg4.lo]
	jset #0x2000, f11
	ldx #10
f11:	ld [arg5.lo]
	jset #0x4000, f12
	ldx #11
f12:	ld [arg0.lo]
	jset #0x8000, f13
	ldx #12
f13:	ld [arg1.lo]
	jset #0x10000, f14
	ldx #13
f14:	ld [arg2.lo]
	jset #0x20000, f15
	ldx #14
f15:	ld [arg3.lo]
	jset #0x40000, f16
	ldx #15
f16:	ld [arg4.lo]
	jset #0x80000, f17
	ldx #16
f17:	ld [arg5.lo]
	jset #0x100000, f18
	ldx #17
f18:	ld [arg0.lo]
	jset #0x200000, f19
	ldx #18
f19:	ld [arg1.lo]
	jset #0x400000, f20
	ldx #19
f20:	ld [arg2.lo]
	jset #0x800000, f21
	ldx #20
f21:	ld [arg3.lo]
	jset #0x1000000, f22
	ldx #21
f22:	ret ALLOW
eperm:	ret ERRNO(EPERM)
kill:	ret KILL_PROCESS
