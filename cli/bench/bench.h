/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage bench: what the kernel's seccomp costs on this machine.
 *
 * The pieces, one job per file:
 *   loop.c     times a syscall loop in a pinned, filtered child
 *   filters.c  the programs measured (deny-open, long, uncacheable)
 *   scmp.c     libseccomp, opened with dlopen() when present
 *   plan.c     the measurements each section makes
 *   system.c   JIT state and kernel facts
 *   report.c   the terminal table and JSON
 *   svg.c      the SVG chart
 *   cmd_bench.c      options and the order of things
 */
#ifndef SCG_CLI_BENCH_H
#define SCG_CLI_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/syscage.h>

#define BENCH_MAX_REPS 101

/* --- timing (loop.c) ------------------------------------------------ */

struct bench_call {
	uint32_t nr;
	uint64_t args[6];
};

struct bench_params {
	unsigned reps;   /* timed repetitions, each a loop of many calls */
	double rep_ms;   /* target duration of one repetition */
	int cpu;         /* the CPU the child is pinned to, -1: not pinned */
};

/* Summary of the repetitions of one measurement. */
struct bench_timing {
	bool ok;
	char error[120];   /* when !ok: why nothing was measured */
	double median_ns;  /* per call */
	double min_ns, max_ns;
	double q1_ns, q3_ns; /* first and third quartiles: the middle half of the repetitions */
	double mad_pct;    /* median absolute deviation, percent of the median */
	uint64_t calls;    /* per repetition */
	bool cpu_clock;    /* the figures are CPU time, not wall time (a repetition's, then the row's) */
	long result;       /* what the last call returned (-errno on failure) */
	double samples[BENCH_MAX_REPS]; /* ns per call of each repetition so far */
	bool sample_cpu[BENCH_MAX_REPS]; /* that repetition's is CPU time, else wall time */
	unsigned nsamples;
	unsigned used;     /* repetitions in the figures */
	unsigned other_clock; /* left out: timed by the clock the row does not use */
	unsigned below_floor; /* left out: faster than the no-filter row's fastest */
	bool untrusted;    /* most repetitions ran faster than the no-filter row: no figures */
};

/*
 * One repetition in a fresh child pinned to @params->cpu: installs @nprogs
 * filters (oldest first), warms up, then times a loop of @t->calls calls
 * of @call (0: as many as last about @params->rep_ms; set on return) and
 * stores ns per call in *@ns and the call's result in @t->result.  Nothing
 * is printed; on failure @t->error says why and -errno is returned.
 * Repetitions of different measurements are interleaved by the caller, so
 * a burst of load elsewhere on the machine spreads over all of them.
 */
int bench_measure_rep(const struct bench_params *params, const struct scg_prog *progs,
		      size_t nprogs, const struct bench_call *call, struct bench_timing *t, double *ns);
/* --- statistics (stats.c) ------------------------------------------- */

/* Median, quartiles, extremes and MAD of @n per-call times (sorted in place) into @out. */
void bench_summarize(double *samples, unsigned n, struct bench_timing *out);
/*
 * Makes a measured row's figures from its repetitions.  The row takes the
 * clock of most of them (CPU time on a tie) and leaves the others out: two
 * clocks are never mixed.  With @bare, the same call's no-filter row
 * (settled first; the caller passes it when the filters let the call
 * through), a repetition faster than @bare's fastest cannot be right, as a
 * filter that lets a call through makes it no cheaper: it is left out, and when
 * that is most of them the row is untrusted (not ok, @t->error says why).
 * A CPU-time row is not held to a wall-clock @bare, which may be slower.
 */
void bench_settle(struct bench_timing *t, const struct bench_timing *bare);
/* Median of @n values (sorts @v); 0 when @n is 0. */
double bench_median(double *v, size_t n);

/* A measurement whose middle half spans more than this percent of its median is noisy. */
#define BENCH_NOISY_IQR_PCT 10.0
bool bench_noisy(const struct bench_timing *t);

/* Medians closer than this percent of the smaller one are never told apart. */
#define BENCH_MIN_DIFF_PCT 1.0

enum bench_order {
	BENCH_UNKNOWN,      /* one of them was not measured, or by another clock */
	BENCH_FASTER,       /* a's median lies below b's, farther than both spreads together */
	BENCH_SLOWER,       /* above, likewise */
	BENCH_WITHIN_NOISE, /* the spreads cover the difference: the data cannot tell */
};
/*
 * How @a compares with @b: they differ when their medians are further
 * apart than the widths of their two middle halves added up, and than
 * BENCH_MIN_DIFF_PCT of the smaller median.
 */
enum bench_order bench_compare(const struct bench_timing *a, const struct bench_timing *b);

/* Monotonic clock in microseconds. */
double bench_now_us(void);
/* The CPU to pin children to: the last one this process may run on, or -1. */
int bench_pick_cpu(void);

/* --- programs (filters.c) ------------------------------------------ */

/*
 * The classic 6-instruction filter: check the ABI, load nr, ERRNO(EPERM)
 * for open (openat where there is no open), allow the rest.
 */
int bench_deny_open(const struct scg_arch *arch, struct scg_prog *out);
/*
 * A copy of @prog the kernel's action cache cannot skip: it first loads the
 * instruction pointer, which the cache's analysis gives up on.  Same verdicts.
 */
int bench_uncacheable(const struct scg_arch *arch, const struct scg_prog *prog,
		      struct scg_prog *out);
/* An uncacheable straight chain of @len (4..4096) instructions ending in ALLOW. */
int bench_long_filter(const struct scg_arch *arch, size_t len, struct scg_prog *out);
/* True when the kernel's cache lets (@arch, @nr) through every one of @progs without running them. */
bool bench_cached(const struct scg_arch *arch, const struct scg_prog *progs, size_t n,
		  uint32_t nr);
