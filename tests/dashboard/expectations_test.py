#!/usr/bin/env python3
"""The dashboard's fleet gate with an expectations file (docs/expectations.md), on a real server
over a SQLite file or a PostgreSQL server this test starts, with issue 43's fleet (farm_fleet.py):
`serve --expectations FILE` refuses a malformed file naming its line; the fleet gate fails only on
what is not expected (a failure on 2 of 3 machines and a flaky test excused on the H200's new
driver, by NVIDIA's version scheme), lists unexpected passes (a fixed test a `fail` entry still
names) and expired entries, in the JSON API and on the page; a driver range that excludes the
newest Mesa excuses nothing. Prints ok/FAIL per check; exits 1 on any failure."""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dashboard_test import Dashboard, check, post_report, request  # noqa: E402
import dashboard_test  # noqa: E402
import farm_fleet  # noqa: E402
from test_database import TestDatabase  # noqa: E402

EXPECTATIONS = """# the farm's known problems
fail  vrs.attachment vendor=nvidia driver=590.44..590.44.01 reason="PF-21: attachment rates ignored"
flake compute.1x1    vendor=nvidia device="nvidia h*" reason="PF-22"
fail  ray_query.flow vendor=mesa driver=25.0..25.1 reason="PF-23: candidate order"
fail  compute.buffer vendor=nvidia reason="PF-9" until=2020-01-31
fail  compute.1x1    vendor=mesa driver=..25.0 reason="PF-24: crashed before Mesa 25.1"
"""
REQUIREMENTS = "compute.* must pass\nvrs.* pass or unsupported\nray_query.* pass or unsupported\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dashboard", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--backend", choices=["sqlite", "postgres"], required=True)
    a = parser.parse_args()
    work = tempfile.mkdtemp(prefix="preflight-expectations-")
    database = server = None
    try:
        database = TestDatabase(a.dashboard, a.backend, work)
        db, token = database.url, database.token
        auth = {"Authorization": "Bearer " + token}

        bad = os.path.join(work, "bad.txt")
        open(bad, "w").write("fail vrs.* reason=x\nfail compute.* driver=590.x reason=y\n")
        r = subprocess.run([a.dashboard, "serve", "--db", db, "--listen", "127.0.0.1:0", "--expectations", bad],
                           capture_output=True, text=True, timeout=60)
        check("serve --expectations: a malformed file, the server does not start (exit 2), its line named",
              r.returncode == 2 and "bad.txt: line 2: driver='590.x' is not a driver range" in r.stderr,
              (r.returncode, r.stderr))
        r = subprocess.run([a.dashboard, "serve", "--db", db, "--listen", "127.0.0.1:0", "--expectations",
                            os.path.join(work, "missing.txt")], capture_output=True, text=True, timeout=60)
        check("serve --expectations: a missing file, the server does not start", r.returncode == 2, r.stderr)

        server = Dashboard(a.dashboard, db, work)
        for path in farm_fleet.write(a.examples, a.fixtures, os.path.join(work, "fleet")):
            status, _, body = post_report(server.port, open(path, "rb").read(), token)
            if status != 201:
                check("stored " + os.path.basename(path), False, (status, body[:200]))
        gate_path = "/fleet?requirements=" + urllib.parse.quote(REQUIREMENTS)

        def fleet(path):
            status, _, body = request(server.port, "GET", path, headers=auth)
            return status, body

        status, body = fleet("/api/v1" + gate_path)
        members = {m["deviceKey"]: m for m in json.loads(body).get("members", [])} if status == 200 else {}
        h200 = members.get(farm_fleet.H200_KEY, {})
        check("without expectations: the H200's new driver fails the fleet gate, no expectation members",
              h200.get("pass") is False and "expected" not in h200 and "expired" not in json.loads(body), h200)
        server.stop()

        expectations = os.path.join(work, "expectations.txt")
        open(expectations, "w").write(EXPECTATIONS)
        server = Dashboard(a.dashboard, db, work, extra=["--expectations", expectations])
        status, body = fleet("/api/v1" + gate_path)
        document = json.loads(body) if status == 200 else {}
        members = {m["deviceKey"]: m for m in document.get("members", [])}
        h200, lavapipe = members.get(farm_fleet.H200_KEY, {}), members.get(farm_fleet.LAVAPIPE_KEY, {})
        check("the H200 on 590.44.01 passes: vrs.attachment (2 of 3 machines) and compute.1x1 (flaky) expected",
              h200.get("pass") is True and h200.get("failures") == [] and
              sorted((e["test"], e["kind"], e["line"]) for e in h200.get("expected", [])) ==
              [("compute.1x1", "flake", 3), ("vrs.attachment", "fail", 2)], h200)
        check("the expected entries carry the fleet's verdict and the reason",
              any(e["test"] == "vrs.attachment" and e["status"] != "pass" and e["reason"].startswith("PF-21")
                  for e in h200.get("expected", [])), h200.get("expected"))
        check("lavapipe on Mesa 25.1.3 fails compute.1x1: the entry's range ..25.0 excludes it",
              lavapipe.get("pass") is False and any("compute.1x1" in f for f in lavapipe.get("failures", [])) and
              not any(e["test"] == "compute.1x1" for e in lavapipe.get("expected", [])), lavapipe)
        check("lavapipe: ray_query.flow passes on Mesa 25.1.3 though line 4 expects a failure: an unexpected pass",
              [(u["test"], u["line"]) for u in lavapipe.get("unexpectedPasses", [])] == [("ray_query.flow", 4)],
              lavapipe.get("unexpectedPasses"))
        check("the expired entry listed, the entries counted",
              [(e["line"], e["until"]) for e in document.get("expired", [])] == [(5, "2020-01-31")] and
              document.get("expectations") == 5 and document.get("passing") == 1, document.get("expired"))
        status, body = fleet(gate_path)
        page = body.decode()
        check("fleet page: expected, unexpected pass and expired shown",
              status == 200 and "expected: vrs.attachment is" in page and "PF-21: attachment rates ignored" in page and
              "unexpected pass: ray_query.flow passed, expectations line 4" in page and
              "expired: expectations line 5 (fail <code>compute.buffer</code>) ended 2020-01-31" in page and
              "5 expectations" in page, status)
        status, body = fleet("/api/v1/fleet")
        check("the fleet without requirements: no gate, no expectation members",
              status == 200 and "expired" not in json.loads(body), body[:200])
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
