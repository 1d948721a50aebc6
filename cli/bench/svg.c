/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage bench --plot: a horizontal bar chart, one bar per measurement
 * (ns per call, the median), grouped by section, with a labelled x axis.
 * Plain SVG 1.1 that any browser shows; no scripts, no external files.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "common/cli.h"

#define WIDTH 980
#define LABEL_W 360 /* left column: row labels */
#define RIGHT_PAD 130 /* room for the value (and "noisy") after the longest line */
#define ROW_H 18
#define HEAD_H 26
#define TOP 70
#define AXIS_H 50
#define TICKS 5

static void xml_text(FILE *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", sb); break;
		case '<': fputs("&lt;", sb); break;
		case '>': fputs("&gt;", sb); break;
		case '"': fputs("&quot;", sb); break;
		default:
			/* Control characters are not allowed in XML 1.0 text. */
			if ((unsigned char)*s >= 0x20)
				fputc(*s, sb);
		}
	}
}

static bool shown(const struct bench_results *res, size_t i)
{
	return !res->rows[i].hidden && res->rows[i].t.ok;
}

/* A round axis maximum at or above @v: 1, 2 or 5 times a power of ten (no libm needed). */
static double nice_ceiling(double v)
{
	static const double steps[] = { 1, 2, 5 };
	double p = 1;
	if (v <= 0)
		return 1;
	while (p * 10 <= v)
		p *= 10;
	while (p > v && p > 1e-3)
		p /= 10;
	for (int i = 0; i < 3; i++)
		if (steps[i] * p >= v)
			return steps[i] * p;
	return 10 * p;
}

static void axis(FILE *sb, double max, int y)
{
	int x0 = LABEL_W, w = WIDTH - LABEL_W - RIGHT_PAD;
	fprintf(sb, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", x0,
			   y, x0 + w, y);
	for (int k = 0; k <= TICKS; k++) {
		int x = x0 + w * k / TICKS;
		fprintf(sb,
				   "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ccc\"/>\n"
				   "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.0f</text>\n",
				   x, TOP - 8, x, y, x, y + 16, max * k / TICKS);
	}
	fprintf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">nanoseconds per call: "
			       "bar to the median; thick line: the middle half of the repetitions; "
			       "thin line: fastest to slowest</text>\n",
			   x0 + w / 2, y + 36);
}

/*
 * The spread over the end of a bar: a thin line from the fastest to the
 * slowest repetition, a thick one over the middle half (first to third
 * quartile), a tick at the median.
 */
static void spread(FILE *sb, const struct bench_timing *t, double max, int y)
{
	int w = WIDTH - LABEL_W - RIGHT_PAD, mid = y + ROW_H / 2;
	double x_min = LABEL_W + t->min_ns / max * w, x_max = LABEL_W + t->max_ns / max * w;
	double x_q1 = LABEL_W + t->q1_ns / max * w, x_q3 = LABEL_W + t->q3_ns / max * w;
	double x_med = LABEL_W + t->median_ns / max * w;
	fprintf(sb,
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#222\"/>\n"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#222\" "
			"stroke-width=\"5\"/>\n"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"white\"/>\n",
			x_min, mid, x_max, mid, x_q1, mid, x_q3, mid, x_med, mid - 3, x_med, mid + 3);
}

static void bar(FILE *sb, const struct bench_row *r, double max, int y)
{
	int w = WIDTH - LABEL_W - RIGHT_PAD;
	double len = r->t.median_ns / max * w;
	fprintf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL_W - 8, y + 13);
	char call[96];
	bench_call_text(r, call, sizeof(call));
	xml_text(sb, r->label);
	fputs(" (", sb);
	xml_text(sb, call);
	fputs(r->t.cpu_clock ? ")" : ", wall clock)", sb);
	fprintf(sb, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
			       "fill=\"%s\"/>\n",
			   LABEL_W, y + 2, len, ROW_H - 4, r->cached ? "#7fb17f" : "#4a78b5");
	spread(sb, &r->t, max, y);
	double x_text = LABEL_W + r->t.max_ns / max * w + 4;
	fprintf(sb, "<text x=\"%.1f\" y=\"%d\"%s>%.1f%s</text>\n", x_text, y + 13,
			bench_noisy(&r->t) ? " fill=\"#b00\"" : "", r->t.median_ns,
			bench_noisy(&r->t) ? " (noisy)" : "");
}

char *bench_report_svg(const struct bench_results *res)
{
	double max = 0;
	int height = TOP + AXIS_H;
	for (int s = 0; s < BENCH_NSECTIONS; s++) {
		bool any = false;
		for (size_t i = 0; i < res->nrows; i++)
			if ((int)res->rows[i].section == s && shown(res, i)) {
				any = true;
				height += ROW_H;
				if (res->rows[i].t.max_ns > max)
					max = res->rows[i].t.max_ns;
			}
		height += any ? HEAD_H : 0;
	}
	max = nice_ceiling(max);

	char *out = NULL;
	size_t len;
	FILE *sb = open_memstream(&out, &len);
	if (!sb)
		return NULL;
	fprintf(sb,
			   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
			   "height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n"
			   "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
			   "<text x=\"10\" y=\"24\" font-size=\"16\">syscage bench: ",
			   WIDTH, height);
	xml_text(sb, res->syscall_name);
	fputs(" per call under seccomp filters, kernel ", sb);
	xml_text(sb, res->sys.kernel);
	fprintf(sb, "</text>\n<text x=\"10\" y=\"44\">BPF JIT: %s; green: the kernel's "
				"cache skips the filters, blue: they run</text>\n",
			   bench_jit_text(res->sys.jit_enable));
	int y = TOP;
	for (int s = 0; s < BENCH_NSECTIONS; s++) {
		bool head = false;
		for (size_t i = 0; i < res->nrows; i++) {
			if ((int)res->rows[i].section != s || !shown(res, i))
				continue;
			if (!head) {
				fprintf(sb, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">%s</text>\n",
						   y + 18, bench_section_name((enum bench_section)s));
				y += HEAD_H;
				head = true;
			}
			bar(sb, &res->rows[i], max, y);
			y += ROW_H;
		}
	}
	axis(sb, max, y + 4);
	fputs("</svg>\n", sb);
	return cli_memstream_finish(sb, &out) < 0 ? NULL : out;
}
