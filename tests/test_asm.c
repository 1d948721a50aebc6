/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests for the assembler: the encoding of every instruction form
 * (checked against bytes worked out by hand from linux/filter.h), seccomp
 * names on little- and big-endian ABIs, trampolines for far jumps, every
 * error path, and the examples of docs/asm.md.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "support/diag_print.h"
#include "support/progen.h"
#include "support/scale.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const struct scg_arch *arch(const char *name)
{
	const struct scg_arch *a = scg_arch_lookup(name);
	assert_non_null(a);
	return a;
}

static int assemble_for(const struct scg_arch *target, const char *text, struct scg_prog *out,
			struct scg_diag *diag)
{
	SCG_OPTS(scg_asm_options, opts, .arch = target, .filename = "t.s");
	return scg_asm(text, strlen(text), &opts, out, diag);
}

/* Assembles @text for @target and checks it gives exactly @want. */
static void expect_code_for(const struct scg_arch *target, const char *text,
			    const struct scg_insn *want, size_t n)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_prog prog;
	int r = assemble_for(target, text, &prog, diag);
	if (r != 0) {
		print_message("assembling:\n%s\n", text);
		test_print_diag(diag);
	}
	assert_int_equal(r, 0);
	assert_int_equal(prog.len, n);
	for (size_t i = 0; i < n; i++) {
		if (memcmp(&prog.insns[i], &want[i], sizeof(want[i]))) {
			print_message("insn %zu of \"%s\": got {%#x, %u, %u, %#x}, want {%#x, %u, %u, %#x}\n",
				      i, text, prog.insns[i].code, prog.insns[i].jt, prog.insns[i].jf,
				      prog.insns[i].k, want[i].code, want[i].jt, want[i].jf, want[i].k);
			fail();
		}
	}
	scg_prog_release(&prog);
	scg_diag_free(diag);
}

#define EXPECT(text, ...)                                                           \
	do {                                                                        \
		const struct scg_insn want_[] = { __VA_ARGS__ };                    \
		expect_code_for(arch("x86_64"), text, want_, COUNT_OF(want_));      \
	} while (0)

#define EXPECT_FOR(a, text, ...)                                                    \
	do {                                                                        \
		const struct scg_insn want_[] = { __VA_ARGS__ };                    \
		expect_code_for(arch(a), text, want_, COUNT_OF(want_));             \
	} while (0)

/* --- encodings ----------------------------------------------------------- */

static void test_loads(void **state)
{
	(void)state;
	EXPECT("ld [4]", { 0x20, 0, 0, 4 });
	EXPECT("ld #7", { 0x00, 0, 0, 7 });
	EXPECT("ldi #7", { 0x00, 0, 0, 7 });
	EXPECT("ldi 7", { 0x00, 0, 0, 7 });
	EXPECT("ld #len", { 0x80, 0, 0, 0 });
	EXPECT("ld len", { 0x80, 0, 0, 0 });
	EXPECT("ld M[3]", { 0x60, 0, 0, 3 });
	EXPECT("ld [x + 2]", { 0x40, 0, 0, 2 });
	EXPECT("ld [%x+2]", { 0x40, 0, 0, 2 });
	EXPECT("ld [x]", { 0x40, 0, 0, 0 });
	EXPECT("ldh [12]", { 0x28, 0, 0, 12 });
	EXPECT("ldh [x + 1]", { 0x48, 0, 0, 1 });
	EXPECT("ldb [3]", { 0x30, 0, 0, 3 });
	EXPECT("ldb [x + 1]", { 0x50, 0, 0, 1 });
	EXPECT("ldx #5", { 0x01, 0, 0, 5 });
	EXPECT("ldxi 5", { 0x01, 0, 0, 5 });
	EXPECT("ldxi #5", { 0x01, 0, 0, 5 });
	EXPECT("ldx #len", { 0x81, 0, 0, 0 });
	EXPECT("ldx M[15]", { 0x61, 0, 0, 15 });
	EXPECT("ldx 4*([14]&0xf)", { 0xb1, 0, 0, 14 });
	EXPECT("ldxb 4 * ( [14] & 0xf )", { 0xb1, 0, 0, 14 });
	EXPECT("st M[2]", { 0x02, 0, 0, 2 });
	EXPECT("stx M[3]", { 0x03, 0, 0, 3 });
	/* bpf_asm's ancillary names: SKF_AD_OFF (0xfffff000) + offset */
	EXPECT("ld #proto", { 0x20, 0, 0, 0xfffff000 });
	EXPECT("ld cpu", { 0x20, 0, 0, 0xfffff024 });
	EXPECT("ldb #rand", { 0x30, 0, 0, 0xfffff038 });
}

