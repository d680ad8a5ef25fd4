#!/usr/bin/env python3
"""Every dashboard page in a real headless Chromium (DevTools protocol over a pipe), as a person
uses it: signing in with a token, the multi-machine regression of issue 30 (driver 590.44.01 of
an H200 fails vrs.attachment on two of three machines, the driver before passed everywhere) seen
on the devices page, /regressions, the device page, coverage and the fleet gate; a report page
with its VRS histogram and the PNG of the shading-rate map; the declared-values search inside
closed sections; picking 8 reports to compare; hostile report strings shown as text; another
site's page posting the sign-out and sign-in forms, refused; and on every
page: its script ran under the Content-Security-Policy, no CSP violation, one inline script, and
nothing wider than the 1,400 px window. Prints ok/FAIL per check; exits 1 on any failure."""
import argparse
import html
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import farm_fleet  # noqa: E402
import fleet_scenario  # noqa: E402
from cdp_browser import Browser, BrowserError  # noqa: E402

checks = failures = 0
WIDTH = 1400


def other_site(pages):
    """Another origin (127.0.0.1 on another port) serving `pages` ({"/path": html}): the page of a
    site that posts the dashboard's forms. Returns (its URL, its server)."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d" % site.server_address[1], site


def check(name, condition, detail=""):
    global checks, failures
    checks += 1
    if condition:
        print("ok   " + name)
    else:
        failures += 1
        print("FAIL %s %s" % (name, detail if detail != "" else ""))


def page_checks(browser, name):
    """What every page must be: ready (its script ran), one inline script, within the window."""
    state = browser.evaluate("({ready: document.body.dataset.ready, scripts: document.scripts.length,"
                             " width: document.documentElement.scrollWidth, window: window.innerWidth,"
                             " title: document.title})")
    check("%s: the page's script ran under its CSP" % name, state["ready"] == "1", state)
    check("%s: one inline script, the page's own" % name, state["scripts"] == 1, state["scripts"])
    check("%s: no wider than the %d px window (%d px)" % (name, WIDTH, state["width"]), state["width"] <= state["window"],
          state)
    return state


def text_of(browser, selector="body"):
    return browser.evaluate("(document.querySelector(%s) || {innerText: ''}).innerText" % json.dumps(selector))


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--dashboard", required=True)
    p.add_argument("--report-tool", required=True)
    p.add_argument("--fixtures", required=True)
    p.add_argument("--synth", required=True)
    p.add_argument("--examples", required=True)
    p.add_argument("--screenshots", help="keep a screenshot of each page here (the docs' pictures)")
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="preflight-browser-")
    server = browser = None
    try:
        db = os.path.join(work, "db")
        subprocess.run([sys.executable, a.synth, "--from", os.path.join(a.fixtures, "probe-nvidia-h200.report.json"),
                        "--from", os.path.join(a.fixtures, "probe-lavapipe.report.json"), "--count", "48", "--devices", "6",
                        "--versions", "4", "--hosts", "2", "--out", os.path.join(work, "synth")], check=True)
        hostile = json.load(open(os.path.join(a.fixtures, "probe-lavapipe.report.json")))
        # a right-to-left override (U+202E) would make "...<img ...>gnp.exe" display reversed
        hostile["devices"][0]["identity"]["deviceName"] = "<script>alert(1)</script><img src=x onerror=alert(4)>\u202egnp.exe"
        hostile["devices"][0]["identity"]["deviceKey"] = "10005-0bad-mesa_llvmpipe"
        hostile["devices"][0]["smoke"][0]["reason"] = "</td><script>alert(3)</script>"
        hostile["host"] = "\"><img src=x onerror=alert(2)>"
        json.dump(hostile, open(os.path.join(work, "hostile.json"), "w"))
        synth = sorted(os.path.join(work, "synth", f) for f in os.listdir(os.path.join(work, "synth")))
        r = subprocess.run([a.dashboard, "import", "--db", db, os.path.join(a.fixtures, "probe-lavapipe.report.json")] + synth +
                           [os.path.join(work, "hostile.json")], capture_output=True, text=True)
        check("import of the synthesised fleet", r.returncode == 0, r.stderr[-300:])
        token = subprocess.run([a.dashboard, "token", "add", "browser", "--db", db], capture_output=True, text=True).stdout.strip()
        open(os.path.join(work, "token"), "w").write(token)
        server = subprocess.Popen([a.dashboard, "serve", "--db", db, "--listen", "127.0.0.1:0", "--quiet"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        url = re.search(r"listening on (\S+)", server.stdout.readline()).group(1)
        runs = fleet_scenario.write(a.examples, os.path.join(work, "runs"))
        r = subprocess.run([a.report_tool, "upload", "--url", url + "api/v1/reports", "--token-file", os.path.join(work, "token"),
                            "--spool", os.path.join(work, "spool")] + runs, capture_output=True, text=True)
        check("the farm's six runs uploaded with their artifacts", r.returncode == 0 and r.stderr.count("11 of 11 artifacts sent") == 6,
              r.stderr[-400:])
        empty = json.load(open(runs[0]))
        empty["devices"], empty["host"] = [], "farm-h200-04"
        json.dump(empty, open(os.path.join(work, "empty.json"), "w"))
        subprocess.run([a.report_tool, "upload", "--url", url + "api/v1/reports", "--token-file", os.path.join(work, "token"),
                        "--spool", os.path.join(work, "spool"), os.path.join(work, "empty.json")], capture_output=True)

        browser = Browser(width=WIDTH, height=900)
        shots = a.screenshots

        def visit(name, path):
            browser.log.clear()
            browser.open(url + path.lstrip("/"))
            state = page_checks(browser, name)
            csp = [line for line in browser.log if "Content Security Policy" in line or "Refused to" in line]
            check("%s: no Content-Security-Policy violation" % name, not csp, csp[:2])
            if shots:
                browser.screenshot(os.path.join(shots, name + ".png"))
            return state

        # ---- signing in: a form, a session cookie, then the pages ----
        browser.open(url)
        check("without a session: the sign-in form", browser.evaluate("!!document.querySelector('form[action=\"/login\"]')"))
        browser.evaluate("document.querySelector('input[name=token]').value = %s" % json.dumps(token))
        browser.click_and_wait("form[action='/login'] button")
        check("signed in: the devices page, with a sign-out button",
              browser.evaluate("location.pathname === '/' && !!document.querySelector('form[action=\"/logout\"]')"))
        check("the session cookie is HttpOnly: no script sees it", browser.evaluate("document.cookie") == "")

        # ---- the regression, everywhere ----
        visit("devices", "/")
        row = browser.evaluate("[...document.querySelectorAll('#devices tbody tr')].filter(r => r.innerText.includes('NVIDIA H200') &&"
                               " !r.innerText.includes('#')).map(r => ({cls: r.className, cells: [...r.cells].map(c => c.innerText)}))[0]")
        check("/: the H200 row is marked, 3 machines, 1 failing (on some machines), 1 regression",
              row and row["cls"] == "regression" and row["cells"][4] == fleet_scenario.NEW_DRIVER and row["cells"][5] == "3" and
              row["cells"][6].startswith("1") and "on some machines" in row["cells"][6] and row["cells"][7] == "1", row)
        summary = text_of(browser, ".stats")
        check("/: the counts of devices failing and regressed", re.search(r"(\d+)\s*failing a test", summary) and
              int(re.search(r"(\d+)\s*regressed", summary).group(1)) >= 1, summary)
        check("/: no '1 regressions' anywhere", "1 regressions" not in text_of(browser))

        visit("regressions", "/regressions")
        body = text_of(browser, "#regressions")
        check("/regressions: the H200, 580.159.04 → 590.44.01, vrs.attachment failing on farm-h200-01 and -02",
              "NVIDIA H200" in body and "580.159.04 → 590.44.01" in body and "vrs.attachment" in body and
              "fail on 2 of 3 machines: farm-h200-01, farm-h200-02" in body, body[:400])

        visit("device", "/devices/" + fleet_scenario.DEVICE_KEY)
        warning = text_of(browser, ".warning")
        check("device page: driver 590.44.01 fails vrs.attachment on 2 of 3 machines, a regression from 580.159.04",
              "Driver 590.44.01 fails 1 test over its 3 machines, 1 regression from 580.159.04" in warning and
              "vrs.attachment" in warning and "fail on 2 of 3 machines" in warning, warning)
        transition = text_of(browser, "section.transition.regression")
        check("device page: the change pass → flaky listed first and highlighted",
              transition.startswith("580.159.04 → 590.44.01") and "vrs.attachment" in transition and "flaky" in transition, transition[:300])

        visit("coverage", "/capabilities?kind=test")
        row = browser.evaluate("[...document.querySelectorAll('#coverage tbody tr')].filter(r => r.cells[1].innerText === 'vrs.attachment')"
                               ".map(r => ({cls: r.className, failing: r.cells[4].innerText}))[0]")
        check("coverage: vrs.attachment declared but failing on a device", row and row["cls"] == "regression" and int(row["failing"]) >= 1, row)
        visit("coverage-item", "/capabilities/test:vrs.attachment")
        failing = text_of(browser, "table.failing")
        check("coverage: the H200 declares it and fails it (flaky over its machines)", "NVIDIA H200" in failing and "flaky" in failing,
              failing[:300])

        visit("fleet", "/fleet")
        browser.evaluate("document.querySelector('textarea[name=requirements]').value = 'vrs.* pass or unsupported'")
        browser.click_and_wait("form.requirements button")
        page_checks(browser, "fleet gated")
        if shots:
            browser.screenshot(os.path.join(shots, "fleet-gated.png"))
        first = browser.evaluate("[...document.querySelectorAll('#fleet tbody tr')].map(r => r.innerText)")
        h200 = [line for line in first if "NVIDIA H200" in line and "#" not in line]
        check("gate: the H200 fails, the reason names the machines", h200 and "vrs.attachment is flaky: fail on 2 of 3 machines" in h200[0],
              h200)
        check("gate: failing devices first", first and "\tfail\t" in first[0], first[:2])
        check("fleet: the limits as a table", browser.evaluate("document.querySelectorAll('#fleet-limits tbody tr').length") > 50)
        browser.open(url + "fleet?requirements=compute.*%20pas")
        check("gate with a typo: the requirements kept in the form, the error shown",
              browser.evaluate("document.querySelector('textarea').value") == "compute.* pas" and
              "line 1" in text_of(browser, ".error"), text_of(browser, ".error"))

        # ---- a report page a person reads: the VRS histogram and its PNG ----
        failing_id = api(url + "api/v1/machines/farm-h200-01", token)["newestReport"]
        sha = fleet_scenario.failing_artifact(runs)
        visit("report", "/reports/%d" % failing_id)
        histogram = browser.evaluate("[...document.querySelectorAll('#test-vrs\\\\.attachment .histogram tr')].map(r => r.innerText)")
        check("report: the VRS histogram, every texel at 1x1 where 2x2 was requested",
              histogram and histogram[0].startswith("1x1") and "4096" in histogram[0], histogram)
        image = browser.evaluate("(() => { const i = document.querySelector('#test-vrs\\\\.attachment img.artifact');"
                                 " return i && {src: i.getAttribute('src'), width: i.naturalWidth, complete: i.complete}; })()")
        check("report: its shading-rate map inline, the uploaded PNG (64x64)",
              image and image["src"] == "/artifacts/%s.png" % sha and image["width"] == 64 and image["complete"], image)
        attention = text_of(browser, "ul.attention")
        check("report: vrs.attachment first, failed and regressed, the machines named", attention.startswith("vrs.attachment") and
              "regressed" in attention and "farm-h200-02" in attention, attention[:300])
        check("report: the attention card first", browser.evaluate("document.querySelector('.cards .card').id") == "test-vrs.attachment")
        signals = browser.evaluate("[...document.querySelectorAll('#test-vrs\\\\.attachment .signals span')].map(s => s.innerText)")
        check("report: the six signals as marks", len(signals) == 6 and signals[0].endswith("declared") and signals[5].endswith("power"),
              signals)
        check("report: the raw JSON folded away", browser.evaluate(
            "!document.querySelector('#test-vrs\\\\.attachment details.raw').open"))
        if shots:
            browser.evaluate("document.querySelector('#test-vrs\\\\.attachment').scrollIntoView()")
            browser.screenshot(os.path.join(shots, "report-vrs.png"))
        # the declared values' search finds what lies in closed sections, and opens them
        browser.evaluate("(() => { const box = document.querySelector('input[data-filter^=\"#declared\"]');"
                         " box.value = 'maxComputeSharedMemorySize'; box.dispatchEvent(new Event('input')); })()")
        found = browser.evaluate("[...document.querySelectorAll('#declared0 tr')].filter(r => r.offsetParent !== null)"
                                 ".map(r => r.innerText)")
        check("report: the declared-values search finds a value in a closed section and opens it",
              len(found) == 1 and "maxComputeSharedMemorySize" in found[0] and "49152" in found[0], found)
        visit("report-hostile", "/reports/%d" % api(url + "api/v1/devices/10005-0bad-mesa_llvmpipe", token)["entries"][0]["report"])
        shown = text_of(browser)
        check("hostile: the device name is text", "<script>alert(1)</script><img src=x onerror=alert(4)>" in shown)
        check("hostile: its right-to-left override shown as <U+202E>, not obeyed",
              "onerror=alert(4)><U+202E>gnp.exe" in shown and "\u202e" not in shown)
        check("hostile: no element made of report text", browser.evaluate("document.querySelectorAll('img').length") == 0 and
              "</td><script>alert(3)</script>" in text_of(browser))

        # ---- compare: the nav opens a picker; 8 picked, the 9th refused ----
        visit("devices-again", "/")
        browser.click_and_wait("header a[href='/compare']")
        page_checks(browser, "compare picker")
        picked = browser.evaluate("(() => { const boxes = [...document.querySelectorAll('#pick-reports input[data-pick]')];"
                                  " boxes.slice(0, 8).forEach(b => b.click());"
                                  " return {checked: boxes.filter(b => b.checked).length, ninth: boxes[8].disabled,"
                                  " said: document.querySelector('.picked').innerText}; })()")
        check("compare picker: 8 picked, the 9th disabled", picked["checked"] == 8 and picked["ninth"] and picked["said"] == "8 of 8 picked",
              picked)
        browser.click_and_wait("form.picker button")
        state = page_checks(browser, "compare")
        columns = browser.evaluate("document.querySelector('table.compare thead tr').cells.length - 1")
        check("compare: 8 columns side by side", columns == 8 and
              len(re.findall(r"[?&]r=", browser.evaluate("location.search"))) == 8, columns)
        if shots:
            browser.screenshot(os.path.join(shots, "compare.png"))
        visit("compare-all-rows", "/compare?" + browser.evaluate("location.search").lstrip("?").replace("differ=1", "differ=0"))

        # ---- the other pages ----
        visit("grouped", "/?group=1")
        visit("machines", "/machines")
        visit("machine-without-device", "/machines/farm-h200-04")
        check("machine: no Vulkan device in its newest report", "No Vulkan device" in text_of(browser, ".no-device"))
        visit("limit", "/capabilities/limit:maxComputeSharedMemorySize")
        check("limit: the distribution drawn", browser.evaluate("!!document.querySelector('svg.distribution')"))
        visit("coverage-all", "/capabilities")
        browser.open(url + "capabilities/limit:maxTaskWorkGroupInvocations")
        check("an ambiguous bare name: both structs offered", len(browser.evaluate("[...document.querySelectorAll('ul.closest a')]"
                                                                                   ".map(a => a.innerText)")) == 2)
        browser.open(url + "?vendor=nvidia")
        check("filters as dropdowns, case ignored: vendor=nvidia selects NVIDIA",
              browser.evaluate("document.querySelector('select[name=vendor]').value") == "NVIDIA")

        # ---- issue 43's fleet on a second dashboard: what is not shippable first ----
        fleet_db = os.path.join(work, "fleet.db")
        paths = farm_fleet.write(a.examples, a.fixtures, os.path.join(work, "farm"))
        paths += farm_fleet.write_flakes(a.fixtures, os.path.join(work, "flakes"))
        r = subprocess.run([a.dashboard, "import", "--db", fleet_db] + paths, capture_output=True, text=True)
        check("import of issue 43's fleet", r.returncode == 0, r.stderr[-300:])
        fleet_server = subprocess.Popen([a.dashboard, "serve", "--db", fleet_db, "--listen", "127.0.0.1:0", "--quiet",
                                         "--public-read"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            fleet_url = re.search(r"listening on (\S+)", fleet_server.stdout.readline()).group(1)
            browser.log.clear()
            browser.open(fleet_url)
            page_checks(browser, "fleet of issue 43")
            if shots:
                browser.screenshot(os.path.join(shots, "not-shippable.png"))
            shippable = text_of(browser, "#not-shippable")
            check("/: not shippable first: the H200's vrs.attachment fails on 2 of 3 machines, named, not called flaky",
                  "vrs.attachment fails on 2 of 3 machines" in shippable and "farm-h200-01, farm-h200-02" in shippable and
                  "flaky" not in shippable, shippable[:600])
            check("/: lavapipe's compute.1x1 crashed on one machine, failed on the other: fails on every machine",
                  "Mesa 25.1.3" in shippable and "compute.1x1 fails on every machine (2)" in shippable, shippable[:900])
            look = text_of(browser, "#machines-to-look-at")
            check("/: the lost, stale and behind machines", "farm-h200-05 no Vulkan device" in look and "lp-03 stale" in look and
                  "Mesa 24.2.8 where the fleet has Mesa 25.1.3" in look, look[:600])
            rows = browser.evaluate("[...document.querySelectorAll('#devices tbody tr')].map(r => r.cells[1].innerText)")
            check("/: the failing devices' rows first", len(rows) == 3, rows)
            browser.open(fleet_url + "devices/" + farm_fleet.LAVAPIPE_KEY)
            page_checks(browser, "lavapipe by Mesa version")
            if shots:
                browser.screenshot(os.path.join(shots, "mesa-versions.png"))
            check("device page: lavapipe's drivers by Mesa version",
                  all(v in text_of(browser) for v in ("Mesa 24.2.8", "Mesa 25.0.7", "Mesa 25.1.3")), text_of(browser)[:400])
            browser.open(fleet_url + "reruns")
            page_checks(browser, "reruns")
            if shots:
                browser.screenshot(os.path.join(shots, "reruns.png"))
            check("/reruns: the tests to run again, in a table", "amber.compute_1x1" in text_of(browser, "#reruns"),
                  text_of(browser)[:300])
            browser.open(fleet_url + "devices/" + farm_fleet.FLAKY_KEY)
            page_checks(browser, "a flake much worse")
            if shots:
                browser.screenshot(os.path.join(shots, "measured.png"))
            box = text_of(browser, ".warning")
            check("device page: compute.buffer measured flaky, 80 % of 10 runs, and the regression from 10 %",
                  "flaky: failure rate 80 % of 10 runs (95 % interval 49-94 %)" in box and
                  "failure rate 10 % of 10 runs" in text_of(browser, "section.transition.regression"), box[:600])
        finally:
            fleet_server.terminate()
            fleet_server.wait()
        browser.open(url)
        # ---- another site's page posts the forms: refused, the session kept ----
        other_token = subprocess.run([a.dashboard, "token", "add", "other-site", "--db", db], capture_output=True,
                                     text=True).stdout.strip()
        form = '<form method="post" action="%s%s">%s<button>win a prize</button></form>'
        site_url, site = other_site({
            "/logout.html": form % (url, "logout", '<input type="hidden" name="form_token" value="%s">' % ("0" * 64)),
            "/login.html": form % (url, "login", '<input type="hidden" name="token" value="%s">' % other_token)})
        try:
            for name, page, path in [("sign-out", "/logout.html", "/logout"), ("sign-in", "/login.html", "/login")]:
                browser.open(site_url + page)
                browser.click_and_wait("button")
                check("another site's page posting the %s form: refused" % name,
                      browser.evaluate("location.pathname") == path and
                      "did not come from this dashboard" in text_of(browser), text_of(browser)[:200])
                browser.open(url)
                check("... and the browser is still signed in with its own session",
                      browser.evaluate("!!document.querySelector('form[action=\"/logout\"]')"))
        finally:
            site.shutdown()

        # ---- signing out ----
        browser.click_and_wait("form[action='/logout'] button")
        check("signed out: the sign-in form again", browser.evaluate("!!document.querySelector('form[action=\"/login\"]')"))
        browser.open(url)
        check("signed out: the pages need signing in again", browser.evaluate("!!document.querySelector('form[action=\"/login\"]')"))
    except BrowserError as e:
        check("the browser answered", False, e)
    finally:
        if browser:
            browser.close()
        if server:
            server.terminate()
            server.wait()
        shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed" % (checks - failures, failures))
    return 1 if failures else 0


def api(address, token):
    """A JSON document of the API (the pages' Content-Security-Policy lets no script fetch one)."""
    request = urllib.request.Request(address, headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


if __name__ == "__main__":
    sys.exit(main())
