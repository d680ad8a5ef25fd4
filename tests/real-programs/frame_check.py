"""Whether a frame a program read back from the GPU and saved as PNG shows a rendered scene: the
acceptance's proof that Godot drew something, beyond its exit status.

Reads 8-bit RGB and RGBA PNGs (what Godot's Image.save_png writes) with the standard library only.
"""
import struct
import zlib


def read_png(path):
    """(width, height, channels, rows): rows is a list of bytes, `channels` bytes per pixel."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    at, idat, header = 8, [], None
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        at += 12 + length
    if header is None:
        raise ValueError(f"{path}: no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"{path}: only 8-bit RGB/RGBA, not interlaced (depth {depth}, colour type {colour})")
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    if len(raw) != height * (stride + 1):
        raise ValueError(f"{path}: {len(raw)} bytes of pixel data for {width}x{height}")
    rows, previous = [], bytes(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
            elif kind != 0:
                raise ValueError(f"{path}: row {y} has filter type {kind}")
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def judge_scene_frame(path, width, height):
    """Problems with the Godot scene's frame (an empty list when it shows the scene): the size asked
    for, hundreds of colours (sky gradient, lit and shadowed faces, fog), and the box's orange
    albedo (0.8, 0.35, 0.2) on at least 0.5% of the pixels (it covers 0.85% of
    the scene's 480x270 frame)."""
    try:
        w, h, channels, rows = read_png(path)
    except (OSError, ValueError, zlib.error) as error:
        return [f"the frame could not be read: {error}"]
    if (w, h) != (width, height):
        return [f"the frame is {w}x{h}, not {width}x{height}"]
    colours, orange = set(), 0
    for row in rows:
        for x in range(0, len(row), channels):
            r, g, b = row[x], row[x + 1], row[x + 2]
            colours.add((r, g, b))
            orange += r > 60 and r > g * 1.4 and r > b * 2
    problems = []
    if len(colours) < 200:
        problems.append(f"the frame has {len(colours)} colours (a rendered scene has hundreds)")
    if orange < w * h // 200:
        problems.append(f"the box's orange covers {orange} pixels of {w * h} (under 0.5%)")
    return problems


def judge_colours(path, width, height, expected, tolerance=8):
    """Problems with a frame that must show known flat colours (an empty list when it does): its
    size, and each (r, g, b) of `expected` on at least `pixels` pixels, channels within
    `tolerance` (the Qt scene's and the GTK render node's filled rectangles)."""
    try:
        w, h, channels, rows = read_png(path)
    except (OSError, ValueError, zlib.error) as error:
        return [f"the frame could not be read: {error}"]
    if (w, h) != (width, height):
        return [f"the frame is {w}x{h}, not {width}x{height}"]
    problems = []
    for (r, g, b), pixels in expected:
        seen = sum(1 for row in rows for x in range(0, len(row), channels)
                   if abs(row[x] - r) <= tolerance and abs(row[x + 1] - g) <= tolerance and abs(row[x + 2] - b) <= tolerance)
        if seen < pixels:
            problems.append(f"rgb({r}, {g}, {b}) covers {seen} pixels, not at least {pixels}")
    return problems
