#!/usr/bin/env python3
"""preflight-dashboard against the abuse of issue 44 (a SQLite file): slow clients dribbling their
headers while a normal client reads its pages in time; artifacts that only look like PNGs, and the
quotas per report and per token (refused with a clear code, the database not grown); sign-in and
sign-out forms posted from another site (403) or from this one, and the cookies' flags behind a
TLS proxy and without; names longer than the Vulkan API allows refused (422), and bidirectional
and invisible characters shown as markers. Every connection goes to 127.0.0.1; the
attackers' come from other loopback addresses (127.0.0.2 and up), as other hosts would. Prints
ok/FAIL per check; exits 1 on any failure."""
import argparse
import copy
import hashlib
import http.client
import json
import os
import random
import re
import select
import shutil
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib

checks = failures = 0


def check(name, condition, detail=""):
    global checks, failures
    checks += 1
    if condition:
        print("ok   " + name)
    else:
        failures += 1
        print("FAIL " + name + (" (%s)" % (detail,) if detail != "" else ""))
    sys.stdout.flush()


class Dashboard:
    def __init__(self, binary, db, work, extra=()):
        args = [binary, "serve", "--db", db, "--listen", "127.0.0.1:0", "--quiet", *extra]
        self.log = open(os.path.join(work, "serve.log"), "a")
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        found = re.search(r"listening on (https?)://127\.0\.0\.1:(\d+)/", line)
        if not found:
            raise RuntimeError("the dashboard did not start: %r" % line)
        self.port = int(found.group(2))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)
        self.log.close()


def request(port, method, path, body=None, headers=None, timeout=10):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


# ---- slow clients ----

DRIBBLE = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: " + b"s" * 200


class Dribblers:
    """Connections that send one byte of a request's headers a second and never finish them. Each
    connection's end is timed: the server closing it, or refusing it at once."""

    def __init__(self, port, addresses, per_address):
        self.sockets, self.closed_at, self.start = [], {}, time.monotonic()
        for address in addresses:
            for _ in range(per_address):
                s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                s.bind((address, 0))
                s.settimeout(5)
                s.connect(("127.0.0.1", port))
                s.setblocking(False)
                self.sockets.append(s)
        self.stopping = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        sent = 0
        next_byte = time.monotonic()
        while not self.stopping:
            live = [s for s in self.sockets if s not in self.closed_at]
            if not live:
                return
            readable, _, _ = select.select(live, [], [], 0.05)
            for s in readable:
                try:
                    if s.recv(4096) == b"":
                        self.closed_at[s] = time.monotonic() - self.start
                except OSError:
                    self.closed_at[s] = time.monotonic() - self.start
            if time.monotonic() >= next_byte and sent < len(DRIBBLE):
                for s in live:
                    if s in self.closed_at:
                        continue
                    try:
                        s.send(DRIBBLE[sent:sent + 1])
                    except OSError:
                        self.closed_at[s] = time.monotonic() - self.start
                sent += 1
                next_byte += 1.0

    def open_count(self):
        return len(self.sockets) - len(self.closed_at)

    def finish(self):
        self.stopping = True
        self.thread.join(timeout=5)
        for s in self.sockets:
            s.close()


def normal_client(port, until, paths=("/healthz", "/")):
    """Reads the pages one after the other until `until`; returns (worst latency, statuses)."""
    worst, statuses = 0.0, []
    while time.monotonic() < until:
        for path in paths:
            began = time.monotonic()
            try:
                status = request(port, "GET", path, timeout=8)[0]
            except OSError as e:
                status = repr(e)
            worst = max(worst, time.monotonic() - began)
            statuses.append(status)
        time.sleep(0.2)
    return worst, statuses


