; a 64-bit comparison: arg0 == 0x100000002 takes both words
	ld [arg0.hi]
	jne #1, no
	ld [arg0.lo]
	jeq #2, yes, no
yes:	ret TRAP(1)
no:	ret ALLOW
