// The row template of quads.c, compiled at every width of lanes.h (lanes_instances.h): the same operations in the same
// order at every width.

// site0[i] = (top[2i] − black[0])·scale[0], site1[i] = (top[2i + 1] − black[1])·scale[1], and site2, site3 the same of
// `bottom` with black[2], black[3] and scale[2], scale[3].
LUX_TARGET static ptrdiff_t LUX_FN(lux_bayer_quads)(const uint16_t *top, const uint16_t *bottom, const float *black,
                                                    const float *scale, float *site0, float *site1, float *site2,
                                                    float *site3, ptrdiff_t i, ptrdiff_t end) {
    vf b0 = vset(black[0]), b1 = vset(black[1]), b2 = vset(black[2]), b3 = vset(black[3]);
    vf k0 = vset(scale[0]), k1 = vset(scale[1]), k2 = vset(scale[2]), k3 = vset(scale[3]);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf t0 = vload_u16(top + 2 * i), t1 = vload_u16(top + 2 * i + LUX_LANES);
        vf u0 = vload_u16(bottom + 2 * i), u1 = vload_u16(bottom + 2 * i + LUX_LANES);
        vstore(site0 + i, vmul(vsub(veven(t0, t1), b0), k0));
        vstore(site1 + i, vmul(vsub(vodd(t0, t1), b1), k1));
        vstore(site2 + i, vmul(vsub(veven(u0, u1), b2), k2));
        vstore(site3 + i, vmul(vsub(vodd(u0, u1), b3), k3));
    }
    return i;
}
