/* Pippenger buckets, written once for G1 and G2 (see group_g1.h): batch-affine accumulation (adds to
 * distinct buckets are collected and share one inversion, ≈6M per add instead of 10M for XYZZ),
 * a small queue for adds whose bucket is already in the open batch, XYZZ spill buckets when the
 * queue is full (or for every add in plain XYZZ mode), the running-sum reduction (batch-affine too
 * when the buckets are many), and a batch-affine sum of a list of points (the scalars equal to 1).
 * Needs xyzz.h. No include guard. */

typedef struct {
    const AFF *p;
    uint32_t b; /* bucket */
    uint32_t f; /* MSM_OP_NEG: add −p; MSM_OP_DBL: p is the bucket itself (doubling) */
} GP(op);

/* Segments of the batch-affine bucket reduction (bucket_reduce_affine): its batches have this many
 * additions, and the segments' results are combined with 3 XYZZ additions each. */
#ifndef MSM_RED_SEGS
#define MSM_RED_SEGS 256
#endif

/* Scratch of one thread: buckets and the open batch. */
typedef struct {
    size_t kmax;       /* bucket capacity */
    size_t capmax;     /* batch capacity allocated */
    size_t cap;        /* batch capacity of the current task (<= capmax) */
    size_t qcap;       /* queue capacity */
    bool affine;       /* batch-affine buckets (else every add goes to the XYZZ bucket) */
    AFF *bk;           /* affine buckets (valid where MSM_B_SET) */
    GP(xyzz) *sp;      /* XYZZ spill buckets (valid where MSM_B_SPILL) */
    uint8_t *st;       /* MSM_B_* flags per bucket */
    GP(op) *ops;       /* the open batch; NULL with the G1 kernel, whose batch is ko, kq, kneg */
    FE *pfx;           /* pfx[i] = product of the denominators of ops[0..i]; NULL with a kernel */
    size_t m;          /* adds in the open batch */
    GP(op) *q, *qtmp;  /* adds waiting for their bucket to leave the batch */
    size_t qn;
    size_t nspill;     /* buckets with MSM_B_SPILL set since the last reset */
    void *mem;         /* owns all the arrays (ws_layout) */
#ifdef GROUP_BATCH_KERNEL
    /* A vector batch-add kernel (8-lane AVX-512 IFMA) that takes over the flush; NULL: scalar. */
    const ec_ifma_ops *kern;
    const AFF **kq;
    AFF **ko;
    uint8_t *kneg;
    uint8_t *kskip;    /* pairs the kernel left out (equal x) */
    void *kscr;
#endif
} GP(ws);

static inline void GP(ws_free)(GP(ws) *w)
{
    free(w->mem);
    memset(w, 0, sizeof *w);
}

/* The arrays of a scratch in one block (laid out when base is not NULL), each on its own cache lines;
 * returns the block's size. One block of a MiB or more gets huge pages (util/bigmem.h): a 4 KiB page
 * fault costs more than a bucket flush on some virtual machines. */
static size_t GP(ws_layout)(GP(ws) *w, uint8_t *base, size_t kmax, size_t cap, size_t qcap, bool kern)
{
    size_t off = 0;
#define WS_TAKE(dst, bytes)                                   \
    do {                                                      \
        if (base)                                             \
            (dst) = (void *)(base + off);                     \
        off += ((size_t)(bytes) + 63) & ~(size_t)63;          \
    } while (0)
    /* Past the kmax buckets: the running sums and accumulators of bucket_reduce_affine. */
    WS_TAKE(w->bk, (kmax + 2 * MSM_RED_SEGS) * sizeof(AFF));
    WS_TAKE(w->sp, kmax * sizeof(GP(xyzz)));
    WS_TAKE(w->st, kmax + 2 * MSM_RED_SEGS);
    bool ops = true; /* the scalar flush's batch, and the G2 kernel's before it sorts out doublings */
#ifdef GROUP_KERNEL_SKIP
    ops = !kern;     /* ba_add writes the G1 kernel's arguments straight away */
#endif
    if (ops)
        WS_TAKE(w->ops, cap * sizeof(GP(op)));
    if (!kern)
        WS_TAKE(w->pfx, cap * sizeof(FE));
    WS_TAKE(w->q, qcap * sizeof(GP(op)));
    WS_TAKE(w->qtmp, qcap * sizeof(GP(op)));
#ifdef GROUP_BATCH_KERNEL
    if (kern) {
        WS_TAKE(w->kq, cap * sizeof *w->kq);
        WS_TAKE(w->ko, cap * sizeof *w->ko);
        WS_TAKE(w->kneg, cap);
        WS_TAKE(w->kskip, cap);
        WS_TAKE(w->kscr, GROUP_KERNEL_SCRATCH(cap));
    }
#else
    (void)kern;
#endif
#undef WS_TAKE
    return off;
}

