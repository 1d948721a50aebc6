#!/usr/bin/env bash
# OCI / Docker JSON through the CLI: import (compile a *.json profile, then
# emulate), export (compile --format oci), the round trip, the built-in
# docker-default and default profiles, and errors with file:line:column.
. "$(dirname "$0")/../cli_lib.bash"

DATA=$(cd "$(dirname "$0")/../data" && pwd)
DOCKER=$DATA/docker-default.json

# expect_emu NAME WANT -- EMU ARGS...: `syscage emu` prints WANT.
expect_emu() {
	local name=$1 want=$2
	shift 3
	"$SYSCAGE" emu "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$? got
	got=$(head -n 1 "$TMP/out")
	if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then ok "$name"; else
		not_ok "$name" "exit $rc, got '$got', wanted '$want'" "stderr: $(head -c 300 "$TMP/err")"
	fi
}

# Docker's profile, imported: verdicts on x86_64 and x86 through the compiled filter
expect_status 0 "compile Docker's profile" -- "$SYSCAGE" compile --arch x86_64,x86,x32 \
	-o "$TMP/docker.bpf" "$DOCKER"
expect_emu "read is allowed" "ALLOW" -- -f "$TMP/docker.bpf" read
expect_emu "mount is EPERM" "ERRNO(1)" -- -f "$TMP/docker.bpf" mount
expect_emu "clone3 is ENOSYS" "ERRNO(38)" -- -f "$TMP/docker.bpf" clone3
expect_emu "socket(AF_VSOCK) is EPERM" "ERRNO(1)" -- -f "$TMP/docker.bpf" socket 40
expect_emu "socket(AF_INET) is allowed" "ALLOW" -- -f "$TMP/docker.bpf" socket 2
expect_emu "clone(CLONE_NEWUSER) is EPERM" "ERRNO(1)" -- -f "$TMP/docker.bpf" clone 0x10000000
expect_emu "a syscall newer than the profile is ENOSYS" "ERRNO(38)" -- -f "$TMP/docker.bpf" file_getattr
expect_emu "socketcall on x86 is allowed" "ALLOW" -- -a x86 -f "$TMP/docker.bpf" socketcall 1

# export, and the exported JSON back
expect_status 0 "export Docker's profile as OCI JSON" -- "$SYSCAGE" compile --format oci \
	-o "$TMP/docker-out.json" "$DOCKER"
expect_grep "$TMP/docker-out.json" '"SCMP_CMP_MASKED_EQ"' "the clone rule survives the export"
expect_grep "$TMP/docker-out.json" '"defaultErrnoRet":1' "defaultErrnoRet is written"
expect_status 0 "compile the exported JSON" -- "$SYSCAGE" compile --arch x86_64,x86,x32 \
	-o "$TMP/again.bpf" "$TMP/docker-out.json"
expect_emu "the round trip keeps socket(AF_VSOCK) denied" "ERRNO(1)" -- -f "$TMP/again.bpf" socket 40
expect_emu "the round trip keeps personality(0xffffffff)" "ALLOW" -- -f "$TMP/again.bpf" personality 0xffffffff
expect_emu "the round trip keeps ENOSYS above the profile" "ERRNO(38)" -- -f "$TMP/again.bpf" file_getattr

# a policy exported and imported
cat >"$TMP/small.policy" <<'POLICY'
arch x86_64
default kill
allow read, write, exit_group
errno(EBADF) close if arg0.lo <= 2
allow close
POLICY
# (its rule for close is not the unconditional allow an OCI runtime needs: exported as is)
expect_status 0 "export a policy" -- "$SYSCAGE" compile --format oci --no-runtime-calls \
	-o "$TMP/small.json" "$TMP/small.policy"
expect_grep "$TMP/err" "bad-architecture" "the export warns about the bad-architecture action"
expect_status 0 "compile the exported policy" -- "$SYSCAGE" compile -o "$TMP/small.bpf" "$TMP/small.json"
expect_emu "close(1) fails with EBADF" "ERRNO(9)" -- -f "$TMP/small.bpf" close 1
expect_emu "close(7) is allowed" "ALLOW" -- -f "$TMP/small.bpf" close 7
expect_emu "close with garbage above bit 31 still fails" "ERRNO(9)" -- -f "$TMP/small.bpf" close 0x500000001

