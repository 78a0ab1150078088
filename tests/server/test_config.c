/* The daemon configuration: defaults as the specification lists them, the example file, every key's
 * refusal naming it, warnings for unknown and deprecated keys and for the keys that are read but have
 * no effect (from the file and the command line), sizes and durations against hand
 * arithmetic, the "auto" budget against our own reading of /proc/meminfo, addresses and the loopback
 * rule, command-line overrides, and the printout read back. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/config.h"
#include "test_util.h"

#define EXAMPLE "tests/server/config/cuzk.example.toml"
#define GIB (1ull << 30)

/* Loads text named "t.toml"; the warnings land in *warnings (caller frees). */
static cuzk_status load(cuzk_daemon_config_t *cfg, const char *text, char **warnings, cuzk_err_t *err)
{
    size_t wlen;
    char *w = NULL;
    FILE *wf = open_memstream(&w, &wlen);
    cuzk_status st = cuzk_daemon_config_load_text(cfg, text, strlen(text), "t.toml", wf, err);
    fclose(wf);
    if (warnings)
        *warnings = w;
    else
        free(w);
    return st;
}

static void test_defaults(void)
{
    unsetenv("FIL_PROOFS_PARAMETER_CACHE");
    cuzk_daemon_config_t c;
    CHECK(cuzk_daemon_config_defaults(&c, NULL) == CUZK_OK);
    CHECK(strcmp(c.listen, "127.0.0.1:9820") == 0 && strcmp(c.status_listen, "") == 0 && !c.allow_remote);
    CHECK(strcmp(c.param_cache, "/var/tmp/filecoin-proof-parameters") == 0);
    CHECK(c.total_budget_auto && c.safety_margin == 5 * GIB && c.eviction_min_idle_ms == 300000);
    CHECK(c.max_batch_size == 1 && c.max_batch_wait_ms == 10000 && c.sort_by_type);
    CHECK(c.max_queued == 256 && c.max_kept_results == 1000 && c.result_retention_ms == 3600000);
    CHECK(c.synthesis_threads == 0 && c.prover_workers == 1 && c.prover_threads == 0);
    CHECK(c.synthesis_mode == CUZK_ENGINE_SYNTH_AUTO);
    CHECK(c.pipeline_enabled && c.synthesis_lookahead == 1 && c.synthesis_concurrency == 1 &&
          c.max_parallel_synthesis == 18 && c.slot_size == 0 && c.max_gpu_queue_depth == 0);
    CHECK(c.log_level == CUZK_DAEMON_LOG_INFO && strcmp(c.log_format, "") == 0);
    CHECK(cuzk_daemon_config_validate(&c, NULL) == CUZK_OK);
    cuzk_daemon_config_free(&c);
    CHECK(c.listen == NULL);
    cuzk_daemon_config_free(&c); /* twice is fine */

    /* The environment's parameter directory replaces the default, not an explicit key. */
    setenv("FIL_PROOFS_PARAMETER_CACHE", "/env/params", 1);
    CHECK(cuzk_daemon_config_defaults(&c, NULL) == CUZK_OK && strcmp(c.param_cache, "/env/params") == 0);
    cuzk_daemon_config_free(&c);
    CHECK(load(&c, "[memory]\nsafety_margin = \"1GiB\"\n", NULL, NULL) == CUZK_OK &&
          strcmp(c.param_cache, "/env/params") == 0);
    cuzk_daemon_config_free(&c);
    CHECK(load(&c, "[srs]\nparam_cache = \"/file/params\"\n", NULL, NULL) == CUZK_OK &&
          strcmp(c.param_cache, "/file/params") == 0);
    cuzk_daemon_config_free(&c);
    setenv("FIL_PROOFS_PARAMETER_CACHE", "", 1);
    CHECK(cuzk_daemon_config_defaults(&c, NULL) == CUZK_OK &&
          strcmp(c.param_cache, "/var/tmp/filecoin-proof-parameters") == 0);
    cuzk_daemon_config_free(&c);
    unsetenv("FIL_PROOFS_PARAMETER_CACHE");
}

