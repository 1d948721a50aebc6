#!/usr/bin/env bash
# Real servers and tools under syscage, through examples/learn-replay.sh: nginx (a master
# and workers, a reload), redis (a forked snapshot), curl, git (clone, gc) and python
# (threads, sqlite, a subprocess).  Each runs its workload under the built-in default
# profile, then is learned with `learn --args` and replayed under what was learned; both
# must pass with no denial in the JSON log.  A program that is not installed is skipped
# under its own name.
. "$(dirname "$0")/../cli_lib.bash"
S=$SYSCAGE
REPLAY=$(dirname "$0")/../../examples/learn-replay.sh
T="timeout -k 5 300"

# The script counts the denials itself; on failure its table and first denials are shown.
holds() { # NAME ARGS...: learn-replay.sh ARGS exits 0
	local name=$1
	shift
	if $T bash "$REPLAY" -s "$S" -n 1 "$@" >"$TMP/out" 2>&1; then
		ok "$name"
	else
		not_ok "$name" "$(head -c 2000 "$TMP/out")"
	fi
}

binary_of() {
	case $1 in
	redis) echo redis-server ;;
	python) echo python3 ;;
	*) echo "$1" ;;
	esac
}

for program in nginx redis curl git python; do
	bin=$(binary_of "$program")
	for need in "$bin" curl; do
		command -v "$need" >/dev/null || { missing=$need; break; }
		missing=
	done
	# run reports through user notification and learn records through it
	have_feature user-notif || missing=user-notif
	if [ -n "$missing" ]; then
		skip_feature "$missing" "$program under the default profile: no denial"
		skip_feature "$missing" "$program learned with --args, then replayed: no denial"
		continue
	fi
	holds "$program under the default profile: no denial" -p default "$program"
	holds "$program learned with --args, then replayed: no denial" "$program"
done

# The check can fail: a policy that refuses what curl needs is caught.
if ! have_feature user-notif; then
	skip_feature user-notif "a policy refusing socket: curl's denials counted, exit 1"
	skip_feature user-notif "the refused socket call is shown"
elif command -v curl >/dev/null; then
	printf 'default allow\nerrno(EPERM) socket\n' >"$TMP/nosock.policy"
	expect_status 1 "a policy refusing socket: curl's denials counted, exit 1" -- \
		$T bash "$REPLAY" -s "$S" -n 1 -p "$TMP/nosock.policy" curl
	expect_grep "$TMP/err" '"syscall":"socket"' "the refused socket call is shown"
else
	skip_feature curl "a policy refusing socket: curl's denials counted, exit 1"
	skip_feature curl "the refused socket call is shown"
fi
echo "1..$n"
