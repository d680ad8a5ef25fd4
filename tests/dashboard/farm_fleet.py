"""The fleet of issue 43, from the repository's real reports: what a release manager's farm uploads
when machines run subsets, crash where others fail, flush a spool after an outage, or run lavapipe
of several Mesa versions (whose driverVersion is 0.0.1 for every Mesa).

NVIDIA H200 (docs/examples/nvidia-h200.report.json):
  580.159.04  farm-h200-01..03 pass everything; nvidia-h200 ran only amber.* (the example
              docs/examples/nvidia-h200.amber.report.json: 36 built-in tests "skipped: not selected")
  590.44.01   vrs.attachment fails on farm-h200-01 and -02, passes on -03; nvidia-h200 again only
              amber.*; farm-h200-03 ran twice: its newer run fails compute.1x1, and is uploaded
              before the older passing run (a spool flushed after an outage)
lavapipe (tests/fixtures/probe-lavapipe.report.json), driverVersion 0.0.1 on every Mesa:
  Mesa 24.2.8  lp-03, whose newest run is STALE_DAYS + 23 days old (stale, and behind the fleet)
  Mesa 25.0.7  lp-01, lp-02 pass, but ray_query.flow, which fails on both
  Mesa 25.1.3  compute.1x1 crashed on lp-01 and failed on lp-02: failing on every machine;
               ray_query.flow passes again (a fix)
farm-h200-05: a newest run without a Vulkan device (the GPU is lost).
Each report is written as <dir>/<nn>-<name>.json; write() returns them in upload order."""
import copy
import datetime
import json
import os

H200_KEY = "10de-2335-nvidia_proprietary"
LAVAPIPE_KEY = "10005-0000-mesa_llvmpipe"
OLD_DRIVER, NEW_DRIVER = "580.159.04", "590.44.01"
NEW_RAW = (590 << 22) | (44 << 14) | (1 << 6)
MESA = ["24.2.8", "25.0.7", "25.1.3"]


def _fail(device, test_id, status, reason):
    test = next(t for t in device["smoke"] if t["id"] == test_id)
    test["status"], test["reason"] = status, reason
    for row in device["capabilities"]:
        if test_id in row.get("tests", []):
            row["verified"] = status


def _h200(base, host, driver, created):
    report = copy.deepcopy(base)
    report["host"], report["created"] = host, created
    device = report["devices"][0]
    if driver == NEW_DRIVER:
        identity = device["identity"]
        identity["driverVersionRaw"] = NEW_RAW
        identity["driverVersion"] = "590.44.1.0"
        identity["driverInfo"] = NEW_DRIVER
        properties = device["declared"]["properties"]
        properties["VkPhysicalDeviceProperties"]["driverVersion"] = NEW_RAW
        properties["VkPhysicalDeviceDriverProperties"]["driverInfo"] = NEW_DRIVER
    return report, device


def _lavapipe(base, host, mesa, created):
    report = copy.deepcopy(base)
    report["host"], report["created"] = host, created
    device = report["devices"][0]
    info = "Mesa %s (LLVM 15.0.6)" % mesa
    device["identity"]["driverInfo"] = info
    device["declared"]["properties"]["VkPhysicalDeviceDriverProperties"]["driverInfo"] = info
    return report, device


