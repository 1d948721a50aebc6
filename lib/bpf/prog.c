/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Programs as owned instruction arrays, and the raw on-disk filter format. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/bpf.h>

void scg_prog_release(struct scg_prog *prog)
{
	if (!prog)
		return;
	free(prog->insns);
	prog->insns = NULL;
	prog->len = 0;
}

int scg_prog_copy(struct scg_prog *out, const struct scg_prog *src)
{
	struct scg_insn *insns = NULL;
	if (src->len) {
		insns = malloc(src->len * sizeof(*insns));
		if (!insns)
			return -ENOMEM;
		memcpy(insns, src->insns, src->len * sizeof(*insns));
	}
	out->insns = insns;
	out->len = src->len;
	return 0;
}

_Static_assert(sizeof(struct scg_insn) == 8, "struct scg_insn must match struct sock_filter");

int scg_prog_from_raw(const void *data, size_t size, const char *name, struct scg_prog *out,
		      struct scg_diag *diag)
{
	struct scg_loc loc = { name, 0, 0, -1 };
	*out = (struct scg_prog){ 0 };
	if (size == 0) {
		scg_diag_add(diag, SCG_SEV_ERROR, loc, "raw-empty",
			     "a filter file holds 8-byte struct sock_filter records",
			     "empty file: a filter needs at least one instruction");
		return -EINVAL;
	}
	if (size % sizeof(struct scg_insn)) {
		scg_diag_add(diag, SCG_SEV_ERROR, loc, "raw-size",
			     "a compiled filter is whole 8-byte struct sock_filter records: this is "
			     "a truncated filter or binary data of another kind",
			     "size %zu is not a multiple of 8 (%zu whole instructions and %zu extra bytes)",
			     size, size / 8, size % 8);
		return -EINVAL;
	}
	size_t len = size / sizeof(struct scg_insn);
	if (len > SCG_BPF_MAXINSNS) {
		scg_diag_add(diag, SCG_SEV_ERROR, loc, "raw-too-long", NULL,
			     "%zu instructions: the kernel accepts at most %u", len, SCG_BPF_MAXINSNS);
		return -EINVAL;
	}
	struct scg_insn *insns = malloc(size);
	if (!insns)
		return -ENOMEM;
	memcpy(insns, data, size);
	out->insns = insns;
	out->len = len;
	return 0;
}

int scg_prog_read_file(const char *path, struct scg_prog *out, struct scg_diag *diag)
{
	bool is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "<stdin>" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		int err = errno;
		scg_diag_add(diag, SCG_SEV_ERROR, (struct scg_loc){ name, 0, 0, -1 }, "io", NULL,
			     "cannot open: %s", strerror(err));
		return -err;
	}
	/* One byte more than the largest valid file tells "too long" apart. */
	size_t cap = (SCG_BPF_MAXINSNS + 1) * sizeof(struct scg_insn);
	unsigned char *buf = malloc(cap);
	int r = buf ? 0 : -ENOMEM;
	size_t size = 0;
	while (r == 0 && size < cap) {
		size_t n = fread(buf + size, 1, cap - size, f);
		size += n;
		if (n == 0) {
			if (ferror(f)) {
				r = errno ? -errno : -EIO;
				scg_diag_add(diag, SCG_SEV_ERROR, (struct scg_loc){ name, 0, 0, -1 },
					     "io", NULL, "cannot read: %s", strerror(-r));
			}
			break;
		}
	}
	if (!is_stdin)
		fclose(f);
	if (r == 0)
		r = scg_prog_from_raw(buf, size, name, out, diag);
	free(buf);
	return r;
}
