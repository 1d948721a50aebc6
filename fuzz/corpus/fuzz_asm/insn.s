	.insn 0x20, 0, 0, 4             ; ld [arch]
	.insn 0x15, 0, 1, 0xc000003e    ; jeq #AUDIT_ARCH_X86_64, +0, +1
	.insn 0x06, 0, 0, 0x7fff0000    ; ret ALLOW
	.insn 0x8006, 0, 0, 0           ; no such opcode: the kernel refuses it
