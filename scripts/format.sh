#!/usr/bin/env bash
# The C style of .clang-format over every C file in the repository: scripts/format.sh rewrites them,
# scripts/format.sh --check (CI) lists the files that differ and fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v clang-format >/dev/null || { echo "format: clang-format is not installed (scripts/setup.sh --tests installs it)" >&2; exit 2; }
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.c' '*.h')
if [ "${1:-}" = "--check" ]; then
    bad=0
    for f in "${files[@]}"; do
        if ! clang-format --dry-run -Werror "$f" 2>/dev/null; then
            echo "format: $f differs from .clang-format (scripts/format.sh fixes it)"
            bad=$((bad + 1))
        fi
    done
    echo "format: ${#files[@]} files checked, $bad differ"
    [ "$bad" -eq 0 ]
else
    clang-format -i "${files[@]}"
    echo "format: ${#files[@]} files formatted"
fi
