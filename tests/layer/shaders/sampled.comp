#version 450
// Samples a texture through a combined image sampler into a buffer: the lifetime scenarios destroy
// the view and the sampler while the dispatch is pending.
layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2D tex;
layout(std430, binding = 1) buffer Out { vec4 v[]; } dst;
void main() { dst.v[0] = textureLod(tex, vec2(0.5), 0.0); }
