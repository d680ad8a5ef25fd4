#version 450
// compute.storage_image.<format>, first pass: imageStore a pattern derived from the coordinate.
// FORMAT, IMAGE and VEC come from the build (one SPIR-V module per format).
layout(local_size_x = 8, local_size_y = 8) in;
layout(FORMAT, binding = 0) uniform writeonly IMAGE img;
#include "storage_image_pattern.glsl"
void main() { imageStore(img, ivec2(gl_GlobalInvocationID.xy), pattern(ivec2(gl_GlobalInvocationID.xy))); }
