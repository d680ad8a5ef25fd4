#version 450
// One triangle that covers the whole target (no vertex buffers). With PRIMITIVE_RATE defined it
// also asks for a 2x2 shading rate per primitive (VK_KHR_fragment_shading_rate).
#ifdef PRIMITIVE_RATE
#extension GL_EXT_fragment_shading_rate : require
#endif
void main() {
    vec2 p = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
#ifdef PRIMITIVE_RATE
    gl_PrimitiveShadingRateEXT = gl_ShadingRateFlag2VerticalPixelsEXT | gl_ShadingRateFlag2HorizontalPixelsEXT;
#endif
}
