"""Headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe), with
the standard library only: open a page at a window size, wait for it to load, evaluate script in
it (DevTools evaluation is not subject to the page's Content-Security-Policy, the page's own
script is), click, read the console and security log, take a screenshot."""
import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time


class BrowserError(RuntimeError):
    pass


class Browser:
    def __init__(self, width=1400, height=900, timeout=60):
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium is None:
            raise BrowserError("chromium is not installed (scripts/setup.sh --tests installs it)")
        self.timeout, self.width, self.height = timeout, width, height
        self.profile = tempfile.mkdtemp(prefix="preflight-chromium-")
        read_end, self.to_browser = os.pipe()
        self.from_browser, write_end = os.pipe()
        # above 4, so that placing them on 3 and 4 in the child never meets one of them there
        to_browser_read, from_browser_write = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in
                                               (read_end, write_end)]
        os.close(read_end)
        os.close(write_end)

        def on_fds_3_and_4():  # the protocol's pipe: the browser reads fd 3, writes fd 4
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
             "--window-size=%d,%d" % (width, height), "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=False,
            preexec_fn=on_fds_3_and_4)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer, self.next_id, self.events, self.session = b"", 0, [], None
        self.log = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page.enable", "Runtime.enable", "Log.enable"):
            self.call(domain)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise BrowserError("no answer from chromium within %d s" % self.timeout)
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise BrowserError("chromium closed the protocol pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def _note(self, message):
        method = message.get("method", "")
        params = message.get("params", {})
        if method == "Log.entryAdded":
            self.log.append(params["entry"].get("text", ""))
        elif method == "Runtime.consoleAPICalled":
            self.log.append(" ".join(str(a.get("value", "")) for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            self.log.append("exception: " + json.dumps(params.get("exceptionDetails", {}))[:300])
        self.events.append(message)

    def call(self, method, params=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + self.timeout
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise BrowserError("%s: %s" % (method, answer["error"]))
                return answer.get("result", {})
            self._note(answer)

    def wait_for(self, method):
        deadline = time.time() + self.timeout
        for i, event in enumerate(self.events):
            if event.get("method") == method:
                del self.events[: i + 1]
                return event
        self.events.clear()
        while True:
            message = self._read_message(deadline)
            self._note(message)
            if message.get("method") == method:
                self.events.clear()
                return message

    def open(self, url):
        """Loads `url` and waits for its load event."""
        self.events.clear()
        self.call("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise BrowserError("script failed: %s" % result["exceptionDetails"].get("text"))
        return result.get("result", {}).get("value")

    def click_and_wait(self, selector):
        """Clicks the element (a link or a button that submits) and waits for the page it leads to."""
        self.events.clear()
        self.evaluate("document.querySelector(%s).click()" % json.dumps(selector))
        self.wait_for("Page.loadEventFired")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)
