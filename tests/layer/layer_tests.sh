#!/usr/bin/env bash
# VK_LAYER_PREFLIGHT_validation through the real loader on lavapipe: every dispatch, alias and
# binding check fires on
# a program that breaks it, with the right ID, objects, names and labels; correct programs (at the
# limits exactly, alone or stacked with Vulkan-ValidationLayers in either order) stay silent; the
# layer is enabled by each documented route; settings (log file, disable, duplicate limit) work;
# target limits name the fleet device that would fail.
# With LAYER_SCENARIO=NAME only the runs of that scenario and their checks happen (ctest
# -R layer.NAME); the route, stacking and vkcube blocks run only in the whole run.
set -u
app=$(realpath "$1")
layer_dir=$(realpath "$2")
fixtures=$(realpath "$3")
report_tool=$(realpath "$4")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export VK_ADD_LAYER_PATH="$layer_dir"
failures=0
checks=0
only_scenario=${LAYER_SCENARIO:-}
active=1 # the last run() was of the selected scenario (always, without LAYER_SCENARIO)
whole() { [ -z "$only_scenario" ]; } # the blocks that are no scenario's: only in the whole run
check() {
    [ "$active" = 1 ] || return 0
    checks=$((checks + 1))
    local name="$1"; shift
    if "$@"; then echo "ok   $name"; else
        echo "FAIL $name"; failures=$((failures + 1)); sed 's/^/     | /' "$work/out" | head -8
        [ -s "$work/err" ] && tail -30 "$work/err" | sed 's/^/     ! /' # a crash or a sanitizer report
    fi
}
run() { # run SCENARIO [app args] -- with the layer enabled by VK_INSTANCE_LAYERS
    local scenario="$1"; shift
    active=1
    if [ -n "$only_scenario" ] && [ "$scenario" != "$only_scenario" ]; then active=0; return; fi
    VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation timeout 120 "$app" "$scenario" "$@" >"$work/out" 2>"$work/err"
    echo $? >"$work/rc"
}
findings() { grep -c "^FINDING" "$work/out"; }
skips=0
skipped() { # skipped WHAT: true, and says so, when the scenario reported the device cannot run it
    [ "$active" = 1 ] || return 1
    grep -q "^skip:" "$work/out" || return 1
    echo "skip $1: $(grep '^skip:' "$work/out")"
    skips=$((skips + 1))
}
has() { grep -q -- "$1" "$work/out"; }
only() { [ "$(findings)" = "$1" ] && [ "$(cat "$work/rc")" = 0 ]; }
loaded() { grep -qi "insert instance layer.*VK_LAYER_PREFLIGHT_validation" "$work/err"; }
layer_library() { # the library the manifest names: beside it in a build tree, absolute where installed
    local path
    path=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$layer_dir/VkLayer_preflight_validation.json")
    case "$path" in /*) echo "$path" ;; *) echo "$layer_dir/$path" ;; esac
}

run clean
check "clean program at every limit: no finding" only 0
run group-count
check "group count: one finding" only 1
check "group count: ID, severity, command buffer name, labels" has "^FINDING PREFLIGHT-dispatch-group-count .* ERROR objects=2 names=main-cb,- labels=frame/bloom: groupCountX = [0-9]* (command 2) exceeds maxComputeWorkGroupCount\[0\]"
run dispatch-base
check "dispatch base: base + count" has "PREFLIGHT-dispatch-group-count .*baseGroupX + groupCountX = "
run zero
check "zero-sized dispatch: a warning" has "^FINDING PREFLIGHT-dispatch-zero-size [-0-9]* WARNING"
run workgroup-size
check "local size over maxComputeWorkGroupSize" has "PREFLIGHT-dispatch-workgroup-size .*local_size_z = "
run invocations
check "local size product over maxComputeWorkGroupInvocations, each dimension within" sh -c "grep -q 'PREFLIGHT-dispatch-workgroup-invocations' '$work/out' && ! grep -q 'PREFLIGHT-dispatch-workgroup-size' '$work/out'"
run shared-memory
check "specialized shared array over maxComputeSharedMemorySize" has "PREFLIGHT-dispatch-shared-memory .*exceed maxComputeSharedMemorySize"
run indirect
check "indirect arguments in mapped memory, checked at submit" has "PREFLIGHT-dispatch-indirect-group-count .*read from the indirect buffer at submit"
run indirect-gpu-written
check "indirect arguments the GPU rewrites first: no finding" only 0

if whole; then
id_a=$(grep -o "PREFLIGHT-dispatch-group-count [-0-9]*" <(VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation "$app" group-count 2>/dev/null) | awk '{print $2}')
id_b=$(grep -o "PREFLIGHT-dispatch-group-count [-0-9]*" <(VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation "$app" dispatch-base 2>/dev/null) | awk '{print $2}')
active=1
check "messageIdNumber is stable across runs" [ -n "$id_a" ] && [ "$id_a" = "$id_b" ]
fi

run group-count --chain-messenger
check "a messenger chained into VkInstanceCreateInfo gets findings" only 1
vvl_tsan="${TSAN_OPTIONS:-} suppressions=$here/tsan-vvl.supp"
if whole; then
active=1
VK_LOADER_LAYERS_ENABLE='*PREFLIGHT*' VK_LOADER_DEBUG=layer timeout 60 "$app" group-count >"$work/out" 2>"$work/err"
check "enabled by VK_LOADER_LAYERS_ENABLE" sh -c "grep -q PREFLIGHT-dispatch-group-count '$work/out'"
VK_LOADER_DEBUG=layer timeout 60 "$app" group-count --enable-in-app >"$work/out" 2>"$work/err"
check "enabled by the app's ppEnabledLayerNames" sh -c "grep -q PREFLIGHT-dispatch-group-count '$work/out'"

# runs stacked with Vulkan-ValidationLayers take its ThreadSanitizer suppressions (tsan-vvl.supp)
for order in "VK_LAYER_KHRONOS_validation:VK_LAYER_PREFLIGHT_validation" "VK_LAYER_PREFLIGHT_validation:VK_LAYER_KHRONOS_validation"; do
    TSAN_OPTIONS="$vvl_tsan" VK_INSTANCE_LAYERS=$order VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT \
        VK_LOADER_DEBUG=layer timeout 120 "$app" clean >"$work/out" 2>"$work/err"
    check "stacked with Vulkan-ValidationLayers ($order): clean, no message from either" \
        sh -c "[ \$(grep -c -E '^(FINDING|OTHER)' '$work/out') = 0 ] && grep -q 'done: 0 messages' '$work/out' && [ \$(grep -ci 'insert instance layer' '$work/err') -ge 2 ]"
    TSAN_OPTIONS="$vvl_tsan" VK_INSTANCE_LAYERS=$order timeout 120 "$app" group-count >"$work/out" 2>"$work/err"
    check "stacked ($order): the finding still arrives" has "PREFLIGHT-dispatch-group-count"
done
fi

VK_PREFLIGHT_VALIDATION_LOG_FILE="$work/findings.jsonl" run group-count
check "log_file: one JSON line with id, objects, names and labels" python3 -c "
import json; lines=open('$work/findings.jsonl').read().splitlines(); assert len(lines)==1, lines
f=json.loads(lines[0]); assert f['id']=='PREFLIGHT-dispatch-group-count' and f['severity']=='error'
assert f['call']=='vkCmdDispatch' and f['labels']==['bloom','frame'] and f['objects'][0]['name']=='main-cb', f"
VK_PREFLIGHT_VALIDATION_DISABLE='PREFLIGHT-dispatch-group*' run group-count
check "disable: a glob turns a check off" only 0
printf 'preflight_validation.disable = PREFLIGHT-dispatch-zero-size\n' >"$work/vk_layer_settings.txt"
VK_LAYER_SETTINGS_PATH="$work" run zero
check "vk_layer_settings.txt: a setting from the file" only 0
VK_PREFLIGHT_VALIDATION_STDERR=on run group-count
check "stderr=on: the finding on stderr too" sh -c "grep -q '^PREFLIGHT-dispatch-group-count \[ERROR\] vkCmdDispatch: ' '$work/err'"
VK_PREFLIGHT_VALIDATION_DUPLICATE_LIMIT=1 run stress --threads 1
check "duplicate_limit: clean stress stays clean" only 0

"$report_tool" fleet-limits --out "$work/fleet.json" "$fixtures/probe-lavapipe.report.json" "$fixtures/probe-nvidia-h200.report.json" 2>/dev/null
VK_PREFLIGHT_VALIDATION_TARGET_LIMITS="$work/fleet.json" run target
check "target limits from fleet-limits: names the fleet device that would fail" has "PREFLIGHT-dispatch-target-workgroup-size .*local_size_z = 128 exceeds maxComputeWorkGroupSize\[2\] = 64 of target device NVIDIA H200 (10de-2335-nvidia_proprietary)"
run target
check "the same pipeline without target limits: silent on this device" only 0
VK_PREFLIGHT_VALIDATION_TARGET_LIMITS="$fixtures/probe-nvidia-h200.report.json" run target
check "target limits from a probe report" has "PREFLIGHT-dispatch-target-workgroup-size .*of target device NVIDIA H200"
echo '{"schema": "nonsense"}' >"$work/bad-fleet.json"
VK_PREFLIGHT_VALIDATION_TARGET_LIMITS="$work/bad-fleet.json" run target
check "unreadable target limits: a message, the app runs on" sh -c "[ \$(cat '$work/rc') = 0 ] && grep -q 'target-limit checks are off' '$work/err'"

# --- alias and binding checks (layer_app_alias.c) ---
run alias-clean
check "alias: disjoint ranges of one buffer, one buffer read twice: no finding" only 0
[ "$active" = 1 ] && TSAN_OPTIONS="$vvl_tsan" VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation:VK_LAYER_PREFLIGHT_validation timeout 120 "$app" alias-clean >"$work/out" 2>"$work/err"
check "alias-clean is a correct program for Vulkan-ValidationLayers too" sh -c "grep -q 'done: 0 messages' '$work/out'"
run alias-buffer
check "alias: one buffer read and written by two bindings at different offsets" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-alias-buffer .* names=alias-cb,- labels=: set 0 binding 1 writes VkBuffer .*(memory bytes \[1024, 3072)), and set 0 binding 0 reads .*(memory bytes \[0, 2048))' '$work/out'"
check "alias: the finding names two invocations that meet" has "PREFLIGHT-alias-buffer .*invocation (0,0,0) writes memory byte 1024 through set 0 binding 1, which invocation (256,0,0) reads through set 0 binding 0"
# ggml's fused multi-add in small: ranges of one buffer running to its end, the written binding
# chosen by a specialization constant, the work bounded by a push constant
run alias-selected-binding
check "alias: ranges to the buffer's end, each binding's accesses in its own part (the dispatch's values say so): silent" only 0
run alias-selected-binding-dead
check "alias: bindings a specialization constant leaves untouched are no access: silent" only 0
run alias-selected-binding-overlap
check "alias: the chosen binding's range starts 16 elements into a read binding's: ERROR with the witness" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-alias-buffer .* ERROR .*set 0 binding 3 writes .*(memory bytes \[8256, 16384)), and set 0 binding 2 reads .*(memory bytes \[8192, 16384)).*invocation (0,0,0) writes memory byte 8256 through set 0 binding 3, which invocation (16,0,0) reads through set 0 binding 2' '$work/out'"
run binding-texel-buffer-sampler
check "binding: a usamplerBuffer bound as a uniform texel buffer (its type in SPIR-V is a sampled image): silent" only 0
run alias-indexed-by-data
check "alias: an index read from memory, ranges overlapping: never an ERROR, silent by default" only 0
VK_PREFLIGHT_VALIDATION_ENABLE=PREFLIGHT-alias-buffer-unproven run alias-indexed-by-data
check "alias: the unproven overlap as advice when enabled" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-alias-buffer-unproven .* WARNING .*set 0 binding 1 writes .*(memory bytes \[2048, 6144)).*whether the shader.s accesses meet depends on values the layer cannot evaluate' '$work/out'"
run alias-texel
check "alias: a storage texel buffer written over bytes a storage buffer binding reads: never an ERROR, silent by default" only 0
VK_PREFLIGHT_VALIDATION_ENABLE=PREFLIGHT-alias-buffer-unproven run alias-texel
check "alias: the same as advice when enabled, naming both bindings' bytes" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-alias-buffer-unproven .* WARNING .*set 0 binding 0 writes VkBuffer 0x[0-9a-f]* (memory bytes \\[0, 4096)), and set 0 binding 1 reads VkBuffer 0x[0-9a-f]* (memory bytes \\[2048, 6144))' '$work/out'"
VK_PREFLIGHT_VALIDATION_ENABLE=PREFLIGHT-alias-buffer-unproven run alias-texel-disjoint
check "alias: a storage texel buffer's view and a storage buffer range over disjoint halves of one buffer: silent with the advice enabled" only 0
run alias-in-place
check "alias: exactly one range read and written through two bindings (in place): silent by default" only 0
VK_PREFLIGHT_VALIDATION_ENABLE=PREFLIGHT-alias-in-place run alias-in-place
check "alias: the same with PREFLIGHT-alias-in-place enabled: one WARNING" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-alias-in-place [-0-9]* WARNING .*set 0 binding 1 writes VkBuffer .*(memory bytes \[0, 4096)), and set 0 binding 0 reads' '$work/out'"
run robust-ignored-pointers
check "robustness: junk in the descriptor write arrays the type does not use is not read" only 0
run alias-rotating-sets
check "alias: sets bound in turn and a rewritten set: the aliased state's first dispatch, then the rewritten set (memos, recall)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 2 ] && grep -q '^FINDING PREFLIGHT-alias-buffer .*names=rotating-cb,.*vkCmdDispatch (command 5)' '$work/out' && grep -q '^FINDING PREFLIGHT-alias-buffer .*names=updated-cb,.*vkCmdDispatch (command 2)' '$work/out'"
run alias-memory
check "alias: two buffers bound to the same device memory" has "PREFLIGHT-alias-buffer .*objects=3 .*(two buffers on the same VkDeviceMemory)"
run alias-indirect
check "alias: a dispatch writes its own indirect arguments" has "PREFLIGHT-alias-vertex-index-indirect .*set 0 binding 1 writes .*and the indirect buffer reads .*memory bytes \[0, 12)"
run alias-array
check "alias: descriptor array, element 0 written, element 1 read, same buffer" has "PREFLIGHT-alias-buffer .*set 0 binding 0 \\[element 0\\] reads or writes VkBuffer .*set 0 binding 0 \\[element 1\\] reads or writes"
run alias-array-unreached
check "alias: same buffer in an unreached array element and an unused binding: no finding" only 0
run alias-image
check "alias: storage image written while sampled, same mip" has "PREFLIGHT-alias-image .*mips 0..0"
run alias-image-mips
check "alias: storage write to mip 1 while sampling mip 0: no finding" only 0
run alias-attachment
check "alias: a draw samples the color attachment it renders to" has "PREFLIGHT-alias-attachment .*the attachment writes VkImage .* in the same vkCmdDraw"
run attachment-clean
check "alias: a draw samples another image: no finding" only 0
run binding-missing-set
check "binding: set used by the shader not bound" has "PREFLIGHT-binding-missing-set .*no descriptor set is bound at set 1"
run binding-unwritten
check "binding: descriptor used by the shader never written" has "PREFLIGHT-binding-unwritten-descriptor .*set 1 binding 0"
run binding-type
check "binding: layout type differs from the shader's declaration" has "PREFLIGHT-binding-type-mismatch .*VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER in the pipeline layout, but the shader declares a storage buffer"
run binding-usage
check "binding: buffer without STORAGE usage in a storage descriptor" has "PREFLIGHT-binding-resource-usage .*without VK_BUFFER_USAGE_STORAGE_BUFFER_BIT"

# --- hazard checks (layer_app_alias.c) ---
run hazard-raw
check "hazard: a dispatch reads what a fill wrote, no barrier (with the fill's debug labels)" has "^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdDispatch (command 3) reads VkBuffer .*(memory bytes \\[0, 4096)) that vkCmdFillBuffer (command 0, labels upload) wrote in TRANSFER"
run hazard-texel-raw
check "hazard: a dispatch writes a buffer through a storage texel buffer; one reads it through a uniform texel buffer, one through a storage buffer, no barrier: two RAW naming the buffer" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 2 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*names=texel-cb,texels .*vkCmdDispatch (command 5) reads VkBuffer 0x[0-9a-f]* \"texels\" (memory bytes \\[0, 4096)) that vkCmdDispatch (command 2) wrote in COMPUTE_SHADER' '$work/out' && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdDispatch (command 8) reads VkBuffer 0x[0-9a-f]* \"texels\" (memory bytes \\[0, 4096)) that vkCmdDispatch (command 2) wrote in COMPUTE_SHADER' '$work/out'"
run hazard-war
check "hazard: a fill overwrites what a dispatch read, no barrier" has "^FINDING PREFLIGHT-hazard-write-after-read .*that vkCmdDispatch (command 2) read in COMPUTE_SHADER; missing between them: an execution dependency"
run hazard-waw
check "hazard: a dispatch writes what a fill wrote, no barrier" has "^FINDING PREFLIGHT-hazard-write-after-write"
run hazard-copy2
check "hazard: vkCmdCopyBuffer2 reads what a fill wrote, no barrier" has "^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdCopyBuffer2 (command 1) reads VkBuffer .*(memory bytes \\[0, 256)) that vkCmdFillBuffer (command 0) wrote"
run hazard-copy2-khr
skipped "VK_KHR_copy_commands2" ||
    check "hazard: the same through vkCmdCopyBuffer2KHR: its alias finds the core hook (named as the core command)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdCopyBuffer2 (command 1) reads VkBuffer .*(memory bytes \\[0, 256)) that vkCmdFillBuffer (command 0) wrote' '$work/out'"
run hazard-insufficient
check "hazard: a barrier to compute shader reads does not cover indirect argument reads" has "PREFLIGHT-hazard-read-after-write .*vkCmdDispatchIndirect (command 4) reads .*(memory bytes \\[0, 12))"
run hazard-waw-exec-barrier
check "hazard: two dispatches write one buffer, an execution-only barrier between them makes the first write available to nothing" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*vkCmdDispatch (command 6) writes VkBuffer .*that vkCmdDispatch (command 2) wrote in COMPUTE_SHADER; missing between them: a memory dependency that makes the first write available' '$work/out'"
run hazard-waw-read-barrier
check "hazard: two dispatches write one buffer, SHADER_WRITE -> SHADER_READ between them: the first write is available and ordered (memory model): no finding" only 0
# An engine's loop (the layer meets a repeating state on a fast path) and what breaks it.
run hazard-steady-fixed
check "hazard: eight dispatches, the same global barrier after each: no finding" only 0
run hazard-steady-break
check "hazard: after the loop, an execution-only barrier between two dispatches writing one buffer: one WAW" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*vkCmdDispatch (command 38) writes VkBuffer .*that vkCmdDispatch (command 34) wrote in COMPUTE_SHADER' '$work/out'"
run hazard-steady-fill
check "hazard: a fill inside the loop (same barrier before and after it): its WAR and the next dispatch's RAW" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 2 ] && grep -q '^FINDING PREFLIGHT-hazard-write-after-read .*vkCmdFillBuffer (command 32) writes VkBuffer .*that vkCmdDispatch (command 30) read' '$work/out' && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdDispatch (command 36) reads VkBuffer .*that vkCmdFillBuffer (command 32) wrote in TRANSFER' '$work/out'"
# Settings: VK_EXT_layer_settings from the application, every source's bad values said aloud.
run hazard-raw --setting "disable=PREFLIGHT-hazard-*"
check "VkLayerSettingsCreateInfoEXT: disable from the application's own code" only 0
VK_PREFLIGHT_VALIDATION_DISABLE=PREFLIGHT-dispatch-zero-size run hazard-raw --setting "disable=PREFLIGHT-hazard-*"
check "the environment overrides VkLayerSettingsCreateInfoEXT" only 1
run hazard-raw --chain-messenger --setting-uint duplicate_limit=1 --setting action=explode --setting nonsense=1
check "a bad value from the application: a WARNING naming the default, and the default used" \
    sh -c "grep -q \"^OTHER preflight-settings 0 WARNING .*action = 'explode' (from VkLayerSettingsCreateInfoEXT) is not one of log, abort, break; using log\" '$work/out' && [ \$(cat '$work/rc') = 0 ]"
check "... and on stderr" grep -q "VK_LAYER_PREFLIGHT_validation: action = 'explode'" "$work/err"
check "an unknown setting from the application: said, and ignored" has "preflight-settings 0 WARNING .*unknown setting 'nonsense' ignored"
check "a number from the application (UINT32) is taken" only 1
VK_PREFLIGHT_VALIDATION_DUPLICATE_LIMIT=ten VK_PREFLIGHT_VALIDATION_DISBALE=x run hazard-raw --chain-messenger
check "duplicate_limit=ten is a WARNING, not a silent 0 (unlimited)" has "duplicate_limit = 'ten' (from the environment) is not a number from 0 to 4294967295; using 10"
check "a misspelt environment variable is named" has "unknown environment variable VK_PREFLIGHT_VALIDATION_DISBALE ignored"
printf 'preflight_validation.stderr = loud\npreflight_validation.disable = PREFLIGHT-no-such-check, PREFLIGHT-hazard-*\n' >"$work/vk_layer_settings.txt"
VK_LAYER_SETTINGS_PATH="$work" run hazard-raw --chain-messenger
check "vk_layer_settings.txt: a bad choice and a check list naming no check are WARNINGs" \
    sh -c "grep -q \"stderr = 'loud' (from vk_layer_settings.txt) is not one of auto, on, off; using auto\" '$work/out' && grep -q \"disable (from vk_layer_settings.txt): 'PREFLIGHT-no-such-check' names no check\" '$work/out'"
check "... while the rest of the list applies" only 0
VK_PREFLIGHT_VALIDATION_WRITE_AFTER_WRITE=visible run hazard-waw-read-barrier
check "hazard: the same with write_after_write = visible (the second write must be in dstAccessMask, as VVL)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*vkCmdDispatch (command 6) writes .*includes the second (dstAccessMask; setting write_after_write = visible)' '$work/out'"
run hazard-event2-raw
check "hazard: a sync2 event whose wait names fragment shaders, then a dispatch reads the fill" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdDispatch (command 4) reads VkBuffer .*that vkCmdFillBuffer (command 0) wrote in TRANSFER' '$work/out'"
run hazard-image-raw
check "hazard: a copy reads a storage image a dispatch wrote, no barrier" has "^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdCopyImageToBuffer (command 5) reads VkImage .*(mips 0..0, layers 0..0) that vkCmdDispatch (command 4) wrote"
run hazard-transition-war
check "hazard: a layout transition from TOP_OF_PIPE after a shader read" has "^FINDING PREFLIGHT-hazard-write-after-read .*vkCmdPipelineBarrier (command 5) writes VkImage .*the layout transition's source stages do not include the earlier read"
# Godot's shadow atlas in small: render passes over parts of one attachment, no dependency. By the
# render-pass chapter a load operation "may read and write back any memory locations within the
# image subresource bound for that attachment" (and so may store and resolve operations): passes
# over disjoint areas meet (render_area = attachment, the default); render_area = pixels is the
# lenient reading (VkRenderPassBeginInfo::renderArea bounds the values that change)
run hazard-passes-apart
check "hazard: two passes over disjoint halves of one attachment, no dependency: RAW and WAW naming both areas and the load/store paragraph" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 2 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .* labels=split-1: vkCmdBeginRenderPass (command 3) reads VkImage .*that the store operations of the render pass begun by vkCmdBeginRenderPass (command 1, labels split-0) wrote in COLOR_ATTACHMENT_OUTPUT.*Areas: this one x 32..63, y 0..63, the earlier one x 0..31, y 0..63 (disjoint)\. A render pass.s load, store and resolve operations may access any memory of the attachment.s image subresource.*may read and write back any memory locations within the image subresource bound for that attachment.*render_area = pixels is the lenient reading' '$work/out' && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*Areas: this one x 32..63' '$work/out'"
run hazard-passes-apart-dependency
check "hazard: two passes over disjoint halves with an external dependency from the first's stores: silent" only 0
VK_PREFLIGHT_VALIDATION_RENDER_AREA=pixels run hazard-passes-apart
check "hazard: render_area = pixels (the lenient reading): disjoint passes silent" only 0
run hazard-passes-overlap
check "hazard: two passes over overlapping parts, no dependency: RAW and WAW naming both areas" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 2 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .* labels=split-1: vkCmdBeginRenderPass (command 3) reads VkImage .*that the store operations of the render pass begun by vkCmdBeginRenderPass (command 1, labels split-0) wrote in COLOR_ATTACHMENT_OUTPUT.*Areas: this one x 16..47, y 0..63, the earlier one x 0..31, y 0..63\. A render pass' '$work/out' && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*Areas: this one x 16..47' '$work/out'"
VK_PREFLIGHT_VALIDATION_RENDER_AREA=pixels run hazard-passes-overlap
check "hazard: render_area = pixels, overlapping passes: RAW and WAW naming both render areas and that they overlap" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 2 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*Render areas: this one x 16..47, y 0..63, the earlier one x 0..31, y 0..63; they overlap\. With render_area = pixels' '$work/out'"
# ffmpeg's libplacebo filter in small: a multi-planar frame rendered plane by plane, each submission
# waiting for a timeline value signaled (and seen reached on the host) before all of them
run hazard-planes-same
check "hazard: two passes over the same plane, the timeline's signal before both orders neither (WAW naming the plane)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*vkCmdBeginRenderPass (command 0) writes VkImage 0x[0-9a-f]* (plane 0, mips 0..0, layers 0..0) that the store operations of the render pass begun by vkCmdBeginRenderPass (command 0 of VkCommandBuffer 0x[0-9a-f]* .plane-pass-0., earlier on the same queue) wrote in COLOR_ATTACHMENT_OUTPUT; missing between them: a barrier ordering the first write before the second' '$work/out'"
run hazard-passes-overlap-dependency
check "hazard: overlapping passes with an external dependency from the first's stores: silent" only 0
# exactness: each operation judged on the memory it may access (tests/layer/layer_app_exact.c)
run exact-tensor-apart
check "exact: a dispatch writes its tensor of a buffer bound to the end, the next reads the following tensor: silent" only 0
run exact-tensor-raw
check "exact: the next dispatch reads the tensor written, no barrier: RAW naming the evaluated bytes" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdDispatch (command 5) reads VkBuffer 0x[0-9a-f]* (memory bytes \\[0, 1024), of the bytes its shader reaches, evaluated with the dispatch.s size and push constants) that vkCmdDispatch (command 2) wrote' '$work/out'"
run exact-slices
check "exact: two dispatches write the slices their push constants select, no barrier: silent" only 0
run exact-slices-overlap
check "exact: the slices overlap by half: WAW on the evaluated overlap" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*writes VkBuffer 0x[0-9a-f]* (memory bytes \\[512, 1024), of the bytes its shader reaches' '$work/out'"
run exact-tiles
check "exact: two dispatches write their tiles through loops over rows and columns, disjoint, no barrier: silent" only 0
run exact-tiles-overlap
check "exact: the second product's tiles start half way into the first's: WAW on the evaluated bytes" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*writes VkBuffer 0x[0-9a-f]* (memory bytes \\[512, 1024), of the bytes its shader reaches' '$work/out'"
run exact-copy-rects
check "exact: two copies into disjoint rectangles of one mip level (an atlas upload): silent" only 0
run exact-copy-rects-overlap
check "exact: two copies into overlapping rectangles: WAW naming both regions" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*vkCmdCopyBufferToImage (command 2) writes VkImage .*(mips 0..0, layers 0..0) that vkCmdCopyBufferToImage (command 1) wrote in TRANSFER.*Regions: this one x 16..47, y 0..63, the earlier one x 0..31, y 0..63; they overlap' '$work/out'"
run exact-mips-transition
check "exact: a barrier over all mips with its layout transition, then a pass over a view of mip 0 in its second scope: silent" only 0
run exact-mips-transition-unordered
check "exact: the same barrier's second scope misses the pass: RAW against the layout transition, once" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdBeginRenderPass (command 3) reads VkImage .*(mips 0..0, layers 0..0) that vkCmdPipelineBarrier (command 2) wrote in a layout transition after TRANSFER' '$work/out'"
run exact-mips-partial
check "exact: a barrier over mip 0 orders nothing of mip 1: RAW for the copy reading mip 1" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdCopyImageToBuffer (command 3) reads VkImage .*(mips 1..1, layers 0..0) that vkCmdClearColorImage (command 1) wrote in TRANSFER' '$work/out'"
run exact-mips-partial-fixed
check "exact: the barrier over every mip: silent" only 0
run hazard-copy-image2
check "hazard: vkCmdCopyImage2 reads the image a dispatch wrote and writes the one it sampled (RAW and WAR, as VVL)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 2 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdCopyImage2 (command 5) reads VkImage .*that vkCmdDispatch (command 4) wrote' '$work/out' && grep -q '^FINDING PREFLIGHT-hazard-write-after-read .*vkCmdCopyImage2 (command 5) writes VkImage .*that vkCmdDispatch (command 4) read' '$work/out'"
run hazard-mipchain-raw
check "hazard: a mip chain by blits, the barrier before blitting level 2 missing" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdBlitImage (command 6) reads VkImage 0x[0-9a-f]* (mips 2..2, layers 0..0) that vkCmdBlitImage (command 5) wrote in TRANSFER' '$work/out'"
run hazard-depth-passes-waw
check "hazard: two render passes share a depth buffer, the second's dependency misses the first's stores (WAW, as VVL)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 2 ] && [ \$(grep -c '^FINDING PREFLIGHT-hazard-write-after-write .*vkCmdBeginRenderPass (command 2) writes VkImage .*that the store operations of the render pass begun by vkCmdBeginRenderPass (command 0) wrote in .*source access scope (srcStageMask and srcAccessMask) does not include the earlier write' '$work/out') = 2 ]"
run hazard-readback-waw
check "hazard: a fill overwrites the last row an image-to-buffer copy wrote, no barrier" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*vkCmdFillBuffer (command [0-9]*) writes VkBuffer .*(memory bytes \\[16380, 16384)) that vkCmdCopyImageToBuffer' '$work/out'"
run hazard-rendering-raw
skipped "dynamic rendering" ||
    check "hazard: a dispatch samples what dynamic rendering stored, no barrier" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdDispatch (command 6) reads VkImage .*that the store operations of the rendering begun by vkCmdBeginRendering (command 2) wrote in COLOR_ATTACHMENT_OUTPUT' '$work/out'"
run hazard-renderpass-raw
check "hazard: a dispatch samples what a render pass stored, only the implicit dependency after it" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdDispatch (command 5) reads VkImage .*that vkCmdEndRenderPass (command 2) wrote in a layout transition after ALL_COMMANDS' '$work/out'"
run hazard-subpass-raw
skipped "subpass dependencies" ||
    check "hazard: the second subpass reads what the first one's fragment shader wrote, dependency without it" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdDraw (command 6) reads VkBuffer .*that vkCmdDraw (command 3) wrote' '$work/out'"
run hazard-input-attachment-raw
check "hazard: the second subpass reads the first's color output as an input attachment, dependency without FRAGMENT_SHADER" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdDraw (command 6) reads VkImage .*that vkCmdBeginRenderPass (command 0) wrote in COLOR_ATTACHMENT_OUTPUT' '$work/out'"
run hazard-secondary-raw
check "hazard: a secondary's dispatch reads what the primary filled, no barrier" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*names=primary-cb,- .*vkCmdDispatch of secondary VkCommandBuffer 0x[0-9a-f]* \"secondary-cb\" (command 2) reads VkBuffer .*that vkCmdFillBuffer (command 0) wrote' '$work/out'"
# across command buffers and submissions (checked at vkQueueSubmit)
run hazard-submit-raw
check "hazard at submit: one batch, the second command buffer reads what the first filled, no barrier" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*names=read-cb,- .*vkCmdDispatch (command 2) reads VkBuffer .*that vkCmdFillBuffer (command 0 of VkCommandBuffer 0x[0-9a-f]* \"fill-cb\", earlier on the same queue) wrote in TRANSFER' '$work/out'"
run hazard-submit-separate
check "hazard at submit: two submissions, nothing between them" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*\"fill-cb\", earlier on the same queue' '$work/out'"
run hazard-cross-queue
if ! skipped "hazard across queues (runs on the H200: scripts/device-farm/run-layer-on-device.sh)"; then
    check "hazard at submit: a second queue reads what the first filled, no semaphore" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q 'PREFLIGHT-hazard-read-after-write .*submitted to another VkQueue' '$work/out'"
    run hazard-cross-queue-semaphore
    check "hazard at submit: a semaphore orders the two queues: no finding" only 0
    run hazard-cross-queue-stage
    check "hazard at submit: the semaphore wait's stage mask (TRANSFER) misses the compute read" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q 'PREFLIGHT-hazard-read-after-write .*submitted to another VkQueue.*a semaphore wait whose stage mask' '$work/out'"
fi
# the spec's rules on patterns of real programs (docs/real-programs.md)
run hazard-runtime-index
check "hazard: a descriptor array indexed at run time through a helper's parameter: every written element counts (RAW)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdDispatch (command 3) reads VkBuffer .*that vkCmdFillBuffer (command 0) wrote in TRANSFER' '$work/out'"
run hazard-3d-slices-overlap
check "hazard: two copies into overlapping depth slices of a 3D image (WAW)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*vkCmdCopyBufferToImage (command 2) writes VkImage .*that vkCmdCopyBufferToImage (command 1) wrote' '$work/out'"
run hazard-top-of-pipe-wait
check "hazard: a semaphore wait at TOP_OF_PIPE, then a transition from TOP_OF_PIPE: ordered after nothing (WAW with the upload)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*names=filter-cb,- .*vkCmdPipelineBarrier (command 0) writes VkImage .*that vkCmdClearColorImage (command 1 of VkCommandBuffer 0x[0-9a-f]* \"upload-cb\", earlier on the same queue) wrote in TRANSFER; missing between them: the layout transition.s source stages do not include the earlier write' '$work/out'"
run hazard-sampled-after-pass
check "hazard: a pass with no external dependency and final layout SHADER_READ_ONLY, then a draw samples it (RAW, named as the transition's own source stages)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdDraw (command 5) reads VkImage .*that vkCmdEndRenderPass (command 1) wrote in a layout transition after ALL_COMMANDS' '$work/out'"
run hazard-vertex-scope
check "hazard: a barrier to VERTEX_SHADER does not make a fill visible to the fragment shader's read (RAW)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdDraw (command 5) reads VkBuffer .*that vkCmdFillBuffer (command 0) wrote in TRANSFER; missing between them: a memory dependency that makes the write visible' '$work/out'"
run host-readback-persistent
check "host: a persistently mapped readback buffer read after the fence, no HOST barrier" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-host-readback-without-host-barrier .*names=-,readback,readback-cb .*vkWaitForFences: vkCmdCopyBuffer (command 0 of VkCommandBuffer 0x[0-9a-f]* \"readback-cb\") wrote VkBuffer 0x[0-9a-f]* \"readback\"' '$work/out'"
run host-timeline-wait-early
skipped "timeline semaphores" ||
    check "host: a timeline wait satisfied by an earlier signal does not complete the fill that signals later: invalidate before wait" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-host-invalidate-before-wait ' '$work/out'"
run host-timeline-wait-fixed
skipped "timeline semaphores" || check "host: the wait for the fill's own value: no finding" only 0
run host-wait-through-semaphore
if ! skipped "host waits across queues (runs on the H200: scripts/device-farm/run-layer-on-device.sh)"; then
    check "host: a fence of the batch that waited for the fill's semaphore completes the fill: invalidate after it, HOST barrier: no finding" only 0
    run host-wait-through-semaphore-no-barrier
    check "host: the same without the HOST barrier: the read of a write nothing made visible" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-host-read-without-host-barrier .*vkInvalidateMappedMemoryRanges covers VkDeviceMemory .*which vkCmdFillBuffer (command 0 of VkCommandBuffer 0x[0-9a-f]* \"fill-cb\")' '$work/out'"
fi
run host-readback-marker
check "host: a readback buffer written only by fills (a progress marker, as Godot's crash breadcrumbs): silent" only 0
run host-readback-gpu-readable
check "host: a mapped buffer the GPU can also read, copied into, no HOST barrier: silent (the host's read is not certain)" only 0
for s in host-readback-marker host-readback-gpu-readable; do
    VK_PREFLIGHT_VALIDATION_HOST_READBACK=possible run $s
    check "host: host_readback = possible reports $s" sh -c "[ \$(grep -c '^FINDING PREFLIGHT-host-readback-without-host-barrier' '$work/out') -ge 1 ]"
done
run hazard-load-without-read
check "hazard: a render pass LOADs an image whose transition made it visible to attachment writes only (RAW)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-read-after-write .*vkCmdBeginRenderPass (command 1) reads VkImage .*that vkCmdPipelineBarrier (command 0) wrote in a layout transition after TOP_OF_PIPE; missing between them: a memory dependency that makes the write visible' '$work/out'"
run hazard-clear-blit-waw
check "hazard: a clear, then a blit into the same image, no barrier (WAW)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*vkCmdBlitImage (command 3) writes VkImage .*that vkCmdClearColorImage (command 2) wrote in TRANSFER' '$work/out'"
run swapchain-present-war
skipped "swapchain (VK_EXT_headless_surface)" ||
    check "swapchain: an acquired image transitioned from TOP_OF_PIPE after a wait at TRANSFER races with its last present (WAR)" sh -c "[ \$(grep -c '^FINDING' '$work/out') -ge 1 ] && [ \$(grep -c '^FINDING' '$work/out') = \$(grep -c '^FINDING PREFLIGHT-hazard-write-after-read .*vkCmdPipelineBarrier (command 0) writes VkImage .*that vkQueuePresentKHR (command 0 of the presentation engine) read' '$work/out') ]"
run swapchain-present-fixed
skipped "swapchain (VK_EXT_headless_surface)" ||
    check "swapchain: the same frames with the transition chained to the wait: no finding" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 0 ] && grep -q 'swapchain: [0-9]* images' '$work/out'"
run host-readback-persistent-fixed
check "host: the same readback with the HOST/HOST_READ barrier: no finding" only 0
for s in hazard-raw-fixed hazard-war-execution-only hazard-disjoint hazard-event hazard-event2 hazard-sync2 hazard-image-fixed \
         hazard-transition-fixed hazard-readback-disjoint hazard-mipchain hazard-depth-passes hazard-rendering-fixed hazard-rendering-memory-access hazard-renderpass-fixed \
         hazard-subpass-fixed hazard-input-attachment \
         hazard-secondary-fixed \
         hazard-submit-fixed hazard-submit-semaphore \
         hazard-submit-timeline hazard-submit-fence \
         hazard-runtime-index-fixed hazard-transitions-ordered hazard-3d-slices hazard-top-of-pipe-wait-fixed \
         hazard-sampled-after-pass-fixed hazard-vertex-scope-fixed alias-in-place hazard-load-without-read-fixed \
         hazard-clear-blit-fixed hazard-timeline-reach hazard-planes hazard-texel-fixed hazard-texel-disjoint; do
    run $s
    check "hazard: correct synchronization ($s): no finding" only 0
    [ "$active" = 1 ] || continue
    TSAN_OPTIONS="$vvl_tsan" \
        VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation:VK_LAYER_PREFLIGHT_validation \
        VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT timeout 120 "$app" $s >"$work/out" 2>"$work/err"
    check "hazard: $s is also clean for Vulkan-ValidationLayers with synchronization validation" sh -c "grep -q 'done: 0 messages' '$work/out'"
done

# --- host checks ---
run host-invalidate-early
check "host: invalidating memory a pending submission writes, before waiting" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-host-invalidate-before-wait .*objects=3 .*has not waited for that submission' '$work/out'"
run host-invalidate-after-wait
check "host: invalidating after a fence wait that covers the work in queue order, host barrier: no finding" only 0
run host-read-no-barrier
check "host: reading completed GPU writes no HOST/HOST_READ barrier made visible" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-host-read-without-host-barrier .*objects=3 names=-,-,host-cb .*which vkCmdFillBuffer (command 0 of VkCommandBuffer 0x[0-9a-f]* \"host-cb\") wrote; the work is complete, but no barrier' '$work/out'"
run host-flush-pending
check "host: writing and flushing memory a pending dispatch reads" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-host-write-while-pending .*which vkCmdDispatch (command 2 of VkCommandBuffer 0x[0-9a-f]* \"host-cb\", submitted to VkQueue 0x[0-9a-f]*) reads' '$work/out'"
run host-flush-before-submit
check "host: writing and flushing before the submission: no finding" only 0
run host-map-early
check "host: mapping memory a pending submission writes, before waiting" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-host-map-before-wait .*vkMapMemory maps VkDeviceMemory 0x[0-9a-f]* bytes \[0, 4096).*has not waited for that submission' '$work/out'"
run host-map-after-wait
check "host: mapping after the fence wait, host barrier: no finding" only 0
run host-ring-whole-range
check "host: flushing, invalidating and mapping a whole two-slot ring while the GPU fills the other slot: no finding" only 0

# memory stays flat over many submissions (fences, semaphores, freed command buffers)
run soak
if grep -q "^soak: .*sanitizer build" "$work/out"; then
    check "soak: 20000 submissions, no finding (sanitizer build: memory not measured)" only 0
else
    check "soak: 20000 submissions, no finding, resident size grows by less than 1 MiB after warm-up" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 0 ] && awk '/^soak:/ { exit !(\$NF - \$(NF - 4) < 1024) }' '$work/out'"
fi
grep "^soak:" "$work/out"

run stress --threads 4
check "4 threads x 1000 command buffers: no finding, no crash" sh -c "grep -q 'recorded 4000 command buffers' '$work/out' && [ \$(grep -c '^FINDING' '$work/out') = 0 ] && [ \$(cat '$work/rc') = 0 ]"

# --- lifetime: object lifetime against pending work (layer_app_lifetime.c) -----------------------
# Each bug beside its correct program; every correct one is also run under Vulkan-ValidationLayers'
# core checks, which must agree (silent), and each bug's VUID is named in docs/checks.md.
pending_words="no wait has shown that submission complete"
run lifetime-destroy-pending
check "lifetime: a buffer destroyed while the submission writing it is pending (names, labels, queue)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-lifetime-destroyed-while-pending [-0-9]* ERROR objects=3 names=particles-out,frame-cb,- .*vkDestroyBuffer destroys VkBuffer 0x[0-9a-f]* \"particles-out\" while VkCommandBuffer 0x[0-9a-f]* \"frame-cb\" (command 2, vkCmdDispatch, labels \"frame/particles\"), submitted to VkQueue 0x[0-9a-f]*, may still use it: $pending_words' '$work/out'"
run lifetime-destroy-kinds-pending
check "lifetime: a sampled view and its sampler (through the set's descriptors), the pipeline, the set and memory, each destroyed while pending" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 5 ] && [ \$(grep -c '^FINDING PREFLIGHT-lifetime-destroyed-while-pending .*shade-cb' '$work/out') = 5 ] && grep -q 'vkDestroyImageView destroys VkImageView 0x[0-9a-f]* \"albedo-view\" while .*(command 3, vkCmdDispatch)' '$work/out' && grep -q 'vkDestroySampler destroys VkSampler 0x[0-9a-f]* \"albedo-sampler\"' '$work/out' && grep -q 'vkDestroyPipeline destroys VkPipeline 0x[0-9a-f]* \"shade\" while .*(command 1, vkCmdBindPipeline)' '$work/out' && grep -q 'vkFreeDescriptorSets frees VkDescriptorSet 0x[0-9a-f]* \"material-set\"' '$work/out' && grep -q 'vkFreeMemory frees VkDeviceMemory 0x[0-9a-f]* \"readback-memory\"' '$work/out'"
run lifetime-pool-reset-pending
check "lifetime: a frame's descriptor pool reset before its fence (through the set)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-lifetime-reset-while-pending .*names=frame-descriptors,frame-cb,- .*vkResetDescriptorPool resets VkDescriptorPool .*\"frame-descriptors\" while .*through VkDescriptorSet 0x[0-9a-f]* from that pool' '$work/out'"
run lifetime-frames-early-reset
check "lifetime: each slot's command pool reset before its fence (4 frames)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 4 ] && [ \$(grep -c '^FINDING PREFLIGHT-lifetime-reset-while-pending .*vkResetCommandPool resets VkCommandPool .*\"frame-commands-[01]\" while VkCommandBuffer .*(a command buffer allocated from it)' '$work/out') = 4 ]"
run lifetime-stale-set
check "lifetime: a set kept across its pool's reset, bound in the next frame (one finding, no follow-on binding finding)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-lifetime-stale-descriptor-set .*names=frame-cb,scene-object-set labels=frame/particles: vkCmdBindDescriptorSets (command 1) binds VkDescriptorSet 0x[0-9a-f]* \"scene-object-set\", which was freed' '$work/out'"
VK_PREFLIGHT_VALIDATION_ACTION=abort run lifetime-stale-set-submit
check "lifetime: a recorded set freed, then submitted (action = abort stops the program before the driver runs it)" sh -c "[ \$(cat '$work/rc') != 0 ] && [ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-lifetime-stale-descriptor-set .*VkCommandBuffer 0x[0-9a-f]* \"frame-cb\" is submitted to VkQueue .*but VkDescriptorSet 0x[0-9a-f]* \"scene-object-set\", which its command 2 (vkCmdDispatch, labels \"frame/particles\") refers to, was freed' '$work/out'"
VK_PREFLIGHT_VALIDATION_ACTION=abort run lifetime-destroyed-after-recording
check "lifetime: a buffer destroyed between recording and submit" sh -c "[ \$(cat '$work/rc') != 0 ] && [ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-lifetime-destroyed-after-recording .*but VkBuffer 0x[0-9a-f]* \"particles-out\", which its command 2 (vkCmdDispatch, labels \"frame/particles\") refers to, was destroyed' '$work/out'"
run lifetime-update-pending
check "lifetime: a set rewritten while a submission uses it" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-lifetime-updated-while-pending .*names=material-set,frame-cb,- .*vkUpdateDescriptorSets updates VkDescriptorSet .*binding 1 was created without UPDATE_AFTER_BIND' '$work/out'"
run lifetime-begin-pending
check "lifetime: a command buffer re-recorded while its submission runs" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-lifetime-reset-while-pending .*vkBeginCommandBuffer resets VkCommandBuffer 0x[0-9a-f]* \"frame-cb\", which is pending' '$work/out'"
VK_PREFLIGHT_VALIDATION_ACTION=abort run lifetime-counter-read-early
skipped "timeline semaphores" ||
    check "lifetime: a counter read of 1 (set by the host) does not complete the batch that signals 2: its buffer destroyed is reported (action = abort)" sh -c "[ \$(cat '$work/rc') != 0 ] && [ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-lifetime-destroyed-while-pending .*vkDestroyBuffer destroys VkBuffer 0x[0-9a-f]* \"particles-out\" while VkCommandBuffer 0x[0-9a-f]* \"frame-cb\"' '$work/out'"
run lifetime-counter-read-fixed
skipped "timeline semaphores" || check "lifetime: the same buffer destroyed after waiting for 2: no finding" only 0
run lifetime-set-handle-reused
check "lifetime: a set freed and another allocated at its handle between recordings: the new set's output is the one written twice (one WAW)" sh -c "[ \$(cat '$work/rc') = 0 ] && [ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-hazard-write-after-write .*vkCmdDispatch (command 4) writes VkBuffer 0x[0-9a-f]* \"out-second\"' '$work/out'"
run lifetime-texel-pending
check "lifetime: a storage texel buffer's view, then its buffer, destroyed while the dispatch writing through the view is pending" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 2 ] && grep -q '^FINDING PREFLIGHT-lifetime-destroyed-while-pending .*vkDestroyBufferView destroys VkBufferView 0x[0-9a-f]* \"texel-view\" while VkCommandBuffer 0x[0-9a-f]* \"texel-cb\" (command 2, vkCmdDispatch)' '$work/out' && grep -q '^FINDING PREFLIGHT-lifetime-destroyed-while-pending .*vkDestroyBuffer destroys VkBuffer 0x[0-9a-f]* \"texels\" while VkCommandBuffer 0x[0-9a-f]* \"texel-cb\" (command 2, vkCmdDispatch)' '$work/out'"
for s in lifetime-destroy-after-wait lifetime-destroy-other-pending lifetime-frames lifetime-update-after-bind lifetime-completion-chains \
         lifetime-texel-after-wait; do
    run $s
    if [ "$active" = 1 ] && ! skipped "$s"; then
        check "lifetime: correct program ($s): no finding" only 0
        TSAN_OPTIONS="$vvl_tsan" VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation:VK_LAYER_PREFLIGHT_validation \
            timeout 120 "$app" $s >"$work/out" 2>"$work/err"
        echo $? >"$work/rc"
        check "lifetime: $s under Vulkan-ValidationLayers too: no message from either" sh -c "[ \$(grep -c -E '^(FINDING|OTHER)' '$work/out') = 0 ] && [ \$(cat '$work/rc') = 0 ]"
    fi
done

# --- dispatch coverage: a push-constant bound the dispatch falls short of -----------------------
run dispatch-uncovered
check "dispatch coverage: 10000 particles, 156 groups of 64: 16 left out (a warning)" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-dispatch-uncovered-elements [-0-9]* WARNING objects=2 names=particles-cb,particles labels=simulate: vkCmdDispatch (command 2) launches 9984 invocations (156 groups of local_size_x = 64) in x, but the shader works on every gl_GlobalInvocationID.x below 10000 (the push constant at offset 4): 16 elements are left out; 157 groups in x would cover them' '$work/out'"
run dispatch-uncovered-2d
check "dispatch coverage: 100 x 50 pixels in 12 x 7 groups of 8 x 8: x short by 4, y covered" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q 'PREFLIGHT-dispatch-uncovered-elements .*launches 96 invocations (12 groups of local_size_x = 8) in x, .*below 100 (the push constant at offset 0): 4 elements are left out; 13 groups' '$work/out'"
run dispatch-uncovered-indirect
check "dispatch coverage: the indirect group count read at submit" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q 'PREFLIGHT-dispatch-uncovered-elements .*vkCmdDispatchIndirect (command 2) launches 9984 invocations .*(group count read from the indirect buffer at submit).*16 elements are left out' '$work/out'"
for s in dispatch-covered dispatch-covered-2d dispatch-covered-indirect dispatch-grid-stride; do
    run $s
    check "dispatch coverage: covered, or no bound to trace ($s): no finding" only 0
done

# Hostile application input (tests/layer/layer_app_hostile.c): each scenario first without the
# layer (the driver survives it, so what follows tests the layer), then through it: exit 0 and no
# crash or sanitizer report; what the layer recognises is reported.
hostile_bare() { # the scenario without any layer must exit 0: else the driver, not the layer, is tested
    timeout 120 "$app" "$1" >/dev/null 2>"$work/bare-err"
}
for s in hostile-handles hostile-ranges hostile-descriptors hostile-pnext hostile-secondaries hostile-spirv hostile-threads; do
    run $s
    [ "$active" = 1 ] || continue
    check "hostile input ($s): the driver alone survives it" hostile_bare $s
    check "hostile input ($s): through the layer, exit 0, no sanitizer report" sh -c "[ \$(cat '$work/rc') = 0 ] && ! grep -q 'Sanitizer' '$work/err'"
    case $s in
    hostile-handles)
        check "hostile handles: a freed set bound is reported" has "PREFLIGHT-lifetime-stale-descriptor-set .*which was freed" ;;
    hostile-descriptors)
        check "hostile descriptors: a million-descriptor binding, writes across bindings, templates: silent" only 0 ;;
    hostile-pnext | hostile-secondaries)
        check "hostile $s: silent" only 0 ;;
    hostile-spirv)
        check "a module the reflection cannot make sense of: one WARNING naming it and why" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 1 ] && grep -q '^FINDING PREFLIGHT-binding-invalid-spirv [-0-9]* WARNING .*\"twice-defined\", entry point \"main\" (stage COMPUTE) cannot be reflected: .*defined more than once' '$work/out'" ;;
    hostile-threads)
        check "hostile threads: 8 threads x 40 submissions, silent" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 0 ] && grep -q '8 threads x 40 submissions, 0 failed calls' '$work/out'" ;;
    esac
done

# spirv_validation = on: SPIRV-Tools' validator at vkCreateShaderModule, once per module
VK_PREFLIGHT_VALIDATION_SPIRV_VALIDATION=on run hostile-spirv
check "spirv_validation on: the validator's rejection at vkCreateShaderModule, then the reflection's" sh -c "[ \$(grep -c '^FINDING' '$work/out') = 2 ] && grep -q 'PREFLIGHT-binding-invalid-spirv .*vkCreateShaderModule\|PREFLIGHT-binding-invalid-spirv .*is not valid SPIR-V for Vulkan 1\.[0-9]: spirv-val: ' '$work/out'"
VK_PREFLIGHT_VALIDATION_SPIRV_VALIDATION=on run clean
check "spirv_validation on: the project's valid shaders give nothing" only 0

# a program we did not write: vkcube (vulkan-tools) draws 30 frames into an Xvfb window (swapchain,
# render pass, per-frame uniform buffers written by the host, fences and semaphores). Skipped for
# sanitizer builds of the layer (vkcube is not built with the sanitizer runtime).
active=1
if ! whole; then
    : # vkcube is no layer_app scenario
elif ! command -v xvfb-run >/dev/null || ! command -v vkcube >/dev/null; then
    echo "skip vkcube: xvfb-run or vkcube not installed (scripts/setup.sh --tests installs both)"
elif ldd "$(layer_library)" | grep -q 'lib[at]san'; then
    echo "skip vkcube: sanitizer build of the layer"
else
    VK_LOADER_DEBUG=layer VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation VK_PREFLIGHT_VALIDATION_STDERR=on \
        VK_PREFLIGHT_VALIDATION_LOG_FILE="$work/vkcube.jsonl" timeout 120 xvfb-run -a vkcube --c 30 >"$work/out" 2>&1
    echo $? >"$work/rc"
    check "vkcube: 30 frames through the layer, exit 0, no finding" sh -c "[ \$(cat '$work/rc') = 0 ] && grep -qi 'insert instance layer.*VK_LAYER_PREFLIGHT_validation' '$work/out' && [ ! -s '$work/vkcube.jsonl' ] && ! grep -q 'PREFLIGHT-[a-z]*-' '$work/out'"
fi

echo "$((checks - failures)) passed, $failures failed"
if [ -n "$only_scenario" ] && [ "$checks" -eq 0 ] && [ "$skips" -eq 0 ]; then
    echo "FAIL no check ran for LAYER_SCENARIO=$only_scenario (no such scenario in this script)"
    exit 1
fi
[ "$failures" -eq 0 ]
