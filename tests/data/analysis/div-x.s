; div-x.s: arg0 / arg1, where arg1 may be 0 (the kernel then returns 0: KILL_THREAD).
	ld [arch]
	jne #AUDIT_ARCH_X86_64, kill
	ld [arg1.lo]
	tax
	ld [arg0.lo]
	div x
	jeq #2, deny
	ret ALLOW
deny:	ret ERRNO(EPERM)
kill:	ret KILL_PROCESS
