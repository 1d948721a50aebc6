/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The differential oracle: Docker's selection, runc's rule adding and
 * runc's ENOSYS stub, written again here as plainly as the Go code they
 * copy (moby profiles/seccomp, runc libcontainer/seccomp and patchbpf), with
 * the real libseccomp in the middle.  It shares no code with lib/oci.
 */
#include "oci_oracle.h"

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bpf/opcodes.h"

#define ENOSYS_RET 0x00050026U
#define X32_BIT 0x40000000U

struct oracle_state {
	const struct oracle_opts *opts;
	struct oracle_result *out;
	unsigned kmajor, kminor;
	uint32_t def;
	const char *arch_names[24];
	size_t narches;
};

/* --- Docker ---------------------------------------------------------------- */

static const char *const docker_default_caps[] = {
	"CAP_CHOWN",	   "CAP_DAC_OVERRIDE", "CAP_FSETID",	       "CAP_FOWNER",
	"CAP_MKNOD",	   "CAP_NET_RAW",      "CAP_SETGID",	       "CAP_SETUID",
	"CAP_SETFCAP",	   "CAP_SETPCAP",      "CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT",
	"CAP_KILL",	   "CAP_AUDIT_WRITE",
};

static bool holds_cap(const struct oracle_state *st, const char *cap)
{
	if (st->opts->all_caps)
		return !strncmp(cap, "CAP_", 4) && strlen(cap) > 4;
	if (st->opts->caps) {
		for (size_t i = 0; i < st->opts->ncaps; i++)
			if (!strcmp(cap, st->opts->caps[i]))
				return true;
		return false;
	}
	for (size_t i = 0; i < sizeof(docker_default_caps) / sizeof(docker_default_caps[0]); i++)
		if (!strcmp(cap, docker_default_caps[i]))
			return true;
	return false;
}

static struct json_object *field(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;
	if (o && json_object_get_type(o) == json_type_object && json_object_object_get_ex(o, key, &v) &&
	    json_object_get_type(v) != json_type_null)
		return v;
	return NULL;
}

static bool in_list(struct json_object *list, const char *s)
{
	for (size_t i = 0; list && i < json_object_array_length(list); i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(list, i)), s))
			return true;
	return false;
}

static bool kernel_ge(const struct oracle_state *st, struct json_object *v)
{
	unsigned ma = 0, mi = 0;
	if (sscanf(json_object_get_string(v), "%u.%u", &ma, &mi) != 2 && *json_object_get_string(v))
		return false;
	return st->kmajor > ma || (st->kmajor == ma && st->kminor >= mi);
}

/* setupSeccomp()'s filter loop for one entry, on an amd64 host. */
static bool selected(const struct oracle_state *st, struct json_object *call)
{
	struct json_object *ex = field(call, "excludes"), *in = field(call, "includes"), *v;
	if (ex) {
		if ((v = field(ex, "arches")) && in_list(v, "amd64"))
			return false;
		for (size_t i = 0; (v = field(ex, "caps")) && i < json_object_array_length(v); i++)
			if (holds_cap(st, json_object_get_string(json_object_array_get_idx(v, i))))
				return false;
		if ((v = field(ex, "minKernel")) && kernel_ge(st, v))
			return false;
	}
	if (in) {
		if ((v = field(in, "arches")) && json_object_array_length(v) && !in_list(v, "amd64"))
			return false;
		for (size_t i = 0; (v = field(in, "caps")) && i < json_object_array_length(v); i++)
			if (!holds_cap(st, json_object_get_string(json_object_array_get_idx(v, i))))
				return false;
		if ((v = field(in, "minKernel")) && !kernel_ge(st, v))
			return false;
	}
	return true;
}

static void select_arches(struct oracle_state *st, struct json_object *root)
{
	struct json_object *list = field(root, "architectures"), *map = field(root, "archMap");
	for (size_t i = 0; list && i < json_object_array_length(list); i++)
		st->arch_names[st->narches++] = json_object_get_string(json_object_array_get_idx(list, i));
	for (size_t i = 0; map && i < json_object_array_length(map); i++) {
		struct json_object *m = json_object_array_get_idx(map, i);
		if (strcmp(json_object_get_string(field(m, "architecture")), "SCMP_ARCH_X86_64"))
			continue;
		st->arch_names[st->narches++] = "SCMP_ARCH_X86_64";
		struct json_object *subs = field(m, "subArchitectures");
		for (size_t k = 0; subs && k < json_object_array_length(subs) && st->narches < 24; k++)
			st->arch_names[st->narches++] =
				json_object_get_string(json_object_array_get_idx(subs, k));
		break;
	}
}

