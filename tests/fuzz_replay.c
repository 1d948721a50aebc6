/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Replays inputs through a fuzz target's entry point without libFuzzer, so
 * the regression inputs in fuzz/regress/<target>/ (and the seed corpora) run
 * in every `meson test` (suite fuzz-replay), under the sanitizers too in a
 * build with -Db_sanitize=address,undefined.
 *
 *   replay/fuzz_asm FILE|DIR...
 *
 * Each file is one input; a directory stands for its files.  The target
 * abort()s on a broken property, which ends the run with SIGABRT.  Prints
 * "replayed N inputs"; exits 2 when an input cannot be read.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: cannot open '%s': %s\n", path, strerror(errno));
		return -1;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	while (buf) {
		len += fread(buf + len, 1, cap - len, f);
		if (len < cap)
			break;
		uint8_t *grown = realloc(buf, cap * 2);
		if (!grown) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = grown;
		cap *= 2;
	}
	bool failed = !buf || ferror(f);
	fclose(f);
	if (failed) {
		fprintf(stderr, "replay: cannot read '%s'\n", path);
		free(buf);
		return -1;
	}
	/* An exact-size copy, so the sanitizers see a read past the input's end. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return -1;
	}
	memcpy(exact, buf, len);
	free(buf);
	fprintf(stderr, "replay: %s\n", path);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Replays @path (a file, or each regular file in a directory).  Returns inputs replayed or -1. */
static long replay_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "replay: '%s': %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path) == 0 ? 1 : -1;
	struct dirent **names;
	int n = scandir(path, &names, NULL, by_name);
	if (n < 0) {
		fprintf(stderr, "replay: cannot list '%s': %s\n", path, strerror(errno));
		return -1;
	}
	long count = 0;
	for (int i = 0; i < n; i++) {
		char file[4096];
		int len = snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && len > 0 && (size_t)len < sizeof(file) &&
		    stat(file, &st) == 0 && S_ISREG(st.st_mode)) {
			if (replay_file(file) < 0)
				count = -1;
			else if (count >= 0)
				count++;
		}
		free(names[i]);
	}
	free(names);
	return count;
}

int main(int argc, char **argv)
{
	/* A target may point stdout elsewhere (fuzz_emu_batch discards its output). */
	int out = dup(STDOUT_FILENO);
	long total = 0;
	int status = 0;
	for (int i = 1; i < argc; i++) {
		long n = replay_path(argv[i]);
		if (n < 0)
			status = 2;
		else
			total += n;
	}
	dprintf(out >= 0 ? out : STDERR_FILENO, "replayed %ld inputs\n", total);
	return status;
}
