#version 450
// A particle update that bounds its work by a pushed count: the dispatch must cover `count`
// invocations in x (the dispatch-coverage scenarios push 10000 and dispatch 156 or 157 groups).
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { float scale; uint count; } params;
layout(std430, binding = 0) buffer Particles { float v[]; } particles;
void main()
{
    if (gl_GlobalInvocationID.x >= params.count)
        return;
    particles.v[gl_GlobalInvocationID.x] *= params.scale;
}