static void test_example(void)
{
    cuzk_daemon_config_t c;
    cuzk_err_t err = {{0}};
    char *w = NULL;
    size_t wlen;
    FILE *wf = open_memstream(&w, &wlen);
    cuzk_status st = cuzk_daemon_config_load(&c, EXAMPLE, false, wf, &err);
    fclose(wf);
    CHECK_MSG(st == CUZK_OK, "%s", err.msg);
    if (st != CUZK_OK) {
        free(w);
        return;
    }
    CHECK(strcmp(c.listen, "0.0.0.0:9820") == 0 && strcmp(c.status_listen, "127.0.0.1:9821") == 0 &&
          c.allow_remote);
    CHECK(strcmp(c.param_cache, "/data/zk/params") == 0);
    CHECK(c.total_budget_auto && c.safety_margin == 5 * GIB && c.eviction_min_idle_ms == 300000);
    CHECK(c.max_batch_size == 1 && c.max_batch_wait_ms == 10000 && c.sort_by_type && c.synthesis_threads == 0);
    CHECK(c.max_queued == 256 && c.max_kept_results == 1000 && c.result_retention_ms == 3600000);
    CHECK(c.prover_workers == 1 && c.prover_threads == 0 && c.pipeline_enabled && c.synthesis_lookahead == 1);
    CHECK(c.log_level == CUZK_DAEMON_LOG_INFO);
    /* The three [gpus] keys and the original's keys nothing here acts on warn, each with the file and
     * its line, in the file's order. */
    const char *want =
        EXAMPLE ": line 45: scheduler.max_batch_size is read but has no effect: cross-sector batching is not "
                "implemented; each sector is proved on its own\n"
        EXAMPLE ": line 46: scheduler.max_batch_wait_ms is read but has no effect: cross-sector batching is not "
                "implemented, so no job waits for a batch\n"
        EXAMPLE ": line 47: scheduler.sort_by_type is read but has no effect: jobs run by priority, FIFO within a "
                "priority, whatever their kind\n"
        EXAMPLE ": line 71: gpus.devices: no GPU backend in this build; ignored\n"
        EXAMPLE ": line 72: gpus.gpu_threads: no GPU backend in this build; ignored\n"
        EXAMPLE ": line 73: gpus.gpu_workers_per_device: no GPU backend in this build; ignored\n"
        EXAMPLE ": line 80: pipeline.enabled is read but has no effect: partitions are always pipelined\n"
        EXAMPLE ": line 86: logging.level is read but has no effect: every message and TIMELINE line is written "
                "whatever the level\n";
    CHECK_MSG(strcmp(w, want) == 0, "warnings:\n%s", w);
    CHECK(cuzk_daemon_config_validate(&c, NULL) == CUZK_OK);
    free(w);
    cuzk_daemon_config_free(&c);

    /* Every key away from its default. */
    const char *all = "[daemon]\nlisten = \"unix:///run/cuzk.sock\"\nstatus_listen = \"[::1]:9821\"\n"
                      "allow_remote = false\n"
                      "[srs]\nparam_cache = \"/p\"\n"
                      "[memory]\ntotal_budget = \"1.5GiB\"\nsafety_margin = 1048576\neviction_min_idle = 90\n"
                      "[scheduler]\nmax_batch_size = 3\nmax_batch_wait_ms = 0\nsort_by_type = false\n"
                      "max_queued = 9\nmax_kept_results = 5\nresult_retention = \"90s\"\n"
                      "[synthesis]\nthreads = 7\nmode = \"record\"\n"
                      "[prover]\nworkers = 2\nthreads = 5\n"
                      "[pipeline]\nenabled = false\nsynthesis_lookahead = 0\nsynthesis_concurrency = 4\n"
                      "max_parallel_synthesis = 0\nslot_size = 3\nmax_gpu_queue_depth = 8\n"
                      "[logging]\nlevel = \"trace\"\nformat = \"json\"\n";
    /* only the nine inert keys warn (synthesis.threads has an effect: PoSt synthesis threads) */
    CHECK(load(&c, all, &w, &err) == CUZK_OK);
    int lines = 0, inert = 0;
    for (char *p = w; *p; p++)
        lines += *p == '\n';
    for (char *p = w; (p = strstr(p, " is read but has no effect: ")); p++)
        inert++;
    CHECK_MSG(lines == 9 && inert == 9 && !strstr(w, "synthesis.threads"), "warnings:\n%s", w);
    free(w);
    CHECK(strcmp(c.listen, "unix:///run/cuzk.sock") == 0 && strcmp(c.status_listen, "[::1]:9821") == 0);
    CHECK(strcmp(c.param_cache, "/p") == 0 && !c.total_budget_auto && c.total_budget == 3 * GIB / 2);
    CHECK(c.safety_margin == 1048576 && c.eviction_min_idle_ms == 90000);
    CHECK(c.max_batch_size == 3 && c.max_batch_wait_ms == 0 && !c.sort_by_type && c.synthesis_threads == 7);
    CHECK(c.synthesis_mode == CUZK_ENGINE_SYNTH_RECORD);
    CHECK(c.max_queued == 9 && c.max_kept_results == 5 && c.result_retention_ms == 90000);
    CHECK(c.prover_workers == 2 && c.prover_threads == 5);
    CHECK(!c.pipeline_enabled && c.synthesis_lookahead == 0 && c.synthesis_concurrency == 4 &&
          c.max_parallel_synthesis == 0 && c.slot_size == 3 && c.max_gpu_queue_depth == 8);
    CHECK(c.log_level == CUZK_DAEMON_LOG_TRACE && strcmp(c.log_format, "json") == 0);
    uint64_t b = 0;
    CHECK(cuzk_daemon_config_validate(&c, NULL) == CUZK_OK);
    CHECK(cuzk_daemon_config_budget(&c, &b, NULL) == CUZK_OK && b == 3 * GIB / 2);
    cuzk_daemon_config_free(&c);
}

/* Each key with a value of the wrong type or out of range: the message names the file, the line,
 * the key and the expected form. */
