; mul-shift.s: (arg0 * 3) >> 2 == 5, arithmetic on a loaded word: the solver decides it.
	ld [arch]
	jne #AUDIT_ARCH_X86_64, kill
	ld [arg0.lo]
	mul #3
	rsh #2
	jeq #5, deny
	ret ALLOW
deny:	ret ERRNO(EPERM)
kill:	ret KILL_PROCESS
