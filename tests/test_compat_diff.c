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
	size_t sets, verdicts, same, stricter, data, libseccomp_slip, rc_differs;
};

/* "v=a,a": a verdict and the actions of the accepted rules the call matches. */
static const char *parse_verdict(const char *p, unsigned long *v, unsigned long *acts, size_t *n)
{
	char *end;
	*v = strtoul(p, &end, 16);
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
		unsigned long lv, sv, lacts[16], sacts[16];
		size_t ln, sn;
		a = parse_verdict(a + 1, &lv, lacts, &ln);
		b = parse_verdict(b + 1, &sv, sacts, &sn);
		t->verdicts++;
		if (lv == sv) {
			t->same++;
			continue;
		}
		if (rank(sv) < rank(lv)) {
			t->stricter++;
			continue;
		}
		if (rank(sv) == rank(lv)) {
			t->data++; /* ERRNO(1) against ERRNO(13): neither is laxer */
			continue;
		}
		/* syscage laxer: allowed only where libseccomp's verdict is no rule's for
		 * this call (nor the default where none matches), a slip of its own. */
		bool explained = ln == 0 && lv == def;
		for (size_t i = 0; i < ln && !explained; i++)
			explained = lacts[i] == lv;
		if (!explained) {
			t->libseccomp_slip++;
			continue;
		}
		fail_msg("syscage laxer than libseccomp on overlapping rules:\n libseccomp: %s"
			 " syscage:    %s",
			 theirs, ours);
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
 * driver's "overlap" mode).  The drop-in rebuilds libseccomp's rule tree to
 * accept and refuse (-EEXIST) the same rules, so every return code must be
 * libseccomp's; where libseccomp's tree lets either of two matching rules
 * decide, the drop-in lets the stricter one, so its verdict must be
 * libseccomp's or stricter: a laxer verdict fails the test, whatever the
 * set.  Only where libseccomp answers with no action its rules give the
 * call (its own slip, difference 3) is it not compared.
 */
static void test_overlaps_against_libseccomp(void **state)
{
	(void)state;
	struct overlap_tally t = { 0 };
	static const char *const seeds[] = { "0x5eed", "0xbeef" };
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		run_overlaps(seeds[i], &t);
	fprintf(stderr,
		"%zu sets, %zu verdicts: %zu the same, %zu stricter, %zu other data of one action,"
		" 0 laxer; libseccomp's own slips %zu; return codes differ in %zu sets\n",
		t.sets, t.verdicts, t.same, t.stricter, t.data, t.libseccomp_slip, t.rc_differs);
	assert_int_equal(t.sets, 2 * OVERLAP_SETS);
	assert_true(t.verdicts >= t.sets * 16 * 3);
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