/* Instructions the emulator executes over the stack for @call (0 when none or on error). */
size_t bench_executed(const struct scg_arch *arch, const struct scg_prog *progs, size_t n,
		      const struct bench_call *call);

/* --- libseccomp (scmp.c) ------------------------------------------- */

struct bench_scmp; /* a dlopen()ed libseccomp */

/* NULL when libseccomp.so.2 (or a function it needs) is missing. */
struct bench_scmp *bench_scmp_open(void);
void bench_scmp_close(struct bench_scmp *lib);
/* "2.5.4", or "2" when the library does not say. */
const char *bench_scmp_version(const struct bench_scmp *lib);
/*
 * Hands @policy's rules to libseccomp (by name, one context for all target
 * ABIs, the way runc does) at optimisation @level (1 or 2) and exports the
 * BPF into *@out.  A rule after an unconditional one for the same syscall
 * is left out, as first-match order makes it dead.  *@skipped counts rules
 * libseccomp cannot take (raw numbers, conditions it cannot express,
 * conditional rules repeating the default).  0 or -errno.
 */
int bench_scmp_compile(const struct bench_scmp *lib, const struct scg_policy *policy,
		       unsigned level, struct scg_prog *out, size_t *skipped);

/* --- system facts (system.c) --------------------------------------- */

struct bench_system {
	int jit_enable;  /* /proc/sys/net/core/bpf_jit_enable, -1: unreadable */
	int jit_harden;  /* /proc/sys/net/core/bpf_jit_harden, -1: unreadable */
	char kernel[72];  /* uname -r */
	char machine[72];
};

void bench_system_read(struct bench_system *sys);
/* "on", "off", "on (debug output)", "unreadable". */
const char *bench_jit_text(int jit_enable);
const char *bench_harden_text(int jit_harden);

/* --- results (plan.c, report.c, svg.c) ----------------- */

enum bench_section {
	BENCH_BASELINE,
	BENCH_CACHE,
	BENCH_STACK,
	BENCH_LENGTH,
	BENCH_COMPARE,
	BENCH_FUSE, /* fuse.c */
	BENCH_NSECTIONS,
};

const char *bench_section_name(enum bench_section s);
/* -1 when @name is no section. */
int bench_section_lookup(const char *name);

/* One measurement, planned then made. */
struct bench_row {
	enum bench_section section;
	char label[80];
	char call_name[32];     /* the syscall timed */
	char group[32];         /* compare: the policy compiled */
	int compiler;           /* compare: 0 syscage, 1 or 2 libseccomp's level; -1 otherwise */
	struct scg_prog *progs; /* owned; installed oldest first */
	size_t nprogs;
	size_t insns;           /* total instructions over the stack */
	bool cached;            /* the kernel's cache skips the filters for this call */
	struct bench_call call;
	size_t executed;        /* instructions the filters run for the call */
	double compile_us;      /* < 0: not compiled here */
	int baseline;           /* row with the same call and no filter, -1: this one */
	struct bench_timing t;
	bool hidden;            /* a baseline for another section: not printed */
};

struct bench_results {
	struct bench_row *rows;
	size_t nrows, cap;
	struct bench_system sys;
	const char *syscall_name;
	const char *policy_name;
	const char *scmp_status; /* "2.5.4" or "libseccomp not found, skipped" */
	bool scmp_found;
	struct bench_params params;
	bool only[BENCH_NSECTIONS];
	char notes[8][160];      /* remarks printed under the tables */
	size_t nnotes;
};

void bench_results_free(struct bench_results *res);
/* Appends a row (copied; @row->progs ownership passes).  Index or -ENOMEM. */
int bench_results_add(struct bench_results *res, const struct bench_row *row);
/* Adds a note printed under the tables; past the notes' room, it is dropped. */
void bench_note(struct bench_results *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Overhead of row @i over its no-filter baseline, percent; false when not measured. */
bool bench_overhead(const struct bench_results *res, size_t i, double *pct);
/* "cpu" when every measured row is CPU time, "wall" when every one is wall time, else "mixed". */
const char *bench_clock_name(const struct bench_results *res);
/* The call as a person reads it: "getppid", "personality(0xffffffff)". */
void bench_call_text(const struct bench_row *r, char *buf, size_t size);
/*
 * For a cacheable row of the cache or stack sections, the row right after
 * it that measures the same filters made uncacheable; -1 otherwise.
 */
int bench_uncached_twin(const struct bench_results *res, size_t i);
/* The filter's own cost: ns/call minus the baseline's; false when not measured. */
bool bench_filter_ns(const struct bench_results *res, size_t i, double *ns);

struct bench_plan_opts {
	const struct scg_arch *arch;
	const struct scg_policy *policy;   /* -p */
	const struct scg_policy *docker;   /* docker-default, for the argument-checked case */
	const struct bench_scmp *scmp;     /* NULL: libseccomp absent */
	struct bench_call call;            /* --syscall */
	const char *call_name;
	bool quick;
	unsigned compile_runs;
};

/* Builds every row the selected sections need, programs included.  0 or -errno. */
int bench_plan(const struct bench_plan_opts *opts, struct bench_results *res);

/* The aligned terminal tables. */
void bench_report_text(const struct bench_results *res);
/* JSON text (caller frees) or NULL. */
char *bench_report_json(const struct bench_results *res);
/* An SVG chart of every printed row (caller frees) or NULL. */
char *bench_report_svg(const struct bench_results *res);

#endif
