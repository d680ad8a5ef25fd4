#!/usr/bin/env python3
"""Issue 43's fleet (farm_fleet.py) uploaded to a real dashboard on a SQLite file or a PostgreSQL
server this test starts: only tests that ran count (a machine that ran amber.* only), every failing
kind is a failure (crashed on one machine, failed on the other), a machine's newest report is its
newest run (a spool flushed after an outage), Mesa drivers by their Mesa version, `/` lists what is
not shippable first with the tests and machines, lost, stale and behind machines; the gate
accepts names a report declares and refuses ambiguous bare limit names; verdicts with a confidence
(a flake much worse is a regression, a stable one is not). Prints ok/FAIL per check;
exits 1 on any failure."""
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dashboard", required=True)
    parser.add_argument("--report-tool", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--backend", choices=["sqlite", "postgres"], required=True)
    a = parser.parse_args()
    work = tempfile.mkdtemp(prefix="preflight-farm-truth-")
    database = server = None
    try:
        database = TestDatabase(a.dashboard, a.backend, work)
        db, token = database.url, database.token
        server = Dashboard(a.dashboard, db, work)
        auth = {"Authorization": "Bearer " + token}

        def api(path):
            status, _, body = request(server.port, "GET", path, headers=auth)
            return status, body

        def model(path):
            status, body = api("/api/v1" + path)
            return json.loads(body) if status == 200 else {}

        paths = farm_fleet.write(a.examples, a.fixtures, os.path.join(work, "fleet"))
        ids = {}
        for path in paths:
            status, _, body = post_report(server.port, open(path, "rb").read(), token)
            ids[os.path.basename(path)[3:-5]] = json.loads(body).get("id")
            check("stored " + os.path.basename(path), status == 201, (status, body[:200]))

        # ---- only tests that ran count; a machine that ran a subset changes nothing ----
        h200 = model("/devices/" + farm_fleet.H200_KEY)
        drivers = {d["driverVersion"]: d for d in h200.get("drivers", [])}
        new, old = drivers.get(farm_fleet.NEW_DRIVER, {}), drivers.get(farm_fleet.OLD_DRIVER, {})
        check("H200 %s: the subset run makes no test flaky, no false regression" % farm_fleet.OLD_DRIVER,
              old.get("flaky") == 0 and old.get("failing") == 0 and old.get("regressions") == 0, old)
        check("H200 %s: two tests fail on some machines, both regressions" % farm_fleet.NEW_DRIVER,
              new.get("flaky") == 2 and new.get("failing") == 0 and new.get("regressions") == 2, new)
        changes = {c["test"]: c for c in new.get("changes", [])}
        vrs = changes.get("vrs.attachment", {})
        check("vrs.attachment: pass -> failing on 2 of the 3 machines that ran it, the subset machine not counted",
              vrs.get("change") == "regression" and vrs.get("after") == "flaky" and
              vrs.get("afterDetail") == "fail on 2 of 3 machines: farm-h200-01, farm-h200-02; not run on 1: "
                                        "nvidia-h200 (skipped)", vrs)
        check("no other change on the H200's new driver", sorted(changes) == ["compute.1x1", "vrs.attachment"], sorted(changes))
        regressions = model("/regressions?newest=1")
        found = [r for r in regressions.get("regressions", []) if r.get("deviceKey") == farm_fleet.H200_KEY]
        check("/regressions lists the H200's new driver with both tests",
              len(found) == 1 and sorted(t["test"] for t in found[0].get("tests", [])) == ["compute.1x1", "vrs.attachment"],
              found)

        # ---- a machine's newest report is its newest run, not its last upload ----
        compute = changes.get("compute.1x1", {})
        check("farm-h200-03's newer failing run counts, though its older passing run was uploaded after it",
              compute.get("after") == "flaky" and compute.get("afterDetail") == "fail on 1 of 3 machines: farm-h200-03; "
              "not run on 1: nvidia-h200 (skipped)", compute)
        machines = {m["host"]: m for m in model("/machines").get("machines", [])}
        check("/machines: farm-h200-03's newest report is the newer run",
              machines.get("farm-h200-03", {}).get("newestReport") == ids["h200-new-farm-h200-03-newer-failing"],
              (machines.get("farm-h200-03"), ids))

        # ---- Mesa drivers by their Mesa version; every failing kind is a failure ----
        lavapipe = model("/devices/" + farm_fleet.LAVAPIPE_KEY)
        versions = [d["driverVersion"] for d in lavapipe.get("drivers", [])]
        check("lavapipe: three drivers, by Mesa version, newest first", versions == ["Mesa 25.1.3", "Mesa 25.0.7", "Mesa 24.2.8"],
              versions)
        newest = (lavapipe.get("drivers") or [{}])[0]
        change = next((c for c in newest.get("changes", []) if c["test"] == "compute.1x1"), {})
        check("Mesa 25.1.3: crashed on lp-01 and failed on lp-02 fails on every machine (not flaky), a regression",
              newest.get("failing") == 1 and newest.get("flaky") == 0 and newest.get("regressions") == 1 and
              change.get("after") == "fail" and
              change.get("afterDetail") == "crashed on 1 of 2 machines: lp-01; fail on 1 of 2 machines: lp-02", (newest, change))
        status, page = api("/devices/" + farm_fleet.LAVAPIPE_KEY)
        check("the device page shows the Mesa versions", status == 200 and b"Mesa 24.2.8" in page and b"Mesa 25.1.3" in page, status)

        # ---- `/`: what is not shippable first, with the tests and the machines ----
        devices = model("/devices")
        rows = devices.get("devices", [])
        check("/: the failing devices first", len(rows) == 2 and all(d.get("failingTests") for d in rows),
              [(d["deviceKey"], d.get("failing"), d.get("flaky")) for d in rows])
        h200_row = next((d for d in rows if d["deviceKey"] == farm_fleet.H200_KEY), {})
        failing = {t["name"]: t for t in h200_row.get("failingTests", [])}
        check("/: the H200's failing tests named, with how many of the machines that ran them fail",
              failing.get("vrs.attachment", {}).get("failingMachines") == 2 and failing["vrs.attachment"].get("machines") == 3 and
              "farm-h200-01" in failing["vrs.attachment"].get("detail", ""), h200_row)
        measured = failing.get("vrs.attachment", {}).get("measured", {})
        check("/: measured over every run of 590.44.01: 2 failures in 4 runs (farm-h200-03 ran twice), flaky",
              measured.get("runs") == 4 and measured.get("failures") == 2 and measured.get("verdict") == "flaky", measured)
        lavapipe_row = next((d for d in rows if d["deviceKey"] == farm_fleet.LAVAPIPE_KEY), {})
        fixed = lavapipe_row.get("fixedTests", [])
        check("/: the fix on lavapipe's newest driver, with what it was",
              lavapipe_row.get("fixes") == 1 and len(fixed) == 1 and fixed[0].get("name") == "ray_query.flow" and
              fixed[0].get("before") == "fail" and fixed[0].get("after") == "pass", lavapipe_row.get("fixedTests"))
        look = {(m["host"], m["problem"]) for m in devices.get("machinesToLookAt", [])}
        check("/: the lost, stale and behind machines",
              look == {("farm-h200-05", "lost"), ("lp-03", "stale"), ("lp-03", "behind")}, look)
        status, page = api("/")
        text = page.decode()
        shippable = text[text.find('id="not-shippable"'):text.find('id="machines-to-look-at"')]
        check("/ page: not shippable, the test failing on 2 of 3 machines worded so, not as flaky",
              status == 200 and "vrs.attachment</code> <span class=\"fail\">fails on 2 of 3 machines" in shippable and
              "compute.1x1</code> <span class=\"fail\">fails on every machine (2)" in shippable and "flaky" not in shippable,
              shippable[:1500])
        fixed_html = text[text.find('id="fixed"'):text.find('id="machines-to-look-at"')]
        check("/ page: fixed on the newest driver", "ray_query.flow</code> <span class=\"pass\">pass</span>" in fixed_html and
              "fail on 2 of 2 machines" not in fixed_html and "was fail: on all 2 machines" in fixed_html, fixed_html[:600])
        check("/ page: the machines to look at, the Mesa versions",
              "no Vulkan device" in text and "stale" in text and "Mesa 24.2.8 where the fleet has Mesa 25.1.3" in text, status)

        coverage = model("/capabilities/test:vrs.attachment")
        h200_failing = next((d for d in coverage.get("declaredButFailing", []) if d["deviceKey"] == farm_fleet.H200_KEY), {})
        check("coverage: the H200 declares vrs.attachment and fails it, measured flaky over its 4 runs",
              h200_failing.get("verdict") == "flaky" and h200_failing.get("measured", {}).get("runs") == 4 and
              h200_failing["measured"].get("verdict") == "flaky", h200_failing)
        status, page = api("/capabilities/test:vrs.attachment")
        check("coverage page: the measured rate beside the verdict", status == 200 and b"flaky: failure rate 50 % of 4 runs" in page,
              status)

        # ---- what to rerun: the tests whose runs cannot tell yet, for a CI job to poll ----
        reruns = model("/reruns")
        listed = {(r["deviceKey"], r["test"]): r for r in reruns.get("reruns", [])}
        amber = listed.get((farm_fleet.H200_KEY, "amber.compute_1x1"), {})
        check("/reruns: an amber test run once on the H200's new driver (3 more runs decide it)",
              amber.get("driverVersion") == farm_fleet.NEW_DRIVER and amber.get("runs") == 1 and amber.get("runsNeeded") == 3,
              amber)
        crashed = listed.get((farm_fleet.LAVAPIPE_KEY, "compute.1x1"), {})
        check("/reruns: lavapipe's compute.1x1, failed on both of its 2 runs (2 more decide it)",
              crashed.get("runs") == 2 and crashed.get("failures") == 2 and crashed.get("runsNeeded") == 2, crashed)
        check("/reruns: not the tests already decided (the H200's built-in tests passed 4 runs; vrs.attachment is flaky)",
              (farm_fleet.H200_KEY, "compute.buffer") not in listed and (farm_fleet.H200_KEY, "vrs.attachment") not in listed,
              sorted(k[1] for k in listed if k[0] == farm_fleet.H200_KEY))
        status, page = api("/reruns")
        check("/reruns page: the table", status == 200 and b'id="reruns"' in page and b"amber.compute_1x1" in page, status)

        # ---- the gate: names a report declares, ambiguous bare limit names refused ----
        h200_report = paths[0]
        lacking = json.load(open(paths[0]))
        del lacking["devices"][0]["declared"]["extensions"]["VK_KHR_maintenance5"]
        lacking_path = os.path.join(work, "lacking.json")
        json.dump(lacking, open(lacking_path, "w"))
        requirements = os.path.join(work, "requirements.txt")
        open(requirements, "w").write("compute.1x1 must pass\nextension VK_KHR_maintenance5\n")
        gate = lambda *reports: subprocess.run([a.report_tool, "gate", requirements, *reports], capture_output=True,
                                               text=True, timeout=60)
        r = gate(h200_report)
        check("gate: VK_KHR_maintenance5, newer than the build's vk.xml, declared by the report: accepted (exit 0)",
              r.returncode == 0, r.stdout + r.stderr)
        r = gate(lacking_path)
        check("gate: a name neither vk.xml nor any report knows: an error in the requirements (exit 3)",
              r.returncode == 3 and "line 2: 'VK_KHR_maintenance5' is not an extension Vulkan defines, nor one any report "
              "declares" in r.stderr, r.stderr)
        open(requirements, "w").write("maxTaskWorkGroupInvocations >= 32\n")
        r = gate(h200_report)
        check("gate: the bare maxTaskWorkGroupInvocations (NV and EXT structs) refused, both names offered (exit 3)",
              r.returncode == 3 and "VkPhysicalDeviceMeshShaderPropertiesEXT.maxTaskWorkGroupInvocations" in r.stderr and
              "name one as Struct.member" in r.stderr, r.stderr)
        status, body = api("/api/v1/fleet?requirements=" + urllib.parse.quote("extension VK_KHR_maintenance5\n"))
        check("fleet gate: VK_KHR_maintenance5 accepted", status == 200 and json.loads(body).get("members"), (status, body[:300]))
        status, body = api("/api/v1/fleet?requirements=" + urllib.parse.quote("vrs.* pass or unsupported\n"))
        member = next((m for m in json.loads(body).get("members", []) if m.get("deviceKey") == farm_fleet.H200_KEY), {})
        check("fleet gate: the H200 fails vrs.attachment, the machines and the measured rate in the reason",
              status == 200 and member.get("pass") is False and
              any("fail on 2 of 3 machines" in f and "failure rate 50 % of 4 runs" in f for f in member.get("failures", [])),
              member.get("failures"))
        status, body = api("/api/v1/fleet?requirements=" + urllib.parse.quote("maxTaskWorkGroupInvocations >= 32\n"))
        check("fleet gate: the bare maxTaskWorkGroupInvocations is a 400, as /capabilities refuses it",
              status == 400 and b"name one as Struct.member" in body, (status, body[:300]))
        # ---- verdicts with a confidence: a flake much worse is a regression, a stable flake is not ----
        for path in farm_fleet.write_flakes(a.fixtures, os.path.join(work, "flakes")):
            status, _, body = post_report(server.port, open(path, "rb").read(), token)
            if status != 201:
                check("stored " + os.path.basename(path), False, (status, body[:200]))
        flaky = model("/devices/" + farm_fleet.FLAKY_KEY)
        check("measured: the confidence and the decisive rate stated", flaky.get("confidence") == 0.95 and
              flaky.get("decisiveRate") == 0.5, flaky.get("confidence"))
        newest = (flaky.get("drivers") or [{}])[0]
        measured = {m["test"]: m for m in newest.get("measured", [])}
        buffer = measured.get("compute.buffer", {})
        check("measured: compute.buffer flaky on Mesa 25.1.3, 8 failures in 10 runs over both machines, its interval",
              buffer.get("verdict") == "flaky" and buffer.get("runs") == 10 and buffer.get("failures") == 8 and
              abs(buffer.get("low", 0) - 0.4902) < 0.001 and abs(buffer.get("high", 0) - 0.9433) < 0.001, buffer)
        check("measured: compute.1x1 passed 10 runs: pass", measured.get("compute.1x1", {}).get("verdict") == "pass",
              measured.get("compute.1x1"))
        changes = {c["test"]: c for c in newest.get("changes", [])}
        check("measured: compute.buffer, flaky on both drivers by the rule, regressed from 10 % to 80 %",
              changes.get("compute.buffer", {}).get("change") == "regression" and
              "failure rate 80 % of 10 runs (95 % interval 49-94 %)" in changes["compute.buffer"].get("afterDetail", "") and
              "failure rate 10 % of 10 runs" in changes["compute.buffer"].get("beforeDetail", ""), changes.get("compute.buffer"))
        check("measured: compute.barrier, a stable flake (2 and 3 in 10), no change", "compute.barrier" not in changes,
              changes.get("compute.barrier"))
        status, page = api("/devices/" + farm_fleet.FLAKY_KEY)
        check("device page: the measured verdicts shown", status == 200 and b"flaky: failure rate 80 % of 10 runs" in page and
              b"measured: pass / fail / flaky / unknown" in page, status)
        # ---- reruns (preflight-probe --repeat): each a run of its own ----
        rerun_path = farm_fleet.write_rerun(a.fixtures, os.path.join(work, "rerun"))
        status, _, body = post_report(server.port, open(rerun_path, "rb").read(), token)
        check("stored the report with reruns", status == 201, (status, body[:200]))
        status, page = api("/reports/%s" % json.loads(body).get("id"))
        check("report page: the reruns of compute.barrier, each with its verdict and reason, and the verdict over "
              "its runs", status == 200 and b"rerun 2 times; over its 3 runs (2 failed)" in page and
              b"readback mismatch again" in page and b'<table class="reruns">' in page, (status, page[-300:]))
        newest = (model("/devices/" + farm_fleet.FLAKY_KEY).get("drivers") or [{}])[0]
        measured = {m["test"]: m for m in newest.get("measured", [])}
        barrier = measured.get("compute.barrier", {})
        check("reruns: compute.barrier failed, then failed and passed on reruns: 3 runs and 2 failures more "
              "(13 runs, 5 failures)", barrier.get("runs") == 13 and barrier.get("failures") == 5, barrier)
        one = measured.get("compute.1x1", {})
        check("reruns: a test without reruns counts once (11 runs of compute.1x1)", one.get("runs") == 11, one)
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
