/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Embedding the loader and the decompiler: read a filter or a policy in any
 * input format (a compiled filter, assembler, the policy language,
 * OCI/Docker JSON, Kubernetes YAML, systemd settings, minijail, kafel or
 * firejail), compile it when it is a policy, and print the policy the
 * filter carries out, decompiled: what the kernel will do, in one language,
 * whatever the input was written in.
 *
 *   decompile FILE
 *
 * Built by meson with the libraries (build/examples/decompile), not
 * installed; on its own:
 *   cc decompile.c $(pkg-config --cflags --libs libsyscage-analysis libsyscage-oci)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/analysis.h>
#include <syscage/oci.h>
#include <syscage/syscage.h>

/* The whole of @path in a new buffer (*@len bytes), or NULL with errno set. */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0;
	*len = 0;
	for (;;) {
		if (*len == cap) {
			char *bigger = cap < ((size_t)1 << 30) ? realloc(buf, cap ? 2 * cap : 4096) : NULL;
			if (!bigger) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = bigger;
			cap = cap ? 2 * cap : 4096;
		}
		size_t got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
		if (got == 0)
			break;
	}
	int failed = ferror(f);
	fclose(f);
	if (failed) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	return buf;
}

/* OCI JSON and Kubernetes YAML: the loader hands them to libsyscage-oci. */
static int import_oci(enum scg_input_format format, const char *text, size_t len,
		      const char *filename, void *ctx, struct scg_policy **out,
		      struct scg_diag *diag)
{
	(void)ctx;
	struct scg_oci_options o;
	scg_oci_options_init(&o);
	o.filename = filename;
	if (format == SCG_INPUT_K8S)
		return scg_k8s_import(text, len, &o, out, diag);
	return scg_oci_import(text, len, &o, out, diag);
}

static void print_diag(const struct scg_diag *diag)
{
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		char line[1024];
		scg_diag_format(scg_diag_get(diag, i), line, sizeof(line));
		fprintf(stderr, "%s\n", line);
	}
}

/* The filter @in holds, or the one its policy compiles to, in *@prog. */
static int filter_of(struct scg_input *in, struct scg_prog *prog, struct scg_diag *diag)
{
	if (!in->policy) {
		*prog = in->prog;
		in->prog = (struct scg_prog){ 0 };
		return 0;
	}
	return scg_compile(in->policy, NULL, prog, diag);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: decompile FILE\n");
		return 2;
	}
	size_t len;
	char *text = read_all(argv[1], &len);
	if (!text) {
		fprintf(stderr, "decompile: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	struct scg_diag *diag = scg_diag_new();
	SCG_OPTS(scg_load_options, lo, .filename = argv[1], .import = import_oci);
	struct scg_input in = { 0 };
	struct scg_prog prog = { 0 };
	struct scg_policy *policy = NULL;
	char *out = NULL;
	int r = diag ? scg_input_load(text, len, &lo, &in, diag) : -ENOMEM;
	if (r == 0)
		r = filter_of(&in, &prog, diag);
	if (r == 0)
		r = scg_decompile(&prog, 1, &policy, diag);
	if (r == 0)
		r = scg_policy_to_text(policy, &out);
	print_diag(diag);
	if (r == 0)
		printf("# %s, read as %s\n%s", argv[1], scg_input_format_name(in.format), out);
	else if (!scg_diag_count(diag))
		fprintf(stderr, "decompile: %s: %s\n", argv[1], strerror(-r));
	free(out);
	scg_policy_free(policy);
	scg_prog_release(&prog);
	scg_input_release(&in);
	scg_diag_free(diag);
	free(text);
	return r == 0 ? 0 : 1;
}
