/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests: diagnostics, numbers, suggestions, strings, actions, raw programs. */
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

#include "util/grow.h"
#include "util/hashmap.h"
#include "util/json.h"
#include "util/utf8.h"
#include "util/number.h"
#include "util/opts.h"
#include "util/scan.h"
#include "util/strbuf.h"
#include "util/suggest.h"

static void test_hashmap_ints(void **state)
{
	(void)state;
	struct hashmap m = HASHMAP_INIT;
	uint64_t v = 7;
	assert_false(hashmap_get(&m, 0, &v));
	assert_false(hashmap_remove(&m, 0));
	/* Neighbouring keys, key 0 and the top of the range, through several growths. */
	for (uint64_t k = 0; k < 5000; k++)
		assert_int_equal(hashmap_set(&m, k * 3, k), 0);
	assert_int_equal(hashmap_set(&m, UINT64_MAX, 42), 0);
	assert_int_equal(m.len, 5001);
	assert_int_equal(hashmap_set(&m, 6, 99), 0); /* replaces */
	assert_int_equal(hashmap_set(&m, 6, HASHMAP_EMPTY), -EINVAL);
	assert_int_equal(hashmap_add(&m, 8, HASHMAP_EMPTY), -EINVAL);
	assert_int_equal(m.len, 5001);
	assert_true(hashmap_get(&m, 6, &v));
	assert_int_equal(v, 99);
	assert_true(hashmap_get(&m, UINT64_MAX, &v));
	assert_int_equal(v, 42);
	assert_false(hashmap_get(&m, 4, NULL));
	/* Removing every other key keeps every remaining one reachable. */
	for (uint64_t k = 0; k < 5000; k += 2)
		assert_true(hashmap_remove(&m, k * 3));
	for (uint64_t k = 0; k < 5000; k++) {
		bool found = hashmap_get(&m, k * 3, &v);
		assert_int_equal(found, k % 2 == 1);
		if (found)
			assert_int_equal(v, k);
	}
	assert_int_equal(m.len, 2501);
	hashmap_clear(&m);
	assert_false(hashmap_get(&m, 3, NULL));
	hashmap_release(&m);
	assert_null(m.slots);
}

static void test_hashmap_shared_hashes(void **state)
{
	(void)state;
	static const char *const names[] = { "read", "write", "openat", "read", "close", "read" };
	struct hashmap m = HASHMAP_INIT;
	assert_int_equal(hashmap_reserve(&m, 100), 0);
	size_t cap = m.cap;
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(hashmap_add(&m, hash_str(names[i]), i), 0);
	assert_int_equal(m.cap, cap); /* reserved: no growth */
	/* Every item of one hash, each once, in the order added. */
	size_t pos = HASHMAP_START, seen = 0;
	uint64_t i;
	while (hashmap_next(&m, hash_str("read"), &pos, &i)) {
		assert_string_equal(names[i], "read");
		seen |= (size_t)1 << i;
	}
	assert_int_equal(seen, 1 | 8 | 32);
	pos = HASHMAP_START;
	assert_false(hashmap_next(&m, hash_str("mmap"), &pos, &i));
	/* The hashes: equal bytes, equal hash; all bits of the integer mix depend on the input. */
	assert_true(hash_bytes("abc", 3) == hash_str("abc"));
	assert_true(hash_str("ab") != hash_str("ba"));
	assert_true(hash_u64(1) != hash_u64(2));
	assert_true(hash_combine(hash_u64(1), 2) != hash_combine(hash_u64(2), 1));
	hashmap_release(&m);
	struct hashmap empty = HASHMAP_INIT;
	pos = HASHMAP_START;
	assert_false(hashmap_next(&empty, 1, &pos, &i));
}

/* The text a writer produced on a memory stream, for comparing. */
static char *json_text(FILE *f, char **buf)
{
	assert_int_equal(fclose(f), 0);
	return *buf;
}

