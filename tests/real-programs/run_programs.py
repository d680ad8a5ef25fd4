#!/usr/bin/env python3
"""The layer's real-program acceptance: third-party Vulkan programs (programs.py) run on lavapipe
without the layer and then through it; with --vvl, also under Vulkan-ValidationLayers.

Two suites: bookworm (Debian 12's programs, on this machine) and unstable (in the Debian unstable
chroot, scripts/unstable-chroot.sh: Godot 4, ggml's test-backend-ops, and unstable's versions of the
bookworm programs).

For every program the findings through the layer must be exactly its expectations file
(expectations/<name>.txt, expectations/unstable/<name>.txt for the unstable suite; as Mesa CI keeps
per-device fails files): the findings that are true bugs of that program, each after a comment with
the spec's reason. A new finding fails, and so does an expected one that is lost; a line marked "? "
is a finding the program gives in some runs and not others (a race of its own threads), taken
either way. The program's outcome (exit status, or "still running" for the demos that never stop,
plus the hash of what it wrote, and its own verdict where it has one: ggml's comparison with the
CPU, Godot's frame) must be the same with and without the layer.

With --vvl in the unstable suite, VVL 1.4.363 runs each program too, in the configuration
VVL_CONFIG (synchronization validation with its shader-access heuristic and load-after-store check),
and its message IDs must be those of expectations/unstable/<name>.vvl.txt (the second opinion of
docs/real-programs.md; a change there means the table is to be regenerated and judged again). In
the bookworm suite --vvl runs the host's VVL 1.3.239 and only prints its SYNC-HAZARD counts.

Usage: run_programs.py --layer-dir DIR [--suite bookworm|unstable] [--vkfft PATH] [--only NAME[,NAME]]
                       [--skip NAME[,NAME]] [--vvl | --vvl-ci] [--update DIR] [--summary FILE] [--list]
  --vvl-ci      VVL beside the programs whose case has vvl_in_ci (all but ggml's 16 silent op sets)
  --update DIR  also writes each program's findings as an expectations file into DIR (the reasons of
                findings already in the current file are kept; new ones get "# REASON: ..." to be
                written by hand); DIR may be the expectations folder itself
Prints one line per program and "N passed, N failed"; exit 0 when every program passed, 1 when
one failed, 2 on bad usage, 3 when the unstable chroot is missing. A program whose package is not
installed fails (scripts/setup.sh --tests installs them all); it is never skipped silently.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import programs
import unstable_chroot

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTATIONS = os.path.join(HERE, "expectations")
SUITES = {"bookworm": (programs.bookworm, EXPECTATIONS),
          "unstable": (programs.unstable, os.path.join(EXPECTATIONS, "unstable"))}
# VVL 1.4.363's configuration beside the layer in the unstable suite (unstable_chroot.VVL_CONFIGS):
# without the shader-access heuristic its synchronization validation checks no descriptor access at
# all, and the load-after-store check is the one that sees hazards between render pass instances
VVL_CONFIG = "sync-all"
ZINK_ENV = {"LIBGL_ALWAYS_SOFTWARE": "1", "GALLIUM_DRIVER": "zink", "MESA_LOADER_DRIVER_OVERRIDE": "zink"}


def normalize(message):
    """A finding's message without what changes from run to run: handles (0x?), numbers (N), and
    which of a fence's two host calls saw the work complete (a program that polls vkGetFenceStatus
    and then waits in vkWaitForFences meets its readback in either, as the GPU is fast or slow)."""
    message = re.sub(r"^(vkGetFenceStatus|vkWaitForFences): ", "vkGetFenceStatus or vkWaitForFences: ", message)
    return re.sub(r"\d+", "N", re.sub(r"0x[0-9a-f]+", "<handle>", message)).replace("<handle>", "0x?")


def read_lines(path, check):
    """An expectations file's entries as (expected, optional, reasons): '? ' before a line marks an
    entry seen in some runs and not others; reasons maps each entry to the comment above it.
    check(entry) says what is wrong with a malformed entry, or None."""
    expected, optional, reasons, comment = set(), set(), {}, []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.lstrip().startswith("#"):
                comment.append(line)
                continue
            if not line.strip():
                comment = []
                continue
            maybe = line.startswith("? ")
            entry = line[2:] if maybe else line
            problem = check(entry)
            if problem:
                raise SystemExit(f"{path}:{number}: {problem}")
            (optional if maybe else expected).add(entry)
            reasons[entry] = comment
            comment = []
    return expected, optional, reasons


def finding_line_problem(entry):
    check, sep, _ = entry.partition(": ")
    return None if sep and check.startswith("PREFLIGHT-") else "expected '[? ]PREFLIGHT-<id>: <normalized message>'"


def read_expectations(folder, name):
    """The findings a program must give and those it may give, as 'ID: normalized message' lines,
    with their reasons; None when the program has no expectations file."""
    path = os.path.join(folder, name + ".txt")
    return read_lines(path, finding_line_problem) if os.path.exists(path) else None


def read_vvl_expectations(folder, name):
    path = os.path.join(folder, name + ".vvl.txt")
    return read_lines(path, lambda e: None if re.fullmatch(r"[\w.-]+", e) else "expected '[? ]VVL-MESSAGE-ID'") \
        if os.path.exists(path) else None


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


def lavapipe_name(listing):
    """lavapipe's device name in mpv's device list (it carries the LLVM version and vector width, and
    mpv takes a software device only when named exactly), or None."""
    names = re.findall(r"'([^']+)' \(GPU", listing)
    lavapipe = [n for n in names if n.startswith("llvmpipe")]
    if not lavapipe:
        print(f"run_programs: mpv lists no lavapipe device (it lists: {names or 'none'}; said: "
              f"{listing.strip()[-300:]!r})")
    return lavapipe[0] if lavapipe else None


def findings_of(log_file):
    found = {}
    if os.path.exists(log_file):
        with open(log_file, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    j = json.loads(line)
                except json.JSONDecodeError:
                    continue
                key = f"{j['id']}: {normalize(j['message'])}"
                found[key] = found.get(key, 0) + 1
    return found


def vvl_messages(text):
    """VVL's messages by ID ('Validation Error: [ SYNC-HAZARD-READ-AFTER-WRITE ]' and the like)."""
    counts = {}
    for message_id in re.findall(r"Validation (?:Error|Warning|Performance Warning|Information): \[ ([^\]]+?) \]",
                                 text):
        counts[message_id] = counts.get(message_id, 0) + 1
    return counts


