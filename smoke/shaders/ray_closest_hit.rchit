#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#include "ray_common.glsl"
layout(location = 0) rayPayloadInEXT Hit payload;
hitAttributeEXT vec2 barycentrics;
void main() { payload = Hit(1u, 0u, gl_HitTEXT, barycentrics.x, barycentrics.y, 0u, 0u, 0u); }