static void test_alu_ret_misc(void **state)
{
	(void)state;
	EXPECT("add #1\nadd x\nadd %x", { 0x04, 0, 0, 1 }, { 0x0c, 0, 0, 0 }, { 0x0c, 0, 0, 0 });
	EXPECT("sub #2\nsub x", { 0x14, 0, 0, 2 }, { 0x1c, 0, 0, 0 });
	EXPECT("mul #3\nmul x", { 0x24, 0, 0, 3 }, { 0x2c, 0, 0, 0 });
	EXPECT("div #4\ndiv x", { 0x34, 0, 0, 4 }, { 0x3c, 0, 0, 0 });
	EXPECT("mod #5\nmod x", { 0x94, 0, 0, 5 }, { 0x9c, 0, 0, 0 });
	EXPECT("and #0xff\nand x", { 0x54, 0, 0, 0xff }, { 0x5c, 0, 0, 0 });
	EXPECT("or #0x10\nor x", { 0x44, 0, 0, 0x10 }, { 0x4c, 0, 0, 0 });
	EXPECT("xor #1\nxor x", { 0xa4, 0, 0, 1 }, { 0xac, 0, 0, 0 });
	EXPECT("lsh #31\nlsh x", { 0x64, 0, 0, 31 }, { 0x6c, 0, 0, 0 });
	EXPECT("rsh #1\nrsh x", { 0x74, 0, 0, 1 }, { 0x7c, 0, 0, 0 });
	EXPECT("neg", { 0x84, 0, 0, 0 });
	EXPECT("ret #0x7fff0000", { 0x06, 0, 0, 0x7fff0000 });
	EXPECT("ret a\nret %a", { 0x16, 0, 0, 0 }, { 0x16, 0, 0, 0 });
	EXPECT("ret x\nret %x", { 0x0e, 0, 0, 0 }, { 0x0e, 0, 0, 0 });
	EXPECT("tax\ntxa", { 0x07, 0, 0, 0 }, { 0x87, 0, 0, 0 });
	EXPECT(".insn 0x8006, 1, 2, 3", { 0x8006, 1, 2, 3 });
	EXPECT(".insn 0xffff, 255, 255, -1", { 0xffff, 255, 255, 0xffffffff });
	/* mnemonics and registers are case-insensitive, as in bpf_asm */
	EXPECT("LD [4]\nAdd X\nRET A", { 0x20, 0, 0, 4 }, { 0x0c, 0, 0, 0 }, { 0x16, 0, 0, 0 });
}

static void test_numbers(void **state)
{
	(void)state;
	EXPECT("ld #0x10", { 0, 0, 0, 16 });
	EXPECT("ld #010", { 0, 0, 0, 8 });
	EXPECT("ld #0b101", { 0, 0, 0, 5 });
	EXPECT("ld #0", { 0, 0, 0, 0 });
	EXPECT("ld #-1", { 0, 0, 0, 0xffffffff });
	EXPECT("ld #-2147483648", { 0, 0, 0, 0x80000000 });
	EXPECT("ld #4294967295", { 0, 0, 0, 0xffffffff });
	EXPECT("ld [x + -4]", { 0x40, 0, 0, 0xfffffffc });
}

static void test_jumps(void **state)
{
	(void)state;
	/* jeq #k, Ltrue, Lfalse: offsets count from the next instruction */
	EXPECT("jeq #1, a, b\nret #0\na: ret #1\nb: ret #2", { 0x15, 1, 2, 1 }, { 0x06, 0, 0, 0 },
	       { 0x06, 0, 0, 1 }, { 0x06, 0, 0, 2 });
	/* one target: the false branch falls through */
	EXPECT("jeq #1, a\nret #0\na: ret #1", { 0x15, 1, 0, 1 }, { 0x06, 0, 0, 0 },
	       { 0x06, 0, 0, 1 });
	EXPECT("jeq x, a\nret #0\na: ret #1", { 0x1d, 1, 0, 0 }, { 0x06, 0, 0, 0 },
	       { 0x06, 0, 0, 1 });
	EXPECT("jeq %x, a, a\na: ret #1", { 0x1d, 0, 0, 0 }, { 0x06, 0, 0, 1 });
	/* jneq/jne: the target is the false branch of JEQ */
	EXPECT("jneq #1, a\nret #0\na: ret #1", { 0x15, 0, 1, 1 }, { 0x06, 0, 0, 0 },
	       { 0x06, 0, 0, 1 });
	EXPECT("jne x, a\nret #0\na: ret #1", { 0x1d, 0, 1, 0 }, { 0x06, 0, 0, 0 },
	       { 0x06, 0, 0, 1 });
	/* jlt is JGE and jle is JGT, with the target on the false branch */
	EXPECT("jlt #5, a\nret #0\na: ret #1", { 0x35, 0, 1, 5 }, { 0x06, 0, 0, 0 },
	       { 0x06, 0, 0, 1 });
	EXPECT("jle #5, a\nret #0\na: ret #1", { 0x25, 0, 1, 5 }, { 0x06, 0, 0, 0 },
	       { 0x06, 0, 0, 1 });
	EXPECT("jlt x, a\nret #0\na: ret #1", { 0x3d, 0, 1, 0 }, { 0x06, 0, 0, 0 },
	       { 0x06, 0, 0, 1 });
	/* two targets on an inverted mnemonic: first is taken when the test holds */
	EXPECT("jlt #5, a, b\na: ret #0\nb: ret #1", { 0x35, 1, 0, 5 }, { 0x06, 0, 0, 0 },
	       { 0x06, 0, 0, 1 });
	EXPECT("jgt #9, a, b\na: ret #0\nb: ret #1", { 0x25, 0, 1, 9 }, { 0x06, 0, 0, 0 },
	       { 0x06, 0, 0, 1 });
	EXPECT("jge x, a\na: ret #0", { 0x3d, 0, 0, 0 }, { 0x06, 0, 0, 0 });
	EXPECT("jgt x, a\na: ret #0", { 0x2d, 0, 0, 0 }, { 0x06, 0, 0, 0 });
	EXPECT("jset #0x40, a, b\na: ret #0\nb: ret #1", { 0x45, 0, 1, 0x40 }, { 0x06, 0, 0, 0 },
	       { 0x06, 0, 0, 1 });
	EXPECT("jset x, a\na: ret #0", { 0x4d, 0, 0, 0 }, { 0x06, 0, 0, 0 });
	/* ja and jmp: 32-bit offset in k */
	EXPECT("ja a\nret #0\nret #1\na: ret #2", { 0x05, 0, 0, 2 }, { 0x06, 0, 0, 0 },
	       { 0x06, 0, 0, 1 }, { 0x06, 0, 0, 2 });
	EXPECT("jmp a\na: ret #2", { 0x05, 0, 0, 0 }, { 0x06, 0, 0, 2 });
	/* raw offsets reach anywhere, including past the end */
	EXPECT("jeq #1, +3, +255", { 0x15, 3, 255, 1 });
	EXPECT("ja +4294967295", { 0x05, 0, 0, 0xffffffff });
	/* labels alone on a line, several on one instruction */
	EXPECT("jeq #1, x1, x2\nx1:\nx2:\n  ret #0", { 0x15, 0, 0, 1 }, { 0x06, 0, 0, 0 });
	EXPECT("jeq #1, b\na: b: ret #0", { 0x15, 0, 0, 1 }, { 0x06, 0, 0, 0 });
}