def write(examples, fixtures, out, now=None):
    now = now or datetime.datetime.now(datetime.timezone.utc)
    stamp = lambda days, hour=0: (now - datetime.timedelta(days=days, hours=hour)).strftime("%Y-%m-%dT%H:%M:%SZ")
    full = json.load(open(os.path.join(examples, "nvidia-h200.report.json")))
    subset = json.load(open(os.path.join(examples, "nvidia-h200.amber.report.json")))
    lavapipe = json.load(open(os.path.join(fixtures, "probe-lavapipe.report.json")))
    reports = []
    for n, host in enumerate(["farm-h200-01", "farm-h200-02", "farm-h200-03"]):
        reports.append(("h200-old-" + host, _h200(full, host, OLD_DRIVER, stamp(5, n))[0]))
    reports.append(("h200-old-subset", _h200(subset, "nvidia-h200", OLD_DRIVER, stamp(5, 4))[0]))
    for n, host in enumerate(["farm-h200-01", "farm-h200-02"]):
        report, device = _h200(full, host, NEW_DRIVER, stamp(2, n))
        _fail(device, "vrs.attachment", "fail", "the attachment's rates were ignored: every texel at 1x1")
        reports.append(("h200-new-" + host, report))
    report, device = _h200(full, "farm-h200-03", NEW_DRIVER, stamp(1))
    _fail(device, "compute.1x1", "fail", "readback mismatch: 0 where 1 was written")
    reports.append(("h200-new-farm-h200-03-newer-failing", report))
    reports.append(("h200-new-farm-h200-03-older-passing", _h200(full, "farm-h200-03", NEW_DRIVER, stamp(2, 5))[0]))
    reports.append(("h200-new-subset", _h200(subset, "nvidia-h200", NEW_DRIVER, stamp(2, 6))[0]))
    reports.append(("lavapipe-24.2-lp-03", _lavapipe(lavapipe, "lp-03", MESA[0], stamp(30))[0]))
    for host in ["lp-01", "lp-02"]:
        report, device = _lavapipe(lavapipe, host, MESA[1], stamp(4))
        _fail(device, "ray_query.flow", "fail", "the query's candidate order was wrong")
        reports.append(("lavapipe-25.0-" + host, report))
    report, device = _lavapipe(lavapipe, "lp-01", MESA[2], stamp(1, 2))
    _fail(device, "compute.1x1", "crashed", "the test's process died: SIGSEGV")
    reports.append(("lavapipe-25.1-lp-01", report))
    report, device = _lavapipe(lavapipe, "lp-02", MESA[2], stamp(1, 3))
    _fail(device, "compute.1x1", "fail", "readback mismatch: 0 where 1 was written")
    reports.append(("lavapipe-25.1-lp-02", report))
    reports.append(("h200-05-old", _h200(full, "farm-h200-05", OLD_DRIVER, stamp(3))[0]))
    lost = _h200(full, "farm-h200-05", OLD_DRIVER, stamp(0, 1))[0]
    lost["devices"] = []
    reports.append(("h200-05-lost", lost))
    os.makedirs(out, exist_ok=True)
    paths = []
    for n, (name, report) in enumerate(reports):
        path = os.path.join(out, "%02d-%s.json" % (n, name))
        with open(path, "w") as f:
            json.dump(report, f, indent=1)
        paths.append(path)
    return paths


FLAKY_KEY = "10005-f1a6-mesa_llvmpipe"


def write_flakes(fixtures, out, now=None):
    """A lavapipe-like device of two drivers, 10 runs each over two machines, whose newest runs
    disagree on both drivers (flaky by the rule, no change): compute.buffer fails 1 run in 10 on Mesa
    25.0.7 and 8 in 10 on Mesa 25.1.3 (a flake much worse: a measured regression); compute.barrier
    fails 2 and 3 in 10 (a stable flake: none)."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    base = json.load(open(os.path.join(fixtures, "probe-lavapipe.report.json")))
    failing = {("25.0.7", "compute.buffer"): {9}, ("25.1.3", "compute.buffer"): {0, 1, 2, 3, 4, 5, 6, 9},
               ("25.0.7", "compute.barrier"): {2, 9}, ("25.1.3", "compute.barrier"): {3, 5, 8}}
    os.makedirs(out, exist_ok=True)
    paths = []
    for mesa in ["25.0.7", "25.1.3"]:
        for run in range(10):
            host = "flk-%02d" % (run % 2 + 1)
            created = (now - datetime.timedelta(days=3 if mesa == "25.0.7" else 1, minutes=60 - run))
            report, device = _lavapipe(base, host, mesa, created.strftime("%Y-%m-%dT%H:%M:%SZ"))
            device["identity"]["deviceKey"] = FLAKY_KEY
            device["identity"]["deviceName"] = "lavapipe with flakes"
            for test in ["compute.buffer", "compute.barrier"]:
                if run in failing[(mesa, test)]:
                    _fail(device, test, "fail", "readback mismatch in run %d" % run)
            path = os.path.join(out, "flaky-%s-%02d.json" % (mesa, run))
            with open(path, "w") as f:
                json.dump(report, f)
            paths.append(path)
    return paths


def write_rerun(fixtures, out, now=None):
    """One more run of write_flakes' device on Mesa 25.1.3 made with preflight-probe --repeat:
    compute.barrier failed, then failed and passed on its two reruns (measured flaky)."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    base = json.load(open(os.path.join(fixtures, "probe-lavapipe.report.json")))
    report, device = _lavapipe(base, "flk-01", "25.1.3", (now - datetime.timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M:%SZ"))
    device["identity"]["deviceKey"] = FLAKY_KEY
    device["identity"]["deviceName"] = "lavapipe with flakes"
    _fail(device, "compute.barrier", "fail", "readback mismatch in the first run")
    entry = next(t for t in device["smoke"] if t["id"] == "compute.barrier")
    entry["reruns"] = [{"status": "fail", "duration_ms": 3.5, "reason": "readback mismatch again", "evidence": {}},
                       {"status": "pass", "duration_ms": 3.1, "reason": None, "evidence": {}}]
    entry["measured"] = {"verdict": "flaky", "runs": 3, "failures": 2}
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "rerun.json")
    with open(path, "w") as f:
        json.dump(report, f)
    return path
