#!/usr/bin/env python3
"""preflight-dashboard against a real database (a SQLite file, or a PostgreSQL server this test
starts) and the real upload client: the upload contract (stored, 409 duplicate, 401/403 tokens,
413, 422 with the reader's message, 400 for a wrong key), a flaky proxy in front, 50 concurrent
uploads with duplicates, a server killed with SIGKILL in a burst of uploads and restarted, every
page and API endpoint, escaping of hostile report strings, read access by token, and the command
line's errors. Prints ok/FAIL per check; exits 1 on any failure."""
import argparse
import concurrent.futures
import hashlib
import http.client
import ssl
import http.server
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from postgres_server import PostgresServer  # noqa: E402
import fleet_scenario  # noqa: E402

checks = failures = 0


def check(name, condition, detail=""):
    global checks, failures
    checks += 1
    if condition:
        print("ok   " + name)
    else:
        failures += 1
        print("FAIL " + name + (" (%s)" % (detail,) if detail != "" else ""))


class Dashboard:
    def __init__(self, binary, db, work, public_read=False, port=0, extra=()):
        self.binary, self.db, self.work = binary, db, work
        args = [binary, "serve", "--db", db, "--listen", "127.0.0.1:%d" % port, "--quiet"]
        if public_read:
            args.append("--public-read")
        args += list(extra)
        self.log = open(os.path.join(work, "serve.log"), "a")
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        found = re.search(r"listening on (https?://127\.0\.0\.1:(\d+)/)", line)
        if not found:
            raise RuntimeError("the dashboard did not start: %r" % line)
        self.url, self.port = found.group(1), int(found.group(2))

    def stop(self, sig=signal.SIGTERM):
        self.process.send_signal(sig)
        self.process.wait(timeout=30)
        self.log.close()


def request(port, method, path, body=None, headers=None, timeout=30):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def sign_in(port, token, https_context=None):
    """As a browser does: the sign-in page (its form token, and the cookie that token comes from),
    then the form posted from this origin. Returns (status, headers)."""
    def exchange(method, path, body=None, headers=None):
        if https_context:
            connection = http.client.HTTPSConnection("127.0.0.1", port, context=https_context, timeout=30)
        else:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()
    _, headers, page = exchange("GET", "/login")
    form_cookie = headers.get("Set-Cookie", "").split(";")[0]
    form_token = re.search(rb'name="form_token" value="([0-9a-f]{64})"', page).group(1).decode()
    origin = "%s://127.0.0.1:%d" % ("https" if https_context else "http", port)
    status, headers, _ = exchange("POST", "/login", "token=%s&form_token=%s" % (urllib.parse.quote(token), form_token),
                                  {"Content-Type": "application/x-www-form-urlencoded", "Cookie": form_cookie,
                                   "Origin": origin})
    return status, headers


def post_report(port, body, token, key=None):
    headers = {"Content-Type": "application/json", "Idempotency-Key": key or hashlib.sha256(body).hexdigest()}
    if token:
        headers["Authorization"] = "Bearer " + token
    return request(port, "POST", "/api/v1/reports", body, headers)


class FlakyProxy(http.server.ThreadingHTTPServer):
    """In front of the dashboard: answers the first `fail` requests 503, then forwards one and drops
    its response (the client never learns it was stored), then forwards the rest."""

    def __init__(self, upstream, fail):
        self.upstream, self.fail, self.seen, self.lock = upstream, fail, 0, threading.Lock()
        super().__init__(("127.0.0.1", 0), FlakyHandler)


class FlakyHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with self.server.lock:
            self.server.seen += 1
            n = self.server.seen
        if n <= self.server.fail:
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        headers = {k: v for k, v in self.headers.items() if k.lower() in ("content-type", "idempotency-key", "authorization")}
        status, _, answer = request(self.server.upstream, "POST", self.path, body, headers)
        if n == self.server.fail + 1:  # stored upstream, but the response is lost
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.send_response(status)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


