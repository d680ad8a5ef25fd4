#!/usr/bin/env python3
"""CSV beside the JSON and the Atom feed of regressions (issue 43 item 6) on a real dashboard over a
SQLite file or a PostgreSQL server this test starts: issue 43's fleet (farm_fleet.py) with lavapipe
renamed to a hostile name (markup, quotes, a comma, a control character, and a leading "=" a
spreadsheet would run as a formula). The regressions, machines and devices tables as CSV (RFC 4180,
CRLF, the same rows as the JSON, the formula guarded); /regressions.atom well-formed Atom 1.0 with
one entry per regressed test, stable tag: ids, the hostile name as text; what changed since a date
(/regressions?appeared=DATE&fixes=1). Prints ok/FAIL per check;
exits 1 on any failure."""
import argparse
import csv
import datetime
import io
import json
import os
import shutil
import signal
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dashboard_test import Dashboard, check, post_report, request  # noqa: E402
import dashboard_test  # noqa: E402
import farm_fleet  # noqa: E402
from test_database import TestDatabase  # noqa: E402

HOSTILE = "=HYPERLINK(\"http://x\") <script>alert(1)</script> & 'lp', \u0001 \u202e \uffff"
ATOM = "{http://www.w3.org/2005/Atom}"


def hostile_fleet(examples, fixtures, out):
    bodies = []
    for path in farm_fleet.write(examples, fixtures, out):
        report = json.load(open(path))
        for device in report.get("devices", []):
            if device.get("identity", {}).get("deviceKey") == farm_fleet.LAVAPIPE_KEY:
                device["identity"]["deviceName"] = HOSTILE
        bodies.append(json.dumps(report).encode())
    return bodies


