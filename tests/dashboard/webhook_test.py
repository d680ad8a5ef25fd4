#!/usr/bin/env python3
"""The dashboard's webhook (issue 43 item 6) on a real dashboard over a SQLite file or a PostgreSQL
server this test starts, with a real HTTP receiver: lavapipe reports of two machines and two Mesa
versions uploaded one by one, and the events the receiver gets after each:
  - a new regression (compute.1x1 fails on Mesa 25.1.3, passed on 25.0.7): exactly one signed POST,
    retried after the receiver's 500 (the same delivery id twice, then no more);
  - the same regression seen on a second machine: none; a second test regressing: one, naming it alone;
  - a stable flake (issue 43's flaky fleet, farm_fleet.write_flakes): no regression event;
  - with --expectations: a failure an entry excuses gives no event, one no entry excuses gives one;
  - a machine whose newest run has no Vulkan device: one lost-gpu event, none for its next empty run;
  - every body's HMAC-SHA-256 under the shared secret equals its X-Preflight-Signature-256.
Also: a --webhook without --webhook-secret, a short secret and a bad URL are usage errors (exit 2).
Prints ok/FAIL per check; exits 1 on any failure."""
import argparse
import copy
import datetime
import hashlib
import hmac
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dashboard_test import Dashboard, check, post_report  # noqa: E402
import dashboard_test  # noqa: E402
import farm_fleet  # noqa: E402
from test_database import TestDatabase  # noqa: E402

SECRET = b"a shared secret of the farm, 32 b"


class Receiver(http.server.ThreadingHTTPServer):
    def __init__(self):
        super().__init__(("127.0.0.1", 0), ReceiverHandler)
        self.lock = threading.Lock()
        self.posts = []           # every POST: (delivery id, event, body bytes, signature header)
        self.fail_next = 0        # answer 500 to this many POSTs first


class ReceiverHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with self.server.lock:
            self.server.posts.append((self.headers.get("X-Preflight-Delivery"), self.headers.get("X-Preflight-Event"),
                                      body, self.headers.get("X-Preflight-Signature-256", "")))
            failing = self.server.fail_next > 0
            self.server.fail_next -= 1 if failing else 0
        self.send_response(500 if failing else 204)
        self.end_headers()


