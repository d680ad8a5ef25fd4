#!/usr/bin/env python3
"""The render passes behind the layer's findings on an image, rebuilt from a
VK_LAYER_PREFLIGHT_api_trace log: for every image a finding of FINDINGS.jsonl names, the image, its
views, the framebuffers and render passes that attach it (attachments with load/store operations
and layouts, subpasses, dependencies), and, for one recording of each command buffer the findings
name, the sequence of render pass instances on it (render areas) and of barriers that touch it.

Usage: render_pass_context.py TRACE.jsonl FINDINGS.jsonl [--id PREFLIGHT-hazard-read-after-write]
       [--recording N]   (which recording of each command buffer to print; default 3, a steady frame)
Prints JSON.
"""
import argparse
import collections
import json
import re
import sys

LOAD_OPS = {0: "LOAD", 1: "CLEAR", 2: "DONT_CARE", 1000400000: "NONE"}
STORE_OPS = {0: "STORE", 1: "DONT_CARE", 1000301000: "NONE"}


def describe_pass(render_pass):
    out = dict(render_pass)
    out.pop("call", None)
    out["attachments"] = [dict(a, load=LOAD_OPS.get(a["load"], a["load"]), store=STORE_OPS.get(a["store"], a["store"]),
                               stencil_load=LOAD_OPS.get(a["stencil_load"], a["stencil_load"]),
                               stencil_store=STORE_OPS.get(a["stencil_store"], a["stencil_store"]))
                          for a in render_pass["attachments"]]
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    parser.add_argument("findings")
    parser.add_argument("--id", default="PREFLIGHT-hazard-read-after-write")
    parser.add_argument("--recording", type=int, default=3)
    args = parser.parse_args()
    with open(args.trace) as f:
        calls = [json.loads(line) for line in f if line.strip()]
    with open(args.findings) as f:
        findings = [json.loads(line) for line in f if line.strip()]
    images = {c["image"]: c for c in calls if c["call"] == "vkCreateImage"}
    views = {c["view"]: c for c in calls if c["call"] == "vkCreateImageView"}
    framebuffers = {c["framebuffer"]: c for c in calls if c["call"] == "vkCreateFramebuffer"}
    passes = {c["render_pass"]: c for c in calls if c["call"] in ("vkCreateRenderPass", "vkCreateRenderPass2")}

    pairs = collections.Counter()
    for finding in findings:
        if finding["id"] != args.id:
            continue
        handles = {o["type"]: o["handle"] for o in finding["objects"]}
        commands = tuple(int(n) for n in re.findall(r"command (\d+)", finding["message"]))
        pairs[(handles.get("VkImage"), handles.get("VkCommandBuffer"), commands)] += 1

    report = []
    for image in sorted({p[0] for p in pairs if p[0]}):
        image_views = [v for v, c in views.items() if c["image"] == image]
        attached = {f: c for f, c in framebuffers.items() if set(c["views"]) & set(image_views)}
        entry = {"image": images.get(image), "views": [views[v] for v in image_views],
                 "framebuffers": list(attached.values()),
                 "render_passes": [describe_pass(passes[r]) for r in sorted({c["render_pass"] for c in attached.values()})
                                   if r in passes],
                 "findings_by_command_pair": [{"command_buffer": cb, "commands": list(cmds), "count": n}
                                              for (img, cb, cmds), n in sorted(pairs.items()) if img == image],
                 "recordings": {}}
        for cb in sorted({cb for (img, cb, _) in pairs if img == image}):
            recordings, current = [], None
            for number, call in enumerate(calls):
                if call.get("cb") != cb:
                    continue
                if call["call"] == "vkBeginCommandBuffer":
                    current = []
                    recordings.append(current)
                if current is not None:
                    current.append((number + 1, call))
            if not recordings:
                continue
            chosen = recordings[min(args.recording, len(recordings) - 1)]
            events, inside = [], False
            for line, call in chosen:
                kind = call["call"]
                if kind.startswith("vkCmdBeginRenderPass"):
                    inside = call["framebuffer"] in attached
                    if inside:
                        events.append({"trace_line": line, "call": kind, "render_pass": call["render_pass"],
                                       "render_area": call["render_area"]})
                elif kind.startswith("vkCmdEndRenderPass"):
                    if inside:
                        events.append({"trace_line": line, "call": kind})
                    inside = False
                elif kind.startswith("vkCmdPipelineBarrier"):
                    on_image = [b for b in call["images"] if b["image"] == image]
                    if on_image or call["memory"]:
                        events.append({"trace_line": line, "call": kind, "src_stages": call.get("src_stages"),
                                       "dst_stages": call.get("dst_stages"), "memory": call["memory"],
                                       "image_barriers": on_image})
            entry["recordings"][cb] = {"recordings_of_this_command_buffer": len(recordings),
                                       "shown": min(args.recording, len(recordings) - 1), "events": events}
        report.append(entry)
    json.dump(report, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
