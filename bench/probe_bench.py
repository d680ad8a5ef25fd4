#!/usr/bin/env python3
"""Times full probe runs: wall time per --jobs value against the longest single test of the same
run and against `vulkaninfo --json`. Issue 18's target: a full run within 1 s of its longest
test. Runs configurations in turn (RUNS rounds), so a machine getting busier shifts all alike,
and prints medians. Usage: probe_bench.py PREFLIGHT_PROBE [--jobs 1,2,4] [--runs 5]
[--vulkaninfo PATH] [--out FILE.json] [--probe-args "--fresh-device ..."]"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run_probe(probe, jobs, extra, folder):
    out = os.path.join(folder, f"bench-{jobs}.json")
    started = time.monotonic()
    done = subprocess.run([probe, "--jobs", str(jobs), "--out", out, *extra],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - started
    if done.returncode != 0:
        sys.exit(f"probe_bench: {probe} --jobs {jobs} exited {done.returncode}:\n{done.stderr[-2000:]}")
    report = json.load(open(out))
    tests = [t for d in report["devices"] for t in d["smoke"]]
    ran = [t for t in tests if t["status"] not in ("skipped", "unsupported")]
    longest = max(ran, key=lambda t: t["duration_ms"]) if ran else None
    statuses = sorted({t["status"] for t in ran})
    return wall, longest, len(ran), statuses


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("probe")
    parser.add_argument("--jobs", default="1,2,4")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--vulkaninfo", default="vulkaninfo")
    parser.add_argument("--out")
    parser.add_argument("--probe-args", default="", help="more probe arguments, space-separated")
    args = parser.parse_args()
    args.extra = args.probe_args.split()
    jobs_values = [int(j) for j in args.jobs.split(",")]
    walls = {j: [] for j in jobs_values}
    longest = {j: [] for j in jobs_values}
    vulkaninfo = []
    tests_ran = {}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.runs):
            for j in jobs_values:
                wall, slowest, ran, statuses = run_probe(args.probe, j, args.extra, folder)
                walls[j].append(wall)
                longest[j].append((slowest["duration_ms"] / 1000.0, slowest["id"]) if slowest else (0.0, "-"))
                tests_ran[j] = (ran, statuses)
            started = time.monotonic()
            info = subprocess.run([args.vulkaninfo, "--json=0", "-o", os.path.join(folder, "vi.json")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if info.returncode == 0:
                vulkaninfo.append(time.monotonic() - started)
    result = {"runs": args.runs, "vulkaninfo_json_s": statistics.median(vulkaninfo) if vulkaninfo else None,
              "jobs": {}}
    print(f"{'--jobs':>7} {'wall (median)':>14} {'longest test (median)':>30} {'wall - longest':>15} {'tests':>6}")
    for j in jobs_values:
        wall = statistics.median(walls[j])
        slow = statistics.median(t for t, _ in longest[j])
        slow_id = max(set(i for _, i in longest[j]), key=[i for _, i in longest[j]].count)
        ran, statuses = tests_ran[j]
        result["jobs"][j] = {"wall_s": wall, "walls_s": walls[j], "longest_test_s": slow, "longest_test": slow_id,
                             "over_longest_s": wall - slow, "tests_ran": ran, "statuses": statuses}
        print(f"{j:>7} {wall:>12.3f} s {slow:>9.3f} s {slow_id:>19} {wall - slow:>13.3f} s {ran:>6}")
    if vulkaninfo:
        print(f"vulkaninfo --json: {result['vulkaninfo_json_s']:.3f} s (median of {len(vulkaninfo)})")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
