/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policies with phases (<syscage/lang.h>, docs/phases.md).
 *
 * A `phase NAME after TRIGGER` line at the start of a line ends the phase
 * before it.  Each phase's statements are parsed as a policy of their own,
 * with the lines of the other phases left blank so that every diagnostic
 * keeps its line and column; the trigger is parsed the same way, as the
 * rule `trace TRIGGER` written over the words `phase NAME after`.  A phase
 * is checked against the one before it where both decide a syscall
 * whatever its arguments: a later phase allowing more is refused there, as
 * the kernel would refuse it anyway (the strictest of stacked filters wins).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <syscage/bpf.h>
#include <syscage/lang.h>

#include "util/scan.h"
#include "util/strbuf.h"

#define PHASES_MAX	  16
#define PHASES_MAX_SOURCE (16u << 20)

struct phase {
	char *name;
	struct scg_policy *policy;
	enum scg_phase_trigger trigger;
	struct scg_policy *rules; /* SYSCALL: the trigger's rules */
	unsigned line, column;	  /* the `phase` line */
};

struct scg_phases {
	char *file;
	size_t count;
	struct phase v[PHASES_MAX];
};

/* --- lines ---------------------------------------------------------------- */

static bool is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

/* Whether the line at @p (of @n bytes) starts with the word `phase`. */
static bool phase_line(const char *p, size_t n)
{
	return p != NULL && n >= 5 && !memcmp(p, "phase", 5) &&
	       (n == 5 || p[5] == ' ' || p[5] == '\t');
}

bool scg_phases_detect(const char *text, size_t len)
{
	struct scan s;
	scan_init(&s, text, text ? len : 0);
	while (scan_more(&s)) {
		size_t at = s.pos;
		scan_to_eol(&s);
		if (phase_line(text + at, s.pos - at))
			return true;
		scan_advance(&s);
	}
	return false;
}

/* @blank_lines newlines, then @n bytes of @p: a part of the text at its own line numbers. */
static char *at_line(unsigned blank_lines, const char *p, size_t n, size_t *len)
{
	char *s = malloc(blank_lines + n + 1);
	if (!s)
		return NULL;
	memset(s, '\n', blank_lines);
	memcpy(s + blank_lines, p, n);
	s[blank_lines + n] = '\0';
	*len = blank_lines + n;
	return s;
}

/* --- the `phase` line ------------------------------------------------------- */

/* The blanks between the words of a `phase` line: spaces and tabs. */
static bool is_space_tab(char c)
{
	return c == ' ' || c == '\t';
}

/* Moves over blanks, then over a word; returns the word's length. */
static size_t next_word(struct scan *s)
{
	scan_while(s, is_space_tab);
	return scan_while(s, is_word_char);
}

static struct scg_loc loc_at(const char *file, unsigned line, size_t at)
{
	return (struct scg_loc){file, line, (unsigned)at + 1, -1};
}

/* The end of the line's statement: before a comment (strings hold no '#' that ends it). */
static size_t statement_end(const char *p, size_t n)
{
	bool quoted = false;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '"' && (i == 0 || p[i - 1] != '\\'))
			quoted = !quoted;
		else if (p[i] == '#' && !quoted)
			return i;
	}
	return n;
}

struct header {
	char *name;
	size_t trigger_at; /* where the trigger starts in the line */
	bool call;	   /* `phase_enter` */
};