/* --- runc ------------------------------------------------------------------- */

static uint32_t arch_token(const char *name)
{
	if (!strcmp(name, "SCMP_ARCH_X86_64"))
		return SCMP_ARCH_X86_64;
	if (!strcmp(name, "SCMP_ARCH_X86"))
		return SCMP_ARCH_X86;
	if (!strcmp(name, "SCMP_ARCH_X32"))
		return SCMP_ARCH_X32;
	return 0;
}

/* runc getAction(): KILL is KILL_THREAD, ERRNO and TRACE default to EPERM. */
static uint32_t action_value(const char *name, struct json_object *errno_ret)
{
	uint32_t data = errno_ret ? (uint32_t)json_object_get_int64(errno_ret) & 0xffff : 1;
	if (!strcmp(name, "SCMP_ACT_KILL") || !strcmp(name, "SCMP_ACT_KILL_THREAD"))
		return SCMP_ACT_KILL_THREAD;
	if (!strcmp(name, "SCMP_ACT_KILL_PROCESS"))
		return SCMP_ACT_KILL_PROCESS;
	if (!strcmp(name, "SCMP_ACT_TRAP"))
		return SCMP_ACT_TRAP;
	if (!strcmp(name, "SCMP_ACT_ERRNO"))
		return SCMP_ACT_ERRNO(data);
	if (!strcmp(name, "SCMP_ACT_TRACE"))
		return SCMP_ACT_TRACE(data);
	if (!strcmp(name, "SCMP_ACT_LOG"))
		return SCMP_ACT_LOG;
	if (!strcmp(name, "SCMP_ACT_NOTIFY"))
		return SCMP_ACT_NOTIFY;
	return SCMP_ACT_ALLOW;
}

static enum scmp_compare op_value(const char *name)
{
	static const char *const ops[] = { "", "SCMP_CMP_NE", "SCMP_CMP_LT", "SCMP_CMP_LE",
					   "SCMP_CMP_EQ", "SCMP_CMP_GE", "SCMP_CMP_GT",
					   "SCMP_CMP_MASKED_EQ" };
	for (int i = 1; i < 8; i++)
		if (!strcmp(name, ops[i]))
			return (enum scmp_compare)i;
	return _SCMP_CMP_MIN;
}

static uint64_t u64(struct json_object *v)
{
	return v ? json_object_get_uint64(v) : 0;
}

static void note_constant(struct oracle_result *out, uint64_t c)
{
	for (size_t i = 0; i < out->nconstants; i++)
		if (out->constants[i] == c)
			return;
	if (out->nconstants < sizeof(out->constants) / sizeof(out->constants[0]))
		out->constants[out->nconstants++] = c;
}