def slow_clients(binary, work):
    deadline = 3.0
    server = Dashboard(binary, os.path.join(work, "slow.db"), work,
                       ["--public-read", "--max-per-address", "20", "--header-deadline", str(deadline),
                        "--request-deadline", "2"])
    try:
        # 300 connections from one address: 20 are served (and closed at their deadline), the rest refused at once
        dribblers = Dribblers(server.port, ["127.0.0.2"], 300)
        worst, statuses = normal_client(server.port, time.monotonic() + 1.5)
        open_early = dribblers.open_count()
        check("300 connections from one address: at most 20 held (--max-per-address 20)", open_early <= 20, open_early)
        more_worst, more_statuses = normal_client(server.port, dribblers.start + deadline + 2.5)
        worst, statuses = max(worst, more_worst), statuses + more_statuses
        check("one address's 300 slow connections: /healthz and / answered 200 throughout",
              statuses and all(s == 200 for s in statuses), [s for s in statuses if s != 200][:5])
        check("one address's 300 slow connections: every answer within 2 s", worst < 2.0, "%.2f s" % worst)
        held = sorted(t for t in dribblers.closed_at.values() if t > 1.0)
        check("the held ones are closed at the header deadline (3 s), though they send a byte a second",
              dribblers.open_count() == 0 and held and deadline - 0.5 <= held[0] and held[-1] <= deadline + 1.5,
              "open %d, closed at %s" % (dribblers.open_count(), held[:1] + held[-1:]))
        dribblers.finish()

        # 200 connections from 10 addresses, all within the limits: the deadline alone frees them
        dribblers = Dribblers(server.port, ["127.0.0.%d" % n for n in range(10, 20)], 20)
        worst, statuses = normal_client(server.port, time.monotonic() + 1.5)
        open_early = dribblers.open_count()
        check("200 connections from 10 addresses: all held while within their deadline", open_early == 200, open_early)
        more_worst, more_statuses = normal_client(server.port, dribblers.start + deadline + 2.5)
        worst, statuses = max(worst, more_worst), statuses + more_statuses
        check("200 slow connections: /healthz and / answered 200 in time (< 2 s)",
              statuses and all(s == 200 for s in statuses) and worst < 2.0,
              "%.2f s, %s" % (worst, [s for s in statuses if s != 200][:5]))
        closed = sorted(dribblers.closed_at.values())
        check("200 slow connections: every one closed at the header deadline",
              dribblers.open_count() == 0 and closed[0] >= deadline - 0.5 and closed[-1] <= deadline + 1.5,
              "open %d, closed from %s to %s" % (dribblers.open_count(), closed[:1], closed[-1:]))
        dribblers.finish()

        # a kept-alive connection: each request has its own deadline, counted from the previous response
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        statuses = []
        for _ in range(3):
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
            time.sleep(deadline * 0.6)
        check("a kept-alive connection with requests 1.8 s apart: all answered", statuses == [200, 200, 200], statuses)
        time.sleep(deadline + 0.5)
        try:
            connection.request("GET", "/healthz")
            idle_status = connection.getresponse().status
        except (OSError, http.client.HTTPException):
            idle_status = "closed"
        check("a kept-alive connection idle past the header deadline is closed", idle_status == "closed", idle_status)
        connection.close()

        # a body trickled a byte a second: closed at the request deadline (2 s after its headers), also
        # when the answer went out before the body (a sign-in that is not a form: 400 at once)
        for kind in ["application/x-www-form-urlencoded", "application/json"]:
            s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            s.sendall(b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + kind.encode() +
                      b"\r\nContent-Length: 100\r\n\r\n")
            began, ended = time.monotonic(), None
            s.settimeout(0.2)
            while time.monotonic() - began < 6 and ended is None:
                try:
                    s.send(b"t")
                    while s.recv(4096) == b"":
                        ended = time.monotonic() - began
                        break
                except socket.timeout:
                    pass
                except OSError:
                    ended = time.monotonic() - began
                time.sleep(0.8)
            s.close()
            # where the 400 went out before the body, the server may also close as soon as it has answered
            # (libmicrohttpd does when it cannot read the rest in time): freed sooner, never later
            earliest = 1.5 if kind == "application/x-www-form-urlencoded" else 0.0
            check("a body (%s) trickled a byte a second: closed by the request deadline (2 s)" % kind,
                  ended is not None and earliest <= ended <= 3.5, ended)

    finally:
        server.stop()
    # more slow connections than the server takes, from addresses within their limit, and a long
    # header deadline: the ones waiting longest for their headers go first, and a normal client gets in
    server = Dashboard(binary, os.path.join(work, "slow.db"), work,
                       ["--public-read", "--max-connections", "100", "--max-per-address", "30", "--header-deadline", "60"])
    try:
        dribblers = Dribblers(server.port, ["127.0.0.%d" % n for n in range(30, 36)], 25)
        time.sleep(0.5)
        worst, statuses = normal_client(server.port, time.monotonic() + 3.5)
        open_now = dribblers.open_count()
        check("150 slow connections, 100 at most (--max-connections 100), 60 s to send headers: "
              "/healthz and / answered 200 within 3 s all along",
              statuses and all(st == 200 for st in statuses) and worst < 3.0,
              "%.2f s, %s" % (worst, [st for st in statuses if st != 200][:5]))
        check("... the slow ones that waited longest closed to keep room: at most 7/8 of 100 still open",
              open_now <= 88, open_now)
        dribblers.finish()
    finally:
        server.stop()
    r = subprocess.run([binary, "serve", "--db", os.path.join(work, "x.db"), "--header-deadline", "0"],
                       capture_output=True, text=True, timeout=10)
    check("--header-deadline 0: exit 2 with usage", r.returncode == 2 and "deadline" in r.stderr, r.stderr)
    r = subprocess.run([binary, "serve", "--db", os.path.join(work, "x.db"), "--max-per-address", "x"],
                       capture_output=True, text=True, timeout=10)
    check("--max-per-address x: exit 2 with usage", r.returncode == 2 and "--max-per-address" in r.stderr, r.stderr)


