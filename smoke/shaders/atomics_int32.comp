#version 450
// compute.atomics: 32-bit atomicAdd from every invocation; the sum must be exact.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Result { uint sum; uint count; } r;
void main() {
    atomicAdd(r.sum, gl_GlobalInvocationID.x + 1u);
    atomicAdd(r.count, 1u);
}
