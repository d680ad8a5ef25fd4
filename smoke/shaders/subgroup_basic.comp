#version 450
#extension GL_KHR_shader_subgroup_basic : require
// compute.subgroup: the subgroup size, ids and an elected invocation as the shader sees them.
layout(local_size_x = 128) in;
layout(std430, binding = 0) writeonly buffer Out { uvec4 v[]; } o;
void main() {
    // the record layout of subgroup_op.comp: subgroup id, invocation id, result (elected), size
    o.v[gl_LocalInvocationIndex] = uvec4(gl_SubgroupID, gl_SubgroupInvocationID, subgroupElect() ? 1u : 0u,
                                         gl_SubgroupSize);
}