static void test_invalid(void)
{
    static const struct {
        const char *key, *value, *expected;
    } bad[] = {
        {"daemon.listen", "9820", "\"host:port\""},
        {"daemon.listen", "\"localhost\"", "missing :port"},
        {"daemon.listen", "\"[::1]:99999\"", "port"},
        {"daemon.listen", "\"unix://relative\"", "unix:///absolute/path"},
        {"daemon.status_listen", "\"unix:///x\"", "unix socket is not possible"},
        {"daemon.status_listen", "false", "\"\" (off)"},
        {"daemon.allow_remote", "\"yes\"", "true or false"},
        {"daemon.allow_remote", "1", "true or false"},
        {"srs.param_cache", "\"\"", "a directory path"},
        {"srs.param_cache", "[\"/a\"]", "a directory path, got an array"},
        {"memory.total_budget", "\"lots\"", "\"auto\" or a size"},
        {"memory.total_budget", "0", "0 bytes"},
        {"memory.total_budget", "\"0GiB\"", "0 bytes"},
        {"memory.total_budget", "-5", "\"auto\" or a size"},
        {"memory.total_budget", "1.5", "got 1.5"},
        {"memory.safety_margin", "\"5 gigs\"", "unknown unit"},
        {"memory.safety_margin", "\"-1GiB\"", "a size like"},
        {"memory.safety_margin", "\"16777216TiB\"", "too large"},
        {"memory.eviction_min_idle", "\"5 minutes\"", "a duration like"},
        {"memory.eviction_min_idle", "-1", "a duration like"},
        {"memory.eviction_min_idle", "true", "got true"},
        {"memory.eviction_min_idle", "18446744073709552", "too large"},
        {"scheduler.max_batch_size", "0", "an integer from 1 to 65536, got 0"},
        {"scheduler.max_batch_size", "65537", "an integer from 1 to 65536"},
        {"scheduler.max_batch_size", "\"2\"", "got \"2\""},
        {"scheduler.max_batch_wait_ms", "-1", "an integer from 0 to 86400000, got -1"},
        {"scheduler.max_batch_wait_ms", "86400001", "an integer from 0"},
        {"scheduler.sort_by_type", "\"true\"", "true or false"},
        {"scheduler.max_queued", "0", "an integer from 1 to 65536, got 0"},
        {"scheduler.max_kept_results", "65537", "an integer from 1 to 65536"},
        {"scheduler.result_retention", "\"500ms\"", "a duration like"},
        {"scheduler.result_retention", "\"2d\"", "a duration like"},
        {"synthesis.threads", "-1", "an integer from 0 to 65536"},
        {"synthesis.threads", "2.0", "got 2"},
        {"synthesis.mode", "\"fast\"", "one of \"auto\", \"direct\", \"record\""},
        {"synthesis.mode", "1", "one of \"auto\""},
        {"prover.workers", "0", "an integer from 1 to 65536"},
        {"prover.threads", "70000", "an integer from 0 to 65536"},
        {"pipeline.enabled", "0", "true or false"},
        {"pipeline.synthesis_lookahead", "-2", "from 0 to"},
        {"pipeline.synthesis_concurrency", "0", "from 1 to"},
        {"pipeline.max_parallel_synthesis", "\"18\"", "from 0 to"},
        {"pipeline.slot_size", "-1", "from 0 to"},
        {"pipeline.max_gpu_queue_depth", "9223372036854775807", "from 0 to"},
        {"logging.level", "\"verbose\"", "one of \"error\", \"warn\", \"info\", \"debug\", \"trace\""},
        {"logging.level", "\"INFO\"", "one of"},
        {"logging.format", "1", "a string"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[256], want[128];
        const char *dot = strchr(bad[i].key, '.');
        snprintf(text, sizeof text, "# settings\n[%.*s]\n%s = %s\n", (int)(dot - bad[i].key), bad[i].key, dot + 1,
                 bad[i].value);
        snprintf(want, sizeof want, "t.toml: line 3: %s: expected ", bad[i].key);
        cuzk_daemon_config_t c;
        cuzk_err_t err = {{0}};
        cuzk_status st = load(&c, text, NULL, &err);
        CHECK_MSG(st == CUZK_ERR_FORMAT && strncmp(err.msg, want, strlen(want)) == 0 &&
                      strstr(err.msg, bad[i].expected),
                  "%s = %s: status %d \"%s\"", bad[i].key, bad[i].value, st, err.msg);
        CHECK(c.listen == NULL); /* nothing left to free */
        if (st == CUZK_OK)
            cuzk_daemon_config_free(&c);
    }

    /* A section that is not a table, a key that is one, TOML syntax errors, all with the file name. */
    static const struct {
        const char *text, *msg;
    } other[] = {
        {"daemon = 1\n", "t.toml: line 1: daemon: expected a table ([section]), got 1"},
        {"[daemon.listen]\n", "t.toml: line 1: daemon.listen: expected \"host:port\""},
        {"[daemon]\nlisten = \"x:1\"\nlisten = \"y:1\"\n", "t.toml: line 3: duplicate key daemon.listen"},
        {"[memory]\ntotal_budget = auto\n", "t.toml: line 2: invalid value 'auto' (strings need quotes)"},
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        cuzk_daemon_config_t c;
        cuzk_err_t err = {{0}};
        cuzk_status st = load(&c, other[i].text, NULL, &err);
        CHECK_MSG(st == CUZK_ERR_FORMAT && strncmp(err.msg, other[i].msg, strlen(other[i].msg)) == 0,
                  "status %d \"%s\"", st, err.msg);
        if (st == CUZK_OK)
            cuzk_daemon_config_free(&c);
    }
}

static void test_warnings(void)
{
    const char *text = "toplevel = 3\n"                  /* 1 */
                       "[daemon]\n"                      /* 2 */
                       "foo = 1\n"                       /* 3 */
                       "listen = \"127.0.0.1:1\"\n"      /* 4 */
                       "[bogus]\n"                       /* 5 */
                       "x = 1\n"                         /* 6 */
                       "[bogus.sub]\n"                   /* 7 */
                       "y = 2\n"                         /* 8 */
                       "[srs]\n"                         /* 9 */
                       "preload = [\"porep-32g\"]\n"     /* 10 */
                       "[memory]\n"                      /* 11 */
                       "pinned_budget = \"50GiB\"\n"     /* 12 */
                       "working_memory_budget = 1\n"     /* 13 */
                       "[synthesis]\n"                   /* 14 */
                       "partition_workers = 12\n"        /* 15 */
                       "[gpus]\n"                        /* 16 */
                       "devices = [0, 1]\n"              /* 17 */
                       "[logging.extra]\n"               /* 18 */
                       "deep = 1\n";                     /* 19 */
    const char *want = "t.toml: line 1: unknown key toplevel ignored\n"
                       "t.toml: line 3: unknown key daemon.foo ignored\n"
                       "t.toml: line 5: unknown section [bogus] ignored\n"
                       "t.toml: line 10: srs.preload is deprecated and ignored: parameters are loaded on demand\n"
                       "t.toml: line 12: memory.pinned_budget is deprecated and ignored: memory.total_budget "
                       "covers all memory\n"
                       "t.toml: line 13: memory.working_memory_budget is deprecated and ignored: "
                       "memory.total_budget covers all memory\n"
                       "t.toml: line 15: synthesis.partition_workers is deprecated and ignored: the memory "
                       "budget sizes the synthesis pool\n"
                       "t.toml: line 17: gpus.devices: no GPU backend in this build; ignored\n"
                       "t.toml: line 18: unknown section [logging.extra] ignored\n";
    cuzk_daemon_config_t c;
    cuzk_err_t err = {{0}};
    char *w = NULL;
    CHECK(load(&c, text, &w, &err) == CUZK_OK);
    CHECK_MSG(strcmp(w, want) == 0, "warnings:\n%s", w);
    CHECK(strcmp(c.listen, "127.0.0.1:1") == 0);
    free(w);
    cuzk_daemon_config_free(&c);
    /* NULL warning stream: silent. */
    CHECK(cuzk_daemon_config_load_text(&c, text, strlen(text), NULL, NULL, &err) == CUZK_OK);
    cuzk_daemon_config_free(&c);
}

static void test_sizes_durations(void)
{
    static const struct {
        const char *s;
        uint64_t bytes;
    } sizes[] = {
        {"64GiB", 64ull << 30},       {"512MiB", 512ull << 20},     {"64GB", 64000000000ull},
        {"1.5GiB", 1610612736ull},    {"4096", 4096},               {"4096B", 4096},
        {"1 KiB", 1024},              {"100MB", 100000000},         {"2TiB", 2ull << 40},
        {"0.5KiB", 512},              {"1.1GiB", 1181116006ull},    {"0", 0},
        {"3kB", 3000},                {"3KB", 3000},                {"1TB", 1000000000000ull},
        {"0.001KiB", 1},              {"5  GiB", 5ull << 30},       {"18446744073709551615", UINT64_MAX},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint64_t b = 7;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_daemon_parse_size(sizes[i].s, &b, &err) == CUZK_OK && b == sizes[i].bytes,
                  "%s: %llu (%s)", sizes[i].s, (unsigned long long)b, err.msg);
    }
    /* 16777215.999999999999 TiB: 16777215 * 2^40 + floor(999999999999 * 2^40 / 10^12). */
    uint64_t big = 0, want = 16777215ull * (1ull << 40) + (uint64_t)((unsigned __int128)999999999999ull *
                                                                     (1ull << 40) / 1000000000000ull);
    CHECK(cuzk_daemon_parse_size("16777215.999999999999TiB", &big, NULL) == CUZK_OK && big == want);
    static const char *const bad_sizes[] = {"", "GiB", "-1GiB", "1.GiB", "1 gib", "1GiBs", "1Gib", "1e9",
                                            "18446744073709551616", "16777216TiB", " 1GiB", "1,5GiB", "0x10",
                                            "1.0000000000000000001GiB", "1 G", "auto"};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
        uint64_t b = 7;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_daemon_parse_size(bad_sizes[i], &b, &err) == CUZK_ERR_INVALID_ARG && b == 7 &&
                      strstr(err.msg, "bad size"),
                  "\"%s\" accepted (%llu)", bad_sizes[i], (unsigned long long)b);
    }

    static const struct {
        const char *s;
        uint64_t ms;
    } durs[] = {{"5m", 300000}, {"30s", 30000}, {"250ms", 250}, {"1h", 3600000}, {"1.5s", 1500},
                {"300", 300000}, {"0", 0},      {"2.5m", 150000}, {"10 m", 600000}, {"0.0005s", 0}};
    for (size_t i = 0; i < sizeof durs / sizeof durs[0]; i++) {
        uint64_t ms = 7;
        CHECK_MSG(cuzk_daemon_parse_duration(durs[i].s, &ms, NULL) == CUZK_OK && ms == durs[i].ms, "%s: %llu",
                  durs[i].s, (unsigned long long)ms);
    }
    static const char *const bad_durs[] = {"", "m", "5 minutes", "-1s", "5M", "1d", "5m30s", "1.s", "5S"};
    for (size_t i = 0; i < sizeof bad_durs / sizeof bad_durs[0]; i++) {
        uint64_t ms = 7;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_daemon_parse_duration(bad_durs[i], &ms, &err) == CUZK_ERR_INVALID_ARG && ms == 7 &&
                      strstr(err.msg, "bad duration"),
                  "\"%s\" accepted", bad_durs[i]);
    }
}

