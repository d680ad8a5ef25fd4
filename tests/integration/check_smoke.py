#!/usr/bin/env python3
"""Assert smoke verdicts in a preflight report.

Usage: check_smoke.py REPORT [--expect ID=STATUS]... [--others STATUS] [--group GROUP] [--evidence]
  --expect ID=STATUS  the test ID must have STATUS on every device
  --others STATUS     every other test (of GROUP, if given) must have STATUS
  --evidence          every test that ran (not unsupported/skipped) must carry non-empty evidence
Every test must also appear once in `capabilities`, with the same verdict. Prints one line per
test; exit 1 on any mismatch.
"""
import json
import sys


def main(argv):
    args = argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    report = json.load(open(args.pop(0)))
    expect, others, group, evidence = {}, None, None, False
    while args:
        flag = args.pop(0)
        if flag == "--expect":
            test_id, status = args.pop(0).split("=", 1)
            expect[test_id] = status
        elif flag == "--others":
            others = args.pop(0)
        elif flag == "--group":
            group = args.pop(0)
        elif flag == "--evidence":
            evidence = True
        else:
            print("unknown argument " + flag, file=sys.stderr)
            return 2
    failures = 0
    seen = set()
    for device in report["devices"]:
        rows = {row["id"]: row for row in device["capabilities"]}
        for entry in device["smoke"]:
            test_id, status = entry["id"], entry["status"]
            seen.add(test_id)
            wanted = expect.get(test_id)
            if wanted is None and others is not None and (group is None or test_id.startswith(group + ".")):
                wanted = others
            problems = []
            if wanted is not None and status != wanted:
                problems.append("status %s, wanted %s (%s)" % (status, wanted, entry.get("reason")))
            if evidence and status not in ("unsupported", "skipped", "crashed", "timeout") and not entry["evidence"]:
                problems.append("no evidence")
            row = rows.get(test_id)
            if row is None or row["verified"] != status:
                problems.append("capabilities row missing or disagreeing: %s" % row)
            print("%s %-36s %s%s" % ("FAIL" if problems else "ok  ", test_id, status,
                                     ("  " + "; ".join(problems)) if problems else ""))
            failures += bool(problems)
    for test_id in expect:
        if test_id not in seen:
            print("FAIL %s is not in the report" % test_id)
            failures += 1
    print("%d passed, %d failed" % (len(seen) - failures if failures <= len(seen) else 0, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
