/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libseccomp for the comparison, opened at run time so that syscage never
 * needs it to link or run.  The few types and constants used are spelled
 * out here from libseccomp's stable ABI (seccomp.h of 2.4 and later).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"

/* From seccomp.h: enum scmp_filter_attr, enum scmp_compare, struct scmp_arg_cmp. */
#define SCMP_ATTR_ACT_BADARCH 2
#define SCMP_ATTR_CTL_OPTIMIZE 8
#define SCMP_ERROR_NR (-1)
#define SCMP_ARCH_X32_TOKEN 0x4000003eU /* EM_X86_64 | __AUDIT_ARCH_LE, no 64-bit flag */

enum scmp_op { OP_NE = 1, OP_LT, OP_LE, OP_EQ, OP_GE, OP_GT, OP_MASKED_EQ };

struct scmp_cmp {
	unsigned int arg;
	enum scmp_op op;
	uint64_t datum_a;
	uint64_t datum_b;
};

struct scmp_version {
	unsigned int major, minor, micro;
};

struct bench_scmp {
	void *handle;
	char version[32];
	void *(*init)(uint32_t def_action);
	void (*release)(void *ctx);
	int (*arch_add)(void *ctx, uint32_t token);
	int (*arch_remove)(void *ctx, uint32_t token);
	uint32_t (*arch_native)(void);
	int (*attr_set)(void *ctx, int attr, uint32_t value);
	int (*resolve_name)(const char *name);
	int (*rule_add_array)(void *ctx, uint32_t action, int nr, unsigned int n,
			      const struct scmp_cmp *cmps);
	int (*export_bpf)(const void *ctx, int fd);
	const struct scmp_version *(*get_version)(void);
};

/* Fills @slot with the address of @name; false when missing. */
static bool bind(void *handle, const char *name, void *slot)
{
	void *sym = dlsym(handle, name);
	if (sym)
		memcpy(slot, &sym, sizeof(sym)); /* object to function pointer, as POSIX allows */
	return sym != NULL;
}

struct bench_scmp *bench_scmp_open(void)
{
	void *handle = dlopen("libseccomp.so.2", RTLD_NOW | RTLD_LOCAL);
	if (!handle)
		return NULL;
	struct bench_scmp *lib = calloc(1, sizeof(*lib));
	if (!lib) {
		dlclose(handle);
		return NULL;
	}
	lib->handle = handle;
	bool ok = bind(handle, "seccomp_init", &lib->init) &&
		  bind(handle, "seccomp_release", &lib->release) &&
		  bind(handle, "seccomp_arch_add", &lib->arch_add) &&
		  bind(handle, "seccomp_arch_remove", &lib->arch_remove) &&
		  bind(handle, "seccomp_arch_native", &lib->arch_native) &&
		  bind(handle, "seccomp_attr_set", &lib->attr_set) &&
		  bind(handle, "seccomp_syscall_resolve_name", &lib->resolve_name) &&
		  bind(handle, "seccomp_rule_add_array", &lib->rule_add_array) &&
		  bind(handle, "seccomp_export_bpf", &lib->export_bpf);
	if (!ok) {
		bench_scmp_close(lib);
		return NULL;
	}
	snprintf(lib->version, sizeof(lib->version), "2");
	if (bind(handle, "seccomp_version", &lib->get_version)) {
		const struct scmp_version *v = lib->get_version();
		if (v)
			snprintf(lib->version, sizeof(lib->version), "%u.%u.%u", v->major, v->minor,
				 v->micro);
	}
	return lib;
}

void bench_scmp_close(struct bench_scmp *lib)
{
	if (!lib)
		return;
	dlclose(lib->handle);
	free(lib);
}

const char *bench_scmp_version(const struct bench_scmp *lib)
{
	return lib->version;
}

/* --- policy conditions as libseccomp comparisons ------------------------- */

/* A condition as alternatives (OR) of up to six comparisons (AND), the only shape libseccomp takes. */
#define MAX_ALTS 16
struct conj {
	unsigned n;
	struct scmp_cmp c[6];
};

static int to_cmp(const struct scg_expr *e, struct scmp_cmp *out)
{
	static const enum scmp_op ops[] = { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };
	uint64_t full = e->width == 32 ? 0xffffffffULL : ~0ULL;
	*out = (struct scmp_cmp){ .arg = e->arg, .op = ops[e->op], .datum_a = e->value };
	if (e->mask == full)
		return 0;
	if (e->op != SCG_CMP_EQ)
		return -EINVAL;
	out->op = OP_MASKED_EQ;
	out->datum_a = e->mask;
	out->datum_b = e->value;
	return 0;
}

/* Every pairing of @l's and @r's alternatives; -EINVAL when one grows past six or too many. */
static int cross(const struct conj *l, int nl, const struct conj *r, int nr, struct conj *out)
{
	int n = 0;
	for (int i = 0; i < nl; i++)
		for (int j = 0; j < nr; j++) {
			if (n == MAX_ALTS || l[i].n + r[j].n > 6)
				return -EINVAL;
			out[n] = l[i];
			memcpy(out[n].c + l[i].n, r[j].c, r[j].n * sizeof(r[j].c[0]));
			out[n].n += r[j].n;
			n++;
		}
	return n;
}

