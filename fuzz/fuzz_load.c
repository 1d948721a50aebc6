/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes through the loader (scg_input_load()), every
 * input format told by the content or, by the first byte, named: detection,
 * the assembler, the policy language, every importer and the Kubernetes YAML
 * reader.  A failure must say why in an error diagnostic and leave the
 * result empty; a success holds a filter or a policy, as its format says.
 * Nothing may crash, leak or hang.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <syscage/oci.h>
#include <syscage/syscage.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int import_side(enum scg_input_format format, const char *text, size_t len,
		       const char *filename, void *ctx, struct scg_policy **out,
		       struct scg_diag *diag)
{
	(void)ctx;
	SCG_OPTS(scg_oci_options, o, .runc_enosys = true, .filename = filename);
	if (format == SCG_INPUT_K8S)
		return scg_k8s_import(text, len, &o, out, diag);
	return scg_oci_import(text, len, &o, out, diag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the first byte names a format when it is one (1 .. SCG_INPUT_FORMATS), else none */
	unsigned pick = size ? data[0] : 0;
	enum scg_input_format format =
	    pick <= SCG_INPUT_FORMATS ? (enum scg_input_format)pick : SCG_INPUT_AUTO;
	if (size && pick <= SCG_INPUT_FORMATS) {
		data++;
		size--;
	}
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return 0;
	SCG_OPTS(scg_load_options, o, .format = format, .filename = "fuzz.in",
		 .import = import_side);
	struct scg_input in;
	int r = scg_input_load(data, size, &o, &in, diag);
	if (r < 0 && r != -ENOMEM && !scg_diag_count_at_least(diag, SCG_SEV_ERROR))
		abort(); /* a refusal must say why */
	if (r < 0 && (in.policy || in.prog.insns))
		abort(); /* and leave nothing behind */
	if (r == 0 && scg_input_format_is_filter(in.format) != (in.policy == NULL))
		abort(); /* a filter or a policy, as the format says */
	scg_input_release(&in);
	scg_diag_free(diag);
	return 0;
}
