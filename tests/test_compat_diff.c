/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Differential test of the libseccomp-compatible library against libseccomp
 * itself: tests/compat/diff_driver.c, built once against each, makes the
 * same API calls on hand-written cases and on generated rule sets and
 * prints every return code and, per rule set, the verdicts of the exported
 * filter with what the rules mean beside them (see the driver).  Return
 * codes and rule sets must match exactly; syscage's verdicts must equal the
 * meaning everywhere; libseccomp's may differ only where libseccomp itself
 * gets the meaning wrong (counted and printed, never hidden).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Rule sets per seed.  libseccomp 2.5.4 spends minutes (or forever) on some
 * generated sets (seed 0x1ee7, set 530: seven rules on aarch64 + arm), so the
 * seeds below are ones it finishes, and every run has a time limit.
 */
#define RULE_SETS 600

/* libseccomp's __NR_SCMP_ERROR: a name it knows on no ABI. */
#define SCMP_ERROR_NR (-1)

static char driver_dir[PATH_MAX];

static FILE *run_driver(const char *which, unsigned sets, const char *seed, bool overlap)
{
	char cmd[PATH_MAX + 128];
	/* libseccomp 2.5.4 leaks on some error paths; a sanitizer build must not fail on
	 * that (syscage's driver keeps leak checking). */
	const char *env = strcmp(which, "libseccomp") == 0 ?
				  "ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" " :
				  "";
	snprintf(cmd, sizeof(cmd), "%stimeout 120 '%s/compat/diff-%s' %s%u %s", env, driver_dir,
		 which, overlap ? "overlap " : "", sets, seed);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	return f;
}

struct tally {
	size_t lines, probes, verdicts, libseccomp_wrong;
};

/* "  0x... name: v v v v v v | m m m m m m": the filter's verdicts, then the meaning. */
static int parse_probe(const char *line, unsigned long got[6], unsigned long want[6])
{
	const char *colon = strchr(line, ':');
	if (colon == NULL)
		return -1;
	return sscanf(colon + 1, "%lx %lx %lx %lx %lx %lx | %lx %lx %lx %lx %lx %lx", &got[0],
		      &got[1], &got[2], &got[3], &got[4], &got[5], &want[0], &want[1], &want[2],
		      &want[3], &want[4], &want[5]) == 12 ?
		       0 :
		       -1;
}

static void compare_line(const char *theirs, const char *ours, struct tally *t)
{
	t->lines++;
	if (strncmp(ours, "  0x", 4) != 0) {
		if (strcmp(theirs, ours) != 0)
			fail_msg("line %zu differs:\n libseccomp: %s syscage:    %s", t->lines, theirs,
				 ours);
		return;
	}
	unsigned long tg[6], tw[6], og[6], ow[6];
	assert_int_equal(parse_probe(theirs, tg, tw), 0);
	assert_int_equal(parse_probe(ours, og, ow), 0);
	t->probes++;
	for (int k = 0; k < 6; k++) {
		assert_int_equal(tw[k], ow[k]); /* same rules, same meaning */
		if (og[k] != ow[k])
			fail_msg("line %zu: syscage's filter disagrees with the rules: %s", t->lines,
				 ours);
		if (tg[k] != tw[k]) {
			t->libseccomp_wrong++;
			if (t->libseccomp_wrong <= 5)
				fprintf(stderr, "libseccomp differs from its rules (line %zu): %s",
					t->lines, theirs);
		}
		t->verdicts++;
	}
}

static void run_pair(const char *seed, struct tally *t)
{
	FILE *theirs = run_driver("libseccomp", RULE_SETS, seed, false);
	FILE *ours = run_driver("syscage", RULE_SETS, seed, false);
	char a[8192], b[8192];
	for (;;) {
		char *ra = fgets(a, sizeof(a), theirs), *rb = fgets(b, sizeof(b), ours);
		if (ra == NULL || rb == NULL) {
			assert_true(ra == NULL && rb == NULL); /* same length */
			break;
		}
		compare_line(a, b, t);
	}
	assert_int_equal(pclose(theirs), 0);
	assert_int_equal(pclose(ours), 0);
}

static void test_against_libseccomp(void **state)
{
	(void)state;
	struct tally t = { 0 };
	static const char *const seeds[] = { "0x5ecc", "0x2bad", "0x7777" };
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		run_pair(seeds[i], &t);
	fprintf(stderr, "%zu lines, %zu probe lines, %zu verdicts; libseccomp wrong on %zu\n",
		t.lines, t.probes, t.verdicts, t.libseccomp_wrong);
	/* Enough was compared, and libseccomp's slips stay rare (a flood would mean
	 * the meaning printed by the driver is what is wrong). */
	assert_true(t.probes >= 3 * RULE_SETS * 20);
	assert_true(t.libseccomp_wrong * 100 < t.verdicts);
}

