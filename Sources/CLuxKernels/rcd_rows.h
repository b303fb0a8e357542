// The row kernels of RCD demosaicing (LuxRAW's RCDDemosaic), written once over the lane operations of lanes.h and
// included by rcd.c once per width. Each computes indices `i` from `i` while a whole vector fits before `end` and
// returns the first index it did not compute (the one-lane instance computes them all). The expression trees are
// Swift's, operation for operation, so every width gives the bits the Swift loops gave.
//
// Planes hold split rows (even columns, then odd ones); `s` is a row seen from the sites of one parity (its
// `same` half) and `t` its `other` half, as RCDDemosaic.SiteRow documents.

#define LUX_INLINE static inline __attribute__((always_inline)) LUX_TARGET

// (m3 − m1 − p1 + p3) − 3·(m2 + p2) + 6·c, the 6th-order high-pass, squared.
LUX_INLINE vf LUX_FN(lux_rcd_hpf2)(vf m3, vf m1, vf p1, vf p3, vf m2, vf p2, vf c) {
    vf a = vadd(vsub(vsub(m3, m1), p1), p3);
    vf r = vadd(vsub(a, vmul(vset(3), vadd(m2, p2))), vmul(vset(6), c));
    return vmul(r, r);
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_vertical_hpf)(const float *p, ptrdiff_t w, float *d, ptrdiff_t i,
                                                           ptrdiff_t end) {
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        const float *c = p + i;
        vstore(d + i, LUX_FN(lux_rcd_hpf2)(vload(c - 3 * w), vload(c - w), vload(c + w), vload(c + 3 * w),
                                            vload(c - 2 * w), vload(c + 2 * w), vload(c)));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_horizontal_hpf)(const float *s, const float *t, float *d, ptrdiff_t i,
                                                             ptrdiff_t end) {
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vstore(d + i, LUX_FN(lux_rcd_hpf2)(vload(t + i - 2), vload(t + i - 1), vload(t + i), vload(t + i + 1),
                                            vload(s + i - 1), vload(s + i + 1), vload(s + i)));
    }
    return i;
}

// max(ε², a + b + c) / (max(ε², a + b + c) + max(ε², d + e + f)).
LUX_INLINE vf LUX_FN(lux_rcd_ratio)(vf a, vf b, vf c, vf d, vf e, vf f, vf eps) {
    vf x = vmax(eps, vadd(vadd(a, b), c));
    vf y = vmax(eps, vadd(vadd(d, e), f));
    return vdiv(x, vadd(x, y));
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_direction)(const float *r0, const float *r1, const float *r2,
                                                        const float *hs, const float *ht, float *d, float epssq,
                                                        ptrdiff_t i, ptrdiff_t end) {
    vf eps = vset(epssq);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vstore(d + i, LUX_FN(lux_rcd_ratio)(vload(r0 + i), vload(r1 + i), vload(r2 + i), vload(ht + i - 1),
                                             vload(hs + i), vload(ht + i), eps));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_low_pass)(const float *s, const float *t, float *d, ptrdiff_t w,
                                                       ptrdiff_t i, ptrdiff_t end) {
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf near = vadd(vadd(vadd(vload(s + i - w), vload(s + i + w)), vload(t + i - 1)), vload(t + i));
        vf far = vadd(vadd(vadd(vload(t + i - w - 1), vload(t + i - w)), vload(t + i + w - 1)), vload(t + i + w));
        vstore(d + i, vadd(vadd(vload(s + i), vmul(vset(0.5f), near)), vmul(vset(0.25f), far)));
    }
    return i;
}

// The soft direction: `central`, or the mean of the four diagonal neighbours (`above`, `below`: the other half of
// the rows above and below) where that is further from ½.
LUX_INLINE vf LUX_FN(lux_rcd_soft)(const float *above, vf central, const float *below, ptrdiff_t i) {
    vf sum = vadd(vadd(vadd(vload(above + i - 1), vload(above + i)), vload(below + i - 1)), vload(below + i));
    vf neighbourhood = vmul(vset(0.25f), sum);
    vf half = vset(0.5f);
    return vselect_lt(vabs(vsub(half, central)), vabs(vsub(half, neighbourhood)), neighbourhood, central);
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_discrimination)(const float *above, const float *central,
                                                             const float *below, float *d, ptrdiff_t i,
                                                             ptrdiff_t end) {
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vstore(d + i, LUX_FN(lux_rcd_soft)(above, vload(central + i), below, i));
    }
    return i;
}

