#!/usr/bin/env bash
# syscage lint: each finding on a filter built to have it, rule lines for
# policies, severities, --severity exit statuses and JSON.
. "$(dirname "$0")/../cli_lib.bash"

printf 'ld [nr]\njeq #101, deny\nret ALLOW\ndeny: ret KILL_THREAD\nret TRACE(1)\n' >"$TMP/noarch.s"
expect_status 1 "a filter without an arch check" -- "$SYSCAGE" lint "$TMP/noarch.s"
expect_grep "$TMP/out" "^insn 0: error: .*never tests the ABI.*\[no-arch-check\]$" "no-arch-check"
expect_grep "$TMP/out" "^  fix: " "every finding has a fix"
expect_grep "$TMP/out" "denied on x86_64 .* allowed through the x86 ABI \(first: ptrace\) \[abi-bypass\]" \
	"i386 numbers bypass it"
expect_grep "$TMP/out" "allowed through the x32 ABI .*\[abi-bypass\]" "x32 numbers bypass it"
expect_grep "$TMP/out" "^insn 3: warning: KILL_THREAD .*\[kill-thread\]" "kill-thread at its instruction"
expect_grep "$TMP/out" "^insn 4: warning: no input reaches instructions 4\.\.4 \[unreachable\]" "unreachable"
expect_grep "$TMP/out" "^insn 4: info: TRACE .*\[trace-without-tracer\]" "trace"
expect_grep "$TMP/out" "(bpf is allowed|syscalls that commonly break sandboxes are allowed .*: .*bpf).*\[risky-syscall\]" "risky syscalls"

cat >"$TMP/p.policy" <<'POL'
arch x86_64, x86
default errno(EPERM)
allow read, write, close, getpid, socketcall, io_uring_setup, io_uring_enter
allow socket if domain == AF_UNIX
allow openat
allow unshare
allow openat
POL
expect_status 1 "a policy" -- "$SYSCAGE" lint "$TMP/p.policy"
expect_grep "$TMP/out" "p\.policy:3: warning: on x86, socket is restricted but socketcall.*\[multiplexer-bypass\]" \
	"socketcall, at its rule line"
expect_grep "$TMP/out" "p\.policy:3: warning: on x86_64, io_uring is allowed while [a-z]+ is restricted.*\[io-uring-bypass\]" \
	"io_uring, at its rule line"
expect_grep "$TMP/out" "p\.policy:6: warning: on x86_64, unshare is allowed.*CLONE_NEWUSER" "unshare, at its line"
expect_grep "$TMP/out" "p\.policy:7: " "the parser's own warning for the repeated rule"
expect_grep "$TMP/out" "info: on x86_64, syscalls newer than the filter get ERRNO\(1\).*\[unknown-not-enosys\]" \
	"EPERM for unknown syscalls"
if grep -q "no-arch-check\|abi-bypass" "$TMP/out"; then not_ok "compiled policies check the ABI"
else ok "compiled policies check the ABI"; fi

expect_status 0 "--severity error: nothing at that level" -- "$SYSCAGE" lint --severity error "$TMP/p.policy"
expect_status 1 "--severity info" -- "$SYSCAGE" lint --severity info "$TMP/p.policy"
expect_status 2 "--severity nonsense" -- "$SYSCAGE" lint --severity loud "$TMP/p.policy"

cat >"$TMP/wide.policy" <<'POL'
arch x86_64
default kill-process
unknown errno(ENOSYS)
allow read, write
allow kill if arg1 == 0xffffffff
POL
expect_status 1 "an int parameter compared over 64 bits" -- "$SYSCAGE" lint "$TMP/wide.policy"
expect_grep "$TMP/out" "wide\.policy:5: warning: on x86_64, kill's argument 1 \(int sig\) is tested over 64 bits.*\[int-compared-64\]" \
	"int-compared-64 at the rule"
printf 'arch x86_64\ndefault kill-process\nunknown errno(ENOSYS)\nallow kill if sig == -1\n' >"$TMP/narrow.policy"
expect_status 0 "the parameter's name compares 32 bits" -- "$SYSCAGE" lint "$TMP/narrow.policy"