/* --- overlapping rules of different actions --------------------------------------- */

#define OVERLAP_SETS 400

/* The kernel's rank of an action: lower is stricter. */
static int32_t rank(unsigned long action)
{
	return (int32_t)((uint32_t)action & 0xffff0000U);
}

struct overlap_tally {
	size_t sets, verdicts, rc_differs;
	size_t overlapping;   /* calls rules of two or more actions match */
	size_t tree_slips;    /* of those, where libseccomp's tree gives no rule's action */
	size_t program_slips; /* of those, where libseccomp's program departs from its tree */
	size_t slip_stricter, slip_laxer; /* the drop-in against libseccomp's program there */
	size_t single;	      /* calls of one action at most: the rules mean one verdict */
	size_t libseccomp_wrong; /* of those, where libseccomp gives another */
};

/*
 * "v=a,a" or "v~t=a,a": the verdict of the exported program, libseccomp's
 * tree's where that differs (libseccomp's driver only), and the actions of
 * the accepted rules the call matches.
 */
static const char *parse_verdict(const char *p, unsigned long *v, unsigned long *tree,
				 unsigned long *acts, size_t *n)
{
	char *end;
	*v = *tree = strtoul(p, &end, 16);
	if (*end == '~')
		*tree = strtoul(end + 1, &end, 16);
	assert_true(*end == '=');
	p = end + 1;
	*n = 0;
	while (*p != ' ' && *p != '\n' && *p != '\0') {
		assert_true(*n < 16);
		acts[(*n)++] = strtoul(p, &end, 16);
		assert_true(end != p);
		p = *end == ',' ? end + 1 : end;
	}
	return p;
}

static bool two_actions(const unsigned long *acts, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (acts[i] != acts[0])
			return true;
	return false;
}

/* Where rules of different actions match, the drop-in's verdict is libseccomp's
 * tree's; elsewhere it is what the rules mean. */
static void compare_overlap_probe(const char *theirs, const char *ours, unsigned long def,
				  struct overlap_tally *t)
{
	const char *a = strchr(theirs, ':'), *b = strchr(ours, ':');
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a - theirs == b - ours && strncmp(theirs, ours, (size_t)(a - theirs)) == 0);
	a++;
	b++;
	while (*a == ' ' && *b == ' ') {
		unsigned long lv, lt, sv, st, lacts[16], sacts[16];
		size_t ln, sn;
		a = parse_verdict(a + 1, &lv, &lt, lacts, &ln);
		b = parse_verdict(b + 1, &sv, &st, sacts, &sn);
		t->verdicts++;
		if (two_actions(lacts, ln)) {
			t->overlapping++;
			bool rules_action = false, strictest = true;
			for (size_t i = 0; i < ln; i++) {
				rules_action = rules_action || lacts[i] == lt;
				strictest = strictest && rank(sv) <= rank(lacts[i]);
			}
			/* where the tree answers with no rule's action, its own slip, the
			 * strictest of the rules' */
			t->tree_slips += !rules_action;
			if (rules_action ? sv != lt : !strictest)
				fail_msg("not libseccomp's tree's verdict on overlapping rules (%lx, drop-in"
					 " %lx):\n libseccomp: %s syscage:    %s",
					 lt, sv, theirs, ours);
			if (lv != lt) {
				t->program_slips++;
				t->slip_stricter += rank(sv) < rank(lv);
				t->slip_laxer += rank(sv) > rank(lv);
			}
			continue;
		}
		unsigned long meant = ln > 0 ? lacts[0] : def;
		t->single++;
		if (sv != meant)
			fail_msg("not what the rules mean (%lx, drop-in %lx):\n libseccomp: %s"
				 " syscage:    %s",
				 meant, sv, theirs, ours);
		t->libseccomp_wrong += lv != meant;
	}
	assert_true(*a == '\n' && *b == '\n');
}

static void run_overlaps(const char *seed, struct overlap_tally *t)
{
	char args[64];
	snprintf(args, sizeof(args), "%s", seed);
	FILE *theirs = run_driver("libseccomp", OVERLAP_SETS, args, true);
	FILE *ours = run_driver("syscage", OVERLAP_SETS, args, true);
	char a[16384], b[16384];
	unsigned long def = 0;
	for (;;) {
		char *ra = fgets(a, sizeof(a), theirs), *rb = fgets(b, sizeof(b), ours);
		if (ra == NULL || rb == NULL) {
			assert_true(ra == NULL && rb == NULL);
			break;
		}
		if (strncmp(a, "overlap ", 8) == 0) {
			/* "overlap N default D: rc rc ... export rc" */
			const char *d = strstr(a, "default ");
			assert_non_null(d);
			def = strtoul(d + 8, NULL, 16);
			t->sets++;
			if (strcmp(a, b) != 0 && ++t->rc_differs <= 5)
				fprintf(stderr, "return codes differ:\n libseccomp: %s syscage:    %s", a,
					b);
		} else if (strncmp(a, "  ov ", 5) == 0) {
			compare_overlap_probe(a, b, def, t);
		} else if (strcmp(a, b) != 0) {
			fail_msg("line differs:\n libseccomp: %s syscage:    %s", a, b);
		}
	}
	assert_int_equal(pclose(theirs), 0);
	assert_int_equal(pclose(ours), 0);
}