def version_1_database(reports, token, postgres):
    """The statements of a version-1 database (the tables as they were before issue 30) holding
    `reports`, with a stale derived row that the upgrade must replace."""
    blob = "BYTEA" if postgres else "BLOB"
    identity = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" if postgres else "INTEGER PRIMARY KEY"
    rowid = "" if postgres else " WITHOUT ROWID"
    statements = [
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE tokens (name TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, created TEXT NOT NULL, revoked TEXT)",
        "CREATE TABLE reports (id %s, idempotency_key TEXT NOT NULL UNIQUE, body %s NOT NULL, body_bytes BIGINT NOT NULL, "
        "uploaded TEXT NOT NULL, token TEXT NOT NULL, peer TEXT NOT NULL, host TEXT, created TEXT, generator TEXT, "
        "devices INTEGER NOT NULL)" % (identity, blob),
        "CREATE TABLE entries (id %s, report_id BIGINT NOT NULL REFERENCES reports(id), device_index INTEGER NOT NULL, "
        "device_key TEXT NOT NULL, device_name TEXT NOT NULL, vendor TEXT NOT NULL, vendor_id BIGINT, device_id BIGINT, "
        "device_type TEXT NOT NULL, driver_name TEXT NOT NULL, driver_id TEXT NOT NULL, driver_version TEXT NOT NULL, "
        "driver_raw BIGINT NOT NULL, api_version TEXT NOT NULL, os TEXT NOT NULL, kernel TEXT NOT NULL, host TEXT NOT NULL, "
        "uploaded TEXT NOT NULL, tests_passed INTEGER NOT NULL, tests_failed INTEGER NOT NULL, "
        "spec_violations INTEGER NOT NULL)" % identity,
        "CREATE INDEX entries_device ON entries (device_key, driver_raw, id)",
        "CREATE INDEX entries_report ON entries (report_id)",
        "CREATE TABLE devices (device_key TEXT PRIMARY KEY, current_entry BIGINT NOT NULL, reports INTEGER NOT NULL, "
        "first_upload TEXT NOT NULL, last_upload TEXT NOT NULL, vendor TEXT NOT NULL, device_name TEXT NOT NULL, "
        "device_type TEXT NOT NULL, driver_name TEXT NOT NULL, newest_driver TEXT NOT NULL, newest_driver_raw BIGINT "
        "NOT NULL, os TEXT NOT NULL, api_version TEXT NOT NULL, api_raw BIGINT NOT NULL)",
        "CREATE INDEX devices_grouping ON devices (vendor, driver_name, device_name)",
        "CREATE INDEX devices_last_upload ON devices (last_upload)",
        "CREATE TABLE current_items (device_key TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, "
        "declared INTEGER NOT NULL, verdict TEXT NOT NULL, value TEXT NOT NULL, number DOUBLE PRECISION, "
        "PRIMARY KEY (device_key, kind, name))" + rowid,
        "CREATE TABLE first_seen (device_key TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, "
        "driver_raw BIGINT NOT NULL, driver_version TEXT NOT NULL, PRIMARY KEY (device_key, kind, name))" + rowid,
        "CREATE TABLE item_counts (kind TEXT NOT NULL, name TEXT NOT NULL, devices INTEGER NOT NULL, "
        "declared INTEGER NOT NULL, verified INTEGER NOT NULL, failed INTEGER NOT NULL, PRIMARY KEY (kind, name))" + rowid,
        "INSERT INTO meta (key, value) VALUES ('schema_version', '1')",
        "INSERT INTO tokens (name, hash, created) VALUES ('old', '%s', '2026-11-01T00:00:00Z')" % hashlib.sha256(token.encode()).hexdigest(),
        "INSERT INTO current_items VALUES ('stale', 'limit', 'maxComputeSharedMemorySize', 1, '', '32768', 32768)",
        "INSERT INTO item_counts VALUES ('limit', 'maxComputeSharedMemorySize', 1, 1, 0, 0)",
    ]
    for i, path in enumerate(reports):
        body = open(path, "rb").read()
        stored = zlib.compress(body).hex()
        literal = ("decode('%s', 'hex')" if postgres else "X'%s'") % stored
        statements.append("INSERT INTO reports (idempotency_key, body, body_bytes, uploaded, token, peer, host, created, "
                          "generator, devices) VALUES ('%s', %s, %d, '2026-11-0%dT00:00:00Z', 'old', '127.0.0.1', "
                          "'farm-v1', '2026-11-01T00:00:00Z', 'preflight-probe 0.1.0', 1)" %
                          (hashlib.sha256(body).hexdigest(), literal, len(body), i + 1))
    return statements


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dashboard", required=True)
    parser.add_argument("--report-tool", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--synth", required=True)
    parser.add_argument("--examples", required=True, help="docs/examples (the H200 report and its artifacts)")
    parser.add_argument("--backend", choices=["sqlite", "postgres"], required=True)
    a = parser.parse_args()
    work = tempfile.mkdtemp(prefix="preflight-dashboard-test-")
    postgres = None
    dashboards = []
    try:
        if a.backend == "postgres":
            postgres = PostgresServer()
            db = postgres.url
        else:
            db = os.path.join(work, "dashboard.db")

        def sql(statement):
            if postgres:
                return postgres.psql(statement)
            with sqlite3.connect(db) as c:
                return "\n".join("|".join(str(v) for v in row) for row in c.execute(statement))

        run = lambda *args, **kw: subprocess.run([a.dashboard, *args], capture_output=True, text=True, **kw)
        lavapipe = os.path.join(a.fixtures, "probe-lavapipe.report.json")
        nvidia = os.path.join(a.fixtures, "probe-nvidia-h200.report.json")
        synth = os.path.join(work, "synth")
        subprocess.run([sys.executable, a.synth, "--from", nvidia, "--from", lavapipe, "--count", "160", "--devices", "8",
                        "--versions", "3", "--hosts", "2", "--out", synth], check=True)
        synthesized = sorted(os.path.join(synth, f) for f in os.listdir(synth))

        # ---- the command line ----
        r = run("token", "add", "farm-a", "--db", db)
        check("token add prints a token once", r.returncode == 0 and re.fullmatch(r"pft_[0-9a-f]{64}\n", r.stdout), r.stderr)
        token = r.stdout.strip()
        token_file = os.path.join(work, "token")
        open(token_file, "w").write(token + "\n")
        check("the token is stored hashed, not as given", token not in sql("SELECT hash FROM tokens") and
              hashlib.sha256(token.encode()).hexdigest() in sql("SELECT hash FROM tokens"))
        r = run("token", "add", "farm-a", "--db", db)
        check("token add of an existing name: exit 1 with a message", r.returncode == 1 and "exists already" in r.stderr, r.stderr)
        revoked = run("token", "add", "old-farm", "--db", db).stdout.strip()
        r = run("token", "revoke", "old-farm", "--db", db)
        check("token revoke: exit 0", r.returncode == 0, r.stderr)
        r = run("token", "list", "--db", db)
        check("token list names both, the revoked one as revoked",
              "farm-a" in r.stdout and re.search(r"old-farm\t\S+\trevoked ", r.stdout) and token not in r.stdout, r.stdout)
        r = run("token", "add", "bad name!", "--db", db)
        check("token add of a bad name: exit 1", r.returncode == 1 and "token name" in r.stderr, r.stderr)
        r = run("serve", "--db", db, "--frobnicate")
        check("an unknown option: exit 2 with usage", r.returncode == 2 and "unknown option" in r.stderr, r.stderr)
        r = run("serve")
        check("no --db: exit 2", r.returncode == 2 and "--db" in r.stderr, r.stderr)
        r = run("serve", "--db", db, "--listen", "nonsense")
        check("a bad --listen: exit 2", r.returncode == 2 and "ADDR:PORT" in r.stderr, r.stderr)
        r = run("token", "list", "--db", "postgresql://nobody@127.0.0.1:1/none")
        check("an unreachable PostgreSQL: exit 1 with the driver's message", r.returncode == 1 and "postgresql" in r.stderr, r.stderr)
        r = run("import", "--db", db, os.path.join(a.fixtures, "invalid-report.json"))
        check("import of an invalid report: exit 1 with the reader's message", r.returncode == 1 and "invalid-report.json" in r.stderr, r.stderr)

        server = Dashboard(a.dashboard, db, work)
        dashboards.append(server)
        upload_url = server.url + "api/v1/reports"
        spool = os.path.join(work, "spool")

        def upload(*reports, url=upload_url, token_path=token_file, extra=()):
            args = [a.report_tool, "upload", "--url", url, "--spool", spool, "--backoff-ms", "50", "--retries", "4", *extra]
            if token_path:
                args += ["--token-file", token_path]
            return subprocess.run(args + list(reports), capture_output=True, text=True)

        def api(path, token_value=token):
            status, headers, body = request(server.port, "GET", path, headers={"Authorization": "Bearer " + token_value})
            return status, headers, body

        def stored_reports():
            return int(sql("SELECT COUNT(*) FROM reports"))

        # ---- ingest contract ----
        r = upload(lavapipe)
        check("upload through preflight-report: exit 0", r.returncode == 0, r.stdout + r.stderr)
        check("stored once", stored_reports() == 1)
        r = upload(lavapipe)
        check("the same report again: exit 0 (409 is done)", r.returncode == 0, r.stdout + r.stderr)
        check("still stored once", stored_reports() == 1)
        body = open(nvidia, "rb").read()
        status, _, answer = post_report(server.port, body, token)
        check("POST of a new report: 201 with its id", status == 201 and json.loads(answer)["status"] == "stored", (status, answer))
        status, _, _ = post_report(server.port, body, token)
        check("POST of a known key: 409", status == 409, status)
        status, _, _ = post_report(server.port, body, None)
        check("no token: 401", status == 401, status)
        status, _, _ = post_report(server.port, body, "pft_" + "0" * 64)
        check("an unknown token: 401", status == 401, status)
        status, _, _ = post_report(server.port, body, revoked)
        check("a revoked token: 403", status == 403, status)
        status, _, _ = post_report(server.port, body, token, key="0" * 64)
        check("an Idempotency-Key that is not the body's SHA-256: 400", status == 400, status)
        status, _, _ = post_report(server.port, body, token, key="not-hex")
        check("a malformed Idempotency-Key: 400", status == 400, status)
        # over 16 MiB, announced: refused before the body is sent (the client waits for 100-continue)
        announced = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        announced.sendall(("POST /api/v1/reports HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nIdempotency-Key: %s\r\n"
                           "Content-Length: %d\r\nExpect: 100-continue\r\n\r\n" % (token, "0" * 64, 16 * 1024 * 1024 + 1)).encode())
        answer = announced.recv(200)
        announced.close()
        check("a body announced over 16 MiB: 413 before it is sent", answer.startswith(b"HTTP/1.1 413"), answer[:40])
        big = b" " * (16 * 1024 * 1024 + 1)
        status, _, _ = post_report(server.port, (big[i:i + 65536] for i in range(0, len(big), 65536)), token,
                                   key=hashlib.sha256(big).hexdigest())
        check("a chunked body over 16 MiB: 413", status == 413, status)
        invalid = open(os.path.join(a.fixtures, "invalid-report.json"), "rb").read()
        status, _, answer = post_report(server.port, invalid, token)
        check("a report the reader refuses: 422 with the reader's message", status == 422 and b"report" in answer, (status, answer[:200]))
        status, _, answer = post_report(server.port, b'{"schema": "preflight.report/1", "devices": [', token)
        check("malformed JSON: 422", status == 422, (status, answer[:200]))
        check("nothing of the refused uploads was stored", stored_reports() == 2)
        bad_token = os.path.join(work, "bad-token")
        open(bad_token, "w").write("pft_" + "1" * 64)
        r = upload(synthesized[0], token_path=bad_token)
        check("the client with a wrong token: exit 1, report spooled", r.returncode == 1 and os.listdir(spool), r.stdout + r.stderr)
        r = upload(url=upload_url, extra=["--flush"])
        check("flush with the right token delivers the spooled report", r.returncode == 0 and not [f for f in os.listdir(spool) if f.endswith(".json")],
              r.stdout + r.stderr)
        check("... stored once", stored_reports() == 3)

        # ---- a flaky proxy: 503 twice, then the response of a stored report is lost ----
        proxy = FlakyProxy(server.port, fail=2)
        threading.Thread(target=proxy.serve_forever, daemon=True).start()
        r = upload(synthesized[1], url="http://127.0.0.1:%d/api/v1/reports" % proxy.server_address[1])
        proxy.shutdown()
        check("through the flaky proxy: delivered (exit 0)", r.returncode == 0, r.stdout + r.stderr)
        check("through the flaky proxy: 4 requests, stored once", proxy.seen == 4 and stored_reports() == 4, (proxy.seen, stored_reports()))

        # ---- 50 concurrent uploads, duplicates among them ----
        bodies = [open(p, "rb").read() for p in synthesized[2:27]]  # 25 distinct
        with concurrent.futures.ThreadPoolExecutor(50) as pool:
            statuses = list(pool.map(lambda b: post_report(server.port, b, token)[0], bodies + bodies))
        check("50 concurrent uploads: each answered 201 or 409", all(s in (201, 409) for s in statuses), statuses)
        check("50 concurrent uploads of 25 reports: 25 stored, 25 duplicates",
              statuses.count(201) == 25 and statuses.count(409) == 25 and stored_reports() == 29, (statuses.count(201), stored_reports()))

        # ---- SIGKILL in a burst, restart, retry: nothing half-stored, each once ----
        burst = synthesized[27:87]
        port = server.port
        client = subprocess.Popen([a.report_tool, "upload", "--url", upload_url, "--spool", spool, "--token-file", token_file,
                                   "--retries", "0", *burst], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(600):  # kill it once the burst is under way (the first of it stored)
            if stored_reports() > 29:
                break
            time.sleep(0.05)
        server.stop(signal.SIGKILL)
        client.wait(timeout=120)
        dashboards.remove(server)
        killed_at = stored_reports()
        half = int(sql("SELECT COUNT(*) FROM reports r WHERE NOT EXISTS (SELECT 1 FROM entries e WHERE e.report_id = r.id)"))
        check("killed mid-burst: some but not all stored", 29 < killed_at < 89, killed_at)
        check("killed mid-burst: no report without its entries", half == 0, half)
        server = Dashboard(a.dashboard, db, work, port=port)
        dashboards.append(server)
        r = upload(*burst)  # the client retries everything; what is there answers 409
        check("after the restart, the retry delivers the rest", r.returncode == 0, r.stdout[-400:] + r.stderr[-400:])
        check("every report of the burst stored exactly once", stored_reports() == 89 and
              int(sql("SELECT COUNT(DISTINCT idempotency_key) FROM reports")) == 89, stored_reports())
        counts = sql("SELECT COUNT(*) FROM current_items")
        devices = int(sql("SELECT COUNT(*) FROM devices"))
        check("per-device state is consistent: one current entry per device", devices == int(sql("SELECT COUNT(DISTINCT device_key) FROM entries")), devices)
        mismatch = sql("SELECT COUNT(*) FROM item_counts k WHERE k.devices <> (SELECT COUNT(*) FROM current_items c WHERE c.kind = k.kind AND c.name = k.name)")
        check("coverage counts equal a recount of the devices' items", mismatch == "0" and int(counts) > 0, mismatch)

        # ---- the rest of the synthesized fleet, by import ----
        r = run("import", "--db", db, *synthesized[87:])
        check("import of 73 reports: exit 0", r.returncode == 0 and "73 stored" in r.stderr, r.stderr[-300:])
        r = run("import", "--db", db, "--artifacts", os.path.join(a.examples, "nvidia-h200-artifacts"),
                os.path.join(a.examples, "nvidia-h200.report.json"))
        check("import with the artifacts the report names", r.returncode == 0 and "with 11 artifacts" in r.stdout, r.stdout + r.stderr)
        hostile = json.load(open(lavapipe))
        hostile["devices"][0]["identity"]["deviceName"] = "<script>alert(1)</script>"
        hostile["devices"][0]["identity"]["deviceKey"] = "10005-0bad-mesa_llvmpipe"
        hostile["host"] = "\"><img src=x onerror=alert(2)>"
        hostile["devices"][0]["smoke"][0]["reason"] = "</td><script>alert(3)</script>"
        hostile_path = os.path.join(work, "hostile.json")
        json.dump(hostile, open(hostile_path, "w"))
        r = upload(hostile_path)
        check("a report with hostile strings is accepted", r.returncode == 0, r.stderr)
        hostile_id = sql("SELECT MAX(id) FROM reports")

        # ---- the multi-machine regression, uploaded by the client with its PNG artifacts ----
        runs = fleet_scenario.write(a.examples, os.path.join(work, "runs"))
        r = upload(*runs)
        check("six farm runs uploaded with their artifacts: exit 0", r.returncode == 0 and r.stderr.count("11 of 11 artifacts sent") == 6,
              r.stderr[-600:])
        empty = json.load(open(runs[0]))
        empty["devices"] = []
        empty["host"] = "farm-h200-04"
        empty_path = os.path.join(work, "empty.json")
        json.dump(empty, open(empty_path, "w"))
        r = upload(empty_path)
        check("a report without a device is accepted", r.returncode == 0, r.stderr)

        # ---- read access ----
        status, headers, page = request(server.port, "GET", "/")
        check("reading without a token: 401 and the sign-in form", status == 401 and b'action="/login"' in page, status)
        status, _, _ = request(server.port, "GET", "/api/v1/devices")
        check("the API without a token: 401", status == 401, status)
        status, _, _ = api("/api/v1/devices", revoked)
        check("the API with a revoked token: 403", status == 403, status)
        status, headers = sign_in(server.port, token)
        cookie = headers.get("Set-Cookie", "")
        check("signing in sets an HttpOnly session cookie, not the token, and redirects",
              status == 303 and "HttpOnly" in cookie and "SameSite=Strict" in cookie and token not in cookie and
              re.match(r"preflight_session=pfs_[0-9a-f]{64};", cookie), (status, cookie))
        session = cookie.split(";")[0]
        check("only the session's SHA-256 is stored", session.split("=")[1] not in sql("SELECT hash FROM sessions") and
              hashlib.sha256(session.split("=")[1].encode()).hexdigest() in sql("SELECT hash FROM sessions"))
        status, _, page = request(server.port, "GET", "/", headers={"Cookie": session})
        check("the session reads the pages, which offer to sign out", status == 200 and b'action="/logout"' in page, status)
        logout_token = re.search(rb'action="/logout"><input type="hidden" name="form_token" value="([0-9a-f]{64})"', page)
        status, headers, _ = request(server.port, "POST", "/logout", "form_token=" + logout_token.group(1).decode(),
                                     {"Cookie": session, "Content-Type": "application/x-www-form-urlencoded"})
        check("signing out ends the session and clears the cookie", status == 303 and "Max-Age=0" in headers.get("Set-Cookie", ""),
              (status, headers.get("Set-Cookie")))
        status, _, _ = request(server.port, "GET", "/", headers={"Cookie": session})
        check("a session signed out reads nothing", status == 401, status)
        status, headers = sign_in(server.port, token)
        session = headers.get("Set-Cookie", "").split(";")[0]
        status, _, _ = request(server.port, "POST", "/api/v1/reports", b"{}",
                               {"Cookie": session, "Idempotency-Key": hashlib.sha256(b"{}").hexdigest()})
        check("a session cookie does not upload (uploads need a token)", status == 401, status)
        temporary = run("token", "add", "temporary", "--db", db).stdout.strip()
        status, headers = sign_in(server.port, temporary)
        temporary_session = headers.get("Set-Cookie", "").split(";")[0]
        run("token", "revoke", "temporary", "--db", db)
        status, _, _ = request(server.port, "GET", "/", headers={"Cookie": temporary_session})
        check("revoking a token ends its sessions", status == 401, status)
        status, _, _ = request(server.port, "GET", "/healthz")
        check("/healthz answers without a token", status == 200, status)

        # ---- every page and API endpoint ----
        status, headers, page = api("/")
        csp = headers.get("Content-Security-Policy", "")
        check("devices page: 200 with a CSP that allows no external source", status == 200 and "default-src 'none'" in csp and "script-src 'nonce-" in csp, csp)
        text = page.decode()
        check("devices page: the hostile device name is text", "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "<script>alert(1)" not in text)
        nonce = re.search(r"'nonce-([0-9a-f]+)'", csp).group(1)
        scripts = re.findall(r"<script([^>]*)>", text)
        check("every script on the page carries the response's nonce", scripts and all(('nonce="%s"' % nonce) in s for s in scripts), scripts)
        status, _, body = api("/api/v1/devices")
        listing = json.loads(body)
        check("API devices: one row per deviceKey", status == 200 and listing["total"] == devices + 1 == len(listing["devices"]),
              (listing.get("total"), devices))
        nv = next(d for d in listing["devices"] if d["vendor"] == "NVIDIA")
        check("API devices: reports counted and newest driver named", nv["reports"] >= 1 and nv["newestDriver"], nv)
        status, _, body = api("/api/v1/devices?vendor=NVIDIA&exclude_cpu=1")
        filtered = json.loads(body)
        check("devices filtered by vendor and without CPU devices", status == 200 and filtered["total"] > 0 and
              all(d["vendor"] == "NVIDIA" for d in filtered["devices"]), filtered.get("total"))
        status, _, body = api("/api/v1/devices?exclude_cpu=1")
        check("excluding CPU devices drops every lavapipe", all("CPU" not in d["deviceType"] for d in json.loads(body)["devices"]))
        status, _, body = api("/api/v1/devices?q=%23%33")
        check("search by name ('#3')", status == 200 and all("#3" in d["deviceName"] for d in json.loads(body)["devices"]) and json.loads(body)["total"] >= 1)
        status, _, page = api("/?group=1")
        check("devices grouped by vendor, then driver", status == 200 and page.count(b'class="vendor"') == 2 and b'class="driver"' in page)
        status, _, body = api("/api/v1/devices?since=2999-01-01")
        check("uploaded since a future date: none", json.loads(body)["total"] == 0)
        status, _, body = api("/api/v1/devices?vendor=nvidia&type=discrete")
        check("filters ignore case (vendor=nvidia, type=discrete)", status == 200 and json.loads(body)["total"] == filtered["total"],
              body[:200])
        for bad, word in [("api=abc", b"api=abc"), ("since=yesterday", b"since=yesterday"), ("vendor=nobody", b"vendor=nobody"),
                          ("type=gpu-ish", b"type=gpu-ish"), ("exclude_cpu=yes", b"exclude_cpu=yes"), ("page=0", b"page=0")]:
            status, _, body = api("/api/v1/devices?" + bad)
            check("a bad filter value (%s): 400 naming it" % bad, status == 400 and word in body, (status, body[:120]))
        status, _, body = api("/api/v1/devices?q=farm-001")
        check("search by machine (q=farm-001)", status == 200 and 0 < json.loads(body)["total"] < devices + 1, body[:100])

        regressed_key = json.load(open(synthesized[0]))["devices"][0]["identity"]["deviceKey"]  # device 0: regresses on its newest driver
        status, _, body = api("/api/v1/devices/" + regressed_key)
        history = json.loads(body)
        check("device history: its drivers, machines and reports",
              status == 200 and history["driverVersions"] == 3 and len({e["host"] for e in history["entries"]}) > 1 and
              len(history["machines"]) == 2, history.get("driverVersions"))
        newest = history["drivers"][0]
        check("device history: the newest driver regressed over both machines, regressions listed first",
              newest["regressions"] > 0 and newest["machines"] == 2 and newest["changes"][0]["change"] == "regression" and
              newest["changes"][0]["afterDetail"] == "on all 2 machines", newest)
        status, _, page = api("/devices/" + regressed_key)
        check("device page highlights the regression", status == 200 and b'class="transition regression"' in page)
        status, _, _ = api("/devices/no-such-device")
        check("an unknown device: 404", status == 404, status)

        first_id = sql("SELECT MIN(id) FROM reports")
        status, _, body = api("/api/v1/reports/" + first_id)
        report_model = json.loads(body)
        check("report: identity, smoke verdicts and declared groups", status == 200 and report_model["devices"][0]["identity"]["deviceKey"]
              and report_model["devices"][0]["smoke"] and len(report_model["devices"][0]["declared"]) > 10)
        check("report: upload time, token name and machine kept", report_model["token"] == "farm-a" and report_model["uploaded"] and report_model["peer"] == "127.0.0.1",
              (report_model.get("token"), report_model.get("peer")))
        status, headers, raw = api("/reports/%s/report.json" % first_id)
        check("report download: the exact bytes uploaded", status == 200 and raw == open(lavapipe, "rb").read() and "attachment" in headers.get("Content-Disposition", ""))
        status, _, raw = api("/reports/%s/profile.json?device=0" % first_id)
        check("report download: a Vulkan Profiles document", status == 200 and "capabilities" in json.loads(raw) and "$schema" in json.loads(raw))
        status, _, raw = api("/reports/%s/junit.xml" % first_id)
        check("report download: JUnit", status == 200 and raw.startswith(b"<?xml") and b"<testsuite" in raw)
        status, _, page = api("/reports/" + hostile_id)
        text = page.decode()
        check("report page: hostile host and reason are text", "&lt;/td&gt;&lt;script&gt;alert(3)" in text and "<script>alert(3)" not in text
              and "<img src=x" not in text)
        for path in ["/reports/0", "/reports/abc", "/reports/99999999", "/reports/1/../../etc/passwd", "/capabilities/..%2F..%2Fetc",
                     "/reports/%s/../../../etc/passwd" % first_id, "/nope"]:
            status, _, _ = api(path)
            check("no such page: %s → 404" % path, status == 404, status)

        ids = sql("SELECT id FROM reports WHERE devices = 1 ORDER BY id LIMIT 9").split()
        status, _, body = api("/api/v1/compare?" + "&".join("r=" + i for i in ids[:8]))
        compared = json.loads(body)
        check("compare 8 reports: 8 columns", status == 200 and len(compared["columns"]) == 8, len(compared.get("columns", [])))
        kinds = {row["kind"] for row in compared.get("rows", [])}
        check("compare covers every declared value, tests and identity",
              kinds == {"identity", "test", "capability", "extension", "feature", "limit", "format"} and
              len(compared["rows"]) > 1000, (kinds, len(compared.get("rows", []))))
        status, _, body = api("/api/v1/compare?differ=1&" + "&".join("r=" + i for i in ids[:8]))
        differing = json.loads(body)
        status, _, page = api("/compare?differ=1&" + "&".join("r=" + i for i in ids[:8]))
        check("compare, only rows that differ: the page shows them all",
              status == 200 and all(row["differs"] for row in differing["rows"]) and
              page.count(b'<tr class="differs">') == len(differing["rows"]) == compared["rowsDiffering"], len(differing["rows"]))
        status, _, body = api("/api/v1/compare?" + "&".join("r=" + i for i in ids))
        check("compare of 9: 400, up to 8", status == 400 and b"up to 8" in body, (status, body[:100]))
        status, _, page = api("/compare")
        check("compare without a choice: the picker (200), 8 at most", status == 200 and b'data-max="8"' in page and
              b'name="d" value="' in page and b'name="r" value="' in page, status)
        pair = json.loads(api("/api/v1/devices/" + regressed_key)[2])["drivers"]
        status, _, body = api("/api/v1/compare?differ=1&d=%s%%40%d&d=%s%%40%d" % (regressed_key, pair[1]["driverRaw"], regressed_key,
                                                                                pair[0]["driverRaw"]))
        side = json.loads(body)
        check("side by side of two drivers of a device: never empty (an extension gained, a test regressed)",
              status == 200 and any(r["kind"] == "extension" for r in side["rows"]) and any(r["kind"] == "test" for r in side["rows"]),
              (status, body[:200]))
        status, _, _ = api("/api/v1/compare?d=nonsense")
        check("compare with a malformed pair: 400", status == 400, status)
        status, _, _ = api("/api/v1/compare?" + "&".join("r=" + ids[0] for _ in range(300)))
        check("compare with more query arguments than the limit: 400, not a shorter compare", status == 400, status)
        status, _, _ = request(server.port, "POST", "/login", "{}", {"Content-Type": "application/json"})
        check("a sign-in that is not a form: 400", status == 400, status)
        status, _, _ = api("/api/v1/compare?r=x")
        check("compare with a bad id: 400", status == 400, status)

        status, _, body = api("/api/v1/capabilities")
        coverage = json.loads(body)
        items = {i["id"]: i for i in coverage["items"]}
        check("coverage lists every kind", {i["kind"] for i in coverage["items"]} == {"capability", "test", "extension", "feature", "limit", "format"})
        swap = items.get("extension:VK_KHR_swapchain")
        check("coverage: shares of distinct devices", swap and swap["declaredShare"] == swap["devicesDeclaring"] / coverage["devices"], swap)
        failing = [i for i in coverage["items"] if i["kind"] == "test" and i["devicesDeclaredFailing"] > 0]
        check("coverage: tests that devices declare but fail", failing, "")
        status, _, body = api("/api/v1/capabilities/" + urllib.parse.quote(failing[0]["id"]))
        detail = json.loads(body)
        check("capability page: the devices that declare it but fail it", status == 200 and len(detail["declaredButFailing"]) == failing[0]["devicesDeclaredFailing"])
        status, _, body = api("/api/v1/capabilities/extension:VK_EXT_synthetic_feature_2")
        detail = json.loads(body)
        check("capability: devices lacking it and the first driver that has it",
              detail["lacking"] and all(d.get("firstDriver") for d in detail["declaring"]) and detail["declaring"], detail.get("devicesDeclaring"))
        status, _, body = api("/api/v1/capabilities/limit:maxComputeSharedMemorySize")
        detail = json.loads(body)
        check("a bare limit name is an alias of its one struct", status == 200 and
              detail["id"] == "limit:VkPhysicalDeviceLimits.maxComputeSharedMemorySize" and detail["aliasOf"], detail.get("id"))
        check("limit: the distribution of values over devices", [b["value"] for b in detail["distribution"]] == ["32768", "49152", "65536", "81920"]
              and sum(b["devices"] for b in detail["distribution"]) == detail["devicesDeclaring"], detail.get("distribution"))
        status, _, page = api("/capabilities/limit:VkPhysicalDeviceLimits.maxComputeSharedMemorySize")
        check("limit page draws the distribution as SVG", status == 200 and b'<svg class="distribution"' in page)
        status, _, body = api("/api/v1/capabilities/limit:maxTaskWorkGroupInvocations")
        answer = json.loads(body)
        check("a member of two structs (EXT and NV mesh shader) is no alias: 404 naming both", status == 404 and
              set(answer.get("closest", [])) == {"limit:VkPhysicalDeviceMeshShaderPropertiesEXT.maxTaskWorkGroupInvocations",
                                                 "limit:VkPhysicalDeviceMeshShaderPropertiesNV.maxTaskWorkGroupInvocations"}, answer)
        status, _, body = api("/api/v1/capabilities/limit:VkPhysicalDeviceMeshShaderPropertiesEXT.maxTaskWorkGroupInvocations")
        ext = json.loads(body)
        check("each struct's limit on its own", status == 200 and ext["name"].endswith("EXT.maxTaskWorkGroupInvocations"), status)
        status, _, body = api("/api/v1/capabilities/limit:maxComputeSharedMemorySiz")
        answer = json.loads(body)
        check("a misspelt item: 404 with the closest names first", status == 404 and
              answer["closest"][0] == "limit:VkPhysicalDeviceLimits.maxComputeSharedMemorySize", answer)
        status, _, page = api("/capabilities/extension:VK_KHR_swapchian")
        check("the 404 page links the closest names", status == 404 and b"/capabilities/extension%3AVK_KHR_swapchain" in page, status)
        status, _, body = api("/api/v1/capabilities/test:no.such.test")
        check("an unknown test: 404, not '0 of N'", status == 404, status)
        status, _, body = api("/api/v1/capabilities/format:VK_FORMAT_R8G8B8A8_UNORM")
        check("format: per-feature shares", status == 200 and any(f["feature"] == "VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT" and f["share"] > 0.9
                                                                    for f in json.loads(body)["formatFeatures"]))
        status, _, body = api("/api/v1/capabilities?vendor=NVIDIA&kind=extension")
        nvonly = json.loads(body)
        check("coverage filtered by vendor counts only those devices", status == 200 and nvonly["devices"] == filtered["total"] and
              all(i["kind"] == "extension" for i in nvonly["items"]))
        status, _, page = api("/capabilities?kind=extension")
        check("coverage page draws share bars", status == 200 and b'<svg class="bar"' in page)
        status, _, _ = api("/api/v1/capabilities/nonsense:thing")
        check("an unknown capability kind: 404", status == 404, status)

        requirements = "compute.* pass\nmaxComputeSharedMemorySize >= 49152\n"
        status, _, body = api("/api/v1/fleet?exclude_cpu=1&requirements=" + urllib.parse.quote(requirements))
        fleet = json.loads(body)
        check("fleet gate: pass/fail per device with reasons", status == 200 and 0 < fleet["passing"] < fleet["devices"] and
              all(m["failures"] for m in fleet["members"] if not m["pass"]), (fleet.get("passing"), fleet.get("devices")))
        status, _, _ = api("/api/v1/fleet?requirements=" + urllib.parse.quote("frobnicate the thing"))
        check("fleet gate with a malformed requirement: 400", status == 400, status)
        status, _, raw = api("/fleet/limits.json?vendor=NVIDIA")
        limits = json.loads(raw)
        check("fleet limits download for the layer", status == 200 and limits["schema"] == "preflight.fleet-limits/1" and
              next(v["value"] for k, v in limits["limits"].items() if k.endswith("maxComputeSharedMemorySize")) == 32768, limits.get("schema"))
        status, _, raw = api("/fleet/profiles.json?exclude_cpu=1")
        profile = json.loads(raw)
        extensions = profile["capabilities"]["device"]["extensions"]
        check("fleet Vulkan Profiles: the intersection", status == 200 and "VK_KHR_swapchain" in extensions and
              not any(e.startswith("VK_EXT_synthetic_feature_") for e in extensions), len(extensions))
        status, _, page = api("/fleet?exclude_cpu=1&requirements=" + urllib.parse.quote(requirements))
        check("fleet page shows the gate", status == 200 and b'class="gate"' in page)
        status, _, _ = api("/fleet/limits.json?since=2999-01-01")
        check("fleet download of an empty set: 404", status == 404, status)

        # ---- verdicts over machines: one passing upload does not hide the regression ----
        h200 = fleet_scenario.DEVICE_KEY
        status, _, body = api("/api/v1/devices/" + h200)
        history = json.loads(body)
        newest = history["drivers"][0] if status == 200 else {}
        check("device: driver 590.44.01 as NVIDIA writes it, over its 3 machines",
              newest.get("driverVersion") == fleet_scenario.NEW_DRIVER and newest.get("machines") == 3, newest)
        change = (newest.get("changes") or [{}])[0]
        check("device: vrs.attachment regressed from pass to flaky, failing on 2 of 3 machines (named)",
              newest.get("regressions") == 1 and change.get("test") == "vrs.attachment" and change.get("before") == "pass" and
              change.get("after") == "flaky" and change.get("afterDetail", "").startswith("fail on 2 of 3 machines: farm-h200-01, farm-h200-02"),
              change)
        check("device: the previous driver passed everywhere", history["drivers"][1]["driverVersion"] == fleet_scenario.OLD_DRIVER and
              history["drivers"][1]["failing"] + history["drivers"][1]["flaky"] == 0, history["drivers"][1])
        status, _, body = api("/api/v1/devices?q=H200")
        row = next((d for d in json.loads(body)["devices"] if d["deviceKey"] == h200), {})
        check("devices: the H200 row counts the regression and the failing test", row.get("regressions") == 1 and row.get("flaky") == 1 and
              json.loads(body)["devicesRegressed"] >= 1, row)
        status, _, page = api("/")
        check("devices page: a regressions column and a counted summary, no '1 regressions'",
              b"<th>regressions</th>" in page and b"regressed</a> on their newest" in page and b"1 regressions" not in page)
        status, _, body = api("/api/v1/regressions?newest=1")
        regressions = json.loads(body)
        found = next((g for g in regressions["regressions"] if g["deviceKey"] == h200), {})
        check("/regressions: the H200 on 590.44.01, with the test and its machines", found.get("driverVersion") == fleet_scenario.NEW_DRIVER and
              found["tests"][0]["test"] == "vrs.attachment" and "farm-h200-02" in found["tests"][0]["afterDetail"], found)
        status, _, body = api("/api/v1/capabilities/test:vrs.attachment")
        coverage = json.loads(body)
        check("coverage: the H200 declares vrs.attachment but fails it (flaky over its machines)",
              any(d["deviceKey"] == h200 and d["verdict"] == "flaky" for d in coverage["declaredButFailing"]), coverage.get("declaredButFailing"))
        status, _, body = api("/api/v1/fleet?requirements=" + urllib.parse.quote("vrs.* pass or unsupported\n"))
        gate = json.loads(body)
        member = next((m for m in gate["members"] if m["deviceKey"] == h200), {})
        check("fleet gate: the H200 fails vrs.attachment, the reason names the machines", member.get("pass") is False and
              any("vrs.attachment is flaky" in f and "farm-h200-01" in f for f in member.get("failures", [])), member)
        check("fleet gate: failing devices first", [m["pass"] for m in gate["members"]] == sorted(m["pass"] for m in gate["members"]))
        status, _, body = api("/api/v1/reports/%s" % sql("SELECT MAX(id) FROM reports WHERE host = 'farm-h200-03'"))
        passing = json.loads(body)
        test = next(t for t in passing["devices"][0]["smoke"] if t["id"] == "vrs.attachment")
        check("the passing machine's report shows the fleet's verdict beside its own", test["status"] == "pass" and
              test["fleet"]["verdict"] == "flaky" and test["change"] == "regression", test.get("fleet"))

        # ---- artifacts: stored, served, refused when wrong ----
        failing_id = sql("SELECT MIN(id) FROM reports WHERE host = 'farm-h200-01' AND created LIKE '2026-12-03%'")
        sha = fleet_scenario.failing_artifact(runs)
        status, _, body = api("/api/v1/reports/" + failing_id)
        check("report: the failing map's artifact is uploaded", json.loads(body)["artifacts"].get(sha) is True, body[-300:])
        status, headers, image = api("/artifacts/%s.png" % sha)
        check("artifact served as image/png, cached as immutable", status == 200 and headers.get("Content-Type") == "image/png" and
              "immutable" in headers.get("Cache-Control", "") and hashlib.sha256(image).hexdigest() == sha, (status, headers))
        status, _, _ = request(server.port, "GET", "/artifacts/%s.png" % sha,
                               headers={"Authorization": "Bearer " + token, "If-None-Match": headers.get("ETag", "")})
        check("artifact: 304 for the ETag a browser has", status == 304, status)
        status, _, _ = api("/artifacts/%s.png" % ("0" * 64))
        check("an artifact never uploaded: 404", status == 404, status)
        status, _, page = api("/reports/" + failing_id)
        check("report page: the histogram and the PNG inline", b'class="histogram"' in page and
              ('src="/artifacts/%s.png"' % sha).encode() in page and b'<details class="raw">' in page)
        key = sql("SELECT idempotency_key FROM reports WHERE id = %s" % failing_id)

        def put_artifact(name, data, token_value=token, report_key=key):
            return request(server.port, "PUT", "/api/v1/reports/%s/artifacts/%s" % (report_key, name), data,
                           {"Content-Type": "image/png", "Authorization": "Bearer " + token_value})[0]
        check("artifact upload again: 409", put_artifact(sha, image) == 409)
        check("artifact whose bytes do not hash to its name: 400", put_artifact(sha[:-1] + ("0" if sha[-1] != "0" else "1"), image) == 400)
        other = fleet_scenario.png_rgb(8, 8, (1, 2, 3))
        check("an artifact the report does not name: 422", put_artifact(hashlib.sha256(other).hexdigest(), other) == 422)
        check("an artifact for an unknown report: 404", put_artifact(sha, image, report_key="1" * 64) == 404)
        check("an artifact without a token: 401", put_artifact(sha, image, token_value="nope") == 401)
        check("not a PNG: 422", put_artifact(hashlib.sha256(b"GIF89a").hexdigest(), b"GIF89a") in (422,))
        announced = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        announced.sendall(("PUT /api/v1/reports/%s/artifacts/%s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
                           "Content-Length: %d\r\nExpect: 100-continue\r\n\r\n" % (key, sha, token, 4 * 1024 * 1024 + 1)).encode())
        answer = announced.recv(200)
        announced.close()
        check("an artifact announced over 4 MiB: 413 before it is sent", answer.startswith(b"HTTP/1.1 413"), answer[:40])

        # ---- machines: a view per host label; one whose newest report has no device says so ----
        status, _, body = api("/api/v1/machines")
        machines = {m["host"]: m for m in json.loads(body)["machines"]}
        check("machines: every host label, the one without a device first", "farm-h200-01" in machines and
              json.loads(body)["machines"][0]["host"] == "farm-h200-04", list(machines)[:5])
        status, _, page = api("/machines/farm-h200-04")
        check("machine page: no Vulkan device in its newest report", status == 200 and b"No Vulkan device" in page, status)
        status, _, body = api("/api/v1/machines/farm-h200-01")
        machine = json.loads(body)
        check("machine: its devices with the driver's verdict over all machines", machine["devices"][0]["deviceKey"] == h200 and
              machine["devices"][0]["driverMachines"] == 3 and machine["devices"][0]["driverFailing"] == 1, machine.get("devices"))
        status, _, _ = api("/machines/no-such-host")
        check("an unknown machine: 404", status == 404, status)

        # ---- the fleet page keeps the requirements on a typo ----
        status, _, page = api("/fleet?requirements=" + urllib.parse.quote("compute.* pas\n"))
        check("fleet page with a malformed requirement: 400, the text kept in the form and the error shown",
              status == 400 and b"compute.* pas" in page and b'class="error"' in page and b"<textarea" in page, status)
        status, _, page = api("/fleet?exclude_cpu=1")
        check("fleet limits as a table", status == 200 and b'id="fleet-limits"' in page and b"VkPhysicalDeviceLimits.maxComputeSharedMemorySize" in page)

        # ---- one machine with two GPUs of one deviceKey: each GPU counts ----
        twin = json.load(open(runs[0]))
        twin["host"] = "dgx-01"
        second = json.loads(json.dumps(twin["devices"][0]))
        second["index"] = 1
        test = next(t for t in second["smoke"] if t["id"] == "compute.1x1")
        test["status"], test["reason"] = "fail", "readback mismatch on the second GPU"
        for row in second["capabilities"]:
            if "compute.1x1" in row.get("tests", []):
                row["verified"] = "fail"
        twin["devices"].append(second)
        for device in twin["devices"]:
            device["identity"]["driverVersionRaw"] = (600 << 22) | (10 << 14) | (1 << 6)
        twin_path = os.path.join(work, "twin.json")
        json.dump(twin, open(twin_path, "w"))
        r = upload(twin_path)
        status, _, body = api("/api/v1/devices/" + h200)
        newest = json.loads(body)["drivers"][0]
        failing = next((t for t in newest["notPassing"] if t["test"] == "compute.1x1"), {})
        check("two GPUs of one kind in one machine: each counts (one fails: flaky, the GPU named)",
              r.returncode == 0 and newest["machines"] == 2 and failing.get("verdict") == "flaky" and
              failing.get("detail") == "fail on 1 of 2 machines: dgx-01 (GPU 1)", (r.returncode, r.stderr[-300:], newest.get("driverVersion"), newest.get("machines"), failing))

        if postgres:  # the database restarts under a running dashboard: it reconnects, nothing fails
            postgres.restart()
            status, _, body = api("/api/v1/devices")
            check("after a PostgreSQL restart, the next page works", status == 200 and json.loads(body)["total"] > 0, status)
            after_restart = json.load(open(lavapipe))
            after_restart["host"] = "after-restart"
            restart_path = os.path.join(work, "after-restart.json")
            json.dump(after_restart, open(restart_path, "w"))
            r = upload(restart_path)
            check("after a PostgreSQL restart, an upload is stored", r.returncode == 0 and "after-restart" in sql("SELECT host FROM reports"),
                  r.stdout + r.stderr)

        status, _, _ = request(server.port, "DELETE", "/", headers={"Authorization": "Bearer " + token})
        check("another method: 405", status == 405, status)

        vulkaninfo = open(os.path.join(a.fixtures, "vulkaninfo-nvidia-h200.json"), "rb").read()
        status, _, answer = post_report(server.port, vulkaninfo, token)
        stored_id = json.loads(answer).get("id") if status == 201 else None
        status_page, _, body = api("/api/v1/reports/%s" % stored_id) if stored_id else (0, {}, b"{}")
        check("a vulkaninfo --json document is stored as one declared-only device", status == 201 and status_page == 200 and
              not json.loads(body)["devices"][0]["smoke"], (status, status_page))

        # ---- a slow client holds only its own connection ----
        slow = socket.create_connection(("127.0.0.1", server.port))
        slow.sendall(b"POST /api/v1/reports HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n")
        started = time.time()
        status, _, _ = api("/api/v1/devices")
        check("a slow client does not block the others", status == 200 and time.time() - started < 5, time.time() - started)
        slow.close()

        server.stop()
        dashboards.remove(server)

        # ---- HTTPS, built in ----
        cert, key = os.path.join(work, "cert.pem"), os.path.join(work, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
        tls = Dashboard(a.dashboard, db, work, extra=["--tls-cert", cert, "--tls-key", key])
        dashboards.append(tls)
        check("with --tls-cert/--tls-key it serves https", tls.url.startswith("https://"), tls.url)
        tls_url = tls.url + "api/v1/reports"
        fresh = json.load(open(lavapipe))
        fresh["host"] = "tls-farm"
        fresh_path = os.path.join(work, "fresh.json")
        json.dump(fresh, open(fresh_path, "w"))
        before_tls = stored_reports()
        r = upload(fresh_path, url=tls_url, extra=["--ca-file", cert])
        r2 = subprocess.run([a.report_tool, "upload", "--url", tls_url, "--spool", spool, "--token-file", token_file, "--retries", "0",
                             hostile_path], capture_output=True, text=True)
        check("upload over HTTPS, the certificate verified with --ca-file", r.returncode == 0 and stored_reports() == before_tls + 1,
              r.stdout + r.stderr)
        check("upload over HTTPS without trusting the certificate: refused by the client", r2.returncode != 0, r2.stdout)
        context = ssl.create_default_context(cafile=cert)
        connection = http.client.HTTPSConnection("127.0.0.1", tls.port, context=context, timeout=30)
        connection.request("GET", "/api/v1/devices", headers={"Authorization": "Bearer " + token})
        response = connection.getresponse()
        check("pages over HTTPS", response.status == 200 and json.loads(response.read())["total"] > 0, response.status)
        connection.close()
        status, headers = sign_in(tls.port, token, context)
        check("signing in over HTTPS sets a Secure cookie, and HSTS", status == 303 and
              "; Secure" in headers.get("Set-Cookie", "") and
              headers.get("Strict-Transport-Security") == "max-age=31536000", headers)
        tls.stop()
        dashboards.remove(tls)
        r = run("serve", "--db", db, "--listen", "127.0.0.1:0", "--tls-cert", cert)
        check("--tls-cert without --tls-key: exit 2", r.returncode == 2 and "--tls-key" in r.stderr, r.stderr)

        # ---- schema versions ----
        sql_update = "UPDATE meta SET value = '99' WHERE key = 'schema_version'"
        if postgres:
            postgres.psql(sql_update)
        else:
            with sqlite3.connect(db) as c:
                c.execute(sql_update)
        r = run("serve", "--db", db, "--listen", "127.0.0.1:0")
        check("a database from a newer dashboard is refused", r.returncode == 1 and "schema version 99" in r.stderr, r.stderr)

        # ---- a version-1 database (before issue 30) is upgraded: its tables derived again ----
        if postgres:
            postgres.psql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
            old_db = db
        else:
            old_db = os.path.join(work, "version1.db")
        old_token = "pft_" + "7" * 64
        statements = version_1_database([lavapipe, nvidia], old_token, postgres is not None)
        if postgres:
            postgres.psql(";\n".join(statements))
        else:
            with sqlite3.connect(old_db) as c:
                for statement in statements:
                    c.execute(statement)
        r = run("token", "list", "--db", old_db)
        check("a version-1 database: upgraded on start", r.returncode == 0 and "old" in r.stdout, r.stderr)
        old_sql = (lambda q: postgres.psql(q)) if postgres else (lambda q: "\n".join(
            "|".join(str(v) for v in row) for row in sqlite3.connect(old_db).execute(q)))
        check("... to schema version 5", old_sql("SELECT value FROM meta WHERE key = 'schema_version'") == "5")
        check("... lavapipe's driver by its Mesa version now (its driverVersion is 0.0.1 for every Mesa)",
              old_sql("SELECT driver_version FROM drivers WHERE device_key = '10005-0000-mesa_llvmpipe'") == "Mesa 25.0.7",
              old_sql("SELECT driver_version FROM drivers"))
        check("... its entries, machines and verdicts derived from the stored reports",
              old_sql("SELECT COUNT(*) FROM entries") == "2" and old_sql("SELECT COUNT(*) FROM drivers") == "2" and
              old_sql("SELECT COUNT(*) FROM machines") == "1", old_sql("SELECT COUNT(*) FROM entries"))
        check("... limits named by struct now, the bare names gone",
              old_sql("SELECT COUNT(*) FROM current_items WHERE name = 'maxComputeSharedMemorySize'") == "0" and
              old_sql("SELECT COUNT(*) FROM current_items WHERE name = 'VkPhysicalDeviceLimits.maxComputeSharedMemorySize'") == "2")
        upgraded = Dashboard(a.dashboard, old_db, work)
        dashboards.append(upgraded)
        status, _, body = request(upgraded.port, "GET", "/api/v1/devices", headers={"Authorization": "Bearer " + old_token})
        check("... and served with its old token", status == 200 and json.loads(body)["total"] == 2, status)
        upgraded.stop()
        dashboards.remove(upgraded)
    finally:
        for d in dashboards:
            try:
                d.stop(signal.SIGKILL)
            except Exception:
                pass
        if postgres:
            postgres.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed" % (checks - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
