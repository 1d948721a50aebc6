/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sources of policy text: the text given to the parser, files named by
 * `include "file"` / `use "file"` (relative to the including file), and
 * built-in profiles named by `use NAME`.  Each is expanded where it
 * appears; cycles and nesting deeper than LANG_MAX_INCLUDE_DEPTH are
 * errors.  Also the public entry points.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <syscage/lang.h>

#include "lang/lang_internal.h"
#include "lang/parse.h"
#include "util/strbuf.h"

/* Reads all of @path (at most LANG_MAX_SOURCE bytes) into *@data (caller frees). */
static int read_file(const char *path, char **data, size_t *len)
{
	/* O_NONBLOCK: opening a FIFO must not hang; only regular files are read */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	struct stat st;
	int bad = fstat(fd, &st) < 0	 ? -errno
		  : S_ISDIR(st.st_mode)	 ? -EISDIR
		  : !S_ISREG(st.st_mode) ? -EINVAL
					 : 0;
	if (bad) {
		close(fd);
		return bad;
	}
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	int r = 0;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		if (sb.len + (size_t)n > LANG_MAX_SOURCE) {
			r = -EFBIG;
			break;
		}
		strbuf_appendn(&sb, buf, (size_t)n);
	}
	close(fd);
	size_t length = sb.len;
	if (r == 0)
		r = strbuf_finish(&sb, data); /* "" for an empty file */
	strbuf_release(&sb);
	*len = length;
	return r;
}

static const char *read_error(int r)
{
	return r == -EINVAL ? "not a regular file" : strerror(-r);
}

/* The directory part of @path (arena), or NULL when it has none. */
static const char *dir_of(struct parse_ctx *ctx, const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return NULL;
	return arena_strndup(&ctx->arena, path, slash == path ? 1 : (size_t)(slash - path));
}

/* A stable identity for cycle detection: the canonical path when there is one. */
static const char *identity_of(struct parse_ctx *ctx, const char *path)
{
	char *real = realpath(path, NULL);
	const char *id = arena_strndup(&ctx->arena, real ? real : path, strlen(real ? real : path));
	free(real);
	return id;
}

static bool push_source(struct parse_ctx *ctx, const char *id, struct scg_loc loc)
{
	if (ctx->stack_depth > LANG_MAX_INCLUDE_DEPTH) {
		lang_diag(ctx, SCG_SEV_ERROR, loc, "include-depth", "is a file including itself?",
			  "include/use nested deeper than %d levels", LANG_MAX_INCLUDE_DEPTH);
		return false;
	}
	for (unsigned i = 0; i < ctx->stack_depth; i++) {
		if (strcmp(ctx->stack[i], id))
			continue;
		struct strbuf chain = STRBUF_INIT;
		for (unsigned j = i; j < ctx->stack_depth; j++)
			strbuf_appendf(&chain, "%s -> ", ctx->stack[j]);
		strbuf_append(&chain, id);
		lang_diag(ctx, SCG_SEV_ERROR, loc, "include-cycle", NULL, "include cycle: %s",
			  chain.data ? chain.data : id);
		strbuf_release(&chain);
		return false;
	}
	ctx->stack[ctx->stack_depth++] = id;
	return true;
}

/* Lexes and parses @src, which must be on the stack already. */
static void parse_nested(struct parse_ctx *ctx, struct source *src)
{
	src->ctx = ctx;
	lang_parse_source(ctx, src);
	free(src->toks.items);
	src->toks = (struct token_list){0};
}

