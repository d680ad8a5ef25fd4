#!/usr/bin/env python3
"""Runs one program inside the Debian unstable chroot (scripts/unstable-chroot.sh) on lavapipe, with
the layer built on this machine, with Vulkan-ValidationLayers, or with neither, and reads what each
reported.

Usage: unstable_chroot.py [--layer none|preflight|vvl] [--vvl-config NAME] [--layer-dir DIR]
                          [--x] [--copy PATH]... [--env VAR=VALUE]... [--timeout S] [--out DIR]
                          [--trace-layer-dir DIR] -- COMMAND [ARG...]
  {run} in COMMAND stands for the run's scratch folder inside the chroot (where --copy puts things);
  what the program writes into {run}/out/ comes back in --out DIR's out/.
  --layer preflight  VK_LAYER_PREFLIGHT_validation (the .so and manifest of --layer-dir, default
                     build/layer, copied in), every finding to a JSON-lines log, no duplicate limit
  --layer vvl        VK_LAYER_KHRONOS_validation in the configuration --vvl-config names (VVL_CONFIGS)
  --x                an Xvfb display for the program
  --trace-layer-dir  also load VK_LAYER_PREFLIGHT_api_trace from DIR (its log and shaders land in
                     --out)
  --out DIR          keeps program.log, preflight.jsonl, summary.json (and the trace) there
Prints the summary (exit status, seconds, findings by ID of the layer asked for) as JSON; exits 0
when the program ran (whatever its status), 2 on bad usage, 3 when the chroot or the layer is not
there or the layer was not loaded.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHROOT_SCRIPT = os.path.join(ROOT, "scripts", "unstable-chroot.sh")
CHROOT = os.environ.get("PREFLIGHT_UNSTABLE_CHROOT", "/var/cache/preflight/unstable-chroot")
LAYER_NAME = "VK_LAYER_PREFLIGHT_validation"
LAYER_FILES = ("libVkLayer_preflight_validation.so", "VkLayer_preflight_validation.json")
TRACE_FILES = ("libVkLayer_preflight_api_trace.so", "VkLayer_preflight_api_trace.json")

# Vulkan-ValidationLayers 1.4.363's configurations, by the environment variables its layer-settings
# library reads. VVL's own duplicate limit is off so that its counts compare with the layer's.
_VVL_BASE = {"VK_KHRONOS_VALIDATION_ENABLE_MESSAGE_LIMIT": "0"}
_SYNC = {"VK_VALIDATION_VALIDATE_SYNC": "1"}
_HEURISTIC = {"VK_VALIDATION_SYNCVAL_SHADER_ACCESSES_HEURISTIC": "1"}
_LOAD_OP = {"VK_VALIDATION_SYNCVAL_LOAD_OP_AFTER_STORE_OP_VALIDATION": "1"}
VVL_CONFIGS = {
    "default": dict(_VVL_BASE),
    # the 1.3 spelling, kept to show what it does in 1.4
    "layer-enables": dict(_VVL_BASE, VK_LAYER_ENABLES="VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT"),
    "sync": dict(_VVL_BASE, **_SYNC),
    "sync-khronos-prefix": dict(_VVL_BASE, VK_KHRONOS_VALIDATION_VALIDATE_SYNC="1"),
    "sync-heuristic": dict(_VVL_BASE, **_SYNC, **_HEURISTIC),
    "sync-load-op": dict(_VVL_BASE, **_SYNC, **_LOAD_OP),
    "sync-all": dict(_VVL_BASE, **_SYNC, **_HEURISTIC, **_LOAD_OP),
}

# The program starts inside the chroot through this script: an X server when asked (it picks its own
# display number, so runs can share the chroot), then the program under a time limit, its output
# and its own run time kept in the run folder. The PID namespace around it ends every process left.
WRAPPER = r"""#!/bin/sh
run=$1 limit=$2 display=$3
shift 3
cd "$run"
# this shell is the PID namespace's init: on a signal it takes everything in the namespace with it
trap 'kill -KILL -1 2>/dev/null; exit 143' TERM INT HUP
if [ "$display" = 1 ]; then
    Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3>"$run/display" >"$run/xvfb.log" 2>&1 &
    i=0
    while [ ! -s "$run/display" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    [ -s "$run/display" ] || { echo "Xvfb did not start: $(cat "$run/xvfb.log")" >"$run/program.log"; exit 125; }
    DISPLAY=":$(cat "$run/display")"
    export DISPLAY
fi
date +%s.%N >"$run/started"
timeout -k 10 "$limit" "$@" >"$run/program.log" 2>&1
echo $? >"$run/status"
date +%s.%N >"$run/ended"
"""


def vvl_findings(text):
    """VVL's messages by ID: 'Validation Error: [ SYNC-HAZARD-READ-AFTER-WRITE ]' and the like."""
    counts = {}
    for severity, message_id in re.findall(r"Validation (Error|Warning|Performance Warning|Information): \[ ([^\]]+?) \]",
                                           text):
        key = f"{message_id} ({severity})"
        counts[key] = counts.get(key, 0) + 1
    return counts


def preflight_findings(log_file):
    counts = {}
    if os.path.exists(log_file):
        with open(log_file, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    finding = json.loads(line)
                except json.JSONDecodeError:
                    continue
                key = f"{finding['id']} ({finding['severity']})"
                counts[key] = counts.get(key, 0) + 1
    return counts


def parse_args(argv):
    parser = argparse.ArgumentParser(description="One program in the unstable chroot, with a validation layer.")
    parser.add_argument("--layer", choices=("none", "preflight", "vvl"), default="none")
    parser.add_argument("--vvl-config", choices=sorted(VVL_CONFIGS), default="sync-all")
    parser.add_argument("--layer-dir", default=os.path.join(ROOT, "build", "layer"))
    parser.add_argument("--trace-layer-dir", default="")
    parser.add_argument("--x", action="store_true")
    parser.add_argument("--copy", action="append", default=[])
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("--timeout", type=int, default=600)
    parser.add_argument("--out", default="")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.command and args.command[0] == "--":
        args.command = args.command[1:]
    if not args.command:
        parser.error("no command given")
    for assignment in args.env:
        if "=" not in assignment:
            parser.error(f"--env {assignment}: expected VAR=VALUE")
    return args


def remove_stale_runs(runs):
    """Run folders of runner processes that no longer exist (killed before they could clean up)."""
    for name in os.listdir(runs):
        match = re.match(r"run-(\d+)-", name)
        if match and not os.path.exists(f"/proc/{match.group(1)}"):
            shutil.rmtree(os.path.join(runs, name), ignore_errors=True)


def copy_layer(source_dir, files, target_dir):
    os.makedirs(target_dir)
    for name in files:
        path = os.path.join(source_dir, name)
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path} is missing (build it first: scripts/build.sh build)")
        shutil.copy(path, target_dir)


def run(args):
    """Runs the program; returns the summary (a dict) and the run folder's path on the host."""
    subprocess.run([CHROOT_SCRIPT, "status"], check=True, stdout=subprocess.DEVNULL)
    runs = os.path.join(CHROOT, "preflight-runs")
    os.makedirs(runs, exist_ok=True)
    remove_stale_runs(runs)
    run_dir = tempfile.mkdtemp(prefix=f"run-{os.getpid()}-", dir=runs)
    try:
        return run_in(args, run_dir), run_dir
    except BaseException:
        shutil.rmtree(run_dir, ignore_errors=True)
        raise


def run_in(args, run_dir):
    """Runs the program with run_dir as its scratch folder; returns the summary."""
    os.chmod(run_dir, 0o755)
    inside = "/preflight-runs/" + os.path.basename(run_dir)
    os.makedirs(os.path.join(run_dir, "home"))
    os.makedirs(os.path.join(run_dir, "out"))
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": inside + "/home", "LANG": "C.UTF-8",
           # lavapipe alone: the chroot's other drivers have no hardware here
           "VK_DRIVER_FILES": "/usr/share/vulkan/icd.d/lvp_icd.json", "LP_NUM_THREADS": "2"}
    layers = []
    if args.layer == "preflight":
        copy_layer(args.layer_dir, LAYER_FILES, os.path.join(run_dir, "layer"))
        env.update({"VK_ADD_LAYER_PATH": inside + "/layer", "VK_LOADER_DEBUG": "layer",
                    "VK_PREFLIGHT_VALIDATION_LOG_FILE": inside + "/preflight.jsonl",
                    "VK_PREFLIGHT_VALIDATION_STDERR": "off", "VK_PREFLIGHT_VALIDATION_DUPLICATE_LIMIT": "0"})
        layers.append(LAYER_NAME)
    elif args.layer == "vvl":
        env.update(VVL_CONFIGS[args.vvl_config])
        env["VK_LOADER_DEBUG"] = "layer"
        layers.append("VK_LAYER_KHRONOS_validation")
    if args.trace_layer_dir:
        copy_layer(args.trace_layer_dir, TRACE_FILES, os.path.join(run_dir, "trace-layer"))
        os.makedirs(os.path.join(run_dir, "trace"))
        env["VK_ADD_LAYER_PATH"] = ":".join(p for p in (env.get("VK_ADD_LAYER_PATH"), inside + "/trace-layer") if p)
        env["PREFLIGHT_API_TRACE_DIR"] = inside + "/trace"
        layers.insert(0, "VK_LAYER_PREFLIGHT_api_trace")  # first: it sees what the application passes
    if layers:
        env["VK_INSTANCE_LAYERS"] = ":".join(layers)
    for assignment in args.env:
        name, _, value = assignment.partition("=")
        env[name] = value
    for path in args.copy:
        target = os.path.join(run_dir, os.path.basename(os.path.normpath(path)))
        (shutil.copytree if os.path.isdir(path) else shutil.copy)(path, target)
    with open(os.path.join(run_dir, "wrapper.sh"), "w") as f:
        f.write(WRAPPER)
    command = [a.replace("{run}", inside) for a in args.command]
    argv = [CHROOT_SCRIPT, "enter", "/usr/bin/env", "-i"] + [f"{k}={v}" for k, v in env.items()] + \
           ["/bin/sh", inside + "/wrapper.sh", inside, str(args.timeout), "1" if args.x else "0"] + command
    started = time.monotonic()
    # its own session, so that a time-out or an interrupt here ends unshare and with it the namespace
    chroot_run = subprocess.Popen(argv, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        chroot_run.wait(timeout=args.timeout + 60)
    except subprocess.TimeoutExpired:
        pass  # the program's own limit (timeout in the chroot) did not end it: ended below
    finally:
        if chroot_run.poll() is None:
            os.killpg(chroot_run.pid, signal.SIGKILL)
            chroot_run.wait()
    wall = time.monotonic() - started

    def read(name, default=""):
        path = os.path.join(run_dir, name)
        return open(path, errors="replace").read().strip() if os.path.exists(path) else default

    text = read("program.log")
    status = read("status")
    seconds = float(read("ended", "0")) - float(read("started", "0")) if read("ended") else None
    summary = {"command": command, "layer": args.layer, "status": int(status) if status else None,
               "seconds": round(seconds, 2) if seconds is not None else None, "wall_seconds": round(wall, 2),
               "configuration": {k: v for k, v in env.items() if k.startswith(("VK_", "GGML_", "LP_"))}}
    if chroot_run.returncode != 0 and not status:
        summary["error"] = f"the chroot run ended with status {chroot_run.returncode} before the program did"
    if args.layer == "preflight":
        # the loader's line, or the layer's log file (made at vkCreateInstance, findings or not): under
        # load the loader's debug output of programs that print much (GTK) was seen without the line
        log_file = os.path.join(run_dir, "preflight.jsonl")
        summary["loaded"] = os.path.exists(log_file) or bool(
            re.search(r"insert instance layer.*" + LAYER_NAME, text, re.IGNORECASE))
        summary["findings"] = preflight_findings(log_file)
    elif args.layer == "vvl":
        summary["vvl_config"] = args.vvl_config
        summary["loaded"] = bool(re.search(r"insert instance layer.*VK_LAYER_KHRONOS_validation", text, re.IGNORECASE))
        summary["findings"] = vvl_findings(text)
    with open(os.path.join(run_dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    return summary


def end_on_signal(number, frame):
    raise KeyboardInterrupt  # unwinds through run(), whose finally ends the chroot run


def run_and_keep(args):
    """Runs the program and copies what it left into args.out (when given); returns the summary.
    Raises FileNotFoundError or CalledProcessError when the chroot or a layer file is missing."""
    summary, run_dir = run(args)
    try:
        if args.out:
            os.makedirs(args.out, exist_ok=True)
            for name in ("program.log", "preflight.jsonl", "summary.json", "xvfb.log", "trace", "out"):
                path = os.path.join(run_dir, name)
                target = os.path.join(args.out, name)
                if os.path.isdir(path):
                    shutil.rmtree(target, ignore_errors=True)
                    shutil.copytree(path, target)
                elif os.path.exists(path):
                    shutil.copy(path, target)
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
    return summary


def main(argv):
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, end_on_signal)
    signal.signal(signal.SIGHUP, end_on_signal)
    try:
        summary = run_and_keep(args)
    except (FileNotFoundError, subprocess.CalledProcessError) as error:
        print(f"unstable_chroot: {error}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print("unstable_chroot: interrupted; the chroot run was ended", file=sys.stderr)
        return 130
    print(json.dumps(summary, indent=1))
    if args.layer != "none" and not summary.get("loaded"):
        print(f"unstable_chroot: the {args.layer} layer was not loaded (see program.log)", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
