# Shared by tests/cli/*.sh: tiny TAP-style assertions around the syscage CLI.
# Each check prints "ok N - name" or "not ok N - name"; tests/run-tap.sh fails the script on
# any "not ok", and tests/summarize.py counts them.
set -u
SYSCAGE=${SYSCAGE:-build/syscage}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
n=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }

# expect_status STATUS NAME -- CMD...: runs CMD, checks its exit status.
# Leaves stdout in $TMP/out and stderr in $TMP/err.
expect_status() {
	local want=$1 name=$2
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	local got=$?
	if [ "$got" -eq "$want" ]; then ok "$name"; else
		not_ok "$name" "exit status $got, wanted $want" "stderr: $(head -c 400 "$TMP/err")"
	fi
}

# expect_grep FILE PATTERN NAME: FILE contains a line matching PATTERN (grep -E).
expect_grep() {
	if grep -qE -- "$2" "$1"; then ok "$3"; else
		not_ok "$3" "no line matches /$2/ in:" "$(head -c 400 "$1")"
	fi
}

# expect_emu NAME WANT -- EMU ARGS...: `syscage emu` succeeds and prints WANT first.
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

expect_same() {
	if cmp -s "$1" "$2"; then ok "$3"; else not_ok "$3" "$1 and $2 differ"; fi
}

# skip_feature FEATURE NAME: check NAME cannot run here because the kernel or the
# machine lacks FEATURE (a name have_feature knows); counted as a skip, never a pass.
skip_feature() { n=$((n + 1)); echo "ok $n - $2 # SKIP $1"; }

# have_feature FEATURE: whether this machine has FEATURE, as the built syscage's
# probes see it (`syscage status --json`, less SYSCAGE_DISABLE_FEATURES): tsync, log,
# spec-allow, new-listener, tsync-esrch, wait-killable-recv, user-notif,
# i386-emulation, x32, ptrace-get-filter, landlock, landlock-scope, cgroup-kill.  Also runc (installed, and mount
# namespaces work), no-inherited-filter (this shell runs under no seccomp filter) and
# firejail (its seccomp compiler, fseccomp, is installed).
# An unknown name is a failed check, so a typo cannot turn checks into skips.
_features_for=$'\001' # a value nobody sets: the first call asks
have_feature() {
	case $1 in
	runc) command -v runc >/dev/null && unshare -m true 2>/dev/null; return ;;
	no-inherited-filter) grep -qE '^Seccomp:[[:space:]]+0$' /proc/self/status; return ;;
	firejail) [ -x "${FIREJAIL_LIBDIR:-/usr/lib/x86_64-linux-gnu/firejail}/fseccomp" ]; return ;;
	esac
	if [ "$_features_for" != "${SYSCAGE_DISABLE_FEATURES-}" ]; then
		_features=$("$SYSCAGE" status --json 2>/dev/null)
		_features_for=${SYSCAGE_DISABLE_FEATURES-}
	fi
	case $_features in
	*"\"$1\": true"*) return 0 ;;
	*"\"$1\": false"*) return 1 ;;
	esac
	not_ok "have_feature $1" "syscage status --json does not name this feature"
	return 1
}

# with_feature FEATURE CHECK ARG...: runs the check (expect_status, expect_grep,
# expect_same, or a script's own check that takes FILE NAME first) when the machine
# has FEATURE; otherwise skips it under its own name.
with_feature() {
	local feature=$1
	shift
	if have_feature "$feature"; then "$@"; return; fi
	case $1 in
	expect_status) skip_feature "$feature" "$3" ;;
	expect_grep | expect_same) skip_feature "$feature" "$4" ;;
	*) skip_feature "$feature" "$3" ;;
	esac
}

# helper NAME: the path of helper program tests/helpers/NAME.c, built here when the build
# has not (a build without the tests part)
helper() {
	local h=${BUILD:-build}/tests/helpers/$1
	if [ ! -x "$h" ]; then
		h=$TMP/$1
		cc -D_GNU_SOURCE -o "$h" "$(dirname "$0")/../helpers/$1.c" -lpthread >&2
	fi
	realpath "$h"
}

# div_by_zero_filter SETUP: assembler for x86_64 whose `div x` meets X == 0, so the kernel
# ends the filter with 0 (KILL_THREAD); SETUP ("", "ldx #0", "ld #0; tax": instructions
# separated by "; ") is how X comes to be 0 ("": never written).
div_by_zero_filter() {
	printf '\tld [arch]\n\tjeq #AUDIT_ARCH_X86_64, ok\n\tret #0x80000000\nok:\n'
	[ -z "$1" ] || printf '\t%s\n' "${1//; /$'\n\t'}"
	printf '\tld [nr]\n\tdiv x\n\tret #0x00030000\n'
}

# twice_filter: assembler for x86_64 that tests the same bits of clone's arg0 twice on the
# path to ERRNO(13), so a condition rebuilt from the path would repeat one test.
twice_filter() {
	cat <<'ASM'
ld [arch]
jne #AUDIT_ARCH_X86_64, kill
ld [nr]
jne #56, allow
ld [arg0.lo]
jset #0x30000000, a, allow
a: ld [arg1.lo]
jeq #5, deny1, b
b: ld [arg0.lo]
jset #0x30000000, deny2, allow
deny1: ret ERRNO(1)
deny2: ret ERRNO(13)
allow: ret ALLOW
kill: ret KILL_PROCESS
ASM
}
