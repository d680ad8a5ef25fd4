#!/usr/bin/env python3
"""Every artifact a report's evidence names exists in DIR, is a PNG, and has the SHA-256 and size
the evidence gives. Usage: check_artifacts.py REPORT DIR [--at-least N]"""
import argparse
import hashlib
import json
import os
import sys

parser = argparse.ArgumentParser()
parser.add_argument("report")
parser.add_argument("folder")
parser.add_argument("--at-least", type=int, default=1)
args = parser.parse_args()
seen, bad = 0, 0
for device in json.load(open(args.report))["devices"]:
    for test in device["smoke"]:
        for a in test["evidence"].get("artifacts", []):
            path = os.path.join(args.folder, a["file"])
            try:
                data = open(path, "rb").read()
            except OSError as e:
                print(f"FAIL {test['id']}: {e}")
                bad += 1
                continue
            if data[:8] != b"\x89PNG\r\n\x1a\n" or hashlib.sha256(data).hexdigest() != a["sha256"] or len(data) != a["bytes"]:
                print(f"FAIL {test['id']}: {a['file']} is not the PNG the evidence names")
                bad += 1
            seen += 1
print(f"{seen} artifacts checked, {bad} wrong")
sys.exit(1 if bad or seen < args.at_least else 0)