static void test_comments(void **state)
{
	(void)state;
	EXPECT("; a comment\n"
	       "ld [4] ; after\n"
	       "// slashes\n"
	       "ld [0] // after\n"
	       "/* block\n spanning lines */ ret #1 /* inline */\n"
	       "# bpf_asm comment in the first column\n"
	       "\r\n\t\n",
	       { 0x20, 0, 0, 4 }, { 0x20, 0, 0, 0 }, { 0x06, 0, 0, 1 });
}

/* --- seccomp names ---------------------------------------------------------- */

static void test_seccomp_fields_x86_64(void **state)
{
	(void)state;
	EXPECT("ld [nr]\nld [arch]\nld [ip]\nld [ip.lo]\nld [ip.hi]",
	       { 0x20, 0, 0, 0 }, { 0x20, 0, 0, 4 }, { 0x20, 0, 0, 8 }, { 0x20, 0, 0, 8 },
	       { 0x20, 0, 0, 12 });
	EXPECT("ld [arg0]\nld [arg0.lo]\nld [arg0.hi]\nld [arg5.lo]\nld [ARG5.HI]",
	       { 0x20, 0, 0, 16 }, { 0x20, 0, 0, 16 }, { 0x20, 0, 0, 20 }, { 0x20, 0, 0, 56 },
	       { 0x20, 0, 0, 60 });
	EXPECT("ldh [arg1]", { 0x28, 0, 0, 24 });
}

static void test_seccomp_fields_big_endian(void **state)
{
	(void)state;
	/* s390x stores the high word of each 64-bit field first */
	EXPECT_FOR("s390x", "ld [arg0.lo]\nld [arg0.hi]\nld [arg0]\nld [arg5.lo]",
		   { 0x20, 0, 0, 20 }, { 0x20, 0, 0, 16 }, { 0x20, 0, 0, 20 }, { 0x20, 0, 0, 60 });
	EXPECT_FOR("s390x", "ld [ip]\nld [ip.hi]\nld [nr]\nld [arch]", { 0x20, 0, 0, 12 },
		   { 0x20, 0, 0, 8 }, { 0x20, 0, 0, 0 }, { 0x20, 0, 0, 4 });
	EXPECT_FOR("s390x", "jeq #openat, +0\njeq #AUDIT_ARCH_S390X, +0",
		   { 0x15, 0, 0, 288 }, { 0x15, 0, 0, 0x80000016 });
}

/* A first line naming the ABI, as the disassembler writes it, decides the names. */
static void test_abi_header(void **state)
{
	(void)state;
	static const char text[] = "; 2 instructions, names for s390x\nld [arg0.lo]\nret a\n";
	const struct scg_arch *x86 = scg_arch_lookup("x86");
	struct scg_prog p;
	/* no ABI given, or given as the default for files without a header: s390x's words */
	SCG_OPTS(scg_asm_options, none);
	assert_int_equal(scg_asm(text, strlen(text), &none, &p, NULL), 0);
	assert_int_equal(p.insns[0].k, 20);
	scg_prog_release(&p);
	SCG_OPTS(scg_asm_options, fallback, .arch = x86, .arch_is_default = true);
	assert_int_equal(scg_asm(text, strlen(text), &fallback, &p, NULL), 0);
	assert_int_equal(p.insns[0].k, 20);
	scg_prog_release(&p);
	/* another ABI asked for explicitly: refused at the header */
	SCG_OPTS(scg_asm_options, strict, .arch = x86);
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_asm(text, strlen(text), &strict, &p, diag), -EINVAL);
	assert_int_equal(p.len, 0);
	assert_int_equal(scg_diag_get(diag, 0)->loc.line, 1);
	scg_diag_free(diag);
	/* without a header the given ABI names the words */
	assert_int_equal(scg_asm(text + 34, strlen(text + 34), &fallback, &p, NULL), 0);
	assert_int_equal(p.insns[0].k, 16);
	scg_prog_release(&p);
	/* an unknown ABI in the header is an error; "names for" elsewhere is a comment */
	static const char bad[] = "; names for vax\nret #0\n", other[] = "; the names for x\nret #0\n";
	assert_int_equal(scg_asm(bad, strlen(bad), &none, &p, NULL), -EINVAL);
	assert_int_equal(scg_asm(other, strlen(other), &none, &p, NULL), 0);
	scg_prog_release(&p);
}

static void test_seccomp_constants(void **state)
{
	(void)state;
	EXPECT("jeq #openat, +0\njeq #open, +0\njeq #read, +0", { 0x15, 0, 0, 257 },
	       { 0x15, 0, 0, 2 }, { 0x15, 0, 0, 0 });
	EXPECT_FOR("x86", "jeq #open, +0\njeq #openat, +0", { 0x15, 0, 0, 5 },
		   { 0x15, 0, 0, 295 });
	EXPECT_FOR("x32", "jeq #read, +0", { 0x15, 0, 0, 0x40000000 });
	EXPECT_FOR("aarch64", "jeq #openat, +0", { 0x15, 0, 0, 56 });
	EXPECT("jeq #AUDIT_ARCH_X86_64, +0\njeq #AUDIT_ARCH_I386, +0", { 0x15, 0, 0, 0xc000003e },
	       { 0x15, 0, 0, 0x40000003 });
	EXPECT("ld #EPERM\nld #EACCES", { 0, 0, 0, 1 }, { 0, 0, 0, 13 });
	EXPECT("ld [openat]", { 0x20, 0, 0, 257 });
}

