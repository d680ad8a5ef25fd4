#version 450
// A descriptor array indexed through a helper's parameter with a value pushed at run time (as
// ffmpeg's blur filters pick their planes): the element is known only when the shader runs.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Planes { uint v[]; } planes[2];
layout(std430, binding = 1) writeonly buffer Out { uint v[]; } result;
layout(push_constant) uniform Push { uint plane; } push;
uint load_plane(uint index, uint at) { return planes[index].v[at]; }
void main() { result.v[gl_GlobalInvocationID.x] = load_plane(push.plane, gl_GlobalInvocationID.x) + 1u; }
