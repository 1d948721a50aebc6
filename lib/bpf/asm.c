/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scg_asm(): parse, resolve, encode (asm_internal.h describes the stages).
 * Errors are collected, not fatal: the parser recovers at the next line so
 * one run reports several problems, up to ASM_MAX_ERRORS.
 */
#include <errno.h>
#include <stdlib.h>

#include "bpf/asm_internal.h"
#include "util/opts.h"

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

int scg_asm(const char *text, size_t len, const struct scg_asm_options *opts, struct scg_prog *out,
	    struct scg_diag *diag)
{
	if (!out)
		return -EINVAL;
	*out = (struct scg_prog){ 0 };
	if (!text && len)
		return -EINVAL;
	struct scg_asm_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_asm_options, filename)) < 0)
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