# A 64-bit test of an int argument that lets a denied call through is an error, naming the
# call; each finding at the rule that tests that argument.
DATA=$(dirname "$0")/../data
cat >"$TMP/two.policy" <<'POL'
arch x86_64
default allow
errno(EPERM) socket if arg0 == 40
errno(EINVAL) socket if arg2 == 9
POL
expect_status 1 "int arguments that decide a denial over 64 bits" -- "$SYSCAGE" lint --severity error "$TMP/two.policy"
expect_grep "$TMP/out" "^.*two\.policy:3: error: on x86_64, socket\(AF_VSOCK \| 1 << 32, \.\.\.\) is allowed, but the kernel reads socket's argument 0 \(int domain\) as its low 32 bits: that is socket\(AF_VSOCK, \.\.\.\), which gets ERRNO\(1\) \[int-compared-64\]$" \
	"argument 0: an error naming the call, at the rule testing it"
expect_grep "$TMP/out" "^.*two\.policy:4: error: on x86_64, socket\(AF_UNSPEC, 0, 9 \| 1 << 32\) is allowed.*argument 2 \(int protocol\).*ERRNO\(22\) \[int-compared-64\]$" \
	"argument 2: at its own rule, not the first rule for socket"
expect_grep "$TMP/out" "^  fix: compare only the low 32 bits: the parameter by its name, or argN\.lo$" "the fix, in the policy's words"
expect_status 1 "Docker's profile as runc reads it" -- "$SYSCAGE" lint --severity error "$DATA/docker-default.json"
expect_grep "$TMP/out" "docker-default\.json:465: error: on x86_64, socket\(AF_(ALG|VSOCK) \| 1 << 32, \.\.\.\) is allowed.*\[int-compared-64\]$" \
	"Docker's JSON: the socket bypass, at the rule that lets it through"
expect_grep "$TMP/out" "docker-default\.json:478: warning: on x86_64, personality's argument 0 .*\[int-compared-64\]$" \
	"Docker's JSON: personality's 64-bit tests only deny, a warning"
expect_status 1 "the built-in docker-default keeps the hole" -- "$SYSCAGE" lint --severity error docker-default
expect_status 0 "--int-args-32 closes it" -- "$SYSCAGE" lint --severity error --int-args-32 "$DATA/docker-default.json"
if grep -q "int-compared-64" "$TMP/out"; then not_ok "--int-args-32: no 64-bit test of an int left" "$(grep int-compared "$TMP/out")"
else ok "--int-args-32: no 64-bit test of an int left"; fi
# syscage's own profiles (docker-default is Docker's, verbatim) test no int argument over 64 bits
for profile in $("$SYSCAGE" compile --list-profiles | awk '{print $1}'); do
	[ "$profile" = docker-default ] && continue
	"$SYSCAGE" lint "$profile" >"$TMP/out" 2>&1
	if grep -q "int-compared-64" "$TMP/out"; then not_ok "profile $profile: no int argument over 64 bits" "$(grep int-compared "$TMP/out")"
	else ok "profile $profile: no int argument over 64 bits"; fi
done
expect_status 0 "default: nothing at error level" -- "$SYSCAGE" lint --severity error default
# the profile syscage recommends passes lint outright: no warning and no note either
expect_status 0 "lint default passes" -- "$SYSCAGE" lint --severity info default
expect_grep "$TMP/out" '^no findings$' "lint default: no findings at any severity"

