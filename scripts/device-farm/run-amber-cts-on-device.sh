#!/usr/bin/env bash
# Runs an Amber corpus — the Vulkan CTS's external/vulkancts/data/vulkan/amber (1,425 AmberScript
# and VkScript files; it stays outside this repository) — through the probe on a farm machine's
# driver, with a bundle from bundle.sh, and summarizes it (scripts/amber_corpus_summary.py): the
# counts by format and every file that did not pass, with its reason.
# Writes OUT/NAME.cts.report.json, OUT/NAME.cts.summary.md and OUT/NAME.cts.console.txt.
# Usage: run-amber-cts-on-device.sh BUNDLE_DIR CORPUS_DIR OUT_DIR NAME [JOBS]
#   here:  scripts/device-farm/bundle.sh build /tmp/preflight-bundle probe && tar -C /tmp -czf .bundle.tgz preflight-bundle
#          tar -C /path/to/VK-GL-CTS/external/vulkancts/data/vulkan -czf .bundle/cts-amber.tgz amber
#   there: tar -xzf .bundle.tgz -C /tmp && mkdir -p /tmp/cts && tar -xzf .bundle/cts-amber.tgz -C /tmp/cts &&
#          scripts/device-farm/run-amber-cts-on-device.sh /tmp/preflight-bundle /tmp/cts/amber OUT NAME 8
# On lavapipe, here: preflight-probe --amber CORPUS --tests 'amber.*' --jobs 2 --out r.json &&
#          scripts/amber_corpus_summary.py r.json CORPUS
set -u
bundle=$(realpath "${1:?bundle}")
corpus=$(realpath "${2:?corpus}")
out=${3:?out dir}
name=${4:?name}
jobs=${5:-8}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
console="$out/$name.cts.console.txt"
{
    echo "# the Amber corpus $corpus on $name, code of $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    "$bundle/preflight-probe" --list
    start=$(date +%s%N)
    "$bundle/preflight-probe" --amber "$corpus" --tests 'amber.*' --jobs "$jobs" --host-label "$name" \
        --out "$out/$name.cts.report.json"
    echo "probe exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms with --jobs $jobs"
} >"$console" 2>&1
python3 "$root/scripts/amber_corpus_summary.py" "$out/$name.cts.report.json" "$corpus" --all >"$out/$name.cts.summary.md"
tail -3 "$console"
head -8 "$out/$name.cts.summary.md"
