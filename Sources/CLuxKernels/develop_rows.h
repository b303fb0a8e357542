// The row kernels of RAW development besides demosaicing and noise reduction: linearisation (LuxRAW's
// SensorLinearization), sharpening (Sharpening), the highlight scans (HighlightRecovery, HighlightDefringe), gamut
// mapping (GamutMapping) and the base tone curve (ToneCurve), written once over the lane operations of lanes.h and included by
// develop.c once per width; each computes indices `i` from `i` while
// a whole vector fits before `end` and returns the first index it did not compute. The expression trees are
// Swift's, operation for operation, so every width gives the bits the Swift loops gave.

// o[i] = t[0]·c[i] + t[1]·(c[i − step] + c[i + step]) + …, each tap added in turn (no fused multiply-add).
LUX_TARGET static ptrdiff_t LUX_FN(lux_sharpen_blur)(const float *c, ptrdiff_t step, const float *t, int radius,
                                                       float *o, ptrdiff_t i, ptrdiff_t end) {
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf s = vmul(vset(t[0]), vload(c + i));
        for (int k = 1; k <= radius; k++) {
            s = vadd(s, vmul(vset(t[k]), vadd(vload(c + i - k * step), vload(c + i + k * step))));
        }
        vstore(o + i, s);
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_sharpen_luma)(const float *r, const float *g, const float *b, float wr,
                                                       float wg, float wb, float *l, ptrdiff_t i, ptrdiff_t end) {
    vf kr = vset(wr), kg = vset(wg), kb = vset(wb);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vstore(l + i, vadd(vadd(vmul(kr, vload(r + i)), vmul(kg, vload(g + i))), vmul(kb, vload(b + i))));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_sharpen_mask)(const float *r, const float *g, const float *b, const float *l,
                                                       const float *blurred, float amount, float threshold,
                                                       float *red, float *green, float *blue, ptrdiff_t i,
                                                       ptrdiff_t end) {
    vf a = vset(amount), th = vset(threshold), zero = vset(0), one = vset(1), dark = vset(1e-4f);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf y = vload(l + i);
        vf detail = vsub(y, vload(blurred + i));
        vf shrunk = vsub(detail, vmin(vmax(detail, vneg(th)), th));
        vf y2 = vmax(vadd(y, vmul(a, shrunk)), zero);
        // y ≤ 1e-4: f = 1 and add = y2 − y; otherwise f = y2 / y and add = 0.
        vf f = vselect_le(y, dark, one, vdiv(y2, y));
        vf add = vselect_le(y, dark, vsub(y2, y), zero);
        vstore(red + i, vadd(vmul(vload(r + i), f), add));
        vstore(green + i, vadd(vmul(vload(g + i), f), add));
        vstore(blue + i, vadd(vmul(vload(b + i), f), add));
    }
    return i;
}

// out[i] = (s[i] − black) · scale, with `black` and `scale` the even-column values at even `i` and the odd ones at
// odd `i`.
LUX_TARGET static ptrdiff_t LUX_FN(lux_linearize_u16)(const uint16_t *s, float black_even, float black_odd,
                                                        float scale_even, float scale_odd, float *out, ptrdiff_t i,
                                                        ptrdiff_t end) {
#if LUX_LANES == 1
    for (; i < end; i++) {
        int odd = (int)(i & 1);
        out[i] = ((float)s[i] - (odd ? black_odd : black_even)) * (odd ? scale_odd : scale_even);
    }
#else
    // `i` starts even (at 0) and steps by an even count, so lane j has the parity of j.
    vf black = vset2(black_even, black_odd), scale = vset2(scale_even, scale_odd);
    for (; i + LUX_LANES <= end; i += LUX_LANES) vstore(out + i, vmul(vsub(vload_u16(s + i), black), scale));
#endif
    return i;
}

// Sets *found when max(r, max(g, b)) > level at some index; stops (returning `end`) at the first vector that has one.
LUX_TARGET static ptrdiff_t LUX_FN(lux_highlight_exceeds)(const float *r, const float *g, const float *b, float level,
                                                            int *found, ptrdiff_t i, ptrdiff_t end) {
    vf l = vset(level);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        if (vany_gt(vmax(vload(r + i), vmax(vload(g + i), vload(b + i))), l)) {
            *found = 1;
            return end;
        }
    }
    return i;
}

// out[i] = max(r·kr, max(g·kg, b·kb)); sets *found when one exceeds `level`.
LUX_TARGET static ptrdiff_t LUX_FN(lux_defringe_levels)(const float *r, const float *g, const float *b, float kr,
                                                          float kg, float kb, float level, float *out, int *found,
                                                          ptrdiff_t i, ptrdiff_t end) {
    vf ar = vset(kr), ag = vset(kg), ab = vset(kb), l = vset(level);
    int any = 0;
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf v = vmax(vmul(vload(r + i), ar), vmax(vmul(vload(g + i), ag), vmul(vload(b + i), ab)));
        vstore(out + i, v);
        any |= vany_gt(v, l);
    }
    if (any) *found = 1;
    return i;
}

// In place: with lo = min(r, min(g, b)) and Y = kr·r + kg·g + kb·b, each channel c becomes base + t·(c − base), where
// t = lo ≥ 0 ? 1 : (Y > 0 ? Y / (Y − lo) : 0) and base = lo ≥ 0 || Y > 0 ? Y : 0.
LUX_TARGET static ptrdiff_t LUX_FN(lux_gamut_map)(float *r, float *g, float *b, float kr, float kg, float kb,
                                                    ptrdiff_t i, ptrdiff_t end) {
    vf ar = vset(kr), ag = vset(kg), ab = vset(kb), zero = vset(0), one = vset(1);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf R = vload(r + i), G = vload(g + i), B = vload(b + i);
        vf lo = vmin(R, vmin(G, B));
        vf y = vadd(vadd(vmul(ar, R), vmul(ag, G)), vmul(ab, B));
        // `0 <= lo` is `lo >= 0` and `0 < y` is `y > 0`, NaN included.
        vf t = vselect_le(zero, lo, one, vselect_lt(zero, y, vdiv(y, vsub(y, lo)), zero));
        vf base = vselect_le(zero, lo, y, vselect_lt(zero, y, y, zero));
        vstore(r + i, vadd(base, vmul(t, vsub(R, base))));
        vstore(g + i, vadd(base, vmul(t, vsub(G, base))));
        vstore(b + i, vadd(base, vmul(t, vsub(B, base))));
    }
    return i;
}

// In place: the pixel scaled by f = (1 − k) + k·T(n)/n, n = max(max(r, g), max(b, 1e-9)), with the base curve's
// T(n)/n = 1 / (1 + u) · (2.531 n + 0.855), u = n · (2.531 n + 0.855).
LUX_TARGET static ptrdiff_t LUX_FN(lux_tone_base)(float *r, float *g, float *b, float k, ptrdiff_t i, ptrdiff_t end) {
    vf a = vset(2.531f), c = vset(0.855f), one = vset(1), tiny = vset(1e-9f), kk = vset(k), rest = vset(1 - k);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf R = vload(r + i), G = vload(g + i), B = vload(b + i);
        vf n = vmax(vmax(R, G), vmax(B, tiny));
        vf u = vmul(n, vadd(vmul(a, n), c));
        vf ratio = vmul(vdiv(one, vadd(one, u)), vadd(vmul(a, n), c));
        vf f = vadd(rest, vmul(kk, ratio));
        vstore(r + i, vmul(R, f));
        vstore(g + i, vmul(G, f));
        vstore(b + i, vmul(B, f));
    }
    return i;
}
