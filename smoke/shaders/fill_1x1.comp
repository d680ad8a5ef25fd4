#version 450
// compute.1x1: one invocation turns its input into a value the host can predict.
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer Input { uint seed; } inp;
layout(std430, binding = 1) writeonly buffer Output { uint value; } outp;
void main() { outp.value = inp.seed * 2654435761u + 12345u; }
