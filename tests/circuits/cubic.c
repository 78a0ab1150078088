/* x³ + x + 5 = out: the classic first Groth16 example (circuits.h). */
#include "circuits.h"
#include "ff/fr.h"

void circuit_cubic_synthesize(cuzk_cs_t *cs, const circuit_cubic_params *p)
{
    bool vals = cuzk_cs_wants_values(cs);
    fr x2, x3, out, five;
    if (vals) {
        fr_sqr(&x2, &p->x);
        fr_mul(&x3, &x2, &p->x);
        fr_from_u64(&five, 5);
        fr_add(&out, &x3, &p->x);
        fr_add(&out, &out, &five);
    }
    cuzk_var_t vx = cuzk_cs_alloc(cs, vals ? &p->x : NULL);
    cuzk_var_t vx2 = cuzk_cs_alloc(cs, vals ? &x2 : NULL);
    cuzk_var_t vx3 = cuzk_cs_alloc(cs, vals ? &x3 : NULL);
    cuzk_var_t vout = cuzk_cs_alloc_input(cs, vals ? &out : NULL);

    cuzk_lc_t a, b, c;
    cuzk_lc_init(&a, cs);
    cuzk_lc_init(&b, cs);
    cuzk_lc_init(&c, cs);
    cuzk_lc_add(&a, vx);
    cuzk_lc_add(&b, vx);
    cuzk_lc_add(&c, vx2);
    cuzk_cs_enforce_free(cs, &a, &b, &c);

    cuzk_lc_add(&a, vx2);
    cuzk_lc_add(&b, vx);
    cuzk_lc_add(&c, vx3);
    cuzk_cs_enforce_free(cs, &a, &b, &c);

    fr five_c;
    fr_from_u64(&five_c, 5);
    cuzk_lc_add(&a, vx3);
    cuzk_lc_add(&a, vx);
    cuzk_lc_add_term(&a, cuzk_cs_one(), &five_c);
    cuzk_lc_add(&b, cuzk_cs_one());
    cuzk_lc_add(&c, vout);
    cuzk_cs_enforce_free(cs, &a, &b, &c);
}
