#!/usr/bin/env python3
"""preflight-dashboard at scale, on this machine: synthesises N reports from the two real
fixtures (synth_reports.py: 1000 devices on 10 machines, 10 driver versions rolled out in turn), loads them with
`preflight-dashboard import` in batches, uploads a further sample over HTTP with the real
client (two clients at once) and another from 4 connections without the client's own checks,
then measures p50/p95 latency of the pages the issue names at that
size, and the database bytes per report. SQLite and/or PostgreSQL. Prints a Markdown table.

  python3 bench/dashboard/dashboard_bench.py --build build [--reports 100000] [--backend sqlite|postgres|both]
"""
import argparse
import concurrent.futures
import hashlib
import http.client
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "tests", "dashboard"))
from postgres_server import PostgresServer  # noqa: E402

FIXTURES = [os.path.join(root, "tests", "fixtures", "probe-nvidia-h200.report.json"),
            os.path.join(root, "tests", "fixtures", "probe-lavapipe.report.json")]


def synth(out, start, count, devices, versions):
    shutil.rmtree(out, ignore_errors=True)
    args = [sys.executable, os.path.join(here, "synth_reports.py"), "--start", str(start), "--count", str(count),
            "--devices", str(devices), "--versions", str(versions), "--out", out]
    for f in FIXTURES:
        args += ["--from", f]
    subprocess.run(args, check=True)
    return sorted(os.path.join(out, f) for f in os.listdir(out))


def get(port, path):
    started = time.perf_counter()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    c.request("GET", path)
    r = c.getresponse()
    body = r.read()
    c.close()
    if r.status != 200:
        raise RuntimeError("%s: %d %s" % (path, r.status, body[:200]))
    return (time.perf_counter() - started) * 1000.0


def post(port, body, token):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    c.request("POST", "/api/v1/reports", body=body, headers={"Content-Type": "application/json", "Authorization": "Bearer " + token,
                                                               "Idempotency-Key": hashlib.sha256(body).hexdigest()})
    status = c.getresponse().status
    c.close()
    return status


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100.0 * (len(values) - 1))))]


