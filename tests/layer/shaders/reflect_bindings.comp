#version 450
// For the reflection unit test: every way a binding can be (not) accessed.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 2) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; } read_only;
layout(std430, binding = 1) writeonly buffer Out { uint v[]; } write_only;
layout(std430, binding = 2) buffer Unused { uint v[]; } never_touched;
layout(binding = 3, r32ui) uniform writeonly uimage2D stored_image;
layout(std430, set = 1, binding = 0) buffer Counter { uint n; } atomics;
layout(binding = 4) uniform sampler2D sampled;
layout(binding = 5, rgba8) uniform readonly image2D loaded_image;
layout(std140, binding = 6) uniform Params { uint scale; } params;
shared float scratch[256];
void helper(uint i) { write_only.v[i] = read_only.v[i] * params.scale; }
void main() {
    uint i = gl_LocalInvocationIndex;
    scratch[i] = float(i);
    barrier();
    helper(i);
    imageStore(stored_image, ivec2(i, 0), uvec4(uint(scratch[i])));
    atomicAdd(atomics.n, 1u);
    vec4 s = texture(sampled, vec2(0.5)) + imageLoad(loaded_image, ivec2(0));
    if (s.x > 2.0) write_only.v[0] = 1u;
}
