#version 450
// For the reflection unit test: sizes that only specialization decides.
layout(local_size_x_id = 7, local_size_y = 2) in;
layout(constant_id = 8) const uint N = 16u;
layout(constant_id = 9) const uint M = 4u;
shared uvec2 pairs[N * M];   // an OpSpecConstantOp length
shared float single[N];
layout(std430, binding = 0) buffer Out { uint v[]; } o;
void main() {
    pairs[gl_LocalInvocationIndex].x = 1u;
    single[gl_LocalInvocationIndex] = 2.0;
    barrier();
    o.v[0] = pairs[0].x + uint(single[0]);
}
