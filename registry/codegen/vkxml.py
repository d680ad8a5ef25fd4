"""What the registry's generators share: vk.xml parsed once into types, aliases, enum values (with
the values extensions add) and providers, and writing generated files only when they change (so a
rebuild does not recompile what did not change)."""
import os
import xml.etree.ElementTree as ET


def api_ok(elem):
    api = elem.get("api")
    return api is None or "vulkan" in api.split(",")


class Registry:
    def __init__(self, path):
        self.root = ET.parse(path).getroot()
        self.types = {}
        self.aliases = {}
        for t in self.root.iter("type"):
            if not api_ok(t):
                continue
            name = t.get("name") or (t.find("name").text if t.find("name") is not None else None)
            if not name:
                continue
            if t.get("alias"):
                self.aliases[name] = t.get("alias")
            elif t.get("category"):
                self.types[name] = t
        self.constants = {}
        self.enum_values = {}  # enum type name -> list of (name, value, is_alias_target)
        self.bitmask_enums = set()
        self.enum_64 = set()
        for enums in self.root.findall("enums"):
            if enums.get("name") == "API Constants":
                for e in enums.findall("enum"):
                    if e.get("value"):
                        self.constants[e.get("name")] = e.get("value")
                continue
            name = enums.get("name")
            kind = enums.get("type")
            if kind not in ("enum", "bitmask"):
                continue
            if kind == "bitmask":
                self.bitmask_enums.add(name)
            if enums.get("bitwidth") == "64":
                self.enum_64.add(name)
            vals = self.enum_values.setdefault(name, [])
            for e in enums.findall("enum"):
                if e.get("alias") or not api_ok(e):
                    continue
                v = self._enum_value(e, None)
                if v is not None:
                    vals.append((e.get("name"), v))
        self.providers = {}  # canonical type -> list of ("version", packed) / ("device"|"instance", ext)
        self.format_providers = {}  # VK_FORMAT_* -> providers
        for feat in self.root.findall("feature"):
            if not api_ok(feat):
                continue
            major, minor = feat.get("number").split(".")
            packed = (int(major) << 22) | (int(minor) << 12)
            for req in feat.findall("require"):
                for t in req.findall("type"):
                    self._provide(t.get("name"), ("version", packed))
                for e in req.findall("enum"):
                    self._extend_enum(e, None, ("version", packed))
        for ext in self.root.find("extensions").findall("extension"):
            supported = ext.get("supported", "").split(",")
            if "vulkan" not in supported or ext.get("platform") or ext.get("provisional"):
                continue
            number = int(ext.get("number"))
            provider = (ext.get("type"), ext.get("name"))
            for req in ext.findall("require"):
                if not api_ok(req):
                    continue
                for t in req.findall("type"):
                    self._provide(t.get("name"), provider)
                for e in req.findall("enum"):
                    self._extend_enum(e, number, provider)
        for name in self.enum_values:
            seen = set()
            unique = []
            for n, v in self.enum_values[name]:
                if n not in seen:
                    seen.add(n)
                    unique.append((n, v))
            self.enum_values[name] = unique

    def canonical(self, name):
        while name in self.aliases:
            name = self.aliases[name]
        return name

    def _provide(self, type_name, provider):
        self.providers.setdefault(self.canonical(type_name), []).append(provider)

    def _enum_value(self, e, ext_number):
        if e.get("value") is not None:
            text = e.get("value")
            if text.startswith('"'):
                return None
            text = text.replace("U", "").replace("L", "").replace("(", "").replace(")", "")
            if text.startswith("~"):
                return None
            return int(text, 0)
        if e.get("bitpos") is not None:
            return 1 << int(e.get("bitpos"))
        if e.get("offset") is not None:
            number = int(e.get("extnumber") or ext_number)
            v = 1000000000 + (number - 1) * 1000 + int(e.get("offset"))
            return -v if e.get("dir") == "-" else v
        return None

    def _extend_enum(self, e, ext_number, provider):
        target = e.get("extends")
        if not target or e.get("alias") or not api_ok(e):
            return
        v = self._enum_value(e, ext_number)
        if v is None:
            return
        self.enum_values.setdefault(target, []).append((e.get("name"), v))
        if target == "VkFormat":
            self.format_providers.setdefault(e.get("name"), []).append(provider)


def write_outputs(out_dir, files):
    """files: (name, list of lines); each written to out_dir only when its text changed."""
    os.makedirs(out_dir, exist_ok=True)
    for name, lines in files:
        path = os.path.join(out_dir, name)
        text = "\n".join(lines) + "\n"
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            with open(path, "w") as f:
                f.write(text)
