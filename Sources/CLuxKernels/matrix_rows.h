// The colour converter's 3×3 matrix over float planes (LuxColor's ColorConverter), written once over the lane
// operations of lanes.h and included by matrix_planes.c once per width. The expression tree is Swift's, operation for
// operation (no fused multiply-add), so every width gives the bits the Swift loop gave.

LUX_TARGET static ptrdiff_t LUX_FN(lux_matrix3_planes)(const float *m, float *r, float *g, float *b, ptrdiff_t i,
                                                         ptrdiff_t end) {
    vf m0 = vset(m[0]), m1 = vset(m[1]), m2 = vset(m[2]);
    vf m3 = vset(m[3]), m4 = vset(m[4]), m5 = vset(m[5]);
    vf m6 = vset(m[6]), m7 = vset(m[7]), m8 = vset(m[8]);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf x = vload(r + i), y = vload(g + i), z = vload(b + i);
        vstore(r + i, vadd(vadd(vmul(m0, x), vmul(m1, y)), vmul(m2, z)));
        vstore(g + i, vadd(vadd(vmul(m3, x), vmul(m4, y)), vmul(m5, z)));
        vstore(b + i, vadd(vadd(vmul(m6, x), vmul(m7, y)), vmul(m8, z)));
    }
    return i;
}
