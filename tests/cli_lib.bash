# Shared by tests/cli/*.sh: tiny TAP-style assertions around the syscage CLI.
# Each check prints "ok N - name" or "not ok N - name"; run-tests.sh counts them.
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

expect_same() {
	if cmp -s "$1" "$2"; then ok "$3"; else not_ok "$3" "$1 and $2 differ"; fi
}
