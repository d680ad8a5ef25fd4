#version 450
// Only reads bindings 0 and 1 and writes binding 2: the same buffer read twice is no alias.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uint v[]; } a;
layout(std430, binding = 1) readonly buffer B { uint v[]; } b;
layout(std430, binding = 2) writeonly buffer Out { uint v[]; } dst;
void main() { uint i = gl_GlobalInvocationID.x; dst.v[i] = a.v[i] + b.v[i]; }
