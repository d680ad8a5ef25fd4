#!/usr/bin/env python3
"""The layer's real-program acceptance: third-party Vulkan programs from Debian packages, each run
on lavapipe without the layer and then through it.

For every program the findings through the layer must be exactly its expectations file
(expectations/<name>.txt, as Mesa CI keeps per-device fails files): the findings that are true
bugs of that program, each after a comment with the spec's reason. A new finding fails, and so
does an expected one that is lost; a line marked "? " is a finding the program gives in some runs
and not others (a race of its own threads), taken either way. The program's outcome (exit status, or "still running" for the
demos that never stop, plus the hash of what it wrote) must be the same with and without the
layer.

Usage: run_programs.py --layer-dir DIR [--vkfft PATH] [--only NAME[,NAME]] [--update DIR] [--list]
  --update DIR  also writes each program's findings as an expectations file into DIR (reasons to
                be written by hand before copying them here)
Prints one line per program and "N passed, N failed"; exit 0 when every program passed, 1 when
one failed, 2 on bad usage. A program whose package is not installed fails (scripts/setup.sh
installs them all); it is never skipped silently.
"""
import argparse
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTATIONS = os.path.join(HERE, "expectations")


class Case:
    def __init__(self, name, argv, needs, display=False, zink=False, timeout=120, runs_for=None, output=None,
                 result=None, inputs=None, window_flaky=False):
        self.name = name
        self.argv = argv          # may name {work} (the scratch folder) and {vkfft}
        self.needs = needs        # executables that must exist
        self.display = display    # needs the X server
        self.zink = zink          # OpenGL through zink (Mesa's OpenGL on Vulkan)
        self.timeout = timeout    # seconds before the run counts as hung
        self.runs_for = runs_for  # demos that never end: stopped after this many seconds
        self.output = output      # a file the program writes ({work}/...), hashed
        self.result = result      # a regex whose matches in stdout are the outcome (piglit's verdict)
        self.inputs = inputs or []  # generated inputs the program reads
        self.window_flaky = window_flaky  # its window may fail to open under load: tried again


FFMPEG_FILTERS = [
    ("scale", "scale_vulkan=w=80:h=60"), ("gblur", "gblur_vulkan"), ("avgblur", "avgblur_vulkan"),
    ("chromaber", "chromaber_vulkan"), ("flip", "flip_vulkan"), ("transpose", "transpose_vulkan"),
]
# piglit's synchronization-heavy tests that pass on zink + lavapipe and take seconds: copies and
# clears of 3D and array textures slice by slice, buffer copies racing draws, image load/store
# with memory barriers (host and shader side), copy-pixels and draw synchronization
PIGLIT = [
    "arb_copy_image-simple", "arb_copy_image-formats", "arb_clear_texture-3d", "arb_clear_texture-simple",
    "arb_clear_texture-texview", "arb_copy_buffer-data-sync", "arb_copy_buffer-subdata-sync",
    "arb_shader_image_load_store-host-mem-barrier", "arb_shader_image_load_store-shader-mem-barrier",
    "arb_texture_buffer_object-data-sync", "copypixels-sync", "draw-sync",
]
PIGLIT_BIN = "/usr/lib/%s-linux-gnu/piglit/bin" % platform.machine()  # Debian's multiarch directory
GLMARK2_SCENES = ["build:use-vbo=true", "texture:texture-filter=linear", "shading:shading=phong",
                  "bump:bump-render=normals", "effect2d:kernel=0,1,0;1,-4,1;0,1,0;", "pulsar:quads=5",
                  "desktop:effect=blur:windows=4", "buffer:update-method=map", "shadow", "refract",
                  "terrain"]


