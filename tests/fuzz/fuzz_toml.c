/* libFuzzer target for the daemon's configuration: the strict TOML reader (cuzk_toml_parse) and the
 * configuration on top of it (cuzk_daemon_config_load_text, validate, describe). Checked on every
 * input: a refusal says "line N: ..." with N within the input; every node of an accepted document is
 * found again by its path; the configuration's printout reads back to the same printout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "server/config.h"
#include "server/toml.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *dir = getenv("CUZK_FUZZ_SEEDS");
    if (!dir || !*dir)
        return 0;
    size_t len = 0;
    char *example = NULL;
    FILE *f = fopen(CUZK_SOURCE_DIR "/tests/server/config/cuzk.example.toml", "rb");
    if (f) {
        example = malloc(1 << 16);
        len = example ? fread(example, 1, 1 << 16, f) : 0;
        fclose(f);
    }
    if (example)
        fz_seed(dir, "example", (const uint8_t *)example, len);
    free(example);
    static const char *small[] = {"[daemon]\nlisten = \"unix:///run/cuzk.sock\"\n",
                                  "a.b.c = [1, 2, 0x10, 'x', \"\\u00e9\"]\n[t]\nk = -1.5e3 # c\n",
                                  "[memory]\ntotal_budget = \"64GiB\"\neviction_min_idle = \"30s\"\n"};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        char name[16];
        snprintf(name, sizeof name, "small-%zu", i);
        fz_seed(dir, name, (const uint8_t *)small[i], strlen(small[i]));
    }
    exit(0);
}

static size_t lines_of(const uint8_t *data, size_t size)
{
    size_t n = 1;
    for (size_t i = 0; i < size; i++)
        n += data[i] == '\n';
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_err_t err = {{0}};
    cuzk_toml_t *doc = NULL;
    cuzk_status st = cuzk_toml_parse((const char *)data, size, &doc, &err);
    if (st != CUZK_OK) {
        REQUIRE(doc == NULL);
        long line = strncmp(err.msg, "line ", 5) == 0 ? strtol(err.msg + 5, NULL, 10) : -1;
        REQUIRE(line >= 1 && (size_t)line <= lines_of(data, size));
        return 0;
    }
    for (size_t i = 0; i < cuzk_toml_count(doc); i++) {
        const cuzk_toml_value_t *v = cuzk_toml_at(doc, i);
        REQUIRE(cuzk_toml_find(doc, v->path) == v);
    }
    cuzk_toml_free(doc);

    cuzk_daemon_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    if (cuzk_daemon_config_load_text(&cfg, (const char *)data, size, "fuzz", NULL, &err) != CUZK_OK)
        return 0;
    (void)cuzk_daemon_config_validate(&cfg, &err);
    char *text = NULL, *again = NULL;
    size_t text_len = 0, again_len = 0;
    FILE *f = open_memstream(&text, &text_len);
    cuzk_daemon_config_describe(&cfg, f);
    fclose(f);
    cuzk_daemon_config_t back;
    memset(&back, 0, sizeof back);
    REQUIRE(cuzk_daemon_config_load_text(&back, text, text_len, "printout", NULL, &err) == CUZK_OK);
    f = open_memstream(&again, &again_len);
    cuzk_daemon_config_describe(&back, f);
    fclose(f);
    REQUIRE(again_len == text_len && memcmp(text, again, text_len) == 0);
    free(text);
    free(again);
    cuzk_daemon_config_free(&back);
    cuzk_daemon_config_free(&cfg);
    return 0;
}
