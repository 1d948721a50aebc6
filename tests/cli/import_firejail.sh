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

printf 'seccomp\nprotocol unix,ipx\n' >"$TMP/bad.profile"
expect_status 2 "a protocol firejail does not know is an error" -- "$SYSCAGE" compile "$TMP/bad.profile"
expect_grep "$TMP/err" "bad\.profile:2:15: error: 'ipx' is not a protocol firejail knows" \
	"the error has file:line:column"

# include: beside the including file, a missing *.local skipped, cycles refused
mkdir -p "$TMP/inc"
printf 'include app.inc\ninclude globals.local\nseccomp.drop ptrace\n' >"$TMP/inc/top.profile"
printf '# the included file\nmemory-deny-write-execute\nprotocol unix\n' >"$TMP/inc/app.inc"
expect_status 0 "an included profile counts" -- "$SYSCAGE" compile -o "$TMP/inc.bpf" "$TMP/inc/top.profile"
expect_emu "socket(AF_INET) gets EOPNOTSUPP from the included protocol" "ERRNO(95)" -- \
	-f "$TMP/inc.bpf" socket 2 1 0
expect_emu "socket(AF_UNIX) is allowed" "ALLOW" -- -f "$TMP/inc.bpf" socket 1 1 0
expect_emu "memfd_create is refused by the included W^X line" "ERRNO(1)" -- -f "$TMP/inc.bpf" memfd_create
printf 'include b.inc\n' >"$TMP/inc/a.inc"
printf 'seccomp\ninclude a.inc\n' >"$TMP/inc/b.inc"
expect_status 2 "an include cycle is an error" -- "$SYSCAGE" compile "$TMP/inc/a.inc"
expect_grep "$TMP/err" "b\.inc:2:9: error: include cycle" "at the include line of the included file"

printf 'restrict-namespaces user,net\nseccomp.keep read,wirte\n' >"$TMP/ns.profile"
expect_status 0 "a keep list with an unknown name compiles" -- "$SYSCAGE" compile -o "$TMP/ns.bpf" "$TMP/ns.profile"
expect_grep "$TMP/err" "ns\.profile:2:19: warning: unknown syscall 'wirte'" "the unknown name is a warning at its column"
expect_emu "unshare(CLONE_NEWUSER) is refused" "ERRNO(1)" -- -f "$TMP/ns.bpf" unshare 0x10000000
# the namespace filter's ENOSYS for clone3 loses to the keep filter's EPERM: firejail
# installs the keep filter after it, and among errnos the newest filter's counts
expect_emu "clone3 gets the newer keep filter's EPERM" "ERRNO(1)" -- -f "$TMP/ns.bpf" clone3
expect_emu "a call off the keep list is refused" "ERRNO(1)" -- -f "$TMP/ns.bpf" getpid
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

# More of fseccomp's filters, each fused with the filters firejail loads beside it, against the
# import: same_as_fseccomp NAME PROFILE-TEXT [ARCH] -- FILTER... (oldest first)
same_as_fseccomp() {
	local name=$1 text=$2 arch=${3:+-a $3} args=()
	shift 4 # NAME TEXT ARCH --
	for f in "$@"; do args+=(-f "$f"); done
	printf '%s\n' "$text" >"$TMP/$name.profile"
	"$SYSCAGE" fuse "${args[@]}" -o "$TMP/$name.fused.bpf" >/dev/null 2>&1
	# shellcheck disable=SC2086
	expect_status 0 "fseccomp: $name equals the import${arch:+ ($arch)}" -- \
		"$SYSCAGE" diff $arch "$TMP/$name.fused.bpf" "$TMP/$name.profile"
}
FJCASES=(keep protocol-x86_64 protocol-x86 namespaces default-list drop32 keep32 block-secondary mdwx)
if have_feature firejail; then
	F="$FJ/fseccomp"
	"$F" keep "$TMP/k.bpf" "$TMP/kp.bpf" 'read,write,!close,open:EACCES,@clock' >/dev/null 2>&1
	same_as_fseccomp keep 'seccomp.keep read,write,!close,open:EACCES,@clock' "" -- "$TMP/k.bpf"
	"$F" protocol build unix,inet6,netlink "$TMP/p.bpf"
	# the protocol filter also looks at number 359 of ABIs an x86_64 kernel never runs
	same_as_fseccomp protocol-x86_64 'protocol unix,inet6,netlink' x86_64 -- "$TMP/p.bpf"
	same_as_fseccomp protocol-x86 'protocol unix,inet6,netlink' x86 -- "$TMP/p.bpf"
	"$F" restrict-namespaces "$TMP/n.bpf" user,net,time
	"$F" restrict-namespaces.32 "$TMP/n32.bpf" user,net,time
	same_as_fseccomp namespaces 'restrict-namespaces user,net,time' "" -- "$TMP/n32.bpf" "$TMP/n.bpf"
	"$F" default drop "$TMP/d.bpf" "$TMP/dp.bpf" 'ptrace,!mount,chmod:EACCES' >/dev/null 2>&1
	same_as_fseccomp default-list 'seccomp ptrace,!mount,chmod:EACCES' "" -- "$TMP/d.bpf" "$FJ/seccomp.32"
	# firejail 0.9.72 installs its i386 default list for seccomp.32.drop (measured), not drop32's
	same_as_fseccomp drop32 'seccomp.32.drop ptrace,chmod:EACCES' "" -- "$FJ/seccomp.32"
	"$F" keep32 "$TMP/k32.bpf" "$TMP/k32p.bpf" 'read,write,exit_group,!close' >/dev/null 2>&1
	same_as_fseccomp keep32 'seccomp.32.keep read,write,exit_group,!close' "" -- "$TMP/k32.bpf"
	same_as_fseccomp block-secondary 'seccomp.block-secondary' "" -- "$FJ/seccomp" "$FJ/seccomp.block_secondary"
	same_as_fseccomp mdwx 'memory-deny-write-execute' "" -- "$FJ/seccomp.mdwx.32" "$FJ/seccomp.mdwx"
else
	for c in "${FJCASES[@]}"; do
		skip_feature firejail "fseccomp: $c equals the import"
	done
fi

echo "1..$n"
