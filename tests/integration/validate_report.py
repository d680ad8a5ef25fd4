#!/usr/bin/env python3
"""Validate preflight reports against docs/report.schema.json (JSON Schema 2020-12).

Usage: validate_report.py SCHEMA REPORT... ; exit 0 when every report validates, 1 otherwise.
"""
import json
import sys

import jsonschema


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    schema = json.load(open(argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failed = 0
    for path in argv[2:]:
        errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
        for e in errors[:20]:
            print("%s: %s: %s" % (path, "/".join(map(str, e.path)) or "(root)", e.message))
        print("%s: %s" % (path, "valid" if not errors else "%d schema errors" % len(errors)))
        failed += bool(errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