/* Reads `phase NAME after TRIGGER`; false when reported. */
static bool parse_header(const char *file, unsigned line, const char *p, size_t n, struct header *h,
			 struct scg_diag *diag)
{
	struct scan s;
	scan_init_at(&s, p, statement_end(p, n), line, 1);
	scan_skip(&s, 5); /* `phase` */
	scan_while(&s, is_space_tab);
	struct scg_loc at = scan_loc(&s, file);
	bool letter = scan_is_ident_start(scan_peek(&s, 0)) && scan_peek(&s, 0) != '_';
	size_t start = s.pos, len = scan_while(&s, is_word_char);
	if (len == 0 || !letter) {
		scg_diag_add(diag, SCG_SEV_ERROR, at, "syntax",
			     "phase NAME after SYSCALL [if CONDITION]; a name starts with a letter",
			     "expected a phase name");
		return false;
	}
	h->name = strndup(p + start, len);
	if (!h->name)
		return false;
	scan_while(&s, is_space_tab);
	at = scan_loc(&s, file);
	if (next_word(&s) != 5 || memcmp(p + s.pos - 5, "after", 5)) {
		scg_diag_add(diag, SCG_SEV_ERROR, at, "syntax",
			     "phase NAME after SYSCALL [if CONDITION], or after phase_enter",
			     "expected 'after'");
		return false;
	}
	scan_while(&s, is_space_tab);
	at = scan_loc(&s, file);
	h->trigger_at = s.pos;
	len = next_word(&s);
	if (len == 0) {
		scg_diag_add(diag, SCG_SEV_ERROR, at, "syntax",
			     "a syscall with its condition, or phase_enter",
			     "expected what ends the phase before");
		return false;
	}
	if (len != 11 || memcmp(p + h->trigger_at, "phase_enter", 11))
		return true;
	h->call = true;
	/* phase_enter, or phase_enter("NAME") naming this phase */
	scan_while(&s, is_space_tab);
	if (scan_accept(&s, "(")) {
		scan_while(&s, is_space_tab);
		at = scan_loc(&s, file);
		if (!scan_accept(&s, "\"") || !scan_accept(&s, h->name) || !scan_accept(&s, "\"")) {
			scg_diag_add(diag, SCG_SEV_ERROR, at, "syntax", NULL,
				     "phase_enter names the phase it enters: phase_enter(\"%s\")",
				     h->name);
			return false;
		}
		scan_while(&s, is_space_tab);
		if (!scan_accept(&s, ")")) {
			scg_diag_add(diag, SCG_SEV_ERROR, scan_loc(&s, file), "syntax", NULL,
				     "expected ')'");
			return false;
		}
		scan_while(&s, is_space_tab);
	}
	if (scan_more(&s)) {
		scg_diag_add(diag, SCG_SEV_ERROR, scan_loc(&s, file), "syntax", NULL,
			     "expected end of line after phase_enter");
		return false;
	}
	return true;
}

/* --- copying policies -------------------------------------------------------- */

static int copy_rule(struct scg_policy *to, const struct scg_rule *rule, uint32_t action,
		     uint32_t arch_mask)
{
	struct scg_rule_spec spec = {
	    .action = action,
	    .syscall = rule->syscall,
	    .has_number = rule->has_number,
	    .number = rule->number,
	    .number_last = rule->number_last,
	    .arch_mask = arch_mask,
	    .loc = rule->loc,
	};
	if (rule->cond && !(spec.cond = scg_expr_clone(rule->cond)))
		return -ENOMEM;
	return scg_policy_add_rule(to, &spec);
}

/* Settings @p does not set itself are @prev's. */
static void inherit_settings(struct scg_policy *p, const struct scg_policy *prev)
{
	uint32_t action;
	if (scg_policy_setting_loc(p, SCG_SETTING_DEFAULT).line == 0) {
		scg_policy_set_default(p, scg_policy_default(prev));
		scg_policy_set_setting_loc(p, SCG_SETTING_DEFAULT,
					   scg_policy_setting_loc(prev, SCG_SETTING_DEFAULT));
	}
	if (scg_policy_setting_loc(p, SCG_SETTING_BADARCH).line == 0) {
		scg_policy_set_badarch(p, scg_policy_badarch(prev));
		scg_policy_set_setting_loc(p, SCG_SETTING_BADARCH,
					   scg_policy_setting_loc(prev, SCG_SETTING_BADARCH));
	}
	if (scg_policy_setting_loc(p, SCG_SETTING_UNKNOWN).line == 0) {
		if (scg_policy_unknown(prev, &action))
			scg_policy_set_unknown(p, action);
		else
			scg_policy_clear_unknown(p);
		scg_policy_set_setting_loc(p, SCG_SETTING_UNKNOWN,
					   scg_policy_setting_loc(prev, SCG_SETTING_UNKNOWN));
	}
}

/* --- a later phase takes calls away only ------------------------------------- */

