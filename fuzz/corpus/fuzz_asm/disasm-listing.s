; 10 instructions, names for x86_64
	ld [arch]
	jne #AUDIT_ARCH_X86_64, L9      ; x86_64
	ld [nr]
	jlt #0x40000000, L5             ; x32 syscall bit
	jne #0xffffffff, L9
L5:	jeq #2, L8                      ; open
	jeq #257, L8                    ; openat
	ret ALLOW
L8:	ret ERRNO(13)                   ; EACCES
L9:	ret KILL_PROCESS