/* @e as alternatives in @out; count, or -EINVAL when libseccomp cannot say it (NOT). */
static int to_alts(const struct scg_expr *e, struct conj *out)
{
	if (!e) {
		out[0].n = 0;
		return 1;
	}
	struct conj l[MAX_ALTS], r[MAX_ALTS];
	int nl, nr;
	switch (e->kind) {
	case SCG_EXPR_CMP:
		out[0].n = 1;
		return to_cmp(e, &out[0].c[0]) < 0 ? -EINVAL : 1;
	case SCG_EXPR_OR:
		nl = to_alts(e->left, l);
		nr = to_alts(e->right, r);
		if (nl < 0 || nr < 0 || nl + nr > MAX_ALTS)
			return -EINVAL;
		memcpy(out, l, (size_t)nl * sizeof(l[0]));
		memcpy(out + nl, r, (size_t)nr * sizeof(r[0]));
		return nl + nr;
	case SCG_EXPR_AND:
		nl = to_alts(e->left, l);
		nr = to_alts(e->right, r);
		return nl < 0 || nr < 0 ? -EINVAL : cross(l, nl, r, nr, out);
	case SCG_EXPR_NOT:
		return -EINVAL;
	}
	return -EINVAL;
}

/* --- building and exporting -------------------------------------------- */

static uint32_t arch_token(const struct scg_arch *arch)
{
	return scg_arch_nr_flags(arch) ? SCMP_ARCH_X32_TOKEN : scg_arch_audit(arch);
}

static void *new_context(const struct bench_scmp *lib, const struct scg_policy *p, unsigned level)
{
	void *ctx = lib->init(scg_policy_default(p));
	if (!ctx)
		return NULL;
	bool native = false;
	for (size_t t = 0; t < scg_policy_arch_count(p); t++) {
		uint32_t token = arch_token(scg_policy_arch_at(p, t));
		native |= token == lib->arch_native();
		lib->arch_add(ctx, token);
	}
	if (!native)
		lib->arch_remove(ctx, 0); /* SCMP_ARCH_NATIVE */
	lib->attr_set(ctx, SCMP_ATTR_ACT_BADARCH, scg_policy_badarch(p));
	lib->attr_set(ctx, SCMP_ATTR_CTL_OPTIMIZE, level);
	return ctx;
}

/* Syscall names an earlier unconditional rule decided on every target ABI. */
struct decided {
	const char **names;
	size_t n;
};

static bool is_decided(const struct decided *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->names[i], name))
			return true;
	return false;
}

/*
 * Adds rule @i; false when libseccomp cannot take it.  syscage's rules are
 * first-match and libseccomp's are not, so a rule after an unconditional
 * one for the same syscall is dropped (it can never decide), and an
 * unconditional rule repeating the default is kept out of libseccomp (which
 * refuses it) but still shadows what follows.
 */
static bool add_rule(const struct bench_scmp *lib, void *ctx, const struct scg_policy *p, size_t i,
		     struct decided *d)
{
	struct scg_rule r;
	struct conj alts[MAX_ALTS];
	if (scg_policy_rule_at(p, i, &r) < 0 || !r.syscall)
		return false;
	if (is_decided(d, r.syscall))
		return true;
	bool shadows = !r.cond && r.arch_mask == 0;
	if (shadows)
		d->names[d->n++] = r.syscall;
	if (r.action == scg_policy_default(p))
		return shadows;
	int nr = lib->resolve_name(r.syscall);
	int n = to_alts(r.cond, alts);
	if (nr == SCMP_ERROR_NR || n < 0)
		return false;
	bool added = false;
	for (int k = 0; k < n; k++)
		added |= lib->rule_add_array(ctx, r.action, nr, alts[k].n, alts[k].c) == 0;
	return added;
}

static int export_prog(const struct bench_scmp *lib, void *ctx, struct scg_prog *out)
{
	int fd = memfd_create("syscage-bench", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	int r = lib->export_bpf(ctx, fd);
	off_t size = r == 0 ? lseek(fd, 0, SEEK_END) : -1;
	void *buf = size > 0 ? malloc((size_t)size) : NULL;
	if (r < 0) {
		/* keep libseccomp's -errno */
	} else if (buf && pread(fd, buf, (size_t)size, 0) == size) {
		r = scg_prog_from_raw(buf, (size_t)size, "libseccomp", out, NULL);
	} else {
		r = -EIO;
	}
	free(buf);
	close(fd);
	return r;
}

int bench_scmp_compile(const struct bench_scmp *lib, const struct scg_policy *policy,
		       unsigned level, struct scg_prog *out, size_t *skipped)
{
	void *ctx = new_context(lib, policy, level);
	if (!ctx)
		return -ENOMEM;
	size_t nrules = scg_policy_rule_count(policy);
	struct decided d = { .names = calloc(nrules ? nrules : 1, sizeof(*d.names)) };
	if (!d.names) {
		lib->release(ctx);
		return -ENOMEM;
	}
	*skipped = 0;
	for (size_t i = 0; i < nrules; i++)
		if (!add_rule(lib, ctx, policy, i, &d))
			(*skipped)++;
	free(d.names);
	int r = export_prog(lib, ctx, out);
	lib->release(ctx);
	return r;
}
