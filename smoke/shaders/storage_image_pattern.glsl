// The texel pattern both passes and the host agree on, for a 16x16 image: sixteenths are exact
// in half and single floats; unorm8 rounds them to the nearest 1/255, which the host allows for.
VEC pattern(ivec2 p) {
#ifdef INTEGER
    return VEC(uint(p.x + p.y * 16) * 97u + 5u);
#else
    return VEC(float(p.x) / 16.0, float(p.y) / 16.0, float(p.x + p.y) / 32.0, 1.0);
#endif
}