/* Returns false when out of memory (w is then left empty). kern: see GP(ws).kern. */
static inline bool GP(ws_init)(GP(ws) *w, size_t kmax, size_t cap, size_t qcap, const void *kern)
{
    memset(w, 0, sizeof *w);
    if (cap < 1)
        cap = 1;
    if (qcap < 1)
        qcap = 1;
    w->kmax = kmax;
    w->capmax = w->cap = cap;
    w->qcap = qcap;
    size_t bytes = GP(ws_layout)(w, NULL, kmax, cap, qcap, kern != NULL);
    w->mem = bytes >= ((size_t)1 << 20) ? cuzk_big_malloc(bytes) : aligned_alloc(64, bytes);
    if (!w->mem)
        return false;
    GP(ws_layout)(w, w->mem, kmax, cap, qcap, kern != NULL);
#ifdef GROUP_BATCH_KERNEL
    w->kern = kern;
#endif
    return true;
}

/* Empties buckets [0, k) for a task with batches of up to cap adds (clamped to the allocation). */
static inline void GP(ws_reset)(GP(ws) *w, size_t k, bool affine, size_t cap)
{
    memset(w->st, 0, k);
    w->cap = cap < 1 ? 1 : cap > w->capmax ? w->capmax : cap;
    w->m = 0;
    w->qn = 0;
    w->nspill = 0;
    w->affine = affine;
}

/* Whole-struct zero test: the affine infinity is (0, 0), all-zero bytes in Montgomery form. */
static inline bool GP(aff_is_zero_bytes)(const AFF *p)
{
    const uint64_t *v = (const uint64_t *)p;
    uint64_t acc = 0;
    for (size_t i = 0; i < sizeof(AFF) / 8; i++)
        acc |= v[i];
    return acc == 0;
}

static inline void GP(spill)(GP(ws) *w, uint32_t b, const AFF *p, bool neg)
{
    if (w->st[b] & MSM_B_SPILL) {
        GP(xyzz_madd)(&w->sp[b], &w->sp[b], p, neg);
    } else {
        GP(xyzz_from_aff)(&w->sp[b], p, neg);
        w->st[b] |= MSM_B_SPILL;
        w->nspill++;
    }
}

/* bucket b += ±p (p not at infinity). In batch-affine mode the addition is only scheduled: the
 * caller flushes when w->m reaches w->cap. */
static inline void GP(ba_add)(GP(ws) *w, uint32_t b, const AFF *p, uint32_t neg)
{
    uint8_t s = w->st[b];
    if (!w->affine) {
        GP(spill)(w, b, p, neg);
        return;
    }
    if (s & MSM_B_BATCH) {
        if (w->qn < w->qcap)
            w->q[w->qn++] = (GP(op)){p, b, neg};
        else
            GP(spill)(w, b, p, neg);
        return;
    }
    AFF *bk = &w->bk[b];
    if (!(s & MSM_B_SET)) {
        if (GP(aff_is_zero_bytes)(p)) /* callers that leave infinity to the kernel (see run_window) */
            return;
        bk->x = p->x;
        if (neg)
            FE_(neg)(&bk->y, &p->y);
        else
            bk->y = p->y;
        w->st[b] = s | MSM_B_SET;
        return;
    }
#ifdef GROUP_KERNEL_SKIP
    if (w->kern) { /* the kernel finds equal x and p at infinity itself: no need to read the bucket here */
        size_t i = w->m++; /* straight into the kernel's arguments (ba_flush_kernel) */
        w->ko[i] = bk;
        w->kq[i] = p;
        w->kneg[i] = (uint8_t)neg;
        w->st[b] = s | MSM_B_BATCH;
        return;
    }
#endif
    FE d;
    uint32_t f = neg;
    FE_(sub)(&d, &p->x, &bk->x);
    if (FE_(is_zero)(&d)) {
        /* Same x: ±p equals the bucket (double it) or its negation (the bucket empties). */
        FE y;
        if (neg)
            FE_(neg)(&y, &p->y);
        else
            y = p->y;
        if (!FE_(eq)(&y, &bk->y) || FE_(is_zero)(&y)) {
            w->st[b] = s & ~MSM_B_SET;
            return;
        }
        FE_(dbl)(&d, &bk->y);
        f = MSM_OP_DBL;
    }
    size_t i = w->m++;
#ifdef GROUP_BATCH_KERNEL
    if (!w->kern)
#endif
    {
        if (i == 0)
            w->pfx[0] = d;
        else
            FE_(mul)(&w->pfx[i], &w->pfx[i - 1], &d);
    }
    w->ops[i] = (GP(op)){p, b, f};
    w->st[b] = s | MSM_B_BATCH;
}