/* MemTotal read here the simple way (line by line, field after field), independently of the code
 * under test. */
static uint64_t our_memtotal(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char name[64], unit[16];
    unsigned long long value = 0, found = 0;
    while (fscanf(f, "%63s %llu %15[^\n]", name, &value, unit) >= 2)
        if (strcmp(name, "MemTotal:") == 0) {
            found = value * 1024;
            break;
        }
    fclose(f);
    return found;
}

static void test_budget(void)
{
    cuzk_daemon_config_t c;
    CHECK(cuzk_daemon_config_defaults(&c, NULL) == CUZK_OK);
    uint64_t total = our_memtotal(), b = 0;
    if (total > 5 * GIB) {
        CHECK(cuzk_daemon_config_budget(&c, &b, NULL) == CUZK_OK);
        CHECK_MSG(b == total - 5 * GIB, "budget %llu, MemTotal %llu", (unsigned long long)b,
                  (unsigned long long)total);
    } else {
        printf("note: /proc/meminfo gives MemTotal %llu; the auto budget against it skipped\n",
               (unsigned long long)total);
    }
    c.safety_margin = UINT64_MAX;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_daemon_config_budget(&c, &b, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "safety_margin"));
    CHECK(cuzk_daemon_config_validate(&c, NULL) == CUZK_ERR_INVALID_ARG);
    c.total_budget_auto = false;
    c.total_budget = 123;
    CHECK(cuzk_daemon_config_budget(&c, &b, NULL) == CUZK_OK && b == 123);
    cuzk_daemon_config_free(&c);

    /* The rule on files of our own: MemTotal found, absent, unreadable (256 GiB), too small. */
    char dir[] = "/tmp/cuzk_test_config_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[64];
    snprintf(path, sizeof path, "%s/meminfo", dir);
    FILE *f = fopen(path, "w");
    fputs("MemFree:         1234 kB\nMemTotal:        8388608 kB\nMemAvailable: 1 kB\n", f);
    fclose(f);
    CHECK(cuzk_daemon_budget_auto(path, GIB, &b, NULL) == CUZK_OK && b == 7 * GIB);
    CHECK(cuzk_daemon_budget_auto(path, 8 * GIB, &b, &err) == CUZK_ERR_INVALID_ARG);
    f = fopen(path, "w");
    fputs("MemFree: 1 kB\n", f);
    fclose(f);
    CHECK(cuzk_daemon_budget_auto(path, 5 * GIB, &b, NULL) == CUZK_OK && b == 251 * GIB);
    unlink(path);
    CHECK(cuzk_daemon_budget_auto(path, 5 * GIB, &b, NULL) == CUZK_OK && b == 251 * GIB);
    rmdir(dir);
}

