/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Loading inputs and naming regions for the analysis subcommands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/load.h>

#include "analyze.h"

/* @words names a headerless assembler file's words; @target, when set, the one ABI a policy
 * is compiled for. */
static int analysis_load(const char *path, const struct scg_arch *words, const struct scg_arch *target,
			 struct scg_prog *prog, struct scg_policy **policy)
{
	if (policy)
		*policy = NULL;
	*prog = (struct scg_prog){ 0 };
	struct scg_input in;
	const struct scg_arch *const targets[1] = { target };
	int r = cli_load_input(path, words, targets, target ? 1 : 0, &in);
	if (r < 0)
		return r;
	if (!in.policy) {
		*prog = in.prog;
		in.prog = (struct scg_prog){ 0 };
		scg_input_release(&in);
		return 0;
	}
	struct scg_diag *diag = scg_diag_new();
	if (!diag) {
		scg_input_release(&in);
		return -ENOMEM;
	}
	r = scg_compile(in.policy, NULL, prog, diag);
	cli_print_diag(diag);
	scg_diag_free(diag);
	if (r == 0 && policy) {
		*policy = in.policy;
		in.policy = NULL;
	}
	scg_input_release(&in);
	return r;
}

int cli_analysis_load(const char *path, const struct scg_arch *arch, struct scg_prog *prog,
		      struct scg_policy **policy)
{
	return analysis_load(path, arch, arch, prog, policy);
}

int cli_analysis_load_words(const char *path, const struct scg_arch *words, struct scg_prog *prog,
			    struct scg_policy **policy)
{
	return analysis_load(path, words, NULL, prog, policy);
}

static bool single_value(const struct scg_region *region, unsigned word, uint32_t *v)
{
	struct scg_word_set set;
	scg_region_word(region, word, &set);
	if (set.nintervals != 1 || set.intervals[0].lo != set.intervals[0].hi)
		return false;
	*v = set.intervals[0].lo;
	return true;
}

const struct scg_arch *cli_region_arch(const struct scg_region *region)
{
	uint32_t audit, nr;
	if (!single_value(region, SCG_WORD_ARCH, &audit))
		return NULL;
	/* x86_64 and x32 share the AUDIT value: bit 30 of nr decides */
	if (scg_region_word_next(region, SCG_WORD_NR, 0, &nr) < 0)
		return NULL;
	return scg_arch_from_audit(audit, nr);
}

void cli_region_abi(const struct scg_region *region, char *buf, size_t size)
{
	const struct scg_arch *arch = cli_region_arch(region);
	uint32_t audit;
	if (arch)
		snprintf(buf, size, "%s", scg_arch_name(arch));
	else if (single_value(region, SCG_WORD_ARCH, &audit))
		snprintf(buf, size, "arch 0x%08x", (unsigned)audit);
	else
		snprintf(buf, size, "other ABIs");
}

/* Names of a small set of numbers ("statmount, listmount"), when every one has a name. */
static bool small_set_names(const struct scg_region *region, const struct scg_arch *arch,
			    char *buf, size_t size)
{
	uint32_t nr = 0, values[8];
	size_t n = 0;
	while (scg_region_word_next(region, SCG_WORD_NR, nr, &nr) == 0) {
		if (n == 8 || !scg_syscall_name(arch, nr))
			return false;
		values[n++] = nr;
		if (nr == UINT32_MAX)
			break;
		nr++;
	}
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
					scg_syscall_name(arch, values[i]));
	return n > 0;
}

void cli_region_syscall(const struct scg_region *region, char *buf, size_t size)
{
	const struct scg_arch *arch = cli_region_arch(region);
	uint32_t nr;
	if (single_value(region, SCG_WORD_NR, &nr)) {
		const char *name = arch ? scg_syscall_name(arch, nr) : NULL;
		if (name)
			snprintf(buf, size, "%s", name);
		else
			snprintf(buf, size, "nr %d", (int)nr);
		return;
	}
	if (arch && small_set_names(region, arch, buf, size))
		return;
	char *text = NULL;
	if (scg_region_word_text(region, SCG_WORD_NR, "nr", &text) == 0 && text[0]) {
		/* bit 30 of nr is what tells x86_64 from x32: the ABI's name already says it */
		static const char *const implied[] = { "(nr & 0x40000000) == 0 && ",
						       "(nr & 0x40000000) == 0x40000000 && " };
		const char *shown = text;
		for (size_t i = 0; i < 2; i++)
			if (arch && !strncmp(shown, implied[i], strlen(implied[i])))
				shown += strlen(implied[i]);
		snprintf(buf, size, "%s", shown);
	} else {
		snprintf(buf, size, "any nr");
	}
	free(text);
}

/* --- time budgets ----------------------------------------------------------- */

