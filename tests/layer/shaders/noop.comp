#version 450
// One invocation per group, one word of output per group: for the group-count scenarios.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { uint value[]; } o;
void main() { o.value[0] = gl_WorkGroupID.x; }
