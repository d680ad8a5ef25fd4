#!/usr/bin/env python3
"""Compare the smoke verdicts of two preflight reports of the same driver, test by test.

Both reports must hold the same tests with the same status (and, for tests that did not run, the
same reason); durations and evidence may differ. Used to hold the arm64 probe to the x86-64 one on
lavapipe (scripts/test-arm64.sh).

Usage: compare_smoke.py EXPECTED.json ACTUAL.json [--device N]
Prints one line per test; exit 0 when every verdict is the same, 1 otherwise, 2 on bad usage.
"""
import json
import sys


def verdicts(path, device):
    report = json.load(open(path))
    return {t["id"]: t for t in report["devices"][device]["smoke"]}


def main(argv):
    args = argv[1:]
    device = 0
    if "--device" in args:
        at = args.index("--device")
        if at + 1 >= len(args) or not args[at + 1].isdigit():
            print(__doc__, file=sys.stderr)
            return 2
        device = int(args[at + 1])
        del args[at:at + 2]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        expected, actual = verdicts(args[0], device), verdicts(args[1], device)
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        print("compare_smoke: cannot read the smoke verdicts: %s" % e, file=sys.stderr)
        return 2
    selected = sorted(set(expected) | set(actual))
    differences = 0
    for test_id in selected:
        a, b = expected.get(test_id), actual.get(test_id)
        if a is None or b is None:
            print("FAIL %-36s only in %s" % (test_id, args[0] if b is None else args[1]))
            differences += 1
            continue
        same = a["status"] == b["status"] and (a["status"] in ("pass", "fail", "not_applied")
                                                or a.get("reason") == b.get("reason"))
        print("%s %-36s %s%s" % ("ok  " if same else "FAIL", test_id, b["status"],
                                 "" if same else "  (expected %s: %s; got: %s)" % (a["status"], a.get("reason"),
                                                                                   b.get("reason"))))
        differences += not same
    print("%d tests, %d with a different verdict" % (len(selected), differences))
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
