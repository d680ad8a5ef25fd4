#!/usr/bin/env python3
"""Issue 35's triage runs: every program in the unstable chroot without a layer, with our layer and
with Vulkan-ValidationLayers 1.4.363 in three synchronization configurations; writes, per run,
summary.json (status, seconds, configuration, findings by ID), our findings (findings.jsonl) or
VVL's messages (vvl-messages.txt, the first 20 of each ID verbatim), the program's verdict lines,
and the table runs.md.

Usage: triage/collect.py [--only NAME[,NAME]] [--layer-dir DIR]   (as root; takes about 20 minutes)
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RUNNER = os.path.join(ROOT, "tests", "real-programs", "unstable_chroot.py")
TEST_BACKEND_OPS = "/usr/libexec/x86_64-linux-gnu/llama.cpp-tests/test-backend-ops"
MUL_MAT_F32 = r"type_a=f32,type_b=f32,m=16,n=32,k=32,bs=\[1,1\],nr=\[1,1\],per=\[0,1,2,3\],k_v=64,o=3"
OPS = ["SOFT_MAX", "ROPE", "CPY", "GET_ROWS", "RMS_NORM", "CONCAT", "MUL", "SCALE", "GLU", "ARGSORT", "SUM_ROWS",
       "SET_ROWS", "CONT", "NORM", "GELU", "SILU"]
GODOT = ["godot", "--path", "{run}/godot-scene", "--rendering-driver", "vulkan", "--audio-driver", "Dummy",
         "--quit-after", "40", "--resolution", "480x270"]
CONFIGS = [("none", None), ("preflight", None), ("vvl", "sync"), ("vvl", "sync-heuristic"), ("vvl", "sync-all")]


def programs():
    ggml = ["--env", "GGML_VK_VISIBLE_DEVICES=0", "--"]  # lavapipe: ggml passes over CPU devices unless named
    out = [("ggml-add", ggml + [TEST_BACKEND_OPS, "-b", "Vulkan0", "-o", "ADD"]),
           ("ggml-mul-mat-f32", ggml + [TEST_BACKEND_OPS, "-b", "Vulkan0", "-o", "MUL_MAT", "-p", MUL_MAT_F32])]
    # GLU's tests are named after the gated unit (REGLU, GEGLU, SWIGLU...), so "-o GLU" selects none
    filters = {"GLU": ".*GLU"}
    out += [("ggml-" + op.lower().replace("_", "-"), ggml + [TEST_BACKEND_OPS, "-b", "Vulkan0", "-o", filters.get(op, op)])
            for op in OPS]
    out.append(("godot-scene", ["--x", "--copy", os.path.join(ROOT, "tests", "real-programs", "godot-scene"), "--"] +
                GODOT))
    return out


def vvl_messages(text, per_id=20):
    """VVL's message blocks ('Validation Error: [ ID ] ...' up to the blank line), the first per_id of each ID."""
    kept, seen = [], {}
    for block in re.split(r"\n\s*\n", text):
        match = re.search(r"Validation [A-Za-z ]+: \[ ([^\]]+?) \]", block)
        if not match:
            continue
        block = block[match.start():]
        seen[match.group(1)] = seen.get(match.group(1), 0) + 1
        if seen[match.group(1)] <= per_id:
            kept.append(block.strip())
    return "\n\n".join(kept) + "\n" if kept else ""


def verdict_lines(name, text):
    if name.startswith("ggml"):
        lines = [l for l in text.splitlines() if re.search(r"tests passed|Backend Vulkan0|FAIL", l)]
        return "\n".join(re.sub(r"\x1b\[[0-9;]*m", "", l) for l in lines) + "\n"
    return "\n".join(l for l in text.splitlines() if "Vulkan Loader" not in l)[:4000] + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="")
    parser.add_argument("--layer-dir", default=os.path.join(ROOT, "build", "layer"))
    args = parser.parse_args()
    selected = programs()
    if args.only:
        selected = [p for p in selected if p[0] in args.only.split(",")]
    for name, argv in selected:
        for layer, config in CONFIGS:
            label = layer if config is None else f"vvl-{config}"
            target = os.path.join(HERE, "runs", name, label)
            scratch = tempfile.mkdtemp(prefix="triage-")
            command = [sys.executable, RUNNER, "--layer", layer, "--layer-dir", args.layer_dir, "--out", scratch]
            if config:
                command += ["--vvl-config", config]
            result = subprocess.run(command + argv, capture_output=True, text=True)
            if result.returncode != 0:
                print(f"{name} {label}: the runner failed ({result.returncode}): {result.stderr.strip()[-400:]}")
            shutil.rmtree(target, ignore_errors=True)
            os.makedirs(target)
            text = open(os.path.join(scratch, "program.log"), errors="replace").read() \
                if os.path.exists(os.path.join(scratch, "program.log")) else ""
            shutil.copy(os.path.join(scratch, "summary.json"), target)
            if layer == "preflight" and os.path.exists(os.path.join(scratch, "preflight.jsonl")):
                shutil.copy(os.path.join(scratch, "preflight.jsonl"), os.path.join(target, "findings.jsonl"))
            if layer == "vvl":
                messages = vvl_messages(text)
                if messages:
                    open(os.path.join(target, "vvl-messages.txt"), "w").write(messages)
            open(os.path.join(target, "verdict.txt"), "w").write(verdict_lines(name, text))
            shutil.rmtree(scratch)
            summary = json.load(open(os.path.join(target, "summary.json")))
            print(f"{name:22} {label:19} status {summary['status']} {summary['seconds']:7.2f} s "
                  f"{json.dumps(summary.get('findings', {}))}", flush=True)
    write_table()
    return 0


def write_table():
    rows = ["| run | configuration | status | seconds | findings by ID (count) |", "|---|---|---|---|---|"]
    for name in sorted(os.listdir(os.path.join(HERE, "runs"))):
        for label in ("none", "preflight", "vvl-sync", "vvl-sync-heuristic", "vvl-sync-all"):
            path = os.path.join(HERE, "runs", name, label, "summary.json")
            if not os.path.exists(path):
                continue
            s = json.load(open(path))
            findings = ", ".join(f"{k} {v}" for k, v in sorted(s.get("findings", {}).items())) or \
                ("—" if label == "none" else "none")
            rows.append(f"| {name} | {label} | {s['status']} | {s['seconds']} | {findings} |")
    with open(os.path.join(HERE, "runs.md"), "w") as f:
        f.write("# Triage runs (generated by triage/collect.py; configurations in each summary.json)\n\n")
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    sys.exit(main())
