#!/usr/bin/env python3
"""Generate the C code that writes Vulkan query structs as JSON, from vk.xml.

The probe must name every feature, property and limit exactly as the Vulkan headers do, so that
a report compares one-to-one with `vulkaninfo --json` (a Vulkan Profiles capabilities block).
Writing those serializers by hand would drift from the headers with every SDK update; reading
the registry that ships with the headers keeps them in step.

Emits (into the output directory):
  vk_json.h  -- prototypes and the table types
  vk_json.c  -- one writer per struct, enum/flag name tables, and the chain tables that say which
                struct a device can be asked for (core version or extension that provides it)

Usage: gen_vk_json.py VK_XML OUT_DIR
"""
import os
import re
import sys

from vkxml import Registry, api_ok, write_outputs

# Query structs whose extension structs we chain: the key is the struct they extend.
CHAIN_ROOTS = {
    "VkPhysicalDeviceFeatures2": "features",
    "VkPhysicalDeviceProperties2": "properties",
    "VkQueueFamilyProperties2": "queue_family",
    "VkFormatProperties2": "format",
}
# Structs written by themselves (not chained), plus what they contain.
ROOT_STRUCTS = [
    "VkPhysicalDeviceFeatures",
    "VkPhysicalDeviceProperties",
    "VkQueueFamilyProperties",
    "VkFormatProperties",
    "VkPhysicalDeviceMemoryProperties",
    "VkExtensionProperties",
    "VkPhysicalDeviceFragmentShadingRateKHR",
]
# Enums whose names the probe and tools print even where no written struct member uses them.
EXTRA_ENUMS = ["VkFormat", "VkDriverId", "VkPhysicalDeviceType", "VkResult", "VkStructureType"]

# Fixed-size arrays that the implementation fills only up to a count member beside them.
COUNTED_ARRAYS = {"memoryTypes": "memoryTypeCount", "memoryHeaps": "memoryHeapCount",
                  "priorities": "priorityCount", "physicalDevices": "physicalDeviceCount"}

INTEGER_TYPES = {
    "uint8_t", "int8_t", "uint16_t", "int16_t", "uint32_t", "int32_t", "uint64_t", "int64_t",
    "VkDeviceSize", "VkDeviceAddress", "size_t", "VkSampleMask",
}
SIGNED_TYPES = {"int8_t", "int16_t", "int32_t", "int64_t"}
FLOAT_TYPES = {"float", "double"}


class Member:
    def __init__(self, elem):
        self.type = elem.find("type").text
        self.name = elem.find("name").text
        self.limittype = elem.get("limittype")
        text = "".join(elem.itertext())
        self.pointer = "*" in text
        self.array = None
        m = re.search(re.escape(self.name) + r"\s*\[\s*([A-Za-z0-9_]+)\s*\]", text)
        if m:
            self.array = m.group(1)


