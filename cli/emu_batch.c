/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage emu --batch: one case per line, "ARCH SYSCALL [ARG0 .. ARG5] [IP]",
 * through filters that were checked once.  Built for millions of lines: one
 * reused line buffer, tokens cut in place, names resolved by the tables'
 * binary search, no allocation per case.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "emu_batch.h"

/* Past this many, errors are counted but not printed (and no hint is searched for). */
#define MAX_REPORTED_ERRORS 100UL
#define MAX_TOKENS 10 /* one more than a case has, to report the extra one */

struct batch {
	const char *name;
	const struct scg_prog *progs;
	size_t n;
	uint64_t default_ip;
	unsigned long line;
	unsigned long errors;
	char arch_token[64]; /* the last ARCH seen and what it resolved to */
	const struct scg_arch *arch;
};

struct token {
	char *text;
	size_t len;
	unsigned column;
};

static void __attribute__((format(printf, 4, 5)))
batch_error(struct batch *b, unsigned column, const char *hint, const char *fmt, ...)
{
	if (b->errors++ >= MAX_REPORTED_ERRORS)
		return;
	cli_fputs_escaped(b->name, stderr);
	fprintf(stderr, ":%lu:%u: error: ", b->line, column);
	va_list ap;
	va_start(ap, fmt);
	cli_vfprintf_escaped(stderr, fmt, ap); /* it quotes words of the batch */
	va_end(ap);
	fputc('\n', stderr);
	if (hint) {
		fputs("  hint: ", stderr);
		cli_fputs_escaped(hint, stderr);
		fputc('\n', stderr);
	}
}

/* Hints cost a search over every name: only for errors that are printed. */
static bool want_hint(const struct batch *b)
{
	return b->errors < MAX_REPORTED_ERRORS;
}

/* Cuts @line into blank-separated tokens, NUL-terminating each; '#' starts a comment. */
static size_t tokenize(char *line, struct token *tok, size_t max)
{
	size_t n = 0;
	char *p = line;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (*p == '\0' || *p == '#')
			return n;
		char *start = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n' && *p != '#')
			p++;
		if (n < max)
			tok[n] = (struct token){ start, (size_t)(p - start), (unsigned)(start - line) + 1 };
		n++;
		if (*p == '#')
			return n;
		if (*p)
			*p++ = '\0';
	}
}

static bool looks_numeric(const struct token *t)
{
	char c = t->text[0];
	return ((c >= '0' && c <= '9') || c == '-' || c == '+') && !strpbrk(t->text, "|~()");
}

static const struct scg_arch *resolve_arch(struct batch *b, const struct token *t)
{
	if (b->arch && t->len < sizeof(b->arch_token) && !strcmp(t->text, b->arch_token))
		return b->arch;
	const struct scg_arch *arch = scg_arch_lookup(t->text);
	if (!arch) {
		const char *hint = want_hint(b) ? scg_arch_suggest(t->text) : NULL;
		char buf[96];
		if (hint)
			snprintf(buf, sizeof(buf), "did you mean '%s'?", hint);
		batch_error(b, t->column, hint ? buf : NULL, "unknown architecture '%s'", t->text);
		return NULL;
	}
	if (t->len < sizeof(b->arch_token)) {
		memcpy(b->arch_token, t->text, t->len + 1);
		b->arch = arch;
	}
	return arch;
}

static int resolve_syscall(struct batch *b, const struct scg_arch *arch, const struct token *t,
			   uint32_t *nr)
{
	if (looks_numeric(t)) {
		if (scg_parse_u32(t->text, t->len, nr) < 0) {
			batch_error(b, t->column, NULL, "'%s' is not a syscall number (32 bits)", t->text);
			return -1;
		}
		*nr |= scg_arch_nr_flags(arch);
		return 0;
	}
	int r = scg_syscall_lookup(arch, t->text, nr);
	if (r == 0)
		return 0;
	if (r == -ENOSYS) {
		batch_error(b, t->column, NULL, "'%s' is a syscall, but not on %s", t->text,
			    scg_arch_name(arch));
		return -1;
	}
	const char *hint = want_hint(b) ? scg_syscall_suggest(arch, t->text) : NULL;
	char buf[96];
	if (hint)
		snprintf(buf, sizeof(buf), "did you mean '%s'?", hint);
	batch_error(b, t->column, hint ? buf : NULL, "unknown syscall '%s' on %s", t->text,
		    scg_arch_name(arch));
	return -1;
}

