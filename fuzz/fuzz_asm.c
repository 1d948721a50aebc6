/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as assembler text.  The assembler must
 * either fail with a diagnostic and no program, or produce a program that
 * disassembles (in every format) to text assembling back to the same bytes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/syscage.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_round_trip(const struct scg_prog *prog, const struct scg_arch *arch)
{
	char *text = NULL;
	if (scg_disasm(prog, arch, SCG_DISASM_ASM, &text) < 0)
		abort();
	SCG_OPTS(scg_asm_options, opts, .arch = arch, .filename = "round-trip.s");
	struct scg_prog back;
	if (scg_asm(text, strlen(text), &opts, &back, NULL) < 0 || back.len != prog->len ||
	    memcmp(back.insns, prog->insns, prog->len * sizeof(*prog->insns)))
		abort();
	scg_prog_release(&back);
	free(text);
	for (int format = SCG_DISASM_TABLE; format <= SCG_DISASM_C; format++) {
		if (scg_disasm(prog, arch, (enum scg_disasm_format)format, &text) < 0)
			abort();
		free(text);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the length picks the ABI, so big-endian offsets get exercised too */
	const struct scg_arch *arch = scg_arch_at(size % scg_arch_count());
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return 0;
	SCG_OPTS(scg_asm_options, opts, .arch = arch, .filename = "fuzz.s");
	struct scg_prog prog;
	int r = scg_asm((const char *)data, size, &opts, &prog, diag);
	if (r == 0) {
		if (prog.len == 0 || prog.len > SCG_BPF_MAXINSNS)
			abort();
		check_round_trip(&prog, arch);
		scg_prog_release(&prog);
	} else if (r == -EINVAL) {
		if (prog.insns || prog.len || scg_diag_count_at_least(diag, SCG_SEV_ERROR) == 0)
			abort();
	}
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		char buf[256];
		scg_diag_format(scg_diag_get(diag, i), buf, sizeof(buf));
	}
	scg_diag_free(diag);
	return 0;
}
