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
expect_grep "$TMP/err" "fits several input formats \(policy, systemd\)" "the error names the candidates"
expect_grep "$TMP/err" "hint: say which with --input-format" "the hint names the flag"
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

# Every setting systemd 252 knows is recognised: those that install no filter are ignored
# without a word (redis-server.service of Debian 12, its settings as shipped)
cat >"$TMP/redis-server.service" <<'UNIT'
[Unit]
Description=Advanced key-value store
After=network.target
Documentation=http://redis.io/documentation, man:redis-server(1)

[Service]
Type=notify
ExecStart=/usr/bin/redis-server /etc/redis/redis.conf --supervised systemd --daemonize no
PIDFile=/run/redis/redis-server.pid
TimeoutStopSec=0
Restart=always
User=redis
Group=redis
RuntimeDirectory=redis
RuntimeDirectoryMode=2755
UMask=007
PrivateTmp=true
LimitNOFILE=65535
PrivateDevices=true
ProtectHome=true
ProtectSystem=strict
ReadWritePaths=-/var/lib/redis
CapabilityBoundingSet=
LockPersonality=true
MemoryDenyWriteExecute=true
NoNewPrivileges=true
PrivateUsers=true
ProtectClock=true
ProtectControlGroups=true
ProtectHostname=true
ProtectKernelLogs=true
ProtectKernelModules=true
ProtectKernelTunables=true
ProtectProc=invisible
ProcSubset=pid
RemoveIPC=true
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX
RestrictNamespaces=true
RestrictRealtime=true
RestrictSUIDSGID=true
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallFilter=~ @privileged @resources
ReadWriteDirectories=-/etc/redis
NoExecPaths=/
ExecPaths=/usr/bin/redis-server /usr/lib /lib
KillMode=mixed
MemoryMax=1G
OOMPolicy=stop

[Install]
WantedBy=multi-user.target
Alias=redis.service
UNIT
for c in "lint" "explain" "emu -f" "compile -o /dev/null"; do
	case $c in
	explain) args=(explain "$TMP/redis-server.service" read) ;;
	"emu -f") args=(emu -f "$TMP/redis-server.service" read) ;;
	"compile -o /dev/null") args=(compile -o /dev/null "$TMP/redis-server.service") ;;
	*) args=(lint "$TMP/redis-server.service") ;;
	esac
	"$SYSCAGE" "${args[@]}" >"$TMP/out" 2>"$TMP/err"
	if grep -q "unknown setting" "$TMP/out" "$TMP/err"; then
		not_ok "$c redis-server.service: no setting of systemd 252 is unknown" "$(grep 'unknown setting' "$TMP/err" "$TMP/out")"
	else ok "$c redis-server.service: no setting of systemd 252 is unknown"; fi
done
# a mistyped directive is still told, once in every command
printf '[Service]\nProtectClok=yes\nSystemCallFilter=~mkdir\n' >"$TMP/typo.service"
for c in explain emu; do
	if [ "$c" = explain ]; then "$SYSCAGE" explain "$TMP/typo.service" read >"$TMP/out" 2>"$TMP/err"
	else "$SYSCAGE" emu -f "$TMP/typo.service" read >"$TMP/out" 2>"$TMP/err"; fi
	if [ "$(grep -c "unknown setting 'ProtectClok'" "$TMP/err")" = 1 ]; then ok "$c: the typo's warning once"
	else not_ok "$c: the typo's warning once" "$(cat "$TMP/err")"; fi
done
# DynamicUser=yes implies RestrictSUIDSGID=yes, which RestrictSUIDSGID=no does not undo
printf '[Service]\nDynamicUser=yes\nRestrictSUIDSGID=no\n' >"$TMP/dynamic.service"
expect_emu "DynamicUser=yes: chmod u+s is refused" "ERRNO(1)" -- -f "$TMP/dynamic.service" chmod 0 04755
expect_emu "DynamicUser=yes: a plain chmod is allowed" "ALLOW" -- -f "$TMP/dynamic.service" chmod 0 0755
printf '[Service]\nDynamicUser=no\n' >"$TMP/static.service"
expect_emu "DynamicUser=no: chmod u+s is allowed" "ALLOW" -- -f "$TMP/static.service" chmod 0 04755
# systemctl show prints properties that are no settings: no warning for them
printf 'ProtectProc=invisible\nExecMainPID=42\nSystemCallFilter=~mkdir\n' >"$TMP/show.txt"
expect_status 0 "systemctl show output" -- "$SYSCAGE" emu --input-format systemd -f "$TMP/show.txt" read
if [ -s "$TMP/err" ]; then not_ok "no warning for its properties" "$(cat "$TMP/err")"; else ok "no warning for its properties"; fi

echo "1..$n"
