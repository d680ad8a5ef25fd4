#version 450
// A load that keeps the GPU's arithmetic busy for as long as `iterations` says, for the power
// benchmark's square wave: no memory traffic but one store, so the work is the same every pass.
layout(local_size_x = 256) in;
layout(push_constant) uniform Push {
    uint iterations;
} p;
layout(std430, binding = 0) buffer Sink {
    float values[];
} sink;

void main()
{
    float a = float(gl_GlobalInvocationID.x) * 1e-6, b = 1.0001;
    for (uint i = 0; i < p.iterations; ++i)
        a = fma(a, b, 1e-7);
    if (a == -1.0) // never true: keeps the loop from being optimised away
        sink.values[gl_GlobalInvocationID.x & 1023u] = a;
}