const char cli_timeout_usage[] =
	"      --timeout SECONDS  give the analysis at most this long (default 10;\n"
	"                        0: no limit); past it, say what is not decided\n";

int cli_parse_timeout(const char *cmd, const char *text, uint64_t *ms)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	/* a week at most: a number, not a mistyped date */
	if (errno || end == text || *end || !(v >= 0) || v > 604800) {
		cli_error("%s: --timeout wants seconds (0 for no limit), not '%s'", cmd, text);
		return -EINVAL;
	}
	*ms = (uint64_t)(v * 1000 + 0.999); /* a fraction of a millisecond rounds up */
	return 0;
}

struct scg_analysis_options cli_analysis_options(uint64_t ms)
{
	return (struct scg_analysis_options){ .sz = sizeof(struct scg_analysis_options),
					      .timeout_ms = ms };
}

void cli_verdict_format(uint32_t ret, bool note_unknown, char *buf, size_t size)
{
	/* a filter of one `ret #ret`, run by the emulator: its classification, not a copy */
	struct scg_insn insn = { 0x06 /* BPF_RET | BPF_K */, 0, 0, ret };
	struct scg_prog one = { &insn, 1 };
	struct scg_seccomp_data d = { 0 };
	struct scg_emu_result res;
	if (scg_emu_stack_unchecked(&one, 1, &d, &res, NULL, NULL, NULL, NULL) < 0) {
		scg_ret_format(ret, buf, size);
		return;
	}
	int n = scg_emu_result_format(&res, buf, size);
	if (note_unknown && res.unknown_action && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, " (unknown action 0x%08x)", ret);
}

const char *cli_analysis_strerror(int err)
{
	if (err == -E2BIG)
		return "the analysis gave up where the error above says (a filter past its "
		       "limits, or a question the solver could not decide): no answer is given";
	return strerror(-err);
}

void cli_budget_error(const char *cmd, uint64_t ms, int err, const char *what)
{
	if (err == -ETIMEDOUT)
		cli_error("%s: the time budget of %.3g s ran out before %s (--timeout SECONDS; 0 "
			  "for no limit)", cmd, (double)ms / 1000, what);
	else
		cli_error("%s: cancelled before %s", cmd, what);
}

/* At most this many groups are named; the rest are counted together. */
#define UNDECIDED_GROUPS 64U

struct cli_undecided {
	struct {
		char *name; /* "x86_64 openat" */
		size_t regions;
	} group[UNDECIDED_GROUPS];
	size_t ngroups, regions, others;
};

struct cli_undecided *cli_undecided_new(void)
{
	return calloc(1, sizeof(struct cli_undecided));
}

void cli_undecided_free(struct cli_undecided *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->ngroups; i++)
		free(u->group[i].name);
	free(u);
}

int cli_undecided_add(void *ctx, const struct scg_region *region)
{
	struct cli_undecided *u = ctx;
	char abi[64], sc[256], name[330];
	cli_region_abi(region, abi, sizeof(abi));
	cli_region_syscall(region, sc, sizeof(sc));
	snprintf(name, sizeof(name), "%s %s", abi, sc);
	u->regions++;
	for (size_t i = 0; i < u->ngroups; i++) {
		if (!strcmp(u->group[i].name, name)) {
			u->group[i].regions++;
			return 0;
		}
	}
	if (u->ngroups == UNDECIDED_GROUPS || !(u->group[u->ngroups].name = strdup(name))) {
		u->others++;
		return 0;
	}
	u->group[u->ngroups++].regions = 1;
	return 0;
}

size_t cli_undecided_count(const struct cli_undecided *u)
{
	return u->regions;
}

void cli_undecided_print(const struct cli_undecided *u, FILE *out, const char *prefix)
{
	for (size_t i = 0; i < u->ngroups; i++) {
		fputs(prefix, out);
		cli_fputs_escaped(u->group[i].name, out);
		fprintf(out, ": %zu region%s\n", u->group[i].regions,
			u->group[i].regions == 1 ? "" : "s");
	}
	if (u->others)
		fprintf(out, "%sother ABIs and syscalls: %zu region%s\n", prefix, u->others,
			u->others == 1 ? "" : "s");
}

static void undecided_group(struct scg_json *w, const char *inputs, size_t regions)
{
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_string(w, "inputs", inputs);
	scg_json_member_uint(w, "regions", regions);
	scg_json_end(w);
}

void cli_undecided_json(const struct cli_undecided *u, struct scg_json *w)
{
	scg_json_array(w, SCG_JSON_INLINE);
	for (size_t i = 0; i < u->ngroups; i++)
		undecided_group(w, u->group[i].name, u->group[i].regions);
	if (u->others)
		undecided_group(w, "other ABIs and syscalls", u->others);
	scg_json_end(w);
}