class Generator:
    def __init__(self, reg):
        self.reg = reg
        self.struct_order = []
        self.struct_members = {}
        self.used_enums = set(EXTRA_ENUMS)
        self.used_flags = set()
        self.skipped = []

    def flag_bits_of(self, flags_type):
        t = self.reg.types.get(flags_type)
        if t is None:
            return None
        return t.get("requires") or t.get("bitvalues")

    def type_kind(self, type_name):
        type_name = self.reg.canonical(type_name)
        if type_name == "VkBool32":
            return "bool"
        if type_name in INTEGER_TYPES:
            return "int"
        if type_name in FLOAT_TYPES:
            return "float"
        if type_name == "char":
            return "char"
        t = self.reg.types.get(type_name)
        if t is None:
            return None
        cat = t.get("category")
        if cat == "bitmask":
            return "flags"
        if cat == "enum":
            return "enum"
        if cat == "struct":
            return "struct"
        return None

    def add_struct(self, name):
        name = self.reg.canonical(name)
        if name in self.struct_members:
            return self.struct_members[name] is not None
        t = self.reg.types.get(name)
        self.struct_members[name] = None
        if t is None or t.get("category") != "struct":
            return False
        members = []
        for m in t.findall("member"):
            if not api_ok(m):
                continue
            mem = Member(m)
            if mem.name in ("sType", "pNext"):
                continue
            kind = self.type_kind(mem.type)
            if mem.pointer or kind is None:
                self.skipped.append("%s.%s" % (name, mem.name))
                return False
            if kind == "struct" and not self.add_struct(mem.type):
                self.skipped.append("%s.%s" % (name, mem.name))
                return False
            if kind == "enum":
                self.used_enums.add(self.reg.canonical(mem.type))
            if kind == "flags":
                bits = self.flag_bits_of(self.reg.canonical(mem.type))
                if bits:
                    self.used_enums.add(bits)
                    self.used_flags.add(bits)
            members.append((mem, kind))
        self.struct_members[name] = members
        self.struct_order.append(name)
        return True

    # --- emission -------------------------------------------------------------------------

    def array_len_expr(self, mem):
        if mem.array is None:
            return None
        if mem.array.isdigit():
            return mem.array
        return mem.array  # API constant, defined by the headers

    def emit_scalar(self, out, kind, mem, target, expr, indent):
        t = self.reg.canonical(mem.type)
        pad = " " * indent
        if kind == "bool":
            out.append('%scJSON_AddItemTo%s(%s, cJSON_CreateBool(%s != VK_FALSE));' % (pad, target[0], target[1], expr))
        elif kind == "int":
            if t in SIGNED_TYPES:
                out.append('%scJSON_AddItemTo%s(%s, vkjson_int((int64_t)%s));' % (pad, target[0], target[1], expr))
            else:
                out.append('%scJSON_AddItemTo%s(%s, vkjson_uint((uint64_t)%s));' % (pad, target[0], target[1], expr))
        elif kind == "float":
            out.append('%scJSON_AddItemTo%s(%s, cJSON_CreateNumber((double)%s));' % (pad, target[0], target[1], expr))
        elif kind == "enum":
            if t in self.reg.bitmask_enums:
                out.append('%scJSON_AddItemTo%s(%s, vkjson_enum_item(vkjson_name_%s((uint64_t)%s), (int64_t)%s));'
                           % (pad, target[0], target[1], t, expr, expr))
            else:
                out.append('%scJSON_AddItemTo%s(%s, vkjson_enum_item(vkjson_name_%s((int64_t)%s), (int64_t)%s));'
                           % (pad, target[0], target[1], t, expr, expr))
        elif kind == "flags":
            bits = self.flag_bits_of(t)
            if bits:
                out.append('%scJSON_AddItemTo%s(%s, vkjson_flags(vkjson_bits_%s, (uint64_t)%s));'
                           % (pad, target[0], target[1], bits, expr))
            else:  # reserved flags type with no bits yet
                out.append('%scJSON_AddItemTo%s(%s, vkjson_flags(NULL, (uint64_t)%s));' % (pad, target[0], target[1], expr))
        elif kind == "struct":
            out.append('%scJSON_AddItemTo%s(%s, vkjson_%s(&%s));' % (pad, target[0], target[1], self.reg.canonical(mem.type), expr))

    def emit_struct(self, name):
        out = ["cJSON *vkjson_%s(const %s *s)" % (name, name), "{", "    cJSON *o = cJSON_CreateObject();"]
        members = self.struct_members[name]
        for i, (mem, kind) in enumerate(members):
            key = '"%s"' % mem.name
            if mem.array is None:
                self.emit_scalar(out, kind, mem, ("Object", 'o, ' + key), "s->" + mem.name, 4)
                continue
            if kind == "char":
                out.append('    cJSON_AddItemToObject(o, %s, vkjson_string(s->%s, sizeof(s->%s)));' % (key, mem.name, mem.name))
                continue
            count = "(sizeof(s->%s) / sizeof(s->%s[0]))" % (mem.name, mem.name)
            if mem.name in COUNTED_ARRAYS:
                # A fixed-size array filled only up to its count member: write the filled part.
                count = "vkjson_min_u32(s->%s, %s)" % (COUNTED_ARRAYS[mem.name], count)
            out.append("    {")
            out.append("        cJSON *a = cJSON_CreateArray();")
            out.append("        for (uint32_t i = 0; i < %s; ++i) {" % count)
            self.emit_scalar(out, kind, mem, ("Array", "a"), "s->%s[i]" % mem.name, 12)
            out.append("        }")
            out.append("        cJSON_AddItemToObject(o, %s, a);" % key)
            out.append("    }")
        out.append("    return o;")
        out.append("}")
        return out

    def emit_enum(self, name):
        values = self.reg.enum_values.get(name, [])
        is_bits = name in self.reg.bitmask_enums
        arg = "uint64_t" if is_bits else "int64_t"
        out = ["const char *vkjson_name_%s(%s value)" % (name, arg), "{", "    switch (value) {"]
        seen = set()
        for n, v in values:
            if v in seen:
                continue
            seen.add(v)
            if is_bits:
                out.append('    case 0x%xULL: return "%s";' % (v, n))
            else:
                out.append('    case %dLL: return "%s";' % (v, n))
        out.append("    default: return NULL;")
        out.append("    }")
        out.append("}")
        return out

    def emit_bits_table(self, name):
        out = ["static const struct vkjson_bit vkjson_bits_table_%s[] = {" % name]
        seen = set()
        for n, v in self.reg.enum_values.get(name, []):
            if v == 0 or (v & (v - 1)) != 0 or v in seen:
                continue  # only single bits; masks like *_ALL are not flags a device reports
            seen.add(v)
            out.append('    {0x%xULL, "%s"},' % (v, n))
        out.append("    {0, NULL},")
        out.append("};")
        out.append("const struct vkjson_bit *const vkjson_bits_%s = vkjson_bits_table_%s;" % (name, name))
        return out

    def chain_entries(self, root):
        entries = []
        for name, t in self.reg.types.items():
            if t.get("category") != "struct" or root not in (t.get("structextends") or "").split(","):
                continue
            providers = self.reg.providers.get(name)
            if not providers:
                continue  # only in platform or provisional extensions: not compiled in
            if not self.add_struct(name):
                continue
            stype = None
            for m in t.findall("member"):
                if m.find("name").text == "sType":
                    stype = m.get("values")
            entries.append((name, stype, providers))
        entries.sort(key=lambda e: e[0])
        return entries


