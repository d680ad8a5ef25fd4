#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
// compute.atomics_int64: 64-bit atomicAdd with values that overflow 32 bits.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Result { uint64_t sum; } r;
void main() { atomicAdd(r.sum, uint64_t(gl_GlobalInvocationID.x + 1u) << 32); }