def cases():
    out = [
        Case("vkcube", ["vkcube", "--c", "30"], ["vkcube"], display=True),
        Case("vkcubepp", ["vkcubepp", "--c", "30"], ["vkcubepp"], display=True),
        Case("vkfft", ["{vkfft}"], ["{vkfft}"], timeout=300),
        Case("zink-glxgears", ["glxgears"], ["glxgears"], display=True, zink=True, runs_for=4),
        Case("zink-es2gears", ["es2gears_x11"], ["es2gears_x11"], display=True, zink=True, runs_for=4),
        Case("zink-glmark2", ["glmark2", "--off-screen", "-s", "128x128"] +
             [a for s in GLMARK2_SCENES for a in ("-b", s + ":duration=0.3")], ["glmark2"], display=True,
             zink=True, timeout=300),
        Case("vkd3d-gears", ["vkd3d-gears"], ["vkd3d-gears"], display=True, runs_for=4),
        Case("vkd3d-triangle", ["vkd3d-triangle"], ["vkd3d-triangle"], display=True, runs_for=4),
        # libplacebo passes over CPU devices unless named: {device} is lavapipe's deviceName
        Case("mpv-gpu", ["mpv", "--no-config", "--msg-level=all=error", "--vo=gpu", "--gpu-api=vulkan",
                         "--vulkan-device={device}", "--frames=30", "--no-audio", "{work}/clip.y4m"], ["mpv"],
             display=True, inputs=["clip.y4m"]),
        Case("mpv-gpu-next", ["mpv", "--no-config", "--msg-level=all=error", "--vo=gpu-next", "--gpu-api=vulkan",
                              "--vulkan-device={device}", "--frames=30", "--no-audio", "{work}/clip.y4m"], ["mpv"],
             display=True, inputs=["clip.y4m"]),
        Case("gst-colorconvert", ["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=30", "pattern=ball", "!",
                                  "video/x-raw,width=160,height=120,format=RGBA", "!", "vulkanupload", "!",
                                  "vulkancolorconvert", "!", "video/x-raw(memory:VulkanImage),format=BGRA", "!",
                                  "vulkancolorconvert", "!", "vulkandownload", "!",
                                  "video/x-raw,format=RGBA", "!", "filesink", "location={work}/gst.rgba"],
             ["gst-launch-1.0"], output="gst.rgba"),
        Case("gst-imageidentity", ["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=30", "!",
                                   "video/x-raw,width=160,height=120,format=BGRA", "!", "vulkanupload", "!",
                                   "video/x-raw(memory:VulkanImage)", "!", "vulkanimageidentity", "!",
                                   "vulkandownload", "!", "filesink",
                                   "location={work}/gst.rgba"], ["gst-launch-1.0"], output="gst.rgba"),
        Case("gst-vulkansink", ["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=30", "!",
                                "video/x-raw,width=160,height=120", "!", "vulkanupload", "!", "vulkansink"],
             ["gst-launch-1.0"], display=True, window_flaky=True),
    ]
    for name, graph in FFMPEG_FILTERS:
        out.append(Case("ffmpeg-" + name, ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-init_hw_device",
                                          "vulkan=vk", "-filter_hw_device", "vk", "-i", "{work}/clip.y4m", "-vf",
                                          "format=yuv420p,hwupload," + graph + ",hwdownload,format=yuv420p",
                                          "-f", "rawvideo", "{work}/out.yuv"], ["ffmpeg"], output="out.yuv",
                        inputs=["clip.y4m"]))
    for name, graph in [("overlay", "[0:v]format=yuv420p,hwupload[a];[1:v]format=yuv420p,hwupload[b];"
                                     "[a][b]overlay_vulkan=x=20:y=10,hwdownload,format=yuv420p"),
                        ("blend", "[0:v]format=yuv420p,hwupload[a];[1:v]format=yuv420p,scale=160:120,hwupload[b];"
                                  "[a][b]blend_vulkan=all_mode=multiply,hwdownload,format=yuv420p")]:
        out.append(Case("ffmpeg-" + name, ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-init_hw_device",
                                          "vulkan=vk", "-filter_hw_device", "vk", "-i", "{work}/clip.y4m", "-i",
                                          "{work}/small.y4m", "-filter_complex", graph, "-f", "rawvideo",
                                          "{work}/out.yuv"], ["ffmpeg"],
                        inputs=["clip.y4m", "small.y4m"]))  # the output differs from run to run without the
                                                            # layer too (its races), so only the status counts
    out.append(Case("ffmpeg-libplacebo", ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-init_hw_device",
                                         "vulkan=vk", "-filter_hw_device", "vk", "-i", "{work}/clip.y4m", "-vf",
                                         "format=yuv420p,hwupload,libplacebo=w=96:h=72,hwdownload,format=yuv420p",
                                         "-f", "rawvideo", "{work}/out.yuv"], ["ffmpeg"], output="out.yuv",
                    inputs=["clip.y4m"]))
    for test in PIGLIT:
        out.append(Case("piglit-" + test, [os.path.join(PIGLIT_BIN, test), "-auto", "-fbo"],
                        [os.path.join(PIGLIT_BIN, test)], display=True, zink=True,
                        result=r'PIGLIT: \{"result": "([a-z]+)"'))
    return out