/* Kernel precedence: lower is stricter (an action the kernel does not know kills). */
static int strictness(uint32_t action)
{
	enum scg_action a = scg_action_of(action);
	return a == SCG_ACTION_UNKNOWN ? -1 : (int)a;
}

/*
 * How @p decides syscall @nr on @arch when the arguments do not matter:
 * true with the verdict and the deciding rule (or SIZE_MAX: the default);
 * false when a condition comes first.
 */
static bool decides_alike(const struct scg_policy *p, const struct scg_arch *arch, uint32_t nr,
			  uint32_t *action, size_t *rule)
{
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		uint32_t first, last;
		struct scg_rule r;
		if (scg_policy_rule_range(p, i, arch, &first, &last) < 0 || nr < first ||
		    nr > last || scg_policy_rule_at(p, i, &r) < 0)
			continue;
		if (r.cond)
			return false;
		*action = r.action;
		*rule = i;
		return true;
	}
	*action = scg_policy_default(p);
	*rule = SIZE_MAX;
	return true;
}

static bool same_arch_target(const struct scg_policy *p, const struct scg_arch *arch)
{
	for (size_t i = 0; i < scg_policy_arch_count(p); i++)
		if (scg_policy_arch_at(p, i) == arch)
			return true;
	return false;
}

/* Reports where phase @later allows more than @earlier; the number of errors. */
static unsigned check_stricter(const struct phase *earlier, const struct phase *later,
			       const char *file, struct scg_diag *diag)
{
	const struct scg_policy *a = earlier->policy, *b = later->policy;
	size_t nrules = scg_policy_rule_count(b);
	bool *told = calloc(nrules + 1, sizeof(*told)); /* the last: the default */
	unsigned errors = 0;
	if (!told)
		return 0;
	for (size_t k = 0; k < scg_policy_arch_count(b); k++) {
		const struct scg_arch *arch = scg_policy_arch_at(b, k);
		if (!same_arch_target(a, arch))
			continue;
		size_t n = scg_syscall_count(arch);
		for (size_t s = 0; s < n; s++) {
			const char *name;
			uint32_t nr, va, vb;
			size_t ra, rb;
			if (scg_syscall_at(arch, s, &name, &nr) < 0 ||
			    !decides_alike(a, arch, nr, &va, &ra) ||
			    !decides_alike(b, arch, nr, &vb, &rb) ||
			    strictness(vb) <= strictness(va))
				continue;
			size_t slot = rb == SIZE_MAX ? nrules : rb;
			if (told[slot])
				continue;
			told[slot] = true;
			errors++;
			struct scg_rule r;
			struct scg_loc loc = rb == SIZE_MAX
						 ? scg_policy_setting_loc(b, SCG_SETTING_DEFAULT)
						 : (scg_policy_rule_at(b, rb, &r), r.loc);
			if (loc.line == 0)
				loc = (struct scg_loc){file, later->line, later->column, -1};
			char was[48], now[48], hint[200];
			scg_ret_format(va, was, sizeof(was));
			scg_ret_format(vb, now, sizeof(now));
			struct scg_loc prev_loc =
			    ra == SIZE_MAX ? scg_policy_setting_loc(a, SCG_SETTING_DEFAULT)
					   : (scg_policy_rule_at(a, ra, &r), r.loc);
			if (prev_loc.line)
				snprintf(hint, sizeof(hint),
					 "filters stack and the strictest verdict wins: phase '%s' "
					 "(line %u) gives %s",
					 earlier->name, prev_loc.line, was);
			else
				snprintf(hint, sizeof(hint),
					 "filters stack and the strictest verdict wins: phase '%s' "
					 "gives %s",
					 earlier->name, was);
			scg_diag_add(diag, SCG_SEV_ERROR, loc, "phase-not-stricter", hint,
				     "phase '%s' gives '%s' %s, more than phase '%s' does",
				     later->name, name, now, earlier->name);
		}
	}
	free(told);
	return errors;
}

/* --- parsing ------------------------------------------------------------------- */

void scg_phases_free(struct scg_phases *phases)
{
	if (!phases)
		return;
	for (size_t i = 0; i < phases->count; i++) {
		free(phases->v[i].name);
		scg_policy_free(phases->v[i].policy);
		scg_policy_free(phases->v[i].rules);
	}
	free(phases->file);
	free(phases);
}

