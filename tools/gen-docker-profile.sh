#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates profiles/docker-default.policy from Docker's profile
# (tests/data/docker-default.json) with syscage's own OCI importer, then
# re-embeds the built-in profiles.  Run from anywhere; needs a C compiler,
# json-c and Python 3 (for tools/gen-profiles.py).
#
#   tools/gen-docker-profile.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
ninja -C "$build" libsyscage.a libsyscage-oci.a >/dev/null
${CC:-cc} -std=c11 -D_GNU_SOURCE -Iinclude -O2 -o "$build/gen-docker-profile" \
	tools/gen-docker-profile.c "$build/libsyscage-oci.a" "$build/libsyscage.a" \
	$(pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
"$build/gen-docker-profile" tests/data/docker-default.json profiles/docker-default.policy
python3 tools/gen-profiles.py profiles lib/lang/profiles.c
echo "wrote profiles/docker-default.policy and lib/lang/profiles.c"
