; deny-open.s: the classic first seccomp filter, for x86_64.
;
; A process under this filter cannot open files: open(2) and openat(2) fail
; with EACCES.  Every other syscall runs.  Calls through another ABI (i386
; via int $0x80, or x32) are killed, since their syscall numbers mean other
; things and would slip past the checks below.
;
;   syscage asm --arch x86_64 -o deny-open.bpf examples/deny-open.s

	ld [arch]                       ; which ABI made the call?
	jne #AUDIT_ARCH_X86_64, kill
	ld [nr]                         ; which syscall?
	jlt #0x40000000, native         ; x32 calls carry bit 30 ...
	jne #-1, kill                   ; ... but nr -1 (a tracer skipping a call) is no x32 call
native:	jeq #open, deny
	jeq #openat, deny
	ret ALLOW
deny:	ret ERRNO(EACCES)
kill:	ret KILL_PROCESS