#ifndef MSM_FLUSH_PREFETCH
#define MSM_FLUSH_PREFETCH 4
#endif

/* Completes the open batch: one inversion, then each bucket gets λ, x3 = λ² − x1 − x2,
 * y3 = λ·(x1 − x3) − y1, walking the batch backwards to peel the inverses off the prefix products. */
#ifdef GROUP_BATCH_KERNEL
/* bucket += ±p (or bucket doubled) on its own, with one inversion: the kernel path's rare cases. */
static void GP(aff_add_one)(AFF *bk, const AFF *p, uint32_t f)
{
    FE num, den, lam, t;
    const FE *x2 = &p->x;
    if (f & MSM_OP_DBL) {
        FE_(dbl)(&den, &bk->y);
        FE_(sqr)(&t, &bk->x);
        FE_(dbl)(&num, &t);
        FE_(add)(&num, &num, &t);
        x2 = &bk->x;
    } else {
        FE_(sub)(&den, &p->x, &bk->x);
        if (f & MSM_OP_NEG)
            FE_(neg)(&t, &p->y);
        else
            t = p->y;
        FE_(sub)(&num, &t, &bk->y);
    }
    FE_(inv)(&den, &den);
    FE_(mul)(&lam, &num, &den);
    FE_(sqr)(&t, &lam);
    FE_(sub)(&t, &t, &bk->x);
    FE_(sub)(&t, &t, x2);
    FE_(sub)(&num, &bk->x, &t);
    FE_(mul)(&num, &num, &lam);
    FE_(sub)(&bk->y, &num, &bk->y);
    bk->x = t;
}

#ifdef GROUP_KERNEL_SKIP
/* Op o was left out by the kernel: p is at infinity (the bucket stays), or ±p has the bucket's x (the
 * bucket doubles or empties), or p is (0, ±2), not in the group but added exactly all the same. */
static void GP(ba_skipped)(GP(ws) *w, const GP(op) *o)
{
    AFF *bk = &w->bk[o->b];
    if (GP(aff_is_zero_bytes)(o->p))
        return;
    if (!FE_(eq)(&o->p->x, &bk->x)) {
        GP(aff_add_one)(bk, o->p, o->f);
        return;
    }
    FE y;
    if (o->f & MSM_OP_NEG)
        FE_(neg)(&y, &o->p->y);
    else
        y = o->p->y;
    if (!FE_(eq)(&y, &bk->y) || FE_(is_zero)(&y))
        w->st[o->b] &= (uint8_t)~MSM_B_SET;
    else
        GP(aff_add_one)(bk, bk, MSM_OP_DBL);
}
#endif

#ifdef GROUP_KERNEL_SKIP
/* The flush through the vector kernel. ba_add wrote the batch as the kernel's arguments (pair i: bucket
 * ko[i] += ±kq[i]), the bucket being both an input and the output, and scheduled no doublings. */
