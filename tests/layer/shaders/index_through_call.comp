#version 450
// A descriptor array indexed through a helper's parameter that every call passes the same
// constant: element 2 only (reflection follows the index through the call), and element 1 through
// a local variable set once.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Planes { uint v[]; } planes[4];
layout(std430, binding = 1) writeonly buffer Out { uint v[]; } result;
uint load_plane(uint index, uint at) { return planes[index].v[at]; }
void main()
{
    uint x = gl_GlobalInvocationID.x;
    uint chroma = 1u;
    result.v[x] = load_plane(2u, x) + load_plane(2u, x + 1u) + planes[chroma].v[x];
}
