/* libFuzzer target for the C1 input: cuzk_fc_c1_parse_any on raw C1 JSON and Curio's wrapper, with
 * every Merkle path and relation checked. Checked on every input: a refusal comes with a message and
 * leaves the model empty; an accepted input writes back (cuzk_fc_c1_json_write) to JSON that parses
 * to the same bytes again. Seeds: a freshly sealed 2KiB sector's C1, bare and wrapped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/vanilla/c1_json.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/seal/seal.h"
#include "fuzz_util.h"

/* The wrapper with its keys in another order, whitespace, and JSON escapes inside the base64 (the first
 * character as \u00XX, every '/' as "\/"), so that the corpus starts in the wrapper scanner's other paths. */
static void seed_reordered_wrapper(const char *dir, const char *wrap, uint64_t sector_size)
{
    const char *key = strstr(wrap, "\"Phase1Out\"");
    REQUIRE(key != NULL);
    const char *b64 = strchr(key + 11, '"');
    REQUIRE(b64 != NULL);
    b64++;
    const char *end = strchr(b64, '"');
    REQUIRE(end != NULL && end > b64);
    size_t n = (size_t)(end - b64), cap = 2 * n + 128, len = 0;
    char *out = malloc(cap);
    REQUIRE(out != NULL);
    len += (size_t)snprintf(out, cap, "{ \"SectorSize\" : %llu,\n  \"Phase1Out\": \"\\u%04x",
                            (unsigned long long)sector_size, (unsigned)(unsigned char)b64[0]);
    for (size_t i = 1; i < n; i++) {
        if (b64[i] == '/')
            out[len++] = '\\';
        out[len++] = b64[i];
    }
    len += (size_t)snprintf(out + len, cap - len, "\",\t\"SectorNum\":7 }\n");
    fz_seed(dir, "c1-2kib-wrapped-reordered", (const uint8_t *)out, len);
    free(out);
}

static void write_seeds(const char *dir)
{
    const cuzk_fc_seal_proof_t *p = NULL;
    uint8_t prover[32], ticket[32] = {1}, seed[32] = {2}, raw[2032] = {3};
    cuzk_fc_sealed_t s;
    cuzk_fc_c1_t c1;
    cuzk_err_t err = {{0}};
    char *json = NULL, *wrap = NULL;
    size_t jl = 0, wl = 0;
    cuzk_fc_prover_id_from_miner(prover, 1000);
    REQUIRE(cuzk_fc_seal_proof_parse(&p, "StackedDrg2KiBV1_1", &err) == CUZK_OK);
    REQUIRE(cuzk_fc_seal_precommit(&s, p, prover, 7, ticket, raw, 1, &err) == CUZK_OK);
    REQUIRE(cuzk_fc_seal_commit1(&c1, &s, seed, &err) == CUZK_OK);
    REQUIRE(cuzk_fc_c1_json_write(&json, &jl, &c1, &err) == CUZK_OK);
    REQUIRE(cuzk_fc_c1_wrapper_write(&wrap, &wl, json, jl, 7, p->sector_size, &err) == CUZK_OK);
    fz_seed(dir, "c1-2kib", (const uint8_t *)json, jl);
    fz_seed(dir, "c1-2kib-wrapped", (const uint8_t *)wrap, wl);
    seed_reordered_wrapper(dir, wrap, p->sector_size);
    free(json);
    free(wrap);
    cuzk_fc_c1_free(&c1);
    cuzk_fc_sealed_free(&s);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *dir = getenv("CUZK_FUZZ_SEEDS");
    if (dir && *dir) {
        write_seeds(dir);
        exit(0);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_fc_c1_t c1;
    cuzk_err_t err = {{0}};
    if (cuzk_fc_c1_parse_any(&c1, NULL, (const char *)data, size, 0, &err) != CUZK_OK) {
        REQUIRE(err.msg[0] != 0 && c1.arena == NULL && c1.vproofs == NULL);
        return 0;
    }
    char *json = NULL, *json2 = NULL;
    size_t jl = 0, jl2 = 0;
    cuzk_fc_c1_t back;
    REQUIRE(cuzk_fc_c1_json_write(&json, &jl, &c1, &err) == CUZK_OK);
    REQUIRE(cuzk_fc_c1_parse_any(&back, NULL, json, jl, 0, &err) == CUZK_OK);
    REQUIRE(cuzk_fc_c1_json_write(&json2, &jl2, &back, &err) == CUZK_OK);
    REQUIRE(jl == jl2 && memcmp(json, json2, jl) == 0);
    free(json);
    free(json2);
    cuzk_fc_c1_free(&back);
    cuzk_fc_c1_free(&c1);
    return 0;
}