static void test_addresses(void)
{
    static const struct {
        const char *addr;
        bool valid, loopback;
    } a[] = {
        {"127.0.0.1:1", true, true},       {"localhost:1", true, true},     {"[::1]:1", true, true},
        {"unix:///x", true, true},         {"LocalHost:9820", true, true},  {"127.255.0.9:65535", true, true},
        {"[::ffff:127.0.0.1]:1", true, true}, {"[0:0:0:0:0:0:0:1]:1", true, true},
        {"0.0.0.0:1", true, false},        {"10.0.0.1:1", true, false},     {"[::]:1", true, false},
        {"example.com:443", true, false},  {"[2001:db8::1]:80", true, false}, {"128.0.0.1:1", true, false},
        {"localhost.example:1", true, false}, {"[::ffff:10.0.0.1]:1", true, false}, {"0.0.0.0:0", true, false},
        {"127.0.0.1", false, false},       {":9820", false, false},         {"host:", false, false},
        {"host:65536", false, false},      {"host:12a", false, false},      {"::1:80", false, false},
        {"[::1]", false, false},           {"[::1]80", false, false},       {"[zz]:1", false, false},
        {"unix://relative", false, false}, {"unix:/x", false, false},       {"unix:", false, false},
        {"unix:///", false, false},        {"999.1.1.1:1", false, false},   {"127.1:1", false, false},
        {"host name:1", false, false},     {"host_x:1", false, false},      {"", false, false},
        {"[127.0.0.1]:1", false, false},   {"h:+1", false, false},          {"h:123456", false, false},
    };
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) {
        cuzk_err_t err = {{0}};
        cuzk_status st = cuzk_daemon_addr_check(a[i].addr, true, &err);
        CHECK_MSG((st == CUZK_OK) == a[i].valid, "\"%s\": %s", a[i].addr, st == CUZK_OK ? "accepted" : err.msg);
        CHECK_MSG(cuzk_daemon_addr_is_loopback(a[i].addr) == a[i].loopback, "\"%s\" loopback?", a[i].addr);
    }
    char longpath[160] = "unix:///";
    memset(longpath + 8, 'p', 106); /* a path of 107 bytes: the most sockaddr_un holds */
    CHECK(cuzk_daemon_addr_check(longpath, true, NULL) == CUZK_OK);
    longpath[8 + 106] = 'p';
    CHECK(cuzk_daemon_addr_check(longpath, true, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_daemon_addr_check("unix:///x", false, NULL) == CUZK_ERR_INVALID_ARG);

    /* The loopback rule at validation, for both addresses, lifted by allow_remote. */
    static const struct {
        const char *text;
        bool ok;
        const char *msg;
    } v[] = {
        {"[daemon]\nlisten = \"0.0.0.0:1\"\n", false, "daemon.listen = \"0.0.0.0:1\" is reachable"},
        {"[daemon]\nlisten = \"10.0.0.1:1\"\n", false, "set daemon.allow_remote = true"},
        {"[daemon]\nlisten = \"0.0.0.0:1\"\nallow_remote = true\n", true, NULL},
        {"[daemon]\nstatus_listen = \"0.0.0.0:9821\"\n", false, "daemon.status_listen = \"0.0.0.0:9821\""},
        {"[daemon]\nstatus_listen = \"0.0.0.0:9821\"\nallow_remote = true\n", true, NULL},
        {"[daemon]\nlisten = \"unix:///run/x.sock\"\nstatus_listen = \"localhost:9821\"\n", true, NULL},
        {"[daemon]\nlisten = \"[::1]:1\"\n", true, NULL},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        cuzk_daemon_config_t c;
        cuzk_err_t err = {{0}};
        CHECK(load(&c, v[i].text, NULL, &err) == CUZK_OK);
        cuzk_status st = cuzk_daemon_config_validate(&c, &err);
        CHECK_MSG(v[i].ok ? st == CUZK_OK : (st == CUZK_ERR_INVALID_ARG && strstr(err.msg, v[i].msg)), "%s: %s",
                  v[i].text, err.msg);
        cuzk_daemon_config_free(&c);
    }
}

