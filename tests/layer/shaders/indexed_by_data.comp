#version 450
// An index read from memory: where binding 1's write lands is known only on the GPU.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; } src;
layout(std430, binding = 1) buffer Out { uint v[]; } dst;
void main() { dst.v[src.v[gl_GlobalInvocationID.x] & 255u] = gl_GlobalInvocationID.x; }
