; is the low word of arg1 (openat's flags) O_CREAT (0x40)?
	ld [arg1]
	jset #0x40, creat
	ret ALLOW
creat:	ret ERRNO(EPERM)