def vvl_examples(text, limit=700):
    """VVL's first message of each ID, up to its object list (the evidence kept with the counts)."""
    examples = {}
    for block in re.split(r"\n(?=Validation (?:Error|Warning|Performance Warning|Information): \[)", text):
        match = re.match(r"Validation [A-Za-z ]+: \[ ([^\]]+?) \]", block)
        if match and match.group(1) not in examples:
            examples[match.group(1)] = block.split("\nObjects:")[0].strip()[:limit]
    return examples


class Run:
    """One run of a program: its outcome (compared with and without the layer), what it printed, the
    layer's findings (normalized message -> count) or VVL's (ID -> count), whether the layer asked
    for was loaded, the frame or file it wrote, its seconds and its configuration."""
    def __init__(self, outcome, text, found, loaded, output, seconds, configuration=None):
        self.outcome, self.text, self.found, self.loaded = outcome, text, found, loaded
        self.output, self.seconds, self.configuration = output, seconds, configuration or {}


def outcome_of(case, status_text, output_path, text):
    digest = None
    if case.output:
        digest = hashlib.sha256(open(output_path, "rb").read()).hexdigest()[:16] \
            if output_path and os.path.exists(output_path) else "missing"
    result = re.findall(case.result, text) if case.result else None
    return {"status": status_text, "output": digest, "result": result}


