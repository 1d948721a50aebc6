#!/usr/bin/env bash
# One loader for every command: the same file gives the same answer under any name (a
# policy as mypol, mypol.txt and x.policy; a compiled filter as f.bpf and f; assembler
# as f.s and without a suffix) in lint, diff, explain, emu, fuse, run -p and compile;
# run -p runs a compiled filter; content no format fits is refused once, with a newline,
# naming what was tried; --input-format overrides the content.
. "$(dirname "$0")/../cli_lib.bash"
REAL=${SYSCAGE_REAL:-$SYSCAGE}

printf 'default allow\nerrno(EACCES) mkdir\n' >"$TMP/mypol"
cp "$TMP/mypol" "$TMP/mypol.txt"
cp "$TMP/mypol" "$TMP/x.policy"
"$SYSCAGE" compile -o "$TMP/f.bpf" "$TMP/x.policy"
cp "$TMP/f.bpf" "$TMP/f"
"$SYSCAGE" disasm -o "$TMP/f.s" "$TMP/f.bpf" 2>/dev/null || "$SYSCAGE" disasm "$TMP/f.bpf" >"$TMP/f.s"
cp "$TMP/f.s" "$TMP/fasm"
names="mypol mypol.txt x.policy f.bpf f f.s fasm"

# emu: every name gives ERRNO(13) for mkdir, ALLOW for read
for f in $names; do
	expect_emu "emu -f $f: mkdir" "ERRNO(13)" -- -f "$TMP/$f" mkdir
	expect_emu "emu -f $f: read" "ALLOW" -- -f "$TMP/$f" read
done

# compile: the same filter from every name
for f in $names; do
	expect_status 0 "compile $f" -- "$SYSCAGE" compile -o "$TMP/c-$f.bpf" "$TMP/$f"
	expect_same "$TMP/c-$f.bpf" "$TMP/f.bpf" "compile $f gives the filter of x.policy"
done

# diff: every name is equivalent to x.policy
for f in $names; do
	expect_status 0 "diff $f x.policy: equivalent" -- "$SYSCAGE" diff "$TMP/$f" "$TMP/x.policy"
done

# lint: the same findings (exit 1: risky syscalls allowed) under every name of a kind
"$SYSCAGE" lint --format json "$TMP/x.policy" >"$TMP/lint-policy.json" 2>/dev/null
"$SYSCAGE" lint --format json "$TMP/f.bpf" >"$TMP/lint-filter.json" 2>/dev/null
for f in $names; do
	expect_status 1 "lint $f: findings" -- "$SYSCAGE" lint --format json "$TMP/$f"
	sed -i "s|$TMP/$f\"|$TMP/x.policy\"|g" "$TMP/out" # the same findings, in its own file
	case $f in
	f* ) expect_same "$TMP/out" "$TMP/lint-filter.json" "lint $f: those of f.bpf" ;;
	*) expect_same "$TMP/out" "$TMP/lint-policy.json" "lint $f: those of x.policy" ;;
	esac
done

# explain: mkdir gets the errno under every name
for f in $names; do
	expect_status 0 "explain $f mkdir" -- "$SYSCAGE" explain "$TMP/$f" mkdir
	expect_grep "$TMP/out" "ERRNO|EACCES" "explain $f: the errno"
done

# fuse: a stack of any two names fuses into the same filter
for f in $names; do
	expect_status 0 "fuse -f $f -f x.policy" -- "$SYSCAGE" fuse -f "$TMP/$f" -f "$TMP/x.policy" -o "$TMP/fused-$f.bpf"
	expect_emu "fused $f: mkdir" "ERRNO(13)" -- -f "$TMP/fused-$f.bpf" mkdir
done

# run -p: a compiled filter runs, under any name, and denies mkdir as the policy does
for f in $names; do
	if ! have_feature user-notif; then
		skip_feature user-notif "run -p $f: mkdir is denied and reported"
		continue
	fi
	rm -rf "$TMP/made"
	expect_status 1 "run -p $f: mkdir is denied" -- "$REAL" run -p "$TMP/$f" mkdir "$TMP/made"
	expect_grep "$TMP/err" "mkdir.*ERRNO\(EACCES\)" "run -p $f: the denial is reported"
	if [ -e "$TMP/made" ]; then not_ok "run -p $f: no directory made"; else ok "run -p $f: no directory made"; fi
done

# content no format fits: one error, ending in a newline, naming what was tried
echo "hello world" >"$TMP/junk"
for c in "lint" "emu -f" "explain" "compile" "run -p"; do
	case $c in
	"emu -f") args=(emu -f "$TMP/junk" read) ;;
	"run -p") args=(run -p "$TMP/junk" true) ;;
	explain) args=(explain "$TMP/junk" read) ;;
	*) args=($c "$TMP/junk") ;;
	esac
	expect_status 2 "$c junk: refused" -- "$SYSCAGE" "${args[@]}"
	expect_grep "$TMP/err" "junk: error: no filter or policy syscage reads: tried a compiled filter \(raw\), assembler \(asm\), the policy language \(policy\)" "$c junk: names what it tried"
	if [ "$(grep -c 'error:' "$TMP/err")" = 1 ] && [ "$(tail -c 1 "$TMP/err" | od -An -c | tr -d ' ')" = '\n' ]; then
		ok "$c junk: the error once, with a newline"
	else
		not_ok "$c junk: the error once, with a newline" "$(cat -A "$TMP/err" | head -c 600)"
	fi
