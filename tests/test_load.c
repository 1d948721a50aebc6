/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The loader (lib/load/load.c): what an input is, told by its content (binary
 * data, assembler, each policy format), the name settling only a tie, the
 * errors that name the formats tried or fitted, a named format overriding
 * the content, and what a load hands back.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/syscage.h>

static enum scg_input_format detect(const char *data, size_t len, const char *name)
{
	struct scg_diag *diag = scg_diag_new();
	enum scg_input_format f;
	int r = scg_input_detect(data, len, name, &f, diag);
	assert_int_equal(r == 0, scg_diag_count(diag) == 0);
	scg_diag_free(diag);
	return r == 0 ? f : (enum scg_input_format)-1;
}

#define DETECT(text, name) detect(text, sizeof(text) - 1, name)

static void test_binary_is_a_filter(void **state)
{
	(void)state;
	static const char insns[16] = { 0x06, 0, 0, 0, 0, 0, 0xff, 0x7f };
	assert_int_equal(detect(insns, 8, "f"), SCG_INPUT_RAW);
	assert_int_equal(detect(insns, 8, "f.policy"), SCG_INPUT_RAW); /* no text format fits */
	assert_int_equal(detect(insns, 16, "f.json"), SCG_INPUT_RAW);
	/* a text file with a stray NUL byte, named as what it fits, goes to its reader */
	assert_int_equal(DETECT("allow read\0\n", "p.policy"), SCG_INPUT_POLICY);
	assert_int_equal(DETECT("allow read\0\n", "p"), SCG_INPUT_RAW);
}

static void test_text_formats(void **state)
{
	(void)state;
	assert_int_equal(DETECT("ld [0]\nret #0\n", "x"), SCG_INPUT_ASM);
	assert_int_equal(DETECT("; a comment\nstart: ld [nr]\n\tret ALLOW\n", NULL), SCG_INPUT_ASM);
	assert_int_equal(DETECT("/* block */ jmp out\nout: ret #0\n", NULL), SCG_INPUT_ASM);
	assert_int_equal(DETECT("default allow\nerrno(EACCES) mkdir\n", "mypol"), SCG_INPUT_POLICY);
	assert_int_equal(DETECT("default allow\nerrno(EACCES) mkdir\n", "mypol.txt"), SCG_INPUT_POLICY);
	assert_int_equal(DETECT("  {\"defaultAction\": \"SCMP_ACT_ALLOW\"}", NULL), SCG_INPUT_OCI);
	assert_int_equal(DETECT("apiVersion: v1\nkind: SeccompProfile\n", NULL), SCG_INPUT_K8S);
	assert_int_equal(DETECT("[Service]\nSystemCallFilter=~mkdir\n", NULL), SCG_INPUT_SYSTEMD);
	assert_int_equal(DETECT("read: 1\nwrite: 1\n", NULL), SCG_INPUT_MINIJAIL);
	assert_int_equal(DETECT("POLICY p { ALLOW { read } }\nUSE p DEFAULT KILL\n", NULL),
			 SCG_INPUT_KAFEL);
	assert_int_equal(DETECT("seccomp.drop mkdir\n", NULL), SCG_INPUT_FIREJAIL);
}

static void test_errors_name_the_formats(void **state)
{
	(void)state;
	struct scg_diag *diag = scg_diag_new();
	enum scg_input_format f;
	/* none fits: every format tried is named */
	assert_int_equal(scg_input_detect("hello world\n", 12, "junk", &f, diag), -EINVAL);
	const struct scg_diag_entry *e = scg_diag_get(diag, 0);
	assert_non_null(strstr(e->message, "tried a compiled filter (raw), assembler (asm)"));
	assert_non_null(strstr(e->message, "firejail options (firejail)"));
	assert_string_equal(e->loc.file, "junk");
	scg_diag_clear(diag);
	/* empty */
	assert_int_equal(scg_input_detect("\n\n", 2, NULL, &f, diag), -EINVAL);
	assert_non_null(strstr(scg_diag_get(diag, 0)->message, "empty"));
	scg_diag_clear(diag);
	/* several fit and the name does not choose: the candidates */
	assert_int_equal(scg_input_detect("allow read\nSystemCallFilter=read\n", 33, "both.txt", &f,
					  diag),
			 -EINVAL);
	assert_non_null(strstr(scg_diag_get(diag, 0)->message, "(policy, systemd)"));
	scg_diag_clear(diag);
	/* ... and the name does */
	assert_int_equal(scg_input_detect("allow read\nSystemCallFilter=read\n", 33, "x.service",
					  &f, diag),
			 0);
	assert_int_equal(f, SCG_INPUT_SYSTEMD);
	scg_diag_free(diag);
}