# ---- artifacts ----

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, pixels):
    """An RGB PNG whose rows are `pixels` (width * 3 bytes each), filtered "none"."""
    rows = b"".join(b"\0" + pixels[y * width * 3:(y + 1) * width * 3] for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))


def report_naming(base, host, images):
    """The example report as `host` ran it, its first test with artifacts naming `images` instead."""
    report = copy.deepcopy(base)
    report["host"] = host
    test = next(t for t in report["devices"][0]["smoke"] if t.get("evidence", {}).get("artifacts"))
    test["evidence"]["artifacts"] = [{"name": "n%d" % i, "file": "f%d.png" % i, "sha256": hashlib.sha256(image).hexdigest(),
                                      "bytes": len(image)} for i, image in enumerate(images)]
    return json.dumps(report).encode()


def artifacts(binary, work, examples):
    db = os.path.join(work, "artifacts.db")
    token = subprocess.run([binary, "token", "add", "farm", "--db", db], capture_output=True, text=True).stdout.strip()
    server = Dashboard(binary, db, work, ["--token-artifact-quota", "1"])
    auth = {"Authorization": "Bearer " + token}
    base = json.load(open(os.path.join(examples, "nvidia-h200.report.json")))

    def upload(body):
        return request(server.port, "POST", "/api/v1/reports", body,
                       dict(auth, **{"Content-Type": "application/json",
                                     "Idempotency-Key": hashlib.sha256(body).hexdigest()}))[0]

    def put(body, image):
        status, _, answer = request(server.port, "PUT", "/api/v1/reports/%s/artifacts/%s" % (
            hashlib.sha256(body).hexdigest(), hashlib.sha256(image).hexdigest()), image,
            dict(auth, **{"Content-Type": "image/png"}))
        return status, answer.decode(errors="replace")

    def stored():
        files = [db, db + "-wal"]
        with sqlite3.connect(db) as c:
            rows = c.execute("SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM artifacts").fetchone()
        return rows, sum(os.path.getsize(f) for f in files if os.path.exists(f))

    try:
        tiny = [png(2, 2, bytes([i, 0, 0]) * 4) for i in range(65)]
        header_then_garbage = tiny[0][:33] + b"A" * 4000
        bad_crc = bytearray(tiny[1])
        bad_crc[45] ^= 0xFF
        bad_crc = bytes(bad_crc)
        trailing = tiny[2] + b"<script>"
        small = report_naming(base, "farm-small", tiny + [header_then_garbage, bad_crc, trailing])
        check("a report naming 68 artifacts: stored", upload(small) == 201)
        before = stored()
        for name, image, reason in [("signature and IHDR, then garbage", header_then_garbage, "runs past the end"),
                                    ("a bad CRC", bad_crc, "CRC mismatch"),
                                    ("bytes after IEND", trailing, "bytes after IEND")]:
            status, answer = put(small, image)
            check("a fake PNG (%s), named by the report: 422 saying why" % name,
                  status == 422 and "not a PNG image" in answer and reason in answer, (status, answer))
        statuses = [put(small, image)[0] for image in tiny[:64]]
        check("64 real PNGs the report names: 201 each", statuses == [201] * 64, statuses)
        between = stored()
        status, answer = put(small, tiny[64])
        check("the report's 65th artifact: 413, its quota named",
              status == 413 and "quota of 64 artifacts" in answer, (status, answer))
        check("fakes and the file over quota: nothing stored, the database file not grown",
              before[0] == (0, 0) and between[0][0] == 64 and stored() == between, (before, between, stored()))

        rng = random.Random(44)
        big = [png(256, 600, rng.randbytes(256 * 600 * 3)) for _ in range(3)]  # about 450 KiB each
        large = report_naming(base, "farm-large", big)
        check("a second report naming 3 large PNGs: stored", upload(large) == 201)
        statuses = [put(large, image)[0] for image in big[:2]]
        check("two large PNGs within the token's 1 MiB a day: 201", statuses == [201, 201], statuses)
        before = stored()
        status, answer = put(large, big[2])
        check("the token's next artifact past 1 MiB in 24 hours: 429 saying retry later",
              status == 429 and "in the last 24 hours" in answer and "retry later" in answer, (status, answer))
        check("past the token's quota: nothing stored, the database file not grown", stored() == before,
              (before, stored()))
    finally:
        server.stop()
    listing = subprocess.run([binary, "token", "list", "--db", db], capture_output=True, text=True).stdout
    check("token list counts the token's artifacts and bytes",
          re.search(r"^farm\t\S+\tartifacts 66, \d+ bytes \(last 24 hours: \d+ bytes\)$", listing, re.M), listing)