void lang_include_file(struct parse_ctx *ctx, struct source *from, const char *path,
		       struct scg_loc loc)
{
	if (from->builtin) {
		lang_diag(ctx, SCG_SEV_ERROR, loc, "include", NULL,
			  "a built-in profile cannot include files");
		return;
	}
	struct strbuf full = STRBUF_INIT;
	if (path[0] != '/' && from->dir)
		strbuf_appendf(&full, "%s/", from->dir);
	strbuf_append(&full, path);
	struct source src = {.depth = from->depth + 1};
	src.name = full.data ? arena_strndup(&ctx->arena, full.data, full.len) : NULL;
	strbuf_release(&full);
	if (!src.name || !(src.id = identity_of(ctx, src.name))) {
		ctx->arena.failed = true;
		return;
	}
	src.dir = dir_of(ctx, src.name);
	char *text = NULL;
	int r = read_file(src.name, &text, &src.len);
	if (r < 0) {
		lang_diag(ctx, SCG_SEV_ERROR, loc, "include", NULL, "cannot read '%s': %s",
			  src.name, read_error(r));
		return;
	}
	src.text = text;
	if (push_source(ctx, src.id, loc)) {
		parse_nested(ctx, &src);
		ctx->stack_depth--;
	}
	free(text);
}

static void unknown_profile(struct parse_ctx *ctx, const char *name, struct scg_loc loc)
{
	const char *best = scg_profile_suggest(name);
	char hint[128];
	if (best)
		snprintf(hint, sizeof(hint), "did you mean '%s'?", best);
	else
		snprintf(hint, sizeof(hint), "a file is named with quotes: use \"%s\"", name);
	lang_diag(ctx, SCG_SEV_ERROR, loc, "unknown-profile", hint, "unknown profile '%s'", name);
}

static void parse_profile(struct parse_ctx *ctx, const char *name, unsigned depth,
			  struct scg_loc loc)
{
	const char *text = scg_profile_source(name);
	if (!text) {
		unknown_profile(ctx, name, loc);
		return;
	}
	struct strbuf label = STRBUF_INIT;
	strbuf_appendf(&label, "<%s>", name);
	struct source src = {.depth = depth, .builtin = true, .text = text, .len = strlen(text)};
	src.name = label.data ? arena_strndup(&ctx->arena, label.data, label.len) : NULL;
	src.id = src.name;
	strbuf_release(&label);
	if (!src.name) {
		ctx->arena.failed = true;
		return;
	}
	if (push_source(ctx, src.id, loc)) {
		parse_nested(ctx, &src);
		ctx->stack_depth--;
	}
}

void lang_use_profile(struct parse_ctx *ctx, struct source *from, const char *name,
		      struct scg_loc loc)
{
	parse_profile(ctx, name, from->depth + 1, loc);
}

/* --- entry points ------------------------------------------------------------- */

static void ctx_release(struct parse_ctx *ctx)
{
	lang_flush_diags(ctx);
	free(ctx->rules);
	arena_release(&ctx->arena);
}

/* Builds the policy once every source has been read. */
static int finish(struct parse_ctx *ctx, struct scg_policy **out)
{
	int r = 0;
	struct scg_policy *policy = NULL;
	if (ctx->arena.failed)
		r = -ENOMEM;
	/* lowered even after errors: statements that parsed still get checked */
	if (r == 0 && !ctx->stopped) {
		policy = scg_policy_new();
		r = policy ? lang_lower(ctx, policy) : -ENOMEM;
	}
	lang_flush_diags(ctx);
	if (r == 0 && ctx->arena.failed)
		r = -ENOMEM;
	if (r == 0 && (ctx->errors || ctx->stopped))
		r = -EINVAL;
	if (r == 0)
		*out = policy;
	else
		scg_policy_free(policy);
	ctx_release(ctx);
	return r;
}

static int parse_text(const char *text, size_t len, const char *name, const char *base,
		      const struct scg_policy_source_options *opts, struct scg_policy **out,
		      struct scg_diag *diag)
{
	struct parse_ctx ctx;
	*out = NULL;
	int r = lang_ctx_init(&ctx, diag, opts);
	if (r < 0)
		return r;
	struct source src = {.text = text, .len = len};
	src.name = arena_strndup(&ctx.arena, name, strlen(name));
	src.dir = base ? dir_of(&ctx, base) : NULL;
	src.id = base ? identity_of(&ctx, base) : src.name;
	if (!src.name || !src.id) {
		ctx_release(&ctx);
		return -ENOMEM;
	}
	if (len > LANG_MAX_SOURCE)
		lang_diag(&ctx, SCG_SEV_ERROR, (struct scg_loc){src.name, 0, 0, -1}, "too-big",
			  NULL, "policy text larger than %u bytes", LANG_MAX_SOURCE);
	else if (push_source(&ctx, src.id, SCG_LOC_NONE))
		parse_nested(&ctx, &src);
	return finish(&ctx, out);
}

