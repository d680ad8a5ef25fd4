#!/usr/bin/env bash
# Runs on a farm machine with a bundle from bundle.sh: the probe's whole run with power sampled
# (NVML or DRM hwmon), then its power and timing summary, then the same run timed with and
# without power. Writes into OUT_DIR:
#   NAME.report.json       the report (with --artifacts into NAME-artifacts/)
#   NAME.console.txt       the probe's console: a line per test, the summary, wall time and exit
#   NAME.power.txt         per test: the power signal, energy per pass at baseline and with the
#                          feature, ratio, settled; the run's wall time against its longest test;
#                          the checks of issue 32 (PASS/FAIL lines)
#   NAME.power-bench.txt   bench/probe_bench.py, 3 rounds with power and 3 with --no-power
#   NAME.sensor.txt        what the machine says of its GPUs' power (nvidia-smi, hwmon), for the record
#   NAME.square-wave.txt   bench/power_square_wave: the driver's power samples against the energy
#                          counter on a 41 ms on / 60 ms off load, error per window (NVML only)
# Exit 0 when every check passed. Usage: run-power-on-device.sh BUNDLE_DIR OUT_DIR [NAME] [probe args...]
set -u
bundle=$(realpath "${1:?bundle}")
out=${2:?out dir}
name=${3:-nvidia-h200-power}
shift 3 2>/dev/null || shift $#
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

{
    echo "# $(date -u +%FT%TZ) $(uname -n)"
    if command -v nvidia-smi >/dev/null; then
        nvidia-smi --query-gpu=name,pci.bus_id,uuid,driver_version,power.draw,power.limit --format=csv
    fi
    for f in /sys/class/drm/card*/device/hwmon/hwmon*/{energy,power}*_{input,average}; do
        [ -e "$f" ] && echo "$f: $(cat "$f" 2>&1)"
    done
    ls -l /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1 2>&1
} >"$out/$name.sensor.txt" 2>&1

"$bundle/preflight-probe" --list
start=$(date +%s%N)
"$bundle/preflight-probe" --pretty --artifacts "$out/$name-artifacts" --out "$out/$name.report.json" "$@" \
    2>"$out/$name.console.txt"
status=$?
wall_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "probe exit $status in $wall_ms ms (wall, the whole run)" >>"$out/$name.console.txt"
cat "$out/$name.console.txt"

python3 "$bundle/power_summary.py" "$out/$name.report.json" --wall-ms "$wall_ms" >"$out/$name.power.txt"
checks=$?
cat "$out/$name.power.txt"

python3 "$bundle/probe_bench.py" "$bundle/preflight-probe" --jobs 1 --runs 3 --vulkaninfo "$bundle/vulkaninfo" \
    >"$out/$name.power-bench.txt" 2>&1
{
    echo
    echo "# --no-power"
    python3 "$bundle/probe_bench.py" "$bundle/preflight-probe" --jobs 1 --runs 3 --vulkaninfo "$bundle/vulkaninfo" \
        --probe-args=--no-power
} >>"$out/$name.power-bench.txt" 2>&1
cat "$out/$name.power-bench.txt"
if [ -x "$bundle/power_square_wave" ]; then
    "$bundle/power_square_wave" 41 60 12 >"$out/$name.square-wave.txt" 2>&1
    "$bundle/power_square_wave" 1000 0 6 >>"$out/$name.square-wave.txt" 2>&1
    cat "$out/$name.square-wave.txt"
fi
[ "$status" -eq 0 ] && [ "$checks" -eq 0 ]
