// Rays and results shared by the ray query and ray tracing pipeline tests (and the host side in
// ray_tests.c): a ray per invocation, a result per ray.
struct Ray {
    vec4 origin_tmin; // xyz origin, w tmin
    vec4 dir_tmax;    // xyz direction, w tmax
};
struct Hit {
    uint committed;   // 0 none, 1 triangle, 2 generated (procedural)
    uint candidates;  // rayQueryProceedEXT steps that produced a candidate
    float t;
    float u;
    float v;
    uint pad0, pad1, pad2;
};
