#version 460
#extension GL_EXT_ray_query : require
#extension GL_GOOGLE_include_directive : require
// ray_query.*: one ray per invocation through a TLAS of one instance. Opaque triangles commit
// without candidates; non-opaque triangles show one candidate that is confirmed; an AABB
// candidate is intersected here (slab test) and committed with rayQueryGenerateIntersectionEXT.
#include "ray_common.glsl"
layout(local_size_x = 1) in;
layout(binding = 0) uniform accelerationStructureEXT scene;
layout(std430, binding = 1) readonly buffer Rays { Ray rays[]; };
layout(std430, binding = 2) writeonly buffer Hits { Hit hits[]; };
layout(push_constant) uniform Box { vec4 box_min; vec4 box_max; } box;

float slab_entry(vec3 o, vec3 d, float tmin, float tmax) {
    vec3 inv = 1.0 / d;
    vec3 t0 = (box.box_min.xyz - o) * inv, t1 = (box.box_max.xyz - o) * inv;
    float near = max(max(min(t0.x, t1.x), min(t0.y, t1.y)), min(t0.z, t1.z));
    float far = min(min(max(t0.x, t1.x), max(t0.y, t1.y)), max(t0.z, t1.z));
    return (near <= far && near >= tmin && near <= tmax) ? near : -1.0;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    Ray r = rays[i];
    rayQueryEXT q;
    rayQueryInitializeEXT(q, scene, gl_RayFlagsNoneEXT, 0xFF, r.origin_tmin.xyz, r.origin_tmin.w, r.dir_tmax.xyz,
                          r.dir_tmax.w);
    uint candidates = 0u;
    while (rayQueryProceedEXT(q)) {
        candidates++;
        if (rayQueryGetIntersectionTypeEXT(q, false) == gl_RayQueryCandidateIntersectionTriangleEXT) {
            rayQueryConfirmIntersectionEXT(q);
        } else {
            float t = slab_entry(r.origin_tmin.xyz, r.dir_tmax.xyz, r.origin_tmin.w, r.dir_tmax.w);
            if (t >= 0.0) rayQueryGenerateIntersectionEXT(q, t);
        }
    }
    Hit h;
    h.committed = rayQueryGetIntersectionTypeEXT(q, true);
    h.candidates = candidates;
    h.t = h.committed != 0u ? rayQueryGetIntersectionTEXT(q, true) : -1.0;
    vec2 bary = h.committed == 1u ? rayQueryGetIntersectionBarycentricsEXT(q, true) : vec2(-1.0);
    h.u = bary.x;
    h.v = bary.y;
    h.pad0 = h.pad1 = h.pad2 = 0u;
    hits[i] = h;
}