static void test_json_writer_layouts(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	struct scg_json *w = scg_json_new(f);
	assert_non_null(w);
	assert_int_equal(scg_json_object(w, SCG_JSON_LINES), 0);
	scg_json_key(w, "name");
	scg_json_string(w, "a\"b\n");
	scg_json_key(w, "n");
	scg_json_int(w, -3);
	scg_json_key(w, "list");
	scg_json_array(w, SCG_JSON_INLINE);
	scg_json_uint(w, 18446744073709551615ULL);
	scg_json_bool(w, 1);
	scg_json_null(w);
	scg_json_string(w, NULL);
	scg_json_valuef(w, "%.3f", 1.5);
	scg_json_end(w);
	scg_json_key(w, "empty");
	scg_json_array(w, SCG_JSON_LINES);
	scg_json_end(w);
	scg_json_key(w, "rows");
	scg_json_array(w, SCG_JSON_LINES);
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_key(w, "pid");
	scg_json_int(w, 1);
	scg_json_key(w, "x");
	scg_json_stringn(w, "ab\0c", 4);
	scg_json_end(w);
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_end(w);
	scg_json_end(w);
	assert_int_equal(scg_json_end(w), 0);
	assert_int_equal(scg_json_free(w), 0);
	assert_string_equal(json_text(f, &buf),
			    "{\n"
			    "  \"name\": \"a\\\"b\\n\",\n"
			    "  \"n\": -3,\n"
			    "  \"list\": [18446744073709551615, true, null, null, 1.500],\n"
			    "  \"empty\": [],\n"
			    "  \"rows\": [\n"
			    "    {\"pid\": 1, \"x\": \"ab\\u0000c\"},\n"
			    "    {}\n"
			    "  ]\n"
			    "}");
	free(buf);
}

static void test_json_writer_compact(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	struct scg_json *w = scg_json_new(f);
	scg_json_object(w, SCG_JSON_COMPACT);
	scg_json_key(w, "pid");
	scg_json_int(w, 4711);
	scg_json_key(w, "list");
	scg_json_array(w, SCG_JSON_COMPACT);
	scg_json_int(w, 1);
	scg_json_int(w, 2);
	scg_json_end(w);
	scg_json_key(w, "inline");
	scg_json_array(w, SCG_JSON_INLINE);
	scg_json_int(w, 1);
	scg_json_int(w, 2);
	scg_json_end(w);
	scg_json_end(w);
	assert_int_equal(scg_json_free(w), 0);
	assert_string_equal(json_text(f, &buf), "{\"pid\":4711,\"list\":[1,2],\"inline\":[1, 2]}");
	free(buf);
}

static void test_json_writer_misuse(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_null(scg_json_new(NULL));
	assert_int_equal(scg_json_free(NULL), 0);

	/* A key outside an object; the error sticks. */
	struct scg_json *w = scg_json_new(f);
	assert_int_equal(scg_json_key(w, "k"), -EINVAL);
	assert_int_equal(scg_json_object(w, SCG_JSON_INLINE), -EINVAL);
	assert_int_equal(scg_json_free(w), -EINVAL);

	/* A value where a key is due, a key twice, an end after a key, an end too many. */
	w = scg_json_new(f);
	scg_json_object(w, SCG_JSON_INLINE);
	assert_int_equal(scg_json_int(w, 1), -EINVAL);
	scg_json_free(w);
	w = scg_json_new(f);
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_key(w, "a");
	assert_int_equal(scg_json_key(w, "b"), -EINVAL);
	scg_json_free(w);
	w = scg_json_new(f);
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_key(w, "a");
	assert_int_equal(scg_json_end(w), -EINVAL);
	scg_json_free(w);
	w = scg_json_new(f);
	scg_json_array(w, SCG_JSON_INLINE);
	assert_int_equal(scg_json_end(w), 0);
	assert_int_equal(scg_json_end(w), -EINVAL);
	scg_json_free(w);

	/* One document per writer; a container left open is an error at the end. */
	w = scg_json_new(f);
	assert_int_equal(scg_json_int(w, 1), 0);
	assert_int_equal(scg_json_int(w, 2), -EINVAL);
	scg_json_free(w);
	w = scg_json_new(f);
	scg_json_array(w, SCG_JSON_INLINE);
	assert_int_equal(scg_json_free(w), -EINVAL);

	/* An unknown layout. */
	w = scg_json_new(f);
	assert_int_equal(scg_json_object(w, (enum scg_json_layout)3), -EINVAL);
	scg_json_free(w);

	/* Too deep. */
	w = scg_json_new(f);
	for (int i = 0; i < SCG_JSON_MAX_DEPTH; i++)
		assert_int_equal(scg_json_array(w, SCG_JSON_INLINE), 0);
	assert_int_equal(scg_json_array(w, SCG_JSON_INLINE), -EINVAL);
	scg_json_free(w);
	fclose(f);
	free(buf);
}

