#!/usr/bin/env python3
"""The cost of AmberScript files in the probe: N small compute files (each its own GLSL shader,
a buffer, a dispatch and an EXPECT) run as smoke tests, beside the built-in tests, and the same N
files written in VkScript (the same shader, data, dispatch and checks). Runs, in turn
and RUNS rounds (so a machine getting busier shifts all alike): the probe with --no-smoke (the
fixed cost: loader, instance, declared capabilities), the built-in tests alone, the files alone,
and --list-tests with the files (what reading and parsing them costs the probe). Prints medians
and the cost per file and per built-in test, both as wall time over the --no-smoke run and as the
tests' own duration_ms. Usage: amber_bench.py PREFLIGHT_PROBE [--files 200] [--runs 3]
[--jobs 1] [--keep DIR]"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

FILE = """#!amber
# benchmark file {i}: y = x * {a} + {b} over {n} values
SHADER compute affine_{i} GLSL
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer X {{ uint x[]; }};
layout(set = 0, binding = 1) buffer Y {{ uint y[]; }};
void main()
{{
    uint i = gl_GlobalInvocationID.x;
    y[i] = x[i] * {a}u + {b}u;
}}
END

BUFFER x DATA_TYPE uint32 SIZE {n} SERIES_FROM 0 INC_BY 1
BUFFER y DATA_TYPE uint32 SIZE {n} FILL 0

PIPELINE compute p
  ATTACH affine_{i}
  BIND BUFFER x AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER y AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN p {groups} 1 1
EXPECT y IDX 0 EQ {first}
EXPECT y IDX {last_offset} EQ {last}
"""


VKSCRIPT = """# benchmark file {i}: y = x * {a} + {b} over {n} values (VkScript)
[compute shader]
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer X {{ uint x[]; }};
layout(set = 0, binding = 1) buffer Y {{ uint y[]; }};
void main()
{{
    uint i = gl_GlobalInvocationID.x;
    y[i] = x[i] * {a}u + {b}u;
}}

[test]
ssbo 0 subdata uint 0 {series}
ssbo 1 subdata uint 0 {zeros}
compute {groups} 1 1
probe ssbo uint 1 0 == {first}
probe ssbo uint 1 {last_offset} == {last}
"""


def write_files(folder, count, values=64, vkscript=False):
    for i in range(count):
        a, b = i % 13 + 1, i * 7 % 101
        fields = dict(i=i, a=a, b=b, n=values, groups=values // 16, first=b, last_offset=(values - 1) * 4,
                      last=(values - 1) * a + b)
        if vkscript:
            text = VKSCRIPT.format(series=" ".join(str(v) for v in range(values)), zeros=" ".join(["0"] * values),
                                   **fields)
            open(os.path.join(folder, "file_%03d.vkscript" % i), "w").write(text)
        else:
            open(os.path.join(folder, "file_%03d.amber" % i), "w").write(FILE.format(**fields))


def run(probe, args, out):
    started = time.monotonic()
    done = subprocess.run([probe, *args] + (["--out", out] if out else []), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - started
    if done.returncode != 0:
        sys.exit(f"amber_bench: {probe} {' '.join(args)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    if not out:
        return wall, []
    tests = [t for d in json.load(open(out))["devices"] for t in d["smoke"]
             if t["status"] not in ("skipped", "unsupported")]
    return wall, tests


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("probe")
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", default="1")
    parser.add_argument("--keep", help="write the files here (and keep them) instead of a temporary folder")
    o = parser.parse_args()
    folder = o.keep or tempfile.mkdtemp(prefix="amber-bench-")
    os.makedirs(folder, exist_ok=True)
    am_folder, vk_folder = os.path.join(folder, "amberscript"), os.path.join(folder, "vkscript")
    os.makedirs(am_folder, exist_ok=True)
    os.makedirs(vk_folder, exist_ok=True)
    write_files(am_folder, o.files)
    write_files(vk_folder, o.files, vkscript=True)
    jobs = ["--jobs", o.jobs]
    configurations = {
        "declared only (--no-smoke)": ["--no-smoke"],
        "built-in tests": jobs,
        "%d AmberScript files" % o.files: jobs + ["--amber", am_folder, "--tests", "amber.*"],
        "%d VkScript files" % o.files: jobs + ["--amber", vk_folder, "--tests", "amber.*"],
        "parse only (--list-tests --amber)": ["--list-tests", "--amber", am_folder],
        "parse only, VkScript": ["--list-tests", "--amber", vk_folder],
    }
    walls = {name: [] for name in configurations}
    durations = {name: [] for name in configurations}
    counts = {}
    for _ in range(o.runs):
        for name, args in configurations.items():
            out = None if "--list-tests" in args else os.path.join(folder, "report.json")
            wall, tests = run(o.probe, args, out)
            walls[name].append(wall)
            if tests:
                bad = [t["id"] for t in tests if t["status"] != "pass"]
                if bad:
                    sys.exit("amber_bench: not every test passed: %s" % bad[:5])
                durations[name].append(sum(t["duration_ms"] for t in tests))
                counts[name] = len(tests)
    base = statistics.median(walls["declared only (--no-smoke)"])
    list_walls = {}
    print("%-36s %10s %8s %14s %16s" % ("configuration", "wall (s)", "tests", "wall/test (ms)", "in worker/test (ms)"))
    for name in configurations:
        wall = statistics.median(walls[name])
        n = counts.get(name)
        per_wall = "%.2f" % ((wall - base) * 1000 / n) if n else "-"
        per_worker = "%.2f" % (statistics.median(durations[name]) / n) if n else "-"
        print("%-36s %10.3f %8s %14s %16s" % (name, wall, n or "-", per_wall, per_worker))
        if "--list-tests" in configurations[name]:
            list_walls[name] = wall
    plain_list = statistics.median([run(o.probe, ["--list-tests"], None)[0] for _ in range(o.runs)])
    for name, wall in list_walls.items():
        print("%s: reading and parsing the files in the probe: %.2f ms per file (--list-tests with and without "
              "them)" % (name, (wall - plain_list) * 1000 / o.files))
    if not o.keep:
        for root, _, names in os.walk(folder, topdown=False):
            for name in names:
                os.remove(os.path.join(root, name))
            os.rmdir(root)


if __name__ == "__main__":
    main()
