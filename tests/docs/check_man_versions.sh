#!/bin/sh
# Every manual page's header names the project's version (CMakeLists.txt's project VERSION).
# Usage: check_man_versions.sh MAN_DIR VERSION
set -eu
dir=$1 version=$2
status=0
for page in "$dir"/*.1 "$dir"/*.7; do
    head -n 1 "$page" | grep -qF "\"preflight $version\"" || { echo "$page: header does not name preflight $version" >&2; status=1; }
done
exit $status
