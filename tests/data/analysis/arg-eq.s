; arg-eq.s: arg0 == arg1 (low halves), a comparison of two words: the solver decides it.
	ld [arg0.lo]
	tax
	ld [arg1.lo]
	jeq x, deny
	ret ALLOW
deny:	ret ERRNO(EPERM)
