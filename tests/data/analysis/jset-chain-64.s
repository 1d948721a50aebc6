; jset-chain-64.s: 20 JSET forks on bits of the six arguments.  The not-taken side
; loads arg.hi into A, which the next load overwrites, so the two sides of each
; fork meet again in the same live state: 2^20 paths, two verdicts.
; docs/PERFORMANCE.md: the analysis commands on it.

	ld [arch]
	jne #AUDIT_ARCH_X86_64, kill
	ld [arg0.lo]
	jset #0x8, f1
	ld [arg0.hi]
f1:	ld [arg1.lo]
	jset #0x10, f2
	ld [arg1.hi]
f2:	ld [arg2.lo]
	jset #0x20, f3
	ld [arg2.hi]
f3:	ld [arg3.lo]
	jset #0x40, f4
	ld [arg3.hi]
f4:	ld [arg4.lo]
	jset #0x80, f5
	ld [arg4.hi]
f5:	ld [arg5.lo]
	jset #0x100, f6
	ld [arg5.hi]
f6:	ld [arg0.lo]
	jset #0x200, f7
	ld [arg0.hi]
f7:	ld [arg1.lo]
	jset #0x400, f8
	ld [arg1.hi]
f8:	ld [arg2.lo]
	jset #0x800, f9
	ld [arg2.hi]
f9:	ld [arg3.lo]
	jset #0x1000, f10
	ld [arg3.hi]
f10:	ld [arg4.lo]
	jset #0x2000, f11
	ld [arg4.hi]
f11:	ld [arg5.lo]
	jset #0x4000, f12
	ld [arg5.hi]
f12:	ld [arg0.lo]
	jset #0x8000, f13
	ld [arg0.hi]
f13:	ld [arg1.lo]
	jset #0x10000, f14
	ld [arg1.hi]
f14:	ld [arg2.lo]
	jset #0x20000, f15
	ld [arg2.hi]
f15:	ld [arg3.lo]
	jset #0x40000, f16
	ld [arg3.hi]
f16:	ld [arg4.lo]
	jset #0x80000, f17
	ld [arg4.hi]
f17:	ld [arg5.lo]
	jset #0x100000, f18
	ld [arg5.hi]
f18:	ld [arg0.lo]
	jset #0x200000, f19
	ld [arg0.hi]
f19:	ld [arg1.lo]
	jset #0x400000, f20
	ld [arg1.hi]
f20:	ret ALLOW
kill:	ret KILL_PROCESS
