/* Does a parameter file fit a circuit? bellperson's length rules (generator.rs, prover): one ic point
 * per input, one l point per aux variable, h over the FFT domain minus one, and compact a / b arrays
 * that hold only the variables with a non-zero A (resp. B) column, inputs always counted in a. */
#include "cuzk/params.h"

/* bellperson's EvaluationDomain refuses domains beyond Fr's 2-adicity. */
#define MAX_LOG_DOMAIN 32

cuzk_status cuzk_params_check_circuit(const cuzk_groth16_pk_t *pk, size_t num_inputs, size_t num_aux,
                                      size_t num_constraints, size_t a_aux_count,
                                      size_t b_input_count, size_t b_aux_count, cuzk_err_t *err)
{
    if (!pk)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "params check: NULL key");
    if (a_aux_count > num_aux || b_aux_count > num_aux || b_input_count > num_inputs)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "params check: density counts (a_aux %zu, b_input %zu, b_aux %zu) exceed "
                            "the circuit's %zu inputs / %zu aux",
                            a_aux_count, b_input_count, b_aux_count, num_inputs, num_aux);
    /* The prover appends one row per input to the synthesized constraints. */
    size_t rows = num_constraints + num_inputs;
    if (rows < num_constraints || rows > ((size_t)1 << MAX_LOG_DOMAIN))
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED,
                            "params check: %zu constraints + %zu inputs exceed the 2^%d FFT domain",
                            num_constraints, num_inputs, MAX_LOG_DOMAIN);
    size_t m = 1;
    while (m < rows)
        m <<= 1;

    struct {
        const char *what;
        size_t have, want;
        const char *why;
    } rules[] = {
        {"ic_len", pk->vk.ic_len, num_inputs, "one per input, ONE included"},
        {"h_len", pk->h_len, m - 1, "FFT domain size m - 1"},
        {"l_len", pk->l_len, num_aux, "one per aux variable"},
        {"a_len", pk->a_len, num_inputs + a_aux_count, "inputs + aux with a non-zero A column"},
        {"b_g1_len", pk->b_g1_len, b_input_count + b_aux_count,
         "inputs + aux with a non-zero B column"},
        {"b_g2_len", pk->b_g2_len, b_input_count + b_aux_count,
         "inputs + aux with a non-zero B column"},
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (rules[i].have != rules[i].want)
            return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                                "parameters do not fit the circuit: %s is %zu, the circuit needs %zu "
                                "(%s; %zu inputs, %zu aux, %zu constraints, m = %zu)",
                                rules[i].what, rules[i].have, rules[i].want, rules[i].why, num_inputs,
                                num_aux, num_constraints, m);
    return CUZK_OK;
}
