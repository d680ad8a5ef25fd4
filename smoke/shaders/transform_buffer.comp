#version 450
// compute.buffer and compute.barrier: out[i] = in[i] * 3 + i + add, for every element.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Input { uint values[]; } inp;
layout(std430, binding = 1) writeonly buffer Output { uint values[]; } outp;
layout(push_constant) uniform Push { uint count; uint add; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.count) outp.values[i] = inp.values[i] * 3u + i + pc.add;
}
