#!/usr/bin/env python3
"""The power signal of a probe report, per test, and the checks of issue 32: every VRS, mesh and
ray test that timed its passes reports measured energy at its baseline and with its feature, and
the whole run stays within 1 s of its longest test. Exit 1 when a check fails.
Usage: power_summary.py REPORT [--wall-ms MS (the run's wall time, as timed around the probe)]"""
import argparse
import json
import sys

FEATURE_GROUPS = ("vrs", "mesh_shader", "ray_query", "ray_tracing_pipeline")


def phase_text(p):
    return (f"{p['joules_per_pass']:.4g} J/pass {p['mean_watts']:.4g} W "
            f"({p['samples']} samples, {p['spread_pct']:.3g} %, {'settled' if p['settled'] else 'NOT settled'}"
            f"{', reported ' + format(p['reported_watts'], '.4g') + ' W' if 'reported_watts' in p else ''}"
            f"{', from ' + p['measured_in'] if 'measured_in' in p else ''}"
            f"{', samples of ' + format(p['sample_period_ms'], '.3g') + ' ms' if p.get('from') == 'samples' else ''}"
            f"{', ±' + format(p['uncertainty_pct'], '.2g') + ' %' if 'uncertainty_pct' in p else ''}"
            f"{', ' + str(p['gaps']) + ' gaps' if 'gaps' in p else ''})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report")
    parser.add_argument("--wall-ms", type=float)
    args = parser.parse_args()
    report = json.load(open(args.report))
    failures = 0
    for device in report["devices"]:
        name = device["identity"].get("deviceName", "?")
        tests = device["smoke"]
        ran = [t for t in tests if t["status"] not in ("skipped", "unsupported")]
        print(f"# {name}: {len(ran)} tests ran")
        expected, measured, sampling_s = [], [], 0.0
        checked_fast = False
        for t in tests:
            e = t["evidence"]
            if "signals" not in e:
                continue
            p = e["signals"]["power"]
            line = f"{t['id']:<30} {t['status']:<11} {t['duration_ms']:>9.1f} ms  {e['signals_collected']} of 6 signals  "
            timed = t["group"] if "group" in t else t["id"].split(".")[0]
            if timed in FEATURE_GROUPS and "gpu_timing" in e:
                expected.append(t["id"])
            if p["measured"]:
                w = e["power"]
                measured.append(t["id"])
                for phase in ("baseline", "feature"):
                    if "measured_in" not in w[phase]:
                        sampling_s += w[phase].get("seconds", 0)
                print(line + f"power {p['source']} {w.get('quantity', '')} ({w['device_match']}, updates every "
                      f"{w['update_period_ms']} ms)")
                fast = w.get("fast_source")
                if fast is not None and not checked_fast:
                    checked_fast = True
                    figures = (f"{fast['error_pct']:+.2f} % over {fast['check_seconds']} s "
                               f"({fast['samples_joules']} J by samples, {fast['counter_joules']} J by the counter)"
                               if "error_pct" in fast else "")
                    print(f"    fast source {'used' if fast['used'] else 'NOT used'}: {figures} "
                          f"{fast.get('reason', '')}".rstrip())
                print(f"    baseline {phase_text(w['baseline'])}")
                print(f"    feature  {phase_text(w['feature'])}")
                print(f"    ratio {w['ratio']:.4g}, {'settled' if w['settled'] else 'NOT settled'}: {w['what']}")
            else:
                print(line + f"power not measured: {p['reason']}")
        missing = [i for i in expected if i not in measured]
        print(f"power sampled for {sampling_s:.3f} s under load in all ({len(measured)} tests; shared baselines once)")
        verdict = "PASS" if not missing and expected else "FAIL"
        failures += verdict == "FAIL"
        print(f"{verdict} every VRS, mesh and ray test that timed its passes reports energy for baseline and feature "
              f"({len(expected) - len(missing)} of {len(expected)}{'; missing: ' + ', '.join(missing) if missing else ''})")
        if ran:
            longest = max(ran, key=lambda t: t["duration_ms"])
            summed = sum(t["duration_ms"] for t in ran) / 1000
            print(f"longest test {longest['id']} {longest['duration_ms'] / 1000:.3f} s; all tests together {summed:.3f} s")
            if args.wall_ms is not None:
                over = args.wall_ms / 1000 - longest["duration_ms"] / 1000
                verdict = "PASS" if over <= 1.0 else "FAIL"
                failures += verdict == "FAIL"
                print(f"{verdict} the whole run within 1 s of its longest test: wall {args.wall_ms / 1000:.3f} s, "
                      f"{over:.3f} s over {longest['id']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
