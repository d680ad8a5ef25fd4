#version 450
// compute.group_count_max: every workgroup (of one invocation) counts itself. Counts are spread
// over 256 counters to keep atomics off one address; the host sums them.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Counters { uint counter[256]; uint max_id[3]; } c;
void main() {
    uvec3 id = gl_WorkGroupID;
    atomicAdd(c.counter[(id.x ^ id.y ^ id.z) & 255u], 1u);
    atomicMax(c.max_id[0], id.x);
    atomicMax(c.max_id[1], id.y);
    atomicMax(c.max_id[2], id.z);
}
