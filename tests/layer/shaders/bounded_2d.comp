#version 450
// An image filter over width x height pixels, bounded in x and y through a local variable.
layout(local_size_x = 8, local_size_y = 8) in;
layout(push_constant) uniform Size { uint width; uint height; } size;
layout(std430, binding = 0) buffer Pixels { float v[]; } pixels;
void main()
{
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= size.width || p.y >= size.height)
        return;
    pixels.v[p.y * size.width + p.x] += 1.0;
}