struct split {
	const char *text;
	size_t len;
	size_t starts[PHASES_MAX];  /* byte offset of each `phase` line (starts[0] unused) */
	unsigned lines[PHASES_MAX]; /* its line number, 1-based (lines[0]: 0) */
	size_t count;
};

/* Finds the `phase` lines; false (reported) past PHASES_MAX phases. */
static bool split_text(struct split *sp, const char *file, struct scg_diag *diag)
{
	sp->count = 1;
	struct scan s;
	scan_init(&s, sp->text, sp->len);
	while (scan_more(&s)) {
		struct scg_loc loc = scan_loc(&s, file);
		size_t at = s.pos;
		scan_to_eol(&s);
		if (phase_line(sp->text + at, s.pos - at)) {
			if (sp->count == PHASES_MAX) {
				scg_diag_add(diag, SCG_SEV_ERROR, loc, "too-many-phases", NULL,
					     "more than %d phases", PHASES_MAX);
				return false;
			}
			sp->starts[sp->count] = at;
			sp->lines[sp->count++] = loc.line;
		}
		scan_advance(&s);
	}
	return true;
}

/* The bytes of phase @i's body: from the line after its `phase` line to the next. */
static void body_of(const struct split *sp, size_t i, size_t *from, size_t *to, unsigned *line)
{
	if (i == 0) {
		*from = 0;
		*line = 0;
	} else {
		const char *nl = memchr(sp->text + sp->starts[i], '\n', sp->len - sp->starts[i]);
		*from = nl ? (size_t)(nl - sp->text) + 1 : sp->len;
		*line = sp->lines[i];
	}
	*to = i + 1 < sp->count ? sp->starts[i + 1] : sp->len;
}

/* Parses the trigger of phase @i (line text @p, @n bytes) as `trace(i) TRIGGER`. */
static int parse_trigger(struct phase *ph, size_t i, const struct header *h, const char *p,
			 size_t n, const struct scg_policy_source_options *opts,
			 struct scg_diag *diag)
{
	/* the line as it is, NUL bytes and all (the policy parser reports them) */
	size_t len;
	char *text = at_line(ph->line - 1, p, n, &len);
	if (!text)
		return -ENOMEM;
	/* "trace" over "phase", the rest of the words blank: columns stay */
	char *line = text + ph->line - 1;
	memset(line, ' ', h->trigger_at);
	memcpy(line, "trace", 5);
	const struct scg_arch *native = scg_arch_native();
	SCG_OPTS(scg_policy_source_options, o, .filename = opts ? opts->filename : NULL,
		 .arches = &native, .narches = 1);
	struct scg_policy *rules = NULL;
	int r = scg_policy_parse(text, len, &o, &rules, diag);
	free(text);
	if (r < 0)
		return r;
	/* trace(i): which phase the call ends the one before of */
	struct scg_policy *tagged = scg_policy_new();
	r = tagged ? scg_policy_add_arch(tagged, native) : -ENOMEM;
	/* the native ABI's calls only: the other ABIs' never trigger (docs/phases.md) */
	uint32_t bit = scg_arch_mask_bit(native);
	for (size_t k = 0; r == 0 && k < scg_policy_rule_count(rules); k++) {
		struct scg_rule rule;
		r = scg_policy_rule_at(rules, k, &rule);
		if (r == 0 && (rule.arch_mask == 0 || (rule.arch_mask & bit)))
			r = copy_rule(tagged, &rule, SCG_RET_TRACE | (uint32_t)i, bit);
	}
	scg_policy_free(rules);
	if (r == 0 && scg_policy_rule_count(tagged) == 0) {
		scg_diag_add(diag, SCG_SEV_ERROR,
			     loc_at(opts ? opts->filename : NULL, ph->line, h->trigger_at),
			     "phase-trigger", "the trigger is a syscall of the native ABI",
			     "the trigger of phase '%s' matches no call", ph->name);
		r = -EINVAL;
	}
	if (r < 0) {
		scg_policy_free(tagged);
		return r;
	}
	ph->rules = tagged;
	return 0;
}

