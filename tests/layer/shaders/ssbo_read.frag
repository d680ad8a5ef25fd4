#version 450
// Reads binding 0 from the fragment stage: the subpass scenarios' second subpass.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(std430, binding = 0) readonly buffer Data { uint values[]; } data;
void main() { color = vec4(float(data.values[0]), uv, 1.0); }