done

# binary data that is no filter: the raw reader's error, once
head -c 100 /dev/zero | tr '\0' '\1' >"$TMP/random.bin"
expect_status 2 "emu -f random.bin: refused" -- "$SYSCAGE" emu -f "$TMP/random.bin" read
expect_grep "$TMP/err" "size 100 is not a multiple of 8" "random.bin: the size is wrong"
if [ "$(grep -c 'error:' "$TMP/err")" = 1 ]; then ok "random.bin: once"; else not_ok "random.bin: once" "$(cat "$TMP/err")"; fi

# --input-format overrides the content
printf 'ld [0]\nret #0x7fff0000\n' >"$TMP/prog"
expect_emu "assembler without a suffix" "ALLOW" -- -f "$TMP/prog" read
expect_status 2 "--input-format policy reads it as a policy" -- "$SYSCAGE" emu --input-format policy -f "$TMP/prog" read
expect_grep "$TMP/err" "prog:1:1: error" "the policy parser's error"
expect_status 0 "--input-format raw reads a filter" -- "$SYSCAGE" emu --input-format raw -f "$TMP/f" mkdir

# Kubernetes SeccompProfile YAML: what compile --format k8s writes reads back as the OCI
# export of the same policy, under any name; errors give the YAML's line
printf 'default errno(EPERM)\nallow read, write\nerrno(EACCES) openat if (flags & O_CREAT) != 0\nkill ptrace\n' >"$TMP/k.policy"
"$SYSCAGE" compile --format k8s --no-runtime-calls -o "$TMP/k.yaml" "$TMP/k.policy" 2>/dev/null
"$SYSCAGE" compile --format oci --no-runtime-calls -o "$TMP/k.json" "$TMP/k.policy" 2>/dev/null
cp "$TMP/k.yaml" "$TMP/kprofile"
for f in k.yaml kprofile; do
	expect_status 0 "diff $f k.json: the YAML is the OCI profile" -- "$SYSCAGE" diff "$TMP/$f" "$TMP/k.json"
	expect_emu "emu -f $f: openat with O_CREAT" "ERRNO(13)" -- -f "$TMP/$f" openat 0 0 64
done
expect_status 0 "explain k.yaml ptrace" -- "$SYSCAGE" explain "$TMP/k.yaml" ptrace
line=$(($(grep -n '^    - ptrace' "$TMP/k.yaml" | cut -d: -f1) - 1)) # its entry's "- names:"
expect_grep "$TMP/out" "decided by the rule at .*k\.yaml:$line\$" "explain: the YAML's line of ptrace's entry"
printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n' >"$TMP/pod.yaml"
expect_status 2 "a Pod is refused" -- "$SYSCAGE" lint "$TMP/pod.yaml"
expect_grep "$TMP/err" "pod\.yaml:1:1: error: a Kubernetes Pod object, not a SeccompProfile" "naming its kind"
printf 'apiVersion: security-profiles-operator.x-k8s.io/v1beta1\nkind: SeccompProfile\nmetadata:\n  name: x\nspec:\n  defaultAction: SCMP_ACT_ERRNO\n  syscalls:\n  - names: [read, write]\n    action: SCMP_ACT_ALLOW\n  - names:\n    - openat\n    action: SCMP_ACT_BOGUS\n' >"$TMP/bad.yaml"
expect_status 2 "an unknown action is refused" -- "$SYSCAGE" compile -o "$TMP/bad.bpf" "$TMP/bad.yaml"
expect_grep "$TMP/err" "bad\.yaml:12:[0-9]+: error: syscalls\[1\]\.action: unknown action 'SCMP_ACT_BOGUS'" "at the YAML's line"
test -e "$TMP/bad.bpf" && not_ok "nothing written" || ok "nothing written"

# every command that takes a filter or a policy says the same about its input
"$SYSCAGE" compile --help | sed -n '/^Inputs:/,$p' >"$TMP/help-compile"
for c in lint diff explain emu fuse run decompile disasm verify inject; do
	"$SYSCAGE" $c --help | sed -n '/^Inputs:/,$p' >"$TMP/help-$c"
	if [ -s "$TMP/help-$c" ] && cmp -s "$TMP/help-$c" "$TMP/help-compile"; then ok "$c --help: the input words of compile"
	else not_ok "$c --help: the input words of compile" "$(head -c 300 "$TMP/help-$c")"; fi
done
echo "1..$n"
