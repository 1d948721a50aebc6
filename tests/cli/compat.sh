#!/usr/bin/env bash
# syscage's libseccomp.so.2 as programs see it: the exported symbol set, a
# program written for libseccomp built against our header, and unchanged
# Debian binaries linked against libseccomp.so.2 (scmp_sys_resolver, man,
# runc) running on our library instead of the system's.
. "$(dirname "$0")/../cli_lib.bash"
BUILD=${BUILD:-build}
LIBDIR=$(cd "$BUILD/compat" && pwd)
LIB=$LIBDIR/libseccomp.so.2
SYSLIB=$(ldconfig -p | sed -n 's/.*libseccomp.so.2 (libc6,x86-64) => //p' | head -1)

# --- the library itself ------------------------------------------------------------
if readelf -d "$LIB" | grep -q 'SONAME.*\[libseccomp.so.2\]'; then ok "soname libseccomp.so.2"; else
	not_ok "soname libseccomp.so.2"; fi
deps=$(readelf -d "$LIB" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')
# A sanitizer build (-Db_sanitize=...) adds its runtimes; unchanged binaries cannot load
# such a library (the runtime must come first), so that build checks only the library.
sanitized=0
case "$deps" in *libasan* | *libubsan*) sanitized=1 ;; esac
deps=$(echo "$deps" | tr ' ' '\n' | grep -v -e libasan -e libubsan -e '^$' | tr '\n' ' ')
if [ "$deps" = "libc.so.6 " ]; then ok "self-contained: needs libc only"; else
	not_ok "self-contained: needs libc only" "NEEDED: $deps"; fi
nm -D --defined-only "$LIB" | awk '{print $3}' | sort >"$TMP/ours"
# libseccomp 2.5's symbols plus the 2.6 additions, and nothing else.
{
	nm -D --defined-only "$SYSLIB" | awk '{print $3}'
	printf '%s\n' seccomp_export_bpf_mem seccomp_notify_addfd seccomp_precompute \
		seccomp_transaction_commit seccomp_transaction_reject seccomp_transaction_start
} | sort -u >"$TMP/want"
if cmp -s "$TMP/ours" "$TMP/want"; then ok "exports exactly libseccomp's symbol set"; else
	not_ok "exports exactly libseccomp's symbol set" "$(diff "$TMP/want" "$TMP/ours" | head -5)"; fi
sed -e 's|@PREFIX@|/p|' -e 's|@LIBDIR@|/p/lib|' -e 's|@INCLUDEDIR@|/p/inc|' compat/libseccomp.pc.in \
	>"$TMP/libseccomp.pc"
expect_status 0 "pkg-config reads libseccomp.pc" -- env PKG_CONFIG_PATH="$TMP" \
	pkg-config --modversion libseccomp
expect_grep "$TMP/out" '^2\.6\.0$' "libseccomp.pc says 2.6.0"

if [ "$sanitized" = 1 ]; then
	skip_feature sanitizer "programs and Debian binaries on a sanitizer-instrumented libseccomp.so.2"
	exit 0
fi

# --- a program written for libseccomp, built against each ---------------------------
CC=${CC:-cc}
expect_status 0 "examples/seccomp-user.c builds against compat/seccomp.h" -- \
	"$CC" -Icompat examples/seccomp-user.c -L"$LIBDIR" -Wl,-rpath,"$LIBDIR" -lseccomp \
	-o "$TMP/user-ours"
expect_status 0 "and against libseccomp's own header" -- \
	"$CC" examples/seccomp-user.c -lseccomp -o "$TMP/user-theirs"
expect_status 0 "built against ours: runs" -- "$TMP/user-ours"
cp "$TMP/out" "$TMP/user-ours.out"
expect_grep "$TMP/user-ours.out" 'getppid: -1 \(Operation not permitted\)' "its filter denies getppid"
expect_grep "$TMP/user-ours.out" 'TIOCSTI.*Inappropriate ioctl' "and TIOCSTI, by argument"
expect_status 0 "built against libseccomp: runs" -- "$TMP/user-theirs"
expect_same "$TMP/user-ours.out" "$TMP/out" "both builds behave alike"
LD_LIBRARY_PATH=$LIBDIR LD_DEBUG=libs "$TMP/user-theirs" >"$TMP/out" 2>"$TMP/err"
expect_grep "$TMP/err" "calling init: $LIB" "the libseccomp build runs on ours via LD_LIBRARY_PATH"
expect_same "$TMP/user-ours.out" "$TMP/out" "and behaves the same"

