#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#include "ray_common.glsl"
layout(location = 0) rayPayloadInEXT Hit payload;
void main() { payload = Hit(0u, 0u, -1.0, -1.0, -1.0, 0u, 0u, 0u); }