# ---- forms posted from another site ----

def sign_in_page(port):
    """GET /login: (the cookie the form token comes from, the form token)."""
    _, headers, page = request(port, "GET", "/login")
    token = re.search(rb'name="form_token" value="([0-9a-f]{64})"', page)
    return headers.get("Set-Cookie", "").split(";")[0], token.group(1).decode() if token else ""


def post_form(port, path, fields, cookies, origin=None, extra=None):
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": "; ".join(c for c in cookies if c)}
    if origin:
        headers["Origin"] = origin
    headers.update(extra or {})
    status, headers, page = request(port, "POST", path, urllib.parse.urlencode(fields), headers)
    return status, headers.get("Set-Cookie", ""), page


def cross_site(binary, work):
    db = os.path.join(work, "forms.db")
    token = subprocess.run([binary, "token", "add", "reader", "--db", db], capture_output=True, text=True).stdout.strip()
    server = Dashboard(binary, db, work)
    try:
        port, own = server.port, "http://127.0.0.1:%d" % server.port
        form_cookie, form_token = sign_in_page(port)
        check("the sign-in page: a form token and the HttpOnly, SameSite=Strict cookie it comes from",
              re.fullmatch(r"preflight_form=pff_[0-9a-f]{64}", form_cookie) and len(form_token) == 64, form_cookie)
        fields = {"token": token, "form_token": form_token}
        for name, origin, cookies, extra, posted in [
                ("from another site's page (Origin)", "https://evil.example", [form_cookie], None, fields),
                ("an Origin of null (a sandboxed page)", "null", [form_cookie], None, fields),
                ("Sec-Fetch-Site: cross-site", None, [form_cookie], {"Sec-Fetch-Site": "cross-site"}, fields),
                ("from another site's page (Referer)", None, [form_cookie], {"Referer": "https://evil.example/x"}, fields),
                ("without the form's cookie (SameSite keeps it from other sites)", own, [], None, fields),
                ("without the form token", own, [form_cookie], None, {"token": token})]:
            status, cookie, page = post_form(port, "/login", posted, cookies, origin, extra)
            check("sign-in %s: 403, no session" % name, status == 403 and "preflight_session" not in cookie and
                  b"did not come from this dashboard" in page, (status, cookie))
        status, cookie, _ = post_form(port, "/login", fields, [form_cookie], own, {"Sec-Fetch-Site": "same-origin"})
        check("sign-in from this dashboard's form: 303 and a session cookie, HttpOnly, SameSite=Strict, not Secure "
              "over plain HTTP", status == 303 and re.match(r"preflight_session=pfs_[0-9a-f]{64};", cookie) and
              "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" not in cookie, (status, cookie))
        session = cookie.split(";")[0]
        status, headers, page = request(port, "GET", "/", headers={"Cookie": session})
        logout = re.search(rb'action="/logout"><input type="hidden" name="form_token" value="([0-9a-f]{64})"', page)
        check("a page signed in: the sign-out form carries its token; no HSTS over plain HTTP",
              status == 200 and logout and "Strict-Transport-Security" not in headers, status)
        logout_token = logout.group(1).decode() if logout else ""
        for name, origin, posted in [("from another site's page", "https://evil.example", {"form_token": logout_token}),
                                     ("without the form token", own, {})]:
            status, _, _ = post_form(port, "/logout", posted, [session], origin)
            still = request(port, "GET", "/", headers={"Cookie": session})[0]
            check("sign-out %s: 403, the session still reads" % name, status == 403 and still == 200, (status, still))
        status, cookie, _ = post_form(port, "/logout", {"form_token": logout_token}, [session], own)
        after = request(port, "GET", "/", headers={"Cookie": session})[0]
        check("sign-out from this dashboard's page: 303, the session ended", status == 303 and "Max-Age=0" in cookie and
              after == 401, (status, cookie, after))
        status, _, _ = request(port, "POST", "/api/v1/reports", b"{}", {
            "Authorization": "Bearer " + token, "Origin": "https://evil.example",
            "Idempotency-Key": hashlib.sha256(b"{}").hexdigest(), "Content-Type": "application/json"})
        check("an upload with a bearer token is not a form: no origin check (422 for the empty report)", status == 422, status)
    finally:
        server.stop()

    # behind a TLS proxy: told by --behind-tls, or by an https --public-url
    for flags, origin_of in [(["--behind-tls"], lambda port: "https://127.0.0.1:%d" % port),
                             (["--public-url", "https://dash.example"], lambda port: "https://dash.example")]:
        server = Dashboard(binary, db, work, flags)
        try:
            form_cookie, form_token = sign_in_page(server.port)
            fields = {"token": token, "form_token": form_token}
            status, cookie, _ = post_form(server.port, "/login", fields, [form_cookie], "http://127.0.0.1:%d" % server.port)
            check("%s: a form posted from the plain-HTTP origin: 403" % flags[0], status == 403, status)
            status, cookie, _ = post_form(server.port, "/login", fields, [form_cookie], origin_of(server.port))
            check("%s: signing in from %s sets a Secure session cookie" % (flags[0], origin_of(server.port)),
                  status == 303 and re.match(r"preflight_session=pfs_[0-9a-f]{64};.*; Secure", cookie), (status, cookie))
            check("%s: the form's cookie is Secure too" % flags[0], form_cookie and
                  "Secure" in request(server.port, "GET", "/login")[1].get("Set-Cookie", ""))
        finally:
            server.stop()
    r = subprocess.run([binary, "serve", "--db", db, "--public-url", "dash.example"], capture_output=True, text=True,
                       timeout=10)
    check("--public-url without a scheme: exit 2", r.returncode == 2 and "--public-url" in r.stderr, r.stderr)


