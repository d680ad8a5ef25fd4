#!/usr/bin/env python3
"""Finds the SPIR-V modules embedded in binaries (programs and libraries that carry their shaders
as byte arrays) and writes each one that SPIRV-Tools parses as a file: seeds for the reflection
fuzzer (tests/fuzz/corpus/spirv_reflect). Usage: extract_spirv.py OUT_DIR PREFIX BINARY... [--max N]"""
import hashlib
import os
import struct
import subprocess
import sys

MAGIC = b"\x03\x02\x23\x07"


def modules(blob):
    at = blob.find(MAGIC)
    while at >= 0:
        words = []
        if at + 20 <= len(blob):
            version, _, bound, schema = struct.unpack_from("<IIII", blob, at + 4)
            if 0x10000 <= version <= 0x10600 and schema == 0 and 0 < bound < 4194304:
                end = at + 20
                while end + 4 <= len(blob):
                    count = struct.unpack_from("<I", blob, end)[0] >> 16
                    if count == 0 or end + count * 4 > len(blob):
                        break
                    end += count * 4
                words = blob[at:end]
        if len(words) > 20:
            yield words
        at = blob.find(MAGIC, at + 4)


def main():
    args = sys.argv[1:]
    limit = 1 << 30
    if "--max" in args:
        i = args.index("--max")
        limit = int(args[i + 1])
        del args[i : i + 2]
    out, prefix, binaries = args[0], args[1], args[2:]
    os.makedirs(out, exist_ok=True)
    written = 0
    for path in binaries:
        with open(path, "rb") as f:
            blob = f.read()
        for module in modules(blob):
            if written >= limit:
                break
            # kept only when spirv-val's parser accepts it whole (trailing bytes would be cut)
            check = subprocess.run(["spirv-dis", "-o", "/dev/null", "-"], input=module, capture_output=True)
            if check.returncode != 0:
                continue
            name = f"{prefix}-{hashlib.sha256(module).hexdigest()[:12]}.spv"
            with open(os.path.join(out, name), "wb") as f:
                f.write(module)
            written += 1
    print(f"{written} modules written to {out}")


main()
