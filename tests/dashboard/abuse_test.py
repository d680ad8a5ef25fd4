#!/usr/bin/env python3
"""preflight-dashboard against the abuse of issue 44 (a SQLite file): slow clients dribbling their
headers while a normal client reads its pages in time. Every connection goes to 127.0.0.1; the
attackers' come from other loopback addresses (127.0.0.2 and up), as other hosts would. Prints
ok/FAIL per check; exits 1 on any failure."""
import argparse
import http.client
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

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

        # a body trickled a byte a second: closed at the request deadline (2 s after its headers)
        s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        s.sendall(b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                  b"Content-Length: 100\r\n\r\n")
        began, ended = time.monotonic(), None
        s.settimeout(0.2)
        while time.monotonic() - began < 6 and ended is None:
            try:
                s.send(b"t")
                if s.recv(4096) == b"":
                    ended = time.monotonic() - began
            except socket.timeout:
                pass
            except OSError:
                ended = time.monotonic() - began
            time.sleep(0.8)
        s.close()
        check("a body trickled a byte a second: closed at the request deadline (2 s)",
              ended is not None and 1.5 <= ended <= 3.5, ended)
    finally:
        server.stop()
    r = subprocess.run([binary, "serve", "--db", os.path.join(work, "x.db"), "--header-deadline", "0"],
                       capture_output=True, text=True, timeout=10)
    check("--header-deadline 0: exit 2 with usage", r.returncode == 2 and "deadline" in r.stderr, r.stderr)
    r = subprocess.run([binary, "serve", "--db", os.path.join(work, "x.db"), "--max-per-address", "x"],
                       capture_output=True, text=True, timeout=10)
    check("--max-per-address x: exit 2 with usage", r.returncode == 2 and "--max-per-address" in r.stderr, r.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dashboard", required=True)
    a = parser.parse_args()
    work = tempfile.mkdtemp(prefix="preflight-dashboard-abuse-")
    began = time.monotonic()
    try:
        slow_clients(a.dashboard, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%d checks, %d failed, %.1f s" % (checks, failures, time.monotonic() - began))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