class HostRunner:
    """Runs the bookworm suite's programs on this machine."""
    def __init__(self, work, layer_dir, vkfft):
        self.work, self.layer_dir, self.vkfft = work, layer_dir, vkfft
        self.base = dict(os.environ)
        for k in [k for k in self.base if k.startswith("VK_PREFLIGHT_VALIDATION_") or k in
                  ("VK_INSTANCE_LAYERS", "VK_LOADER_LAYERS_ENABLE")]:
            del self.base[k]
        self.base.setdefault("LP_NUM_THREADS", "2")
        self.server = None
        self.device = None

    def start(self, selected):
        if any(c.display for c in selected):
            self.server, self.base["DISPLAY"] = start_x(self.work)
        if any(c.inputs for c in selected):
            make_inputs(self.work)
        if shutil.which("mpv") and any("{device}" in " ".join(c.argv) for c in selected):
            listing = subprocess.run(["mpv", "--no-config", "--vo=gpu", "--gpu-api=vulkan", "--vulkan-device=help"],
                                     env=self.base, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                                     timeout=60)
            self.device = lavapipe_name(listing.stdout + listing.stderr)

    def stop(self):
        if self.server is not None:
            os.killpg(self.server.pid, signal.SIGTERM)
            self.server.wait()

    def missing(self, case):
        return [n for n in (x.format(vkfft=self.vkfft) for x in case.needs) if not shutil.which(n)]

    def run(self, case, layer):
        """layer: none, preflight or vvl (the host's VVL with synchronization validation)."""
        env = dict(self.base, **case.env)
        if case.zink:
            env.update(ZINK_ENV)
        log_file = os.path.join(self.work, case.name + ".jsonl")
        if layer == "preflight":
            if os.path.exists(log_file):
                os.remove(log_file)
            env.update(VK_ADD_LAYER_PATH=self.layer_dir, VK_INSTANCE_LAYERS="VK_LAYER_PREFLIGHT_validation",
                       VK_LOADER_DEBUG="layer", VK_PREFLIGHT_VALIDATION_LOG_FILE=log_file,
                       VK_PREFLIGHT_VALIDATION_STDERR="off", VK_PREFLIGHT_VALIDATION_DUPLICATE_LIMIT="0")
        elif layer == "vvl":
            env.update(VK_INSTANCE_LAYERS="VK_LAYER_KHRONOS_validation",
                       VK_LAYER_ENABLES="VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT")
        argv = [a.format(work=self.work, vkfft=self.vkfft, device=self.device or "(no lavapipe device)")
                for a in case.argv]
        output = os.path.join(self.work, case.output) if case.output else None
        if output and os.path.exists(output):
            os.remove(output)
        log_path = os.path.join(self.work, "program.log")
        started = time.monotonic()
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
        seconds = time.monotonic() - started
        with open(log_path, errors="replace") as f:
            text = f.read()
        # loaded: the loader says it inserted the layer, or the layer opened its log file (made at
        # vkCreateInstance, findings or not); piglit-draw-sync under zink once showed no loader line
        # on a loaded machine, and passed three times after
        loaded = layer != "preflight" or os.path.exists(log_file) or bool(
            re.search(r"insert instance layer.*VK_LAYER_PREFLIGHT_validation", text, re.IGNORECASE))
        found = findings_of(log_file) if layer == "preflight" else vvl_messages(text) if layer == "vvl" else {}
        if layer == "vvl":  # the host's VVL is only counted: its SYNC-HAZARD messages
            found = {k: v for k, v in found.items() if k.startswith("SYNC-HAZARD-")}
        return Run(outcome_of(case, status, output, text), text, found, loaded, output, seconds)