static void test_format_names(void **state)
{
	(void)state;
	for (int i = 0; i <= SCG_INPUT_FORMATS; i++) {
		enum scg_input_format f;
		const char *name = scg_input_format_name((enum scg_input_format)i);
		assert_non_null(name);
		assert_int_equal(scg_input_format_parse(name, &f), 0);
		assert_int_equal(f, i);
	}
	enum scg_input_format f;
	assert_int_equal(scg_input_format_parse("bpf", &f), 0);
	assert_int_equal(f, SCG_INPUT_RAW);
	assert_int_equal(scg_input_format_parse("sytemd", &f), -EINVAL);
	assert_null(scg_input_format_name((enum scg_input_format)(SCG_INPUT_FORMATS + 1)));
	assert_true(scg_input_format_is_filter(SCG_INPUT_ASM));
	assert_false(scg_input_format_is_filter(SCG_INPUT_POLICY));
}

/* What a name's suffix says: a format, a file of no one format, or a built-in profile. */
static void test_names(void **state)
{
	(void)state;
	assert_int_equal(scg_input_format_of_name("x.bpf"), SCG_INPUT_RAW);
	assert_int_equal(scg_input_format_of_name("a/app.service"), SCG_INPUT_SYSTEMD);
	assert_int_equal(scg_input_format_of_name("app-seccomp.policy"), SCG_INPUT_MINIJAIL);
	assert_int_equal(scg_input_format_of_name("app.policy"), SCG_INPUT_POLICY);
	assert_int_equal(scg_input_format_of_name("docker-default"), SCG_INPUT_AUTO);
	assert_int_equal(scg_input_format_of_name(NULL), SCG_INPUT_AUTO);
	assert_true(scg_input_name_is_file("-"));
	assert_true(scg_input_name_is_file("./default"));
	assert_true(scg_input_name_is_file("show.txt"));
	assert_true(scg_input_name_is_file("f.bin"));
	assert_true(scg_input_name_is_file("k.yml"));
	assert_false(scg_input_name_is_file("docker-default"));
	assert_false(scg_input_name_is_file(".bpf")); /* a suffix alone is no name */
	assert_false(scg_input_name_is_file(NULL));
}

static void test_load(void **state)
{
	(void)state;
	struct scg_diag *diag = scg_diag_new();
	struct scg_input in;
	static const char pol[] = "default allow\nerrno(EACCES) mkdir\n";
	const struct scg_arch *x86_64 = scg_arch_lookup("x86_64");
	SCG_OPTS(scg_load_options, o, .filename = "p", .arches = &x86_64, .narches = 1);
	assert_int_equal(scg_input_load(pol, sizeof(pol) - 1, &o, &in, diag), 0);
	assert_int_equal(in.format, SCG_INPUT_POLICY);
	assert_non_null(in.policy);
	assert_null(in.prog.insns);
	assert_int_equal(scg_policy_arch_count(in.policy), 1);
	/* where the default was written goes with the policy */
	assert_int_equal(scg_policy_setting_loc(in.policy, SCG_SETTING_DEFAULT).line, 1);
	scg_input_release(&in);
	assert_null(in.policy);
	/* a named format overrides the content, and its reader says what is wrong */
	o.format = SCG_INPUT_ASM;
	assert_int_equal(scg_input_load(pol, sizeof(pol) - 1, &o, &in, diag), -EINVAL);
	assert_null(in.policy);
	assert_true(scg_diag_count_at_least(diag, SCG_SEV_ERROR) > 0);
	scg_diag_clear(diag);
	/* assembler into a program */
	static const char asm_text[] = "ret #0x7fff0000\n";
	o.format = SCG_INPUT_AUTO;
	assert_int_equal(scg_input_load(asm_text, sizeof(asm_text) - 1, &o, &in, diag), 0);
	assert_int_equal(in.format, SCG_INPUT_ASM);
	assert_int_equal(in.prog.len, 1);
	assert_null(in.policy);
	scg_input_release(&in);
	/* OCI JSON without an importer is refused by name */
	static const char json[] = "{\"defaultAction\": \"SCMP_ACT_ALLOW\"}";
	assert_int_equal(scg_input_load(json, sizeof(json) - 1, &o, &in, diag), -EINVAL);
	assert_non_null(strstr(scg_diag_get(diag, 0)->message, "OCI/Docker/Podman JSON"));
	scg_input_release(NULL);
	scg_diag_free(diag);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binary_is_a_filter),
		cmocka_unit_test(test_text_formats),
		cmocka_unit_test(test_errors_name_the_formats),
		cmocka_unit_test(test_format_names),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