// eps + |a − b| + |c − d| + |e − f| + |g − h|, summed left to right.
LUX_INLINE vf LUX_FN(lux_rcd_grad4)(vf eps, vf a, vf b, vf c, vf d, vf e, vf f, vf g, vf h) {
    vf x = vadd(eps, vabs(vsub(a, b)));
    x = vadd(x, vabs(vsub(c, d)));
    x = vadd(x, vabs(vsub(e, f)));
    return vadd(x, vabs(vsub(g, h)));
}

// n·(1 + (l − ln) / (eps + l + ln)).
LUX_INLINE vf LUX_FN(lux_rcd_ratio_estimate)(vf n, vf l, vf ln, vf eps) {
    return vmul(n, vadd(vset(1), vdiv(vsub(l, ln), vadd(vadd(eps, l), ln))));
}

// (ga·eb + gb·ea) / (ga + gb).
LUX_INLINE vf LUX_FN(lux_rcd_blend)(vf ga, vf eb, vf gb, vf ea) {
    return vdiv(vadd(vmul(ga, eb), vmul(gb, ea)), vadd(ga, gb));
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_green)(const float *s, const float *t, const float *l, const float *disc,
                                                    float *g, ptrdiff_t w, ptrdiff_t i, ptrdiff_t end) {
    vf eps = vset(1e-5f);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        const float *c = s + i;
        vf sm4 = vload(c - 4 * w), sm3 = vload(c - 3 * w), sm2 = vload(c - 2 * w), sm1 = vload(c - w);
        vf s0 = vload(c), sp1 = vload(c + w), sp2 = vload(c + 2 * w), sp3 = vload(c + 3 * w), sp4 = vload(c + 4 * w);
        vf sl1 = vload(c - 1), sl2 = vload(c - 2), sr1 = vload(c + 1), sr2 = vload(c + 2);
        vf tl1 = vload(t + i - 1), tl2 = vload(t + i - 2), t0 = vload(t + i), tr1 = vload(t + i + 1);
        vf nGrad = LUX_FN(lux_rcd_grad4)(eps, sm1, sp1, s0, sm2, sm1, sm3, sm2, sm4);
        vf sGrad = LUX_FN(lux_rcd_grad4)(eps, sm1, sp1, s0, sp2, sp1, sp3, sp2, sp4);
        vf wGrad = LUX_FN(lux_rcd_grad4)(eps, tl1, t0, s0, sl1, tl1, tl2, sl1, sl2);
        vf eGrad = LUX_FN(lux_rcd_grad4)(eps, tl1, t0, s0, sr1, t0, tr1, sr1, sr2);
        const float *lc = l + i;
        vf li = vload(lc);
        vf nEst = LUX_FN(lux_rcd_ratio_estimate)(sm1, li, vload(lc - 2 * w), eps);
        vf sEst = LUX_FN(lux_rcd_ratio_estimate)(sp1, li, vload(lc + 2 * w), eps);
        vf wEst = LUX_FN(lux_rcd_ratio_estimate)(tl1, li, vload(lc - 1), eps);
        vf eEst = LUX_FN(lux_rcd_ratio_estimate)(t0, li, vload(lc + 1), eps);
        vf vEst = LUX_FN(lux_rcd_blend)(sGrad, nEst, nGrad, sEst);
        vf hEst = LUX_FN(lux_rcd_blend)(wGrad, eEst, eGrad, wEst);
        vstore(g + i, vadd(vEst, vmul(vload(disc + i), vsub(hEst, vEst))));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_diagonal_hpf)(const float *s, const float *t, float *dp, float *dq,
                                                           ptrdiff_t w, ptrdiff_t i, ptrdiff_t end) {
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        const float *a = t + i;
        const float *c = s + i;
        vf s0 = vload(c);
        vstore(dp + i, LUX_FN(lux_rcd_hpf2)(vload(a - 3 * w - 2), vload(a - w - 1), vload(a + w), vload(a + 3 * w + 1),
                                             vload(c - 2 * w - 1), vload(c + 2 * w + 1), s0));
        vstore(dq + i, LUX_FN(lux_rcd_hpf2)(vload(a - 3 * w + 1), vload(a - w), vload(a + w - 1), vload(a + 3 * w - 2),
                                             vload(c - 2 * w + 1), vload(c + 2 * w - 1), s0));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_diagonal_direction)(const float *pa, const float *pc, const float *pb,
                                                                 const float *qa, const float *qc, const float *qb,
                                                                 float *d, float epssq, ptrdiff_t i, ptrdiff_t end) {
    vf eps = vset(epssq);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vstore(d + i, LUX_FN(lux_rcd_ratio)(vload(pa + i - 1), vload(pc + i), vload(pb + i), vload(qa + i),
                                             vload(qc + i), vload(qb + i - 1), eps));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_diagonal_color)(float *ms, const float *mt, const float *gs,
                                                             const float *gt, const float *dir_same,
                                                             const float *dir_other, ptrdiff_t w, ptrdiff_t os,
                                                             ptrdiff_t i, ptrdiff_t end) {
    vf eps = vset(1e-5f);
    const float *dir_above = dir_other - w;
    const float *dir_below = dir_other + w;
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf disc = LUX_FN(lux_rcd_soft)(dir_above, vload(dir_same + i), dir_below, i);
        const float *m = mt + i;
        const float *g = gs + i;
        vf nw = vload(m - os - 1), ne = vload(m - os), sw = vload(m + os - 1), se = vload(m + os);
        vf g0 = vload(g);
        vf nwGrad = vadd(vadd(vadd(eps, vabs(vsub(nw, se))), vabs(vsub(nw, vload(m - 3 * os - 2)))),
                         vabs(vsub(g0, vload(g - 2 * os - 1))));
        vf neGrad = vadd(vadd(vadd(eps, vabs(vsub(ne, sw))), vabs(vsub(ne, vload(m - 3 * os + 1)))),
                         vabs(vsub(g0, vload(g - 2 * os + 1))));
        vf swGrad = vadd(vadd(vadd(eps, vabs(vsub(ne, sw))), vabs(vsub(sw, vload(m + 3 * os - 2)))),
                         vabs(vsub(g0, vload(g + 2 * os - 1))));
        vf seGrad = vadd(vadd(vadd(eps, vabs(vsub(nw, se))), vabs(vsub(se, vload(m + 3 * os + 1)))),
                         vabs(vsub(g0, vload(g + 2 * os + 1))));
        const float *gg = gt + i;
        vf nwEst = vsub(nw, vload(gg - os - 1));
        vf neEst = vsub(ne, vload(gg - os));
        vf swEst = vsub(sw, vload(gg + os - 1));
        vf seEst = vsub(se, vload(gg + os));
        vf pEst = LUX_FN(lux_rcd_blend)(nwGrad, seEst, seGrad, nwEst);
        vf qEst = LUX_FN(lux_rcd_blend)(neGrad, swEst, swGrad, neEst);
        vstore(ms + i, vadd(vadd(g0, pEst), vmul(disc, vsub(qEst, pEst))));
    }
    return i;
}

