#!/usr/bin/env python3
"""Compare a preflight report's `declared` block with `vulkaninfo --json` for the same device.

Every extension, feature, property, limit, format and queue family that both documents hold
must be equal, and every struct, member and format vulkaninfo lists must be in the report.
Exit 0 with a summary when there are zero differences, 1 otherwise (each difference printed).

Usage: compare_vulkaninfo.py REPORT.json|PROFILE.json VULKANINFO.json [--device N]
"""
import json
import math
import sys


def normalize(value):
    # vulkaninfo prints single VkSampleCountFlagBits values without their VK_ prefix.
    if isinstance(value, str) and value.startswith("VK_"):
        return value[3:]
    return value


def known_flags(names):
    # The probe keeps bits newer than its registry as "0x..." text; vulkaninfo (built from the
    # same registry) drops them. Compare the named bits and count the others separately.
    return sorted(normalize(n) for n in names if not n.startswith("0x"))


class Comparison:
    def __init__(self):
        self.compared = 0
        self.differences = []
        self.unnamed_bits = 0

    def differ(self, path, ours, theirs):
        self.differences.append("%s: report %s, vulkaninfo %s" % (path, json.dumps(ours), json.dumps(theirs)))

    def value(self, path, ours, theirs):
        if isinstance(theirs, dict):
            if not isinstance(ours, dict):
                return self.differ(path, ours, theirs)
            for key, item in theirs.items():
                if key not in ours:
                    self.differences.append("%s.%s: missing from the report" % (path, key))
                    continue
                self.value(path + "." + key, ours[key], item)
            return
        if isinstance(theirs, list):
            if not isinstance(ours, list):
                return self.differ(path, ours, theirs)
            if theirs and all(isinstance(x, str) for x in theirs) or (not theirs and all(isinstance(x, str) for x in ours)):
                # flag arrays: the same set of names, order aside
                self.compared += 1
                self.unnamed_bits += sum(1 for n in ours if n.startswith("0x"))
                if known_flags(ours) != known_flags(theirs):
                    self.differ(path, ours, theirs)
                return
            if len(ours) != len(theirs):
                return self.differ(path, ours, theirs)
            for i, (a, b) in enumerate(zip(ours, theirs)):
                self.value("%s[%d]" % (path, i), a, b)
            return
        self.compared += 1
        if isinstance(theirs, bool) or isinstance(ours, bool):
            if ours is not theirs:
                self.differ(path, ours, theirs)
        elif isinstance(theirs, (int, float)) and isinstance(ours, (int, float)):
            # vulkaninfo prints floats with six significant digits (2047.94 for 2047.9375)
            if not math.isclose(ours, theirs, rel_tol=1e-5, abs_tol=1e-9):
                self.differ(path, ours, theirs)
        elif normalize(ours) != normalize(theirs):
            self.differ(path, ours, theirs)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    device_index = 0
    if "--device" in argv:
        device_index = int(argv[argv.index("--device") + 1])
    report = json.load(open(argv[1]))
    vulkaninfo = json.load(open(argv[2]))
    # The first document may also be a Vulkan Profiles export (preflight-report profile).
    if "$schema" in report:
        ours = report["capabilities"]["device"]
    else:
        ours = report["devices"][device_index]["declared"]
    theirs = vulkaninfo["capabilities"]["device"]
    c = Comparison()
    c.value("extensions", ours["extensions"], theirs["extensions"])
    if set(ours["extensions"]) != set(theirs["extensions"]):
        c.differ("extensions (names)", sorted(set(ours["extensions"]) - set(theirs["extensions"])),
                 sorted(set(theirs["extensions"]) - set(ours["extensions"])))
    for section in ("features", "properties"):
        for struct, members in theirs[section].items():
            if struct not in ours[section]:
                c.differences.append("%s.%s: struct missing from the report" % (section, struct))
                continue
            c.value(section + "." + struct, ours[section][struct], members)
    for fmt, props in theirs["formats"].items():
        if fmt not in ours["formats"]:
            c.differences.append("formats.%s: missing from the report" % fmt)
            continue
        c.value("formats." + fmt, ours["formats"][fmt], props)
    extra_formats = set(ours["formats"]) - set(theirs["formats"])
    ours_q, theirs_q = ours["queueFamiliesProperties"], theirs["queueFamiliesProperties"]
    if len(ours_q) != len(theirs_q):
        c.differ("queueFamiliesProperties (count)", len(ours_q), len(theirs_q))
    for i, (a, b) in enumerate(zip(ours_q, theirs_q)):
        for struct, members in b.items():
            if struct not in a:
                c.differences.append("queueFamiliesProperties[%d].%s: missing from the report" % (i, struct))
                continue
            c.value("queueFamiliesProperties[%d].%s" % (i, struct), a[struct], members)

    for d in c.differences[:100]:
        print("DIFFERENCE " + d)
    if len(c.differences) > 100:
        print("... and %d more differences" % (len(c.differences) - 100))
    print("compared %d values: %d extensions, %d feature structs, %d property structs, %d formats, "
          "%d queue families; %d differences"
          % (c.compared, len(theirs["extensions"]), len(theirs["features"]), len(theirs["properties"]),
             len(theirs["formats"]), len(theirs_q), len(c.differences)))
    if c.unnamed_bits:
        print("note: %d flag values carry bits newer than the registry (kept as 0x... in the report)"
              % c.unnamed_bits)
    if extra_formats:
        print("note: %d formats only in the report (queried but not listed by vulkaninfo): %s"
              % (len(extra_formats), ", ".join(sorted(extra_formats))))
    return 1 if c.differences else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
