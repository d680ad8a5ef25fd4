"""The multi-machine regression of issue 30, from the real H200 report in docs/examples: driver
580.159.04 passes everywhere on farm-h200-01..03; driver 590.44.01 fails vrs.attachment on
farm-h200-01 and -02 (every texel at 1x1 where the attachment asks 2x2; its shading-rate map is a
new PNG artifact) and passes on farm-h200-03, uploaded last. Each report is written as a farm run
lays it out: <dir>/<run>/report.json with its PNG files in <dir>/<run>/artifacts/."""
import copy
import hashlib
import json
import os
import shutil
import struct
import zlib

DEVICE_KEY = "10de-2335-nvidia_proprietary"
OLD_DRIVER, NEW_DRIVER = "580.159.04", "590.44.01"
NEW_RAW = (590 << 22) | (44 << 14) | (1 << 6)
MACHINES = ["farm-h200-01", "farm-h200-02", "farm-h200-03"]
TEST = "vrs.attachment"


def png_rgb(width, height, rgb):
    """A PNG of one colour (what the probe draws for a shading-rate map shaded at 1x1 everywhere)."""
    row = b"\0" + bytes(rgb) * width
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


def write(examples, out):
    """Writes the six runs under `out`; returns their report paths in upload order."""
    base = json.load(open(os.path.join(examples, "nvidia-h200.report.json")))
    images = os.path.join(examples, "nvidia-h200-artifacts")
    runs = []
    for n, (driver, machine) in enumerate([(OLD_DRIVER, m) for m in MACHINES] + [(NEW_DRIVER, m) for m in MACHINES]):
        report = copy.deepcopy(base)
        report["host"] = machine
        report["created"] = "2026-12-%02dT%02d:00:00Z" % (1 if driver == OLD_DRIVER else 3, 8 + n)
        run = os.path.join(out, "%02d-%s-%s" % (n, driver, machine))
        shutil.copytree(images, os.path.join(run, "artifacts"))
        device = report["devices"][0]
        if driver == NEW_DRIVER:
            identity = device["identity"]
            identity["driverVersionRaw"] = NEW_RAW
            identity["driverVersion"] = "590.44.1.0"
            identity["driverInfo"] = NEW_DRIVER
            declared = device["declared"]["properties"]
            declared["VkPhysicalDeviceProperties"]["driverVersion"] = NEW_RAW
            declared["VkPhysicalDeviceDriverProperties"]["driverInfo"] = NEW_DRIVER
        if driver == NEW_DRIVER and machine != MACHINES[2]:
            test = next(t for t in device["smoke"] if t["id"] == TEST)
            test["status"] = "fail"
            test["reason"] = "the attachment's rates were ignored: 2048 texels at 1x1 where the image asks 2x2"
            evidence = test["evidence"]
            evidence["histogram"] = {"1x1": 4096}
            evidence["mismatched_texels"] = 2048
            evidence["invocations"] = evidence["pipeline_statistics_fragment_invocations"] = 4096
            image = png_rgb(64, 64, (32, 32, 40))  # 1x1 dark everywhere
            artifact = evidence["artifacts"][0]
            artifact["sha256"] = hashlib.sha256(image).hexdigest()
            artifact["bytes"] = len(image)
            with open(os.path.join(run, "artifacts", artifact["file"]), "wb") as f:
                f.write(image)
            for row in device["capabilities"]:
                if TEST in row.get("tests", []):
                    row["verified"] = "fail"
        with open(os.path.join(run, "report.json"), "w") as f:
            json.dump(report, f, indent=1)
        runs.append(os.path.join(run, "report.json"))
    return runs


def failing_artifact(runs):
    """The SHA-256 of the shading-rate map of the first failing report."""
    report = json.load(open(runs[3]))
    test = next(t for t in report["devices"][0]["smoke"] if t["id"] == TEST)
    return test["evidence"]["artifacts"][0]["sha256"]
