#!/usr/bin/env bash
# libsyscage as others see it: exported symbols, dependencies, and a program
# written against the public headers only.
. "$(dirname "$0")/../cli_lib.bash"
BUILD=${BUILD:-build}
LIB=$BUILD/libsyscage.so.0

# Symbols carry the version node of lib/libsyscage.map; the node itself is an absolute symbol.
if nm -D --defined-only "$LIB" | awk '$2 != "A" {print $3}' | grep -v '^scg_' >"$TMP/foreign"; then
	not_ok "only scg_* symbols are exported" "$(head "$TMP/foreign")"
else
	ok "only scg_* symbols are exported"
fi
if nm -D --defined-only --with-symbol-versions "$LIB" | awk '$2 != "A" {print $3}' |
	grep -v '@@SYSCAGE_0\.1$' >"$TMP/unversioned"; then
	not_ok "every symbol is versioned SYSCAGE_0.1" "$(head "$TMP/unversioned")"
else
	ok "every symbol is versioned SYSCAGE_0.1"
fi
real=$(readlink -f "$LIB")
if [ "${real##*/}" = "libsyscage.so.$(sed -n "s/^  version: '\(.*\)',/\1/p" meson.build)" ]; then
	ok "the file name carries the full version"
else
	not_ok "the file name carries the full version" "$real"
fi
pc=$BUILD/meson-private/libsyscage.pc
if [ -f "$pc" ] && PKG_CONFIG_PATH=$BUILD/meson-private pkg-config --libs libsyscage | grep -q -- -lsyscage; then
	ok "pkg-config file"
else
	not_ok "pkg-config file" "$pc"
fi

# In the sanitizer build (SYSCAGE_SAN_FLAGS set) the sanitizer runtimes come along, and the
# program below must be built with the same flags.
san=${SYSCAGE_SAN_FLAGS:-}
# The core library needs libc and nothing else.
deps=$(readelf -d "$LIB" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
[ -n "$san" ] && deps=$(tr ' ' '\n' <<<"$deps" | grep -Ev '^lib(a|ub)san\.so' | tr '\n' ' ' | sed 's/ *$/ /')
if [ "$deps" = "libc.so.6 " ]; then ok "depends on libc only"; else not_ok "depends on libc only" "NEEDED: $deps"; fi

if readelf -d "$LIB" | grep -q 'SONAME.*libsyscage.so.0'; then ok "soname"; else not_ok "soname"; fi

cat >"$TMP/user.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <syscage/syscage.h>

int main(void)
{
	const char *text = "ld [nr]\njeq #getpid, deny\nret ALLOW\ndeny: ret ERRNO(EPERM)\n";
	struct scg_asm_options opts = { .filename = "user.s" };
	struct scg_diag *diag = scg_diag_new();
	struct scg_prog prog;
	if (scg_asm(text, strlen(text), &opts, &prog, diag) != 0)
		return 1;
	struct scg_verify_result res;
	if (scg_verify(&prog, NULL, &res, diag) != 0 || !res.accepted)
		return 2;
	uint32_t nr;
	if (scg_syscall_lookup(scg_arch_native(), "getpid", &nr) != 0)
		return 3;
	struct scg_seccomp_data data = { .nr = nr, .arch = scg_arch_audit(scg_arch_native()) };
	struct scg_emu_result out;
	if (scg_emu_stack(&prog, 1, &data, &out, NULL, NULL, NULL) != 0)
		return 4;
	char text_out[32];
	scg_emu_result_format(&out, text_out, sizeof(text_out));
	printf("%s\n", text_out);
	scg_prog_release(&prog);
	scg_diag_free(diag);
	return 0;
}
C
# shellcheck disable=SC2086 # $san is a list of flags
if cc -std=c11 -Wall -Werror $san -Iinclude -o "$TMP/user" "$TMP/user.c" -L"$BUILD" -lsyscage 2>"$TMP/cc.err"; then
	ok "a program using only public headers builds against the shared library"
	out=$(LD_LIBRARY_PATH=$BUILD "$TMP/user")
	if [ "$out" = "ERRNO(1)" ]; then ok "and runs"; else not_ok "and runs" "got: $out"; fi
else
	not_ok "a program using only public headers builds against the shared library" "$(head -5 "$TMP/cc.err")"
fi

# The installed archive is one prelinked object with the internals made local: a program
# linking it statically sees the public API only, so a function of its own that shares an
# internal's name (tree_build, arena_alloc) is no duplicate definition.
cat >"$TMP/names.c" <<'C'
int tree_build(void);
int arena_alloc(void);
int tree_build(void) { return 0; }
int arena_alloc(void) { return 0; }
C
# shellcheck disable=SC2086 # $san is a list of flags
if cc -std=c11 -Wall -Werror $san -Iinclude -o "$TMP/user-static" "$TMP/user.c" "$TMP/names.c" \
	"$BUILD/libsyscage.a" 2>"$TMP/cc-static.err"; then
	ok "a program with functions named like the library's internals links libsyscage.a"
	out=$("$TMP/user-static")
	if [ "$out" = "ERRNO(1)" ]; then ok "and runs"; else not_ok "and runs" "got: $out"; fi
else
	not_ok "a program with functions named like the library's internals links libsyscage.a" \
		"$(head -5 "$TMP/cc-static.err")"
fi
