/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as raw struct sock_filter records.  Sizes
 * that are no multiple of 8 must be refused; everything else must
 * disassemble, in every format, and the assembler text must assemble back
 * to exactly the input.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/syscage.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scg_prog prog;
	int r = scg_prog_from_raw(data, size, "fuzz.bpf", &prog, NULL);
	bool acceptable = size && size % 8 == 0 && size / 8 <= SCG_BPF_MAXINSNS;
	if (r != (acceptable ? 0 : -EINVAL))
		abort();
	if (r < 0)
		return 0;
	const struct scg_arch *arch = scg_arch_at(data[0] % scg_arch_count());
	char *text = NULL;
	for (int format = SCG_DISASM_TABLE; format <= SCG_DISASM_C; format++) {
		if (scg_disasm(&prog, arch, (enum scg_disasm_format)format, &text) < 0)
			abort();
		free(text);
	}
	if (scg_disasm(&prog, arch, SCG_DISASM_ASM, &text) < 0)
		abort();
	SCG_OPTS(scg_asm_options, opts, .arch = arch, .filename = "round-trip.s");
	struct scg_prog back;
	if (scg_asm(text, strlen(text), &opts, &back, NULL) < 0 || back.len != prog.len ||
	    memcmp(back.insns, data, size))
		abort();
	scg_prog_release(&back);
	free(text);
	scg_prog_release(&prog);
	return 0;
}
