#version 450
// A bound read from a uniform buffer: not a push constant, so the layer does not guess its value.
layout(local_size_x = 64) in;
layout(std140, binding = 0) uniform Params { uint count; } params;
layout(std430, binding = 1) buffer Data { float v[]; } data;
void main()
{
    if (gl_GlobalInvocationID.x >= params.count)
        return;
    data.v[gl_GlobalInvocationID.x] += 1.0;
}
