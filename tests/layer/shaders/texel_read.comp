#version 450
#extension GL_EXT_samplerless_texture_functions : require
// Reads one texel per invocation through a uniform texel buffer (a utextureBuffer: an image of
// Dim Buffer, fetched without a sampler), writes binding 1.
layout(local_size_x = 64) in;
layout(binding = 0) uniform utextureBuffer src;
layout(std430, binding = 1) buffer Out { uint v[]; } dst;
void main() { dst.v[gl_GlobalInvocationID.x] = texelFetch(src, int(gl_GlobalInvocationID.x)).x; }