static void test_overrides(void)
{
    cuzk_daemon_config_t c;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_daemon_config_defaults(&c, NULL) == CUZK_OK);
    CHECK(c.warn == stderr);
    c.warn = NULL; /* the inert keys' warnings are test_inert's */
    CHECK(cuzk_daemon_config_set(&c, "daemon.listen", "0.0.0.0:9820", &err) == CUZK_OK &&
          strcmp(c.listen, "0.0.0.0:9820") == 0);
    CHECK(cuzk_daemon_config_validate(&c, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_daemon_config_set(&c, "daemon.allow_remote", "true", &err) == CUZK_OK && c.allow_remote);
    CHECK(cuzk_daemon_config_validate(&c, &err) == CUZK_OK);
    CHECK(cuzk_daemon_config_set(&c, "pipeline.enabled", "false", &err) == CUZK_OK && !c.pipeline_enabled);
    CHECK(cuzk_daemon_config_set(&c, "logging.level", "debug", &err) == CUZK_OK &&
          c.log_level == CUZK_DAEMON_LOG_DEBUG);
    CHECK(cuzk_daemon_config_set(&c, "memory.total_budget", "64GiB", &err) == CUZK_OK && !c.total_budget_auto &&
          c.total_budget == 64 * GIB);
    CHECK(cuzk_daemon_config_set(&c, "memory.total_budget", "auto", &err) == CUZK_OK && c.total_budget_auto);
    CHECK(cuzk_daemon_config_set(&c, "memory.eviction_min_idle", "45", &err) == CUZK_OK &&
          c.eviction_min_idle_ms == 45000);
    CHECK(cuzk_daemon_config_set(&c, "scheduler.max_batch_size", "4", &err) == CUZK_OK && c.max_batch_size == 4);
    CHECK(cuzk_daemon_config_set(&c, "srs.param_cache", "/cli", &err) == CUZK_OK &&
          strcmp(c.param_cache, "/cli") == 0);
    CHECK(cuzk_daemon_config_set(&c, "scheduler.max_batch_size", "0", &err) == CUZK_ERR_FORMAT);
    CHECK_MSG(strcmp(err.msg, "scheduler.max_batch_size: expected an integer from 1 to 65536, got 0") == 0, "%s",
              err.msg);
    CHECK(cuzk_daemon_config_set(&c, "scheduler.max_batch_size", "four", &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "got \"four\""));
    CHECK(cuzk_daemon_config_set(&c, "scheduler.max_batch_size", " 4", &err) == CUZK_ERR_FORMAT);
    CHECK(cuzk_daemon_config_set(&c, "scheduler.max_batch_size", "", &err) == CUZK_ERR_FORMAT);
    CHECK(cuzk_daemon_config_set(&c, "synthesis.threads", "99999999999999999999", &err) == CUZK_ERR_FORMAT);
    CHECK(cuzk_daemon_config_set(&c, "pipeline.enabled", "yes", &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "pipeline.enabled: expected true or false, got \"yes\""));
    CHECK(cuzk_daemon_config_set(&c, "daemon.listen", "nowhere", &err) == CUZK_ERR_FORMAT &&
          strcmp(c.listen, "0.0.0.0:9820") == 0);
    CHECK(cuzk_daemon_config_set(&c, "daemon.bogus", "1", &err) == CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "unknown setting daemon.bogus"));
    CHECK(cuzk_daemon_config_set(&c, "srs.preload", "x", &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_daemon_config_set(&c, "gpus.gpu_threads", "4", &err) == CUZK_ERR_INVALID_ARG);
    cuzk_daemon_config_free(&c);
}

static char *describe(const cuzk_daemon_config_t *c)
{
    char *out;
    size_t len;
    FILE *f = open_memstream(&out, &len);
    cuzk_daemon_config_describe(c, f);
    fclose(f);
    return out;
}

/* The keys that are read but have no effect: each mention, in the file or by cuzk_daemon_config_set,
 * warns once with the reason, and the value is still kept (for the printout); a refused value gets
 * its error and no warning. */
