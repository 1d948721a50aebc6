#!/usr/bin/env bash
# Learn a policy with 'syscage learn --args' from a real program's workload, then
# replay the same workload under 'syscage run -p' that policy and count the
# denials (docs/learn.md, "From learning to a policy that holds").
#
#   examples/learn-replay.sh [-s SYSCAGE] [-n REPLAYS] [-p PROFILE] [nginx] [redis] [curl] [git] [python]
#
# With -p, nothing is learned: the workloads run under PROFILE (a built-in profile
# such as 'default', or a policy file) and their denials are counted the same way.
# With no program named, all five.  A program that is not installed is skipped and
# named.  Each workload starts the program under the launcher given as its
# arguments ("$@" is 'syscage learn ...' or 'syscage run ...'), drives it with
# requests, and stops it.  Exit status: 0 when every replay had no denial.
set -u
SYSCAGE=syscage
REPLAYS=2
PROFILE=
while getopts s:n:p: opt; do
	case $opt in
	s) SYSCAGE=$OPTARG ;;
	n) REPLAYS=$OPTARG ;;
	p) PROFILE=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- nginx redis curl git python
# The workloads change directory: a path to the command must not depend on this one.
case $SYSCAGE in */*) SYSCAGE=$(realpath "$SYSCAGE") ;; esac
# Without a launcher every workload fails at once, and no denial would be counted.
if ! "$SYSCAGE" --version >/dev/null 2>&1; then
	echo "learn-replay.sh: cannot run '$SYSCAGE' (name the command with -s PATH)" >&2
	exit 2
fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# A port free right now, so that two runs side by side do not meet.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_for() { # CMD...: polls CMD for up to 5 s
	for _ in $(seq 50); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
	return 1
}

workload_nginx() {
	local port
	port=$(free_port)
	mkdir -p "$W/www" && echo hello >"$W/www/index.html"
	cat >"$W/nginx.conf" <<EOF
worker_processes 2;
pid $W/nginx.pid;
error_log $W/error.log;
events { worker_connections 64; }
http {
  access_log $W/access.log;
  client_body_temp_path $W/body; proxy_temp_path $W/proxy; fastcgi_temp_path $W/fcgi;
  uwsgi_temp_path $W/uwsgi; scgi_temp_path $W/scgi;
  server { listen 127.0.0.1:$port; root $W/www; }
}
EOF
	"$@" nginx -c "$W/nginx.conf" -g 'daemon off;' &
	local launcher=$!
	wait_for curl -sf http://127.0.0.1:$port/
	for _ in $(seq 20); do
		curl -s http://127.0.0.1:$port/ >/dev/null
		curl -s http://127.0.0.1:$port/missing >/dev/null
	done
	kill -HUP "$(cat "$W/nginx.pid")" && sleep 1 # a reload respawns the workers
	for _ in $(seq 20); do curl -s http://127.0.0.1:$port/ >/dev/null; done
	kill -QUIT "$(cat "$W/nginx.pid")"
	wait "$launcher"
}

workload_redis() {
	local port
	port=$(free_port)
	mkdir -p "$W/redis"
	"$@" redis-server --port "$port" --bind 127.0.0.1 --dir "$W/redis" --save "" \
		--appendonly no --daemonize no >/dev/null &
	local launcher=$!
	wait_for redis-cli -p "$port" ping
	for i in $(seq 100); do redis-cli -p "$port" set "k$i" "v$i" >/dev/null; done
	redis-cli -p "$port" get k42 >/dev/null
	redis-cli -p "$port" lpush l a b c >/dev/null
	redis-cli -p "$port" bgsave >/dev/null && sleep 1.5 # a fork that writes the snapshot
	redis-cli -p "$port" save >/dev/null
	redis-cli -p "$port" shutdown nosave >/dev/null
	wait "$launcher"
}

workload_curl() {
	local port
	port=$(free_port)
	python3 -m http.server "$port" --bind 127.0.0.1 --directory /etc >/dev/null 2>&1 &
	local server=$!
	wait_for curl -sf http://127.0.0.1:$port/
	"$@" curl -s http://127.0.0.1:$port/hostname >/dev/null
	"$@" curl -s -o "$W/download" http://127.0.0.1:$port/os-release
	"$@" curl -s -d x=1 -o /dev/null http://127.0.0.1:$port/
	"$@" curl -s file:///etc/hostname >/dev/null
	"$@" curl -s -I http://127.0.0.1:$port/ >/dev/null
	kill "$server"
}

workload_git() {
	local d
	d=$(mktemp -d -p "$W") && cd "$d" || return 1
	"$@" git init -q repo && cd repo || return 1
	for i in 1 2 3; do
		echo "line $i" >>f.txt
		"$@" git add f.txt
		"$@" git -c user.name=a -c user.email=a@b commit -qm "c$i"
	done
	"$@" git log --oneline >/dev/null
	"$@" git checkout -qb topic && echo x >g.txt && "$@" git add g.txt
	"$@" git -c user.name=a -c user.email=a@b commit -qm g
	"$@" git diff HEAD~1 --stat >/dev/null
	cd .. && "$@" git clone -q repo copy && "$@" git -C copy gc -q
	"$@" git -C copy status --short >/dev/null
	cd "$W" || return 1
}

workload_python() {
	"$@" python3 - <<'PY'
import concurrent.futures, hashlib, json, os, sqlite3, subprocess, tempfile
db = sqlite3.connect(os.path.join(tempfile.mkdtemp(), "t.db"))
db.execute("create table t (k text, v text)")
db.executemany("insert into t values (?, ?)", [(str(i), str(i * i)) for i in range(500)])
db.commit()
def work(n):
    return hashlib.sha256(json.dumps(list(range(n))).encode()).hexdigest()
with concurrent.futures.ThreadPoolExecutor(4) as pool:
    list(pool.map(work, range(200)))
subprocess.run(["/bin/echo"], capture_output=True)
PY
}

# The replay's launcher: 'syscage run' with a log of its own per launch (a
# workload launches several times, and --log starts its file anew).
replay() {
	"$SYSCAGE" run -q -p "$POLICY" --log "$(mktemp -p "$LOGS" log.XXXXXX)" -- "$@"
}

binary_of() {
	case $1 in
	redis) echo redis-server ;;
	python) echo python3 ;;
	*) echo "$1" ;;
	esac
}

status=0
printf '%-8s %-7s %s\n' program "$([ -n "$PROFILE" ] && echo policy || echo rules)" "denials per replay"
for program in "$@"; do
	if ! declare -F "workload_$program" >/dev/null; then
		echo "unknown program '$program' (nginx, redis, curl, git, python)" >&2
		exit 2
	fi
	if ! command -v "$(binary_of "$program")" >/dev/null || ! command -v curl >/dev/null; then
		printf '%-8s skipped: %s is not installed\n' "$program" "$(binary_of "$program")"
		continue
	fi
	if [ -n "$PROFILE" ]; then
		policy=$PROFILE rules=$PROFILE
	else
		policy=$W/$program.policy
		: >"$policy" # each launch of the workload merges into the same policy
		"workload_$program" "$SYSCAGE" learn --args --merge "$policy" -o "$policy" -- \
			>/dev/null 2>"$W/$program.learn.err"
		rules=$(grep -c '^allow' "$policy")
		if [ "$rules" -eq 0 ]; then
			printf '%-8s learned nothing:\n' "$program"
			head -n 5 "$W/$program.learn.err"
			status=1
			continue
		fi
	fi
	denials=""
	for r in $(seq "$REPLAYS"); do
		logs=$W/$program.logs.$r
		mkdir -p "$logs"
		LOGS=$logs POLICY=$policy "workload_$program" replay >/dev/null 2>&1
		n=$(cat "$logs"/* | wc -l)
		denials="$denials $n"
		[ "$n" -eq 0 ] || { status=1; cat "$logs"/* | head -3 >&2; }
	done
	printf '%-8s %-7s%s\n' "$program" "$rules" "$denials"
done
exit "$status"
