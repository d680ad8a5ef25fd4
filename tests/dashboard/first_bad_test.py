#!/usr/bin/env python3
"""The first bad driver of each regression (issue 43 item 3) on a real dashboard over a SQLite file
or a PostgreSQL server this test starts: issue 43's fleet (farm_fleet.py) plus two H200 drivers that
only the subset machine ran (amber.* only): 585.10.02, between the last good 580.159.04 and the
first bad 590.44.01, and 580.65.06, below both by NVIDIA's scheme though "580.65" sorts after
"580.159" as text, uploaded last (so neither string nor upload order would give the answer).
/regressions, the device page and their JSON name the last good and first bad drivers and the
drivers between them not run for the test. Prints ok/FAIL per check; exits 1 on any failure."""
import argparse
import copy
import datetime
import json
import os
import shutil
import signal
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dashboard_test import Dashboard, check, post_report, request  # noqa: E402
import dashboard_test  # noqa: E402
import farm_fleet  # noqa: E402
from test_database import TestDatabase  # noqa: E402


def nvidia_subset(examples, host, major, minor, secondary, days):
    """The subset example (amber.* only) on another NVIDIA driver."""
    report = copy.deepcopy(json.load(open(os.path.join(examples, "nvidia-h200.amber.report.json"))))
    raw = (major << 22) | (minor << 14) | (secondary << 6)
    report["host"] = host
    report["created"] = (datetime.datetime.now(datetime.timezone.utc) -
                         datetime.timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")
    device = report["devices"][0]
    info = "%d.%02d.%02d" % (major, minor, secondary)
    device["identity"].update(driverVersionRaw=raw, driverVersion="%d.%d.%d.0" % (major, minor, secondary),
                              driverInfo=info)
    properties = device["declared"]["properties"]
    properties["VkPhysicalDeviceProperties"]["driverVersion"] = raw
    properties["VkPhysicalDeviceDriverProperties"]["driverInfo"] = info
    return report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dashboard", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--backend", choices=["sqlite", "postgres"], required=True)
    a = parser.parse_args()
    work = tempfile.mkdtemp(prefix="preflight-first-bad-")
    database = server = None
    try:
        database = TestDatabase(a.dashboard, a.backend, work)
        db, token = database.url, database.token
        auth = {"Authorization": "Bearer " + token}
        server = Dashboard(a.dashboard, db, work)
        bodies = [open(p, "rb").read() for p in farm_fleet.write(a.examples, a.fixtures, os.path.join(work, "fleet"))]
        bodies.append(json.dumps(nvidia_subset(a.examples, "nvidia-h200", 585, 10, 2, 3)).encode())
        bodies.append(json.dumps(nvidia_subset(a.examples, "nvidia-h200", 580, 65, 6, 6)).encode())
        for body in bodies:
            status, _, answer = post_report(server.port, body, token)
            if status != 201:
                check("stored a report", False, (status, answer[:200]))

        def get(path):
            status, _, body = request(server.port, "GET", path, headers=auth)
            return status, body

        status, body = get("/api/v1/regressions")
        groups = json.loads(body).get("regressions", []) if status == 200 else []
        h200 = next((g for g in groups if g["deviceKey"] == farm_fleet.H200_KEY), {})
        tests = {t["test"]: t for t in h200.get("tests", [])}
        vrs = tests.get("vrs.attachment", {})
        check("/regressions: vrs.attachment's first bad driver 590.44.01, last good 580.159.04 (by NVIDIA's scheme)",
              vrs.get("firstBad", {}).get("driverVersion") == farm_fleet.NEW_DRIVER and
              vrs.get("lastGood", {}).get("driverVersion") == farm_fleet.OLD_DRIVER and
              vrs["firstBad"].get("driverRaw") == farm_fleet.NEW_RAW, vrs)
        check("/regressions: 585.10.02, which only ran amber.*, between them, not run for this test; 580.65.06 not",
              [d["driverVersion"] for d in vrs.get("notRunBetween", [])] == ["585.10.02"] and
              vrs.get("adjacent") is False, vrs.get("notRunBetween"))
        lavapipe = next((g for g in groups if g["deviceKey"] == farm_fleet.LAVAPIPE_KEY), {})
        crashed = next((t for t in lavapipe.get("tests", []) if t["test"] == "compute.1x1"), {})
        check("/regressions: lavapipe's compute.1x1 by Mesa version: first bad Mesa 25.1.3, last good Mesa 25.0.7, "
              "no driver between", crashed.get("firstBad", {}).get("driverVersion") == "Mesa 25.1.3" and
              crashed.get("lastGood", {}).get("driverVersion") == "Mesa 25.0.7" and crashed.get("adjacent") is True and
              crashed.get("notRunBetween") == [], crashed)
        status, body = get("/regressions")
        page = body.decode()
        check("/regressions page: first bad, last good and the driver between named",
              status == 200 and "first bad <b>590.44.01</b>, last good <b>580.159.04</b>; not run for this test "
              "between them: 585.10.02" in page and "first bad <b>Mesa 25.1.3</b>, last good <b>Mesa 25.0.7</b>; no "
              "machine ran a driver between them" in page, status)

        device = json.loads(get("/api/v1/devices/" + farm_fleet.H200_KEY)[1])
        drivers = {d["driverVersion"]: d for d in device.get("drivers", [])}
        check("device: the H200's drivers ordered by NVIDIA's scheme, newest first",
              [d["driverVersion"] for d in device.get("drivers", [])] ==
              ["590.44.01", "585.10.02", "580.159.04", "580.65.06"], list(drivers))
        change = next((c for c in drivers.get(farm_fleet.NEW_DRIVER, {}).get("changes", [])
                       if c["test"] == "vrs.attachment"), {})
        check("device JSON: the regression's first bad and last good drivers and the one between",
              change.get("firstBad", {}).get("driverVersion") == "590.44.01" and
              change.get("lastGood", {}).get("driverVersion") == "580.159.04" and
              [d["driverVersion"] for d in change.get("notRunBetween", [])] == ["585.10.02"], change)
        status, body = get("/devices/" + farm_fleet.H200_KEY)
        check("device page: first bad, last good and the driver between shown",
              status == 200 and "first bad <b>590.44.01</b>, last good <b>580.159.04</b>; not run for this test "
              "between them: 585.10.02" in body.decode(), status)
        server.stop()
        server = None
    finally:
        if server:
            server.stop(signal.SIGKILL)
        if database:
            database.close()
        shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed" % (dashboard_test.checks - dashboard_test.failures, dashboard_test.failures))
    return 1 if dashboard_test.failures else 0


if __name__ == "__main__":
    sys.exit(main())