def lavapipe(base, host, mesa, created, failing=()):
    report, device = farm_fleet._lavapipe(base, host, mesa, created)
    for test in failing:
        farm_fleet._fail(device, test, "fail", "readback mismatch")
    return json.dumps(report).encode()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dashboard", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--backend", choices=["sqlite", "postgres"], required=True)
    a = parser.parse_args()
    work = tempfile.mkdtemp(prefix="preflight-webhook-")
    database = server = receiver = None
    try:
        database = TestDatabase(a.dashboard, a.backend, work)
        token = database.token
        secret = os.path.join(work, "secret")
        open(secret, "wb").write(SECRET + b"\n")
        receiver = Receiver()
        threading.Thread(target=receiver.serve_forever, daemon=True).start()
        hook = "http://127.0.0.1:%d/hooks/preflight" % receiver.server_address[1]

        # usage errors
        for extra, what in [(["--webhook", hook], "--webhook without --webhook-secret"),
                            (["--webhook", "ftp://x/", "--webhook-secret", secret], "a URL that is not http(s)"),
                            (["--webhook-secret", secret], "--webhook-secret alone")]:
            r = subprocess.run([a.dashboard, "serve", "--db", database.url, *extra], capture_output=True, text=True,
                               timeout=30)
            check("usage: %s: exit 2 with a message" % what, r.returncode == 2 and "webhook" in r.stderr, r.stderr[-200:])
        short = os.path.join(work, "short")
        open(short, "w").write("tooshort\n")
        r = subprocess.run([a.dashboard, "serve", "--db", database.url, "--webhook", hook, "--webhook-secret", short],
                           capture_output=True, text=True, timeout=30)
        check("usage: a secret under 16 bytes: exit 2", r.returncode == 2 and "shorter than 16" in r.stderr, r.stderr[-200:])

        expectations = os.path.join(work, "expectations.txt")
        open(expectations, "w").write('fail compute.barrier driver_name=llvmpipe reason="known: PF-1"\n')
        server = Dashboard(a.dashboard, database.url, work,
                           extra=["--webhook", hook, "--webhook-secret", secret, "--webhook-retry", "1",
                                  "--webhook-attempts", "5", "--expectations", expectations,
                                  "--public-url", "https://dash.example"])
        base = json.load(open(os.path.join(a.fixtures, "probe-lavapipe.report.json")))
        now = datetime.datetime.now(datetime.timezone.utc)

        def at(minutes):
            return (now - datetime.timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")

        def upload(body, what):
            status, _, answer = post_report(server.port, body, token)
            check("stored: %s" % what, status == 201, (status, answer[:200]))

        def settle(count, seconds=12):
            """The POSTs once `count` have come and nothing more for a second."""
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                with receiver.lock:
                    n = len(receiver.posts)
                if n >= count:
                    time.sleep(1.2)
                    break
                time.sleep(0.1)
            with receiver.lock:
                return list(receiver.posts)

        def events(posts):
            return [(p[1], json.loads(p[2])) for p in posts]

        # 1. the first driver: nothing to compare with
        upload(lavapipe(base, "lp-01", "25.0.7", at(60)), "Mesa 25.0.7 on lp-01, everything passes")
        posts = settle(0, 3)
        check("a first driver: no event", posts == [], events(posts))

        # 2. a regression: one event, delivered after a 500
        with receiver.lock:
            receiver.fail_next = 1
        upload(lavapipe(base, "lp-01", "25.1.3", at(50), ["compute.1x1"]), "Mesa 25.1.3 on lp-01, compute.1x1 fails")
        posts = settle(3)
        regression_posts = [p for p in posts if p[1] == "regression"]
        ids = [p[0] for p in regression_posts]
        check("a new regression: one event, POSTed again after the receiver's 500 (one delivery id, twice)",
              len(regression_posts) == 2 and ids[0] == ids[1] and posts[0][1] == "regression", events(posts))
        unexpected = [b for e, b in events(posts) if e == "unexpected-failure"]
        check("... and, with --expectations, one unexpected-failure event: no entry excuses compute.1x1",
              len(unexpected) == 1 and [t["test"] for t in unexpected[0].get("tests", [])] == ["compute.1x1"],
              events(posts))
        body = json.loads(regression_posts[-1][2]) if regression_posts else {}
        tests = [t["test"] for t in body.get("tests", [])]
        check("... it names the device, the driver, the test and links to the pages",
              body.get("device", {}).get("deviceKey") == farm_fleet.LAVAPIPE_KEY and tests == ["compute.1x1"] and
              body.get("device", {}).get("driverVersion") == "Mesa 25.1.3" and body.get("host") == "lp-01" and
              body.get("links", {}).get("device", "").startswith("https://dash.example/devices/"), body)
        for delivery, event, raw, signature in posts:
            expected = "sha256=" + hmac.new(SECRET, raw, hashlib.sha256).hexdigest()
            check("signature of delivery %s (%s): HMAC-SHA-256 of the body" % (delivery, event),
                  hmac.compare_digest(signature, expected), (signature, expected))

        # 3. the same regression on a second machine: no new event
        with receiver.lock:
            receiver.posts.clear()
        upload(lavapipe(base, "lp-02", "25.0.7", at(45)), "Mesa 25.0.7 on lp-02")
        upload(lavapipe(base, "lp-02", "25.1.3", at(40), ["compute.1x1"]), "Mesa 25.1.3 on lp-02, compute.1x1 fails")
        posts = settle(99, 3)
        check("the same regression on a second machine: no regression event",
              not any(e == "regression" for e, _ in events(posts)), events(posts))

        # 4. another test regressing: one event naming it alone
        with receiver.lock:
            receiver.posts.clear()
        upload(lavapipe(base, "lp-01", "25.1.3", at(30), ["compute.1x1", "compute.barrier"]),
               "Mesa 25.1.3 on lp-01 again, compute.barrier fails too")
        upload(lavapipe(base, "lp-02", "25.1.3", at(29), ["compute.1x1", "compute.barrier"]),
               "Mesa 25.1.3 on lp-02 again, compute.barrier fails too")
        posts = settle(1, 6)
        regressions = [b for e, b in events(posts) if e == "regression"]
        check("a second test regressing: one event, naming only it",
              len(regressions) == 1 and [t["test"] for t in regressions[0].get("tests", [])] == ["compute.barrier"],
              events(posts))
        check("... compute.barrier failing is excused by --expectations: no unexpected-failure event",
              not any(e == "unexpected-failure" for e, _ in events(posts)), events(posts))

        # 5. a failure no entry excuses, new on this driver: one unexpected-failure event
        with receiver.lock:
            receiver.posts.clear()
        upload(lavapipe(base, "lp-01", "25.1.3", at(20), ["compute.1x1", "compute.barrier", "compute.buffer"]),
               "lp-01: compute.buffer fails too")
        posts = settle(2, 8)
        unexpected = [b for e, b in events(posts) if e == "unexpected-failure"]
        check("an unexpected failure: one event naming compute.buffer alone (compute.1x1 failed here before; "
              "compute.barrier is expected)",
              len(unexpected) == 1 and [t["test"] for t in unexpected[0].get("tests", [])] == ["compute.buffer"],
              events(posts))

        # 6. a stable flake: the flaky fleet of issue 43 gives no regression event for its flaky tests
        with receiver.lock:
            receiver.posts.clear()
        for path in farm_fleet.write_flakes(a.fixtures, os.path.join(work, "flakes")):
            upload(open(path, "rb").read(), "flaky fleet " + os.path.basename(path))
        posts = settle(99, 4)
        flaky_regressions = [b for e, b in events(posts) if e == "regression" and
                             b.get("device", {}).get("deviceKey") == farm_fleet.FLAKY_KEY and
                             "compute.barrier" in [t["test"] for t in b.get("tests", [])]]
        check("a stable flake (compute.barrier, 2 and 3 failures in 10): no regression event for it",
              flaky_regressions == [], events(posts))

        # 7. a lost GPU: one event; the next empty run of the same machine: none
        with receiver.lock:
            receiver.posts.clear()
        lost = copy.deepcopy(base)
        lost["host"], lost["created"], lost["devices"] = "lp-01", at(10), []
        upload(json.dumps(lost).encode(), "lp-01 without a Vulkan device")
        lost["created"] = at(5)
        upload(json.dumps(lost).encode(), "lp-01 without a Vulkan device, again")
        posts = settle(1, 6)
        gone = [b for e, b in events(posts) if e == "lost-gpu"]
        check("a lost GPU: one event for lp-01, none for its next empty run",
              len(gone) == 1 and gone[0].get("host") == "lp-01" and gone[0].get("devicesBefore") == 1, events(posts))

        # the outbox after it all: every event delivered once, none waiting
        server.stop()
        server = None
        rows = database.sql("SELECT COUNT(*), SUM(CASE WHEN delivered IS NULL THEN 1 ELSE 0 END) FROM webhook_outbox")
        check("the outbox: every event delivered", rows.strip().split("|")[1] in ("0", ""), rows)
    finally:
        if server:
            server.stop(signal.SIGKILL)
        if receiver:
            receiver.shutdown()
        if database:
            database.close()
        shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed" % (dashboard_test.checks - dashboard_test.failures, dashboard_test.failures))
    return 1 if dashboard_test.failures else 0


if __name__ == "__main__":
    sys.exit(main())