def run_backend(backend, a, work):
    dashboard = os.path.join(a.build, "reports", "dashboard", "preflight-dashboard")
    client = os.path.join(a.build, "reports", "preflight-report")
    postgres = None
    if backend == "postgres":
        postgres = PostgresServer()
        db = postgres.url
    else:
        db = os.path.join(work, "bench.db")
    result = {"backend": backend, "reports": a.reports}
    import_seconds = 0.0
    batch_dir = os.path.join(work, "batch")
    for start in range(0, a.reports, a.batch):
        files = synth(batch_dir, start, min(a.batch, a.reports - start), a.devices, a.versions)
        t = time.perf_counter()
        r = subprocess.run([dashboard, "import", "--db", db] + files, capture_output=True, text=True)
        import_seconds += time.perf_counter() - t
        if r.returncode != 0:
            raise RuntimeError(r.stderr[-500:])
        print("%s: %d reports imported, %.0f/s so far" % (backend, start + len(files), (start + len(files)) / import_seconds),
              file=sys.stderr)
    result["import_rate"] = a.reports / import_seconds
    token = subprocess.run([dashboard, "token", "add", "bench", "--db", db], capture_output=True, text=True, check=True).stdout.strip()
    token_file = os.path.join(work, "token")
    open(token_file, "w").write(token)
    server = subprocess.Popen([dashboard, "serve", "--db", db, "--listen", "127.0.0.1:0", "--public-read", "--quiet"],
                              stdout=subprocess.PIPE, text=True)
    port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
    try:
        # the uploads continue the rollout: the next driver version (index a.reports starts it), as a farm's new reports do
        files = synth(batch_dir, a.reports, a.http_sample, a.devices, a.versions + 1)
        halves = [files[0::2], files[1::2]]
        t = time.perf_counter()
        clients = [subprocess.Popen([client, "upload", "--url", "http://127.0.0.1:%d/api/v1/reports" % port, "--token-file", token_file,
                                     "--spool", os.path.join(work, "spool%d" % i)] + half, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL) for i, half in enumerate(halves)]
        codes = [c.wait() for c in clients]
        if any(codes):
            raise RuntimeError("upload exit codes %s" % codes)
        result["http_rate"] = len(files) / (time.perf_counter() - t)
        # the server alone: 4 connections posting reports synthesised beforehand, no client-side check
        key = json.load(open(files[0]))["devices"][0]["identity"]["deviceKey"]
        raw = synth(os.path.join(work, "raw"), a.reports + a.http_sample, a.http_sample, a.devices, a.versions + 1)
        bodies = [open(f, "rb").read() for f in raw]
        t = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            statuses = list(pool.map(lambda b: post(port, b, token), bodies))
        if any(s != 201 for s in statuses):
            raise RuntimeError("raw uploads: %s" % sorted(set(statuses)))
        result["raw_rate"] = len(bodies) / (time.perf_counter() - t)
        print("%s: HTTP %.0f/s with the client, %.0f/s from 4 connections" % (backend, result["http_rate"], result["raw_rate"]),
              file=sys.stderr)
        ids = json.loads(urlget(port, "/api/v1/devices?q=%23" + "7"))["devices"][:8]
        compare = "/compare?" + "&".join("r=%d" % d["newestReport"] for d in ids)
        history = json.loads(urlget(port, "/api/v1/devices/" + key))
        drivers = "/compare?differ=1&" + "&".join("d=%s%%40%d" % (key, d["driverRaw"]) for d in history["drivers"][:2])
        report = "/reports/%d" % history["drivers"][0]["newestReport"]
        requirements = "/fleet?exclude_cpu=1&requirements=compute.%2A%20pass%0AmaxComputeSharedMemorySize%20%3E%3D%2049152"
        # (name, path, requests): the fleet gate reads every device's newest report, so fewer of it
        gate_requests = max(3, a.requests // 8)
        pages = [("devices page /", "/", a.requests), ("regressions /regressions", "/regressions", a.requests),
                 ("one item /capabilities/extension:VK_KHR_swapchain", "/capabilities/extension:VK_KHR_swapchain", a.requests),
                 ("coverage listing /capabilities", "/capabilities", a.requests),
                 ("device history /devices/KEY", "/devices/" + key, a.requests), ("a report page /reports/ID", report, a.requests),
                 ("a machine /machines/farm-003", "/machines/farm-003", a.requests),
                 ("compare of 8 reports", compare, a.requests), ("compare of 2 drivers, only differences", drivers, a.requests),
                 ("compare picker /compare", "/compare", a.requests),
                 ("fleet gate /fleet?requirements= (%d requests)" % gate_requests, requirements, gate_requests)]
        result["latency"] = {}
        for name, path, count in pages:
            get(port, path)  # warm
            times = [get(port, path) for _ in range(count)]
            result["latency"][name] = (percentile(times, 50), percentile(times, 95))
    finally:
        server.terminate()
        server.wait()
    if postgres:
        size = int(postgres.psql("SELECT pg_database_size('dashboard')"))
        postgres.stop()
    else:
        with sqlite3.connect(db) as c:
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = os.path.getsize(db)
    result["bytes_per_report"] = size / (a.reports + 2 * a.http_sample)
    return result


def urlget(port, path):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    c.request("GET", path)
    body = c.getresponse().read()
    c.close()
    return body


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", required=True)
    p.add_argument("--reports", type=int, default=100000)
    p.add_argument("--devices", type=int, default=1000)
    p.add_argument("--versions", type=int, default=10)
    p.add_argument("--batch", type=int, default=2000)
    p.add_argument("--http-sample", type=int, default=2000)
    p.add_argument("--requests", type=int, default=40)
    p.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="preflight-dashboard-bench-")
    try:
        results = [run_backend(b, a, work) for b in (["sqlite", "postgres"] if a.backend == "both" else [a.backend])]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("| %s |" % " | ".join(["measure"] + [r["backend"] for r in results]))
    print("|" + "---|" * (len(results) + 1))
    print("| reports stored | %s |" % " | ".join("%d" % (r["reports"] + 2 * a.http_sample) for r in results))
    print("| ingest through `import` (reports/s) | %s |" % " | ".join("%.0f" % r["import_rate"] for r in results))
    print("| ingest over HTTP, 2 `preflight-report upload` clients (reports/s) | %s |" % " | ".join("%.0f" % r["http_rate"] for r in results))
    print("| ingest over HTTP, 4 connections posting (reports/s) | %s |" % " | ".join("%.0f" % r["raw_rate"] for r in results))
    for name in results[0]["latency"]:
        print("| %s p50 / p95 (ms) | %s |" % (name, " | ".join("%.1f / %.1f" % r["latency"][name] for r in results)))
    print("| database bytes per report | %s |" % " | ".join("%.0f" % r["bytes_per_report"] for r in results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