/*
 * Rule sets whose rules of different actions match the same calls (the
 * driver's "overlap" mode).  The drop-in rebuilds libseccomp's rule tree,
 * so every return code must be libseccomp's, and a call that rules of
 * different actions match must get the verdict that tree gives it, the
 * tree as libseccomp itself prints it (seccomp_export_pfc, run by the
 * driver), unless the tree answers with no action of the rules that match
 * (its own slip): the drop-in then gives the strictest of them.  Where
 * libseccomp's program departs from its own tree, a slip of its BPF
 * generator, the drop-in follows the tree; the counts say how often and
 * which way.  Any other call gets what the rules mean.
 */
static void test_overlaps_against_libseccomp(void **state)
{
	(void)state;
	struct overlap_tally t = { 0 };
	static const char *const seeds[] = { "0x5eed", "0xbeef" };
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		run_overlaps(seeds[i], &t);
	fprintf(stderr,
		"%zu sets, %zu verdicts: %zu on overlapping rules, libseccomp's tree's but %zu where"
		" it gives no rule's action (its program departs from it on %zu: the drop-in"
		" stricter %zu, laxer %zu); %zu"
		" others, all what the rules mean (libseccomp gives another on %zu); return codes"
		" differ in %zu sets\n",
		t.sets, t.verdicts, t.overlapping, t.tree_slips, t.program_slips, t.slip_stricter, t.slip_laxer,
		t.single, t.libseccomp_wrong, t.rc_differs);
	assert_int_equal(t.sets, 2 * OVERLAP_SETS);
	assert_true(t.verdicts >= t.sets * 16 * 3);
	/* Enough calls of overlapping rules were compared. */
	assert_true(t.overlapping * 20 > t.verdicts);
	assert_int_equal(t.rc_differs, 0);
}

/* --- resolvers ------------------------------------------------------------------------ */

struct name_answer {
	char key[96]; /* "TOKEN NAME" */
	int theirs, ours;
};

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct name_answer *)a)->key, ((const struct name_answer *)b)->key);
}

/* The answer of one library for (token, name) from the "name" lines, or 0 when not printed. */
static const struct name_answer *find_answer(const struct name_answer *v, size_t n,
					     const char *token, const char *name)
{
	struct name_answer k;
	snprintf(k.key, sizeof(k.key), "%s %s", token, name);
	return bsearch(&k, v, n, sizeof(*v), by_key);
}

static char **read_lines(FILE *f, size_t *n)
{
	size_t cap = 1 << 18;
	char **v = malloc(cap * sizeof(*v));
	char buf[512];
	*n = 0;
	while (fgets(buf, sizeof(buf), f) != NULL) {
		assert_true(*n < cap);
		buf[strcspn(buf, "\n")] = '\0';
		v[(*n)++] = strdup(buf);
	}
	return v;
}

/* libseccomp 2.6's pseudo numbers for names its 2.5 header lacks (fstat ... uprobe). */
#define PNR_26_FIRST (-10246)
#define PNR_26_LAST (-10254)

struct resolver_tally {
	size_t lines, same, lacks_name, lacks_number, unknown_name, own_pseudo, pnr_26;
};

/*
 * One column of a "name" line: equal, or libseccomp 2.5 lacks the syscall on
 * this ABI and syscage knows it (theirs a pseudo number or the error, ours a
 * number), or libseccomp knows no such name at all (the error) and syscage
 * answers a pseudo number.
 */
static bool name_answer_allowed(int theirs, int ours, struct resolver_tally *t)
{
	if (theirs == ours)
		return true;
	if (theirs < 0 && ours >= 0) {
		t->lacks_name++;
		return true;
	}
	if (theirs == SCMP_ERROR_NR && ours < 0) {
		t->unknown_name++;
		return true;
	}
	return false;
}