def normalize(message):
    """A finding's message without what changes from run to run: handles (0x?) and numbers (N)."""
    return re.sub(r"\d+", "N", re.sub(r"0x[0-9a-f]+", "<handle>", message)).replace("<handle>", "0x?")


def read_expectations(name):
    """The findings a program must give, and those it may give ('? ' before a line: a race whose
    occurrence depends on the program's own thread timing, seen in some runs and not others)."""
    path = os.path.join(EXPECTATIONS, name + ".txt")
    expected, optional = set(), set()
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            maybe = line.startswith("? ")
            check, sep, message = line[2:].partition(": ") if maybe else line.partition(": ")
            if not sep or not check.startswith("PREFLIGHT-"):
                raise SystemExit(f"{path}:{number}: expected '[? ]PREFLIGHT-<id>: <normalized message>'")
            (optional if maybe else expected).add((check, message))
    return expected, optional


def make_inputs(work):
    """A short generated clip (and a smaller one to overlay): the same bytes every run."""
    for name, size in (("clip.y4m", "160x120"), ("small.y4m", "64x48")):
        path = os.path.join(work, name)
        if not os.path.exists(path):
            subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                            f"testsrc=size={size}:rate=10", "-frames:v", "10", "-pix_fmt", "yuv420p", path],
                           check=True)


