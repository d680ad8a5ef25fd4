#version 450
// Writes a color from the interpolated position: the input attachment scenarios' first subpass.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = vec4(uv, 0.25, 1.0); }
