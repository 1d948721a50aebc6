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

# The side libraries' archives call libsyscage's diagnostics rather than carry a copy, so a
# program links libsyscage-oci.a and libsyscage.a together without duplicate definitions.
if [ -f "$BUILD/libsyscage-oci.a" ]; then
	cat >"$TMP/oci-user.c" <<'C'
#include <syscage/oci.h>
#include <syscage/syscage.h>

int main(void)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_oci_options o;
	scg_oci_options_init(&o);
	struct scg_policy *p = NULL;
	int r = scg_oci_import("{}", 2, &o, &p, diag);
	scg_policy_free(p);
	scg_diag_free(diag);
	return r == 0 ? 0 : 1;
}
C
	# shellcheck disable=SC2086 # $san is a list of flags
	if cc -std=c11 -Wall -Werror $san -Iinclude -o "$TMP/oci-static" "$TMP/oci-user.c" \
		"$BUILD/libsyscage-oci.a" "$BUILD/libsyscage.a" -ljson-c 2>"$TMP/cc-oci.err"; then
		ok "a program links libsyscage-oci.a with libsyscage.a"
	else
		not_ok "a program links libsyscage-oci.a with libsyscage.a" "$(head -5 "$TMP/cc-oci.err")"
	fi
else
	skip_feature oci "a program links libsyscage-oci.a with libsyscage.a"
fi

# examples/decompile.c: any input format loaded and decompiled through the libraries alone;
# its policy for a filter is the one `syscage decompile` writes.
EXAMPLE=$BUILD/examples/decompile
if [ -x "$EXAMPLE" ]; then
	twice_filter >"$TMP/twice.s"
	"$SYSCAGE" asm "$TMP/twice.s" -o "$TMP/twice.bpf"
	printf 'arch x86_64\ndefault allow\nerrno(EPERM) ptrace\n' >"$TMP/small.policy"
	printf '[Service]\nSystemCallFilter=~@mount\n' >"$TMP/unit.service"
	printf 'read: 1\nwrite: 1\nexit_group: 1\n' >"$TMP/app-seccomp.policy"
	printf 'POLICY p {\n  ALLOW { read, write }\n}\nUSE p DEFAULT KILL\n' >"$TMP/p.kafel"
	printf '%s\n' 'apiVersion: security-profiles-operator.x-k8s.io/v1beta1' 'kind: SeccompProfile' \
		'spec:' '  defaultAction: SCMP_ACT_ERRNO' '  syscalls:' '  - action: SCMP_ACT_ALLOW' \
		'    names:' '    - read' >"$TMP/p.yaml"
	for input in twice.bpf:raw twice.s:asm small.policy:policy unit.service:systemd \
		app-seccomp.policy:minijail p.kafel:kafel p.yaml:k8s; do
		file=$TMP/${input%%:*} format=${input##*:}
		expect_status 0 "examples/decompile reads $format" -- env LD_LIBRARY_PATH="$BUILD" \
			"$EXAMPLE" "$file"
		expect_grep "$TMP/out" "^# .*, read as $format$" "examples/decompile: $format told by the content"
	done
	for input in tests/data/docker-default.json:oci tests/data/firejail/drop.profile:firejail; do
		expect_status 0 "examples/decompile reads ${input##*:}" -- env LD_LIBRARY_PATH="$BUILD" \
			"$EXAMPLE" "${input%%:*}"
		expect_grep "$TMP/out" "read as ${input##*:}$" "examples/decompile: ${input##*:} told by the content"
	done
	LD_LIBRARY_PATH=$BUILD "$EXAMPLE" "$TMP/twice.bpf" 2>/dev/null | grep -v '^#' >"$TMP/ex.policy"
	"$SYSCAGE" decompile "$TMP/twice.bpf" 2>/dev/null | grep -v '^#' >"$TMP/cli.policy"
	if [ -s "$TMP/ex.policy" ] && diff "$TMP/ex.policy" "$TMP/cli.policy" >"$TMP/diff"; then
		ok "examples/decompile and syscage decompile write the same policy"
	else
		not_ok "examples/decompile and syscage decompile write the same policy" "$(head -c 600 "$TMP/diff")"
	fi
	printf 'arch x86_64\ndefault allow\nerrno(EPERM) no_such_call\n' >"$TMP/bad.policy"
	expect_status 1 "examples/decompile refuses bad input" -- env LD_LIBRARY_PATH="$BUILD" \
		"$EXAMPLE" "$TMP/bad.policy"
	expect_grep "$TMP/err" "bad.policy:3:[0-9]+: error: " "examples/decompile: file:line:column"
else
	for check in "examples/decompile reads every format" "examples/decompile refuses bad input"; do
		skip_feature analysis "$check"
	done
fi

echo "1..$n"