static int parse_phase(struct scg_phases *set, const struct split *sp, size_t i,
		       const struct scg_policy_source_options *opts, struct scg_diag *diag)
{
	struct phase *ph = &set->v[i];
	const char *file = opts ? opts->filename : NULL;
	int r = 0;
	if (i == 0) {
		ph->name = strdup("start");
		if (!ph->name)
			return -ENOMEM;
	} else {
		const char *p = sp->text + sp->starts[i];
		const char *nl = memchr(p, '\n', sp->len - sp->starts[i]);
		size_t n = nl ? (size_t)(nl - p) : sp->len - sp->starts[i];
		struct header h = {0};
		ph->line = sp->lines[i];
		ph->column = 1;
		if (!parse_header(file, ph->line, p, n, &h, diag)) {
			free(h.name);
			return -EINVAL;
		}
		ph->name = h.name;
		if (scg_phases_find(set, h.name) >= 0 && scg_phases_find(set, h.name) < (int)i) {
			scg_diag_add(diag, SCG_SEV_ERROR, loc_at(file, ph->line, 6), "phase-name",
				     NULL, "a phase called '%s' comes before", h.name);
			r = -EINVAL;
		}
		ph->trigger = h.call ? SCG_PHASE_TRIGGER_CALL : SCG_PHASE_TRIGGER_SYSCALL;
		int t = h.call ? 0 : parse_trigger(ph, i, &h, p, n, opts, diag);
		if (t < 0 && r == 0)
			r = t;
	}
	size_t from, to;
	unsigned line;
	body_of(sp, i, &from, &to, &line);
	size_t len;
	char *text = at_line(line, sp->text + from, to - from, &len);
	if (!text)
		return -ENOMEM;
	struct scg_policy_source_options o = {.sz = sizeof(o)};
	const struct scg_arch *arches[32];
	if (opts)
		o = *opts, o.sz = sizeof(o);
	if (i > 0 && set->v[0].policy) {
		/* every phase has the start phase's targets */
		size_t na = scg_policy_arch_count(set->v[0].policy);
		for (size_t k = 0; k < na && k < 32; k++)
			arches[k] = scg_policy_arch_at(set->v[0].policy, k);
		o.arches = arches;
		o.narches = na < 32 ? na : 32;
	}
	int p = scg_policy_parse(text, len, &o, &ph->policy, diag);
	free(text);
	if (p < 0)
		return p;
	if (i > 0 && set->v[i - 1].policy)
		inherit_settings(ph->policy, set->v[i - 1].policy);
	return r;
}

int scg_phases_parse(const char *text, size_t len, const struct scg_policy_source_options *opts,
		     struct scg_phases **out, struct scg_diag *diag)
{
	*out = NULL;
	if (!text && len)
		return -EINVAL;
	struct scg_phases *set = calloc(1, sizeof(*set));
	if (!set)
		return -ENOMEM;
	struct split sp = {.text = text ? text : "", .len = len};
	const char *file = opts ? opts->filename : NULL;
	int r = split_text(&sp, file, diag) ? 0 : -EINVAL;
	bool bad = r < 0;
	for (size_t i = 0; r != -ENOMEM && i < sp.count; i++) {
		set->count = i + 1;
		r = parse_phase(set, &sp, i, opts, diag);
		if (r == -EINVAL)
			bad = true;
		if (r == 0 && i > 0 && set->v[i - 1].policy &&
		    check_stricter(&set->v[i - 1], &set->v[i], file, diag))
			bad = true;
	}
	if (r == -ENOMEM || bad) {
		scg_phases_free(set);
		return r == -ENOMEM ? r : -EINVAL;
	}
	*out = set;
	return 0;
}