class ChrootRunner:
    """Runs the unstable suite's programs in the unstable chroot (unstable_chroot.py), each run in a
    folder of its own: what the program writes to {work} comes back in out/."""
    def __init__(self, work, layer_dir, vkfft):
        self.work, self.layer_dir, self.vkfft = work, layer_dir, vkfft
        self.device = None

    def start(self, selected):
        if any(c.inputs for c in selected):
            make_inputs(self.work)
        if any("{device}" in " ".join(c.argv) for c in selected):
            listing = self.chroot(["mpv", "--no-config", "--vo=gpu", "--gpu-api=vulkan", "--vulkan-device=help"],
                                  "none", os.path.join(self.work, "mpv-devices"), x=True)
            self.device = lavapipe_name(listing[1])

    def stop(self):
        pass

    def missing(self, case):
        return []  # the chroot's stamp says its packages are installed

    def chroot(self, command, layer, out, x=False, copy=(), env=None, timeout=600):
        shutil.rmtree(out, ignore_errors=True)
        arguments = ["--layer", layer, "--vvl-config", VVL_CONFIG, "--layer-dir", self.layer_dir, "--out", out,
                     "--timeout", str(timeout)] + (["--x"] if x else [])
        for path in copy:
            arguments += ["--copy", path]
        for k, v in (env or {}).items():
            arguments += ["--env", f"{k}={v}"]
        summary = unstable_chroot.run_and_keep(unstable_chroot.parse_args(arguments + ["--"] + command))
        log = os.path.join(out, "program.log")
        return summary, open(log, errors="replace").read() if os.path.exists(log) else ""

    def run(self, case, layer):
        out = os.path.join(self.work, f"{case.name}-{layer}")
        inputs = [os.path.join(self.work, name) for name in case.inputs]
        copy = case.copy + inputs + ([self.vkfft] if "{vkfft}" in case.argv else [])
        argv = []
        for a in case.argv:
            for name in case.inputs:
                a = a.replace("{work}/" + name, "{run}/" + name)
            argv.append(a.format(work="{run}/out", run="{run}", device=self.device or "(no lavapipe device)",
                                 vkfft="{run}/" + os.path.basename(self.vkfft)))
        env = dict(case.env, **(ZINK_ENV if case.zink else {}))
        limit = case.runs_for or case.timeout
        summary, text = self.chroot(argv, layer, out, x=case.display, copy=copy, env=env, timeout=limit)
        status = summary.get("status")
        if summary.get("error") or status is None:
            status_text = summary.get("error", "no exit status")
        elif status == 124:  # timeout(1)'s status: the time limit ended it
            status_text = "still running when stopped" if case.runs_for else f"hung (over {limit} s)"
        else:
            status_text = f"exit {status}"
        output = os.path.join(out, "out", case.output) if case.output else None
        if layer == "preflight":
            found = findings_of(os.path.join(out, "preflight.jsonl"))
        else:
            found = vvl_messages(text) if layer == "vvl" else {}
        configuration = {k: v for k, v in summary.get("configuration", {}).items()
                         if not k.startswith(("VK_ADD_LAYER_PATH", "VK_PREFLIGHT_VALIDATION_LOG_FILE"))}
        return Run(outcome_of(case, status_text, output, text), text, found, layer == "none" or summary.get("loaded"),
                   output, summary.get("seconds") or 0.0, configuration)


def judge(case, plain, layered, runner, expectations):
    """The problems of one program's runs: the layer not loaded, a changed outcome, a failed
    program, a finding new or lost."""
    problems = []
    if not layered.loaded:
        problems.append("the layer was not loaded")
    if plain is not None and layered.outcome != plain.outcome:  # a program flaky on its own gets a second pair
        plain_again, layered_again = runner.run(case, "none"), runner.run(case, "preflight")
        if plain_again.outcome == layered_again.outcome:
            plain, layered = plain_again, layered_again
        else:
            problems.append(f"outcome changed with the layer: {plain.outcome} and {plain_again.outcome} without, "
                            f"{layered.outcome} and {layered_again.outcome} with")
    alone = plain or layered
    status = alone.outcome["status"]
    if status.startswith("hung") or status.startswith("exit") and status != "exit 0" and not case.exit_nonzero:
        problems.append(f"the program itself failed{' without the layer' if plain else ''}: {status}")
        problems += ["it said: " + line[:200] for line in alone.text.strip().splitlines()[-6:]]
    if case.result is not None and not alone.outcome["result"]:
        problems.append("no result printed")
    if case.verdict is not None:
        for label, run in (("without the layer", plain), ("through the layer", layered)):
            if run is not None:
                problems += [f"{label}: {p}" for p in case.verdict(run.text, run.output)]
    if expectations is None:
        problems.append("no expectations file")
        expectations = (set(), set(), {})
    expected, optional, _ = expectations
    problems += [f"new finding: {f}" for f in sorted(set(layered.found) - expected - optional)]
    problems += [f"lost finding: {f}" for f in sorted(expected - set(layered.found))]
    return problems, layered