int scg_policy_parse(const char *text, size_t len, const struct scg_policy_source_options *opts,
		     struct scg_policy **out, struct scg_diag *diag)
{
	const char *filename = opts && opts->filename ? opts->filename : NULL;
	return parse_text(text ? text : "", text ? len : 0, filename ? filename : "<stdin>",
			  filename, opts, out, diag);
}

int scg_policy_parse_file(const char *path, const struct scg_policy_source_options *opts,
			  struct scg_policy **out, struct scg_diag *diag)
{
	const char *name = opts && opts->filename ? opts->filename : path;
	char *text = NULL;
	size_t len = 0;
	*out = NULL;
	int r = read_file(path, &text, &len);
	if (r < 0) {
		scg_diag_add(diag, SCG_SEV_ERROR, (struct scg_loc){name, 0, 0, -1}, "read", NULL,
			     "cannot read '%s': %s", path, read_error(r));
		return r;
	}
	r = parse_text(text, len, name, path, opts, out, diag);
	free(text);
	return r;
}

int scg_constant_eval(const char *text, const struct scg_arch *arch, uint64_t *value,
		      struct scg_diag *diag)
{
	struct parse_ctx ctx;
	if (!text || !arch || !value)
		return -EINVAL;
	if (lang_ctx_init(&ctx, diag, NULL) < 0)
		return -ENOMEM;
	struct source src = {.ctx = &ctx, .name = text, .id = text, .text = text, .len = strlen(text)};
	struct scg_loc whole = {text, 1, 1, -1};
	int r = -EINVAL;
	if (strchr(text, '\n')) {
		lang_diag(&ctx, SCG_SEV_ERROR, whole, "syntax", NULL, "a value is one line");
	} else if (!*text) {
		lang_diag(&ctx, SCG_SEV_ERROR, whole, "syntax", "a number or a constant: 0x40, AF_INET",
			  "empty value");
	} else {
		struct uval *v = lang_parse_value(&ctx, &src, 0);
		uint64_t out;
		if (v)
			lang_accept(&src, TK_NEWLINE); /* the lexer ends the text with one */
		struct token rest = lang_peek(&src);
		if (v && rest.kind != TK_EOF) {
			char buf[64];
			lang_diag(&ctx, SCG_SEV_ERROR, lang_token_loc(&src, &rest), "syntax",
				  "combine constants with '|': O_WRONLY|O_CREAT",
				  "expected the end of the value, found %s",
				  lang_token_describe(&src, &rest, buf, sizeof(buf)));
		} else if (v && lang_eval_value(&ctx, v, arch, &out) == 0) {
			*value = out;
			r = 0;
		}
	}
	free(src.toks.items);
	if (ctx.arena.failed)
		r = -ENOMEM;
	ctx_release(&ctx);
	return r;
}

int scg_profile_load(const char *name, const struct scg_policy_source_options *opts,
		     struct scg_policy **out, struct scg_diag *diag)
{
	struct parse_ctx ctx;
	*out = NULL;
	int r = lang_ctx_init(&ctx, diag, opts);
	if (r < 0)
		return r;
	if (!name || !scg_profile_source(name)) {
		unknown_profile(&ctx, name ? name : "", (struct scg_loc){"<profile>", 0, 0, -1});
		ctx_release(&ctx);
		return -ENOENT;
	}
	parse_profile(&ctx, name, 0, SCG_LOC_NONE);
	return finish(&ctx, out);
}
