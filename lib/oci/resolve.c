/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Docker's half: the profile as Docker resolves it for one host before
 * handing runc a plain linux.seccomp object.
 *
 * The architectures come from "architectures", or from the archMap entry
 * of the host; an entry is kept unless an excludes condition holds (the
 * host's arch is listed, a listed capability is held, the kernel is at
 * least minKernel), and only if every includes condition holds (the host's
 * arch is listed, every listed capability is held, the kernel is at least
 * minKernel).  Capabilities are compared as exact strings, as Docker does.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>

#include "internal.h"

struct selection {
	struct oci_host host;
	uint64_t caps;
	unsigned kmajor, kminor;
};

static void option_error(struct oci_doc *doc, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void option_error(struct oci_doc *doc, const char *hint, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	scg_diag_add(doc->diag, SCG_SEV_ERROR, SCG_LOC_NONE, "oci-options", hint, "%s", msg);
	doc->errors++;
}

static int select_caps(struct oci_doc *doc, const struct scg_oci_options *opts, uint64_t *caps)
{
	if (!opts || !opts->caps) {
		*caps = oci_cap_docker_default();
		return 0;
	}
	*caps = 0;
	for (size_t i = 0; i < opts->ncaps; i++) {
		const char *name = opts->caps[i];
		if (!strcasecmp(name, "ALL") || !strcasecmp(name, "CAP_ALL")) {
			*caps = (1ULL << OCI_CAP_COUNT) - 1;
			continue;
		}
		int cap = oci_cap_lookup(name);
		if (cap >= 0) {
			*caps |= 1ULL << cap;
			continue;
		}
		const char *s = oci_cap_suggest(name);
		char hint[96];
		snprintf(hint, sizeof(hint), "did you mean '%s'?", s ? s : "");
		option_error(doc, s ? hint : NULL, "unknown capability '%s'", name);
	}
	return doc->errors ? -EINVAL : 0;
}

/* Docker reads "<kernel>.<major>" with Sscanf("%d.%d") and ignores the rest. */
static int select_kernel(struct oci_doc *doc, const struct scg_oci_options *opts,
			 unsigned *major, unsigned *minor)
{
	struct utsname uts;
	const char *release = opts ? opts->kernel : NULL;
	if (!release) {
		if (uname(&uts) < 0)
			return -errno;
		release = uts.release;
	}
	char *end;
	unsigned long ma = strtoul(release, &end, 10);
	if (end != release && *end == '.' && end[1] >= '0' && end[1] <= '9') {
		unsigned long mi = strtoul(end + 1, &end, 10);
		if (ma <= 65535 && mi <= 65535) {
			*major = (unsigned)ma;
			*minor = (unsigned)mi;
			return 0;
		}
	}
	option_error(doc, "give it as \"<kernel>.<major>\", e.g. \"5.10\"",
		     "invalid kernel version '%s'", release);
	return -EINVAL;
}

static int select_host(struct oci_doc *doc, const struct scg_oci_options *opts,
		       struct oci_host *host)
{
	const char *name = opts ? opts->host_arch : NULL;
	if (name ? oci_host_lookup(name, host) : oci_host_native(host))
		return 0;
	if (!name) {
		option_error(doc, "name the host with the host_arch option",
			     "this build's architecture is not one Docker supports");
		return -EINVAL;
	}
	const char *s = oci_host_suggest(name);
	char hint[96];
	snprintf(hint, sizeof(hint), "did you mean '%s'?", s ? s : "");
	option_error(doc, s ? hint : NULL, "unknown host architecture '%s'", name);
	return -EINVAL;
}

/* --- includes / excludes ------------------------------------------------------ */

static bool holds_cap(const struct selection *sel, const char *name)
{
	int cap = oci_cap_lookup(name);
	return cap >= 0 && !strcmp(name, oci_cap_name(cap)) && (sel->caps & (1ULL << cap));
}

static bool host_listed(const struct selection *sel, const struct oci_filter *f)
{
	for (size_t i = 0; i < f->narches; i++)
		if (sel->host.docker_name && !strcmp(f->arches[i], sel->host.docker_name))
			return true;
	return false;
}

static bool kernel_at_least(const struct selection *sel, const struct oci_filter *f)
{
	return sel->kmajor > f->kmajor || (sel->kmajor == f->kmajor && sel->kminor >= f->kminor);
}

static bool excluded(const struct selection *sel, const struct oci_entry *e)
{
	const struct oci_filter *f = &e->excludes;
	if (!e->has_excludes)
		return false;
	if (f->narches && host_listed(sel, f))
		return true;
	for (size_t i = 0; i < f->ncaps; i++)
		if (holds_cap(sel, f->caps[i]))
			return true;
	return f->has_kernel && kernel_at_least(sel, f);
}

static bool included(const struct selection *sel, const struct oci_entry *e)
{
	const struct oci_filter *f = &e->includes;
	if (!e->has_includes)
		return true;
	if (f->narches && !host_listed(sel, f))
		return false;
	for (size_t i = 0; i < f->ncaps; i++)
		if (!holds_cap(sel, f->caps[i]))
			return false;
	return !f->has_kernel || kernel_at_least(sel, f);
}

/* --- architectures ------------------------------------------------------------ */

static void add_unique(const struct scg_arch **list, size_t *n, const struct scg_arch *arch)
{
	for (size_t i = 0; i < *n; i++)
		if (list[i] == arch)
			return;
	if (*n < OCI_MAX_TARGETS)
		list[(*n)++] = arch;
}

static int select_arches(struct oci_doc *doc, const struct oci_profile *p,
			 const struct selection *sel, struct oci_resolved *out)
{
	if (p->narches && p->narchmap) {
		option_error(doc, "use either \"architectures\" or \"archMap\"",
			     "the profile gives both \"architectures\" and \"archMap\": Docker "
			     "refuses it");
		return -EINVAL;
	}
	for (size_t i = 0; i < p->narches; i++)
		add_unique(out->listed, &out->nlisted, p->arches[i]);
	for (size_t i = 0; sel->host.archmap && i < p->narchmap; i++) {
		if (p->archmap[i].arch != sel->host.archmap)
			continue;
		add_unique(out->listed, &out->nlisted, p->archmap[i].arch);
		for (size_t k = 0; k < p->archmap[i].nsubs; k++)
			add_unique(out->listed, &out->nlisted, p->archmap[i].subs[k]);
		break;
	}
	/* libseccomp always filters its native ABI, listed or not */
	add_unique(out->targets, &out->ntargets, sel->host.native);
	for (size_t i = 0; i < out->nlisted; i++) {
		if (scg_arch_big_endian(out->listed[i]) != scg_arch_big_endian(sel->host.native)) {
			option_error(doc, NULL,
				     "%s and %s differ in byte order: libseccomp cannot filter "
				     "both, so runc fails",
				     scg_arch_name(out->listed[i]), scg_arch_name(sel->host.native));
			return -EINVAL;
		}
		add_unique(out->targets, &out->ntargets, out->listed[i]);
	}
	return 0;
}

/* --- the selection ------------------------------------------------------------ */

static int check_notify(struct oci_doc *doc, const struct oci_resolved *res)
{
	if (res->profile->default_action == OCI_ACT_NOTIFY) {
		option_error(doc, NULL, "runc refuses SCMP_ACT_NOTIFY as the default action");
		return -EINVAL;
	}
	for (size_t i = 0; i < res->nentries; i++) {
		/* entries[0..nentries) are all set (resolve()); the analyzer loses nentries here. */
		const struct oci_entry *e = res->entries[i];
		for (size_t k = 0; e->action == OCI_ACT_NOTIFY && k < e->nnames; k++) { // NOLINT(*NullDereference)
			if (strcmp(e->names[k], "write"))
				continue;
			scg_diag_add(doc->diag, SCG_SEV_ERROR, e->loc, "oci-invalid", NULL,
				     "runc refuses SCMP_ACT_NOTIFY for write(2)");
			doc->errors++;
			return -EINVAL;
		}
	}
	return 0;
}

/* Podman numbers errno names with its host's table: MIPS and PA-RISC number them apart. */
static bool host_errno(struct oci_doc *doc, const struct selection *sel, const char *name,
		       struct scg_loc loc, uint32_t *value)
{
	if (scg_errno_lookup(sel->host.native, name, value) == 0)
		return true;
	scg_diag_add(doc->diag, SCG_SEV_ERROR, loc, "oci-invalid", NULL,
		     "%s has no errno '%s' (Podman refuses it)", scg_arch_name(sel->host.native),
		     name);
	doc->errors++;
	return false;
}

static int number_errno_names(struct oci_doc *doc, const struct selection *sel,
			      struct oci_profile *p)
{
	bool ok = true;
	if (p->default_errno_name)
		ok = host_errno(doc, sel, p->default_errno_name, SCG_LOC_NONE, &p->default_errno);
	for (size_t i = 0; i < p->nentries; i++) {
		struct oci_entry *e = &p->entries[i];
		if (e->errno_name)
			ok &= host_errno(doc, sel, e->errno_name, e->loc, &e->errno_ret);
	}
	return ok ? 0 : -EINVAL;
}

int oci_resolve(struct oci_doc *doc, struct oci_profile *p,
		const struct scg_oci_options *opts, struct oci_resolved *out)
{
	struct selection sel;
	int r;
	*out = (struct oci_resolved){ .profile = p };
	if ((r = select_host(doc, opts, &sel.host)) < 0 || (r = select_caps(doc, opts, &sel.caps)) < 0 ||
	    (r = select_kernel(doc, opts, &sel.kmajor, &sel.kminor)) < 0 ||
	    (r = number_errno_names(doc, &sel, p)) < 0)
		return r;
	/* Docker: no default action and no syscalls means no filter at all */
	out->disabled = !p->has_default && !p->nentries;
	if ((r = select_arches(doc, p, &sel, out)) < 0)
		return r;
	out->entries = calloc(p->nentries ? p->nentries : 1, sizeof(*out->entries));
	if (!out->entries)
		return -ENOMEM;
	for (size_t i = 0; i < p->nentries; i++)
		if (!excluded(&sel, &p->entries[i]) && included(&sel, &p->entries[i]))
			out->entries[out->nentries++] = &p->entries[i];
	out->default_ret = oci_action_ret(p->default_action,
					  p->has_default_errno ? &p->default_errno : NULL);
	uint32_t enosys = 38;
	scg_errno_lookup(sel.host.native, "ENOSYS", &enosys);
	out->enosys_ret = SCG_RET_ERRNO | enosys;
	return check_notify(doc, out);
}

void oci_resolved_release(struct oci_resolved *res)
{
	free(res->entries);
	res->entries = NULL;
}