static void test_scan_moves(void **state)
{
	(void)state;
	static const char text[] = "ab  x_1;\tz\n\n// c\nend\0!";
	struct scan s;
	scan_init(&s, text, sizeof(text) - 1);
	assert_int_equal(scan_peek(&s, 0), 'a');
	assert_int_equal(scan_while(&s, scan_is_ident_char), 2);
	assert_int_equal(scan_blanks(&s), 2);
	assert_int_equal(s.column, 5);
	assert_true(scan_is_ident_start(scan_peek(&s, 0)));
	assert_int_equal(scan_while(&s, scan_is_ident_char), 3);
	assert_false(scan_accept(&s, ";;"));
	assert_true(scan_accept(&s, ";"));
	struct scg_loc loc = scan_loc(&s, "f.s");
	assert_string_equal(loc.file, "f.s");
	assert_int_equal(loc.line, 1);
	assert_int_equal(loc.column, 9);
	assert_int_equal(loc.insn, -1);
	scan_to_eol(&s);
	assert_int_equal(scan_peek(&s, 0), '\n');
	assert_int_equal(s.column, 11);
	scan_line(&s); /* over the '\n': line 2, column 1 */
	assert_int_equal(s.line, 2);
	assert_int_equal(s.column, 1);
	scan_advance(&s);
	assert_true(scan_accept(&s, "//"));
	scan_line(&s);
	assert_int_equal(s.line, 4);
	assert_true(scan_accept(&s, "end"));
	/* a NUL is a byte like another; only the length ends the text */
	assert_true(scan_more(&s));
	assert_int_equal(scan_peek(&s, 0), '\0');
	assert_int_equal(scan_peek(&s, 1), '!');
	assert_int_equal(scan_peek(&s, 2), '\0');
	scan_skip(&s, 10);
	assert_false(scan_more(&s));
	assert_int_equal(s.column, 6);
	scan_advance(&s);
	scan_line(&s);
	scan_to_eol(&s);
	assert_int_equal(s.pos, sizeof(text) - 1);
	assert_int_equal(s.line, 4);

	/* an empty text: every move stays put */
	scan_init(&s, NULL, 0);
	assert_false(scan_more(&s));
	assert_int_equal(scan_peek(&s, 0), '\0');
	assert_false(scan_accept(&s, "x"));
	assert_true(scan_accept(&s, ""));
	scan_to_eol(&s);
	scan_line(&s);
	assert_int_equal(scan_char(&s), 0);
	assert_int_equal(s.line, 1);
	assert_int_equal(s.column, 1);

	/* a piece of a larger text keeps that text's locations */
	scan_init_at(&s, "a\tb\nc", 5, 7, 3);
	scan_skip(&s, 3);
	assert_int_equal(s.line, 7);
	assert_int_equal(s.column, 6);
	scan_line(&s);
	assert_int_equal(s.line, 8);
	assert_int_equal(s.column, 1);
	assert_int_equal(scan_peek(&s, 0), 'c');

	/* trailing blanks dropped: the cursor stops before them, never moves back */
	scan_init(&s, " \tab \r\t", 7);
	assert_int_equal(scan_trim_end(&s), 3);
	assert_int_equal(s.len, 4);
	assert_int_equal(scan_blanks(&s), 2);
	assert_int_equal(scan_while(&s, scan_is_ident_char), 2);
	assert_false(scan_more(&s));
	scan_init(&s, "  \t", 3);
	scan_blanks(&s);
	assert_int_equal(scan_trim_end(&s), 0);
	assert_int_equal(s.pos, 3);
	assert_int_equal(s.len, 3);
}

static void test_scan_characters(void **state)
{
	(void)state;
	/* e-acute (2 bytes), a lone continuation byte, the euro sign (3 bytes), a newline */
	static const char text[] = "\xc3\xa9\x80\xe2\x82\xac\nx";
	struct scan s;
	scan_init(&s, text, sizeof(text) - 1);
	assert_int_equal(scan_char(&s), 2);
	assert_int_equal(s.column, 2);
	assert_int_equal(scan_char(&s), 0); /* starts no sequence: one byte, one column */
	assert_int_equal(s.pos, 3);
	assert_int_equal(scan_char(&s), 3);
	assert_int_equal(s.column, 4);
	assert_int_equal(scan_char(&s), 1);
	assert_int_equal(s.line, 2);
	assert_int_equal(s.column, 1);
	assert_int_equal(scan_char(&s), 1);
	assert_false(scan_more(&s));
	/* the byte classes */
	assert_true(scan_is_blank('\v') && !scan_is_blank('\n'));
	assert_true(scan_is_digit('0') && !scan_is_digit('a'));
	assert_true(scan_is_ident_start('_') && !scan_is_ident_start('1'));
	assert_true(scan_is_ident_char('9') && !scan_is_ident_char('-') && !scan_is_ident_char('\xc3'));
}

