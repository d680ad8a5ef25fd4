#!/usr/bin/env python3
"""The layer's files call one another one way: no file uses (by symbol) a file that uses it back,
directly or through others. Reads the layer's object files (gcc-nm reads LTO objects too), maps
each undefined symbol to the layer file that defines it, and fails on a cycle, naming it.
Usage: check_layer_dependencies.py OBJECT_DIR"""
import os
import subprocess
import sys


def symbols(path, flag):
    out = subprocess.run(["gcc-nm", flag, path], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print(__doc__, file=sys.stderr)
        return 2
    objects = sorted(f for f in os.listdir(sys.argv[1]) if f.endswith(".c.o"))
    if not objects:
        print(f"check_layer_dependencies: no object files in {sys.argv[1]}", file=sys.stderr)
        return 2
    defined, used = {}, {}
    for name in objects:
        path = os.path.join(sys.argv[1], name)
        unit = name[:-2]
        for s in symbols(path, "--defined-only"):
            defined[s] = unit
        used[unit] = symbols(path, "-u")
    edges = {u: sorted({defined[s] for s in syms if s in defined and defined[s] != u}) for u, syms in used.items()}
    # depth-first search for a cycle
    state, stack = {}, []

    def visit(u):
        state[u] = "open"
        stack.append(u)
        for v in edges[u]:
            if state.get(v) == "open":
                return stack[stack.index(v):] + [v]
            if v not in state:
                found = visit(v)
                if found:
                    return found
        stack.pop()
        state[u] = "done"
        return None

    for u in sorted(edges):
        if u not in state:
            cycle = visit(u)
            if cycle:
                print("layer files that use each other in a circle: " + " -> ".join(cycle))
                return 1
    print(f"ok: {len(edges)} layer files, {sum(len(v) for v in edges.values())} uses between them, no circle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
