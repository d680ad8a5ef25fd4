#!/usr/bin/env python3
"""A dashboard stand-in for the upload tests, on loopback only.

Implements docs/upload-http.md: POST with Idempotency-Key; 201 stored, 409 already stored, 401
wrong token; PUT <path>/<key>/artifacts/<sha256> for a stored report's artifacts (201, 409 known,
400 when the bytes do not hash to the name, 404 for an unknown report). Behaviour switches make it
flaky on purpose:
  --token T          require "Authorization: Bearer T"
  --fail-first N     answer 503 to the first N requests
  --delay S          wait S seconds before answering (client timeouts)
  --store-then-drop  store the first report, then close the connection without answering
  --fail-artifacts N answer 503 to the first N artifact uploads
Writes its port to --port-file and, after each request, its state (requests, stored keys,
duplicates) to --state as JSON. Stops by itself after --lifetime seconds.
"""
import argparse
import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

args = None
lock = threading.Lock()
state = {"requests": 0, "stored": {}, "duplicates": 0, "unauthorized": 0, "failed_on_purpose": 0, "bad_key": 0,
         "artifacts": {}, "artifact_requests": 0}


def save():
    with open(args.state, "w") as f:
        json.dump(state, f)


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        key = self.headers.get("Idempotency-Key", "")
        with lock:
            state["requests"] += 1
            n = state["requests"]
        if args.delay:
            time.sleep(args.delay)
        with lock:
            if args.token is not None and self.headers.get("Authorization") != "Bearer " + args.token:
                state["unauthorized"] += 1
                save()
                return self.answer(401)
            if n <= args.fail_first:
                state["failed_on_purpose"] += 1
                save()
                return self.answer(503)
            if hashlib.sha256(body).hexdigest() != key:
                state["bad_key"] += 1
                save()
                return self.answer(400)
            if key in state["stored"]:
                state["duplicates"] += 1
                save()
                return self.answer(409)
            state["stored"][key] = len(body)
            save()
            if args.store_then_drop and len(state["stored"]) == 1:
                self.close_connection = True
                self.connection.close()
                return
        self.answer(201)

    def do_PUT(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        parts = self.path.rstrip("/").split("/")
        with lock:
            state["artifact_requests"] += 1
            n = state["artifact_requests"]
            if args.token is not None and self.headers.get("Authorization") != "Bearer " + args.token:
                state["unauthorized"] += 1
                save()
                return self.answer(401)
            if n <= args.fail_artifacts:
                save()
                return self.answer(503)
            if len(parts) < 4 or parts[-2] != "artifacts" or parts[-3] not in state["stored"]:
                save()
                return self.answer(404)
            if hashlib.sha256(body).hexdigest() != parts[-1]:
                save()
                return self.answer(400)
            known = parts[-1] in state["artifacts"]
            state["artifacts"][parts[-1]] = len(body)
            save()
        self.answer(409 if known else 201)

    def answer(self, code):
        self.send_response(code)
        self.send_header("Content-Length", "0")
        self.end_headers()


def main():
    global args
    p = argparse.ArgumentParser()
    p.add_argument("--port-file", required=True)
    p.add_argument("--state", required=True)
    p.add_argument("--token")
    p.add_argument("--fail-first", type=int, default=0)
    p.add_argument("--delay", type=float, default=0)
    p.add_argument("--store-then-drop", action="store_true")
    p.add_argument("--fail-artifacts", type=int, default=0)
    p.add_argument("--lifetime", type=float, default=60)
    args = p.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    save()
    with open(args.port_file, "w") as f:
        f.write(str(server.server_address[1]))
    threading.Timer(args.lifetime, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