# lint takes compile's OCI options: with Podman's default capabilities (no CAP_AUDIT_WRITE),
# Podman's profile denies NETLINK_AUDIT sockets (EINVAL), and 64-bit tests on arguments 0
# and 2 let them through
cat >"$TMP/podman.json" <<'JSON'
{
	"defaultAction": "SCMP_ACT_ERRNO",
	"defaultErrnoRet": 38,
	"archMap": [
		{ "architecture": "SCMP_ARCH_X86_64", "subArchitectures": ["SCMP_ARCH_X86", "SCMP_ARCH_X32"] }
	],
	"syscalls": [
		{ "names": ["read", "write", "close", "exit_group", "socketcall"], "action": "SCMP_ACT_ALLOW" },
		{
			"names": ["socket"],
			"action": "SCMP_ACT_ERRNO",
			"errnoRet": 22,
			"args": [
				{ "index": 0, "value": 16, "op": "SCMP_CMP_EQ" },
				{ "index": 2, "value": 9, "op": "SCMP_CMP_EQ" }
			],
			"excludes": { "caps": ["CAP_AUDIT_WRITE"] }
		},
		{
			"names": ["socket"],
			"action": "SCMP_ACT_ALLOW",
			"args": [{ "index": 2, "value": 9, "op": "SCMP_CMP_NE" }],
			"excludes": { "caps": ["CAP_AUDIT_WRITE"] }
		},
		{
			"names": ["socket"],
			"action": "SCMP_ACT_ALLOW",
			"args": [{ "index": 0, "value": 16, "op": "SCMP_CMP_NE" }],
			"excludes": { "caps": ["CAP_AUDIT_WRITE"] }
		},
		{ "names": ["socket"], "action": "SCMP_ACT_ALLOW", "includes": { "caps": ["CAP_AUDIT_WRITE"] } }
	]
}
JSON
podman_caps=CHOWN,DAC_OVERRIDE,FOWNER,FSETID,KILL,NET_BIND_SERVICE,SETFCAP,SETGID,SETPCAP,SETUID,SYS_CHROOT
expect_status 0 "Podman's profile with Docker's capabilities: socket is allowed outright" -- \
	"$SYSCAGE" lint --severity error "$TMP/podman.json"
expect_status 1 "--caps: Podman's capabilities" -- "$SYSCAGE" lint --severity error --caps "$podman_caps" "$TMP/podman.json"
expect_grep "$TMP/out" "podman\.json:19: error: on x86_64, socket\(AF_NETLINK, 0, 9 \| 1 << 32\) is allowed.*argument 2 \(int protocol\).*socket\(AF_NETLINK, 0, 9\), which gets ERRNO\(22\) \[int-compared-64\]$" \
	"--caps: the NETLINK_AUDIT protocol test on argument 2, at its rule"
expect_grep "$TMP/out" "podman\.json:25: error: on x86_64, socket\(AF_NETLINK \| 1 << 32, \.\.\.\) is allowed.*\[int-compared-64\]$" \
	"--caps: and the family test on argument 0"
expect_status 2 "--caps: an unknown capability" -- "$SYSCAGE" lint --caps CAP_AUDIT_WRITTE "$TMP/podman.json"
expect_status 0 "--caps with --int-args-32" -- "$SYSCAGE" lint --severity error --caps "$podman_caps" --int-args-32 "$TMP/podman.json"

cat >"$TMP/good.policy" <<'POL'
arch x86_64
default kill-process
unknown errno(ENOSYS)
allow read, write, close, exit_group
POL
expect_status 0 "a tight policy" -- "$SYSCAGE" lint "$TMP/good.policy"
expect_grep "$TMP/out" "^no findings$" "no findings"

expect_status 1 "--json" -- "$SYSCAGE" lint --json "$TMP/noarch.s"
expect_grep "$TMP/out" '"severity": "error", "code": "no-arch-check", "insn": 0' "json finding"
if command -v python3 >/dev/null; then
	if python3 -m json.tool "$TMP/out" >/dev/null 2>&1; then ok "json parses"; else not_ok "json parses"; fi
fi
# A file name with a control character, a byte that is not UTF-8 and a quote stays valid JSON.
odd="$TMP/$(printf 'odd\001name\377"q.policy')"
printf 'arch x86_64\ndefault errno(EPERM)\nallow openat\nallow openat\n' >"$odd"
expect_status 1 "--json, an odd file name" -- "$SYSCAGE" lint --json "$odd"
expect_grep "$TMP/out" '"file": ".*/odd\\u0001name\\ufffd\\"q\.policy"' "control character, bad byte and quote escaped"
if command -v python3 >/dev/null; then
	if python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$TMP/out" 2>/dev/null; then
		ok "odd file name: strict UTF-8 JSON"
	else
		not_ok "odd file name: strict UTF-8 JSON"
	fi
