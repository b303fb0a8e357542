// The row kernels of RCD demosaicing, 8 lanes wide with AVX2 (chosen at run time), 4 with SSE, 1 for the rest of a
// row and on other CPUs: one template (rcd_rows.h), the same operations in the same order at every width.
#include "CLuxKernels.h"

#pragma clang fp contract(off)

#define LUX_ROWS "rcd_rows.h"
#include "lanes_instances.h"

void lux_rcd_vertical_hpf(const float *p, ptrdiff_t w, float *d, ptrdiff_t start, ptrdiff_t end) {
    LUX_RUN(lux_rcd_vertical_hpf, start, end, p, w, d);
}

void lux_rcd_horizontal_hpf(const float *s, const float *t, float *d, ptrdiff_t start, ptrdiff_t end) {
    LUX_RUN(lux_rcd_horizontal_hpf, start, end, s, t, d);
}

void lux_rcd_direction(const float *r0, const float *r1, const float *r2, const float *hs, const float *ht, float *d,
                       float epssq, ptrdiff_t start, ptrdiff_t end) {
    LUX_RUN(lux_rcd_direction, start, end, r0, r1, r2, hs, ht, d, epssq);
}

void lux_rcd_low_pass(const float *s, const float *t, float *d, ptrdiff_t w, ptrdiff_t start, ptrdiff_t end) {
    LUX_RUN(lux_rcd_low_pass, start, end, s, t, d, w);
}

void lux_rcd_discrimination(const float *above, const float *central, const float *below, float *d, ptrdiff_t start,
                            ptrdiff_t end) {
    LUX_RUN(lux_rcd_discrimination, start, end, above, central, below, d);
}

void lux_rcd_green(const float *s, const float *t, const float *low_pass, const float *disc, float *g, ptrdiff_t w,
                   ptrdiff_t start, ptrdiff_t end) {
    LUX_RUN(lux_rcd_green, start, end, s, t, low_pass, disc, g, w);
}

void lux_rcd_diagonal_hpf(const float *s, const float *t, float *dp, float *dq, ptrdiff_t w, ptrdiff_t start,
                          ptrdiff_t end) {
    LUX_RUN(lux_rcd_diagonal_hpf, start, end, s, t, dp, dq, w);
}

void lux_rcd_diagonal_direction(const float *pa, const float *pc, const float *pb, const float *qa, const float *qc,
                                const float *qb, float *d, float epssq, ptrdiff_t start, ptrdiff_t end) {
    LUX_RUN(lux_rcd_diagonal_direction, start, end, pa, pc, pb, qa, qc, qb, d, epssq);
}

void lux_rcd_diagonal_color(float *ms, const float *mt, const float *gs, const float *gt, const float *dir_same,
                            const float *dir_other, ptrdiff_t w, ptrdiff_t os, ptrdiff_t start, ptrdiff_t end) {
    LUX_RUN(lux_rcd_diagonal_color, start, end, ms, mt, gs, gt, dir_same, dir_other, w, os);
}

void lux_rcd_cardinal_color(float *rs, const float *rt, float *bs, const float *bt, const float *gs, const float *gt,
                            const float *disc, ptrdiff_t os, ptrdiff_t start, ptrdiff_t end) {
    LUX_RUN(lux_rcd_cardinal_color, start, end, rs, rt, bs, bt, gs, gt, disc, os);
}

void lux_rcd_refine_green(const float *own_s, const float *own_t, float *gs, const float *gt, const float *disc,
                          ptrdiff_t os, ptrdiff_t start, ptrdiff_t end) {
    LUX_RUN(lux_rcd_refine_green, start, end, own_s, own_t, gs, gt, disc, os);
}

void lux_rcd_refine_at_green(float *rs, const float *rt, float *cs, const float *gs, const float *gt, ptrdiff_t os,
                             ptrdiff_t start, ptrdiff_t end) {
    LUX_RUN(lux_rcd_refine_at_green, start, end, rs, rt, cs, gs, gt, os);
}

void lux_rcd_refine_red_blue(float *rs, const float *rt, float *bs, const float *bt, const float *disc, int red_row,
                             ptrdiff_t os, ptrdiff_t start, ptrdiff_t end) {
    LUX_RUN(lux_rcd_refine_red_blue, start, end, rs, rt, bs, bt, disc, red_row, os);
}

void lux_rcd_split(const float *p, float *d, ptrdiff_t w) {
    ptrdiff_t evens = (w + 1) >> 1;
    LUX_RUN(lux_rcd_split, 0, w >> 1, p, d, d + evens);
    if (w & 1) d[evens - 1] = p[w - 1];
}

void lux_rcd_interleave(const float *p, ptrdiff_t w, ptrdiff_t x0, ptrdiff_t n, float *d) {
    const float *odd = p + ((w + 1) >> 1);
    ptrdiff_t j = 0;
    if ((x0 & 1) && n > 0) {
        d[0] = odd[x0 >> 1];
        j = 1;
    }
    // Column x0 + j is even from here: pairs of (even, odd) columns.
    ptrdiff_t e = (x0 + j) >> 1;
    ptrdiff_t pairs = (n - j) >> 1;
    LUX_RUN(lux_rcd_interleave, 0, pairs, p + e, odd + e, d + j);
    if ((n - j) & 1) d[n - 1] = p[e + pairs];
}

void lux_rcd_copy2(const float *p, float *a, float *b, ptrdiff_t start, ptrdiff_t end) {
    LUX_RUN(lux_rcd_copy2, start, end, p, a, b);
}
