	ld [nr]
	jgt #400, big           ; nr > 400
	jle #10, small          ; nr <= 10
	jlt x, small            ; nr < X
	jset #1, odd, even
odd:	ret LOG
even:	jne #12, other
	ret ALLOW
big:	ret ERRNO(ENOSYS)
small:	ret TRACE(7)
other:	jeq x, +0, +1
	ret KILL_THREAD
	ret USER_NOTIF