static void test_inert(void)
{
    static const struct {
        const char *key, *file_value, *set_value, *why;
    } inert[] = {
        {"scheduler.max_batch_size", "4", "4", "cross-sector batching is not implemented"},
        {"scheduler.max_batch_wait_ms", "500", "500", "no job waits for a batch"},
        {"scheduler.sort_by_type", "false", "false", "jobs run by priority"},
        {"pipeline.enabled", "false", "false", "partitions are always pipelined"},
        {"pipeline.max_parallel_synthesis", "4", "4", "pipeline.synthesis_concurrency sets how many"},
        {"pipeline.slot_size", "2", "2", "there are no slots"},
        {"pipeline.max_gpu_queue_depth", "3", "3", "no GPU"},
        {"logging.level", "\"debug\"", "debug", "whatever the level"},
        {"logging.format", "\"json\"", "json", "plain text"},
    };
    for (size_t i = 0; i < sizeof inert / sizeof inert[0]; i++) {
        const char *key = inert[i].key, *dot = strchr(key, '.');
        char text[160], want[160];
        snprintf(text, sizeof text, "[%.*s]\n%s = %s\n", (int)(dot - key), key, dot + 1, inert[i].file_value);
        snprintf(want, sizeof want, "t.toml: line 2: %s is read but has no effect: ", key);
        cuzk_daemon_config_t c;
        cuzk_err_t err = {{0}};
        char *w = NULL;
        CHECK(load(&c, text, &w, &err) == CUZK_OK);
        CHECK_MSG(w && strncmp(w, want, strlen(want)) == 0 && strstr(w, inert[i].why) &&
                      strchr(w, '\n') == w + strlen(w) - 1,
                  "%s: warnings:\n%s", key, w ? w : "");
        free(w);
        char *d = NULL;
        size_t dlen;
        FILE *f = open_memstream(&d, &dlen);
        cuzk_daemon_config_describe(&c, f);
        fclose(f);
        char line[160];
        snprintf(line, sizeof line, "\n# %s = ", key);
        const char *at = strstr(d, line);
        CHECK_MSG(at && strstr(at, inert[i].why), "%s", d);
        free(d);
        cuzk_daemon_config_free(&c);

        /* the command line: the same warning without a line number, the value set */
        size_t wlen;
        CHECK(cuzk_daemon_config_defaults(&c, NULL) == CUZK_OK);
        c.warn = open_memstream(&w, &wlen);
        CHECK_MSG(cuzk_daemon_config_set(&c, key, inert[i].set_value, &err) == CUZK_OK, "%s: %s", key, err.msg);
        fclose(c.warn);
        CHECK_MSG(strncmp(w, want + strlen("t.toml: line 2: "), strlen(want) - strlen("t.toml: line 2: ")) == 0 &&
                      strstr(w, inert[i].why) && strchr(w, '\n') == w + strlen(w) - 1,
                  "%s: warnings:\n%s", key, w);
        free(w);
        cuzk_daemon_config_free(&c);
    }
    cuzk_daemon_config_t c;
    cuzk_err_t err = {{0}};
    CHECK(load(&c, "[scheduler]\nmax_batch_size = 3\n[pipeline]\nenabled = false\n[logging]\nlevel = \"trace\"\n",
               NULL, &err) == CUZK_OK);
    CHECK(c.max_batch_size == 3 && !c.pipeline_enabled && c.log_level == CUZK_DAEMON_LOG_TRACE);
    cuzk_daemon_config_free(&c);

    /* refused values: the error only */
    char *w = NULL;
    size_t wlen;
    CHECK(load(&c, "[scheduler]\nmax_batch_size = 0\n", &w, &err) == CUZK_ERR_FORMAT);
    CHECK_MSG(w && *w == 0, "%s", w ? w : "");
    free(w);
    CHECK(cuzk_daemon_config_defaults(&c, NULL) == CUZK_OK);
    c.warn = open_memstream(&w, &wlen);
    CHECK(cuzk_daemon_config_set(&c, "logging.level", "loud", &err) == CUZK_ERR_FORMAT);
    CHECK(cuzk_daemon_config_set(&c, "srs.preload", "x", &err) == CUZK_ERR_INVALID_ARG);
    /* a key with an effect: no warning */
    CHECK(cuzk_daemon_config_set(&c, "pipeline.synthesis_concurrency", "2", &err) == CUZK_OK);
    fclose(c.warn);
    CHECK_MSG(*w == 0, "%s", w);
    free(w);
    c.warn = NULL; /* dropped: no stream, no crash */
    CHECK(cuzk_daemon_config_set(&c, "pipeline.slot_size", "1", &err) == CUZK_OK && c.slot_size == 1);
    cuzk_daemon_config_free(&c);
}

/* Whether a and b have the same lines apart from comment lines. */
static bool same_uncommented(const char *a, const char *b)
{
    for (;;) {
        while (*a == '#')
            a = strchr(a, '\n') ? strchr(a, '\n') + 1 : a + strlen(a);
        while (*b == '#')
            b = strchr(b, '\n') ? strchr(b, '\n') + 1 : b + strlen(b);
        if (!*a || !*b)
            return !*a && !*b;
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || memcmp(a, b, la) != 0)
            return false;
        a += la + (a[la] != 0);
        b += lb + (b[lb] != 0);
    }
}

/* The printout is TOML that loads back to the same settings, one line per key; the keys that have no
 * effect are comments with the reason. */
