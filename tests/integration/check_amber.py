#!/usr/bin/env python3
"""Check a report's amber.* verdicts against a corpus of AmberScript and VkScript files (tests/amber).

Usage: check_amber.py REPORT CORPUS [--artifacts DIR]

The folder a file is in says its verdict: pass/ must pass, fail/ must fail with evidence of the
first mismatches, skip/ must be skipped (naming the file and line), syntax/ must fail with
file:line:column, broken/ must fail (data that is not SPIR-V, a draw past its data), tool/ must
be unsupported (a shader glslang or SPIRV-Tools refuses: the device was not asked), unsupported/
must be unsupported. A line `# expect-reason: REGEX` in a file must
match the verdict's reason. With --artifacts, every failed pixel probe must have written its PNG
into DIR with the SHA-256 its evidence gives. Every file of the corpus must be in the report, and
the report's capability row of each must agree. Exit 1 on any mismatch.
"""
import hashlib
import json
import os
import re
import sys

VERDICT_OF_FOLDER = {"pass": "pass", "fail": "fail", "skip": "skipped", "syntax": "fail",
                     "broken": "fail", "tool": "unsupported", "unsupported": "unsupported"}


def test_id(relative):
    """The probe's id of a path below the --amber folder (amber/suite.c's rule)."""
    for extension in (".amber", ".vkscript"):
        if relative.endswith(extension):
            relative = relative[: -len(extension)]
    parts = re.split(r"[/.]", relative)
    return "amber." + ".".join(re.sub(r"[^A-Za-z0-9_-]", "_", p) or "_" for p in parts)


def corpus_files(root):
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(".amber") or name.endswith(".vkscript"):
                path = os.path.join(folder, name)
                yield os.path.relpath(path, root), path


def check_failure_evidence(entry):
    problems = []
    failures = entry["evidence"].get("failures")
    if not failures:
        return ["a fail without failures in its evidence"]
    for f in failures:
        if "line" not in f or "summary" not in f:
            problems.append("a failure without line or summary: %s" % f)
        if "first_mismatches" in f and f.get("mismatches", 0) and not f["first_mismatches"]:
            problems.append("mismatches counted but none listed")
    return problems


def check_artifacts(entry, directory):
    problems = []
    for f in entry["evidence"].get("failures", []):
        if "rectangle" not in f:
            continue
        artifacts = f.get("artifacts", [])
        if not artifacts:
            problems.append("a failed pixel probe without its image")
        for a in artifacts:
            path = os.path.join(directory, a.get("file", ""))
            if not os.path.isfile(path):
                problems.append("artifact %s missing" % path)
                continue
            data = open(path, "rb").read()
            if not data.startswith(b"\x89PNG") or hashlib.sha256(data).hexdigest() != a.get("sha256"):
                problems.append("artifact %s is not the PNG its evidence names" % path)
    return problems


def main(argv):
    if len(argv) not in (3, 5):
        print(__doc__, file=sys.stderr)
        return 2
    report = json.load(open(argv[1]))
    root = argv[2]
    artifacts = argv[4] if len(argv) == 5 and argv[3] == "--artifacts" else None
    failures = checked = 0
    for device in report["devices"]:
        smoke = {e["id"]: e for e in device["smoke"]}
        rows = {r["id"]: r for r in device["capabilities"]}
        for relative, path in corpus_files(root):
            folder = relative.split(os.sep)[0]
            if folder not in VERDICT_OF_FOLDER:
                continue
            wanted = VERDICT_OF_FOLDER[folder]
            tid = test_id(relative)
            entry = smoke.get(tid)
            checked += 1
            if entry is None:
                print("FAIL %s (%s) is not in the report" % (tid, path))
                failures += 1
                continue
            status, reason = entry["status"], entry.get("reason") or ""
            problems = []
            if status != wanted:
                problems.append("status %s, wanted %s (%s)" % (status, wanted, reason))
            for pattern in re.findall(r"^# expect-reason: (.*)$", open(path).read(), re.M):
                if not re.search(pattern, reason):
                    problems.append("reason %r does not match %r" % (reason, pattern))
            name = os.path.basename(path)
            if folder == "syntax" and not re.search(re.escape(name) + r":\d+:\d+: ", reason):
                problems.append("no file:line:column in %r" % reason)
            if folder == "skip" and not re.search(re.escape(name) + r":\d+: ", reason):
                problems.append("no file:line in %r" % reason)
            if folder == "fail" and status == "fail":
                problems += check_failure_evidence(entry)
                if artifacts:
                    problems += check_artifacts(entry, artifacts)
            row = rows.get(tid)
            if row is None or row["verified"] != status or row["group"] != "amber":
                problems.append("capability row missing or disagreeing: %s" % row)
            print("%s %-48s %s%s" % ("FAIL" if problems else "ok  ", tid, status,
                                     ("  " + "; ".join(problems)) if problems else ""))
            failures += bool(problems)
    print("%d files checked, %d problems" % (checked, failures))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
