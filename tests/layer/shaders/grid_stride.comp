#version 450
// A grid-stride loop: any number of groups covers `count` elements, so the comparison of the
// loop index with the pushed count is no bound on the dispatch.
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint count; } params;
layout(std430, binding = 0) buffer Data { float v[]; } data;
void main()
{
    for (uint i = gl_GlobalInvocationID.x; i < params.count; i += gl_NumWorkGroups.x * 64u)
        data.v[i] += 1.0;
}
