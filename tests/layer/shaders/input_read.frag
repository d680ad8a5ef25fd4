#version 450
// Reads input attachment 0 (binding 0): the input attachment scenarios' second subpass.
layout(location = 0) in vec2 uv;
layout(input_attachment_index = 0, binding = 0) uniform subpassInput gbuffer;
layout(location = 0) out vec4 color;
void main() { color = subpassLoad(gbuffer) + vec4(uv, 0.0, 0.0); }
