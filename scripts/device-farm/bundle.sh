#!/usr/bin/env bash
# Packs what a farm machine without our packages needs to run the probe: the probe, the report
# tool, the dashboard, preflight-layer-control and preflight-farm-run (PREFLIGHT_BIN=BUNDLE_DIR),
# the libraries they and vulkaninfo need beyond glibc, vulkaninfo itself, spirv-opt and
# Vulkan-ValidationLayers; and for run-layer-on-device.sh: VK_LAYER_PREFLIGHT_validation, layer_app and layer_bench; for
# run-power-on-device.sh: power_summary.py and power_square_wave.
# `probe` as the third argument packs only what the probe's runs need (run-on-device.sh,
# run-amber-on-device.sh): no dashboard and no layer, a bundle that travels with room to spare.
# Usage: scripts/device-farm/bundle.sh BUILD_DIR OUT_DIR [probe]
set -euo pipefail
build=${1:?build dir}
out=${2:?output dir}
what=${3:-all}
rm -rf "$out"
mkdir -p "$out/lib" "$out/layers"
cp "$build/probes/preflight-probe" "$build/reports/preflight-report" "$build/probes/preflight-layer-control" \
    "$(dirname "$0")/../preflight-farm-run" "$out/"
# the test build with fault injection, when the build has it: proves crash/hang/lost-device isolation on the farm's driver
[ ! -x "$build/probes/preflight-probe-faulty" ] || cp "$build/probes/preflight-probe-faulty" "$out/"
cp /usr/bin/vulkaninfo "$out/"
# SHADER_OPTIMIZATION in AmberScript files runs spirv-opt beside the probe (statically linked)
cp /usr/bin/spirv-opt "$out/"
strip --strip-unneeded "$out/spirv-opt"
programs=("$out/preflight-probe" "$out/preflight-report" "$out/preflight-layer-control" "$out/vulkaninfo")
if [ "$what" != probe ]; then
    cp "$build/reports/dashboard/preflight-dashboard" "$out/"
    mkdir -p "$out/preflight-layer"
    cp "$build/layer/libVkLayer_preflight_validation.so" "$build/layer/VkLayer_preflight_validation.json" "$out/preflight-layer/"
    cp "$build/tests/layer_app" "$build/bench/layer_bench" "$out/"
    programs+=("$out/preflight-dashboard" "$out/preflight-layer/libVkLayer_preflight_validation.so" "$out/layer_app")
fi
# run-power-on-device.sh's square wave (the fast power source against the counter)
[ ! -x "$build/bench/power_square_wave" ] || cp "$build/bench/power_square_wave" "$out/"
# our programs without their debug information: a bundle travels (a lent device machine takes 64 MiB
# in all, and the probe carries glslang and SPIRV-Tools for AmberScript files)
for binary in "$out"/preflight-probe* "$out/preflight-report" "$out/preflight-layer-control" "$out/preflight-dashboard" "$out/layer_app" \
              "$out/layer_bench" "$out/power_square_wave" "$out/preflight-layer/libVkLayer_preflight_validation.so"; do
    [ ! -e "$binary" ] || strip --strip-unneeded "$binary"
done
for binary in "${programs[@]}"; do
    ldd "$binary" | awk '/=> \//{print $3}' | while read -r lib; do
        case "$(basename "$lib")" in
            libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|libstdc++.so*|libgcc_s.so*|libvulkan.so*) ;;
            *) cp -L "$lib" "$out/lib/" ;;
        esac
    done
done
cp "/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libVkLayer_khronos_validation.so" "$out/layers/"
sed 's|"library_path": *"[^"]*"|"library_path": "./libVkLayer_khronos_validation.so"|' \
    /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json >"$out/layers/VkLayer_khronos_validation.json"
cp "$(dirname "$0")/../../tests/integration/compare_vulkaninfo.py" "$(dirname "$0")/../../bench/probe_bench.py" \
   "$(dirname "$0")/power_summary.py" "$out/"
du -sh "$out"
