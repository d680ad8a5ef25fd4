#version 450
// Reads binding 0, writes binding 1: the alias scenarios bind overlapping memory to both.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; } src;
layout(std430, binding = 1) buffer Out { uint v[]; } dst;
void main() { dst.v[gl_GlobalInvocationID.x] = src.v[gl_GlobalInvocationID.x] + 1u; }