# ---- names ----

def names(binary, work, examples):
    db = os.path.join(work, "names.db")
    token = subprocess.run([binary, "token", "add", "farm", "--db", db], capture_output=True, text=True).stdout.strip()
    server = Dashboard(binary, db, work, ["--public-read"])
    base = json.load(open(os.path.join(examples, "nvidia-h200.report.json")))

    def upload(report):
        body = json.dumps(report).encode()
        status, _, answer = request(server.port, "POST", "/api/v1/reports", body, {
            "Authorization": "Bearer " + token, "Content-Type": "application/json",
            "Idempotency-Key": hashlib.sha256(body).hexdigest()})
        return status, answer.decode(errors="replace")

    def stored():
        with sqlite3.connect(db) as c:
            return c.execute("SELECT COUNT(*) FROM reports").fetchone()[0]

    def changed(host, where, value):
        report = copy.deepcopy(base)
        report["host"] = host
        target = report
        for key in where[:-1]:
            target = target[key]
        target[where[-1]] = value
        return report

    try:
        identity = ["devices", 0, "identity"]
        for name, where, value, said in [
                ("a 10 kB deviceName", identity + ["deviceName"], "N" * 10240, "deviceName: 10240 bytes (at most 255"),
                ("a 256-byte driverInfo", identity + ["driverInfo"], "i" * 256, "driverInfo: 256 bytes (at most 255"),
                ("a 300-byte driverName in the declared properties",
                 ["devices", 0, "declared", "properties", "VkPhysicalDeviceDriverProperties", "driverName"], "d" * 300,
                 "driverName: 300 bytes"),
                ("a 1 kB host", ["host"], "h" * 1024, "host: 1024 bytes"),
                ("a 20 kB smoke reason", ["devices", 0, "smoke", 0, "reason"], "r" * 20000,
                 "reason: 20000 bytes (at most 16384)")]:
            before = stored()
            status, answer = upload(changed("names-%d" % len(value), where, value))
            check("%s: 422 naming it, nothing stored" % name, status == 422 and said in answer and stored() == before,
                  (status, answer[:200]))
        status, answer = upload(changed("names-255", identity + ["deviceName"], "N" * 255))
        check("a 255-byte deviceName (the API's char[256]): stored", status == 201, (status, answer[:200]))

        spoof = changed("farm-\u2066rtl\u2069", identity + ["deviceName"], "NVIDIA H200 \u202egnp.exe\u200b")
        status, answer = upload(spoof)
        check("a name with a right-to-left override: stored", status == 201, (status, answer[:200]))
        status, _, page = request(server.port, "GET", "/")
        check("devices page: the override and the zero-width space shown as <U+202E>, <U+200B>, never as themselves",
              status == 200 and "NVIDIA H200 &lt;U+202E&gt;gnp.exe&lt;U+200B&gt;".encode() in page and
              "\u202e".encode() not in page and "\u200b".encode() not in page, status)
        status, _, page = request(server.port, "GET", "/machines")
        check("machines page: the host's isolates shown as <U+2066>, <U+2069>",
              status == 200 and "farm-&lt;U+2066&gt;rtl&lt;U+2069&gt;".encode() in page and
              "\u2066".encode() not in page, status)
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dashboard", required=True)
    parser.add_argument("--examples", required=True, help="docs/examples (the H200 report)")
    a = parser.parse_args()
    work = tempfile.mkdtemp(prefix="preflight-dashboard-abuse-")
    began = time.monotonic()
    try:
        artifacts(a.dashboard, work, a.examples)
        cross_site(a.dashboard, work)
        names(a.dashboard, work, a.examples)
        slow_clients(a.dashboard, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%d checks, %d failed, %.1f s" % (checks, failures, time.monotonic() - began))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
