#!/usr/bin/env python3
"""Summarize a probe report of an Amber corpus (the Vulkan CTS's external/vulkancts/data/vulkan/amber,
google/amber's tests/cases, a team's folder): verdicts by format (AmberScript: the file starts with
#!amber; VkScript: any other) and, for every file that did not pass, its verdict and reason, grouped
so a tool limit reads apart from a device failure (docs/amber.md "Whose failure").

Usage: amber_corpus_summary.py REPORT CORPUS [--all]
  REPORT   the probe's report (preflight-probe --amber CORPUS --tests 'amber.*' --out REPORT)
  CORPUS   the folder given to --amber (to tell the formats apart and to name the files)
  --all    list every file that did not pass (default: up to 40 per verdict)
Exit 2 on bad usage or an unreadable report."""
import collections
import signal
import json
import os
import re
import sys


def test_id(relative):
    """The probe's id of a path below the --amber folder (amber/suite.c's rule)."""
    for extension in (".amber", ".vkscript"):
        if relative.endswith(extension):
            relative = relative[: -len(extension)]
    parts = re.split(r"[/.]", relative)
    return "amber." + ".".join(re.sub(r"[^A-Za-z0-9_-]", "_", p) or "_" for p in parts)


def formats(root):
    found = {}
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(".amber") or name.endswith(".vkscript"):
                path = os.path.join(folder, name)
                with open(path, "rb") as f:
                    kind = "AmberScript" if f.read(7) == b"#!amber" else "VkScript"
                found[test_id(os.path.relpath(path, root))] = (kind, os.path.relpath(path, root))
    return found


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a pager or head that stops reading ends it quietly
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2 or any(a not in ("--all",) for a in argv if a.startswith("--")):
        sys.stderr.write(__doc__)
        return 2
    try:
        report = json.load(open(args[0]))
    except (OSError, ValueError) as e:
        sys.stderr.write("amber_corpus_summary: %s: %s\n" % (args[0], e))
        return 2
    files = formats(args[1])
    if not files:
        sys.stderr.write("amber_corpus_summary: %s holds no .amber or .vkscript files\n" % args[1])
        return 2
    for device in report.get("devices", []):
        identity = device.get("identity", {})
        print("# %s, %s %s" % (identity.get("deviceName"), identity.get("driverName"), identity.get("driverInfo")))
        counts = collections.defaultdict(collections.Counter)
        misses = collections.defaultdict(list)
        seen = set()
        for t in device.get("smoke", []):
            if t["id"] not in files:
                continue
            seen.add(t["id"])
            kind, path = files[t["id"]]
            counts[kind][t["status"]] += 1
            counts["all"][t["status"]] += 1
            if t["status"] != "pass":
                misses[t["status"]].append((path, t.get("reason", "")))
        verdicts = ["pass", "fail", "unsupported", "skipped", "crashed", "timeout", "device_lost"]
        print("| format | files | " + " | ".join(verdicts) + " |")
        print("|---|---|" + "---|" * len(verdicts))
        for kind in ("AmberScript", "VkScript", "all"):
            c = counts[kind]
            print("| %s | %d | %s |" % (kind, sum(c.values()), " | ".join(str(c[v]) for v in verdicts)))
        missing = [files[i][1] for i in files if i not in seen]
        if missing:
            print("\nnot in the report (%d): %s" % (len(missing), ", ".join(sorted(missing)[:20])))
        for verdict in verdicts[1:]:
            if not misses[verdict]:
                continue
            print("\n## %s (%d)" % (verdict, len(misses[verdict])))
            shown = sorted(misses[verdict]) if "--all" in argv else sorted(misses[verdict])[:40]
            for path, reason in shown:
                reason = " ".join(reason.replace(os.path.abspath(args[1]) + "/", "").split())
                print("- `%s`: %s" % (path, reason[:300]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