static void GP(ba_flush_kernel)(GP(ws) *w)
{
    size_t m = w->m;
    size_t skipped = w->kern->GROUP_KERNEL_SKIP(w->ko, (const AFF *const *)w->ko, w->kq, w->kneg, m, w->kscr,
                                                w->kskip);
    for (size_t i = 0; i < m; i++) {
        uint32_t b = (uint32_t)(w->ko[i] - w->bk);
        if (skipped && w->kskip[i])
            GP(ba_skipped)(w, &(GP(op)){w->kq[i], b, w->kneg[i]});
        w->st[b] &= (uint8_t)~MSM_B_BATCH;
    }
    w->m = 0;
}
#else
/* The flush through the vector kernel; the doublings (equal points) go one by one. */
static void GP(ba_flush_kernel)(GP(ws) *w)
{
    size_t cnt = 0;
    for (size_t i = 0; i < w->m; i++) {
        const GP(op) *o = &w->ops[i];
        if (o->f & MSM_OP_DBL)
            continue;
        w->ko[cnt] = &w->bk[o->b];
        w->kq[cnt] = o->p;
        w->kneg[cnt] = (uint8_t)(o->f & MSM_OP_NEG);
        cnt++;
    }
    /* ba_add let no equal x through, so the kernel cannot refuse; if it does, go one by one. The bucket is
     * both an input and the output. */
    bool ok = cnt == 0 || w->kern->GROUP_KERNEL_ADD(w->ko, (const AFF *const *)w->ko, w->kq, w->kneg, cnt, w->kscr);
    for (size_t i = 0; i < w->m; i++) {
        const GP(op) *o = &w->ops[i];
        if ((o->f & MSM_OP_DBL) || !ok)
            GP(aff_add_one)(&w->bk[o->b], o->p, o->f);
        w->st[o->b] &= (uint8_t)~MSM_B_BATCH;
    }
    w->m = 0;
}
#endif
#endif

static void GP(ba_flush)(GP(ws) *w)
{
    size_t m = w->m;
    if (m == 0)
        return;
#ifdef GROUP_BATCH_KERNEL
    if (w->kern) {
        GP(ba_flush_kernel)(w);
        return;
    }
#endif
    FE inv, ii, d, lam, t;
    FE_(inv)(&inv, &w->pfx[m - 1]);
    for (size_t i = m; i-- > 0;) {
        const GP(op) *o = &w->ops[i];
        AFF *bk = &w->bk[o->b];
        if (i >= MSM_FLUSH_PREFETCH) {
            /* The batch (points, buckets, prefixes) outgrows L1: fetch a few ops ahead. */
            const GP(op) *f = &w->ops[i - MSM_FLUSH_PREFETCH];
            __builtin_prefetch(f->p);
            __builtin_prefetch((const char *)f->p + sizeof(AFF) - 1);
            __builtin_prefetch(&w->bk[f->b]);
            __builtin_prefetch((const char *)&w->bk[f->b] + sizeof(AFF) - 1, 1);
        }
        const FE *x2;
        bool flip = false;
        if (i > 0)
            FE_(mul)(&ii, &inv, &w->pfx[i - 1]);
        else
            ii = inv;
        if (o->f & MSM_OP_DBL) {
            FE_(dbl)(&d, &bk->y);
            FE_(sqr)(&t, &bk->x);
            FE_(dbl)(&lam, &t);
            FE_(add)(&t, &t, &lam);       /* 3x² */
            x2 = &bk->x;
        } else {
            FE_(sub)(&d, &o->p->x, &bk->x);
            if (o->f & MSM_OP_NEG) {       /* λ = (−y2 − y1)/d: compute −λ and flip the sign below */
                FE_(add)(&t, &o->p->y, &bk->y);
                flip = true;
            } else {
                FE_(sub)(&t, &o->p->y, &bk->y);
            }
            x2 = &o->p->x;
        }
        FE_(mul)(&lam, &t, &ii);
        if (i > 0)
            FE_(mul)(&inv, &inv, &d);
        FE_(sqr)(&t, &lam);
        FE_(sub)(&t, &t, &bk->x);
        FE_(sub)(&t, &t, x2);             /* x3 */
        if (flip)
            FE_(sub)(&d, &t, &bk->x);
        else
            FE_(sub)(&d, &bk->x, &t);
        FE_(mul)(&d, &d, &lam);
        FE_(sub)(&bk->y, &d, &bk->y);
        bk->x = t;
        w->st[o->b] &= (uint8_t)~MSM_B_BATCH;
    }
    w->m = 0;
}

/* Re-offers the queued adds (their buckets have left the batch). Flushes as the batch fills. */
static void GP(ba_drain)(GP(ws) *w)
{
    size_t n = w->qn;
    if (n == 0)
        return;
    memcpy(w->qtmp, w->q, n * sizeof *w->q);
    w->qn = 0;
    for (size_t j = 0; j < n; j++) {
        const GP(op) *o = &w->qtmp[j];
        GP(ba_add)(w, o->b, o->p, o->f);
        if (w->m == w->cap)
            GP(ba_flush)(w);
    }
}