static void test_actions(void **state)
{
	(void)state;
	EXPECT("ret ALLOW\nret KILL_PROCESS\nret KILL_THREAD\nret KILL\nret LOG\nret USER_NOTIF",
	       { 0x06, 0, 0, 0x7fff0000 }, { 0x06, 0, 0, 0x80000000 }, { 0x06, 0, 0, 0 },
	       { 0x06, 0, 0, 0 }, { 0x06, 0, 0, 0x7ffc0000 }, { 0x06, 0, 0, 0x7fc00000 });
	EXPECT("ret ERRNO(EPERM)\nret ERRNO(1)\nret errno( eacces )\nret TRAP(3)\nret TRACE(1)",
	       { 0x06, 0, 0, 0x50001 }, { 0x06, 0, 0, 0x50001 }, { 0x06, 0, 0, 0x5000d },
	       { 0x06, 0, 0, 0x30003 }, { 0x06, 0, 0, 0x7ff00001 });
	EXPECT("ret ERRNO(0xffff)", { 0x06, 0, 0, 0x5ffff });
	/* errno names follow the target ABI: EDEADLK is 45 on MIPS, 35 elsewhere */
	EXPECT_FOR("mips", "ret ERRNO(EDEADLK)", { 0x06, 0, 0, 0x5002d });
	EXPECT("ret ERRNO(EDEADLK)", { 0x06, 0, 0, 0x50023 });
}

/* --- trampolines -------------------------------------------------------- */

/* Follows @offset from @pc, through JA trampolines, to where control lands. */
static size_t landing(const struct scg_prog *p, size_t pc, uint32_t offset)
{
	size_t at = pc + 1 + offset;
	while (at < p->len && p->insns[at].code == 0x05)
		at = at + 1 + p->insns[at].k;
	return at;
}

/* "jeq #1, far" then @gap loads, then "far: ret #7": the jump lands on the ret. */
static void check_far_jump(size_t gap)
{
	char *text = malloc(64 + gap * 8);
	assert_non_null(text);
	char *p = text;
	p += sprintf(p, "jeq #1, far\n");
	for (size_t i = 0; i < gap; i++)
		p += sprintf(p, "ld #%zu\n", i % 10);
	sprintf(p, "far: ret #7\n");
	struct scg_diag *diag = scg_diag_new();
	struct scg_prog prog;
	int r = assemble_for(arch("x86_64"), text, &prog, diag);
	test_print_diag(diag);
	assert_int_equal(r, 0);
	assert_int_equal(prog.len, gap + 3); /* one trampoline */
	assert_int_equal(prog.insns[0].code, 0x15);
	assert_int_equal(prog.insns[0].jt, 0);
	assert_int_equal(prog.insns[0].jf, 1); /* over the trampoline */
	assert_int_equal(prog.insns[1].code, 0x05);
	assert_int_equal(prog.insns[1].k, gap);
	size_t hit = landing(&prog, 0, prog.insns[0].jt);
	assert_int_equal(hit, prog.len - 1);
	assert_int_equal(prog.insns[hit].k, 7);
	assert_int_equal(landing(&prog, 0, prog.insns[0].jf), 2);
	scg_prog_release(&prog);
	scg_diag_free(diag);
	free(text);
}

static void test_trampoline_single(void **state)
{
	(void)state;
	check_far_jump(300);
	check_far_jump(600);
	check_far_jump(4000);
}

static void test_trampoline_limit_exact(void **state)
{
	(void)state;
	/* exactly 255 ahead needs no trampoline; 256 does */
	char *text = malloc(16 * 300);
	assert_non_null(text);
	for (size_t gap = 254; gap <= 256; gap++) {
		char *p = text + sprintf(text, "jeq #1, far\n");
		for (size_t i = 0; i < gap; i++)
			p += sprintf(p, "ld #1\n");
		sprintf(p, "far: ret #7\n");
		struct scg_prog prog;
		assert_int_equal(assemble_for(arch("x86_64"), text, &prog, NULL), 0);
		assert_int_equal(prog.len, gap + 2 + (gap > 255));
		assert_int_equal(prog.insns[landing(&prog, 0, prog.insns[0].jt)].k, 7);
		scg_prog_release(&prog);
	}
	free(text);
}

/* A run of far jumps to one label shares one trampoline. */
static void test_trampoline_shared(void **state)
{
	(void)state;
	char *text = malloc(16 * 1000);
	assert_non_null(text);
	char *p = text;
	for (int i = 0; i < 100; i++)
		p += sprintf(p, "jeq #%d, deny\n", i);
	p += sprintf(p, "ret ALLOW\n");
	for (int i = 0; i < 400; i++)
		p += sprintf(p, "ld #1\n");
	sprintf(p, "deny: ret ERRNO(EPERM)\n");
	struct scg_prog prog;
	assert_int_equal(assemble_for(arch("x86_64"), text, &prog, NULL), 0);
	assert_int_equal(prog.len, 100 + 1 + 400 + 1 + 1);
	for (size_t i = 0; i < 100; i++) {
		assert_int_equal(prog.insns[i].code, 0x15);
		assert_int_equal(prog.insns[landing(&prog, i, prog.insns[i].jt)].k, 0x50001);
	}
	scg_prog_release(&prog);
	free(text);
}

