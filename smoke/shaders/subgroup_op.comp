#version 450
// compute.subgroup, one declared subgroup operation class per module (OP from the build).
// Every invocation contributes (invocation id + 1); the host recomputes each result from the
// subgroup layout it saw. .x = subgroup id, .y = invocation id, .z = result, .w = size.
#extension GL_KHR_shader_subgroup_basic : require
#if OP_VOTE
#extension GL_KHR_shader_subgroup_vote : require
#elif OP_ARITHMETIC
#extension GL_KHR_shader_subgroup_arithmetic : require
#elif OP_BALLOT
#extension GL_KHR_shader_subgroup_ballot : require
#elif OP_SHUFFLE
#extension GL_KHR_shader_subgroup_shuffle : require
#elif OP_SHUFFLE_RELATIVE
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#elif OP_CLUSTERED
#extension GL_KHR_shader_subgroup_clustered : require
#elif OP_QUAD
#extension GL_KHR_shader_subgroup_quad : require
#endif
layout(local_size_x = 128) in;
layout(std430, binding = 0) writeonly buffer Out { uvec4 v[]; } o;
void main() {
    uint id = gl_SubgroupInvocationID;
    uint x = id + 1u;
    uint result = 0u;
#if OP_VOTE
    result = (subgroupAll(x > 0u) ? 1u : 0u) | (subgroupAny(id == 0u) ? 2u : 0u) | (subgroupAllEqual(7u) ? 4u : 0u);
#elif OP_ARITHMETIC
    result = subgroupAdd(x);            // n(n+1)/2 over the subgroup
#elif OP_BALLOT
    result = subgroupBallotBitCount(subgroupBallot(true)); // the subgroup's invocation count
#elif OP_SHUFFLE
    result = subgroupShuffle(x, 0u);    // invocation 0's value: 1
#elif OP_SHUFFLE_RELATIVE
    result = subgroupShuffleDown(x, 1u); // the next invocation's value (undefined past the end)
#elif OP_CLUSTERED
    result = subgroupClusteredAdd(x, 4u);
#elif OP_QUAD
    result = subgroupQuadBroadcast(x, 0u); // the quad's first value
#endif
    o.v[gl_LocalInvocationIndex] = uvec4(gl_SubgroupID, id, result, gl_SubgroupSize);
}