static void test_describe(void)
{
    static const char *const texts[] = {
        "",
        "[daemon]\nlisten = \"unix:///run/q\\\"uote.sock\"\nstatus_listen = \"[::1]:9821\"\n"
        "[memory]\ntotal_budget = \"1.5GiB\"\nsafety_margin = 1000\neviction_min_idle = \"250ms\"\n"
        "[logging]\nlevel = \"warn\"\nformat = \"tab\\there\"\n[srs]\nparam_cache = \"/d\\u00e9j\\u00e0\"\n",
        "[memory]\ntotal_budget = 3000000000\nsafety_margin = \"2TiB\"\neviction_min_idle = \"2h\"\n"
        "[scheduler]\nmax_batch_wait_ms = 86400000\n[prover]\nworkers = 65536\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        cuzk_daemon_config_t a, b;
        cuzk_err_t err = {{0}};
        char *w = NULL;
        CHECK(load(&a, texts[i], NULL, &err) == CUZK_OK);
        char *d1 = describe(&a);
        CHECK_MSG(load(&b, d1, &w, &err) == CUZK_OK && *w == 0, "%s\n%s%s", err.msg, d1, w ? w : "");
        char *d2 = describe(&b);
        /* the keys with an effect read back the same; the inert ones are comments, not read back */
        CHECK_MSG(i == 0 ? strcmp(d1, d2) == 0 : same_uncommented(d1, d2), "first:\n%s\nsecond:\n%s", d1, d2);
        CHECK(strcmp(a.listen, b.listen) == 0 && strcmp(a.param_cache, b.param_cache) == 0 &&
              a.total_budget_auto == b.total_budget_auto && a.total_budget == b.total_budget &&
              a.safety_margin == b.safety_margin && a.eviction_min_idle_ms == b.eviction_min_idle_ms &&
              a.prover_workers == b.prover_workers && b.max_batch_wait_ms == 10000);
        int lines = 0;
        for (char *p = d1; *p; p++)
            lines += *p == '\n';
        CHECK_MSG(lines == 33, "%d lines:\n%s", lines, d1); /* 40 keys less 4 deprecated and 3 [gpus] */
        int commented = 0;
        for (char *p = d1; (p = strstr(p, "# ")); p++)
            commented += p == d1 || p[-1] == '\n';
        CHECK_MSG(commented == 9, "%d inert keys:\n%s", commented, d1);
        if (i == 0)
            CHECK_MSG(strstr(d1, "daemon.listen = \"127.0.0.1:9820\"\n") &&
                          strstr(d1, "memory.safety_margin = \"5GiB\"\n") &&
                          strstr(d1, "memory.eviction_min_idle = \"5m\"\n") &&
                          strstr(d1, "memory.total_budget = \"auto\"") &&
                          strstr(d1, "\n# pipeline.max_parallel_synthesis = 18  # read but has no effect: "
                                     "pipeline.synthesis_concurrency sets how many partitions are synthesized "
                                     "at once\n") &&
                          strstr(d1, "\n# logging.level = \"info\"  # read but has no effect: ") &&
                          strstr(d1, "\npipeline.synthesis_lookahead = 1\n"),
                      "%s", d1);
        if (i == 1)
            CHECK_MSG(strstr(d1, "\n# logging.level = \"warn\"  # read but has no effect: ") &&
                          strstr(d1, "\n# logging.format = \"tab\\u0009here\"  # read but has no effect: ") &&
                          b.log_level == CUZK_DAEMON_LOG_INFO,
                      "%s", d1);
        if (i == 2)
            CHECK_MSG(strstr(d1, "memory.total_budget = 3000000000\n") &&
                          strstr(d1, "memory.safety_margin = \"2TiB\"\n") &&
                          strstr(d1, "memory.eviction_min_idle = \"2h\"\n") &&
                          strstr(d1, "\n# scheduler.max_batch_wait_ms = 86400000  # read but has no effect: ") &&
                          strstr(d2, "\n# scheduler.max_batch_wait_ms = 10000  # read but has no effect: "),
                      "%s", d1);
        free(w);
        free(d1);
        free(d2);
        cuzk_daemon_config_free(&a);
        cuzk_daemon_config_free(&b);
    }
}

static void test_files(void)
{
    cuzk_daemon_config_t c;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_daemon_config_load(&c, "/nonexistent/cuzk.toml", false, NULL, &err) == CUZK_ERR_IO &&
          strstr(err.msg, "/nonexistent/cuzk.toml") && c.listen == NULL);
    CHECK(cuzk_daemon_config_load(&c, "/nonexistent/cuzk.toml", true, NULL, &err) == CUZK_OK &&
          strcmp(c.listen, "127.0.0.1:9820") == 0);
    cuzk_daemon_config_free(&c);
    /* A directory is not a missing file. */
    CHECK(cuzk_daemon_config_load(&c, "tests", true, NULL, &err) == CUZK_ERR_IO);
    /* A file bigger than the first read, and an empty one. */
    char dir[] = "/tmp/cuzk_test_config_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[64];
    snprintf(path, sizeof path, "%s/big.toml", dir);
    FILE *f = fopen(path, "w");
    for (int i = 0; i < 2000; i++)
        fprintf(f, "# padding line %d\n", i);
    fputs("[prover]\nworkers = 3\n", f);
    fclose(f);
    CHECK(cuzk_daemon_config_load(&c, path, false, NULL, &err) == CUZK_OK && c.prover_workers == 3);
    cuzk_daemon_config_free(&c);
    f = fopen(path, "w");
    fclose(f);
    CHECK(cuzk_daemon_config_load(&c, path, false, NULL, &err) == CUZK_OK && c.prover_workers == 1);
    cuzk_daemon_config_free(&c);
    f = fopen(path, "w");
    fputs("[prover]\nworkers = 0\n", f);
    fclose(f);
    char want[160];
    snprintf(want, sizeof want, "%s: line 2: prover.workers: expected", path);
    CHECK(cuzk_daemon_config_load(&c, path, false, NULL, &err) == CUZK_ERR_FORMAT &&
          strncmp(err.msg, want, strlen(want)) == 0);
    unlink(path);
    rmdir(dir);

    CHECK(cuzk_daemon_log_level_parse("trace", &(cuzk_daemon_log_level){0}));
    CHECK(strcmp(cuzk_daemon_log_level_name(CUZK_DAEMON_LOG_WARN), "warn") == 0);
}

int main(void)
{
    test_init("test_config");
    test_defaults();
    test_example();
    test_invalid();
    test_warnings();
    test_sizes_durations();
    test_budget();
    test_addresses();
    test_overrides();
    test_inert();
    test_describe();
    test_files();
    return test_finish();
}