/*
 * Jump A reaches its target from exactly 255 away until jump B's trampoline
 * lands between them: only a second pass finds A out of reach.  Both
 * branches of C are far: two trampolines.
 */
static void test_trampoline_iteration(void **state)
{
	(void)state;
	char *text = malloc(16 * 700);
	assert_non_null(text);
	char *p = text;
	p += sprintf(p, "jeq #1, edge\n"); /* A at 0; edge at 256 -> offset 255 */
	p += sprintf(p, "jeq #2, far\n");  /* B at 1 */
	for (int i = 0; i < 254; i++)
		p += sprintf(p, "ld #1\n");
	p += sprintf(p, "edge: ret #10\n");
	p += sprintf(p, "jeq #3, far, far2\n"); /* C */
	for (int i = 0; i < 300; i++)
		p += sprintf(p, "ld #1\n");
	p += sprintf(p, "far: ret #11\nld #1\nfar2: ret #12\n");
	struct scg_prog prog;
	assert_int_equal(assemble_for(arch("x86_64"), text, &prog, NULL), 0);
	/* A and B get one trampoline each, C two: B's is too far back to share */
	assert_int_equal(prog.len, 256 + 1 + 300 + 3 + 4 + 1);
	assert_int_equal(prog.insns[landing(&prog, 0, prog.insns[0].jt)].k, 10);
	size_t b = 0;
	while (prog.insns[b].code != 0x15 || prog.insns[b].k != 2)
		b++;
	assert_int_equal(prog.insns[landing(&prog, b, prog.insns[b].jt)].k, 11);
	size_t c = b;
	while (prog.insns[c].code != 0x15 || prog.insns[c].k != 3)
		c++;
	assert_int_equal(prog.insns[landing(&prog, c, prog.insns[c].jt)].k, 11);
	assert_int_equal(prog.insns[landing(&prog, c, prog.insns[c].jf)].k, 12);
	for (size_t i = 0; i < prog.len; i++) {
		if (prog.insns[i].code == 0x15) {
			assert_true(i + 1 + prog.insns[i].jt < prog.len);
			assert_true(i + 1 + prog.insns[i].jf < prog.len);
		}
	}
	scg_prog_release(&prog);
	free(text);
}

/*
 * Random programs of conditional jumps to random labels, near and far:
 * after assembly, taking away the JAs gives the source instructions back in
 * order, and every branch lands, through trampolines, on its label.
 */
static void test_trampoline_random(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 42);
	for (size_t round = 0; round < test_scaled(40); round++) {
		size_t n = 200 + progen_below(&rng, 1200);
		size_t *jt = calloc(n, sizeof(*jt)), *jf = calloc(n, sizeof(*jf));
		char *text = malloc(n * 48);
		assert_non_null(jt);
		assert_non_null(jf);
		assert_non_null(text);
		char *p = text;
		for (size_t i = 0; i < n; i++) {
			p += sprintf(p, "I%zu: ", i);
			if (i + 1 < n && progen_below(&rng, 3)) {
				jt[i] = i + 1 + progen_below(&rng, (uint32_t)(n - i - 1));
				jf[i] = i + 1 + progen_below(&rng, (uint32_t)(n - i - 1));
				if (progen_below(&rng, 4) == 0) { /* the false branch falls through */
					jf[i] = i + 1;
					p += sprintf(p, "jeq #%zu, I%zu\n", i, jt[i]);
				} else if (progen_below(&rng, 3) == 0) { /* jne: the true one does */
					jt[i] = i + 1;
					p += sprintf(p, "jne #%zu, I%zu\n", i, jf[i]);
				} else {
					p += sprintf(p, "jeq #%zu, I%zu, I%zu\n", i, jt[i], jf[i]);
				}
			} else {
				p += sprintf(p, "ret #%zu\n", i);
			}
		}
		struct scg_diag *diag = scg_diag_new();
		struct scg_prog prog;
		int r = assemble_for(arch("x86_64"), text, &prog, diag);
		if (r) {
			test_print_diag(diag);
			assert_int_equal(r, -EINVAL);
			/* only acceptable failure: too long after trampolines */
			assert_string_equal(scg_diag_get(diag, 0)->code, "asm-too-long");
		} else {
			size_t *orig = calloc(prog.len, sizeof(*orig)), next = 0;
			assert_non_null(orig);
			for (size_t i = 0; i < prog.len; i++) {
				if (prog.insns[i].code == 0x05)
					continue;
				assert_int_equal(prog.insns[i].k, next);
				orig[i] = next++;
			}
			assert_int_equal(next, n);
			for (size_t i = 0; i < prog.len; i++) {
				if (prog.insns[i].code != 0x15)
					continue;
				size_t t = landing(&prog, i, prog.insns[i].jt);
				size_t f = landing(&prog, i, prog.insns[i].jf);
				assert_int_equal(orig[t], jt[orig[i]]);
				assert_int_equal(orig[f], jf[orig[i]]);
			}
			free(orig);
			scg_prog_release(&prog);
		}
		scg_diag_free(diag);
		free(text);
		free(jt);
		free(jf);
	}
}

/* --- errors ----------------------------------------------------------------- */