fi
expect_status 2 "a missing file" -- "$SYSCAGE" lint "$TMP/none.bpf"
expect_status 0 "--help" -- "$SYSCAGE" lint --help
# Filters that stall a path-by-path engine (tests/data/analysis): findings under a 1 s
# budget, or exit 3 with the checks not done named.  No timing is asserted.
CRAFT=$(dirname "$0")/../data/analysis
for f in jset-chain-64 jset-chain-76 arg-eq mul-shift div-x; do
	"$SYSCAGE" lint --timeout 1 "$CRAFT/$f.s" >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ $st -le 1 ] && ! grep -q 'analysis-budget' "$TMP/out"; then ok "$f: linted"
	elif [ $st -eq 3 ] && grep -q '\[analysis-budget\]$' "$TMP/out"; then ok "$f: out of time, says so"
	else not_ok "$f: findings or exit 3" "exit $st" "$(head -c 300 "$TMP/out" "$TMP/err")"; fi
done
"$SYSCAGE" lint --timeout 0.001 "$CRAFT/scratch-chain.s" >"$TMP/out" 2>"$TMP/err"
st=$?
if [ $st -eq 3 ]; then
	ok "a tiny budget: exit 3"
	expect_grep "$TMP/out" "^error: the time budget ran out: the findings above are decided, but these were not checked: .*\[analysis-budget\]$" \
		"names the checks not done"
	expect_grep "$TMP/err" "time budget of 0.001 s ran out" "stderr says why"
	"$SYSCAGE" lint --json --timeout 0.001 "$CRAFT/scratch-chain.s" >"$TMP/out" 2>/dev/null
	expect_grep "$TMP/out" '"code": "analysis-budget"' "json: the budget finding"
elif [ $st -le 1 ]; then
	ok "a tiny budget: a definite answer all the same"
else
	not_ok "a tiny budget: exit 3" "exit $st"
fi
expect_status 2 "--timeout of a word" -- "$SYSCAGE" lint --timeout soon "$CRAFT/arg-eq.s"

# SARIF 2.1.0 for code scanning: the shape GitHub's upload reads, checked field by field
expect_status 1 "--format sarif" -- "$SYSCAGE" lint --format sarif "$TMP/p.policy"
cp "$TMP/out" "$TMP/p.sarif"
expect_status 1 "--format sarif of a filter" -- "$SYSCAGE" lint --format sarif "$CRAFT/arg-eq.s"
cp "$TMP/out" "$TMP/f.sarif"
check_sarif() {
	python3 - "$1" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["version"] == "2.1.0" and "$schema" in doc
run, = doc["runs"]
driver = run["tool"]["driver"]
assert driver["name"] == "syscage" and driver["version"]
ids = [r["id"] for r in driver["rules"]]
assert len(ids) == len(set(ids)) and ids
for r in driver["rules"]:
    assert r["shortDescription"]["text"] and r["help"]["text"]
assert run["results"]
for res in run["results"]:
    assert res["ruleId"] in ids and ids[res["ruleIndex"]] == res["ruleId"]
    assert res["level"] in ("error", "warning", "note")
    assert res["message"]["text"]
    loc, = res["locations"]
    phys = loc["physicalLocation"]
    assert phys["artifactLocation"]["uri"]
    region = phys.get("region", {})
    assert region.get("startLine", 1) >= 1 and region.get("startColumn", 1) >= 1
print(sum("startLine" in r["locations"][0]["physicalLocation"].get("region", {})
          for r in run["results"]), sum("fix" in r.get("properties", {}) for r in run["results"]))
PY
}
if check_sarif "$TMP/p.sarif" >"$TMP/sarif.out" 2>&1; then ok "sarif: required fields of a policy's report"; else
	not_ok "sarif: required fields of a policy's report" "$(head -c 400 "$TMP/sarif.out")"; fi
expect_grep "$TMP/sarif.out" "^[1-9][0-9]* [1-9][0-9]*$" "sarif: results with lines and fixes"
expect_grep "$TMP/p.sarif" '"ruleId": "multiplexer-bypass", "ruleIndex": [0-9]+, "level": "warning"' \
	"sarif: a warning keeps its level"
