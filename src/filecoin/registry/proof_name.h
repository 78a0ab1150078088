/* How a registered proof (seal, PoSt, update) is named on a command line or in a file: its serde name, the
 * same with Go's type prefix ("RegisteredSealProof_StackedDrg32GiBV1_1", as Lotus and Curio print it), or
 * its number in decimal. One reader for the three registries, each keeping its own table and messages. */
#ifndef CUZK_FILECOIN_PROOF_NAME_H
#define CUZK_FILECOIN_PROOF_NAME_H
#include <stdint.h>

typedef enum {
    CUZK_FC_PROOF_NAME_ID = 0,      /* digits only, a number below count: *id */
    CUZK_FC_PROOF_NAME_BAD_ID = 1,  /* digits only (no sign, no spaces), not a number below count */
    CUZK_FC_PROOF_NAME_TEXT = 2,    /* not a number: *rest is the name past go_prefix, to look up */
} cuzk_fc_proof_name_t;

/* name with go_prefix (e.g. "RegisteredPoStProof_") removed when it starts with it, read as a number below
 * count or left as a name. Pure; never fails. */
cuzk_fc_proof_name_t cuzk_fc_proof_name_split(const char *name, const char *go_prefix, uint64_t count, uint64_t *id,
                                              const char **rest);

#endif
