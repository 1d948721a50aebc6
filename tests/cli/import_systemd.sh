#!/usr/bin/env bash
# systemd unit settings through the CLI: compile, emu, explain naming the unit's
# line, run with a denial reported against that line, diff of the compiled
# filter with the unit, --input-format, detection and its ambiguity, errors
# with file:line:column.
. "$(dirname "$0")/../cli_lib.bash"
# run installs filters in its child: unwrapped under the valgrind suite (SYSCAGE_REAL)
REAL=${SYSCAGE_REAL:-$SYSCAGE}

cat >"$TMP/svc.service" <<'UNIT'
[Unit]
Description=a small service

[Service]
ExecStart=/usr/bin/hostname
SystemCallFilter=~@clock sethostname:EACCES
SystemCallErrorNumber=EPERM
SystemCallArchitectures=native
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
UNIT

expect_status 0 "compile a unit file" -- "$SYSCAGE" compile -o "$TMP/svc.bpf" "$TMP/svc.service"
expect_emu "read is allowed" "ALLOW" -- -f "$TMP/svc.bpf" read
expect_emu "settimeofday gets SystemCallErrorNumber=" "ERRNO(1)" -- -f "$TMP/svc.bpf" settimeofday
expect_emu "sethostname gets its own :EACCES" "ERRNO(13)" -- -f "$TMP/svc.bpf" sethostname
expect_emu "socket(AF_NETLINK) is refused" "ERRNO(97)" -- -f "$TMP/svc.bpf" socket 16
expect_emu "socket(AF_INET6) is allowed" "ALLOW" -- -f "$TMP/svc.bpf" socket 10
expect_emu "i386 calls die (SystemCallArchitectures=native)" "KILL_THREAD" -- \
	-a x86 -f "$TMP/svc.bpf" read

expect_status 0 "explain a unit's verdict" -- "$SYSCAGE" explain "$TMP/svc.service" sethostname
expect_grep "$TMP/out" "svc\.service:6" "explain names the unit's line"

expect_status 0 "the compiled filter equals the unit" -- \
	"$SYSCAGE" diff "$TMP/svc.bpf" "$TMP/svc.service"
expect_grep "$TMP/out" "^equivalent" "diff proves it"

expect_status 0 "run a program under the unit's settings" -- \
	"$REAL" run -p "$TMP/svc.service" -- sh -c 'hostname syscage-test 2>/dev/null; exit 0'
expect_grep "$TMP/err" "sethostname.*ERRNO\(EACCES\).*svc\.service:6" \
	"the denial names the unit's line"

# a unit under another name: the content says what it is, or --input-format does
cp "$TMP/svc.service" "$TMP/unit.txt"
expect_status 0 "a unit file is recognised by its content" -- \
	"$SYSCAGE" compile -o "$TMP/txt.bpf" "$TMP/unit.txt"
expect_same "$TMP/svc.bpf" "$TMP/txt.bpf" "the same filter"
printf 'SystemCallFilter=~ptrace\n' >"$TMP/show.txt"
expect_status 0 "systemctl show output" -- "$SYSCAGE" compile --input-format systemd \
	-o "$TMP/show.bpf" "$TMP/show.txt"
expect_emu "its ptrace is killed" "KILL_PROCESS" -- -f "$TMP/show.bpf" ptrace

printf 'allow read\nSystemCallFilter=read\n' >"$TMP/both.txt"
expect_status 2 "content that fits two formats is refused" -- "$SYSCAGE" compile "$TMP/both.txt"
expect_grep "$TMP/err" "fits several input formats \(policy, systemd\).*--input-format" \
	"the error names the candidates"
expect_status 2 "--input-format settles it" -- "$SYSCAGE" compile --input-format systemd \
	-o "$TMP/both.bpf" "$TMP/both.txt"
expect_grep "$TMP/err" "both\.txt:1:1: error: line is neither an assignment" \
	"the file is read as the format says"
expect_status 2 "an unknown format" -- "$SYSCAGE" compile --input-format sytemd "$TMP/both.txt"
expect_grep "$TMP/err" "unknown format 'sytemd' \(the formats: raw, asm, policy, oci, k8s, systemd, minijail, kafel, firejail\)" \
	"the error lists the formats"
expect_status 0 "--help names --input-format" -- "$SYSCAGE" lint --help
expect_grep "$TMP/out" "--input-format FORMAT" "lint's help"

printf '[Service]\nSystemCallFilter=~ptrce\n  not a setting\n' >"$TMP/bad.service"
expect_status 2 "a line that is no setting is an error" -- "$SYSCAGE" compile "$TMP/bad.service"
expect_grep "$TMP/err" "bad\.service:3:3: error: line is neither an assignment" \
	"the error has file:line:column"
expect_grep "$TMP/err" "bad\.service:2:19: warning: unknown system call 'ptrce'" \
	"what systemd ignores is a warning"
expect_grep "$TMP/err" "did you mean 'ptrace'" "with a hint"
test -e "$TMP/bad.bpf" && not_ok "no output on error" || ok "no output on error"

# policies written back as systemd settings, and imported again
cat >"$TMP/deny.policy" <<'POLICY'
arch x86_64, x86, x32
default allow
badarch allow
errno(EACCES) ptrace
kill mount
errno(EPERM) @clock
POLICY
expect_status 0 "compile --format systemd" -- "$SYSCAGE" compile --format systemd \
	-o "$TMP/deny.service" "$TMP/deny.policy"
expect_grep "$TMP/deny.service" "^ clock_settime:EPERM .* mount:kill ptrace:EACCES" "a deny list with errnos"
expect_status 0 "the unit equals the policy" -- "$SYSCAGE" diff "$TMP/deny.policy" "$TMP/deny.service"
expect_grep "$TMP/out" "^equivalent" "diff proves the round trip"
printf 'arch x86_64, x86, x32\ndefault allow\nbadarch allow\nerrno(EPERM) socket if domain == AF_PACKET\n' \
	>"$TMP/cond.policy"
expect_status 2 "a condition on arguments is refused" -- "$SYSCAGE" compile --format systemd \
	-o "$TMP/cond.service" "$TMP/cond.policy"
expect_grep "$TMP/err" "cond\.policy:4:.*error: the rule for 'socket' has a condition on arguments" \
	"the error names the rule"
test -e "$TMP/cond.service" && not_ok "nothing written" || ok "nothing written"

echo "1..$n"