static void test_diag_format(void **state)
{
	(void)state;
	struct scg_diag *d = scg_diag_new();
	assert_non_null(d);
	struct scg_loc at = { "policy.s", 3, 7, -1 };
	assert_int_equal(scg_diag_add(d, SCG_SEV_ERROR, at, "x", "did you mean 'openat'?",
				      "unknown syscall '%s'", "opnat"),
			 0);
	assert_int_equal(scg_diag_add(d, SCG_SEV_WARNING, SCG_LOC_INSN(12), NULL, NULL, "RET A"), 0);
	assert_int_equal(scg_diag_count(d), 2);
	assert_int_equal(scg_diag_count_at_least(d, SCG_SEV_ERROR), 1);

	char buf[200];
	int n = scg_diag_format(scg_diag_get(d, 0), buf, sizeof(buf));
	assert_string_equal(buf, "policy.s:3:7: error: unknown syscall 'opnat'\n"
				 "  hint: did you mean 'openat'?");
	assert_int_equal(n, (int)strlen(buf));
	assert_int_equal(scg_diag_format(scg_diag_get(d, 0), NULL, 0), n);
	scg_diag_format(scg_diag_get(d, 1), buf, sizeof(buf));
	assert_string_equal(buf, "insn 12: warning: RET A");

	/* a truncated buffer still reports the full length and stays terminated */
	char small[8];
	assert_int_equal(scg_diag_format(scg_diag_get(d, 0), small, sizeof(small)), n);
	assert_int_equal(strlen(small), sizeof(small) - 1);

	assert_null(scg_diag_get(d, 2));
	scg_diag_clear(d);
	assert_int_equal(scg_diag_count(d), 0);
	scg_diag_free(d);
	scg_diag_free(NULL);
	assert_int_equal(scg_diag_add(NULL, SCG_SEV_ERROR, SCG_LOC_NONE, NULL, NULL, "dropped"), 0);
}

/* A hint given as scg_hint_text(id) keeps its id, also when an entry is copied. */
static void test_diag_hints(void **state)
{
	(void)state;
	struct scg_diag *d = scg_diag_new(), *copy = scg_diag_new();
	assert_int_equal(scg_diag_add(d, SCG_SEV_ERROR, SCG_LOC_NONE, "c",
				      scg_hint_text(SCG_HINT_MORE_TIME), "budget"), 0);
	assert_int_equal(scg_diag_add(d, SCG_SEV_ERROR, SCG_LOC_NONE, "c", "free text", "x"), 0);
	const struct scg_diag_entry *e = scg_diag_get(d, 0);
	assert_int_equal(e->hint_id, SCG_HINT_MORE_TIME);
	assert_string_equal(e->hint, scg_hint_text(SCG_HINT_MORE_TIME));
	assert_int_equal(scg_diag_get(d, 1)->hint_id, SCG_HINT_NONE);
	assert_int_equal(scg_diag_add(copy, e->severity, e->loc, e->code, e->hint, "%s", e->message),
			 0);
	assert_int_equal(scg_diag_get(copy, 0)->hint_id, SCG_HINT_MORE_TIME);
	/* the library's words name no command's flags */
	for (int h = 1; h <= SCG_HINTS; h++) {
		assert_non_null(scg_hint_text((enum scg_hint)h));
		assert_null(strstr(scg_hint_text((enum scg_hint)h), "--"));
	}
	assert_null(scg_hint_text(SCG_HINT_NONE));
	assert_null(scg_hint_text((enum scg_hint)(SCG_HINTS + 1)));
	scg_diag_free(d);
	scg_diag_free(copy);
}

static void assert_u64(const char *text, uint64_t want)
{
	uint64_t got = 0;
	assert_int_equal(scg_parse_u64(text, strlen(text), &got), 0);
	assert_true(got == want);
}

static void assert_u64_error(const char *text, int err)
{
	uint64_t got;
	assert_int_equal(scg_parse_u64(text, strlen(text), &got), err);
}

