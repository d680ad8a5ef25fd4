#version 450
#extension GL_EXT_samplerless_texture_functions : require
// Every way a compute shader reaches a texel buffer (images of Dim Buffer), one binding each.
layout(local_size_x = 64) in;
layout(binding = 0, r32ui) uniform writeonly uimageBuffer stored;   // imageStore: written
layout(binding = 1, r32ui) uniform uimageBuffer counted;            // imageAtomicAdd: read and written
layout(binding = 2) uniform utextureBuffer fetched;                 // texelFetch: read
layout(binding = 3, r32ui) uniform readonly uimageBuffer loaded;    // imageLoad: read
layout(binding = 4, r32ui) uniform uimageBuffer untouched;          // declared only: no access
void main()
{
    int i = int(gl_GlobalInvocationID.x);
    uint v = texelFetch(fetched, i).x + imageLoad(loaded, i).x;
    imageAtomicAdd(counted, i, v);
    imageStore(stored, i, uvec4(v));
}
