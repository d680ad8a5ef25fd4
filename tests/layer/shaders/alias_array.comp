#version 450
// A descriptor array reached through constant indices only: element 1 is read, element 0 written,
// element 2 never reached. Binding 1 is declared and never used.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Arr { uint v[]; } arr[3];
layout(std430, binding = 1) buffer Unused { uint v[]; } unused;
void main() { arr[0].v[gl_GlobalInvocationID.x] = arr[1].v[gl_GlobalInvocationID.x] * 2u; }