int scg_phases_parse_file(const char *path, const struct scg_policy_source_options *opts,
			  struct scg_phases **out, struct scg_diag *diag)
{
	*out = NULL;
	struct scg_policy_source_options o = {.sz = sizeof(o)};
	if (opts)
		o = *opts, o.sz = sizeof(o);
	if (!o.filename)
		o.filename = path;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	int r = fd < 0 ? -errno : fstat(fd, &st) < 0 ? -errno : !S_ISREG(st.st_mode) ? -EINVAL : 0;
	struct strbuf sb = STRBUF_INIT;
	while (r == 0) {
		char buf[65536];
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : 0;
			break;
		}
		if (sb.len + (size_t)n > PHASES_MAX_SOURCE)
			r = -EFBIG;
		else
			strbuf_appendn(&sb, buf, (size_t)n);
	}
	if (fd >= 0)
		close(fd);
	if (r == 0 && sb.failed)
		r = -ENOMEM;
	if (r < 0) {
		struct scg_loc file = { o.filename, 0, 0, -1 };
		scg_diag_add(diag, SCG_SEV_ERROR, file, "read", NULL, "cannot read '%s': %s", path,
			     strerror(-r));
		strbuf_release(&sb);
		return r;
	}
	r = scg_phases_parse(sb.data ? sb.data : "", sb.len, &o, out, diag);
	strbuf_release(&sb);
	return r;
}

/* --- reading -------------------------------------------------------------------- */

size_t scg_phases_count(const struct scg_phases *phases)
{
	return phases ? phases->count : 0;
}

const char *scg_phases_name(const struct scg_phases *phases, size_t i)
{
	return phases && i < phases->count ? phases->v[i].name : NULL;
}

int scg_phases_find(const struct scg_phases *phases, const char *name)
{
	for (size_t i = 0; phases && name && i < phases->count; i++)
		if (phases->v[i].name && !strcmp(phases->v[i].name, name))
			return (int)i;
	return -ENOENT;
}

const struct scg_policy *scg_phases_policy(const struct scg_phases *phases, size_t i)
{
	return phases && i < phases->count ? phases->v[i].policy : NULL;
}

enum scg_phase_trigger scg_phases_trigger(const struct scg_phases *phases, size_t i,
					  const struct scg_policy **rules, struct scg_loc *loc)
{
	if (rules)
		*rules = NULL;
	if (loc)
		*loc = SCG_LOC_NONE;
	if (!phases || i >= phases->count)
		return SCG_PHASE_TRIGGER_NONE;
	const struct phase *ph = &phases->v[i];
	if (rules)
		*rules = ph->rules;
	if (loc && i > 0)
		*loc = (struct scg_loc){NULL, ph->line, ph->column, -1};
	return ph->trigger;
}

int scg_phases_filter_policy(const struct scg_phases *phases, size_t i, struct scg_policy **out)
{
	*out = NULL;
	if (!phases || i >= phases->count)
		return -ENOENT;
	const struct scg_policy *src = phases->v[i].policy;
	const struct scg_policy *next = i + 1 < phases->count ? phases->v[i + 1].rules : NULL;
	struct scg_policy *p = scg_policy_new();
	if (!p)
		return -ENOMEM;
	int r = 0;
	for (size_t k = 0; r == 0 && k < scg_policy_arch_count(src); k++)
		r = scg_policy_add_arch(p, scg_policy_arch_at(src, k));
	scg_policy_set_default(p, scg_policy_default(src));
	scg_policy_set_badarch(p, scg_policy_badarch(src));
	uint32_t unknown;
	if (scg_policy_unknown(src, &unknown))
		scg_policy_set_unknown(p, unknown);
	for (int s = SCG_SETTING_DEFAULT; r == 0 && s <= SCG_SETTING_UNKNOWN; s++)
		r = scg_policy_set_setting_loc(p, (enum scg_setting)s,
					       scg_policy_setting_loc(src, (enum scg_setting)s));
	for (size_t k = 0; r == 0 && next && k < scg_policy_rule_count(next); k++) {
		struct scg_rule rule;
		r = scg_policy_rule_at(next, k, &rule);
		if (r == 0)
			r = copy_rule(p, &rule, rule.action, rule.arch_mask);
	}
	for (size_t k = 0; r == 0 && k < scg_policy_rule_count(src); k++) {
		struct scg_rule rule;
		r = scg_policy_rule_at(src, k, &rule);
		if (r == 0)
			r = copy_rule(p, &rule, rule.action, rule.arch_mask);
	}
	if (r < 0) {
		scg_policy_free(p);
		return r;
	}
	*out = p;
	return 0;
}
