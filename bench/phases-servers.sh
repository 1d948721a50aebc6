#!/usr/bin/env bash
# The measurement of docs/phases.md: each server learned with `syscage learn --phases TRIGGER`
# under a workload, then run RUNS times under the policy with phases and the same workload.
# A run passes when syscage reports no denial, the workload gets every answer it expects
# and the server ends cleanly.  Prints, per server, the learner's phase summary (syscalls
# and dangerous ones whole life and serving, the dangerous calls dropped), the calls the
# serving phase drops, the verdict of the serving phase's filter for execve, and each run.
# Needs root (postgres runs as the user postgres, the others as root).
#
#   bench/phases-servers.sh [nginx] [redis] [postgres]     (default: all three;
#       SYSCAGE=path/to/syscage, RUNS=3, WORK=/var/tmp/syscage-phases,
#       PGBIN=/usr/lib/postgresql/15/bin, PORT=first port to try,
#       POLICY=FILE: replay FILE, a policy with phases for the one server named,
#       instead of learning one)
# shellcheck disable=SC2317  # the servers' functions are called by name ("${S}_workload")
set -u
SYSCAGE=$(realpath "${SYSCAGE:-build/syscage}")
RUNS=${RUNS:-3}
WORK=${WORK:-/var/tmp/syscage-phases}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PORT=${PORT:-54330}
[ -x "$SYSCAGE" ] || { echo "no $SYSCAGE: run ninja -C build first" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "$0: needs root" >&2; exit 2; }
[ $# -gt 0 ] || set -- nginx redis postgres

# a TCP port on 127.0.0.1 nothing listens on
free_port() {
	local p=$PORT
	while ss -Hltn "sport = :$p" | grep -q .; do p=$((p + 1)); done
	echo "$p"
}

# wait until something listens on 127.0.0.1:$1 (at most 30 s)
wait_port() {
	local i
	for i in $(seq 300); do
		ss -Hltn "sport = :$1" | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

# --- nginx: master + 2 workers, 200 GETs of a static file, a 404, a HEAD ---------------
nginx_setup() {
	mkdir -p "$D/html" "$D/logs" "$D/tmp"
	head -c 4096 /dev/urandom | base64 >"$D/html/index.html"
	cat >"$D/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes 2;
pid $D/nginx.pid;
error_log $D/logs/error.log;
events { worker_connections 64; }
http {
	access_log $D/logs/access.log;
	client_body_temp_path $D/tmp; proxy_temp_path $D/tmp; fastcgi_temp_path $D/tmp;
	uwsgi_temp_path $D/tmp; scgi_temp_path $D/tmp;
	server { listen 127.0.0.1:$P; root $D/html; }
}
EOF
}
nginx_cmd() { echo /usr/sbin/nginx -p "$D" -c "$D/nginx.conf"; }
nginx_workload() {
	local i ok=0
	for i in $(seq 200); do
		cmp -s <(curl -fsS "http://127.0.0.1:$P/index.html") "$D/html/index.html" &&
			ok=$((ok + 1))
	done
	for i in 1 2; do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$P/")" = 200 ] &&
			ok=$((ok + 1))
	done
	[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$P/none")" = 404 ] &&
		ok=$((ok + 1))
	curl -fsSI "http://127.0.0.1:$P/index.html" >/dev/null && ok=$((ok + 1))
	echo "$ok of 204 requests answered"
	[ "$ok" = 204 ]
}

# --- redis: redis-benchmark over 50 connections, redis-cli ----------------------------
redis_setup() { :; }
redis_cmd() {
	echo /usr/bin/redis-server --port "$P" --bind 127.0.0.1 --save '""' --appendonly no \
		--dir "$D"
}
redis_workload() {
	redis-benchmark -h 127.0.0.1 -p "$P" -q -n 2000 -t set,get,incr,lpush,lpop,sadd,hset \
		>"$D/bench.out" 2>&1 || { echo "redis-benchmark failed"; return 1; }
	redis-cli -h 127.0.0.1 -p "$P" set syscage phases >/dev/null &&
		[ "$(redis-cli -h 127.0.0.1 -p "$P" get syscage)" = phases ] &&
		[ "$(redis-cli -h 127.0.0.1 -p "$P" get counter:__rand_int__)" != "" ] ||
		{ echo "redis-cli: wrong answer"; return 1; }
	echo "redis-benchmark: $(grep -c 'requests per second' "$D/bench.out") tests, redis-cli answered"
}

# --- postgres: a fresh cluster, psql DDL and DML, pgbench with 4 clients ---------------
postgres_setup() {
	chown postgres "$D"
	# one pristine cluster, copied afresh for every run: each run starts from the same state
	if [ ! -d "$WORK/postgres.initdb" ]; then
		install -d -o postgres "$WORK/postgres.initdb"
		runuser -u postgres -- "$PGBIN/initdb" -D "$WORK/postgres.initdb" -A trust -U postgres \
			>"$WORK/postgres.initdb.log" 2>&1 || { echo "initdb failed" >&2; return 1; }
	fi
	rm -rf "$D/data"
	cp -a "$WORK/postgres.initdb" "$D/data"
}
# listening is not ready: the startup process may still be at work
postgres_ready() {
	local i
	for i in $(seq 300); do
		pg_isready -q -h 127.0.0.1 -p "$P" && return 0
		sleep 0.1
	done
	return 1
}
postgres_cmd() {
	echo "$PGBIN/postgres" -D "$D/data" -c listen_addresses=127.0.0.1 -p "$P" \
		-c unix_socket_directories= -c logging_collector=off
}
pg_sql() {
	psql -X -q -A -t -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$P" -U postgres "$@"
}
postgres_workload() {
	local i sum f n
	pg_sql -c 'CREATE TABLE kv (k int PRIMARY KEY, v text)' >/dev/null &&
		pg_sql -c "INSERT INTO kv SELECT g, md5(g::text) FROM generate_series(1, 10000) g" &&
		pg_sql -c 'CREATE INDEX ON kv (v)' &&
		pg_sql -c "UPDATE kv SET v = 'x' || v WHERE k % 3 = 0" >/dev/null ||
		{ echo "psql: set-up statements failed"; return 1; }
	# several connections at once, each its own backend
	local pids=()
	for i in 1 2 3 4; do
		pg_sql -c "SELECT count(*) FROM kv WHERE k % 4 = $((i - 1))" >"$D/select.$i" &
		pids+=($!)
	done
	wait "${pids[@]}"
	sum=0
	for f in "$D"/select.?; do
		n=$(tr -dc 0-9 <"$f")
		sum=$((sum + ${n:-0}))
	done
	[ "$sum" = 10000 ] || { echo "psql: SELECTs counted $sum rows of 10000"; return 1; }
	runuser -u postgres -- "$PGBIN/pgbench" -i -s 2 -q -h 127.0.0.1 -p "$P" -U postgres \
		postgres >"$D/pgbench-init.out" 2>&1 || { echo "pgbench -i failed"; return 1; }
	runuser -u postgres -- "$PGBIN/pgbench" -c 4 -j 2 -t 250 -h 127.0.0.1 -p "$P" \
		-U postgres postgres >"$D/pgbench.out" 2>&1 || { echo "pgbench failed"; return 1; }
	grep -q 'number of transactions actually processed: 1000/1000' "$D/pgbench.out" ||
		{ echo "pgbench: not every transaction processed"; return 1; }
	[ "$(pg_sql -c 'SELECT count(*) FROM pgbench_history')" = 1000 ] ||
		{ echo "pgbench_history lacks rows"; return 1; }
	pg_sql -c 'VACUUM ANALYZE kv' && pg_sql -c 'DROP TABLE kv' ||
		{ echo "psql: VACUUM or DROP failed"; return 1; }
	echo "psql: 8 statements over 10 connections, pgbench: 1000 of 1000 transactions"
}


# one run: $1 = learn|run; the server under syscage in the background, the workload,
# then SIGTERM to syscage (which passes it on); 0 when everything passed
one() {
	local mode=$1 log=$2 pid rc wl=0 cmd as=()
	read -r -a cmd <<<"$("${S}_cmd")"
	# postgres refuses to run as root; setpriv execs, so $! is syscage itself
	[ "$S" = postgres ] && as=(setpriv --reuid=postgres --regid=postgres --init-groups)
	"${S}_setup" || return 1
	if [ "$mode" = learn ]; then
		"${as[@]}" "$SYSCAGE" learn --phases "$TRIGGER" -o "$D/$S.policy" -- "${cmd[@]}" \
			>"$log" 2>&1 &
	else
		"${as[@]}" "$SYSCAGE" run -v -p "$D/$S.policy" -- "${cmd[@]}" >"$log" 2>&1 &
	fi
	pid=$!
	if wait_port "$P" && { [ "$S" != postgres ] || postgres_ready; }; then
		"${S}_workload" || wl=1
	else
		echo "nothing listens on port $P"
		wl=1
	fi
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	if grep -q '^syscage: denied' "$log"; then
		echo "denials:"
		grep '^syscage: denied' "$log"
		return 1
	fi
	# a serving phase's verdicts are the kernel's, unreported: the server's log tells
	if grep -q 'signal 31' "$log"; then
		echo "a process killed by SIGSYS:"
		grep 'signal 31' "$log"
		return 1
	fi
	[ "$mode" = run ] &&
		echo "$(grep -c "entered phase 'serving'" "$log") processes entered the serving phase"
	[ "$rc" = 0 ] || [ "$rc" = 143 ] || { echo "syscage exited $rc"; tail -5 "$log"; return 1; }
	return "$wl"
}

fails=0
for S in "$@"; do
	case $S in
	nginx | redis) TRIGGER=epoll_wait ;;
	postgres) TRIGGER='sendto if len > 1' ;;
	*) echo "$0: no server '$S' (nginx, redis, postgres)" >&2; exit 2 ;;
	esac
	D=$WORK/$S
	rm -rf "$D"
	mkdir -p "$D"
	P=$(free_port)
	if [ -n "${POLICY-}" ]; then
		[ $# = 1 ] || { echo "$0: POLICY goes with one server" >&2; exit 2; }
		echo "== $S, $POLICY, port $P"
		cp "$POLICY" "$D/$S.policy" && chmod a+r "$D/$S.policy" || exit 2
	else
		echo "== $S, trigger '$TRIGGER', port $P"
		if ! one learn "$D/learn.log"; then
			echo "$S: learning failed ($D/learn.log)"
			fails=$((fails + 1))
			continue
		fi
		grep '^syscage: phases:' "$D/learn.log"
	fi
	"$SYSCAGE" compile --phase serving -o "$D/serving.bpf" "$D/$S.policy"
	echo "execve in the serving phase's filter: $("$SYSCAGE" explain "$D/serving.bpf" execve | sed -n 's/^filter verdict: //p')"
	for r in $(seq "$RUNS"); do
		if out=$(one run "$D/run$r.log"); then
			echo "run $r: passed: $(echo "$out" | paste -sd';' | sed 's/;/; /g')"
		else
			echo "run $r: FAILED ($D/run$r.log)"
			echo "$out"
			fails=$((fails + 1))
		fi
	done
done
exit $((fails > 0))