static void test_numbers(void **state)
{
	(void)state;
	assert_u64("0", 0);
	assert_u64("42", 42);
	assert_u64("0x7fff0000", 0x7fff0000);
	assert_u64("0XFF", 255);
	assert_u64("017", 15);
	assert_u64("0b101", 5);
	assert_u64("-1", UINT64_MAX);
	assert_u64("-0x80000000", 0xffffffff80000000ULL);
	assert_u64("18446744073709551615", UINT64_MAX);
	assert_u64("-9223372036854775808", 0x8000000000000000ULL);
	assert_u64_error("18446744073709551616", -ERANGE);
	assert_u64_error("-9223372036854775809", -ERANGE);
	assert_u64_error("", -EINVAL);
	assert_u64_error("-", -EINVAL);
	assert_u64_error("0x", -EINVAL);
	assert_u64_error("12a", -EINVAL);
	assert_u64_error("09", -EINVAL);

	uint32_t v;
	assert_int_equal(scg_parse_u32("0xffffffff", 10, &v), 0);
	assert_true(v == 0xffffffffU);
	assert_int_equal(scg_parse_u32("-1", 2, &v), 0);
	assert_true(v == 0xffffffffU);
	assert_int_equal(scg_parse_u32("-2147483648", 11, &v), 0);
	assert_true(v == 0x80000000U);
	assert_int_equal(scg_parse_u32("0x100000000", 11, &v), -ERANGE);
	assert_int_equal(scg_parse_u32("-2147483649", 11, &v), -ERANGE);
}

static void test_suggest(void **state)
{
	(void)state;
	assert_int_equal(edit_distance("opnat", "openat", 5), 1);
	assert_int_equal(edit_distance("oepnat", "openat", 5), 1); /* transposition */
	assert_int_equal(edit_distance("READ", "read", 5), 0);
	assert_int_equal(edit_distance("a", "abcdefgh", 2), 3); /* capped */

	struct suggest s;
	suggest_init(&s, "jqe");
	const char *words[] = { "jeq", "jne", "jset", "ld" };
	for (size_t i = 0; i < 4; i++)
		suggest_consider(&s, words[i]);
	assert_string_equal(suggest_result(&s), "jeq");

	suggest_init(&s, "completely_unrelated");
	for (size_t i = 0; i < 4; i++)
		suggest_consider(&s, words[i]);
	assert_null(suggest_result(&s));
}

static void test_strbuf(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 1000; i++)
		strbuf_appendf(&sb, "%d,", i);
	strbuf_append(&sb, "end");
	char *out;
	assert_int_equal(strbuf_finish(&sb, &out), 0);
	assert_true(strncmp(out, "0,1,2,", 6) == 0);
	assert_non_null(strstr(out, "999,end"));
	free(out);

	struct strbuf empty = STRBUF_INIT;
	assert_int_equal(strbuf_finish(&empty, &out), 0);
	assert_string_equal(out, "");
	free(out);
}

static void test_grow(void **state)
{
	(void)state;
	/* the first capacity, then doubling; enough already is left alone */
	assert_int_equal(grow_capacity(0, 1, 16, 8), 16);
	assert_int_equal(grow_capacity(16, 17, 16, 8), 32);
	assert_int_equal(grow_capacity(16, 100, 16, 8), 128);
	assert_int_equal(grow_capacity(16, 16, 4, 8), 16);
	assert_int_equal(grow_capacity(0, 1, 0, 8), 1);

	/* doubling past SIZE_MAX, and a capacity whose bytes do not fit */
	assert_int_equal(grow_capacity(SIZE_MAX / 2 + 1, SIZE_MAX / 2 + 2, 4, 1), 0);
	assert_int_equal(grow_capacity(0, SIZE_MAX, 4, 1), 0);
	assert_int_equal(grow_capacity(SIZE_MAX / 4, SIZE_MAX / 4 + 1, 4, 1), SIZE_MAX / 2 - 1);
	assert_int_equal(grow_capacity(SIZE_MAX / 4, SIZE_MAX / 4 + 1, 4, 2), SIZE_MAX / 2 - 1);
	assert_int_equal(grow_capacity(SIZE_MAX / 4, SIZE_MAX / 4 + 1, 4, 4), 0);
	assert_int_equal(grow_capacity(4, 5, 4, SIZE_MAX / 2), 0);

	uint64_t *v = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < 100; i++) {
		assert_int_equal(GROW_ARRAY(&v, &cap, i + 1, 4), 0);
		assert_true(cap >= i + 1);
		v[i] = i * 3;
	}
	assert_int_equal(cap, 128);

	/* a failed growth keeps the array, its contents and its capacity */
	uint64_t *before = v;
	assert_int_equal(GROW_ARRAY(&v, &cap, SIZE_MAX / 2, 4), -ENOMEM);
	assert_int_equal(GROW_ARRAY(&v, &cap, SIZE_MAX / 8 + 1, 4), -ENOMEM);
	assert_ptr_equal(v, before);
	assert_int_equal(cap, 128);
	assert_int_equal(RESIZE_ARRAY(&v, SIZE_MAX / 2), -ENOMEM);
	assert_ptr_equal(v, before);
	for (size_t i = 0; i < 100; i++)
		assert_true(v[i] == i * 3);

	/* exact sizes, and an empty array is still a valid allocation */
	assert_int_equal(RESIZE_ARRAY(&v, 100), 0);
	assert_true(v[99] == 99 * 3);
	assert_int_equal(RESIZE_ARRAY(&v, 0), 0);
	assert_non_null(v);
	free(v);
}

