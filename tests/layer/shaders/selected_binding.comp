#version 450
// ggml's fused multi-add in small: four storage buffers, often ranges of one buffer that run to its
// end; a specialization constant picks the binding written (the others before it are read), a push
// constant bounds the work. Which binding is written is fixed only at pipeline creation, and which
// bytes each binding touches only at the dispatch.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint WRITTEN = 3;
layout(push_constant) uniform Push { uint count; } pc;
layout(std430, binding = 0) buffer B0 { float v[]; } b0;
layout(std430, binding = 1) buffer B1 { float v[]; } b1;
layout(std430, binding = 2) buffer B2 { float v[]; } b2;
layout(std430, binding = 3) buffer B3 { float v[]; } b3;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count)
        return;
    float sum = 0.0;
    if (WRITTEN > 0) sum += b0.v[i];
    if (WRITTEN > 1) sum += b1.v[i];
    if (WRITTEN > 2) sum += b2.v[i];
    switch (WRITTEN) {
    case 0: b0.v[i] = sum; break;
    case 1: b1.v[i] = sum; break;
    case 2: b2.v[i] = sum; break;
    default: b3.v[i] = sum; break;
    }
}
