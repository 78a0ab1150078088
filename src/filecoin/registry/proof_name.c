/* Registered proofs' names read (proof_name.h): the Go prefix dropped, then digits read by hand, since
 * strtoull alone accepts signs, spaces and overflow. */
#include "filecoin/registry/proof_name.h"

#include <string.h>

cuzk_fc_proof_name_t cuzk_fc_proof_name_split(const char *name, const char *go_prefix, uint64_t count, uint64_t *id,
                                              const char **rest)
{
    size_t np = strlen(go_prefix);
    const char *s = strncmp(name, go_prefix, np) == 0 ? name + np : name;
    *id = 0;
    *rest = s;
    if (!(*s >= '0' && *s <= '9'))
        return CUZK_FC_PROOF_NAME_TEXT;
    uint64_t v = 0;
    const char *d = s;
    for (; *d >= '0' && *d <= '9' && v <= 1000; d++) /* the bound keeps v far from overflow */
        v = v * 10 + (uint64_t)(*d - '0');
    if (*d != 0 || v >= count)
        return CUZK_FC_PROOF_NAME_BAD_ID;
    *id = v;
    return CUZK_FC_PROOF_NAME_ID;
}
