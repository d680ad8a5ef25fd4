#version 450
// compute.workgroup_max: a workgroup shaped by specialization constants; every invocation writes
// its flattened local index where the host expects it, and counts itself.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, binding = 0) buffer Output { uint count; uint index[]; } outp;
void main() {
    uint i = gl_LocalInvocationIndex;
    uint expected = gl_LocalInvocationID.x + gl_LocalInvocationID.y * gl_WorkGroupSize.x +
                    gl_LocalInvocationID.z * gl_WorkGroupSize.x * gl_WorkGroupSize.y;
    outp.index[expected] = i + 1u;
    atomicAdd(outp.count, 1u);
}
