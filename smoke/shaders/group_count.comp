#version 450
// compute.group_count_max: every workgroup (of one invocation) counts itself, and the last group
// of the grid records its id. The counts are spread over 256 counters, one per 128-byte line, so
// that up to 2^31 groups do not queue on one address; the host sums them.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Counters { uint counter[256 * 32]; uvec4 last_id; } c;
void main() {
    uvec3 id = gl_WorkGroupID;
    atomicAdd(c.counter[((id.x ^ id.y ^ id.z) & 255u) * 32u], 1u);
    if (all(equal(id, gl_NumWorkGroups - 1u))) c.last_id = uvec4(id, 1u);
}
