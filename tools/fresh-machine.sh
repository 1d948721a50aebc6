#!/usr/bin/env bash
# Runs a bootstrap job on a fresh, minimal Debian 12, as a new user's machine would be:
# a debootstrap --variant=minbase chroot from the mirror apt already uses, with this work
# tree copied in (committed or not, ignored files left out) and ../shared beside it.
# A package the job needs but ./bootstrap does not install fails here.
#
#   tools/fresh-machine.sh [demo|check|programs]      (as root; default demo)
#
# programs: the demo, then what a stranger would run next: git, python3, nginx, redis,
# curl and postgres installed from Debian, each run under the built-in default profile,
# learned with `learn --args` and replayed under what was learned
# (examples/learn-replay.sh), and the three servers learned with phases and replayed
# (bench/phases-servers.sh).
#
# FRESH_ROOT names the chroot directory (default: a new one under /var/tmp, removed after).
# FRESH_KEEP=1 keeps it for a look around.
set -euo pipefail
job=${1:-demo}
case "$job" in demo | check | programs) ;; *)
	echo "usage: tools/fresh-machine.sh [demo|check|programs]" >&2
	exit 2
	;;
esac
[ "$(id -u)" -eq 0 ] || { echo "fresh-machine: needs root (debootstrap, chroot, mounts)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh-machine: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }

tree=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "$tree/.." && pwd)/shared
root=${FRESH_ROOT:-$(mktemp -d /var/tmp/syscage-fresh.XXXXXX)}
mounted=()

# The Debian mirror apt itself uses for bookworm's main component (other sources, such as a
# vendor's repository, serve no bookworm release).
mirror() {
	local m
	m=$(apt-cache policy 2>/dev/null | awk '$3 == "bookworm/main" { print $2; exit }')
	echo "${m:-http://deb.debian.org/debian}"
}

cleanup() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount -l "${mounted[$i]}" 2>/dev/null || true
	done
	if [ "${FRESH_KEEP:-0}" != 1 ] && [ -z "${FRESH_ROOT:-}" ]; then
		rm -rf --one-file-system "$root"
	fi
}
trap cleanup EXIT

bind() {
	mkdir -p "$root$2"
	mount "$@" >/dev/null
	mounted+=("$root$2")
}

SECONDS=0
if [ ! -x "$root/usr/bin/apt-get" ]; then
	echo "fresh-machine: debootstrap bookworm from $(mirror) into $root"
	debootstrap --variant=minbase bookworm "$root" "$(mirror)" >"$root.debootstrap.log" 2>&1 ||
		{ tail -n 30 "$root.debootstrap.log"; exit 1; }
	rm -f "$root.debootstrap.log"
fi
echo "fresh-machine: copying the tree into $root/work/main"
mkdir -p "$root/work/main" "$root/work/shared"
# Tracked and new files, as they are now; a tracked file deleted in the tree stays out.
(cd "$tree" && git ls-files -z --cached --others --exclude-standard |
	tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$root/work/main"
[ -d "$shared" ] && cp -a "$shared/." "$root/work/shared/"
cp /etc/resolv.conf "$root/etc/resolv.conf"

mount -t proc proc "$root/proc" && mounted+=("$root/proc")
mount -t sysfs sysfs "$root/sys" && mounted+=("$root/sys")
# runc, which the check's tests start, needs the cgroup hierarchy
if [ -d "$root/sys/fs/cgroup" ] && grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts; then
	mount -t cgroup2 cgroup2 "$root/sys/fs/cgroup" && mounted+=("$root/sys/fs/cgroup")
fi
mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" && mounted+=("$root/dev")
mount -t tmpfs tmpfs "$root/tmp" && mounted+=("$root/tmp")

echo "fresh-machine: $job (chroot ready after ${SECONDS}s)"
start=$SECONDS
status=0
# The programs come from Debian; their services must not start in the chroot.
programs='./bootstrap demo &&
	printf "#!/bin/sh\nexit 101\n" >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d &&
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q git python3 nginx-light redis-server \
		postgresql curl procps iproute2 >/tmp/programs-apt.log &&
	for p in default learned; do
		if [ $p = default ]; then examples/learn-replay.sh -s build/syscage -p default
		else examples/learn-replay.sh -s build/syscage; fi ||
			exit 1
	done && bench/phases-servers.sh'
[ "$job" = programs ] && command="$programs" || command="./bootstrap $job"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
	CI="${CI:-}" /bin/bash -c "cd /work/main && $command" || status=$?
echo "fresh-machine: $job exited $status after $((SECONDS - start))s (${SECONDS}s in all)"
exit "$status"
