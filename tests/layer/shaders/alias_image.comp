#version 450
// Writes a storage image (binding 0) from a sampled image (binding 1).
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, r32f) uniform writeonly image2D dst;
layout(binding = 1) uniform sampler2D src;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(dst, p, texelFetch(src, p, 0));
}