# the runtime's start calls: refused where a rule restricts one, added where the default
# would stop it, left out with --no-runtime-calls
expect_status 2 "an export that would stop the runtime is refused" -- \
	"$SYSCAGE" compile --format oci -o "$TMP/refused.json" "$TMP/small.policy"
expect_grep "$TMP/err" "small.policy:4:14: error: the policy's rule for close does not allow it whatever its arguments" \
	"the refusal points at the rule and names the call"
expect_grep "$TMP/err" "hint: allow it whole, or export with --no-runtime-calls" "the refusal says how out"
if [ -e "$TMP/refused.json" ]; then not_ok "no output file after the refusal"; else ok "no output file after the refusal"; fi
printf 'arch x86_64\ndefault kill\nallow read, write, exit_group\n' >"$TMP/tiny.policy"
for fmt in oci k8s; do
	expect_status 0 "--format $fmt: the runtime's start calls are added" -- \
		"$SYSCAGE" compile --format $fmt -o "$TMP/tiny.$fmt" "$TMP/tiny.policy"
	expect_grep "$TMP/err" "^note: allowed for the OCI runtime, which makes them before the program starts: execve, execveat, openat, close" \
		"--format $fmt: the note names them"
done
expect_grep "$TMP/tiny.oci" '"execve"' "the export allows execve"
"$SYSCAGE" compile --format oci --no-runtime-calls -o "$TMP/tiny-bare.oci" "$TMP/tiny.policy" 2>"$TMP/err"
if grep -q '"execve"' "$TMP/tiny-bare.oci"; then not_ok "--no-runtime-calls: execve left out"; else ok "--no-runtime-calls: execve left out"; fi
expect_status 2 "--no-runtime-calls without oci or k8s" -- "$SYSCAGE" compile --no-runtime-calls "$TMP/tiny.policy"
expect_grep "$TMP/err" "goes with --format oci or k8s" "--no-runtime-calls: says what it goes with"

# the built-in profiles
expect_status 0 "compile the built-in docker-default" -- "$SYSCAGE" compile -o "$TMP/dd.bpf" docker-default
expect_emu "docker-default allows read" "ALLOW" -- -f "$TMP/dd.bpf" read
expect_status 0 "compile the built-in default" -- "$SYSCAGE" compile -o "$TMP/def.bpf" default
expect_emu "default denies ptrace" "ERRNO(1)" -- -f "$TMP/def.bpf" ptrace
expect_emu "default denies io_uring with ENOSYS" "ERRNO(38)" -- -f "$TMP/def.bpf" io_uring_setup
expect_emu "default allows read" "ALLOW" -- -f "$TMP/def.bpf" read

# errors: file:line:column, a hint, exit status 2
cat >"$TMP/bad.json" <<'JSON'
{
  "defaultAction": "SCMP_ACT_ERRNO",
  "syscalls": [
    {"names": ["read"], "action": "SCMP_ACT_ALOW"}
  ]
}
JSON
expect_status 2 "a profile with an unknown action" -- "$SYSCAGE" compile "$TMP/bad.json"
expect_grep "$TMP/err" "bad.json:4:35: error: syscalls\[0\]\.action: unknown action 'SCMP_ACT_ALOW'" \
	"the error has file:line:column and the JSON path"