def provider_initializer(providers):
    version = 0
    exts = []
    for kind, value in providers:
        if kind == "version":
            if version == 0 or value < version:
                version = value
        else:
            exts.append((kind, value))
    ext_items = ", ".join('{"%s", %d}' % (n, 1 if k == "instance" else 0) for k, n in exts[:4])
    if not ext_items:
        ext_items = "{NULL, 0}"
    return "0x%xu, {%s}" % (version, ext_items)


def main():
    reg = Registry(sys.argv[1])
    out_dir = sys.argv[2]
    gen = Generator(reg)
    for s in ROOT_STRUCTS:
        if not gen.add_struct(s):
            sys.exit("cannot generate a writer for " + s)
    chains = {root: gen.chain_entries(root) for root in CHAIN_ROOTS}

    formats = []
    for n, v in reg.enum_values["VkFormat"]:
        if v == 0:
            continue
        providers = reg.format_providers.get(n, [("version", 1 << 22)])
        formats.append((n, v, providers))

    h = []
    h.append("/* Generated by registry/codegen/gen_vk_json.py from vk.xml. Do not edit. */")
    h.append("#ifndef PREFLIGHT_VK_JSON_H")
    h.append("#define PREFLIGHT_VK_JSON_H")
    h.append("#include <stdint.h>")
    h.append("#include <stddef.h>")
    h.append("#include <cjson/cJSON.h>")
    h.append("#include <vulkan/vulkan_core.h>")
    h.append("")
    h.append("struct vkjson_bit { uint64_t value; const char *name; };")
    h.append("/* Where a query struct comes from: a core version (packed, 0 = none) or an extension. */")
    h.append("struct vkjson_provider_ext { const char *name; int instance; };")
    h.append("struct vkjson_chain_struct {")
    h.append("    const char *name;")
    h.append("    VkStructureType stype;")
    h.append("    size_t size;")
    h.append("    uint32_t core_version;")
    h.append("    struct vkjson_provider_ext extensions[4];")
    h.append("    cJSON *(*write)(const void *s);")
    h.append("};")
    h.append("struct vkjson_format { const char *name; VkFormat format; uint32_t core_version; struct vkjson_provider_ext extensions[4]; };")
    h.append("/* vk.xml's limittype of a property member: \"max\" (larger is better), \"min\" (smaller is")
    h.append(" * better), \"bitmask\" (more bits are better), \"exact\", \"range\", \"noauto\", ... */")
    h.append("struct vkjson_limit { const char *structure; const char *member; const char *limittype; };")
    h.append("extern const struct vkjson_limit vkjson_limits[];")
    h.append("extern const size_t vkjson_limit_count;")
    h.append("/* Every VkBool32 feature member (VkPhysicalDeviceFeatures and the structs chained into")
    h.append(" * VkPhysicalDeviceFeatures2), and every extension name vk.xml knows (any platform): what a")
    h.append(" * requirements file may name. */")
    h.append("struct vkjson_member { const char *structure; const char *member; };")
    h.append("extern const struct vkjson_member vkjson_feature_members[];")
    h.append("extern const size_t vkjson_feature_member_count;")
    h.append("extern const char *const vkjson_extension_names[];")
    h.append("extern const size_t vkjson_extension_name_count;")
    h.append("")
    h.append("cJSON *vkjson_uint(uint64_t v);")
    h.append("cJSON *vkjson_int(int64_t v);")
    h.append("cJSON *vkjson_string(const char *chars, size_t capacity);")
    h.append("cJSON *vkjson_enum_item(const char *name, int64_t value);")
    h.append("cJSON *vkjson_flags(const struct vkjson_bit *bits, uint64_t value);")
    h.append("static inline uint32_t vkjson_min_u32(uint32_t a, size_t b) { return a < b ? a : (uint32_t)b; }")
    h.append("")
    for root, kind in CHAIN_ROOTS.items():
        h.append("extern const struct vkjson_chain_struct vkjson_%s_structs[];" % kind)
        h.append("extern const size_t vkjson_%s_struct_count;" % kind)
    h.append("extern const struct vkjson_format vkjson_formats[];")
    h.append("extern const size_t vkjson_format_count;")
    for s in gen.struct_order:
        h.append("cJSON *vkjson_%s(const %s *s);" % (s, s))
    enums = sorted(e for e in gen.used_enums if e in reg.enum_values)
    for e in enums:
        arg = "uint64_t" if e in reg.bitmask_enums else "int64_t"
        h.append("const char *vkjson_name_%s(%s value);" % (e, arg))
    for f in sorted(gen.used_flags):
        h.append("extern const struct vkjson_bit *const vkjson_bits_%s;" % f)
    h.append("#endif")

    c = []
    c.append("/* Generated by registry/codegen/gen_vk_json.py from vk.xml. Do not edit. */")
    c.append('#include "vk_json.h"')
    c.append("")
    for e in enums:
        c.extend(gen.emit_enum(e))
        c.append("")
    for f in sorted(gen.used_flags):
        c.extend(gen.emit_bits_table(f))
        c.append("")
    for s in gen.struct_order:
        c.extend(gen.emit_struct(s))
        c.append("")
    for root, kind in CHAIN_ROOTS.items():
        for name, _, _ in chains[root]:
            c.append("static cJSON *write_any_%s(const void *s) { return vkjson_%s((const %s *)s); }" % (name, name, name))
        c.append("const struct vkjson_chain_struct vkjson_%s_structs[] = {" % kind)
        for name, stype, providers in chains[root]:
            c.append('    {"%s", %s, sizeof(%s), %s, write_any_%s},'
                     % (name, stype, name, provider_initializer(providers), name))
        c.append("};")
        c.append("const size_t vkjson_%s_struct_count = sizeof(vkjson_%s_structs) / sizeof(vkjson_%s_structs[0]);"
                 % (kind, kind, kind))
        c.append("")
    limit_structs = ["VkPhysicalDeviceLimits", "VkPhysicalDeviceSparseProperties"] + \
        [name for name, _, _ in chains["VkPhysicalDeviceProperties2"]]
    c.append("const struct vkjson_limit vkjson_limits[] = {")
    for struct in limit_structs:
        for mem, kind in gen.struct_members.get(struct) or []:
            if mem.limittype:
                c.append('    {"%s", "%s", "%s"},' % (struct, mem.name, mem.limittype))
    c.append("};")
    c.append("const size_t vkjson_limit_count = sizeof(vkjson_limits) / sizeof(vkjson_limits[0]);")
    c.append("")
    feature_structs = ["VkPhysicalDeviceFeatures"] + [name for name, _, _ in chains["VkPhysicalDeviceFeatures2"]]
    c.append("const struct vkjson_member vkjson_feature_members[] = {")
    for struct in feature_structs:
        for mem, kind in gen.struct_members.get(struct) or []:
            if kind == "bool":
                c.append('    {"%s", "%s"},' % (struct, mem.name))
    c.append("};")
    c.append("const size_t vkjson_feature_member_count = sizeof(vkjson_feature_members) / sizeof(vkjson_feature_members[0]);")
    c.append("const char *const vkjson_extension_names[] = {")
    for name in sorted(e.get("name") for e in reg.root.find("extensions").findall("extension")):
        c.append('    "%s",' % name)
    c.append("};")
    c.append("const size_t vkjson_extension_name_count = sizeof(vkjson_extension_names) / sizeof(vkjson_extension_names[0]);")
    c.append("")
    c.append("const struct vkjson_format vkjson_formats[] = {")
    for n, v, providers in formats:
        c.append('    {"%s", (VkFormat)%d, %s},' % (n, v, provider_initializer(providers)))
    c.append("};")
    c.append("const size_t vkjson_format_count = sizeof(vkjson_formats) / sizeof(vkjson_formats[0]);")

    if os.environ.get("VKJSON_VERBOSE"):
        sys.stderr.write("skipped (pointer or unknown member): %s\n" % ", ".join(gen.skipped))
    write_outputs(out_dir, (("vk_json.h", h), ("vk_json.c", c)))

if __name__ == "__main__":
    main()