def csv_rows(body):
    return list(csv.DictReader(io.StringIO(body.decode("utf-8"), newline="")))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dashboard", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--backend", choices=["sqlite", "postgres"], required=True)
    a = parser.parse_args()
    work = tempfile.mkdtemp(prefix="preflight-feeds-")
    database = server = None
    try:
        database = TestDatabase(a.dashboard, a.backend, work)
        db, token = database.url, database.token
        auth = {"Authorization": "Bearer " + token}
        server = Dashboard(a.dashboard, db, work)
        today = datetime.datetime.now(datetime.timezone.utc).date()
        for body in hostile_fleet(a.examples, a.fixtures, os.path.join(work, "fleet")):
            status, _, answer = post_report(server.port, body, token)
            if status != 201:
                check("stored a report", False, (status, answer[:200]))

        def get(path):
            return request(server.port, "GET", path, headers=auth)

        regressions = json.loads(get("/api/v1/regressions")[2])["regressions"]
        status, headers, body = get("/api/v1/regressions?format=csv")
        check("regressions as CSV: 200 text/csv", status == 200 and
              headers.get("Content-Type", "").startswith("text/csv; charset=utf-8"), (status, headers))
        text = body.decode("utf-8")
        check("CSV: every line ends in CRLF", text.endswith("\r\n") and "\n" not in text.replace("\r\n", ""), text[:200])
        rows = csv_rows(body)
        check("CSV: the JSON's rows, keys as the header",
              len(rows) == len(regressions) > 0 and list(rows[0].keys())[:3] == ["deviceKey", "deviceName", "vendor"] and
              [r["deviceKey"] for r in rows] == [g["deviceKey"] for g in regressions], (len(rows), len(regressions)))
        lavapipe = next((r for r in rows if r["deviceKey"] == farm_fleet.LAVAPIPE_KEY), {})
        check("CSV: the hostile name whole, after the apostrophe that keeps it from being a formula",
              lavapipe.get("deviceName") == "'" + HOSTILE, lavapipe.get("deviceName"))
        tests = next(g["tests"] for g in regressions if g["deviceKey"] == farm_fleet.LAVAPIPE_KEY)
        check("CSV: a nested value (the regressed tests) is its JSON text",
              json.loads(lavapipe.get("tests", "null")) == tests, lavapipe.get("tests"))

        machines = json.loads(get("/api/v1/machines")[2])["machines"]
        status, headers, body = get("/api/v1/machines?format=csv")
        rows = csv_rows(body) if status == 200 else []
        check("machines as CSV: one row per machine of the JSON",
              len(rows) == len(machines) > 0 and sorted(r["host"] for r in rows) == sorted(m["host"] for m in machines),
              (status, len(rows), len(machines)))
        check("CSV: a download named after its table", 'filename="machines.csv"' in
              headers.get("Content-Disposition", ""), headers.get("Content-Disposition"))
        devices = json.loads(get("/api/v1/devices")[2])["devices"]
        rows = csv_rows(get("/api/v1/devices?format=csv")[2])
        check("devices as CSV", len(rows) == len(devices) > 0, (len(rows), len(devices)))
        check("?format=xml is a 400, ?table= that names no array a 404",
              get("/api/v1/machines?format=xml")[0] == 400 and get("/api/v1/machines?format=csv&table=nope")[0] == 404)

        status, headers, body = get("/regressions")
        page = body.decode()
        check("/regressions links its Atom feed and its data as JSON and CSV",
              status == 200 and '<link rel="alternate" type="application/atom+xml"' in page and
              'href="/regressions.atom"' in page and 'href="/api/v1/regressions?format=csv"' in page and
              'href="/api/v1/regressions"' in page, status)

        since = json.loads(get("/api/v1/regressions?appeared=%s&fixes=1" % today)[2])
        later = json.loads(get("/api/v1/regressions?appeared=%s" % (today + datetime.timedelta(days=1)))[2])
        mesa = next((g for g in since.get("regressions", []) if g["deviceKey"] == farm_fleet.LAVAPIPE_KEY and
                     g["driverVersion"] == "Mesa 25.1.3"), {})
        check("what changed since: today's uploads with their fixes (Mesa 25.1.3 fixed ray_query.flow), "
              "none from tomorrow", since.get("total", 0) >= len(regressions) and later.get("total") == 0 and
              [t["test"] for t in mesa.get("fixedTests", [])] == ["ray_query.flow"] and
              [t["test"] for t in mesa.get("tests", [])] == ["compute.1x1"], (since.get("total"), later, mesa))
        check("what changed since: a date that is none is a 400",
              get("/api/v1/regressions?appeared=yesterday")[0] == 400 and get("/api/v1/regressions?fixes=2")[0] == 400)
        status, _, body = get("/regressions?appeared=%s&fixes=1" % today)
        check("what changed since: the page lists the fix", status == 200 and
              b'<li class="fix">fixed: <b>ray_query.flow</b>' in body and b'name="appeared" value="%s"' % str(
                  today).encode() in body, status)

        status, headers, body = get("/regressions.atom")
        check("/regressions.atom: 200 application/atom+xml",
              status == 200 and headers.get("Content-Type", "").startswith("application/atom+xml"), (status, headers))
        check("Atom: the hostile name never as markup", b"<script>" not in body and b"\x01" not in body)
        try:
            feed = ET.fromstring(body)
        except ET.ParseError as e:
            check("Atom: well-formed XML", False, e)
            feed = ET.Element("none")
        check("Atom: a feed with id, title, updated and an author", feed.tag == ATOM + "feed" and
              all(feed.find(ATOM + n) is not None for n in ["id", "title", "updated", "author"]), feed.tag)
        entries = feed.findall(ATOM + "entry")
        check("Atom: one entry per regressed test", len(entries) == sum(len(g["tests"]) for g in regressions) > 0,
              len(entries))
        check("Atom: each entry with id, title, updated and content",
              all(all(e.find(ATOM + n) is not None and (e.find(ATOM + n).text or "") for n in
                      ["id", "title", "updated", "content"]) for e in entries))
        ids = [e.find(ATOM + "id").text for e in entries]
        check("Atom: ids unique tag: URIs", len(set(ids)) == len(ids) and all(i.startswith("tag:") for i in ids))
        crashed = "tag:preflight-dashboard.local,2026:regressions/%s/Mesa%%2025.1.3/compute.1x1" % farm_fleet.LAVAPIPE_KEY
        entry = next((e for e in entries if e.find(ATOM + "id").text == crashed), None)
        title = entry.find(ATOM + "title").text if entry is not None else ""
        check("Atom: lavapipe's compute.1x1 entry, the hostile name as text (controls shown as markers)",
              "<script>alert(1)</script> & 'lp'," in title and "<U+0001>" in title and "<U+202E>" in title and "<U+FFFF>" in title, title)
        content = entry.find(ATOM + "content").text if entry is not None else ""
        check("Atom: the entry names the first bad and last good drivers",
              "first bad Mesa 25.1.3; last good Mesa 25.0.7" in content, content)
        check("Atom: the same ids on a second fetch", [e.find(ATOM + "id").text for e in
                                                      ET.fromstring(get("/regressions.atom")[2]).findall(ATOM + "entry")] == ids)
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
