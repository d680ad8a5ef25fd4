#version 450
// Writes binding 0 through a storage texel buffer with what it reads from binding 1, a storage buffer.
layout(local_size_x = 64) in;
layout(binding = 0, r32ui) uniform writeonly uimageBuffer dst;
layout(std430, binding = 1) readonly buffer In { uint v[]; } src;
void main()
{
    int i = int(gl_GlobalInvocationID.x);
    imageStore(dst, i, uvec4(src.v[i] + 1u));
}