def judge_vvl(case, vvl, layered, expectations):
    """The problems of the VVL run in the unstable suite: not loaded, the program's outcome not the
    same under it (its silence would prove nothing), its message IDs not those recorded."""
    problems = []
    if not vvl.loaded:
        problems.append("VVL was not loaded")
    if vvl.outcome != layered.outcome:
        problems.append(f"outcome under VVL: {vvl.outcome}, through the layer: {layered.outcome}")
    if case.verdict is not None:
        problems += ["under VVL: " + p for p in case.verdict(vvl.text, vvl.output)]
    if expectations is None:
        return problems + ["no VVL expectations file (.vvl.txt)"]
    expected, optional, _ = expectations
    problems += [f"new VVL message: {m}" for m in sorted(set(vvl.found) - expected - optional)]
    problems += [f"lost VVL message: {m}" for m in sorted(expected - set(vvl.found))]
    return problems


def write_expectations(folder, case, found, old, header, reason_hint):
    """Writes the program's expectations file, keeping the reasons (and '? ' marks) of entries the
    current file has."""
    expected, optional, reasons = old or (set(), set(), {})
    os.makedirs(folder, exist_ok=True)
    entries = sorted(set(found) | optional)
    with open(os.path.join(folder, case.name + header[0]), "w", encoding="utf-8") as f:
        f.write(header[1].format(name=case.name))
        if not entries:
            f.write("# None.\n")
        for entry in entries:
            reason = reasons.get(entry) or ([f"# REASON: {reason_hint}"] if reason_hint else [])
            f.write("\n" + "".join(line + "\n" for line in reason) + ("? " if entry in optional else "") + entry + "\n")


FINDINGS_HEADER = (".txt", "# {name}: the findings through the layer that are true bugs of this program, each after "
                           "its reason\n# (messages normalized: handles 0x?, numbers N). A new finding or a lost one "
                           "fails the test.\n")
VVL_HEADER = (".vvl.txt", "# {name}: the message IDs Vulkan-ValidationLayers 1.4.363 gives in the configuration "
                          "run_programs.VVL_CONFIG\n# (judged in judgments.txt, docs/real-programs.md). A new or lost "
                          "ID fails the test.\n")