// A colour at green sites from its cardinal neighbours' colour differences (`cs`/`ct`: the colour's plane); the
// green terms are shared by red and blue.
LUX_INLINE vf LUX_FN(lux_rcd_cardinal)(const float *cs, const float *ct, ptrdiff_t os, ptrdiff_t i, vf g0, vf ngG,
                                       vf sgG, vf wgG, vf egG, vf gn, vf gsouth, vf gw, vf ge, vf disc) {
    vf cn = vload(cs + i - os), csouth = vload(cs + i + os), cw = vload(ct + i - 1), ce = vload(ct + i);
    vf snAbs = vabs(vsub(cn, csouth));
    vf ewAbs = vabs(vsub(cw, ce));
    vf nGrad = vadd(vadd(ngG, snAbs), vabs(vsub(cn, vload(cs + i - 3 * os))));
    vf sGrad = vadd(vadd(sgG, snAbs), vabs(vsub(csouth, vload(cs + i + 3 * os))));
    vf wGrad = vadd(vadd(wgG, ewAbs), vabs(vsub(cw, vload(ct + i - 2))));
    vf eGrad = vadd(vadd(egG, ewAbs), vabs(vsub(ce, vload(ct + i + 1))));
    vf nEst = vsub(cn, gn);
    vf sEst = vsub(csouth, gsouth);
    vf wEst = vsub(cw, gw);
    vf eEst = vsub(ce, ge);
    vf vEst = LUX_FN(lux_rcd_blend)(nGrad, sEst, sGrad, nEst);
    vf hEst = LUX_FN(lux_rcd_blend)(eGrad, wEst, wGrad, eEst);
    return vadd(vadd(g0, vEst), vmul(disc, vsub(hEst, vEst)));
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_cardinal_color)(float *rs, const float *rt, float *bs, const float *bt,
                                                             const float *gs, const float *gt, const float *disc,
                                                             ptrdiff_t os, ptrdiff_t i, ptrdiff_t end) {
    vf eps = vset(1e-5f);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        const float *g = gs + i;
        vf g0 = vload(g);
        vf ngG = vadd(eps, vabs(vsub(g0, vload(g - 2 * os))));
        vf sgG = vadd(eps, vabs(vsub(g0, vload(g + 2 * os))));
        vf wgG = vadd(eps, vabs(vsub(g0, vload(g - 1))));
        vf egG = vadd(eps, vabs(vsub(g0, vload(g + 1))));
        vf gn = vload(g - os), gsouth = vload(g + os), gw = vload(gt + i - 1), ge = vload(gt + i);
        vf d = vload(disc + i);
        vf r = LUX_FN(lux_rcd_cardinal)(rs, rt, os, i, g0, ngG, sgG, wgG, egG, gn, gsouth, gw, ge, d);
        vf b = LUX_FN(lux_rcd_cardinal)(bs, bt, os, i, g0, ngG, sgG, wgG, egG, gn, gsouth, gw, ge, d);
        vstore(rs + i, r);
        vstore(bs + i, b);
    }
    return i;
}

