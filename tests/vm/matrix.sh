#!/usr/bin/env bash
# The kernel matrix: the tests that depend on the kernel, run inside every kernel of
# tests/vm/kernels.txt (booted under QEMU by tests/vm/vm-run) and, with `host`, on this
# machine's kernel, all at once.  Prints per kernel its summary line and wall time; exits 1 if any
# kernel's run failed, or skipped a feature that kernel is booted to have.
#
#   tests/vm/matrix.sh [-C BUILD] [KERNEL...]     (as root; default: every kernel listed)
#
# KERNEL is a name from kernels.txt or `host`.  The build must be configured with tests;
# it is not rebuilt here.  Each kernel's meson log is kept as BUILD/meson-logs/kernel-NAME.json
# (and .txt), for tests/summarize.py, and the guest's console as kernel-NAME.console.
#
# SYSCAGE_MATRIX_TESTS overrides the tests run (meson test names);
# SYSCAGE_TEST_SCALE (default 8 in a guest, where code runs about ten times slower under
# emulation) divides the random sweeps, as everywhere.
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=build
if [ "${1:-}" = "-C" ]; then
	build=$2
	shift 2
fi
build=$(cd "$src" && realpath "$build")
list="$src/tests/vm/kernels.txt"

# What depends on the kernel: every live test (the kernel-differential sweeps among them),
# and the CLI scripts that install filters, supervise, trace or learn.  The unit suite, the
# sweeps against libseccomp and the other CLI scripts compute without the kernel's help:
# they run on the host alone.  (meson takes either suites or names: the suite is listed.)
SCRIPTS="run.sh run_programs.sh run_report.sh run_complain.sh run_sandbox.sh learn.sh learn_ebpf.sh
	learn_log.sh inject.sh dump.sh compat.sh phases.sh"
suite_tests() {
	meson test -C "$build" --no-rebuild --list --suite live 2>/dev/null |
		sed -n 's|^syscage:[^ ]* / ||p' | tr '\n' ' '
}
tests=${SYSCAGE_MATRIX_TESTS:-$(suite_tests) $SCRIPTS}
# Features each listed kernel is booted with: a skip by one of these names is a failure.
REQUIRED_IN_GUEST=i386-emulation,x32

kernel_line() {
	awk -v n="$1" '!/^#/ && $1 == n { print; exit }' "$list"
}

# run_one NAME: runs the tests on kernel NAME; prints its closing lines.
run_one() {
	local name=$1
	local line package cpus cmdline logbase="kernel-$1" forbid="" status
	local out
	out=$(mktemp -d /var/tmp/syscage-matrix.XXXXXX)
	local guest_cmd=(meson test -C "$build" --no-rebuild --logbase "$logbase" --num-processes 2)
	SECONDS=0
	if [ "$name" = host ]; then
		# shellcheck disable=SC2086
		(cd "$src" && "${guest_cmd[@]}" $tests) >"$out/console" 2>&1
		status=$?
	else
		line=$(kernel_line "$name")
		if [ -z "$line" ]; then
			echo "matrix: no kernel '$name' in $list" >&2
			return 2
		fi
		package=$(echo "$line" | awk '{ print $2 }')
		cpus=$(echo "$line" | awk '{ print $3 }')
		cmdline=$(echo "$line" | cut -f4-)
		forbid=$REQUIRED_IN_GUEST
		# The guest's meson log is copied out: its own file system is thrown away.
		# shellcheck disable=SC2086
		(cd "$src" && "$src/tests/vm/vm-run" --append " $cmdline" --cpus "$cpus" --timeout 3000 \
			--out "$out" --console "$out/kernel-console" \
			--env "SYSCAGE_TEST_SCALE=${SYSCAGE_TEST_SCALE:-8}" "$package" -- \
			sh -c '"$@"; s=$?; cp "$0"/meson-logs/'"$logbase"'.json "$0"/meson-logs/'"$logbase"'.txt "$SYSCAGE_VM_OUT"/; exit $s' \
			"$build" "${guest_cmd[@]}" --timeout-multiplier 8 $tests) >"$out/console" 2>&1
		status=$?
		cp "$out/$logbase.json" "$out/$logbase.txt" "$build/meson-logs/" 2>/dev/null
	fi
	local wall=$SECONDS
	# the guest kernel's console, for a panic or a hang
	[ -f "$out/kernel-console" ] && cp "$out/kernel-console" "$build/meson-logs/$logbase.console"
	if [ ! -s "$build/meson-logs/$logbase.json" ] || [ "$build/meson-logs/$logbase.json" -ot "$out" ]; then
		echo "kernel-$name: no test ran (exit $status); the last lines:"
		tail -n 30 "$out/console" | sed 's/^/    /'
		tail -n 20 "$out/kernel-console" 2>/dev/null | sed 's/^/    console: /'
		rm -rf "$out"
		return 1
	fi
	rm -rf "$out"
	echo "kernel-$name: $(uname_of "$name"), ${wall}s"
	python3 "$src/tests/summarize.py" "$build/meson-logs/$logbase.json" \
		${forbid:+--forbid-skip "$forbid"} | sed "s/^/kernel-$name: /"
	return "${PIPESTATUS[0]}"
}

uname_of() {
	if [ "$1" = host ]; then uname -r; else kernel_line "$1" | awk '{ print $2 }'; fi
}

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	mapfile -t names < <(awk '!/^#/ && NF { print $1 }' "$list")
fi
# The kernels run at once: each guest has one emulated processor (tests/vm/kernels.txt
# says why), so two guests use the two cores one guest could not.
failed=0 pids=() logs=()
for n in "${names[@]}"; do
	logs+=("$(mktemp /var/tmp/syscage-matrix-log.XXXXXX)")
	run_one "$n" >"${logs[-1]}" 2>&1 &
	pids+=($!)
done
for i in "${!pids[@]}"; do
	wait "${pids[$i]}" || failed=1
	cat "${logs[$i]}"
	rm -f "${logs[$i]}"
done
exit $failed
