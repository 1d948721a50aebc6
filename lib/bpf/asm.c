/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scg_asm(): parse, resolve, encode (asm_internal.h describes the stages).
 * Errors are collected, not fatal: the parser recovers at the next line so
 * one run reports several problems, up to ASM_MAX_ERRORS.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/arch.h>

#include "bpf/asm_internal.h"
#include "util/opts.h"

__attribute__((format(printf, 7, 0)))
static void report(struct asm_ctx *ctx, enum scg_severity severity, unsigned line, unsigned column,
		   const char *code, const char *hint, const char *fmt, va_list ap)
{
	if (ctx->stopped)
		return;
	struct scg_loc loc = { ctx->file, line, column, -1 };
	if (scg_diag_vadd(ctx->diag, severity, loc, code, hint, fmt, ap) < 0)
		ctx->nomem = true;
}

void asm_error(struct asm_ctx *ctx, unsigned line, unsigned column, const char *code,
	       const char *hint, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(ctx, SCG_SEV_ERROR, line, column, code, hint, fmt, ap);
	va_end(ap);
	if (ctx->stopped)
		return;
	if (++ctx->errors >= ASM_MAX_ERRORS) {
		struct scg_loc loc = { ctx->file, line, 0, -1 };
		scg_diag_add(ctx->diag, SCG_SEV_ERROR, loc, "asm-too-many-errors", NULL,
			     "too many errors; stopping here");
		ctx->stopped = true;
	}
}

void asm_warning(struct asm_ctx *ctx, unsigned line, unsigned column, const char *code,
		 const char *hint, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(ctx, SCG_SEV_WARNING, line, column, code, hint, fmt, ap);
	va_end(ap);
}

/* Whole-program checks once every line is read. */
static void check_size(struct asm_ctx *ctx)
{
	if (ctx->n_statements == 0 && ctx->errors == 0)
		asm_error(ctx, 0, 0, "asm-empty", "a filter needs at least one instruction, e.g. 'ret ALLOW'",
			  "empty program: no instructions");
	if (ctx->n_statements > SCG_BPF_MAXINSNS)
		asm_error(ctx, 0, 0, "asm-too-long", "split the filter into several",
			  "%zu instructions: the kernel accepts at most %u", ctx->n_statements,
			  SCG_BPF_MAXINSNS);
}

static void ctx_release(struct asm_ctx *ctx)
{
	lprog_free(ctx->lp);
	free(ctx->nodes);
	free(ctx->labels);
	free(ctx->label_slots);
}

/*
 * The ABI a header names: a first line "; ..., names for ABI" (or ";
 * names for ABI"), as the disassembler writes it.  Sets *@abi (NULL: no
 * header), or reports an ABI no table knows and returns false.
 */
static bool header_arch(struct asm_ctx *ctx, const struct scg_arch **abi)
{
	static const char key[] = "names for ";
	const size_t klen = sizeof(key) - 1;
	*abi = NULL;
	size_t end = 0;
	while (end < ctx->text_len && ctx->text[end] != '\n')
		end++;
	if (end == 0 || ctx->text[0] != ';')
		return true;
	/* the last "names for " of the line, then one word to its end */
	size_t at = SIZE_MAX;
	for (size_t i = 1; i + klen <= end; i++)
		if (!memcmp(ctx->text + i, key, klen))
			at = i;
	if (at == SIZE_MAX)
		return true;
	size_t b = at + klen, e = end;
	while (e > b && (ctx->text[e - 1] == ' ' || ctx->text[e - 1] == '\t' ||
			 ctx->text[e - 1] == '\r'))
		e--;
	/* the key must start the comment or follow ", " */
	size_t k = at;
	while (k > 1 && ctx->text[k - 1] == ' ')
		k--;
	if (k > 1 && ctx->text[k - 1] != ',')
		return true;
	char name[32];
	if (e == b || e - b >= sizeof(name) || memchr(ctx->text + b, ' ', e - b))
		return true;
	memcpy(name, ctx->text + b, e - b);
	name[e - b] = '\0';
	*abi = scg_arch_lookup(name);
	if (!*abi) {
		asm_error(ctx, 1, (unsigned)b + 1, "asm-header-abi",
			  scg_hint_text(SCG_HINT_LIST_ARCHES),
			  "the header names the ABI '%s', which no table knows", name);
		return false;
	}
	return true;
}

int scg_asm(const char *text, size_t len, const struct scg_asm_options *opts, struct scg_prog *out,
	    struct scg_diag *diag)
{
	if (!out)
		return -EINVAL;
	*out = (struct scg_prog){ 0 };
	if (!text && len)
		return -EINVAL;
	struct scg_asm_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_asm_options, arch_is_default)) < 0)
		return -EINVAL;
	opts = &o;
	struct asm_ctx ctx = {
		.text = text ? text : "",
		.text_len = len,
		.file = opts->filename ? opts->filename : "<stdin>",
		.arch = opts->arch ? opts->arch : scg_arch_native(),
		.diag = diag,
		.lp = asm_lprog_new(),
	};
	if (!ctx.lp)
		return -ENOMEM;
	const struct scg_arch *abi;
	if (!header_arch(&ctx, &abi)) {
		ctx.stopped = true;
	} else if (abi && opts->arch && abi != opts->arch && !opts->arch_is_default) {
		asm_error(&ctx, 1, 1, "asm-header-abi",
			  scg_hint_text(SCG_HINT_OWN_ARCH),
			  "the header says the names are for %s, not for %s", scg_arch_name(abi),
			  scg_arch_name(opts->arch));
		ctx.stopped = true;
	} else if (abi) {
		ctx.arch = abi;
	}
	if (!ctx.stopped)
		asm_parse(&ctx);
	if (!ctx.nomem && !ctx.stopped)
		check_size(&ctx);
	int r = -EINVAL;
	if (!ctx.nomem && !ctx.stopped && ctx.n_statements <= SCG_BPF_MAXINSNS)
		r = asm_resolve(&ctx, out);
	if (ctx.nomem)
		r = -ENOMEM;
	else if (ctx.errors)
		r = -EINVAL;
	if (r < 0)
		scg_prog_release(out);
	ctx_release(&ctx);
	return r;
}
