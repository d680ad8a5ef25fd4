#version 450
#extension GL_EXT_fragment_shading_rate : require
// Writes the shading rate the hardware used for this fragment ((log2 w << 2) | log2 h) and counts
// its own invocations. Nothing here forces 1x1: no sample shading, no depth or stencil export,
// no sample mask.
layout(location = 0) out uint rate;
layout(std430, binding = 0) buffer Invocations { uint count; } invocations;
void main() {
    rate = uint(gl_ShadingRateEXT);
    atomicAdd(invocations.count, 1u);
}
