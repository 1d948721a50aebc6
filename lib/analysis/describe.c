/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Region -> argument conditions in policy syntax ("arg1.lo == 0x3 && ..."). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <syscage/arch.h>

#include "analysis/region.h"
#include "util/strbuf.h"

/* Name of word @word for @arch: "arg2.lo", "ip.hi"; NULL for nr and arch. */
static void word_name(const struct scg_arch *arch, unsigned word, char *buf, size_t size)
{
	for (unsigned arg = 0; arg < 6; arg++) {
		for (int high = 0; high < 2; high++) {
			if ((unsigned)scg_arch_arg_offset(arch, arg, high) == word * 4) {
				snprintf(buf, size, "arg%u.%s", arg, high ? "hi" : "lo");
				return;
			}
		}
	}
	bool high = scg_arch_ip_offset(arch, true) == word * 4;
	snprintf(buf, size, "ip.%s", high ? "hi" : "lo");
}

static void put_value(struct strbuf *sb, uint32_t v)
{
	if (v < 10)
		strbuf_appendf(sb, "%u", (unsigned)v);
	else
		strbuf_appendf(sb, "0x%x", (unsigned)v);
}

/* The complement's intervals, when every one is a single value: "not in {..}" reads better. */
static bool holes_are_points(const struct wset *ws, size_t *nholes)
{
	size_t holes = 0;
	uint32_t next = 0;
	bool at_end = false;
	for (size_t i = 0; i < ws->niv; i++) {
		if (ws->iv[i].lo > next) {
			if (ws->iv[i].lo - next != 1)
				return false;
			holes++;
		}
		if (ws->iv[i].hi == UINT32_MAX)
			at_end = true;
		else
			next = ws->iv[i].hi + 1;
	}
	if (!at_end) {
		if (next != UINT32_MAX)
			return false;
		holes++;
	}
	*nholes = holes;
	return true;
}

static void put_points_excluded(struct strbuf *sb, const struct wset *ws, const char *name)
{
	strbuf_appendf(sb, "%s not in {", name);
	uint32_t next = 0;
	bool first = true, at_end = false;
	for (size_t i = 0; i < ws->niv; i++) {
		if (ws->iv[i].lo > next) {
			strbuf_append(sb, first ? "" : ", ");
			put_value(sb, next);
			first = false;
		}
		if (ws->iv[i].hi == UINT32_MAX)
			at_end = true;
		else
			next = ws->iv[i].hi + 1;
	}
	if (!at_end) {
		strbuf_append(sb, first ? "" : ", ");
		put_value(sb, UINT32_MAX);
	}
	strbuf_append(sb, "}");
}

static void put_interval(struct strbuf *sb, struct scg_interval iv, const char *name)
{
	if (iv.lo == iv.hi) {
		strbuf_appendf(sb, "%s == ", name);
		put_value(sb, iv.lo);
	} else if (iv.lo == 0) {
		strbuf_appendf(sb, "%s <= ", name);
		put_value(sb, iv.hi);
	} else if (iv.hi == UINT32_MAX) {
		strbuf_appendf(sb, "%s >= ", name);
		put_value(sb, iv.lo);
	} else {
		strbuf_appendf(sb, "(%s >= ", name);
		put_value(sb, iv.lo);
		strbuf_appendf(sb, " && %s <= ", name);
		put_value(sb, iv.hi);
		strbuf_append(sb, ")");
	}
}

static void put_intervals(struct strbuf *sb, const struct wset *ws, const char *name)
{
	size_t holes;
	if (ws->niv == 1 && ws->iv[0].lo == 0 && ws->iv[0].hi == UINT32_MAX)
		return;
	if (ws->niv > 1 && holes_are_points(ws, &holes) && holes <= ws->niv) {
		put_points_excluded(sb, ws, name);
		return;
	}
	bool all_points = true;
	for (size_t i = 0; i < ws->niv; i++)
		all_points &= ws->iv[i].lo == ws->iv[i].hi;
	if (all_points && ws->niv > 1) {
		strbuf_appendf(sb, "%s in {", name);
		for (size_t i = 0; i < ws->niv; i++) {
			strbuf_append(sb, i ? ", " : "");
			put_value(sb, ws->iv[i].lo);
		}
		strbuf_append(sb, "}");
		return;
	}
	if (ws->niv > 1)
		strbuf_append(sb, "(");
	for (size_t i = 0; i < ws->niv; i++) {
		strbuf_append(sb, i ? " || " : "");
		put_interval(sb, ws->iv[i], name);
	}
	if (ws->niv > 1)
		strbuf_append(sb, ")");
}

/* One word's constraints, joined by " && " to what @sb already holds. */
static void put_word(struct strbuf *sb, const struct wset *ws, const char *name)
{
	size_t before = sb->len;
	bool single = ws->niv == 1 && ws->iv[0].lo == ws->iv[0].hi;
	if (ws->known && !single) {
		strbuf_appendf(sb, "(%s & ", name);
		put_value(sb, ws->known);
		strbuf_append(sb, ") == ");
		put_value(sb, ws->known_value);
	}
	if (sb->len != before && !(ws->niv == 1 && ws->iv[0].lo == 0 && ws->iv[0].hi == UINT32_MAX))
		strbuf_append(sb, " && ");
	put_intervals(sb, ws, name);
	for (size_t i = 0; i < ws->nex && !single; i++) {
		if (sb->len != before)
			strbuf_append(sb, " && ");
		strbuf_appendf(sb, "(%s & ", name);
		put_value(sb, ws->ex[i].mask);
		strbuf_append(sb, ") != ");
		put_value(sb, ws->ex[i].value);
	}
}

int scg_region_args_text(const struct scg_region *region, const struct scg_arch *arch,
			 char **text)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_append(&sb, "");
	for (unsigned w = 2; w < SCG_DATA_WORDS; w++) {
		if (wset_is_full(&region->w[w]))
			continue;
		char name[16];
		word_name(arch, w, name, sizeof(name));
		if (sb.len)
			strbuf_append(&sb, " && ");
		put_word(&sb, &region->w[w], name);
	}
	/* computed conditions, in the solver's notation over the words w0..w15 */
	for (size_t i = 0; i < region->nconds; i++) {
		if (sb.len)
			strbuf_append(&sb, " && ");
		strbuf_appendf(&sb, "[%s]", Z3_ast_to_string(region->smt->ctx, region->conds[i]));
	}
	return strbuf_finish(&sb, text);
}

int scg_region_word_text(const struct scg_region *region, unsigned word, const char *name,
			 char **text)
{
	if (!region || word >= SCG_DATA_WORDS || !name)
		return -EINVAL;
	struct strbuf sb = STRBUF_INIT;
	strbuf_append(&sb, "");
	if (!wset_is_full(&region->w[word]))
		put_word(&sb, &region->w[word], name);
	return strbuf_finish(&sb, text);
}
