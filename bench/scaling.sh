#!/usr/bin/env bash
# How `syscage compile` scales with the size of its input: for each kind of
# large policy or OCI profile below, writes inputs of N entries and prints
# N, the wall time of one compilation (parse, check, import, compile,
# encode) and the time per entry.  Time per entry that stays flat as N grows
# means linear work; time per entry that grows with N means quadratic work.
#
#   bench/scaling.sh [KIND...]     (default: every kind)
#
#   SYSCAGE=path/to/syscage        (default: build/syscage)
#   SIZES="1000 10000 ..."         (default: 1000 10000 20000 50000 100000)
#   LIMIT=SECONDS                  (default 120: a run that takes longer is cut
#                                   off and printed as ">LIMIT"; larger sizes of
#                                   that kind are then skipped)
#   KEEP=DIR                       (keep the generated inputs in DIR)
#
# Kinds:
#   one-syscall      errno(EPERM) write if fd == I, under default allow
#   ioctl            allow ioctl if request == V (distinct V), under default errno
#   many-syscalls    errno(EPERM) NAME? if arg0 == I, NAME cycling through the table
#   overlap          alternating errno(EPERM)/errno(EACCES) write if count in
#                    [I, I+64]: every rule overlaps the 64 before it
#   numbers          errno(ENOSYS) NR for numbers no ABI's table knows (one range each)
#   oci-one-syscall  N entries on write, each SCMP_CMP_EQ on argument 0
#   oci-alternating  N entries on write, SCMP_ACT_ERRNO and SCMP_ACT_LOG in turn,
#                    disjoint SCMP_CMP_EQ values (libseccomp's overlap check)
#   oci-many-syscalls  N entries, names cycling through the table
#   oci-unknown      N entries with a syscall name no ABI knows (runc skips them)
#
# Policies that need more than the kernel's 4096 instructions are refused
# after the whole compilation; the time still counts, the status column
# says "too big".  Only the input file is generated ahead; its writing is
# not timed.
set -u
SYSCAGE=${SYSCAGE:-build/syscage}
SIZES=${SIZES:-1000 10000 20000 50000 100000}
LIMIT=${LIMIT:-120}
ALL_KINDS="one-syscall ioctl many-syscalls overlap numbers oci-one-syscall
oci-alternating oci-many-syscalls oci-unknown"

[ -x "$SYSCAGE" ] || { echo "no $SYSCAGE: build first (or set SYSCAGE)" >&2; exit 2; }
WORK=${KEEP:-$(mktemp -d)}
mkdir -p "$WORK"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT
"$SYSCAGE" syscalls --list | awk '{ print $2 }' >"$WORK/names" || exit 2

# generate KIND N FILE
generate() {
	local kind=$1 n=$2 file=$3
	case $kind in
	one-syscall)
		awk -v n="$n" 'BEGIN { print "default allow"
			for (i = 0; i < n; i++) printf "errno(EPERM) write if fd == %d\n", i }' ;;
	ioctl)
		awk -v n="$n" 'BEGIN { print "default errno(EPERM)"
			for (i = 0; i < n; i++) printf "allow ioctl if request == 0x%x\n", 21505 + i * 4099 }' ;;
	many-syscalls)
		awk -v n="$n" '{ name[c++] = $1 } END { print "default allow"
			for (i = 0; i < n; i++) printf "errno(EPERM) %s? if arg0 == %d\n", name[i % c], i }' \
			"$WORK/names" ;;
	overlap)
		awk -v n="$n" 'BEGIN { print "default allow"
			for (i = 0; i < n; i++)
				printf "errno(%s) write if count >= %d && count <= %d\n",
					i % 2 ? "EACCES" : "EPERM", i, i + 64 }' ;;
	numbers)
		awk -v n="$n" 'BEGIN { print "default errno(EPERM)"
			for (i = 0; i < n; i++) printf "errno(ENOSYS) %d\n", 100000 + 2 * i }' ;;
	oci-one-syscall | oci-alternating | oci-many-syscalls | oci-unknown)
		awk -v n="$n" -v kind="$kind" '{ name[c++] = $1 } END {
			printf "{\n  \"defaultAction\": \"%s\",\n  \"syscalls\": [\n",
				kind == "oci-unknown" ? "SCMP_ACT_ERRNO" : "SCMP_ACT_ALLOW"
			for (i = 0; i < n; i++) {
				nm = "write"; act = "SCMP_ACT_ERRNO"; args = ""
				if (kind == "oci-many-syscalls")
					nm = name[i % c]
				if (kind == "oci-unknown") {
					nm = "nosuchcall_" i; act = "SCMP_ACT_ALLOW"
				} else {
					args = sprintf(", \"args\": [{\"index\": 0, \"value\": %d, \"op\": \"SCMP_CMP_EQ\"}]", i)
				}
				if (kind == "oci-alternating" && i % 2)
					act = "SCMP_ACT_LOG"
				printf "    {\"names\": [\"%s\"], \"action\": \"%s\"%s}%s\n", nm, act, args,
					i + 1 < n ? "," : ""
			}
			print "  ]\n}" }' "$WORK/names" ;;
	*)
		echo "unknown kind '$kind'" >&2
		return 2 ;;
	esac >"$file"
}

# run FILE: prints "SECONDS STATUS"; SECONDS is ">LIMIT" when cut off
run() {
	local start end rc
	start=$(date +%s.%N)
	timeout "$LIMIT" "$SYSCAGE" compile -o "$WORK/out.bpf" "$1" >/dev/null 2>"$WORK/stderr"
	rc=$?
	end=$(date +%s.%N)
	rm -f "$WORK/out.bpf"
	if [ "$rc" -eq 124 ]; then
		echo ">$LIMIT cut-off"
	elif [ "$rc" -eq 0 ]; then
		awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f ok\n", b - a }'
	elif grep -q "kernel accepts at most" "$WORK/stderr"; then
		awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f too-big\n", b - a }'
	else
		awk -v a="$start" -v b="$end" -v rc="$rc" 'BEGIN { printf "%.3f exit-%d\n", b - a, rc }'
	fi
}

kinds=${*:-$ALL_KINDS}
printf '%-18s %8s %10s %14s  %s\n' kind N seconds "us/entry" status
for kind in $kinds; do
	case $kind in oci-*) ext=json ;; *) ext=policy ;; esac
	for n in $SIZES; do
		file=$WORK/$kind-$n.$ext
		generate "$kind" "$n" "$file" || exit 2
		read -r secs status < <(run "$file")
		if [ "$status" = cut-off ]; then
			printf '%-18s %8d %10s %14s  %s\n' "$kind" "$n" "$secs" "-" "$status"
			[ -n "${KEEP:-}" ] || rm -f "$file"
			break
		fi
		printf '%-18s %8d %10.3f %14.2f  %s\n' "$kind" "$n" "$secs" \
			"$(awk -v s="$secs" -v n="$n" 'BEGIN { print s * 1e6 / n }')" "$status"
		[ -n "${KEEP:-}" ] || rm -f "$file"
	done
done
