#version 450
// GLSL's usamplerBuffer: a uniform texel buffer, though SPIR-V gives it a sampled-image type.
layout(local_size_x = 64) in;
layout(binding = 0) uniform usamplerBuffer src;
layout(std430, binding = 1) buffer Out { uint v[]; } dst;
void main() { dst.v[gl_GlobalInvocationID.x] = texelFetch(src, int(gl_GlobalInvocationID.x)).x; }