/* matchCall(): one rule, or one per comparison when two name the same argument. */
static int add_call(struct oracle_state *st, scmp_filter_ctx ctx, const char *name,
		    uint32_t action, struct json_object *args)
{
	struct scmp_arg_cmp conds[16];
	size_t n = args ? json_object_array_length(args) : 0;
	unsigned counts[6] = { 0 };
	bool repeated = false;
	if (action == st->def)
		return 0;
	int nr = seccomp_syscall_resolve_name(name);
	if (nr == __NR_SCMP_ERROR)
		return 0;
	for (size_t i = 0; i < n && i < 16; i++) {
		struct json_object *a = json_object_array_get_idx(args, i);
		conds[i] = (struct scmp_arg_cmp){ (unsigned)u64(field(a, "index")),
						  op_value(json_object_get_string(field(a, "op"))),
						  u64(field(a, "value")), u64(field(a, "valueTwo")) };
		note_constant(st->out, conds[i].datum_a);
		note_constant(st->out, conds[i].datum_b);
		if (conds[i].arg < 6 && ++counts[conds[i].arg] > 1)
			repeated = true;
	}
	if (!repeated)
		return seccomp_rule_add_array(ctx, action, nr, (unsigned)n, conds);
	for (size_t i = 0; i < n; i++) {
		int r = seccomp_rule_add_array(ctx, action, nr, 1, &conds[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Names with argument conditions: their syscalls get the full sweep of argument values. */
static void note_name(struct oracle_result *out, const char *name, struct json_object *args)
{
	if (args && json_object_array_length(args) &&
	    out->nnames < sizeof(out->names) / sizeof(out->names[0]))
		snprintf(out->names[out->nnames++], sizeof(out->names[0]), "%s", name);
}

static int add_rules(struct oracle_state *st, scmp_filter_ctx ctx, struct json_object **calls,
		     size_t ncalls)
{
	for (size_t i = 0; i < ncalls; i++) {
		struct json_object *names = field(calls[i], "names"), *name = field(calls[i], "name");
		uint32_t action = action_value(json_object_get_string(field(calls[i], "action")),
					       field(calls[i], "errnoRet"));
		size_t n = names ? json_object_array_length(names) : 0;
		for (size_t k = 0; k < n + (name ? 1 : 0); k++) {
			const char *s = k < n ? json_object_get_string(json_object_array_get_idx(names, k)) :
						json_object_get_string(name);
			note_name(st->out, s, field(calls[i], "args"));
			int r = add_call(st, ctx, s, action, field(calls[i], "args"));
			if (r < 0 && !st->out->rule_error) {
				st->out->rule_error = r;
				snprintf(st->out->message, sizeof(st->out->message),
					 "seccomp_rule_add(%s) failed: %s", s, strerror(-r));
			}
		}
	}
	return 0;
}

/* --- runc's ENOSYS stub (patchbpf) ------------------------------------------- */

enum { L_NEXT = -1, L_END = -2, L_ENOSYS = -3 };

struct sym_insn {
	uint16_t code;
	int jt, jf; /* L_* or an absolute index */
	uint32_t k;
};

struct stub {
	struct sym_insn v[64];
	size_t n;
};

static void put(struct stub *s, uint16_t code, int jt, int jf, uint32_t k)
{
	s->v[s->n++] = (struct sym_insn){ code, jt, jf, k };
}

static int max_for(const struct oracle_state *st, struct json_object **calls, size_t ncalls,
		   uint32_t token)
{
	int max = 0;
	for (size_t i = 0; i < ncalls; i++) {
		struct json_object *names = field(calls[i], "names"), *name = field(calls[i], "name");
		size_t n = names ? json_object_array_length(names) : 0;
		for (size_t k = 0; k < n + (name ? 1 : 0); k++) {
			const char *s = k < n ? json_object_get_string(json_object_array_get_idx(names, k)) :
						json_object_get_string(name);
			int nr = seccomp_syscall_resolve_name_arch(token, s);
			if (nr > max)
				max = nr;
		}
	}
	(void)st;
	return max;
}

/* Appends one architecture section; returns its first index. */
static int section(struct stub *s, uint32_t audit, int x86max, int x32max)
{
	int start = (int)s->n;
	put(s, BPF_LD | BPF_W | BPF_ABS, L_NEXT, L_NEXT, 0);
	if (audit == AUDIT_ARCH_X86_64) {
		int here = (int)s->n;
		if (x86max && x32max) {
			put(s, BPF_JMP | BPF_JSET | BPF_K, here + 3, L_NEXT, X32_BIT);
			put(s, BPF_JMP | BPF_JGT | BPF_K, L_ENOSYS, L_END, (uint32_t)x86max);
			put(s, BPF_JMP | BPF_JA, L_END, L_END, 0); /* unreachable filler */
			put(s, BPF_JMP | BPF_JGT | BPF_K, L_ENOSYS, L_END, (uint32_t)x32max);
		} else if (x86max) {
			put(s, BPF_JMP | BPF_JSET | BPF_K, L_END, L_NEXT, X32_BIT);
			put(s, BPF_JMP | BPF_JGT | BPF_K, L_ENOSYS, L_END, (uint32_t)x86max);
		} else {
			put(s, BPF_JMP | BPF_JSET | BPF_K, L_NEXT, L_END, X32_BIT);
			put(s, BPF_JMP | BPF_JGT | BPF_K, L_ENOSYS, L_END, (uint32_t)x32max);
		}
	} else {
		put(s, BPF_JMP | BPF_JGT | BPF_K, L_ENOSYS, L_END, (uint32_t)x86max);
	}
	return start;
}

static int resolve(const struct stub *s, int label, size_t at, size_t end, size_t enosys)
{
	size_t target = label == L_NEXT ? at + 1 :
			label == L_END	? end :
			label == L_ENOSYS ? enosys :
					      (size_t)label;
	return (int)(target - at - 1);
	(void)s;
}

static int build_stub(struct oracle_state *st, struct json_object **calls, size_t ncalls,
		      struct scg_prog *stub_prog)
{
	int x86max = 0, x64max = 0, x32max = 0;
	for (size_t i = 0; i < st->narches; i++) {
		uint32_t t = arch_token(st->arch_names[i]);
		int m = max_for(st, calls, ncalls, t);
		if (t == SCMP_ARCH_X86)
			x86max = m;
		else if (t == SCMP_ARCH_X86_64)
			x64max = m;
		else if (t == SCMP_ARCH_X32)
			x32max = m;
	}
	struct stub s = { .n = 0 };
	put(&s, BPF_LD | BPF_W | BPF_ABS, L_NEXT, L_NEXT, 4);
	size_t jumps = s.n;
	if (x86max)
		put(&s, BPF_JMP | BPF_JEQ | BPF_K, 0, L_NEXT, AUDIT_ARCH_I386);
	if (x64max || x32max)
		put(&s, BPF_JMP | BPF_JEQ | BPF_K, 0, L_NEXT, AUDIT_ARCH_X86_64);
	put(&s, BPF_JMP | BPF_JA, L_END, L_END, 0);
	size_t j = jumps;
	if (x86max)
		s.v[j++].jt = section(&s, AUDIT_ARCH_I386, x86max, 0);
	if (x64max || x32max)
		s.v[j++].jt = section(&s, AUDIT_ARCH_X86_64, x64max, x32max);
	size_t enosys = s.n;
	put(&s, BPF_RET | BPF_K, L_NEXT, L_NEXT, ENOSYS_RET);
	size_t end = s.n;
	stub_prog->insns = calloc(s.n, sizeof(struct scg_insn));
	stub_prog->len = s.n;
	if (!stub_prog->insns)
		return -ENOMEM;
	for (size_t i = 0; i < s.n; i++) {
		struct scg_insn *in = &stub_prog->insns[i];
		in->code = s.v[i].code;
		in->k = s.v[i].k;
		if (BPF_CLASS(s.v[i].code) == BPF_JMP && BPF_OP(s.v[i].code) == BPF_JA)
			in->k = (uint32_t)resolve(&s, s.v[i].jt, i, end, enosys);
		else if (BPF_CLASS(s.v[i].code) == BPF_JMP) {
			in->jt = (uint8_t)resolve(&s, s.v[i].jt, i, end, enosys);
			in->jf = (uint8_t)resolve(&s, s.v[i].jf, i, end, enosys);
		}
	}
	return 0;
}

static bool stub_wanted(struct json_object *root)
{
	const char *def = json_object_get_string(field(root, "defaultAction"));
	struct json_object *der = field(root, "defaultErrnoRet");
	if (!strcmp(def, "SCMP_ACT_ALLOW") || !strcmp(def, "SCMP_ACT_LOG") ||
	    !strcmp(def, "SCMP_ACT_TRACE"))
		return false;
	return !(der && json_object_get_uint64(der) == ENOSYS_RET);
}

/* --- putting it together ------------------------------------------------------ */

static int export_prog(scmp_filter_ctx ctx, struct scg_prog *prog)
{
	int fd = memfd_create("oracle", 0);
	if (fd < 0)
		return -errno;
	int r = seccomp_export_bpf(ctx, fd);
	off_t len = r == 0 ? lseek(fd, 0, SEEK_END) : -1;
	if (len > 0 && lseek(fd, 0, SEEK_SET) == 0 && (prog->insns = malloc((size_t)len)) &&
	    read(fd, prog->insns, (size_t)len) == len) {
		prog->len = (size_t)len / sizeof(struct scg_insn);
		r = 0;
	} else if (r == 0) {
		r = -EIO;
	}
	close(fd);
	return r;
}

static int concat(struct scg_prog *stub, struct scg_prog *filter, struct scg_prog *out)
{
	out->len = stub->len + filter->len;
	out->insns = calloc(out->len, sizeof(struct scg_insn));
	if (!out->insns)
		return -ENOMEM;
	/* An empty stub has no instruction array: memcpy() from NULL is undefined even for 0 bytes. */
	if (stub->len)
		memcpy(out->insns, stub->insns, stub->len * sizeof(struct scg_insn));
	if (filter->len)
		memcpy(out->insns + stub->len, filter->insns, filter->len * sizeof(struct scg_insn));
	return 0;
}

/*
 * libseccomp 2.5.4's linear code generator emits the load of the syscall
 * number only in the block of the ABI's first syscall by priority; when
 * that is a pseudo syscall (a name the ABI lacks, like chown32 on x86_64),
 * the block is dropped and so is the load: every test in the ABI's section
 * then compares the architecture word.  Checks the code for that.
 */
static void find_lost_loads(const struct scg_prog *filter, struct oracle_result *out)
{
	/* The architecture tests form a chain: equal goes into the ABI's block, not equal on
	 * to the next test (jeq or jne form, as the blocks happen to be laid out). */
	for (size_t i = 1; i < filter->len; i += 1 + (size_t)filter->insns[i].jf) {
		const struct scg_insn *in = &filter->insns[i];
		if (in->code != (BPF_JMP | BPF_JEQ | BPF_K) ||
		    (in->k != AUDIT_ARCH_X86_64 && in->k != AUDIT_ARCH_I386))
			break;
		size_t t = i + 1 + in->jt;
		bool loads = t < filter->len && filter->insns[t].code == (BPF_LD | BPF_W | BPF_ABS) &&
			     filter->insns[t].k == 0;
		if (in->k == AUDIT_ARCH_X86_64)
			out->lost_load_x86_64 = !loads;
		else
			out->lost_load_i386 = !loads;
	}
}

static void read_kernel(struct oracle_state *st)
{
	struct utsname uts;
	const char *release = st->opts->kernel;
	if (!release && uname(&uts) == 0)
		release = uts.release;
	if (!release || sscanf(release, "%u.%u", &st->kmajor, &st->kminor) != 2)
		st->kmajor = st->kminor = 0;
}

static size_t selected_calls(struct oracle_state *st, struct json_object *root,
			     struct json_object ***out)
{
	struct json_object *list = field(root, "syscalls");
	size_t n = list ? json_object_array_length(list) : 0, k = 0;
	*out = calloc(n ? n : 1, sizeof(**out));
	for (size_t i = 0; *out && i < n; i++)
		if (selected(st, json_object_array_get_idx(list, i)))
			(*out)[k++] = json_object_array_get_idx(list, i);
	return k;
}

/*
 * The oracle is worthless if the loader handed this program another libseccomp than the
 * one its header came from (LD_LIBRARY_PATH pointing at syscage's drop-in, say): the
 * comparison would then be syscage against itself.  Stop loudly instead.
 */
static void require_real_libseccomp(void)
{
	const struct scmp_version *v = seccomp_version();
	if (v->major == SCMP_VER_MAJOR && v->minor == SCMP_VER_MINOR && v->micro == SCMP_VER_MICRO)
		return;
	fprintf(stderr, "oracle: loaded libseccomp %u.%u.%u, built against %d.%d.%d: not the oracle "
		"(is LD_LIBRARY_PATH pointing at the drop-in?)\n", v->major, v->minor, v->micro,
		SCMP_VER_MAJOR, SCMP_VER_MINOR, SCMP_VER_MICRO);
	abort();
}

int oracle_build(const char *json, size_t len, const struct oracle_opts *opts,
		 struct oracle_result *out)
{
	require_real_libseccomp();
	struct oracle_state st = { .opts = opts, .out = out };
	memset(out, 0, sizeof(*out));
	struct json_tokener *tok = json_tokener_new();
	struct json_object *doc = json_tokener_parse_ex(tok, json, (int)len);
	json_tokener_free(tok);
	if (!doc)
		return -EINVAL;
	struct json_object *root = field(field(doc, "linux"), "seccomp");
	root = root ? root : doc;
	read_kernel(&st);
	select_arches(&st, root);
	st.def = action_value(json_object_get_string(field(root, "defaultAction")),
			      field(root, "defaultErrnoRet"));
	struct json_object **calls;
	size_t ncalls = selected_calls(&st, root, &calls);
	scmp_filter_ctx ctx = seccomp_init(st.def);
	int r = ctx ? 0 : -ENOMEM;
	for (size_t i = 0; r == 0 && i < st.narches; i++) {
		int a = seccomp_arch_add(ctx, arch_token(st.arch_names[i]));
		r = a == -EEXIST ? 0 : a;
	}
	size_t nrules = 0;
	for (size_t i = 0; i < ncalls; i++) {
		struct json_object *names = field(calls[i], "names");
		nrules += names ? json_object_array_length(names) : 1;
	}
	/* runc: the binary tree for more than 32 rules */
	if (r == 0 && nrules > 32)
		seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	if (r == 0)
		r = add_rules(&st, ctx, calls, ncalls);
	struct scg_prog filter = { 0 }, stub = { 0 };
	if (r == 0)
		r = export_prog(ctx, &filter);
	if (r == 0)
		find_lost_loads(&filter, out);
	if (r == 0 && opts->stub && stub_wanted(root))
		r = build_stub(&st, calls, ncalls, &stub);
	if (r == 0)
		r = concat(&stub, &filter, &out->prog);
	scg_prog_release(&filter);
	scg_prog_release(&stub);
	seccomp_release(ctx);
	free(calls);
	json_object_put(doc);
	return r;
}

bool oracle_libseccomp_knows(const char *name)
{
	return seccomp_syscall_resolve_name(name) != __NR_SCMP_ERROR;
}

/*
 * Do libseccomp's tables and syscage's agree about @name on x86_64, x86
 * and x32?  (Calls that i386 multiplexes resolve to pseudo numbers there.)
 */
bool oracle_tables_agree(const char *name)
{
	static const struct {
		uint32_t token;
		const char *scg;
	} abis[] = { { SCMP_ARCH_X86_64, "x86_64" }, { SCMP_ARCH_X86, "x86" }, { SCMP_ARCH_X32, "x32" } };
	for (size_t i = 0; i < sizeof(abis) / sizeof(abis[0]); i++) {
		int ls = seccomp_syscall_resolve_name_arch(abis[i].token, name);
		uint32_t nr;
		bool known = scg_syscall_lookup(scg_arch_lookup(abis[i].scg), name, &nr) == 0;
		if (ls <= -100 && ls >= -224 && abis[i].token == SCMP_ARCH_X86)
			continue;
		if (ls < 0 ? known : (!known || (uint32_t)ls != nr))
			return false;
	}
	return true;
}

/* --- the entries one at a time ---------------------------------------------------- */

int oracle_entries_build(const char *json, size_t len, const struct oracle_opts *opts,
			 struct oracle_entries *out)
{
	struct oracle_result scratch;
	struct oracle_state st = { .opts = opts, .out = &scratch };
	memset(out, 0, sizeof(*out));
	memset(&scratch, 0, sizeof(scratch));
	struct json_object *doc = json_tokener_parse(json);
	(void)len;
	if (!doc)
		return -EINVAL;
	struct json_object *root = field(field(doc, "linux"), "seccomp");
	root = root ? root : doc;
	read_kernel(&st);
	select_arches(&st, root);
	st.def = action_value(json_object_get_string(field(root, "defaultAction")),
			      field(root, "defaultErrnoRet"));
	out->def = st.def;
	struct json_object **calls;
	size_t ncalls = selected_calls(&st, root, &calls);
	out->progs = calloc(ncalls ? ncalls : 1, sizeof(*out->progs));
	int r = out->progs ? 0 : -ENOMEM;
	for (size_t i = 0; r == 0 && i < ncalls; i++) {
		scmp_filter_ctx ctx = seccomp_init(st.def);
		for (size_t a = 0; ctx && a < st.narches; a++)
			seccomp_arch_add(ctx, arch_token(st.arch_names[a]));
		r = ctx ? add_rules(&st, ctx, &calls[i], 1) : -ENOMEM;
		if (r == 0)
			r = export_prog(ctx, &out->progs[out->n++]);
		seccomp_release(ctx);
	}
	free(calls);
	json_object_put(doc);
	return r;
}

void oracle_entries_release(struct oracle_entries *e)
{
	for (size_t i = 0; i < e->n; i++)
		scg_prog_release(&e->progs[i]);
	free(e->progs);
	memset(e, 0, sizeof(*e));
}

int oracle_entries_verdict(const struct oracle_entries *e, const struct scg_seccomp_data *d,
			   uint32_t *ret)
{
	*ret = e->def;
	for (size_t i = 0; i < e->n; i++) {
		struct scg_emu_result res;
		if (scg_emu_stack(&e->progs[i], 1, d, &res, NULL, NULL, NULL) < 0)
			return -1;
		if (res.ret == e->def)
			continue;
		if (*ret != e->def && *ret != res.ret)
			return -1;
		*ret = res.ret;
	}
	return 0;
}
