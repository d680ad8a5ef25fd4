#!/usr/bin/env python3
"""The layer's files depend on one another one way, and its hooks reach the checks only through
the validators.

- No circle: a file (its .c and .h together) never uses, by a call or an include, a file that
  uses it back, directly or through others. Calls are read from the layer's object files (gcc-nm
  reads LTO objects too: each undefined symbol is mapped to the layer file that defines it),
  includes from the sources; an include that runs back up (a lower file including a higher one's
  header) closes a circle like a call does.
- The hook files (hooks_*.c) and the loader glue call no function of the checks, the hazard
  tracker or the queue-progress model (names starting with one of CHECK_PREFIXES): a hook records
  state and calls its validator (validate.c), which runs the checks.
Usage: check_layer_dependencies.py OBJECT_DIR SOURCE_DIR"""
import os
import re
import subprocess
import sys

CHECK_PREFIXES = ("check_", "hazard_", "lifetime_", "alias_", "host_", "unseen_", "tracker_", "progress_")
HOOK_FILES = re.compile(r"^(hooks_.*|loader_glue)$")


def symbols(path, flag):
    out = subprocess.run(["gcc-nm", flag, path], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def module(name):
    """A file's module: its name without .c, .h or .c.o (x.c and x.h are one)."""
    return os.path.basename(name).split(".")[0]


def call_edges(object_dir):
    objects = sorted(f for f in os.listdir(object_dir) if f.endswith(".c.o"))
    defined, used = {}, {}
    for name in objects:
        path = os.path.join(object_dir, name)
        for s in symbols(path, "--defined-only"):
            defined[s] = module(name)
        used[module(name)] = symbols(path, "-u")
    edges = {}
    for unit, syms in used.items():
        for s in syms:
            if s in defined and defined[s] != unit:
                edges.setdefault(unit, {}).setdefault(defined[s], set()).add(s)
    return edges


def include_edges(source_dir):
    files = [f for f in os.listdir(source_dir) if f.endswith((".c", ".h"))]
    modules = {module(f) for f in files}
    edges = {}
    for f in files:
        with open(os.path.join(source_dir, f), encoding="utf-8") as text:
            for line in text:
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if m and module(m.group(1)) in modules and module(m.group(1)) != module(f):
                    edges.setdefault(module(f), {}).setdefault(module(m.group(1)), set()).add("#include " + f)
    return edges


def find_cycle(edges):
    state, stack = {}, []

    def visit(u):
        state[u] = "open"
        stack.append(u)
        for v in sorted(edges.get(u, {})):
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
                return cycle
    return None


def main():
    if len(sys.argv) != 3 or not os.path.isdir(sys.argv[1]) or not os.path.isdir(sys.argv[2]):
        print(__doc__, file=sys.stderr)
        return 2
    if not any(f.endswith(".c.o") for f in os.listdir(sys.argv[1])):
        print(f"check_layer_dependencies: no object files in {sys.argv[1]}", file=sys.stderr)
        return 2
    calls, includes = call_edges(sys.argv[1]), include_edges(sys.argv[2])
    failed = False
    for unit in sorted(calls):
        if not HOOK_FILES.match(unit):
            continue
        direct = sorted(s for target, syms in calls[unit].items() for s in syms if s.startswith(CHECK_PREFIXES))
        if direct:
            print(f"{unit}.c calls checks directly, not through a validator: {', '.join(direct)}")
            failed = True
    edges = {}
    for graph in (calls, includes):
        for u, targets in graph.items():
            for v, why in targets.items():
                edges.setdefault(u, {}).setdefault(v, set()).update(why)
    cycle = find_cycle(edges)
    if cycle:
        steps = []
        for u, v in zip(cycle, cycle[1:]):
            why = sorted(edges[u][v])
            steps.append(f"{u} -> {v} ({', '.join(why[:3])}{', ...' if len(why) > 3 else ''})")
        print("layer files that use each other in a circle: " + "; ".join(steps))
        failed = True
    if failed:
        return 1
    print(f"ok: {len(edges)} layer files, {sum(len(v) for v in edges.values())} uses between them (calls and "
          "includes), no circle; the hooks reach the checks only through the validators")
    return 0


if __name__ == "__main__":
    sys.exit(main())
