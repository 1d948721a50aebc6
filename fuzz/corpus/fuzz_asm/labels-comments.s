/* labels alone on their line mark the next instruction */
start:
begin:	ld [nr]         // both labels mark this load
	jeq #getpid, allow
# a bpf_asm-style comment
	ret KILL_PROCESS
allow:	RET ALLOW