def main():
    parser = argparse.ArgumentParser(description="The layer on real third-party Vulkan programs (lavapipe).")
    parser.add_argument("--layer-dir", required=True)
    parser.add_argument("--suite", choices=sorted(SUITES), default="bookworm")
    parser.add_argument("--vkfft", default="")
    parser.add_argument("--only", default="")
    parser.add_argument("--skip", default="")
    parser.add_argument("--update", default="")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--summary", default="", help="write a JSON summary of every run here")
    parser.add_argument("--vvl", action="store_true",
                        help="also run each program under Vulkan-ValidationLayers with synchronization validation")
    parser.add_argument("--vvl-ci", action="store_true",
                        help="--vvl for the programs whose case says vvl_in_ci (all but ggml's silent op sets)")
    args = parser.parse_args()
    make_cases, folder = SUITES[args.suite]
    selected = make_cases()
    if args.list:
        for c in selected:
            print(c.name)
        return 0
    for option in (args.only, args.skip):
        unknown = set(filter(None, option.split(","))) - {c.name for c in selected}
        if unknown:
            print(f"run_programs: unknown program(s): {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
    if args.only:
        selected = [c for c in selected if c.name in args.only.split(",")]
    selected = [c for c in selected if c.name not in args.skip.split(",")]
    layer_dir = os.path.abspath(args.layer_dir)
    if not os.path.exists(os.path.join(layer_dir, "VkLayer_preflight_validation.json")):
        print(f"run_programs: no layer manifest in {layer_dir}", file=sys.stderr)
        return 2
    if args.suite == "unstable":
        check = subprocess.run([unstable_chroot.CHROOT_SCRIPT, "status"], capture_output=True, text=True)
        if check.returncode != 0:
            print(f"run_programs: {check.stderr.strip()} (scripts/unstable-chroot.sh ensure builds it)",
                  file=sys.stderr)
            return 3
        versions = dict(l.split(" ")[1:3] for l in check.stdout.splitlines() if l.startswith("package "))
    work = tempfile.mkdtemp(prefix="preflight-programs-")
    runner = (ChrootRunner if args.suite == "unstable" else HostRunner)(work, layer_dir,
                                                                        os.path.abspath(args.vkfft) if args.vkfft else "")
    passed = failed = 0
    summary = {"suite": args.suite, "runs": []}
    if args.suite == "unstable":
        summary["packages"] = versions
        if args.vvl or args.vvl_ci:
            summary["vvl"] = {"version": versions.get("vulkan-validationlayers"), "configuration": VVL_CONFIG,
                              "environment": unstable_chroot.VVL_CONFIGS[VVL_CONFIG]}
    try:
        runner.start(selected)
        for case in selected:
            missing = runner.missing(case)
            if missing:
                print(f"FAIL {case.name}: not installed: {', '.join(missing)} (scripts/setup.sh --tests installs it)")
                failed += 1
                continue
            expectations = read_expectations(folder, case.name)
            # a window-system program whose window can fail to open on a loaded machine (GStreamer's
            # vulkansink: "Failed to open window", or no frame presented) gets up to three tries
            tries = 3 if case.window_flaky else 1
            for attempt in range(1, tries + 1):
                plain = runner.run(case, "none") if case.plain else None
                layered = runner.run(case, "preflight")
                problems, layered = judge(case, plain, layered, runner, expectations)
                if not problems:
                    break
                if attempt < tries:
                    print(f"     ({case.name}: try {attempt} of {tries} failed: {problems[0][:120]}; again)")
            vvl = None
            if args.vvl or args.vvl_ci and case.vvl_in_ci:
                vvl = runner.run(case, "vvl")
                if args.suite == "unstable":
                    problems += judge_vvl(case, vvl, layered, read_vvl_expectations(folder, case.name))
            total = sum(layered.found.values())
            seconds = f"{plain.seconds:.1f} s, " if plain else ""
            line = (f"{case.name}: {total} findings ({len(layered.found)} distinct), outcome {layered.outcome['status']}"
                    f"{', output ' + layered.outcome['output'] if layered.outcome['output'] else ''}"
                    f"{', result ' + ','.join(layered.outcome['result']) if layered.outcome['result'] else ''}"
                    f" ({seconds}{layered.seconds:.1f} s through the layer"
                    f"{f', {vvl.seconds:.1f} s under VVL' if vvl else ''})")
            if problems:
                failed += 1
                print("FAIL " + line)
                for p in problems:
                    print("     | " + p)
                for tail in layered.text.strip().splitlines()[-6:]:  # what the program said (with the loader's lines)
                    print("     ! " + tail[:200])
            else:
                passed += 1
                print("ok   " + line)
            if vvl is not None:
                print("     | Vulkan-ValidationLayers: " +
                      (", ".join(f"{v} {k}" for k, v in sorted(vvl.found.items())) or "no message"))
            summary["runs"].append({
                "program": case.name, "findings": total, "passed": not problems,
                "distinct": [{"id": k.partition(": ")[0], "message": k.partition(": ")[2], "count": v}
                             for k, v in sorted(layered.found.items())],
                "vvl": vvl.found if vvl else None, "vvl_configuration": vvl.configuration if vvl else None,
                "vvl_examples": vvl_examples(vvl.text) if vvl else None,
                "outcome": layered.outcome,
                "seconds": {"plain": round(plain.seconds, 2) if plain else None, "layer": round(layered.seconds, 2),
                            "vvl": round(vvl.seconds, 2) if vvl else None}})
            if args.update:
                write_expectations(args.update, case, layered.found, expectations, FINDINGS_HEADER,
                                   "... (the spec's reason this is a bug of the program)")
                if vvl is not None and args.suite == "unstable":
                    write_expectations(args.update, case, vvl.found, read_vvl_expectations(folder, case.name),
                                       VVL_HEADER, None)
            sys.stdout.flush()
    except (FileNotFoundError, subprocess.CalledProcessError) as error:
        print(f"run_programs: {error}", file=sys.stderr)
        return 3
    finally:
        runner.stop()
        if args.summary:
            with open(args.summary, "w") as f:
                json.dump(summary, f, indent=1)
        shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
