#version 450
#extension GL_EXT_shader_atomic_float : require
// compute.atomics_float32: float atomicAdd of 1.0 from every invocation (exact below 2^24).
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Result { float sum; } r;
void main() { atomicAdd(r.sum, 1.0); }
