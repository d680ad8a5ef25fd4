#!/usr/bin/env python3
"""Synthesises preflight.report/1 documents from real probe reports, for the dashboard's tests and
benchmark: report i belongs to device i % devices, machine (i // devices) % hosts and driver version
(i // (devices * hosts)) % versions: a driver reaches every machine of the farm before the next
one comes, as in a farm that upgrades. Devices differ in identity and in a few limits; newer drivers
gain an extension, and on some devices a newer driver loses one and fails a smoke test, so that
histories have regressions. Deterministic for the same arguments."""
import argparse
import json
import multiprocessing
import os
import sys


def vk_version(major, minor, patch):
    return (major << 22) | (minor << 12) | patch


def make(base, i, devices, versions, hosts):
    d = i % devices
    h = (i // devices) % hosts
    v = (i // (devices * hosts)) % versions
    report = json.loads(base)  # a fresh copy (the C parser is faster than deepcopy)
    report["created"] = "2026-%02d-%02dT%02d:%02d:00Z" % (1 + (i // 40000) % 12, 1 + (i // 1440) % 28, (i // 60) % 24, i % 60)
    report["host"] = "farm-%03d" % h
    device = report["devices"][0]
    identity = device["identity"]
    vendor = identity["vendorID"]
    identity["deviceID"] = 0x1000 + d
    identity["deviceName"] = "%s #%d" % (identity["deviceName"].split(" #")[0], d)
    driver = identity["deviceKey"].split("-", 2)[2]
    identity["deviceKey"] = "%04x-%04x-%s" % (vendor, identity["deviceID"], driver)
    if identity.get("driverVersionScheme") == "nvidia":
        major = 560 + v
        identity["driverVersionRaw"] = (major << 22) | (v << 14)
        identity["driverVersion"] = "%d.%d.0.0" % (major, v)
    else:
        identity["driverVersionRaw"] = vk_version(25, v, 0)
        identity["driverVersion"] = "25.%d.0" % v
    identity["driverInfo"] = identity["driverVersion"]
    declared = device["declared"]
    limits = declared["properties"]["VkPhysicalDeviceProperties"]["limits"]
    limits["maxComputeSharedMemorySize"] = 32768 + 16384 * (d % 4)
    limits["maxImageDimension2D"] = 8192 << (d % 3)
    extensions = declared["extensions"]
    if v >= 1:
        extensions["VK_EXT_synthetic_feature_%d" % v] = 1
    regressed = d % 5 == 0 and v == versions - 1 and versions > 1
    if regressed:  # the newest driver of every fifth device lost an extension and breaks a test
        for name in sorted(extensions):
            if name.startswith("VK_KHR_"):
                del extensions[name]
                break
        for test in device["smoke"]:
            if test["status"] == "pass":
                test["status"] = "fail"
                test["reason"] = "synthetic regression: readback mismatch on driver %s" % identity["driverVersion"]
                for row in device["capabilities"]:
                    if test["id"] in row.get("tests", []):
                        row["verified"] = "fail"
                break
    return report


def write_chunk(chunk):
    bases, args, first, last = chunk
    for i in range(first, last):
        d = i % args.devices
        report = make(bases[d % len(bases)], i, args.devices, args.versions, args.hosts)
        with open(os.path.join(args.out, "report-%07d.json" % i), "w") as f:
            json.dump(report, f, separators=(",", ":"))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--from", dest="sources", action="append", required=True, help="a real report (repeatable)")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--devices", type=int, default=1000)
    parser.add_argument("--versions", type=int, default=10)
    parser.add_argument("--hosts", type=int, default=10)
    parser.add_argument("--out", required=True, help="directory for report-<i>.json")
    args = parser.parse_args()
    bases = []
    for path in args.sources:
        with open(path) as f:
            report = json.load(f)
        report["devices"] = report["devices"][:1]
        bases.append(json.dumps(report))
    os.makedirs(args.out, exist_ok=True)
    jobs = max(1, min(os.cpu_count() or 1, 8)) if args.count >= 200 else 1
    chunks = [(bases, args, start, min(start + 500, args.start + args.count))
              for start in range(args.start, args.start + args.count, 500)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            pool.map(write_chunk, chunks)
    else:
        for chunk in chunks:
            write_chunk(chunk)
    return 0


if __name__ == "__main__":
    sys.exit(main())
