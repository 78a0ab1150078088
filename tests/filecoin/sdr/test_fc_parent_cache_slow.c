/* The 512MiB parent caches (ids 2 and 7, 2^24 nodes each) against rust-fil-proofs' parent_cache.json.
 * Minutes of CPU: skipped (exit 77) unless CUZK_TEST_SLOW=1; run with
 *   CUZK_TEST_SLOW=1 ctest -L slow --output-on-failure */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "filecoin/fc_vectors.h"
#include "filecoin/sdr/parent_cache.h"
#include "test_util.h"

int main(void)
{
    const char *slow = getenv("CUZK_TEST_SLOW");
    if (!slow || strcmp(slow, "1") != 0) {
        printf("test_fc_parent_cache_slow: skipped (set CUZK_TEST_SLOW=1)\n");
        return 77;
    }
    test_init("test_fc_parent_cache_slow");
    char *json = test_read_file(FC_VECTORS "parent_cache.json", NULL);
    CHECK(json != NULL);
    const cuzk_fc_seal_proof_t *t = cuzk_fc_seal_proofs();
    static const int ids[2] = {2, 7};
    for (int i = 0; json && i < 2; i++) {
        cuzk_fc_graph_t g;
        CHECK(cuzk_fc_graph_init_proof(&g, &t[ids[i]], NULL) == CUZK_OK);
        char name[96];
        uint64_t size = 0;
        uint8_t want[32], got[32];
        CHECK(cuzk_fc_parent_cache_name(name, sizeof name, &g) == CUZK_OK);
        CHECK_MSG(fc_manifest_entry(json, name, &size, want) && size == t[ids[i]].sector_size, "%s", name);
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        CHECK(cuzk_fc_parent_cache_digest(&g, got, 0, NULL) == CUZK_OK);
        clock_gettime(CLOCK_MONOTONIC, &b);
        CHECK_MSG(memcmp(got, want, 32) == 0, "id %d: digest differs from the manifest", ids[i]);
        printf("parent cache 512MiB id %d: %.1f s\n", ids[i],
               (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9);
    }
    free(json);
    return test_finish();
}
