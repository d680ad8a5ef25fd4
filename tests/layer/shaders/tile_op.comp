#version 450
// ggml's matrix product in small: each workgroup writes its 4x4 output tile (16 floats from element
// dst_first + 16 * workgroup) with two loops over the tile's rows and columns. glslang keeps the
// loop counters as function variables stored twice (set, then stepped): the layer bounds them by
// their loops' conditions. Both bindings are bound from their tensors to the buffers' ends.
layout(local_size_x = 1) in;
layout(push_constant) uniform Params { uint count; uint dst_first; } p;
layout(std430, binding = 0) readonly buffer In { float v[]; } src;
layout(std430, binding = 1) writeonly buffer Out { float v[]; } dst;
void main()
{
    uint tile = gl_WorkGroupID.x * 16u;
    for (uint row = 0u; row < 4u; ++row)
        for (int col = 0; col < 4; col += 2) {
            dst.v[p.dst_first + tile + row * 4u + uint(col)] = src.v[tile + row * 4u + uint(col)] * 2.0;
            dst.v[p.dst_first + tile + row * 4u + uint(col) + 1u] = 0.0;
        }
}