static void test_resolvers_against_libseccomp(void **state)
{
	(void)state;
	char cmd[PATH_MAX + 64];
	snprintf(cmd, sizeof(cmd), "'%s/compat/diff-libseccomp' resolve", driver_dir);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	size_t na, nb;
	char **a = read_lines(f, &na);
	assert_int_equal(pclose(f), 0);
	snprintf(cmd, sizeof(cmd), "'%s/compat/diff-syscage' resolve", driver_dir);
	f = popen(cmd, "r");
	assert_non_null(f);
	char **b = read_lines(f, &nb);
	assert_int_equal(pclose(f), 0);
	assert_int_equal(na, nb);

	/* Both libraries' answers per (token, name), for judging the "num" lines. */
	struct name_answer *answers = calloc(na, sizeof(*answers));
	size_t nans = 0;
	for (size_t i = 0; i < na; i++) {
		char tok[32], name[64];
		int t1, t2, o1, o2;
		if (sscanf(a[i], "name %31s %63[^:]: %d %d", tok, name, &t1, &t2) != 4)
			continue;
		assert_int_equal(sscanf(b[i], "name %*s %*[^:]: %d %d", &o1, &o2), 2);
		snprintf(answers[nans].key, sizeof(answers[nans].key), "%s %s", tok, name);
		answers[nans].theirs = t1;
		answers[nans].ours = o1;
		nans++;
	}
	qsort(answers, nans, sizeof(*answers), by_key);

	struct resolver_tally t = { 0 };
	size_t bad = 0;
	for (size_t i = 0; i < na; i++) {
		t.lines++;
		if (strcmp(a[i], b[i]) == 0) {
			t.same++;
			continue;
		}
		bool ok = false;
		char tok[32], name[64], theirs[64], ours[64];
		int t1, t2, o1, o2, num;
		if (sscanf(a[i], "name %31s %63[^:]: %d %d", tok, name, &t1, &t2) == 4 &&
		    sscanf(b[i], "name %*s %*[^:]: %d %d", &o1, &o2) == 2) {
			ok = name_answer_allowed(t1, o1, &t) && name_answer_allowed(t2, o2, &t);
		} else if (sscanf(a[i], "num %31s %d: %63s", tok, &num, theirs) == 3 &&
			   sscanf(b[i], "num %*s %*d: %63s", ours) == 1) {
			const struct name_answer *x;
			if (strcmp(theirs, "-") == 0 && num <= PNR_26_FIRST && num >= PNR_26_LAST) {
				t.pnr_26++; /* libseccomp 2.6's pseudo numbers, which 2.5 lacks */
				ok = true;
			} else if (strcmp(theirs, "-") == 0 && num <= -30001) {
				t.own_pseudo++; /* syscage's pseudo numbers, for names newer than 2.5 */
				ok = true;
			} else if (strcmp(theirs, "-") == 0 && num < 0 &&
				   (x = find_answer(answers, nans, tok, ours)) != NULL &&
				   x->theirs == SCMP_ERROR_NR && x->ours == num) {
				t.unknown_name++; /* a pseudo number of a name its resolver lacks */
				ok = true;
			} else if (strcmp(theirs, "-") == 0 &&
				   (x = find_answer(answers, nans, tok, ours)) != NULL &&
				   x->theirs < 0 && x->ours >= 0) {
				t.lacks_number++; /* libseccomp lacks the syscall there */
				ok = true;
			} else if (strcmp(ours, "-") == 0 && num < 0 &&
				   (x = find_answer(answers, nans, tok, theirs)) != NULL &&
				   x->theirs == num && x->ours >= 0) {
				t.lacks_number++; /* its pseudo number: syscage has the real one */
				ok = true;
			}
		}
		if (!ok && ++bad <= 20)
			fprintf(stderr, "differs:\n libseccomp: %s\n syscage:    %s\n", a[i], b[i]);
	}
	fprintf(stderr,
		"%zu resolver answers: %zu the same; libseccomp 2.5 lacks the syscall on the ABI"
		" (names %zu, numbers %zu); names it does not know at all %zu; syscage's own"
		" pseudo numbers %zu; libseccomp 2.6's pseudo numbers %zu; other differences %zu\n",
		t.lines, t.same, t.lacks_name, t.lacks_number, t.unknown_name, t.own_pseudo,
		t.pnr_26, bad);
	for (size_t i = 0; i < na; i++) {
		free(a[i]);
		free(b[i]);
	}
	free(a);
	free(b);
	free(answers);
	assert_int_equal(bad, 0);
	assert_true(t.lines > 100000);
}

int main(int argc, char **argv)
{
	(void)argc;
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		snprintf(self, sizeof(self), "%s", argv[0]);
	else
		self[n] = '\0';
	snprintf(driver_dir, sizeof(driver_dir), "%s", dirname(self));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_libseccomp),
		cmocka_unit_test(test_overlaps_against_libseccomp),
		cmocka_unit_test(test_resolvers_against_libseccomp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
