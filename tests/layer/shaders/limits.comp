#version 450
// Local size and shared memory from specialization constants, so one module reaches every limit.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint WORDS = 1u;
shared uint words[WORDS];
layout(std430, binding = 0) buffer Out { uint value[]; } o;
void main() {
    uint i = gl_LocalInvocationIndex;
    words[i % WORDS] = i;
    barrier();
    if (i == 0u) o.value[gl_WorkGroupID.x] = words[WORDS - 1u];
}