/* Assembles @text, expects failure with a first error at @line:@col naming @code. */
static const struct scg_diag_entry *expect_error_for(const struct scg_arch *target,
						     struct scg_diag *diag, const char *text,
						     unsigned line, unsigned col, const char *code,
						     const char *message, const char *hint)
{
	struct scg_prog prog = { (struct scg_insn *)1, 99 };
	scg_diag_clear(diag);
	int r = assemble_for(target, text, &prog, diag);
	if (r != -EINVAL)
		print_message("'%s' assembled\n", text);
	assert_int_equal(r, -EINVAL);
	assert_null(prog.insns);
	assert_int_equal(prog.len, 0);
	assert_true(scg_diag_count_at_least(diag, SCG_SEV_ERROR) >= 1);
	const struct scg_diag_entry *e = NULL;
	for (size_t i = 0; !e && i < scg_diag_count(diag); i++)
		if (scg_diag_get(diag, i)->severity == SCG_SEV_ERROR)
			e = scg_diag_get(diag, i);
	if (strcmp(e->code, code) || !strstr(e->message, message) || e->loc.line != line ||
	    e->loc.column != col || (hint && (!e->hint || !strstr(e->hint, hint)))) {
		test_print_diag(diag);
		fail_msg("'%s': wanted %u:%u %s '%s' hint '%s'", text, line, col, code, message,
			 hint ? hint : "(none)");
	}
	assert_string_equal(e->loc.file, "t.s");
	return e;
}

#define EXPECT_ERROR(text, line, col, code, message, hint) \
	expect_error_for(arch("x86_64"), diag, text, line, col, code, message, hint)

static void test_error_messages(void **state)
{
	(void)state;
	struct scg_diag *diag = scg_diag_new();
	EXPECT_ERROR("ld [4]\n\tjeg #1, a\na: ret #0", 2, 2, "asm-unknown-mnemonic",
		     "unknown instruction 'jeg'", "did you mean 'jeq'?");
	EXPECT_ERROR("allow\nret #0", 1, 1, "asm-unknown-mnemonic", "unknown instruction 'allow'",
		     "a label needs a colon: 'allow:'");
	EXPECT_ERROR("ja nowhere\nret #0", 1, 4, "asm-undefined-label", "undefined label 'nowhere'",
		     "define it");
	EXPECT_ERROR("jeq #1, alow\nallow: ret ALLOW", 1, 9, "asm-undefined-label",
		     "undefined label 'alow'", "did you mean 'allow'?");
	EXPECT_ERROR("a: ret #0\n  a: ret #1", 2, 3, "asm-duplicate-label",
		     "label 'a' is already defined", "first defined at line 1");
	EXPECT_ERROR("st #1", 1, 4, "asm-operand", "'st' does not take #k", "'st' takes M[k]");
	EXPECT_ERROR("ldh #1", 1, 5, "asm-operand", "'ldh' does not take #k", "[k] or [x + k]");
	EXPECT_ERROR("ret [4]", 1, 5, "asm-operand", "'ret' does not take [k]", "an action");
	EXPECT_ERROR("tax x", 1, 5, "asm-operand", "'tax' does not take x", "no operand");
	EXPECT_ERROR("ld\nret #0", 1, 3, "asm-operand", "'ld' needs an operand", "#k");
	EXPECT_ERROR("ld ALLOW", 1, 4, "asm-operand", "an action only follows 'ret'", NULL);
	EXPECT_ERROR("jeq M[1], a\na: ret #0", 1, 5, "asm-operand", "compares A with #k or x", NULL);
	EXPECT_ERROR("ld #0x100000000", 1, 5, "asm-range", "does not fit in 32 bits", "32-bit");
	EXPECT_ERROR("ld #-2147483649", 1, 5, "asm-range", "does not fit in 32 bits", NULL);
	EXPECT_ERROR("ld #0x", 1, 5, "asm-number", "'0x' is not a number", "0x hex");
	EXPECT_ERROR("ld #12ab", 1, 5, "asm-number", "'12ab' is not a number", NULL);
	EXPECT_ERROR("jeq #1, +256", 1, 10, "asm-range", "jump offset +256 is out of range",
		     "trampoline");
	EXPECT_ERROR("jeq #1, 3\nret #0", 1, 9, "asm-syntax", "expected a label or +N",
		     "write '+3'");
	EXPECT_ERROR(".insn 0x10000, 0, 0, 0", 1, 7, "asm-range", "code 0x10000 does not fit", NULL);
	EXPECT_ERROR(".insn 1, 256, 0, 0", 1, 10, "asm-range", "jt 0x100 does not fit", NULL);
	EXPECT_ERROR(".insn 1, 0, 0", 1, 14, "asm-syntax", "expected ',' after jf", NULL);
	EXPECT_ERROR(".byte 1", 1, 1, "asm-directive", "unknown directive '.byte'", ".insn");
	EXPECT_ERROR("ret #0 #1", 1, 8, "asm-syntax", "unexpected '#' after the instruction",
		     "one instruction per line");
	EXPECT_ERROR("ld [4] @", 1, 8, "asm-syntax", "unexpected character '@'", NULL);
	EXPECT_ERROR("ld [4]\n/* never closed\nret #0", 2, 1, "asm-comment", "comment never ends",
		     "*/");
	EXPECT_ERROR("ldx 3*([1]&0xf)", 1, 5, "asm-operand", "only 4*([k]&0xf) exists", NULL);
	EXPECT_ERROR("ldx 4*([1]&0xff)", 1, 12, "asm-operand", "only 4*([k]&0xf) exists", NULL);
	EXPECT_ERROR("ld [x + 1", 1, 10, "asm-syntax", "expected ']' at the end of the line", NULL);
	EXPECT_ERROR("a:\njeq #1, a\nret #0", 2, 9, "asm-backward-jump", "goes backwards",
		     "only forward");
	EXPECT_ERROR("", 0, 0, "asm-empty", "empty program", "ret ALLOW");
	EXPECT_ERROR("; nothing\n\n/* at all */\n", 0, 0, "asm-empty", "empty program", NULL);
	EXPECT_ERROR("only:\n", 0, 0, "asm-empty", "empty program", NULL);
	scg_diag_free(diag);
}