expect_grep "$TMP/err" "did you mean 'SCMP_ACT_ALLOW'" "the error has a hint"
# libseccomp 2.5 never returns from adding the third rule: its a1 chain is reached through both
# words of a0's range, and a level of its rule tree ends up looping on itself
cat >"$TMP/loop.json" <<'JSON'
{
  "defaultAction": "SCMP_ACT_ALLOW",
  "architectures": ["SCMP_ARCH_X86_64"],
  "syscalls": [
    {"names": ["close"], "action": "SCMP_ACT_ERRNO", "errnoRet": 2,
     "args": [{"index": 0, "value": 0, "op": "SCMP_CMP_GE"},
              {"index": 1, "value": 8589934593, "op": "SCMP_CMP_GT"}]},
    {"names": ["close"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1,
     "args": [{"index": 0, "value": 4294967295, "op": "SCMP_CMP_LT"},
              {"index": 1, "value": 4294967298, "op": "SCMP_CMP_LE"}]},
    {"names": ["close"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1,
     "args": [{"index": 0, "value": 0, "op": "SCMP_CMP_GE"},
              {"index": 1, "value": 8589934593, "op": "SCMP_CMP_EQ"}]}
  ]
}
JSON
expect_status 2 "a profile libseccomp never finishes loading is refused" -- \
	"$SYSCAGE" compile -o "$TMP/loop.bpf" "$TMP/loop.json"
expect_grep "$TMP/err" "loop.json:11:5: error: on x86_64, 'close' has a rule that libseccomp 2.5 never finishes adding" \
	"the refusal names the rule, with its place"
if [ ! -e "$TMP/loop.bpf" ]; then ok "no filter written for it"; else not_ok "no filter written for it"; fi
printf '{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [' >"$TMP/cut.json"
expect_status 2 "a truncated profile" -- "$SYSCAGE" compile "$TMP/cut.json"
expect_grep "$TMP/err" "cut.json:1:50: error: unexpected end of the JSON text" "truncation is located"
printf '{"defaultAction": "SCMP_\377"}' >"$TMP/utf8.json"
expect_status 2 "a profile that is not UTF-8" -- "$SYSCAGE" compile "$TMP/utf8.json"
expect_grep "$TMP/err" "utf8.json:1:25: error: invalid JSON: invalid utf-8" "bad UTF-8 is located"
cat >"$TMP/wide.policy" <<'POLICY'
arch x86_64, x86
default errno(EPERM)
allow read if arg0 == 5
POLICY
expect_status 2 "a policy OCI cannot express" -- "$SYSCAGE" compile --format oci "$TMP/wide.policy"
expect_grep "$TMP/err" "only the low 32 bits" "the refusal says why"

# what Docker would select: capabilities, kernel version, runc's stub
compile_docker() { # OUT OPTIONS...: Docker's profile for x86_64 with the given OCI options
	local out=$1
	shift
	"$SYSCAGE" compile --arch x86_64 "$@" -o "$out" "$DOCKER" 2>"$TMP/err"
}
compile_docker "$TMP/caps.bpf" --caps ALL && ok "--caps ALL" || not_ok "--caps ALL"
expect_emu "with every capability mount is allowed" "ALLOW" -- -f "$TMP/caps.bpf" mount
compile_docker "$TMP/admin.bpf" --caps CAP_SYS_ADMIN,SYS_PTRACE && ok "--caps with two names" ||
	not_ok "--caps with two names"
expect_emu "CAP_SYS_ADMIN allows mount" "ALLOW" -- -f "$TMP/admin.bpf" mount
expect_emu "CAP_SYS_ADMIN does not allow reboot" "ERRNO(1)" -- -f "$TMP/admin.bpf" reboot
compile_docker "$TMP/none.bpf" --caps '' && ok "--caps ''" || not_ok "--caps ''"
expect_emu "without CAP_SYS_CHROOT chroot is denied" "ERRNO(1)" -- -f "$TMP/none.bpf" chroot
compile_docker "$TMP/dflt.bpf" && ok "Docker's default capabilities" || not_ok "default capabilities"
expect_emu "Docker's default capabilities allow chroot" "ALLOW" -- -f "$TMP/dflt.bpf" chroot
compile_docker "$TMP/old.bpf" --kernel 4.4 && ok "--kernel 4.4" || not_ok "--kernel 4.4"
expect_emu "ptrace needs kernel 4.8 in Docker's profile" "ERRNO(1)" -- -f "$TMP/old.bpf" ptrace
expect_emu "ptrace is allowed on the running kernel" "ALLOW" -- -f "$TMP/dflt.bpf" ptrace
compile_docker "$TMP/nostub.bpf" --no-enosys-stub && ok "--no-enosys-stub" || not_ok "--no-enosys-stub"
expect_emu "without the stub a new syscall gets the default errno" "ERRNO(1)" -- \
	-f "$TMP/nostub.bpf" file_getattr
expect_emu "with the stub a new syscall gets ENOSYS" "ERRNO(38)" -- -f "$TMP/dflt.bpf" file_getattr
expect_status 0 "--host-arch arm64 selects arm64's ABIs" -- "$SYSCAGE" compile --host-arch arm64 \
	--format policy "$DOCKER"
expect_grep "$TMP/out" "aarch64" "the arm64 host's profile targets aarch64"
expect_status 2 "an unknown capability" -- "$SYSCAGE" compile --caps CAP_SYS_ADMN "$DOCKER"
expect_grep "$TMP/err" "unknown capability 'CAP_SYS_ADMN'" "the capability is named"
expect_grep "$TMP/err" "did you mean 'CAP_SYS_ADMIN'" "with a hint"
expect_status 2 "a bad kernel version" -- "$SYSCAGE" compile --kernel five "$DOCKER"
expect_grep "$TMP/err" "invalid kernel version 'five'" "the version is named"
expect_status 2 "an unknown host architecture" -- "$SYSCAGE" compile --host-arch amd46 "$DOCKER"
expect_grep "$TMP/err" "did you mean 'amd64'" "with a hint for the host"

# --int-args-32: int arguments compared over the 32 bits the kernel reads.  As libseccomp
# does, the import compares socket's family over 64 bits on x86_64, and Docker's
# `arg0 > 40` lets AF_VSOCK (40) through with bit 32 set; the option closes that.
expect_emu "as runc: AF_VSOCK | 1<<32 passes Docker's socket rule" "ALLOW" -- \
	-a x86_64 -f "$TMP/dflt.bpf" socket 0x100000028 1 0
compile_docker "$TMP/int32.bpf" --int-args-32 && ok "--int-args-32" || not_ok "--int-args-32"
expect_emu "--int-args-32: AF_VSOCK | 1<<32 is AF_VSOCK, denied" "ERRNO(1)" -- \
	-a x86_64 -f "$TMP/int32.bpf" socket 0x100000028 1 0
expect_emu "--int-args-32: AF_VSOCK denied" "ERRNO(1)" -- -a x86_64 -f "$TMP/int32.bpf" socket 40 1 0
expect_emu "--int-args-32: AF_UNIX | 1<<32 is AF_UNIX, allowed" "ALLOW" -- \
	-a x86_64 -f "$TMP/int32.bpf" socket 0x100000001 1 0
expect_emu "--int-args-32: personality(PER_LINUX | 1<<32) is personality(0)" "ALLOW" -- \
	-a x86_64 -f "$TMP/int32.bpf" personality 0x100000000
expect_emu "--int-args-32: clone's flags (unsigned long) stay 64 bits" "ERRNO(1)" -- \
	-a x86_64 -f "$TMP/int32.bpf" clone 0x10000000
expect_status 0 "--int-args-32 --format policy" -- "$SYSCAGE" compile --arch x86_64 --int-args-32 \
	--format policy "$DOCKER"
expect_grep "$TMP/out" "^allow socket if arg0\.lo > 0x28$" "the socket rule compares arg0.lo"
"$SYSCAGE" diff --arch x86_64 "$TMP/dflt.bpf" "$TMP/int32.bpf" >"$TMP/diff.out" 2>&1
expect_grep "$TMP/diff.out" "^x86_64 socket if arg0\.lo in \{0x26, 0x28\} && arg0\.hi >= 1: ALLOW in A, ERRNO\(1\) in B$" \
	"diff: the option denies what the high word let through"
expect_grep "$TMP/diff.out" "^2 differing regions$" "diff: socket and personality, nothing else"

# compile --format k8s: a SeccompProfile whose spec, turned back into OCI JSON, imports to the same
expect_status 0 "--format k8s" -- "$SYSCAGE" compile --format k8s -o "$TMP/docker.yaml" "$DOCKER"
expect_grep "$TMP/docker.yaml" "^apiVersion: security-profiles-operator\.x-k8s\.io/v1beta1$" "k8s: the operator's API"
expect_grep "$TMP/docker.yaml" "^kind: SeccompProfile$" "k8s: the kind"
expect_grep "$TMP/docker.yaml" "^  name: docker-default$" "k8s: named after the file"
if python3 -c 'import yaml' 2>/dev/null; then
	python3 - "$TMP/docker.yaml" "$TMP/back.json" <<'PY'
import json, sys, yaml
obj = yaml.safe_load(open(sys.argv[1]))
assert obj["kind"] == "SeccompProfile" and obj["metadata"]["name"]
spec = obj["spec"]
assert spec["defaultAction"] and spec["syscalls"]
for s in spec["syscalls"]:
    assert s["names"] and s["action"]
json.dump(spec, open(sys.argv[2], "w"))
PY
	expect_status 0 "k8s: the spec, as OCI JSON, is the same filter" -- "$SYSCAGE" diff \
		"$TMP/back.json" "$DOCKER"
	printf 'default errno(EPERM)\nallow read, write, exit_group\nerrno(EACCES) openat if (arg2 & 0x40) != 0\nallow socket if arg0 == 1\n' \
		>"$TMP/k8s-args.policy"
	"$SYSCAGE" compile -a x86_64 --format k8s --no-runtime-calls -o "$TMP/args.yaml" "$TMP/k8s-args.policy" 2>"$TMP/err"
	"$SYSCAGE" compile -a x86_64 --format oci --no-runtime-calls -o "$TMP/args-oci.json" "$TMP/k8s-args.policy" 2>"$TMP/err"
	python3 -c 'import json,sys,yaml; json.dump(yaml.safe_load(open(sys.argv[1]))["spec"], open(sys.argv[2],"w"))' \
		"$TMP/args.yaml" "$TMP/args.json"
	expect_grep "$TMP/args.yaml" "^      - index: 2$" "k8s: argument conditions"
	expect_grep "$TMP/args.yaml" "^    errnoRet: 13$" "k8s: errnoRet"
	# the same as the OCI export, runc's ENOSYS stub and all
	expect_status 0 "k8s: a policy with arguments and errnos round-trips" -- "$SYSCAGE" diff \
		"$TMP/args.json" "$TMP/args-oci.json"
else
	skip_feature pyyaml "k8s: the spec, as OCI JSON, is the same filter"
	skip_feature pyyaml "k8s: argument conditions"
	skip_feature pyyaml "k8s: errnoRet"
	skip_feature pyyaml "k8s: a policy with arguments and errnos round-trips"
fi

# Podman's profile (containers-common's seccomp.json, Debian's golang-github-containers-common):
# Docker's format with Podman's "defaultErrno" and per-entry "errno" (errno names), an
# archMap, includes/excludes by capability.  Compared with runc + libseccomp in
# test_oci_libseccomp; here: the command line, its verdicts, what Podman reads and Docker
# does not, and the export round trip.
PODMAN=${SYSCAGE_PODMAN_PROFILE:-/usr/share/containers/seccomp.json}
podman_tests=("Podman's seccomp.json imports with --input-format oci"
	"Podman: read is allowed" "Podman: kexec_load is EPERM (errno \"EPERM\")"
	"Podman: an unlisted call is ENOSYS (defaultErrno \"ENOSYS\")"
	"Podman: personality(8) is allowed, personality(1) is not"
	"Podman: mount is allowed" "Podman: bpf is EPERM without CAP_SYS_ADMIN"
	"Podman: socket(AF_NETLINK, 3, NETLINK_AUDIT) is EINVAL without CAP_AUDIT_WRITE"
	"Podman: and allowed with it"
	"Podman: an errno name that differs from errnoRet wins, with a warning"
	"Podman: an unknown errno name is an error at its place, with a hint"
	"Podman: exported as OCI JSON, the same filter"
	"Podman: uselib is EPERM, as under runc with libseccomp (a syscall older kernels had)")
if [ -r "$PODMAN" ]; then
	expect_status 0 "${podman_tests[0]}" -- \
		"$SYSCAGE" compile --input-format oci --arch x86_64,x86,x32 -o "$TMP/podman.bpf" "$PODMAN"
	expect_emu "${podman_tests[1]}" "ALLOW" -- -f "$TMP/podman.bpf" read
	expect_emu "${podman_tests[2]}" "ERRNO(1)" -- -f "$TMP/podman.bpf" kexec_load
	expect_emu "${podman_tests[3]}" "ERRNO(38)" -- -f "$TMP/podman.bpf" file_getattr
	"$SYSCAGE" emu -f "$TMP/podman.bpf" personality 8 >"$TMP/p8" 2>&1
	"$SYSCAGE" emu -f "$TMP/podman.bpf" personality 1 >"$TMP/p1" 2>&1
	if [ "$(head -n 1 "$TMP/p8")/$(head -n 1 "$TMP/p1")" = "ALLOW/ERRNO(38)" ]; then
		ok "${podman_tests[4]}"
	else
		not_ok "${podman_tests[4]}" "got $(head -n 1 "$TMP/p8") and $(head -n 1 "$TMP/p1")"
	fi
	expect_emu "${podman_tests[5]}" "ALLOW" -- -f "$TMP/podman.bpf" mount
	expect_emu "${podman_tests[6]}" "ERRNO(1)" -- -f "$TMP/podman.bpf" bpf
	expect_emu "${podman_tests[12]}" "ERRNO(1)" -- -f "$TMP/podman.bpf" 134
	"$SYSCAGE" compile --arch x86_64 --caps '' -o "$TMP/podman-nocaps.bpf" "$PODMAN" 2>"$TMP/err"
	expect_emu "${podman_tests[7]}" "ERRNO(22)" -- -f "$TMP/podman-nocaps.bpf" socket 16 3 9
	"$SYSCAGE" compile --arch x86_64 --caps AUDIT_WRITE -o "$TMP/podman-audit.bpf" "$PODMAN" \
		2>"$TMP/err"
	expect_emu "${podman_tests[8]}" "ALLOW" -- -f "$TMP/podman-audit.bpf" socket 16 3 9
	# the first entry's errno (kexec_load's) made EACCES; errnoRet still says 1
	sed '0,/"errno": "EPERM"/s//"errno": "EACCES"/' "$PODMAN" >"$TMP/podman-eacces.json"
	"$SYSCAGE" compile --arch x86_64 -o "$TMP/podman-eacces.bpf" "$TMP/podman-eacces.json" \
		2>"$TMP/err"
	"$SYSCAGE" emu -f "$TMP/podman-eacces.bpf" kexec_load >"$TMP/out" 2>&1
	if [ "$(head -n 1 "$TMP/out")" = "ERRNO(13)" ] &&
		grep -q 'warning: syscalls\[0\]\.errno: Podman uses "EACCES" here, Docker ignores it and uses errnoRet (1)' "$TMP/err"; then
		ok "${podman_tests[9]}"
	else
		not_ok "${podman_tests[9]}" "emu: $(head -n 1 "$TMP/out")" "stderr: $(head -c 300 "$TMP/err")"
	fi
	sed 's/"defaultErrno": "ENOSYS"/"defaultErrno": "ENOSIS"/' "$PODMAN" >"$TMP/podman-typo.json"
	line=$(grep -n '"defaultErrno"' "$TMP/podman-typo.json" | head -n 1 | cut -d: -f1)
	"$SYSCAGE" compile --arch x86_64 -o "$TMP/typo.bpf" "$TMP/podman-typo.json" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "podman-typo.json:$line:[0-9]*: error: defaultErrno: unknown errno 'ENOSIS'" "$TMP/err" &&
		grep -q "did you mean 'ENOSYS'" "$TMP/err"; then
		ok "${podman_tests[10]}"
	else
		not_ok "${podman_tests[10]}" "exit $rc" "stderr: $(head -c 300 "$TMP/err")"
	fi
	"$SYSCAGE" compile --format oci -o "$TMP/podman-out.json" "$PODMAN" 2>"$TMP/err"
	expect_status 0 "${podman_tests[11]}" -- "$SYSCAGE" diff "$PODMAN" "$TMP/podman-out.json"
else
	for name in "${podman_tests[@]}"; do
		skip_feature containers-common "$name"
	done
fi