if check_sarif "$TMP/f.sarif" >"$TMP/sarif.out" 2>&1; then ok "sarif: required fields of a filter's report"; else
	not_ok "sarif: required fields of a filter's report" "$(head -c 400 "$TMP/sarif.out")"; fi
"$SYSCAGE" asm -o "$TMP/arg-eq.bpf" "$CRAFT/arg-eq.s"
"$SYSCAGE" lint --format sarif "$TMP/arg-eq.bpf" >"$TMP/raw.sarif"
expect_grep "$TMP/raw.sarif" '"region": \{"byteOffset": [0-9]+, "byteLength": 8\}' "sarif: a raw filter's instructions by their bytes"
if grep -q byteOffset "$TMP/f.sarif" "$TMP/p.sarif"; then not_ok "sarif: no byte offsets into text" "$(grep -c byteOffset "$TMP/f.sarif" "$TMP/p.sarif")"
else ok "sarif: no byte offsets into text"; fi
expect_status 2 "--format of a word" -- "$SYSCAGE" lint --format yaml "$TMP/p.policy"

# past the engine's limits: said as that, not as errno E2BIG's text
printf '\tld [nr]\n\tret a\n' >"$TMP/ret-nr.s"
expect_status 2 "lint of a filter past the engine's limits" -- "$SYSCAGE" lint "$TMP/ret-nr.s"
expect_grep "$TMP/err" "lint: .*ret-nr.s: the analysis gave up where the error above says" "lint says the analysis gave up"
if grep -q "Argument list too long" "$TMP/err"; then not_ok "no E2BIG text" "$(cat "$TMP/err")"; else ok "no E2BIG text"; fi

# Fixes in the input's own language, and no instruction passed off as a place in the text
printf '[Service]\nSystemCallFilter=~mkdir\n' >"$TMP/deny.service"
expect_status 1 "lint a unit" -- "$SYSCAGE" lint "$TMP/deny.service"
expect_grep "$TMP/out" "^  fix: add SystemCallFilter=~ptrace bpf .*, or leave them out of the allow list$" "a unit's fix is a setting"
if grep -q "in the policy\|--int-args-32\|errno(E" "$TMP/out"; then not_ok "no policy or OCI words for a unit" "$(grep 'in the policy\|--int-args-32\|errno(E' "$TMP/out" | head -3)"
else ok "no policy or OCI words for a unit"; fi
printf '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["mkdir"], "action": "SCMP_ACT_ERRNO"}]}\n' >"$TMP/deny.json"
expect_status 1 "lint an OCI profile" -- "$SYSCAGE" lint "$TMP/deny.json"
expect_grep "$TMP/out" '^  fix: take them out of the "names" of the SCMP_ACT_ALLOW entries, or add an entry that denies them: "ptrace", "bpf", ' "an OCI profile's fix is its JSON"
expect_grep "$TMP/out" "^  fix: use SCMP_ACT_KILL_PROCESS" "KILL_THREAD in OCI's words"
expect_grep "$TMP/out" "deny\.json:[0-9]+: warning: KILL_THREAD" "KILL_THREAD at the profile's line"
printf '[Service]\nRestrictAddressFamilies=AF_UNIX\n' >"$TMP/raf.service"
expect_status 1 "lint a unit without SystemCallFilter=" -- "$SYSCAGE" lint "$TMP/raf.service"
expect_grep "$TMP/out" "raf\.service: compiled, insn [0-9]+: warning: " "a finding of the compiled filter names the input"
printf 'default allow\nerrno(EACCES) mkdir\n' >"$TMP/deny.policy"
expect_status 1 "lint a policy" -- "$SYSCAGE" lint "$TMP/deny.policy"
expect_grep "$TMP/out" "^  fix: deny them unless the program needs them: errno\(EPERM\) ptrace, bpf, " "a policy's fix is a rule"
expect_grep "$TMP/out" "deny\.policy:1: warning: 21 syscalls that commonly break sandboxes are allowed on x86_64, x86 and x32: ptrace \(it inspects" \
	"what the default allows: one finding, at the default's line"
