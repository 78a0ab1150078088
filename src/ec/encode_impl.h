/* zcash/blst point encodings (see include/cuzk/curve.h), written once for G1 and G2. The including
 * file defines EC_FE, EC_AFF, EC_FN(name) (internal g1_/g2_ names), EC_PUB(name) (cuzk_g1_/cuzk_g2_),
 * EC_FE_BYTES, EC_FE_TO_BYTES(out, a), EC_FE_FROM_BYTES(r, in) (false when not canonical), and a
 * function EC_FN(fe_sign)(y): the flag-0x20 sign of a coordinate. */
#include <string.h>

#define EC_FLAG_COMPRESSED 0x80
#define EC_FLAG_INFINITY 0x40
#define EC_FLAG_SIGN 0x20
#define EC_FLAGS 0xe0

void EC_PUB(compress)(uint8_t out[EC_FE_BYTES], const EC_AFF *p)
{
    if (EC_FN(aff_is_inf)(p)) {
        memset(out, 0, EC_FE_BYTES);
        out[0] = EC_FLAG_COMPRESSED | EC_FLAG_INFINITY;
        return;
    }
    EC_FE_TO_BYTES(out, &p->x);
    out[0] |= EC_FLAG_COMPRESSED;
    if (EC_FN(fe_sign)(&p->y))
        out[0] |= EC_FLAG_SIGN;
}

void EC_PUB(serialize)(uint8_t out[2 * EC_FE_BYTES], const EC_AFF *p)
{
    if (EC_FN(aff_is_inf)(p)) {
        memset(out, 0, 2 * EC_FE_BYTES);
        out[0] = EC_FLAG_INFINITY;
        return;
    }
    EC_FE_TO_BYTES(out, &p->x);
    EC_FE_TO_BYTES(out + EC_FE_BYTES, &p->y);
}

/* Infinity must be the flag byte and nothing else: no sign bit, no payload. */
static cuzk_status EC_FN(check_inf_encoding)(const uint8_t *in, size_t len)
{
    if (in[0] & EC_FLAG_SIGN)
        return CUZK_ERR_BAD_FLAGS;
    uint8_t acc = in[0] & (uint8_t)~EC_FLAGS;
    for (size_t i = 1; i < len; i++)
        acc |= in[i];
    return acc ? CUZK_ERR_BAD_FLAGS : CUZK_OK;
}

/* x from the first EC_FE_BYTES with the flag bits masked off. */
static bool EC_FN(read_x)(EC_FE *x, const uint8_t *in)
{
    uint8_t buf[EC_FE_BYTES];
    memcpy(buf, in, EC_FE_BYTES);
    buf[0] &= (uint8_t)~EC_FLAGS;
    return EC_FE_FROM_BYTES(x, buf);
}

static cuzk_status EC_FN(decompress_impl)(EC_AFF *p, const uint8_t *in, bool check)
{
    if (!p || !in)
        return CUZK_ERR_INVALID_ARG;
    if (!(in[0] & EC_FLAG_COMPRESSED))
        return CUZK_ERR_BAD_FLAGS;
    if (in[0] & EC_FLAG_INFINITY) {
        cuzk_status st = EC_FN(check_inf_encoding)(in, EC_FE_BYTES);
        if (st == CUZK_OK)
            EC_FN(aff_set_inf)(p);
        return st;
    }
    EC_FE x;
    EC_AFF q;
    if (!EC_FN(read_x)(&x, in))
        return CUZK_ERR_NOT_CANONICAL;
    if (!EC_FN(aff_from_x)(&q, &x, (in[0] & EC_FLAG_SIGN) != 0))
        return CUZK_ERR_NOT_ON_CURVE;
    if (check && !EC_FN(aff_in_subgroup)(&q))
        return CUZK_ERR_NOT_IN_SUBGROUP;
    *p = q;
    return CUZK_OK;
}

static cuzk_status EC_FN(deserialize_impl)(EC_AFF *p, const uint8_t *in, bool check)
{
    if (!p || !in)
        return CUZK_ERR_INVALID_ARG;
    if (in[0] & (EC_FLAG_COMPRESSED | EC_FLAG_SIGN))
        return CUZK_ERR_BAD_FLAGS;
    if (in[0] & EC_FLAG_INFINITY) {
        cuzk_status st = EC_FN(check_inf_encoding)(in, 2 * EC_FE_BYTES);
        if (st == CUZK_OK)
            EC_FN(aff_set_inf)(p);
        return st;
    }
    EC_AFF q;
    if (!EC_FN(read_x)(&q.x, in) || !EC_FE_FROM_BYTES(&q.y, in + EC_FE_BYTES))
        return CUZK_ERR_NOT_CANONICAL;
    /* (0, 0) is not on the curve but is our infinity; on_curve() would accept it. */
    if (EC_FN(aff_is_inf)(&q) || !EC_FN(aff_on_curve)(&q))
        return CUZK_ERR_NOT_ON_CURVE;
    if (check && !EC_FN(aff_in_subgroup)(&q))
        return CUZK_ERR_NOT_IN_SUBGROUP;
    *p = q;
    return CUZK_OK;
}

cuzk_status EC_PUB(decompress)(EC_AFF *p, const uint8_t in[EC_FE_BYTES])
{
    return EC_FN(decompress_impl)(p, in, true);
}

cuzk_status EC_PUB(decompress_unchecked)(EC_AFF *p, const uint8_t in[EC_FE_BYTES])
{
    return EC_FN(decompress_impl)(p, in, false);
}

cuzk_status EC_PUB(deserialize)(EC_AFF *p, const uint8_t in[2 * EC_FE_BYTES])
{
    return EC_FN(deserialize_impl)(p, in, true);
}

cuzk_status EC_PUB(deserialize_unchecked)(EC_AFF *p, const uint8_t in[2 * EC_FE_BYTES])
{
    return EC_FN(deserialize_impl)(p, in, false);
}

#undef EC_FLAG_COMPRESSED
#undef EC_FLAG_INFINITY
#undef EC_FLAG_SIGN
#undef EC_FLAGS
