#version 450
// Writes binding 0 from the fragment stage: the subpass scenarios' first subpass.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(std430, binding = 0) buffer Data { uint values[]; } data;
void main()
{
    data.values[0] = 1u;
    color = vec4(uv, 0.0, 1.0);
}
