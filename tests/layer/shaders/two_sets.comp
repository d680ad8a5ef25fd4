#version 450
// Reads set 0 and writes set 1: for the binding scenarios (set not bound, descriptor not written).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } src;
layout(std430, set = 1, binding = 0) buffer Out { uint v[]; } dst;
void main() { dst.v[gl_GlobalInvocationID.x] = src.v[gl_GlobalInvocationID.x]; }
