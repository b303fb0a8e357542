// The row kernels of the capture pipeline's fused development (LuxCapture's FusedDevelopment), written once over the
// lane operations of lanes.h and included by capture.c once per width; each computes indices `i` from `i` while a
// whole vector fits before `end` and returns the first index it did not compute. The expression trees are the Swift
// reference's (the kernel tests'), operation for operation and with no fused multiply-add, so every width gives its
// bits.

// even[i] = (s[2i] − black)·scale, odd[i] = (s[2i + 1] − black)·scale; *peak = max(*peak, every value).
LUX_TARGET static ptrdiff_t LUX_FN(lux_capture_load)(const uint16_t *s, float black, float scale, float *even,
                                                       float *odd, float *peak, ptrdiff_t i, ptrdiff_t end) {
    vf b = vset(black), k = vset(scale), top = vset(*peak);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf lo = vmul(vsub(vload_u16(s + 2 * i), b), k);
        vf hi = vmul(vsub(vload_u16(s + 2 * i + LUX_LANES), b), k);
        vf e = veven(lo, hi), o = vodd(lo, hi);
        vstore(even + i, e);
        vstore(odd + i, o);
        top = vmax(top, vmax(e, o));
    }
    float lanes[LUX_LANES];
    vstore(lanes, top);
    for (int j = 0; j < LUX_LANES; j++) *peak = lanes[j] >= *peak ? lanes[j] : *peak;
    return i;
}

// The bilinear demosaic and colour matrix of one column parity: with h = left + right, v = up + down and
// d = (up_left + up_right) + (down_left + down_right), r = ((w0·c + w1·h) + w2·v) + w3·d, g and b with w4…w7 and
// w8…w11.
LUX_TARGET static ptrdiff_t LUX_FN(lux_capture_demosaic)(const lux_capture_neighbours *n, const float *w, float *r,
                                                           float *g, float *b, ptrdiff_t i, ptrdiff_t end) {
    vf a0 = vset(w[0]), a1 = vset(w[1]), a2 = vset(w[2]), a3 = vset(w[3]);
    vf a4 = vset(w[4]), a5 = vset(w[5]), a6 = vset(w[6]), a7 = vset(w[7]);
    vf a8 = vset(w[8]), a9 = vset(w[9]), a10 = vset(w[10]), a11 = vset(w[11]);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf c = vload(n->centre + i);
        vf h = vadd(vload(n->left + i), vload(n->right + i));
        vf v = vadd(vload(n->up + i), vload(n->down + i));
        vf d = vadd(vadd(vload(n->up_left + i), vload(n->up_right + i)),
                    vadd(vload(n->down_left + i), vload(n->down_right + i)));
        vstore(r + i, vadd(vadd(vadd(vmul(a0, c), vmul(a1, h)), vmul(a2, v)), vmul(a3, d)));
        vstore(g + i, vadd(vadd(vadd(vmul(a4, c), vmul(a5, h)), vmul(a6, v)), vmul(a7, d)));
        vstore(b + i, vadd(vadd(vadd(vmul(a8, c), vmul(a9, h)), vmul(a10, v)), vmul(a11, d)));
    }
    return i;
}

// x ↦ encode(rollOff(x)) in place (the header's formulas). The roll-off equals max(x, 0) for every x below its
// start (NaN included), so a vector with no value at or above it skips the division.
LUX_TARGET static ptrdiff_t LUX_FN(lux_capture_encode)(float *x, const lux_unit_encoding *e, ptrdiff_t i,
                                                         ptrdiff_t end) {
    const vf zero = vset(0), one = vset(1), start = vset(0.6f), below = vset(LUX_ROLL_OFF_BELOW), c04 = vset(0.4f),
             c14 = vset(1.4f);
    const vf knee = vset(e->knee), slope = vset(e->slope), intercept = vset(e->intercept),
             u_scale = vset(e->u_scale), u_offset = vset(e->u_offset);
    const vf c0 = vset(e->c[0]), c1 = vset(e->c[1]), c2 = vset(e->c[2]), c3 = vset(e->c[3]), c4 = vset(e->c[4]),
             c5 = vset(e->c[5]), c6 = vset(e->c[6]);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf v = vload(x + i);
        vf lin = vselect_lt(zero, v, v, zero);
        if (vany_gt(v, below)) {
            vf t = vadd(one, vmul(vsub(lin, start), c14));
            vf bent = vadd(start, vmul(vmul(c04, vsub(one, vdiv(one, t))), c14));
            vf compressed = vselect_lt(bent, one, bent, one);
            lin = vselect_lt(lin, start, lin, compressed);
        }
        vf root = vsqrt(vselect_lt(zero, lin, lin, zero));
        vf u = vadd(u_offset, vmul(vsqrt(vselect_lt(zero, root, root, zero)), u_scale));
        vf p = c6;
        p = vadd(c5, vmul(p, u));
        p = vadd(c4, vmul(p, u));
        p = vadd(c3, vmul(p, u));
        p = vadd(c2, vmul(p, u));
        p = vadd(c1, vmul(p, u));
        p = vadd(c0, vmul(p, u));
        vf line = vadd(intercept, vmul(lin, slope));
        vstore(x + i, vselect_lt(lin, knee, line, p));
    }
    return i;
}
