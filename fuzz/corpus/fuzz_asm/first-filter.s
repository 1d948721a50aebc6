; Deny open and openat with EACCES on x86_64; kill any other ABI.
	ld [arch]                       ; which ABI made the call?
	jne #AUDIT_ARCH_X86_64, kill
	ld [nr]                         ; which syscall?
	jlt #0x40000000, native         ; x32 calls carry bit 30 ...
	jne #-1, kill                   ; ... but -1 (a tracer skipping a call) does not
native:	jeq #open, deny
	jeq #openat, deny
	ret ALLOW
deny:	ret ERRNO(EACCES)
kill:	ret KILL_PROCESS