def start_x(work):
    for display in range(91, 120):
        if os.path.exists(f"/tmp/.X11-unix/X{display}") or os.path.exists(f"/tmp/.X{display}-lock"):
            continue
        log = open(os.path.join(work, "xvfb.log"), "w")
        server = subprocess.Popen(["Xvfb", f":{display}", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                                  stdout=log, stderr=log, start_new_session=True)
        for _ in range(100):
            if os.path.exists(f"/tmp/.X11-unix/X{display}"):
                return server, f":{display}"
            if server.poll() is not None:
                break
            time.sleep(0.05)
        server.kill()
    raise SystemExit("run_programs: could not start Xvfb")


def device_name(env):
    """lavapipe's device name as mpv lists it (it carries the LLVM version and vector width, and mpv
    takes a software device only when named exactly), or None when mpv lists none."""
    if not shutil.which("mpv"):
        return None
    listing = subprocess.run(["mpv", "--no-config", "--vo=gpu", "--gpu-api=vulkan", "--vulkan-device=help"], env=env,
                             capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    names = re.findall(r"'([^']+)' \(GPU", listing.stdout + listing.stderr)
    lavapipe = [n for n in names if n.startswith("llvmpipe")]
    if not lavapipe:
        print(f"run_programs: mpv lists no lavapipe device (it lists: {names or 'none'}; said: "
              f"{(listing.stdout + listing.stderr).strip()[-300:]!r})")
    return lavapipe[0] if lavapipe else None


def run_once(case, env, work, vkfft, device):
    """The outcome of one run: status, output hash, result matches, and stdout+stderr (a failed
    run's output is kept in {work}/<name>.failed.log for the report)."""
    argv = [a.format(work=work, vkfft=vkfft, device=device or "(no lavapipe device)") for a in case.argv]
    if case.output:
        out = os.path.join(work, case.output)
        if os.path.exists(out):
            os.remove(out)
    log_path = os.path.join(work, "program.log")
    with open(log_path, "w") as log:
        process = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
        limit = case.runs_for if case.runs_for else case.timeout
        try:
            process.wait(timeout=limit)
            status = f"exit {process.returncode}"
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            status = "still running when stopped" if case.runs_for else f"hung (over {limit} s)"
    with open(log_path, errors="replace") as f:
        text = f.read()
    digest = None
    if case.output:
        out = os.path.join(work, case.output)
        digest = hashlib.sha256(open(out, "rb").read()).hexdigest()[:16] if os.path.exists(out) else "missing"
    result = re.findall(case.result, text) if case.result else None
    return {"status": status, "output": digest, "result": result}, text


def findings_of(log_file):
    found = {}
    if os.path.exists(log_file):
        with open(log_file, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    j = json.loads(line)
                except json.JSONDecodeError:
                    continue
                key = (j["id"], normalize(j["message"]))
                found[key] = found.get(key, 0) + 1
    return found


def main():
    parser = argparse.ArgumentParser(description="The layer on real third-party Vulkan programs (lavapipe).")
    parser.add_argument("--layer-dir", required=True)
    parser.add_argument("--vkfft", default="")
    parser.add_argument("--only", default="")
    parser.add_argument("--update", default="")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--summary", default="", help="write a JSON summary of every run here")
    parser.add_argument("--vvl", action="store_true",
                        help="also run each program under Vulkan-ValidationLayers with synchronization validation "
                             "and count its SYNC-HAZARD messages (for docs/real-programs.md; not compared)")
    args = parser.parse_args()
    selected = cases()
    if args.list:
        for c in selected:
            print(c.name)
        return 0
    if args.only:
        names = set(args.only.split(","))
        unknown = names - {c.name for c in selected}
        if unknown:
            print(f"run_programs: unknown program(s): {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        selected = [c for c in selected if c.name in names]
    layer_dir = os.path.abspath(args.layer_dir)
    if not os.path.exists(os.path.join(layer_dir, "VkLayer_preflight_validation.json")):
        print(f"run_programs: no layer manifest in {layer_dir}", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="preflight-programs-")
    server = None
    passed = failed = 0
    summary = []
    try:
        base = dict(os.environ)
        for k in [k for k in base if k.startswith("VK_PREFLIGHT_VALIDATION_") or k in
                  ("VK_INSTANCE_LAYERS", "VK_LOADER_LAYERS_ENABLE")]:
            del base[k]
        base.setdefault("LP_NUM_THREADS", "2")
        if any(c.display for c in selected):
            server, display = start_x(work)
            base["DISPLAY"] = display
        if any(c.inputs for c in selected):
            make_inputs(work)
        device = device_name(base)
        for case in selected:
            missing = [n for n in (x.format(vkfft=args.vkfft) for x in case.needs) if not shutil.which(n)]
            if missing:
                print(f"FAIL {case.name}: not installed: {', '.join(missing)} (scripts/setup.sh installs it)")
                failed += 1
                continue
            def attempt():
                env = dict(base)
                if case.zink:
                    env.update({"LIBGL_ALWAYS_SOFTWARE": "1", "GALLIUM_DRIVER": "zink", "MESA_LOADER_DRIVER_OVERRIDE": "zink"})
                started = time.monotonic()
                plain, plain_text = run_once(case, env, work, args.vkfft, device)
                plain_seconds = time.monotonic() - started
                log_file = os.path.join(work, case.name + ".jsonl")
                if os.path.exists(log_file):
                    os.remove(log_file)
                layered_env = dict(env, VK_ADD_LAYER_PATH=layer_dir, VK_INSTANCE_LAYERS="VK_LAYER_PREFLIGHT_validation",
                                   VK_LOADER_DEBUG="layer", VK_PREFLIGHT_VALIDATION_LOG_FILE=log_file,
                                   VK_PREFLIGHT_VALIDATION_STDERR="off", VK_PREFLIGHT_VALIDATION_DUPLICATE_LIMIT="0")
                started = time.monotonic()
                layered, text = run_once(case, layered_env, work, args.vkfft, device)
                layered_seconds = time.monotonic() - started
                found = findings_of(log_file)
                vvl = None
                if args.vvl:
                    vvl_env = dict(env, VK_INSTANCE_LAYERS="VK_LAYER_KHRONOS_validation",
                                   VK_LAYER_ENABLES="VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT")
                    _, vvl_text = run_once(case, vvl_env, work, args.vkfft, device)
                    vvl = {}
                    for hazard in re.findall(r"Validation Error: \[ (SYNC-HAZARD-[A-Z-]+) \]", vvl_text):
                        vvl[hazard] = vvl.get(hazard, 0) + 1
                problems = []
                if not re.search(r"insert instance layer.*VK_LAYER_PREFLIGHT_validation", text, re.IGNORECASE):
                    problems.append("the layer was not loaded")
                if layered != plain: # a program flaky on its own gets a second pair of runs
                    plain_again, _ = run_once(case, env, work, args.vkfft, device)
                    layered_again, text = run_once(case, layered_env, work, args.vkfft, device)
                    if plain_again == layered_again:
                        plain, layered = plain_again, layered_again
                    else:
                        problems.append(f"outcome changed with the layer: {plain} and {plain_again} without, "
                                        f"{layered} and {layered_again} with")
                if plain["status"].startswith("hung") or plain["status"].startswith("exit") and plain["status"] != "exit 0" \
                        and case.name not in EXIT_NONZERO:
                    problems.append(f"the program itself failed without the layer: {plain['status']}")
                    problems += ["it said: " + line[:200] for line in plain_text.strip().splitlines()[-6:]]
                if case.result is not None and not plain["result"]:
                    problems.append("no result printed")
                expectations = read_expectations(case.name)
                if expectations is None:
                    problems.append(f"no expectations file (expectations/{case.name}.txt)")
                    expectations = (set(), set())
                expected, optional = expectations
                new = sorted(set(found) - expected - optional)
                lost = sorted(expected - set(found))
                for check, message in new:
                    problems.append(f"new finding: {check}: {message}")
                for check, message in lost:
                    problems.append(f"lost finding: {check}: {message}")
                return plain, plain_seconds, layered, layered_seconds, text, found, vvl, problems

            # a window-system program whose window can fail to open on a loaded machine (GStreamer's
            # vulkansink: "Failed to open window", or no frame presented) gets up to three tries
            tries = 3 if case.window_flaky else 1
            for attempt_number in range(1, tries + 1):
                plain, plain_seconds, layered, layered_seconds, text, found, vvl, problems = attempt()
                if not problems:
                    break
                if attempt_number < tries:
                    print(f"     ({case.name}: try {attempt_number} of {tries} failed: {problems[0][:120]}; again)")
            total = sum(found.values())
            line = (f"{case.name}: {total} findings ({len(found)} distinct), outcome {layered['status']}"
                    f"{', output ' + layered['output'] if layered['output'] else ''}"
                    f"{', result ' + ','.join(layered['result']) if layered['result'] else ''}"
                    f" ({plain_seconds:.1f} s, {layered_seconds:.1f} s through the layer)")
            if problems:
                failed += 1
                print("FAIL " + line)
                for p in problems:
                    print("     | " + p)
                for tail in text.strip().splitlines()[-6:]: # what the program said (with the loader's lines)
                    print("     ! " + tail[:200])
            else:
                passed += 1
                print("ok   " + line)
            if vvl is not None:
                print("     | Vulkan-ValidationLayers + sync: " +
                      (", ".join(f"{v} {k}" for k, v in sorted(vvl.items())) or "no SYNC-HAZARD"))
            summary.append({"program": case.name, "findings": total, "vvl": vvl,
                            "distinct": [{"id": k[0], "message": k[1], "count": v} for k, v in sorted(found.items())],
                            "outcome": layered, "seconds": [round(plain_seconds, 2), round(layered_seconds, 2)]})
            if args.update:
                os.makedirs(args.update, exist_ok=True)
                with open(os.path.join(args.update, case.name + ".txt"), "w", encoding="utf-8") as f:
                    f.write(f"# {case.name}: the findings that are true bugs of this program (normalized "
                            "messages: handles 0x?, numbers N).\n")
                    for check, message in sorted(found):
                        f.write(f"# REASON: ...\n{check}: {message}\n")
            sys.stdout.flush()
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait()
        if args.summary:
            with open(args.summary, "w") as f:
                json.dump(summary, f, indent=1)
        shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


# Programs whose own exit status is not 0 on lavapipe without the layer (the outcome must still be
# the same through the layer): ffmpeg 5.1's avgblur_vulkan frees a buffer twice at exit.
EXIT_NONZERO = {"ffmpeg-avgblur"}

if __name__ == "__main__":
    sys.exit(main())
