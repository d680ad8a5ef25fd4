#version 450
// ggml's element-wise op in small: reads `count` floats through binding 0 and writes them doubled
// through binding 1 from element `dst_first` on. Each binding is bound from its tensor's offset to
// the end of the buffer, as ggml binds them; the shader reaches only `count` elements of each.
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint count; uint dst_first; } p;
layout(std430, binding = 0) readonly buffer In { float v[]; } src;
layout(std430, binding = 1) writeonly buffer Out { float v[]; } dst;
void main()
{
    if (gl_GlobalInvocationID.x >= p.count)
        return;
    dst.v[p.dst_first + gl_GlobalInvocationID.x] = src.v[gl_GlobalInvocationID.x] * 2.0;
}
