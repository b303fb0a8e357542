// The row kernels of RAW noise reduction (LuxRAW's NoiseReduction and its à-trous Wavelet), written once over the
// lane operations of lanes.h and included by nr.c once per width; each computes indices `i` from `i` while a whole
// vector fits before `end` and returns the first index it did not compute. The expression trees are Swift's,
// operation for operation, so every width gives the bits the Swift loops gave.

#define LUX_INLINE static inline __attribute__((always_inline)) LUX_TARGET

// d − clamp(d, −t, t) (Swift's `d - min(max(d, -t), t)`).
LUX_INLINE vf LUX_FN(lux_nr_soft)(vf d, vf t) { return vsub(d, vmin(vmax(d, vneg(t)), t)); }

// √max(a·x + b, b, 0).
LUX_INLINE vf LUX_FN(lux_nr_sigma)(vf x, vf a, vf b) {
    return vsqrt(vmax(vmax(vadd(vmul(a, x), b), b), vset(0)));
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_nr_taps5)(const float *c, const float *a1, const float *b1, const float *a2,
                                                   const float *b2, float *o, float k0, float k1, float k2,
                                                   ptrdiff_t i, ptrdiff_t end) {
    vf w0 = vset(k0), w1 = vset(k1), w2 = vset(k2);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf x = vadd(vmul(w0, vload(c + i)), vmul(w1, vadd(vload(a1 + i), vload(b1 + i))));
        vstore(o + i, vadd(x, vmul(w2, vadd(vload(a2 + i), vload(b2 + i)))));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_nr_shrink)(const float *fine, const float *coarse, const float *sigma,
                                                    float factor, float gain, float *acc, ptrdiff_t i,
                                                    ptrdiff_t end) {
    vf f = vset(factor), g = vset(gain);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf d = vsub(vload(fine + i), vload(coarse + i));
        vf t = vmul(f, vload(sigma + i));
        vstore(acc + i, vadd(vload(acc + i), vmul(g, LUX_FN(lux_nr_soft)(d, t))));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_nr_shrink_finest)(float *p, const float *coarse, float a, float b,
                                                           float factor, float gain, ptrdiff_t i, ptrdiff_t end) {
    vf va = vset(a), vb = vset(b), f = vset(factor), g = vset(gain);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf c = vload(coarse + i);
        vf d = vsub(vload(p + i), c);
        vf t = vmul(f, LUX_FN(lux_nr_sigma)(c, va, vb));
        vstore(p + i, vadd(c, vmul(g, LUX_FN(lux_nr_soft)(d, t))));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_nr_noise_sigma)(const float *signal, float *out, float a, float b, float scale,
                                                         ptrdiff_t i, ptrdiff_t end) {
    vf va = vset(a), vb = vset(b), s = vset(scale);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vstore(out + i, vmul(s, LUX_FN(lux_nr_sigma)(vload(signal + i), va, vb)));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_nr_correct)(float *c, const float *coarse, const float *correction,
                                                     const float *sigma, float factor, ptrdiff_t i, ptrdiff_t end) {
    vf f = vset(factor);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf k = vload(coarse + i);
        vf fine = vsub(vload(c + i), k);
        vf t = vmul(f, vload(sigma + i));
        vf kept = vadd(vadd(k, vload(correction + i)), fine);
        vstore(c + i, vsub(kept, vmin(vmax(fine, vneg(t)), t)));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_nr_split)(const float *r, const float *g, const float *b, float *y, float *cr,
                                                   float *cb, ptrdiff_t i, ptrdiff_t end) {
    vf quarter = vset(0.25f), two = vset(2);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf vr = vload(r + i), vg = vload(g + i), vb = vload(b + i);
        vstore(y + i, vmul(quarter, vadd(vadd(vr, vmul(two, vg)), vb)));
        vstore(cr + i, vsub(vr, vg));
        vstore(cb + i, vsub(vb, vg));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_nr_merge)(const float *y, const float *cr, const float *cb, float *r, float *g,
                                                   float *b, ptrdiff_t i, ptrdiff_t end) {
    vf quarter = vset(0.25f);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf vcr = vload(cr + i), vcb = vload(cb + i);
        vf vg = vsub(vload(y + i), vmul(quarter, vadd(vcr, vcb)));
        vstore(r + i, vadd(vcr, vg));
        vstore(g + i, vg);
        vstore(b + i, vadd(vcb, vg));
    }
    return i;
}

// o[i] = 0.25·(((a[2i] + a[2i+1]) + b[2i]) + b[2i+1]).
LUX_TARGET static ptrdiff_t LUX_FN(lux_nr_downsample)(const float *a, const float *b, float *o, ptrdiff_t i,
                                                        ptrdiff_t end) {
    vf quarter = vset(0.25f);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf a0 = vload(a + 2 * i), a1 = vload(a + 2 * i + LUX_LANES);
        vf b0 = vload(b + 2 * i), b1 = vload(b + 2 * i + LUX_LANES);
        vf sum = vadd(vadd(vadd(veven(a0, a1), vodd(a0, a1)), veven(b0, b1)), vodd(b0, b1));
        vstore(o + i, vmul(quarter, sum));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_nr_subtract)(float *a, const float *b, ptrdiff_t i, ptrdiff_t end) {
    for (; i + LUX_LANES <= end; i += LUX_LANES) vstore(a + i, vsub(vload(a + i), vload(b + i)));
    return i;
}

// v[i] = 0.75·a[i] + 0.25·b[i].
LUX_TARGET static ptrdiff_t LUX_FN(lux_nr_blend)(const float *a, const float *b, float *v, ptrdiff_t i,
                                                   ptrdiff_t end) {
    vf k = vset(0.75f), l = vset(0.25f);
    for (; i + LUX_LANES <= end; i += LUX_LANES) vstore(v + i, vadd(vmul(k, vload(a + i)), vmul(l, vload(b + i))));
    return i;
}

// d[2i − 1] = 0.75·v[i − 1] + 0.25·v[i], d[2i] = 0.75·v[i] + 0.25·v[i − 1].
LUX_TARGET static ptrdiff_t LUX_FN(lux_nr_upsample_pairs)(const float *v, float *d, ptrdiff_t i, ptrdiff_t end) {
    vf k = vset(0.75f), l = vset(0.25f);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf left = vload(v + i - 1), right = vload(v + i);
        vf odd = vadd(vmul(k, left), vmul(l, right));
        vf even = vadd(vmul(k, right), vmul(l, left));
        vstore(d + 2 * i - 1, vzip_lo(odd, even));
        vstore(d + 2 * i - 1 + LUX_LANES, vzip_hi(odd, even));
    }
    return i;
}

#undef LUX_INLINE
