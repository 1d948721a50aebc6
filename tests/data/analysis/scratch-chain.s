; scratch-chain.s: 16 JSET forks whose sides store different values in scratch
; memory, all read at the end: no two paths meet in the same state, so nothing
; merges and every one of the 2^16 paths is walked.  The CLI tests run the
; analysis commands on it with a budget too small for that (exit status 3).

	ld [arch]
	jne #AUDIT_ARCH_X86_64, kill
	ld [arg0.lo]
	jset #0x1, s0
	ld #0
s0:	st M[0]
	ld [arg1.lo]
	jset #0x2, s1
	ld #0
s1:	st M[1]
	ld [arg2.lo]
	jset #0x4, s2
	ld #0
s2:	st M[2]
	ld [arg3.lo]
	jset #0x8, s3
	ld #0
s3:	st M[3]
	ld [arg4.lo]
	jset #0x10, s4
	ld #0
s4:	st M[4]
	ld [arg5.lo]
	jset #0x20, s5
	ld #0
s5:	st M[5]
	ld [arg0.lo]
	jset #0x40, s6
	ld #0
s6:	st M[6]
	ld [arg1.lo]
	jset #0x80, s7
	ld #0
s7:	st M[7]
	ld [arg2.lo]
	jset #0x100, s8
	ld #0
s8:	st M[8]
	ld [arg3.lo]
	jset #0x200, s9
	ld #0
s9:	st M[9]
	ld [arg4.lo]
	jset #0x400, s10
	ld #0
s10:	st M[10]
	ld [arg5.lo]
	jset #0x800, s11
	ld #0
s11:	st M[11]
	ld [arg0.lo]
	jset #0x1000, s12
	ld #0
s12:	st M[12]
	ld [arg1.lo]
	jset #0x2000, s13
	ld #0
s13:	st M[13]
	ld [arg2.lo]
	jset #0x4000, s14
	ld #0
s14:	st M[14]
	ld [arg3.lo]
	jset #0x8000, s15
	ld #0
s15:	st M[15]
	ld M[0]
	ld M[1]
	ld M[2]
	ld M[3]
	ld M[4]
	ld M[5]
	ld M[6]
	ld M[7]
	ld M[8]
	ld M[9]
	ld M[10]
	ld M[11]
	ld M[12]
	ld M[13]
	ld M[14]
	ld M[15]
	ret ALLOW
kill:	ret KILL_PROCESS
