#!/usr/bin/env python3
"""The state a dispatch ran with, rebuilt from a VK_LAYER_PREFLIGHT_api_trace log: the pipeline,
its shader file and specialization data, the pipeline and descriptor set layouts, every bound set
with the buffer ranges its descriptors held at that moment, dynamic offsets, the push constant
bytes and the group counts.

Usage: dispatch_context.py TRACE.jsonl [--module-file shader-N.spv] [--first N]
  prints, as JSON, the context of every dispatch (or of those whose pipeline uses that shader
  file), at most N of them (default all)
"""
import argparse
import json
import sys


def contexts(lines, module_file=None):
    modules, pipelines, pipeline_layouts, set_layouts, set_layout_of = {}, {}, {}, {}, {}
    sets = {}    # set -> {binding: [descriptors]} as written so far
    state = {}   # command buffer -> bound pipeline, sets, push constants
    for number, call in enumerate(lines):
        kind = call["call"]
        if kind == "vkCreateShaderModule":
            modules[call["module"]] = call
        elif kind == "vkCreateComputePipelines":
            pipelines[call["pipeline"]] = call
        elif kind == "vkCreatePipelineLayout":
            pipeline_layouts[call["layout"]] = call
        elif kind == "vkCreateDescriptorSetLayout":
            set_layouts[call["layout"]] = call
        elif kind == "vkAllocateDescriptorSets":
            set_layout_of[call["set"]] = call["layout"]
            sets[call["set"]] = {}
        elif kind == "vkUpdateDescriptorSets.write":
            # consecutive bindings: descriptorCount past a binding's size continues in the next ones
            layout = set_layouts.get(set_layout_of.get(call["set"]), {"bindings": []})
            counts = {b["binding"]: b["count"] for b in layout["bindings"]}
            binding, element = call["binding"], call["array_element"]
            for descriptor in call["descriptors"]:
                while element >= counts.get(binding, 1 << 30):
                    binding, element = binding + 1, 0
                sets.setdefault(call["set"], {}).setdefault(binding, {})[element] = descriptor
                element += 1
        elif kind == "vkBeginCommandBuffer":
            state[call["cb"]] = {"sets": {}, "push": {}}
        elif kind == "vkCmdBindPipeline" and call["bind_point"] == 1:
            state.setdefault(call["cb"], {"sets": {}, "push": {}})["pipeline"] = call["pipeline"]
        elif kind == "vkCmdBindDescriptorSets" and call["bind_point"] == 1:
            bound = state.setdefault(call["cb"], {"sets": {}, "push": {}})["sets"]
            for i, s in enumerate(call["sets"]):
                bound[call["first_set"] + i] = {"set": s, "dynamic_offsets": call["dynamic_offsets"]}
        elif kind == "vkCmdPushConstants":
            state.setdefault(call["cb"], {"sets": {}, "push": {}})["push"] = {
                "offset": call["offset"], "bytes": call["values"], "u32": call["values_u32"]}
        elif kind == "vkCmdDispatch":
            cb = state.get(call["cb"], {})
            pipeline = pipelines.get(cb.get("pipeline"), {})
            module = modules.get(pipeline.get("module"), {})
            if module_file and module.get("file") != module_file:
                continue
            layout = pipeline_layouts.get(pipeline.get("layout"), {})
            bound = {}
            for index, entry in sorted(cb.get("sets", {}).items()):
                bound[index] = {
                    "set": entry["set"], "dynamic_offsets": entry["dynamic_offsets"],
                    "layout": set_layouts.get(set_layout_of.get(entry["set"]), {}).get("bindings"),
                    "descriptors": {b: [d for _, d in sorted(e.items())]
                                    for b, e in sorted(sets.get(entry["set"], {}).items())}}
            yield {"trace_line": number + 1, "command_buffer": call["cb"], "groups": call["groups"],
                   "pipeline": cb.get("pipeline"), "shader_file": module.get("file"),
                   "specialization": pipeline.get("specialization"),
                   "specialization_u32": pipeline.get("specialization_data_u32"),
                   "push_constant_ranges": layout.get("push_constant_ranges"),
                   "push_constants": cb.get("push"), "sets": bound}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    parser.add_argument("--module-file", default=None)
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    with open(args.trace) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    found = list(contexts(lines, args.module_file))
    if args.first:
        found = found[:args.first]
    json.dump(found, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
