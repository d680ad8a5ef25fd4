#version 450
// compute.storage_image.<format>, second pass: imageLoad every texel into a buffer the host checks.
layout(local_size_x = 8, local_size_y = 8) in;
layout(FORMAT, binding = 0) uniform readonly IMAGE img;
layout(std430, binding = 1) writeonly buffer Texels { VEC texel[]; } outp;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    outp.texel[p.y * 16 + p.x] = imageLoad(img, p);
}