static void test_error_names(void **state)
{
	(void)state;
	struct scg_diag *diag = scg_diag_new();
	EXPECT_ERROR("jeq #opnat, +0", 1, 6, "asm-unknown-name", "unknown name 'opnat'",
		     "did you mean 'openat'?");
	EXPECT_ERROR("ld #EPRM", 1, 5, "asm-unknown-name", "unknown name 'EPRM'",
		     "did you mean 'EPERM'?");
	EXPECT_ERROR("ld #AUDIT_ARCH_X86_46", 1, 5, "asm-unknown-name", "AUDIT_ARCH_X86_46",
		     "did you mean 'AUDIT_ARCH_X86_64'?");
	EXPECT_ERROR("ld #zzzzqqqq", 1, 5, "asm-unknown-name", "unknown name 'zzzzqqqq'",
		     "syscalls of x86_64");
	/* the hint names what to change as data; the front end words it with its flags */
	const struct scg_diag_entry *abi = expect_error_for(
	    arch("aarch64"), diag, "ret #0\njeq #open, +0", 2, 6, "asm-syscall-abi",
	    "'open' is a syscall, but not on aarch64", "write the number");
	assert_int_equal(abi->hint_id, SCG_HINT_ARCH_OR_NUMBER);
	assert_null(strstr(abi->hint, "--"));
	EXPECT_ERROR("ret ALOW", 1, 5, "asm-unknown-action", "unknown action 'ALOW'",
		     "did you mean 'ALLOW'?");
	EXPECT_ERROR("ret ERRNO(EPRM)", 1, 11, "asm-operand", "bad data 'EPRM' for ERRNO",
		     "did you mean 'EPERM'?");
	EXPECT_ERROR("ret ERRNO(70000)", 1, 11, "asm-operand", "bad data '70000'", "65535");
	EXPECT_ERROR("ret ALLOW(1)", 1, 11, "asm-operand", "bad data '1' for ALLOW", NULL);
	EXPECT_ERROR("ret ERRNO", 1, 5, "asm-operand", "ERRNO needs its data", "ERRNO(EPERM)");
	EXPECT_ERROR("ret ERRNO(1", 1, 12, "asm-syntax", "expected ')'", NULL);
	scg_diag_free(diag);
}

/* Several errors in one run, each at its own line, and the location of everything after. */
static void test_error_collection(void **state)
{
	(void)state;
	struct scg_diag *diag = scg_diag_new();
	const char *text = "ld [nr]\n"
			   "jeq #opnat, deny\n"
			   "st #1\n"
			   "jeg #2, deny\n"
			   "ret ALLOW\n"
			   "deny: ret ERRNO(EPERM)\n"
			   "ja missing\n";
	struct scg_prog prog;
	assert_int_equal(assemble_for(arch("x86_64"), text, &prog, diag), -EINVAL);
	assert_int_equal(scg_diag_count_at_least(diag, SCG_SEV_ERROR), 4);
	const unsigned lines[] = { 2, 3, 4, 7 };
	const char *codes[] = { "asm-unknown-name", "asm-operand", "asm-unknown-mnemonic",
				"asm-undefined-label" };
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(scg_diag_get(diag, i)->loc.line, lines[i]);
		assert_string_equal(scg_diag_get(diag, i)->code, codes[i]);
	}
	/* the text as the CLI prints it */
	char buf[256];
	scg_diag_format(scg_diag_get(diag, 2), buf, sizeof(buf));
	assert_string_equal(buf, "t.s:4:1: error: unknown instruction 'jeg'\n"
				 "  hint: did you mean 'jeq'?");
	scg_diag_free(diag);
}

static void test_error_limits(void **state)
{
	(void)state;
	struct scg_diag *diag = scg_diag_new();
	/* 4097 instructions */
	size_t n = SCG_BPF_MAXINSNS + 1;
	char *text = malloc(n * 8 + 1);
	assert_non_null(text);
	for (size_t i = 0; i < n; i++)
		memcpy(text + i * 8, "ret #0\n ", 8);
	text[n * 8] = '\0';
	expect_error_for(arch("x86_64"), diag, text, 0, 0, "asm-too-long",
			 "4097 instructions: the kernel accepts at most 4096", NULL);
	/* exactly 4096 is fine */
	text[(n - 1) * 8] = '\0';
	struct scg_prog prog;
	assert_int_equal(assemble_for(arch("x86_64"), text, &prog, NULL), 0);
	assert_int_equal(prog.len, SCG_BPF_MAXINSNS);
	scg_prog_release(&prog);
	/* 4000 instructions whose 100 far jumps need trampolines past the limit */
	char *p = text;
	for (size_t i = 0; i < 100; i++)
		p += sprintf(p, "jeq #%zu, t%zu\n", i, i);
	for (size_t i = 0; i < 3800; i++)
		p += sprintf(p, "ld #1\n");
	for (size_t i = 0; i < 100; i++)
		p += sprintf(p, "t%zu: ret #%zu\n", i, i);
	const struct scg_diag_entry *e = expect_error_for(
		arch("x86_64"), diag, text, 0, 0, "asm-too-long", "after adding", NULL);
	assert_non_null(strstr(e->message, "trampolines"));
	free(text);
	/* errors stop after a limit instead of flooding */
	char *junk = malloc(200 * 4 + 1);
	assert_non_null(junk);
	for (size_t i = 0; i < 200; i++)
		memcpy(junk + i * 4, "zz\n ", 4);
	junk[800] = '\0';
	scg_diag_clear(diag);
	assert_int_equal(assemble_for(arch("x86_64"), junk, &prog, diag), -EINVAL);
	assert_true(scg_diag_count(diag) <= 60);
	assert_string_equal(scg_diag_get(diag, scg_diag_count(diag) - 1)->code,
			    "asm-too-many-errors");
	free(junk);
	scg_diag_free(diag);
}