// a − b at the sites from 3-tap means along the row and the column, blended by `disc` (the row's weight).
LUX_INLINE vf LUX_FN(lux_rcd_soft_difference)(const float *sa, const float *oa, const float *sb, const float *ob,
                                              vf disc, ptrdiff_t os, ptrdiff_t i) {
    vf third = vset(1.0f / 3.0f);
    vf d0 = vsub(vload(sa + i), vload(sb + i));
    vf dH = vmul(vsub(vadd(vadd(vsub(vload(oa + i - 1), vload(ob + i - 1)), d0), vload(oa + i)), vload(ob + i)),
                 third);
    vf dV = vmul(vsub(vadd(vadd(vsub(vload(sa + i - os), vload(sb + i - os)), d0), vload(sa + i + os)),
                      vload(sb + i + os)),
                 third);
    return vadd(dV, vmul(disc, vsub(dH, dV)));
}

// Green at red/blue sites, in place: g = own − softDifference(own, g).
LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_refine_green)(const float *own_s, const float *own_t, float *gs,
                                                           const float *gt, const float *disc, ptrdiff_t os,
                                                           ptrdiff_t i, ptrdiff_t end) {
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf d = LUX_FN(lux_rcd_soft_difference)(own_s, own_t, gs, gt, vload(disc + i), os, i);
        vstore(gs + i, vsub(vload(own_s + i), d));
    }
    return i;
}

LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_refine_at_green)(float *rs, const float *rt, float *cs, const float *gs,
                                                              const float *gt, ptrdiff_t os, ptrdiff_t i,
                                                              ptrdiff_t end) {
    vf half = vset(0.5f);
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf g0 = vload(gs + i);
        vf row = vsub(vadd(vsub(vload(rt + i - 1), vload(gt + i - 1)), vload(rt + i)), vload(gt + i));
        vf column =
            vsub(vadd(vsub(vload(cs + i - os), vload(gs + i - os)), vload(cs + i + os)), vload(gs + i + os));
        vstore(rs + i, vadd(g0, vmul(half, row)));
        vstore(cs + i, vadd(g0, vmul(half, column)));
    }
    return i;
}

// Red at blue sites (`red_row` 0) or blue at red sites (1), in place.
LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_refine_red_blue)(float *rs, const float *rt, float *bs, const float *bt,
                                                              const float *disc, int red_row, ptrdiff_t os,
                                                              ptrdiff_t i, ptrdiff_t end) {
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf d = LUX_FN(lux_rcd_soft_difference)(rs, rt, bs, bt, vload(disc + i), os, i);
        if (red_row) {
            vstore(bs + i, vsub(vload(rs + i), d));
        } else {
            vstore(rs + i, vadd(vload(bs + i), d));
        }
    }
    return i;
}

// e[i] = p[2i], o[i] = p[2i + 1].
LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_split)(const float *p, float *e, float *o, ptrdiff_t i, ptrdiff_t end) {
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf x = vload(p + 2 * i), y = vload(p + 2 * i + LUX_LANES);
        vstore(e + i, veven(x, y));
        vstore(o + i, vodd(x, y));
    }
    return i;
}

// d[2i] = e[i], d[2i + 1] = o[i].
LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_interleave)(const float *e, const float *o, float *d, ptrdiff_t i,
                                                         ptrdiff_t end) {
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf a = vload(e + i), b = vload(o + i);
        vstore(d + 2 * i, vzip_lo(a, b));
        vstore(d + 2 * i + LUX_LANES, vzip_hi(a, b));
    }
    return i;
}

// a[i] = b[i] = p[i].
LUX_TARGET static ptrdiff_t LUX_FN(lux_rcd_copy2)(const float *p, float *a, float *b, ptrdiff_t i, ptrdiff_t end) {
    for (; i + LUX_LANES <= end; i += LUX_LANES) {
        vf x = vload(p + i);
        vstore(a + i, x);
        vstore(b + i, x);
    }
    return i;
}

#undef LUX_INLINE