if [ "$(grep -c 'risky-syscall' "$TMP/out")" = 1 ]; then ok "one risky-syscall finding for the default"
else not_ok "one risky-syscall finding for the default" "$(grep -c 'risky-syscall' "$TMP/out")"; fi
printf 'default allow\nbadarch kill-thread\nerrno(EACCES) mkdir\n' >"$TMP/badarch.policy"
expect_status 1 "lint badarch kill-thread" -- "$SYSCAGE" lint "$TMP/badarch.policy"
expect_grep "$TMP/out" "badarch\.policy:2: warning: KILL_THREAD .*\[kill-thread\]" "kill-thread at the badarch line"
if [ "$(grep -c 'kill-thread\]' "$TMP/out")" = 1 ]; then ok "kill-thread once"
else not_ok "kill-thread once" "$(grep 'kill-thread' "$TMP/out")"; fi
"$SYSCAGE" lint --format sarif "$TMP/deny.service" >"$TMP/unit.sarif"
if grep -q byteOffset "$TMP/unit.sarif"; then not_ok "sarif of a unit: no byte offsets"; else ok "sarif of a unit: no byte offsets"; fi
expect_grep "$TMP/unit.sarif" '"properties": \{"fix": "add SystemCallFilter=~' "sarif of a unit: the fix as a setting"

# SARIF of a policy, a unit and an OCI profile: every finding at a line of the input, and
# that line (read back) is the statement, setting or JSON member the finding is about
cat >"$TMP/sarif.policy" <<'POL'
# a comment first, so that byte offsets and lines differ
default allow
badarch kill-thread

errno(EACCES) mkdir
allow socket if domain == AF_UNIX
POL
printf '# a comment\n[Unit]\nDescription=x\n\n[Service]\nExecStart=/bin/true\nSystemCallArchitectures=native\nSystemCallFilter=@system-service\nSystemCallFilter=~@privileged\nRestrictAddressFamilies=AF_UNIX AF_INET\n' >"$TMP/sarif.service"
printf '{\n  "defaultAction": "SCMP_ACT_ALLOW",\n  "architectures": ["SCMP_ARCH_X86_64"],\n  "syscalls": [\n    {"names": ["mkdir"], "action": "SCMP_ACT_ERRNO"}\n  ]\n}\n' >"$TMP/sarif.json"
read_back() { # FILE KIND: each result's startLine read back from FILE
	python3 - "$1" "$2" <<'PY'
import json, re, sys
sarif, kind = json.load(open(sys.argv[1])), sys.argv[2]
looks = {"policy": r"^(default|badarch|unknown|allow|errno|kill|kill-thread|kill-process|log|trap|notify|arch)\b",
         "unit": r"^(SystemCall[A-Za-z]*|Restrict[A-Za-z]*|MemoryDenyWriteExecute|LockPersonality|Protect[A-Za-z]*|PrivateDevices)=",
         "json": r'^\s*(\{\s*)?"(defaultAction|architectures|archMap|names|syscalls|action)"|^\s*\{'}[kind]
bad = []
for res in sarif["runs"][0]["results"]:
    phys = res["locations"][0]["physicalLocation"]
    region = phys.get("region", {})
    if "startLine" not in region:
        bad.append("no line: " + res["message"]["text"][:80])
        continue
    lines = open(phys["artifactLocation"]["uri"]).read().split("\n")
    text = lines[region["startLine"] - 1]
    if not re.search(looks, text):
        bad.append("line %d %r for %s" % (region["startLine"], text, res["ruleId"]))
print("\n".join(bad) if bad else "ok %d" % len(sarif["runs"][0]["results"]))
sys.exit(1 if bad else 0)
PY
}
for k in policy:sarif.policy unit:sarif.service json:sarif.json; do
	kind=${k%%:*} f=${k#*:}
	(cd "$TMP" && "$SYSCAGE" lint --format sarif "$f" >"$f.sarif" 2>/dev/null)
	if (cd "$TMP" && read_back "$f.sarif" "$kind") >"$TMP/rb.out" 2>&1 && grep -q "^ok [1-9]" "$TMP/rb.out"; then
		ok "sarif of $f: every finding at its line ($(cat "$TMP/rb.out"))"
	else not_ok "sarif of $f: every finding at its line" "$(head -c 600 "$TMP/rb.out")"; fi
done

echo "1..$n"
