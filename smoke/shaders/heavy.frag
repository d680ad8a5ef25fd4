#version 450
// Fragment-heavy work for timing a shading rate: a long dependent chain per invocation, so the
// pass's GPU time follows the number of fragment invocations (what a coarser rate reduces).
layout(location = 0) out uint color;
void main() {
    uint h = uint(gl_FragCoord.x) * 73856093u ^ uint(gl_FragCoord.y) * 19349663u;
    for (int i = 0; i < 1024; ++i)
        h = (h ^ (h >> 15)) * 2246822519u + uint(i);
    color = h;
}
