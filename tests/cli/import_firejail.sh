#!/usr/bin/env bash
# firejail options through the CLI: a profile and a command line compiled,
# errors with file:line:column, and the import proven equal with `syscage
# diff` to the filter firejail's own compiler (fseccomp) writes.
. "$(dirname "$0")/../cli_lib.bash"
FJ=${FIREJAIL_LIBDIR:-/usr/lib/x86_64-linux-gnu/firejail}

cat >"$TMP/app.profile" <<'PROFILE'
# a profile as firejail reads it: one option a line, no leading --
caps.drop all
seccomp.drop ptrace,mount,@clock
seccomp-error-action EACCES
PROFILE
expect_status 0 "compile a firejail profile" -- "$SYSCAGE" compile -o "$TMP/app.bpf" "$TMP/app.profile"
expect_emu "ptrace gets the error action" "ERRNO(13)" -- -f "$TMP/app.bpf" ptrace
expect_emu "a @clock call too" "ERRNO(13)" -- -f "$TMP/app.bpf" settimeofday
expect_emu "read is allowed" "ALLOW" -- -f "$TMP/app.bpf" read
expect_emu "x32 calls get the error action" "ERRNO(13)" -- -a x32 -f "$TMP/app.bpf" read
expect_emu "i386 is left alone by seccomp.drop" "ALLOW" -- -a x86 -f "$TMP/app.bpf" ptrace

printf -- '--seccomp.drop=ptrace,mount,@clock --seccomp-error-action=EACCES\n' >"$TMP/cmdline.txt"
expect_status 0 "a command line, told by its content" -- "$SYSCAGE" compile -o "$TMP/cmdline.bpf" \
	"$TMP/cmdline.txt"
expect_status 0 "the same filter as the profile's" -- "$SYSCAGE" diff "$TMP/app.bpf" "$TMP/cmdline.bpf"

printf 'seccomp\nprotocol unix,inet\n' >"$TMP/bad.profile"
expect_status 2 "an option not read yet is an error" -- "$SYSCAGE" compile "$TMP/bad.profile"
expect_grep "$TMP/err" "bad\.profile:2:1: error: firejail's 'protocol' is not supported yet" \
	"the error has file:line:column"
printf 'seccomp.drop ptrace,@clok\n' >"$TMP/group.profile"
expect_status 2 "an unknown group is an error, as in firejail" -- "$SYSCAGE" compile "$TMP/group.profile"
expect_grep "$TMP/err" "group\.profile:1:21: error: unknown group '@clok'" "at the group's column"

# firejail's own compiler: its drop filter for the same list, proven equal
if have_feature firejail; then
	"$FJ/fseccomp" drop "$TMP/fj.bpf" "$TMP/fj-post.bpf" ptrace,mount,@clock,@obsolete >/dev/null 2>&1
	printf 'seccomp.drop ptrace,mount,@clock,@obsolete\n' >"$TMP/same.profile"
	expect_status 0 "fseccomp's drop filter equals the import" -- \
		"$SYSCAGE" diff "$TMP/fj.bpf" "$TMP/same.profile"
	expect_grep "$TMP/out" "^equivalent" "diff proves it"
	printf 'seccomp.drop ptrace,mount\n' >"$TMP/less.profile"
	expect_status 1 "a shorter list differs" -- "$SYSCAGE" diff "$TMP/fj.bpf" "$TMP/less.profile"
else
	skip_feature firejail "fseccomp's drop filter equals the import"
	skip_feature firejail "diff proves it"
	skip_feature firejail "a shorter list differs"
fi

echo "1..$n"