/* Called after a scheduled add filled the batch. */
static inline void GP(ba_full)(GP(ws) *w)
{
    GP(ba_flush)(w);
    GP(ba_drain)(w);
}

/* Applies every pending add. A queue that keeps conflicting with itself (the same bucket many
 * times) goes to the spill buckets rather than into batches of one. */
static void GP(ba_finish)(GP(ws) *w)
{
    GP(ba_flush)(w);
    for (int round = 0; round < 4 && w->qn; round++) {
        GP(ba_drain)(w);
        GP(ba_flush)(w);
    }
    for (size_t j = 0; j < w->qn; j++)
        GP(spill)(w, w->q[j].b, w->q[j].p, w->q[j].f & MSM_OP_NEG);
    w->qn = 0;
}

/* acc += g·p for a small g >= 1 (double-and-add). */
static void GP(xyzz_add_mul_small)(GP(xyzz) *acc, const GP(xyzz) *p, size_t g)
{
    if (g == 1) {
        GP(xyzz_add)(acc, acc, p);
        return;
    }
    GP(xyzz) t = *p;
    int top = 63 - __builtin_clzll((unsigned long long)g);
    for (int i = top - 1; i >= 0; i--) {
        GP(xyzz_dbl)(&t, &t);
        if ((g >> i) & 1)
            GP(xyzz_add)(&t, &t, p);
    }
    GP(xyzz_add)(acc, acc, &t);
}

/* out = Σ_{b<k} (b+1)·bucket[b] = Σ_b (running sum of the buckets >= b), from the top down.
 * A run of g empty buckets adds g times the same running sum: one small multiplication instead of
 * g additions, so large windows over few points stay cheap. */
static void GP(bucket_reduce)(GP(ws) *w, size_t k, GP(xyzz) *out)
{
    GP(xyzz) sum, acc;
    GP(xyzz_set_inf)(&sum);
    GP(xyzz_set_inf)(&acc);
    size_t prev = k;   /* the last non-empty bucket seen (k: none yet) */
    for (size_t b = k; b-- > 0;) {
        uint8_t s = w->st[b];
        if (!(s & (MSM_B_SET | MSM_B_SPILL)))
            continue;
        if (prev < k)
            GP(xyzz_add_mul_small)(&acc, &sum, prev - b);
        if (s & MSM_B_SET)
            GP(xyzz_madd)(&sum, &sum, &w->bk[b], false);
        if (s & MSM_B_SPILL)
            GP(xyzz_add)(&sum, &sum, &w->sp[b]);
        prev = b;
    }
    if (prev < k)
        GP(xyzz_add_mul_small)(&acc, &sum, prev + 1);
    *out = acc;
}

/* Folds the spill buckets into the affine ones (one inversion each: they are rare in affine mode).
 * False when there are too many for that to pay; then the buckets are left as they were. */
static bool GP(unspill)(GP(ws) *w, size_t k)
{
    if (w->nspill > k / 64)
        return false;
    for (size_t b = 0; b < k && w->nspill; b++) {
        uint8_t s = w->st[b];
        if (!(s & MSM_B_SPILL))
            continue;
        if (s & MSM_B_SET)
            GP(xyzz_madd)(&w->sp[b], &w->sp[b], &w->bk[b], false);
        s &= (uint8_t)~(MSM_B_SPILL | MSM_B_SET);
        if (!GP(xyzz_is_inf)(&w->sp[b])) {
            GP(xyzz_to_aff)(&w->bk[b], &w->sp[b]);
            s |= MSM_B_SET;
        }
        w->st[b] = s;
        w->nspill--;
    }
    return true;
}

/* The running-sum reduction of bucket_reduce with batch-affine additions: the k buckets are cut
 * into S segments of L = k/S, and the segments walk their buckets from the top in lockstep, so each
 * step is two batches of S additions sharing one inversion each (R_s += bucket, then A_s += R_s)
 * instead of 2S XYZZ additions. Then segment s holds R_s = Σ bucket and A_s = Σ (t+1)·bucket[sL+t],
 * and Σ_b (b+1)·bucket[b] = Σ_s A_s + L·Σ_s s·R_s, the last sum again a running sum (XYZZ, S terms).
 * Needs affine mode without spills (see unspill), k a power of two >= 2·MSM_RED_SEGS and
 * w->capmax >= MSM_RED_SEGS; bk and st have 2·MSM_RED_SEGS slots past kmax for R_s and A_s. */
