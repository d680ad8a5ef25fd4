#version 450
// A loop whose counter the body moves as well (by what it reads): not a counter the layer can
// bound, so the bytes it reaches are not provable (tests/unit/test_access_footprint.c).
layout(local_size_x = 1) in;
layout(push_constant) uniform Params { uint count; uint dst_first; } p;
layout(std430, binding = 0) readonly buffer In { float v[]; } src;
layout(std430, binding = 1) writeonly buffer Out { float v[]; } dst;
void main()
{
    for (uint i = 0u; i < 4u; ++i) {
        dst.v[p.dst_first + i] = 1.0;
        if (src.v[i] > 0.0)
            i += 8u;
    }
}
