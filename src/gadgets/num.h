/* AllocatedNum (bellpepper-core gadgets/num.rs): a field element held in one variable, with its value
 * when the constraint system keeps values. The type every gadget passes field elements around in. */
#ifndef CUZK_GADGETS_NUM_H
#define CUZK_GADGETS_NUM_H
#include <stdbool.h>
#include "cuzk/cs.h"

typedef struct {
    cuzk_var_t var;
    bool has_value;  /* false on backends without values (count, record) */
    cuzk_fr_t value; /* Montgomery form; meaningful only when has_value */
} cuzk_num_t;

#endif