static void test_warnings(void **state)
{
	(void)state;
	struct scg_diag *diag = scg_diag_new();
	struct scg_prog prog;
	/* a label at the very end assembles (bpf_asm does) but is worth a warning */
	assert_int_equal(assemble_for(arch("x86_64"), "jeq #1, end\nret #0\nend:\n", &prog, diag), 0);
	assert_int_equal(prog.len, 2);
	assert_int_equal(prog.insns[0].jt, 1);
	assert_int_equal(scg_diag_count(diag), 1);
	assert_int_equal(scg_diag_get(diag, 0)->severity, SCG_SEV_WARNING);
	assert_string_equal(scg_diag_get(diag, 0)->code, "asm-label-at-end");
	scg_prog_release(&prog);
	/* a backward ja wraps around, as bpf_asm encodes it */
	scg_diag_clear(diag);
	assert_int_equal(assemble_for(arch("x86_64"), "top: ld #1\nja top\n", &prog, diag), 0);
	assert_int_equal(prog.insns[1].k, 0xfffffffe);
	assert_string_equal(scg_diag_get(diag, 0)->code, "asm-backward-jump");
	scg_prog_release(&prog);
	scg_diag_free(diag);
}

/* Any bytes at all: an error or a program, never a crash (the fuzzer goes further). */
static void test_garbage_input(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 7);
	const char alphabet[] = "ld ret jeq #[]x+M,:;/*\n0x1fa%()&.insn-ALLOW ERRNO L1 ";
	char buf[256];
	for (int round = 0; round < 3000; round++) {
		size_t len = progen_below(&rng, sizeof(buf));
		for (size_t i = 0; i < len; i++)
			buf[i] = round % 2 ? (char)progen_next(&rng)
					   : alphabet[progen_below(&rng, sizeof(alphabet) - 1)];
		struct scg_prog prog;
		struct scg_diag *diag = scg_diag_new();
		int r = assemble_for(arch("x86_64"), len ? buf : "", &prog, diag);
		if (r == 0) {
			assert_true(prog.len >= 1 && prog.len <= SCG_BPF_MAXINSNS);
			scg_prog_release(&prog);
		} else {
			assert_int_equal(r, -EINVAL);
			assert_null(prog.insns);
			assert_true(scg_diag_count_at_least(diag, SCG_SEV_ERROR) > 0);
		}
		scg_diag_free(diag);
	}
	/* NUL bytes inside the text are errors, not the end */
	struct scg_prog prog;
	assert_int_equal(scg_asm("ret #0\n\0ret #1", 14, NULL, &prog, NULL), -EINVAL);
	assert_int_equal(scg_asm(NULL, 0, NULL, &prog, NULL), -EINVAL);
	assert_int_equal(scg_asm("ret #0", 6, NULL, NULL, NULL), -EINVAL);
}

/* --- docs/asm.md: every ```asm block assembles ------------------------ */

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int c;
	while ((c = fgetc(f)) != EOF) {
		if (len + 2 > cap) {
			cap = cap ? cap * 2 : 4096;
			char *bigger = realloc(buf, cap);
			assert_non_null(bigger);
			buf = bigger;
		}
		buf[len++] = (char)c;
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

static void test_docs_examples(void **state)
{
	(void)state;
	const char *dir = getenv("SYSCAGE_SRCDIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/docs/asm.md", dir ? dir : ".");
	char *doc = read_text(path);
	if (!doc)
		fail_msg("cannot read %s (run from the source tree or set SYSCAGE_SRCDIR)", path);
	size_t blocks = 0;
	for (char *p = doc; (p = strstr(p, "```asm\n"));) {
		p += strlen("```asm\n");
		char *end = strstr(p, "```");
		assert_non_null(end);
		unsigned line = 1;
		for (char *q = doc; q < p; q++)
			line += *q == '\n';
		struct scg_diag *diag = scg_diag_new();
		struct scg_prog prog;
		SCG_OPTS(scg_asm_options, opts, .arch = arch("x86_64"), .filename = "docs/asm.md");
		int r = scg_asm(p, (size_t)(end - p), &opts, &prog, diag);
		if (r != 0) {
			print_message("the example at docs/asm.md line %u does not assemble:\n", line);
			test_print_diag(diag);
		}
		assert_int_equal(r, 0);
		assert_int_equal(scg_diag_count(diag), 0);
		scg_prog_release(&prog);
		scg_diag_free(diag);
		blocks++;
		p = end + 3;
	}
	assert_true(blocks >= 10);
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loads),
		cmocka_unit_test(test_abi_header),
		cmocka_unit_test(test_alu_ret_misc),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_jumps),
		cmocka_unit_test(test_comments),
		cmocka_unit_test(test_seccomp_fields_x86_64),
		cmocka_unit_test(test_seccomp_fields_big_endian),
		cmocka_unit_test(test_seccomp_constants),
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_trampoline_single),
		cmocka_unit_test(test_trampoline_limit_exact),
		cmocka_unit_test(test_trampoline_shared),
		cmocka_unit_test(test_trampoline_iteration),
		cmocka_unit_test(test_trampoline_random),
		cmocka_unit_test(test_error_messages),
		cmocka_unit_test(test_error_names),
		cmocka_unit_test(test_error_collection),
		cmocka_unit_test(test_error_limits),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_garbage_input),
		cmocka_unit_test(test_docs_examples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