static void GP(bucket_reduce_affine)(GP(ws) *w, size_t k, GP(xyzz) *out)
{
    const size_t S = MSM_RED_SEGS, L = k / S;
    const uint32_t rs = (uint32_t)w->kmax, as = rs + (uint32_t)S; /* R_s at rs + s, A_s at as + s */
    memset(w->st + w->kmax, 0, 2 * S);
    w->cap = w->capmax;
    for (size_t t = L; t-- > 0;) {
        for (size_t s = 0; s < S; s++) {
            size_t b = s * L + t;
            if (w->st[b] & MSM_B_SET) {
                GP(ba_add)(w, rs + (uint32_t)s, &w->bk[b], 0);
                if (w->m == w->cap)
                    GP(ba_flush)(w);
            }
        }
        GP(ba_flush)(w);
        for (size_t s = 0; s < S; s++) {
            if (w->st[rs + s] & MSM_B_SET) {
                GP(ba_add)(w, as + (uint32_t)s, &w->bk[rs + s], 0);
                if (w->m == w->cap)
                    GP(ba_flush)(w);
            }
        }
        GP(ba_flush)(w);
    }
    GP(xyzz) sum, acc;
    GP(xyzz_set_inf)(&sum);
    GP(xyzz_set_inf)(&acc);
    for (size_t s = S; s-- > 1;) {
        if (w->st[rs + s] & MSM_B_SET)
            GP(xyzz_madd)(&sum, &sum, &w->bk[rs + s], false);
        GP(xyzz_add)(&acc, &acc, &sum);
    }
    for (size_t l = L; l > 1; l >>= 1)
        GP(xyzz_dbl)(&acc, &acc);
    for (size_t s = 0; s < S; s++)
        if (w->st[as + s] & MSM_B_SET)
            GP(xyzz_madd)(&acc, &acc, &w->bk[as + s], false);
    *out = acc;
}

/* The window's bucket sum: batch-affine when the buckets are many and affine. */
static void GP(bucket_reduce_any)(GP(ws) *w, size_t k, GP(xyzz) *out)
{
    if (w->affine && k >= 2 * MSM_RED_SEGS && w->capmax >= MSM_RED_SEGS && w->qn == 0 && GP(unspill)(w, k))
        GP(bucket_reduce_affine)(w, k, out);
    else
        GP(bucket_reduce)(w, k, out);
}

/* out = Σ_j bases[idx ? idx[j] : j] for j < n, with batch-affine additions: `slots` running partial
 * sums each take one point per round (one inversion per round), then are added up pairwise.
 * Requires slots <= w->kmax and slots <= w->capmax. */
static void GP(sum_points)(GP(ws) *w, GP(xyzz) *out, const AFF *bases, const uint32_t *idx, size_t n,
                           size_t slots)
{
    if (slots < 1)
        slots = 1;
    GP(ws_reset)(w, slots, true, slots);
    size_t slot = 0;
    for (size_t j = 0; j < n; j++) {
        const AFF *p = &bases[idx ? idx[j] : j];
        if (j + 8 < n)
            __builtin_prefetch(&bases[idx ? idx[j + 8] : j + 8]);
        if (GP(aff_is_zero_bytes)(p))
            continue;
        GP(ba_add)(w, (uint32_t)slot, p, 0);
        if (++slot == slots) {
            GP(ba_flush)(w);
            slot = 0;
        }
    }
    GP(ba_flush)(w);
    /* Pairwise: slot j += slot j + lo for j < h. All targets differ, so nothing queues. */
    size_t cnt = slots;
    while (cnt > 16) {
        size_t h = cnt / 2, lo = cnt - h;
        for (size_t j = 0; j < h; j++)
            if (w->st[lo + j] & MSM_B_SET)
                GP(ba_add)(w, (uint32_t)j, &w->bk[lo + j], 0);
        GP(ba_flush)(w);
        cnt = lo;
    }
    GP(xyzz) acc;
    GP(xyzz_set_inf)(&acc);
    for (size_t j = 0; j < cnt; j++)
        if (w->st[j] & MSM_B_SET)
            GP(xyzz_madd)(&acc, &acc, &w->bk[j], false);
    *out = acc;
}