static int resolve_value(struct batch *b, const struct scg_arch *arch, const struct token *t,
			 uint64_t *value)
{
	if (looks_numeric(t)) {
		if (scg_parse_u64(t->text, t->len, value) == 0)
			return 0;
		batch_error(b, t->column, NULL, "'%s' is not a number that fits in 64 bits", t->text);
		return -1;
	}
	/* the policy language's values: AF_INET, AT_FDCWD, O_WRONLY|O_CREAT, EPERM */
	char msg[256], hint[128];
	if (cli_constant_eval(arch, t->text, value, msg, sizeof(msg), hint, sizeof(hint)) == 0)
		return 0;
	batch_error(b, t->column, want_hint(b) && hint[0] ? hint : NULL, "%s", msg);
	return -1;
}

/* Fills @data from the tokens of one case.  0, or -1 after reporting. */
static int parse_case(struct batch *b, const struct token *tok, size_t n,
		      struct scg_seccomp_data *data)
{
	if (n < 2) {
		batch_error(b, n ? tok[0].column + (unsigned)tok[0].len : 1, NULL,
			    "a case is 'ARCH SYSCALL [ARG0 .. ARG5] [IP]'; the syscall is missing");
		return -1;
	}
	if (n > 9) {
		batch_error(b, tok[9].column, NULL,
			    "too many fields: a case is 'ARCH SYSCALL [ARG0 .. ARG5] [IP]'");
		return -1;
	}
	const struct scg_arch *arch = resolve_arch(b, &tok[0]);
	if (!arch)
		return -1;
	memset(data, 0, sizeof(*data));
	data->arch = scg_arch_audit(arch);
	if (resolve_syscall(b, arch, &tok[1], &data->nr) < 0)
		return -1;
	for (size_t i = 2; i < n && i < 8; i++)
		if (resolve_value(b, arch, &tok[i], &data->args[i - 2]) < 0)
			return -1;
	data->instruction_pointer = b->default_ip;
	if (n == 9 && resolve_value(b, arch, &tok[8], &data->instruction_pointer) < 0)
		return -1;
	return 0;
}

static void run_case(struct batch *b, char *line)
{
	struct token tok[MAX_TOKENS];
	size_t n = tokenize(line, tok, MAX_TOKENS);
	if (n == 0)
		return; /* blank or comment */
	struct scg_seccomp_data data;
	if (parse_case(b, tok, n, &data) < 0) {
		fputs("ERROR\n", stdout);
		return;
	}
	struct scg_emu_result res;
	scg_emu_stack_unchecked(b->progs, b->n, &data, &res, NULL, NULL, NULL, NULL);
	char action[40];
	int len = scg_emu_result_format(&res, action, sizeof(action) - 1);
	action[len] = '\n';
	fwrite(action, 1, (size_t)len + 1, stdout);
}

int cli_emu_batch(const char *path, const struct scg_prog *progs, size_t n, uint64_t default_ip)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *in = is_stdin ? stdin : fopen(path, "r");
	if (!in) {
		cli_error("cannot open '%s': %s", path, strerror(errno));
		return CLI_EXIT_USAGE;
	}
	static char outbuf[1 << 16];
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	struct batch b = { is_stdin ? "<stdin>" : path, progs, n, default_ip, 0, 0, "", NULL };
	char *line = NULL;
	size_t cap = 0;
	int status = CLI_EXIT_OK;
	errno = 0;
	while (getline(&line, &cap, in) >= 0) {
		b.line++;
		run_case(&b, line);
	}
	if (ferror(in)) {
		cli_error("cannot read '%s': %s", b.name, strerror(errno ? errno : EIO));
		status = CLI_EXIT_USAGE;
	}
	free(line);
	if (!is_stdin)
		fclose(in);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("cannot write to standard output: %s", strerror(errno));
		status = CLI_EXIT_USAGE;
	}
	if (b.errors > MAX_REPORTED_ERRORS)
		cli_error("%lu more errors not shown", b.errors - MAX_REPORTED_ERRORS);
	if (b.errors)
		status = CLI_EXIT_USAGE;
	return status;
}
