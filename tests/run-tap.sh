#!/usr/bin/env bash
# Runs one TAP-style script (tests/cli/*.sh) for `meson test`: passes its output through and
# fails when any check failed or the script itself did.  Skips ("ok N - name # SKIP feature")
# pass; tests/summarize.py counts them by feature.
set -u
# Meson points LD_LIBRARY_PATH at the build's shared libraries, the drop-in libseccomp.so.2
# among them; programs the scripts run must load it only where a script asks for it.
unset LD_LIBRARY_PATH
out=$(bash "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if grep -q '^not ok ' <<<"$out"; then
	exit 1
fi
if [ "$rc" -ne 0 ]; then
	echo "# the script itself exited with status $rc"
	exit 1
fi
if ! grep -q '^ok ' <<<"$out"; then
	echo "# the script made no check"
	exit 1
fi
exit 0