# --- scmp_sys_resolver (Debian package seccomp) ------------------------------------
if command -v scmp_sys_resolver >/dev/null; then
	for q in "read" "-a x86 socket" "-a x86 -t socket" "-a x86 102" "-a x32 read" \
		"-a aarch64 openat" "-a x86_64 socketcall" "-a s390x 102" "bogus"; do
		# shellcheck disable=SC2086
		a=$(scmp_sys_resolver $q 2>&1)
		# shellcheck disable=SC2086
		b=$(LD_LIBRARY_PATH=$LIBDIR scmp_sys_resolver $q 2>&1)
		if [ "$a" = "$b" ]; then ok "scmp_sys_resolver $q: $b"; else
			not_ok "scmp_sys_resolver $q" "libseccomp: $a" "syscage: $b"; fi
	done
	LD_LIBRARY_PATH=$LIBDIR LD_DEBUG=libs scmp_sys_resolver read >/dev/null 2>"$TMP/err"
	expect_grep "$TMP/err" "calling init: $LIB" "scmp_sys_resolver loaded our library"
else
	not_ok "scmp_sys_resolver installed (Debian package seccomp)"
fi

# --- man-db: sandboxes its child processes with libseccomp ------------------------------------
if command -v man >/dev/null && [ -e /usr/share/man/man1/ls.1.gz ]; then
	env -u MAN_DISABLE_SECCOMP LD_LIBRARY_PATH="$LIBDIR" LD_DEBUG=libs man -P cat ls \
		>"$TMP/man.out" 2>"$TMP/err"
	expect_grep "$TMP/man.out" 'ls - list directory contents' "man -P cat ls works on our library"
	expect_grep "$TMP/err" "calling init: $LIB" "man loaded our library"
	if command -v strace >/dev/null; then
		env -u MAN_DISABLE_SECCOMP LD_LIBRARY_PATH="$LIBDIR" strace -f -e trace=seccomp \
			-o "$TMP/strace" man -P cat ls >/dev/null 2>&1
		# man-db leaves its sandbox out when it already runs under a filter
		with_feature no-inherited-filter expect_grep "$TMP/strace" 'SET_MODE_FILTER, [^,]*, \{len=[0-9]+' \
			"man's child processes installed filters made by our library"
	fi
else
	not_ok "man and the ls(1) page installed (man-db, coreutils)"
fi

