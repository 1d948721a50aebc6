	ld [nr]
	jeq #openat, +1
	ret ALLOW
	ld #EPERM               ; A = 1
	or #0x7fff_0000
	ret a
