#version 450
// compute.shared_memory_max: a workgroup array of exactly the declared maximum size
// (WORDS = maxComputeSharedMemorySize / 4, a specialization constant). Each invocation writes
// its share, a barrier, then each reads the words another invocation wrote and counts mismatches.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint WORDS = 4096u;
shared uint words[WORDS];
layout(std430, binding = 0) buffer Result { uint checked; uint mismatches; } r;
void main() {
    uint lid = gl_LocalInvocationIndex;
    uint stride = gl_WorkGroupSize.x;
    for (uint i = lid; i < WORDS; i += stride) words[i] = i * 2654435761u + 17u;
    barrier();
    uint checked = 0u, bad = 0u;
    for (uint i = lid; i < WORDS; i += stride) {
        uint j = WORDS - 1u - i; // written by another invocation
        if (words[j] != j * 2654435761u + 17u) bad++;
        checked++;
    }
    atomicAdd(r.checked, checked);
    atomicAdd(r.mismatches, bad);
}