static void assert_json(const char *in, size_t len, const char *want)
{
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);
	assert_non_null(f);
	assert_int_equal(scg_json_write_string(f, in, len), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(out, want);
	free(out);
}
#define JSON(lit, want) assert_json((lit), sizeof(lit) - 1, (want))

static void test_json_string(void **state)
{
	(void)state;
	JSON("", "\"\"");
	assert_json(NULL, 0, "\"\"");
	JSON("read", "\"read\"");
	JSON("say \"hi\" \\ there", "\"say \\\"hi\\\" \\\\ there\"");
	JSON("a\nb\rc\td", "\"a\\nb\\rc\\td\"");
	JSON("\x01\x1f\x7f\b\f", "\"\\u0001\\u001f\\u007f\\u0008\\u000c\"");
	JSON("/etc/", "\"/etc/\"");
	/* a NUL inside the length is a character like any other */
	JSON("a\0b", "\"a\\u0000b\"");

	/* well-formed UTF-8 is copied: 2, 3 and 4 bytes, the highest code point */
	JSON("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf",
	     "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf\"");
	/* every byte that starts no well-formed sequence is one U+FFFD */
	JSON("\xff", "\"\\ufffd\"");
	JSON("a\x80z", "\"a\\ufffdz\"");
	JSON("\xc3", "\"\\ufffd\"");              /* cut short by the end */
	JSON("\xc3\"", "\"\\ufffd\\\"\"");        /* a lead byte never eats the quote */
	JSON("\xc0\xaf", "\"\\ufffd\\ufffd\"");   /* overlong '/' */
	JSON("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\""); /* overlong, three bytes */
	JSON("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""); /* a surrogate, U+D800 */
	JSON("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* past U+10FFFF */
	JSON("\xe2\x82", "\"\\ufffd\\ufffd\"");

	assert_int_equal(utf8_sequence((const unsigned char *)"\xe2\x82\xac", 3), 3);
	assert_int_equal(utf8_sequence((const unsigned char *)"\xe2\x82\xac", 2), 0);
	assert_int_equal(utf8_sequence((const unsigned char *)"x", 0), 0);
}

/* What scg_json_write_string() puts on a stream for @len bytes at @in. */
static void assert_json_stream(const char *in, size_t len, const char *want)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	assert_non_null(f);
	assert_int_equal(scg_json_write_string(f, in, len), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(size, strlen(want));
	assert_memory_equal(text, want, size);
	free(text);
}
#define JSON_STREAM(lit, want) assert_json_stream((lit), sizeof(lit) - 1, (want))

static void test_json_write_string(void **state)
{
	(void)state;
	JSON_STREAM("", "\"\"");
	assert_json_stream(NULL, 0, "\"\"");
	JSON_STREAM("say \"hi\" \\ there", "\"say \\\"hi\\\" \\\\ there\"");
	JSON_STREAM("a\nb\tc\rd\be\ff", "\"a\\nb\\tc\\rd\\u0008e\\u000cf\"");
	JSON_STREAM("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
	JSON_STREAM("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	JSON_STREAM("a\xffz\xc3\"", "\"a\\ufffdz\\ufffd\\\"\"");
	JSON_STREAM("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""); /* a surrogate */
	/* the length is the caller's: a NUL inside it is written, the rest not read */
	JSON_STREAM("a\0b", "\"a\\u0000b\"");
	assert_json_stream("abc", 2, "\"ab\"");

	assert_int_equal(scg_json_write_string(NULL, "x", 1), -EINVAL);
	assert_int_equal(scg_json_write_string(stdout, NULL, 1), -EINVAL);

	/* a stream that refuses the write: its errno comes back */
	char buf[8] = "";
	FILE *ro = fmemopen(buf, sizeof(buf), "r");
	assert_non_null(ro);
	assert_int_equal(scg_json_write_string(ro, "x", 1), -EBADF);
	assert_true(ferror(ro));
	assert_int_equal(fclose(ro), 0);
	/* a one-byte buffer, unbuffered: the literal does not fit */
	FILE *full = fmemopen(buf, 1, "w");
	assert_non_null(full);
	assert_int_equal(setvbuf(full, NULL, _IONBF, 0), 0);
	assert_int_equal(scg_json_write_string(full, "\"x\"", 3), -ENOSPC);
	(void)fclose(full);
}

static void assert_ret_text(uint32_t ret, const char *want)
{
	char buf[64];
	scg_ret_format(ret, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_actions(void **state)
{
	(void)state;
	assert_ret_text(SCG_RET_ALLOW, "ALLOW");
	assert_ret_text(SCG_RET_ALLOW | 0x1234, "ALLOW"); /* data is ignored */
	assert_ret_text(SCG_RET_ERRNO | 1, "ERRNO(1)");
	assert_ret_text(SCG_RET_TRAP | 3, "TRAP(3)");
	assert_ret_text(SCG_RET_TRACE | 7, "TRACE(7)");
	assert_ret_text(SCG_RET_KILL_PROCESS, "KILL_PROCESS");
	assert_ret_text(SCG_RET_KILL_THREAD, "KILL_THREAD");
	assert_ret_text(SCG_RET_LOG, "LOG");
	assert_ret_text(SCG_RET_USER_NOTIF, "USER_NOTIF");
	assert_ret_text(0x7ffe0000, "UNKNOWN(0x7ffe0000)");
	assert_int_equal(scg_action_of(0x10000000), SCG_ACTION_UNKNOWN);

	uint32_t r;
	assert_int_equal(scg_ret_parse("ALLOW", NULL, &r), 0);
	assert_true(r == SCG_RET_ALLOW);
	assert_int_equal(scg_ret_parse("errno(EPERM)", NULL, &r), 0);
	assert_true(r == (SCG_RET_ERRNO | 1));
	assert_int_equal(scg_ret_parse("ERRNO(4095)", NULL, &r), 0);
	assert_true(r == (SCG_RET_ERRNO | 4095));
	assert_int_equal(scg_ret_parse("TRAP(0x10)", NULL, &r), 0);
	assert_true(r == (SCG_RET_TRAP | 16));
	assert_int_equal(scg_ret_parse("KILL", NULL, &r), 0);
	assert_true(r == SCG_RET_KILL_THREAD);
	assert_int_equal(scg_ret_parse("kill_process", NULL, &r), 0);
	assert_true(r == SCG_RET_KILL_PROCESS);
	assert_int_equal(scg_ret_parse("ERRNO(70000)", NULL, &r), -EINVAL);
	assert_int_equal(scg_ret_parse("ALLOW(1)", NULL, &r), -EINVAL);
	assert_int_equal(scg_ret_parse("ERRNO(ENOPE)", NULL, &r), -EINVAL);
	assert_int_equal(scg_ret_parse("ALOW", NULL, &r), -EINVAL);
	assert_int_equal(scg_ret_parse("ERRNO(1", NULL, &r), -EINVAL);
}

static void test_raw_programs(void **state)
{
	(void)state;
	struct scg_diag *d = scg_diag_new();
	struct scg_prog p;
	unsigned char bytes[16] = { 0x06, 0, 0, 0, 0, 0, 0xff, 0x7f };
	assert_int_equal(scg_prog_from_raw(bytes, 8, "f.bpf", &p, d), 0);
	assert_int_equal(p.len, 1);
	assert_int_equal(p.insns[0].code, 0x06);
	assert_true(p.insns[0].k == SCG_RET_ALLOW);
	scg_prog_release(&p);
	assert_null(p.insns);

	assert_int_equal(scg_prog_from_raw(bytes, 0, "f.bpf", &p, d), -EINVAL);
	assert_int_equal(scg_prog_from_raw(bytes, 12, "f.bpf", &p, d), -EINVAL);
	assert_non_null(strstr(scg_diag_get(d, 1)->message, "not a multiple of 8"));
	assert_string_equal(scg_diag_get(d, 1)->loc.file, "f.bpf");

	size_t big = (SCG_BPF_MAXINSNS + 1) * 8;
	unsigned char *many = calloc(1, big);
	assert_int_equal(scg_prog_from_raw(many, big, "big", &p, d), -EINVAL);
	assert_int_equal(scg_prog_from_raw(many, big - 8, "max", &p, d), 0);
	assert_int_equal(p.len, SCG_BPF_MAXINSNS);
	struct scg_prog copy;
	assert_int_equal(scg_prog_copy(&copy, &p), 0);
	assert_memory_equal(copy.insns, p.insns, big - 8);
	scg_prog_release(&copy);
	scg_prog_release(&p);
	free(many);
	scg_diag_free(d);
}

/* Options structs as a program built against an older or a newer header passes them. */
static void test_options_sizes(void **state)
{
	(void)state;
	const char *text = "ret ALLOW\n";
	struct scg_prog prog;
	/* today's header */
	SCG_OPTS(scg_asm_options, now, .filename = "now.s");
	assert_int_equal(now.sz, sizeof(struct scg_asm_options));
	assert_int_equal(scg_asm(text, strlen(text), &now, &prog, NULL), 0);
	scg_prog_release(&prog);
	/* sz 0: a struct initialised without SCG_OPTS reads as the first layout */
	struct scg_asm_options zero = { .filename = "zero.s" };
	assert_int_equal(scg_asm(text, strlen(text), &zero, &prog, NULL), 0);
	scg_prog_release(&prog);

	/* a newer header: fields this library does not know, left zero, or set */
	struct {
		struct scg_asm_options known;
		uint64_t later;
	} newer = { .known = { .sz = sizeof(newer) } };
	assert_int_equal(scg_asm(text, strlen(text), &newer.known, &prog, NULL), 0);
	scg_prog_release(&prog);
	newer.later = 1;
	assert_int_equal(scg_asm(text, strlen(text), &newer.known, &prog, NULL), -EINVAL);
	struct scg_diag *diag = scg_diag_new();
	SCG_OPTS(scg_compile_options, copts);
	struct scg_policy *p = scg_policy_new();
	assert_int_equal(scg_policy_add_arch(p, scg_arch_lookup("x86_64")), 0);
	struct {
		struct scg_compile_options known;
		char later[3];
	} cnewer;
	memset(&cnewer, 0, sizeof(cnewer)); /* padding included: it is read as fields */
	cnewer.known = copts;
	cnewer.known.sz = sizeof(cnewer);
	assert_int_equal(scg_compile(p, &cnewer.known, &prog, diag), 0);
	scg_prog_release(&prog);
	cnewer.later[2] = 7;
	assert_int_equal(scg_compile(p, &cnewer.known, &prog, diag), -EINVAL);
	scg_policy_free(p);
	scg_diag_free(diag);

	/* an sz too small to hold sz itself */
	struct scg_asm_options tiny = { .sz = 3 };
	assert_int_equal(scg_asm(text, strlen(text), &tiny, &prog, NULL), -EINVAL);

	/* an older header: the fields past its sz read as zero */
	struct scg_policy_source_options full = { .sz = sizeof(full), .filename = "x" };
	struct scg_policy_source_options got;
	assert_int_equal(opts_load(&got, sizeof(got), &full, sizeof(full)), 0);
	assert_string_equal(got.filename, "x");
	struct scg_policy_source_options older = {
		.sz = offsetof(struct scg_policy_source_options, filename),
		.filename = "ignored",
	};
	assert_int_equal(opts_load(&got, sizeof(got), &older, sizeof(older)), 0);
	assert_null(got.filename);
	assert_int_equal(got.sz, sizeof(got));
	assert_int_equal(opts_load(&got, sizeof(got), NULL, sizeof(got)), 0);
	assert_null(got.filename);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diag_format), cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_suggest),     cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_grow),        cmocka_unit_test(test_diag_hints),
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_hashmap_ints),
		cmocka_unit_test(test_json_writer_layouts),
		cmocka_unit_test(test_json_writer_misuse),
		cmocka_unit_test(test_json_writer_compact),
		cmocka_unit_test(test_scan_moves),
		cmocka_unit_test(test_scan_characters),
		cmocka_unit_test(test_hashmap_shared_hashes),
		cmocka_unit_test(test_json_write_string),
		cmocka_unit_test(test_options_sizes),
		cmocka_unit_test(test_actions),     cmocka_unit_test(test_raw_programs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