# --- runc with Docker's default profile ------------------------------------------------
# runc builds the filter in 'runc init', which it re-executes and which does not keep
# LD_LIBRARY_PATH (its filter still came from the system's library); so, in a private
# mount namespace, our library is bind-mounted over the system's.
SYSCAGE_ABS=$(cd "$(dirname "$SYSCAGE")" && pwd)/$(basename "$SYSCAGE")
# The probe waits after its report (a loaded machine can be slow to start the
# container): its filter is dumped once the report is out, then the container is
# deleted.
runc_case() { # NAME BIND(0|1): runs the container, leaves its output and filter in $TMP
	local name=$1 bind=$2 pre=""
	[ "$bind" = 1 ] && pre="mount --bind '$LIB' '$SYSLIB' &&"
	unshare -m sh -c "mount --make-rprivate / && $pre
		cd '$TMP/bundle' && (runc run $name >'$TMP/$name.out' 2>'$TMP/$name.err' &)
		for i in \$(seq 120); do
			pid=\$(runc state $name 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"pid\"])' 2>/dev/null)
			[ -n \"\$pid\" ] && [ \"\$pid\" != 0 ] && grep -q ADDR_COMPAT '$TMP/$name.out' && break
			sleep 0.25
		done
		for i in \$(seq 20); do
			'$SYSCAGE_ABS' dump --format raw -o '$TMP/$name.dump' \$pid >/dev/null 2>&1 &&
				ls '$TMP/$name.dump'/*.bpf >/dev/null 2>&1 && break
			sleep 0.25
		done
		runc delete -f $name >/dev/null 2>&1"
}
runc_checks=(
	"runc + our library: Docker's profile denies personality(ADDR_COMPAT_LAYOUT)"
	"and allows personality(0)" "the container behaves as with libseccomp"
	"runc installed a different (our) filter"
	"the filters differ only on syscalls libseccomp 2.5.4 does not know"
)
# runc_starts: a container without a seccomp profile runs the probe here
runc_starts() {
	python3 - "$TMP/bundle/config.json" "$TMP/plain.json" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
config["linux"].pop("seccomp", None)
config["process"]["args"] = ["/bin/probe"]  # reports and exits, without the wait
json.dump(config, open(sys.argv[2], "w"))
PY
	mkdir -p "$TMP/plain" && cp "$TMP/plain.json" "$TMP/plain/config.json" &&
		cp -a "$TMP/bundle/rootfs" "$TMP/plain/" &&
		(cd "$TMP/plain" && timeout 30 runc run "scg-compat-p$$" >"$TMP/plain.out" 2>&1) &&
		grep -q 'personality(0): allowed' "$TMP/plain.out"
}
if ! have_feature runc; then
	for check in "${runc_checks[@]}"; do skip_feature runc "$check"; done
elif ! "$CC" -static -O2 tests/compat/container_probe.c -o "$TMP/probe" 2>"$TMP/err"; then
	not_ok "containers possible here (static linking)" "$(head -3 "$TMP/err")"
else
	mkdir -p "$TMP/bundle/rootfs/bin" && cp "$TMP/probe" "$TMP/bundle/rootfs/bin/probe"
	(cd "$TMP/bundle" && runc spec)
	"$SYSCAGE" compile -f oci tests/data/docker-default.json -o "$TMP/profile.json" 2>/dev/null
	python3 - "$TMP/bundle/config.json" "$TMP/profile.json" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
profile = json.load(open(sys.argv[2]))
config["process"]["args"] = ["/bin/probe", "wait"]
config["process"]["terminal"] = False
config["root"]["readonly"] = True
config["linux"]["seccomp"] = profile.get("linux", {}).get("seccomp", profile)
json.dump(config, open(sys.argv[1], "w"))
PY
	if ! runc_starts; then
		for check in "${runc_checks[@]}"; do skip_feature runc "$check"; done
		exit 0
	fi
	name_t=scg-compat-t$$ name_o=scg-compat-o$$
	runc_case "$name_t" 0
	runc_case "$name_o" 1
	expect_grep "$TMP/$name_o.out" 'personality\(ADDR_COMPAT_LAYOUT\): Operation not permitted' \
		"runc + our library: Docker's profile denies personality(ADDR_COMPAT_LAYOUT)"
	expect_grep "$TMP/$name_o.out" 'personality\(0\): allowed' "and allows personality(0)"
	expect_same "$TMP/$name_t.out" "$TMP/$name_o.out" "the container behaves as with libseccomp"
	# the filters are read back with syscage dump PID
	if ! have_feature ptrace-get-filter; then
		skip_feature ptrace-get-filter "${runc_checks[3]}"
		skip_feature ptrace-get-filter "${runc_checks[4]}"
		exit 0
	fi
	ft=$(ls "$TMP/$name_t.dump"/*.bpf 2>/dev/null | head -1)
	fo=$(ls "$TMP/$name_o.dump"/*.bpf 2>/dev/null | head -1)
	if [ -n "$ft" ] && [ -n "$fo" ] && ! cmp -s "$ft" "$fo"; then
		ok "runc installed a different (our) filter: $(($(stat -c %s "$fo") / 8)) vs $(($(stat -c %s "$ft") / 8)) instructions"
		# Same verdict everywhere except syscalls newer than libseccomp 2.5.4's tables,
		# which runc's ENOSYS stub treats as unknown there.
		"$SYSCAGE" diff "$ft" "$fo" >"$TMP/diff" 2>&1
		# Each differing region's example call: libseccomp 2.5.4 must not know that syscall.
		known=""
		while read -r arch name; do
			nr=$(scmp_sys_resolver -a "$arch" "$name" 2>/dev/null)
			case "$nr" in "" | -*) ;; *) known="$known $arch/$name" ;; esac
		done < <(sed -n 's/.*syscage emu -a \([a-z0-9_]*\) -f [^ ]*filter-0.bpf \([a-z0-9_]*\) .*/\1 \2/p' \
			"$TMP/diff" | sort -u)
		if [ -z "$known" ] && grep -qiE 'in A|equivalent|same verdict' "$TMP/diff"; then
			ok "the filters differ only on syscalls libseccomp 2.5.4 does not know"
		else
			not_ok "the filters differ only on syscalls libseccomp 2.5.4 does not know" \
				"known to libseccomp yet different:$known"
		fi
	else
		not_ok "runc installed a filter made by our library" "dumps: '$ft' '$fo'"
	fi
fi
