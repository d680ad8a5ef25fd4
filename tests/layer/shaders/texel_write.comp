#version 450
// Writes one texel per invocation through a storage texel buffer (an r32ui imageBuffer).
layout(local_size_x = 64) in;
layout(binding = 0, r32ui) uniform writeonly uimageBuffer dst;
void main() { imageStore(dst, int(gl_GlobalInvocationID.x), uvec4(gl_GlobalInvocationID.x)); }
