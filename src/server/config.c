/* The daemon's configuration. One table of keys drives loading, command-line overrides and the
 * printout, so that a key is described once: its section.key, its kind (which decides the accepted
 * forms and the message when a value is refused), where it lives in the struct and its range. */
#include "server/config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/toml.h"

#define GIB (1ull << 30)
#define COUNT_MAX 65536u      /* threads, workers, queue depths: far above any machine */
#define WAIT_MS_MAX 86400000u /* a day: batch waits beyond that are a typo */
#define INPUT_MIN (1ull << 10)  /* proof input limits: a KiB (no proof is smaller) ... */
#define INPUT_MAX (1ull << 30)  /* ... to a GiB (gRPC's messages stop below 2 GiB) */
#define MIB (1ull << 20)
#define SOCKET_PATH_MAX 107   /* sizeof(sockaddr_un.sun_path) - 1 */
#define DEFAULT_LISTEN "127.0.0.1:9820"
#define DEFAULT_PARAM_CACHE "/var/tmp/filecoin-proof-parameters"

typedef enum {
    K_STRING,      /* any string */
    K_PATH,        /* a non-empty string */
    K_ADDR,        /* host:port, [v6]:port or unix:///path */
    K_STATUS_ADDR, /* "" or host:port, [v6]:port */
    K_BOOL,
    K_U32,         /* integer in [min, max] */
    K_U64,
    K_SIZE,        /* bytes: integer or "64GiB" */
    K_BUDGET,      /* "auto" or a size > 0 */
    K_DURATION,    /* ms: integer seconds or "5m"; within [min, max] when max is not 0 */
    K_MODE,        /* permission bits: "0660" (octal text) or an integer up to 0777 */
    K_LEVEL,
    K_SYNTH_MODE,  /* "auto", "direct" or "record" (cuzk_engine_synth_mode) */
    K_DEPRECATED,  /* accepted with a warning, no effect */
    K_NO_GPU,      /* the original's [gpus]: accepted with a warning, no effect */
} key_kind;

/* A key of another kind with a note is inert: its value is checked and kept (the printout shows it),
 * but nothing acts on it, so each mention in the file or on the command line warns with the note. */
typedef struct {
    const char *name;
    key_kind kind;
    size_t off;
    uint64_t min, max;
    const char *note; /* K_DEPRECATED: what replaced it; any other kind: why it has no effect */
} key_def;

#define AT(field) offsetof(cuzk_daemon_config_t, field)
static const key_def keys[] = {
    {"daemon.listen", K_ADDR, AT(listen), 0, 0, NULL},
    {"daemon.status_listen", K_STATUS_ADDR, AT(status_listen), 0, 0, NULL},
    {"daemon.allow_remote", K_BOOL, AT(allow_remote), 0, 0, NULL},
    {"daemon.socket_mode", K_MODE, AT(socket_mode), 0, 0, NULL},
    {"daemon.max_concurrent_calls", K_U32, AT(max_concurrent_calls), 1, COUNT_MAX, NULL},
    {"daemon.status_max_connections", K_U32, AT(status_max_connections), 1, COUNT_MAX, NULL},
    {"daemon.status_idle_timeout", K_DURATION, AT(status_idle_timeout_ms), 100, WAIT_MS_MAX, NULL},
    {"daemon.max_input_porep", K_SIZE, AT(max_input_porep), INPUT_MIN, INPUT_MAX, NULL},
    {"daemon.max_input_snap", K_SIZE, AT(max_input_snap), INPUT_MIN, INPUT_MAX, NULL},
    {"daemon.max_input_window_post", K_SIZE, AT(max_input_window_post), INPUT_MIN, INPUT_MAX, NULL},
    {"daemon.max_input_winning_post", K_SIZE, AT(max_input_winning_post), INPUT_MIN, INPUT_MAX, NULL},
    {"srs.param_cache", K_PATH, AT(param_cache), 0, 0, NULL},
    {"srs.preload", K_DEPRECATED, 0, 0, 0, "parameters are loaded on demand"},
    {"memory.total_budget", K_BUDGET, AT(total_budget), 0, 0, NULL},
    {"memory.safety_margin", K_SIZE, AT(safety_margin), 0, 0, NULL},
    {"memory.eviction_min_idle", K_DURATION, AT(eviction_min_idle_ms), 0, 0, NULL},
    {"memory.pinned_budget", K_DEPRECATED, 0, 0, 0, "memory.total_budget covers all memory"},
    {"memory.working_memory_budget", K_DEPRECATED, 0, 0, 0, "memory.total_budget covers all memory"},
    {"scheduler.max_batch_size", K_U32, AT(max_batch_size), 1, COUNT_MAX,
     "cross-sector batching is not implemented; each sector is proved on its own"},
    {"scheduler.max_batch_wait_ms", K_U64, AT(max_batch_wait_ms), 0, WAIT_MS_MAX,
     "cross-sector batching is not implemented, so no job waits for a batch"},
    {"scheduler.sort_by_type", K_BOOL, AT(sort_by_type), 0, 0,
     "jobs run by priority, FIFO within a priority, whatever their kind"},
    {"scheduler.max_queued", K_U32, AT(max_queued), 1, COUNT_MAX, NULL},
    {"scheduler.max_kept_results", K_U32, AT(max_kept_results), 1, COUNT_MAX, NULL},
    {"scheduler.result_retention", K_DURATION, AT(result_retention_ms), 1000, WAIT_MS_MAX, NULL},
    {"synthesis.threads", K_U32, AT(synthesis_threads), 0, COUNT_MAX, NULL},
    {"synthesis.mode", K_SYNTH_MODE, AT(synthesis_mode), 0, 0, NULL},
    {"synthesis.partition_workers", K_DEPRECATED, 0, 0, 0, "the memory budget sizes the synthesis pool"},
    {"prover.workers", K_U32, AT(prover_workers), 1, COUNT_MAX, NULL},
    {"prover.threads", K_U32, AT(prover_threads), 0, COUNT_MAX, NULL},
    {"gpus.devices", K_NO_GPU, 0, 0, 0, NULL},
    {"gpus.gpu_threads", K_NO_GPU, 0, 0, 0, NULL},
    {"gpus.gpu_workers_per_device", K_NO_GPU, 0, 0, 0, NULL},
    {"pipeline.enabled", K_BOOL, AT(pipeline_enabled), 0, 0, "partitions are always pipelined"},
    {"pipeline.synthesis_lookahead", K_U32, AT(synthesis_lookahead), 0, COUNT_MAX, NULL},
    {"pipeline.synthesis_concurrency", K_U32, AT(synthesis_concurrency), 1, COUNT_MAX, NULL},
    {"pipeline.max_parallel_synthesis", K_U32, AT(max_parallel_synthesis), 0, COUNT_MAX,
     "pipeline.synthesis_concurrency sets how many partitions are synthesized at once"},
    {"pipeline.slot_size", K_U32, AT(slot_size), 0, COUNT_MAX,
     "partitions go through the pipeline one by one; there are no slots"},
    {"pipeline.max_gpu_queue_depth", K_U32, AT(max_gpu_queue_depth), 0, COUNT_MAX,
     "no GPU; pipeline.synthesis_lookahead bounds the partitions waiting for a prover"},
    {"logging.level", K_LEVEL, AT(log_level), 0, 0, "every message and TIMELINE line is written whatever the level"},
    {"logging.format", K_STRING, AT(log_format), 0, 0, "the log is plain text"},
};
#define NKEYS (sizeof keys / sizeof keys[0])

static const char *const sections[] = {"daemon", "srs", "memory", "scheduler", "synthesis",
                                       "prover", "gpus", "pipeline", "logging"};

static const char *const level_names[] = {"error", "warn", "info", "debug", "trace"};

static bool is_inert(const key_def *kd)
{
    return kd->note && kd->kind != K_DEPRECATED && kd->kind != K_NO_GPU;
}

static const key_def *find_key(const char *name)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

static bool is_section(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if (strlen(sections[i]) == len && memcmp(sections[i], name, len) == 0)
            return true;
    return false;
}

bool cuzk_daemon_log_level_parse(const char *s, cuzk_daemon_log_level *out)
{
    for (int i = 0; i <= CUZK_DAEMON_LOG_TRACE; i++)
        if (strcmp(s, level_names[i]) == 0) {
            *out = (cuzk_daemon_log_level)i;
            return true;
        }
    return false;
}

const char *cuzk_daemon_log_level_name(cuzk_daemon_log_level level)
{
    return (unsigned)level <= CUZK_DAEMON_LOG_TRACE ? level_names[level] : "?";
}

/* ---- sizes and durations ---- */

typedef struct {
    const char *name;
    uint64_t factor;
} unit_t;

static const unit_t size_units[] = {
    {"", 1},           {"B", 1},           {"KiB", 1ull << 10},          {"MiB", 1ull << 20},
    {"GiB", 1ull << 30}, {"TiB", 1ull << 40}, {"kB", 1000},             {"KB", 1000},
    {"MB", 1000000},   {"GB", 1000000000}, {"TB", 1000000000000ull},
};
static const unit_t duration_units[] = {
    {"", 1000}, {"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000},
};

/* "<digits>[.<digits>][ ]<unit>" times the unit's factor, the fraction of the base unit dropped.
 * Returns NULL or what is wrong. */
static const char *scaled(const char *s, const unit_t *units, size_t nunits, uint64_t *out)
{
    unsigned __int128 ip = 0, frac = 0, scale = 1;
    if (*s < '0' || *s > '9')
        return "it does not start with a digit";
    for (; *s >= '0' && *s <= '9'; s++) {
        ip = ip * 10 + (unsigned)(*s - '0');
        if (ip > UINT64_MAX)
            return "the number is too large";
    }
    if (*s == '.') {
        if (s[1] < '0' || s[1] > '9')
            return "a digit must follow the decimal point";
        for (s++; *s >= '0' && *s <= '9'; s++) {
            if (scale == 1000000000000000000ull)
                return "too many decimal places";
            frac = frac * 10 + (unsigned)(*s - '0');
            scale *= 10;
        }
    }
    while (*s == ' ')
        s++;
    for (size_t i = 0; i < nunits; i++) {
        if (strcmp(s, units[i].name) != 0)
            continue;
        unsigned __int128 v = ip * units[i].factor + frac * units[i].factor / scale;
        if (v > UINT64_MAX)
            return "the value is too large";
        *out = (uint64_t)v;
        return NULL;
    }
    return "unknown unit";
}

cuzk_status cuzk_daemon_parse_size(const char *s, uint64_t *bytes, cuzk_err_t *err)
{
    const char *why = scaled(s, size_units, sizeof size_units / sizeof size_units[0], bytes);
    if (why)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "bad size \"%.40s\" (%s): use bytes or KiB MiB GiB TiB kB MB GB TB, e.g. \"64GiB\"",
                            s, why);
    return CUZK_OK;
}

cuzk_status cuzk_daemon_parse_duration(const char *s, uint64_t *ms, cuzk_err_t *err)
{
    const char *why = scaled(s, duration_units, sizeof duration_units / sizeof duration_units[0], ms);
    if (why)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "bad duration \"%.40s\" (%s): use seconds or ms s m h, e.g. \"5m\"", s, why);
    return CUZK_OK;
}

/* ---- addresses ---- */

/* Splits host:port or [v6]:port; host_out gets the host without brackets. Returns NULL or what is
 * wrong. */
static const char *split_hostport(const char *addr, char host_out[256], bool *v6)
{
    const char *colon;
    size_t hlen;
    *v6 = addr[0] == '[';
    if (*v6) {
        const char *close = strchr(addr, ']');
        if (!close)
            return "missing ']'";
        colon = close + 1;
        if (*colon != ':')
            return "missing :port after ']'";
        addr++;
        hlen = (size_t)(close - addr);
    } else {
        colon = strrchr(addr, ':');
        if (!colon)
            return "missing :port";
        hlen = (size_t)(colon - addr);
        if (memchr(addr, ':', hlen))
            return "an IPv6 address needs brackets, as in [::1]:9820";
    }
    if (hlen == 0)
        return "empty host";
    if (hlen > 253)
        return "host name longer than 253 bytes";
    memcpy(host_out, addr, hlen);
    host_out[hlen] = 0;
    const char *port = colon + 1;
    size_t plen = strlen(port);
    if (plen == 0 || plen > 5 || strspn(port, "0123456789") != plen || atoi(port) > 65535)
        return "the port must be a number from 0 to 65535";
    return NULL;
}

static const char *check_host(const char *host, bool v6)
{
    unsigned char buf[sizeof(struct in6_addr)];
    if (v6)
        return inet_pton(AF_INET6, host, buf) == 1 ? NULL : "not an IPv6 address";
    if (strspn(host, "0123456789.") == strlen(host))
        return inet_pton(AF_INET, host, buf) == 1 ? NULL : "not an IPv4 address (a.b.c.d)";
    if (strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.") != strlen(host))
        return "the host name has characters other than letters, digits, '-' and '.'";
    return NULL;
}

static bool is_unix(const char *addr) { return strncmp(addr, "unix:", 5) == 0; }

cuzk_status cuzk_daemon_addr_check(const char *addr, bool allow_unix, cuzk_err_t *err)
{
    const char *why = NULL;
    if (is_unix(addr)) {
        bool form = strncmp(addr, "unix:///", 8) == 0 && addr[8] != 0;
        if (!allow_unix)
            why = "a unix socket is not possible here";
        else if (!form)
            why = "a unix socket is written unix:///absolute/path";
        else if (strlen(addr + 7) > SOCKET_PATH_MAX)
            why = "the socket path is longer than 107 bytes";
    } else {
        char host[256];
        bool v6;
        why = split_hostport(addr, host, &v6);
        if (!why)
            why = check_host(host, v6);
    }
    if (why)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "address \"%.60s\": %s", addr, why);
    return CUZK_OK;
}

bool cuzk_daemon_addr_is_loopback(const char *addr)
{
    if (cuzk_daemon_addr_check(addr, true, NULL) != CUZK_OK)
        return false;
    if (is_unix(addr))
        return true;
    char host[256];
    bool v6;
    split_hostport(addr, host, &v6);
    if (v6) {
        struct in6_addr a;
        inet_pton(AF_INET6, host, &a);
        return IN6_IS_ADDR_LOOPBACK(&a) || (IN6_IS_ADDR_V4MAPPED(&a) && a.s6_addr[12] == 127);
    }
    struct in_addr a4;
    if (inet_pton(AF_INET, host, &a4) == 1)
        return (ntohl(a4.s_addr) >> 24) == 127;
    return strcasecmp(host, "localhost") == 0;
}

/* ---- memory budget ---- */

/* MemTotal in bytes, 0 when the file or the line is not there. */
static uint64_t meminfo_total(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    uint64_t total = 0;
    while (getline(&line, &cap, f) > 0) {
        unsigned long long kb;
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
            if (kb <= UINT64_MAX / 1024)
                total = (uint64_t)kb * 1024;
            break;
        }
    }
    free(line);
    fclose(f);
    return total;
}

cuzk_status cuzk_daemon_budget_auto(const char *meminfo_path, uint64_t safety_margin, uint64_t *bytes,
                                    cuzk_err_t *err)
{
    uint64_t total = meminfo_total(meminfo_path);
    if (total == 0)
        total = 256 * GIB; /* the original's fallback when MemTotal cannot be read */
    if (safety_margin >= total)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "memory.safety_margin (%" PRIu64 " bytes) leaves nothing of the %" PRIu64
                            " bytes of memory (memory.total_budget = \"auto\")",
                            safety_margin, total);
    *bytes = total - safety_margin;
    return CUZK_OK;
}

cuzk_status cuzk_daemon_config_budget(const cuzk_daemon_config_t *cfg, uint64_t *bytes, cuzk_err_t *err)
{
    if (!cfg->total_budget_auto) {
        *bytes = cfg->total_budget;
        return CUZK_OK;
    }
    return cuzk_daemon_budget_auto("/proc/meminfo", cfg->safety_margin, bytes, err);
}

/* ---- defaults and freeing ---- */

void cuzk_daemon_config_free(cuzk_daemon_config_t *cfg)
{
    free(cfg->listen);
    free(cfg->status_listen);
    free(cfg->param_cache);
    free(cfg->log_format);
    memset(cfg, 0, sizeof *cfg);
}

cuzk_status cuzk_daemon_config_defaults(cuzk_daemon_config_t *cfg, cuzk_err_t *err)
{
    const char *env = getenv("FIL_PROOFS_PARAMETER_CACHE");
    memset(cfg, 0, sizeof *cfg);
    cfg->listen = strdup(DEFAULT_LISTEN);
    cfg->status_listen = strdup("");
    cfg->param_cache = strdup(env && *env ? env : DEFAULT_PARAM_CACHE);
    cfg->log_format = strdup("");
    if (!cfg->listen || !cfg->status_listen || !cfg->param_cache || !cfg->log_format) {
        cuzk_daemon_config_free(cfg);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    }
    cfg->allow_remote = false;
    cfg->socket_mode = 0660;
    cfg->max_concurrent_calls = 256;
    cfg->status_max_connections = 64;
    cfg->status_idle_timeout_ms = 10000;
    cfg->max_input_porep = 128 * MIB;
    cfg->max_input_snap = 64 * MIB;
    cfg->max_input_window_post = 128 * MIB;
    cfg->max_input_winning_post = 16 * MIB;
    cfg->total_budget_auto = true;
    cfg->safety_margin = 5 * GIB;
    cfg->eviction_min_idle_ms = 5 * 60 * 1000;
    cfg->max_batch_size = 1;
    cfg->max_batch_wait_ms = 10000;
    cfg->sort_by_type = true;
    cfg->max_queued = 256;
    cfg->max_kept_results = 1000;
    cfg->result_retention_ms = 3600 * 1000;
    cfg->prover_workers = 1;
    cfg->pipeline_enabled = true;
    cfg->synthesis_lookahead = 1;
    cfg->synthesis_concurrency = 1;
    cfg->max_parallel_synthesis = 18;
    cfg->log_level = CUZK_DAEMON_LOG_INFO;
    cfg->synthesis_mode = CUZK_ENGINE_SYNTH_AUTO;
    cfg->warn = stderr;
    return CUZK_OK;
}

/* ---- applying one value ---- */

/* "line N: key: expected X, got Y" (no line for a command-line value). */
static cuzk_status refuse(const cuzk_toml_value_t *v, const char *expected, const char *why, cuzk_err_t *err)
{
    char got[80], at[24] = "";
    switch (v->type) {
    case CUZK_TOML_STRING: snprintf(got, sizeof got, "\"%.48s%s\"", v->u.s, strlen(v->u.s) > 48 ? "..." : ""); break;
    case CUZK_TOML_INT: snprintf(got, sizeof got, "%" PRId64, v->u.i); break;
    case CUZK_TOML_FLOAT: snprintf(got, sizeof got, "%g", v->u.f); break;
    case CUZK_TOML_BOOL: snprintf(got, sizeof got, "%s", v->u.b ? "true" : "false"); break;
    default: snprintf(got, sizeof got, "%s", cuzk_toml_type_name(v->type));
    }
    if (v->line > 0)
        snprintf(at, sizeof at, "line %d: ", v->line);
    return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s%s: expected %s, got %s%s%s%s", at, v->path, expected, got,
                        why ? " (" : "", why ? why : "", why ? ")" : "");
}

static cuzk_status set_string(char **field, const char *s, cuzk_err_t *err)
{
    char *copy = strdup(s);
    if (!copy)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    free(*field);
    *field = copy;
    return CUZK_OK;
}

/* The part of an address error after "address \"...\": ". */
static const char *addr_why(const cuzk_err_t *e)
{
    const char *p = strstr(e->msg, "\": ");
    return p ? p + 3 : e->msg;
}

static cuzk_status apply_addr(cuzk_daemon_config_t *cfg, const key_def *kd, const cuzk_toml_value_t *v,
                              cuzk_err_t *err)
{
    bool is_status = kd->kind == K_STATUS_ADDR;
    const char *expected = is_status ? "\"\" (off), \"host:port\" or \"[ipv6]:port\""
                                     : "\"host:port\", \"[ipv6]:port\" or \"unix:///absolute/path\"";
    if (v->type != CUZK_TOML_STRING)
        return refuse(v, expected, NULL, err);
    cuzk_err_t e;
    if (!(is_status && v->u.s[0] == 0) && cuzk_daemon_addr_check(v->u.s, !is_status, &e) != CUZK_OK)
        return refuse(v, expected, addr_why(&e), err);
    return set_string((char **)((char *)cfg + kd->off), v->u.s, err);
}

static cuzk_status apply_int(cuzk_daemon_config_t *cfg, const key_def *kd, const cuzk_toml_value_t *v,
                             cuzk_err_t *err)
{
    char expected[64];
    snprintf(expected, sizeof expected, "an integer from %" PRIu64 " to %" PRIu64, kd->min, kd->max);
    if (v->type != CUZK_TOML_INT || v->u.i < 0 || (uint64_t)v->u.i < kd->min || (uint64_t)v->u.i > kd->max)
        return refuse(v, expected, NULL, err);
    void *field = (char *)cfg + kd->off;
    if (kd->kind == K_U32)
        *(uint32_t *)field = (uint32_t)v->u.i;
    else
        *(uint64_t *)field = (uint64_t)v->u.i;
    return CUZK_OK;
}

/* Sizes and durations: an integer (bytes, seconds) or a string with a unit. */
static cuzk_status apply_scaled(cuzk_daemon_config_t *cfg, const key_def *kd, const cuzk_toml_value_t *v,
                                cuzk_err_t *err)
{
    const char *expected = kd->kind == K_DURATION ? "a duration like \"5m\", \"30s\", \"250ms\" or seconds"
                           : kd->kind == K_BUDGET ? "\"auto\" or a size like \"64GiB\", \"512MiB\", \"64GB\" or bytes"
                                                  : "a size like \"5GiB\", \"512MiB\", \"5GB\" or bytes";
    uint64_t n;
    if (v->type == CUZK_TOML_STRING && kd->kind == K_BUDGET && strcmp(v->u.s, "auto") == 0) {
        cfg->total_budget_auto = true;
        return CUZK_OK;
    }
    if (v->type == CUZK_TOML_INT && v->u.i >= 0) {
        n = (uint64_t)v->u.i;
        if (kd->kind == K_DURATION && n > UINT64_MAX / 1000)
            return refuse(v, expected, "too large", err);
        if (kd->kind == K_DURATION)
            n *= 1000;
    } else if (v->type == CUZK_TOML_STRING) {
        const unit_t *u = kd->kind == K_DURATION ? duration_units : size_units;
        size_t nu = kd->kind == K_DURATION ? sizeof duration_units / sizeof duration_units[0]
                                           : sizeof size_units / sizeof size_units[0];
        const char *why = scaled(v->u.s, u, nu, &n);
        if (why)
            return refuse(v, expected, why, err);
    } else {
        return refuse(v, expected, NULL, err);
    }
    if (kd->kind == K_BUDGET && n == 0)
        return refuse(v, expected, "a budget of 0 bytes cannot prove anything", err);
    if (kd->max && (n < kd->min || n > kd->max)) {
        char why[96];
        snprintf(why, sizeof why, "from %" PRIu64 " to %" PRIu64 " %s", kd->min, kd->max,
                 kd->kind == K_DURATION ? "ms" : "bytes");
        return refuse(v, expected, why, err);
    }
    *(uint64_t *)((char *)cfg + kd->off) = n;
    if (kd->kind == K_BUDGET)
        cfg->total_budget_auto = false;
    return CUZK_OK;
}

/* Permission bits: octal text ("0660", "660") or a TOML integer (0o660); the owner keeps read and write
 * (without them the daemon's own user could not connect). */
static cuzk_status apply_mode(const key_def *kd, const cuzk_toml_value_t *v, uint32_t *field, cuzk_err_t *err)
{
    (void)kd;
    const char *expected = "permission bits in octal, like \"0660\", with the owner's read and write";
    uint64_t mode = UINT64_MAX;
    if (v->type == CUZK_TOML_STRING && v->u.s[0] && strlen(v->u.s) <= 4 && strspn(v->u.s, "01234567") == strlen(v->u.s))
        mode = strtoull(v->u.s, NULL, 8);
    else if (v->type == CUZK_TOML_INT && v->u.i >= 0)
        mode = (uint64_t)v->u.i;
    if (mode > 0777 || (mode & 0600) != 0600)
        return refuse(v, expected, mode <= 0777 ? "the owner needs read and write" : NULL, err);
    *field = (uint32_t)mode;
    return CUZK_OK;
}

static cuzk_status apply(cuzk_daemon_config_t *cfg, const key_def *kd, const cuzk_toml_value_t *v,
                         cuzk_err_t *err)
{
    void *field = (char *)cfg + kd->off;
    switch (kd->kind) {
    case K_STRING:
    case K_PATH:
        if (v->type != CUZK_TOML_STRING || (kd->kind == K_PATH && v->u.s[0] == 0))
            return refuse(v, kd->kind == K_PATH ? "a directory path" : "a string", NULL, err);
        return set_string((char **)field, v->u.s, err);
    case K_ADDR:
    case K_STATUS_ADDR:
        return apply_addr(cfg, kd, v, err);
    case K_BOOL:
        if (v->type != CUZK_TOML_BOOL)
            return refuse(v, "true or false", NULL, err);
        *(bool *)field = v->u.b;
        return CUZK_OK;
    case K_U32:
    case K_U64:
        return apply_int(cfg, kd, v, err);
    case K_SIZE:
    case K_BUDGET:
    case K_DURATION:
        return apply_scaled(cfg, kd, v, err);
    case K_MODE:
        return apply_mode(kd, v, (uint32_t *)field, err);
    case K_LEVEL:
        if (v->type != CUZK_TOML_STRING || !cuzk_daemon_log_level_parse(v->u.s, (cuzk_daemon_log_level *)field))
            return refuse(v, "one of \"error\", \"warn\", \"info\", \"debug\", \"trace\"", NULL, err);
        return CUZK_OK;
    case K_SYNTH_MODE:
        for (int m = CUZK_ENGINE_SYNTH_AUTO; m <= CUZK_ENGINE_SYNTH_RECORD; m++)
            if (v->type == CUZK_TOML_STRING && strcmp(v->u.s, cuzk_engine_synth_mode_name(m)) == 0) {
                *(cuzk_engine_synth_mode *)field = (cuzk_engine_synth_mode)m;
                return CUZK_OK;
            }
        return refuse(v, "one of \"auto\", \"direct\", \"record\"", NULL, err);
    case K_DEPRECATED:
    case K_NO_GPU:
        return CUZK_OK;
    }
    return CUZK_OK;
}

/* ---- loading ---- */

/* The number of parts of a path and the length of the first, quoted parts read as one. */
static size_t path_parts(const char *path, size_t *first_len)
{
    size_t parts = 1;
    bool quoted = false;
    *first_len = strlen(path);
    for (const char *p = path; *p; p++) {
        if (quoted && *p == '\\' && p[1]) {
            p++;
        } else if (*p == '"') {
            quoted = !quoted;
        } else if (!quoted && *p == '.') {
            if (parts++ == 1)
                *first_len = (size_t)(p - path);
        }
    }
    return parts;
}

typedef struct {
    FILE *warn;       /* NULL: warnings are dropped */
    const char *name; /* the file, for the messages; may be NULL */
} load_ctx;

static void warn_at(const load_ctx *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void warn_at(const load_ctx *c, int line, const char *fmt, ...)
{
    if (!c->warn)
        return;
    if (c->name)
        fprintf(c->warn, "%s: ", c->name);
    fprintf(c->warn, "line %d: ", line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(c->warn, fmt, ap);
    va_end(ap);
    fputc('\n', c->warn);
}

/* One node of the document: a known key is applied (or warned about), a known section passes, and
 * anything else gets one warning (the keys of an unknown section none of their own). */
static cuzk_status take_node(cuzk_daemon_config_t *cfg, const cuzk_toml_value_t *v, const load_ctx *c,
                             cuzk_err_t *err)
{
    const key_def *kd = find_key(v->path);
    if (kd) {
        if (kd->kind == K_DEPRECATED)
            warn_at(c, v->line, "%s is deprecated and ignored: %s", v->path, kd->note);
        else if (kd->kind == K_NO_GPU)
            warn_at(c, v->line, "%s: no GPU backend in this build; ignored", v->path);
        cuzk_status st = apply(cfg, kd, v, err);
        if (st == CUZK_OK && is_inert(kd)) /* a value that is refused gets its error, not this */
            warn_at(c, v->line, "%s is read but has no effect: %s", v->path, kd->note);
        return st;
    }
    size_t first_len, parts = path_parts(v->path, &first_len);
    bool known_section = is_section(v->path, first_len);
    if (parts == 1 && known_section) {
        if (v->type != CUZK_TOML_TABLE)
            return refuse(v, "a table ([section])", NULL, err);
        return CUZK_OK;
    }
    if (parts == 1 || (parts == 2 && known_section)) {
        if (v->type == CUZK_TOML_TABLE)
            warn_at(c, v->line, "unknown section [%s] ignored", v->path);
        else
            warn_at(c, v->line, "unknown key %s ignored", v->path);
    }
    return CUZK_OK; /* deeper: inside a table already warned about */
}

/* Prefixes err's message with "name: ". */
static cuzk_status with_name(cuzk_status st, const char *name, cuzk_err_t *err)
{
    if (err && name) {
        cuzk_err_t inner = *err;
        cuzk_err_set(err, st, "%s: %s", name, inner.msg);
    }
    return st;
}

cuzk_status cuzk_daemon_config_load_text(cuzk_daemon_config_t *cfg, const char *text, size_t len,
                                         const char *name, FILE *warn, cuzk_err_t *err)
{
    cuzk_status st = cuzk_daemon_config_defaults(cfg, err);
    if (st != CUZK_OK)
        return st;
    cuzk_toml_t *doc;
    if ((st = cuzk_toml_parse(text, len, &doc, err)) != CUZK_OK) {
        cuzk_daemon_config_free(cfg);
        return with_name(st, name, err);
    }
    load_ctx c = {.warn = warn, .name = name};
    for (size_t i = 0; st == CUZK_OK && i < cuzk_toml_count(doc); i++)
        st = take_node(cfg, cuzk_toml_at(doc, i), &c, err);
    cuzk_toml_free(doc);
    if (st != CUZK_OK) {
        cuzk_daemon_config_free(cfg);
        return with_name(st, name, err);
    }
    return CUZK_OK;
}

/* Reads a whole file; *missing when it does not exist. */
static cuzk_status read_file(const char *path, char **out, size_t *len, bool *missing, cuzk_err_t *err)
{
    *missing = false;
    FILE *f = fopen(path, "rb");
    if (!f) {
        *missing = errno == ENOENT;
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    }
    size_t n = 0, cap = 4096;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *nb = realloc(buf, cap *= 2);
        if (!nb)
            free(buf);
        buf = nb;
    }
    bool failed = buf && ferror(f);
    int saved = errno;
    fclose(f);
    if (!buf)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    if (failed) {
        free(buf);
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(saved));
    }
    *out = buf;
    *len = n;
    return CUZK_OK;
}

cuzk_status cuzk_daemon_config_load(cuzk_daemon_config_t *cfg, const char *path, bool missing_ok, FILE *warn,
                                    cuzk_err_t *err)
{
    char *text = NULL;
    size_t len = 0;
    bool missing;
    cuzk_status st = read_file(path, &text, &len, &missing, err);
    if (st != CUZK_OK) {
        memset(cfg, 0, sizeof *cfg);
        return missing && missing_ok ? cuzk_daemon_config_defaults(cfg, err) : st;
    }
    st = cuzk_daemon_config_load_text(cfg, text, len, path, warn, err);
    free(text);
    return st;
}

/* ---- command-line overrides ---- */

/* A command-line value for a key of the table that takes one. */
static cuzk_status set_value(cuzk_daemon_config_t *cfg, const key_def *kd, const char *key, const char *value,
                             cuzk_err_t *err)
{
    /* The text becomes the value the file would hold; what is not a number or boolean stays a
     * string, so that the refusal quotes it. */
    cuzk_toml_value_t v = {.type = CUZK_TOML_STRING, .line = 0, .path = (char *)key};
    v.u.s = (char *)value;
    if (kd->kind == K_BOOL && (strcmp(value, "true") == 0 || strcmp(value, "false") == 0)) {
        v.type = CUZK_TOML_BOOL;
        v.u.b = value[0] == 't';
    } else if (kd->kind == K_U32 || kd->kind == K_U64) {
        char *end;
        errno = 0;
        long long n = strtoll(value, &end, 10);
        bool starts = (value[0] >= '0' && value[0] <= '9') || value[0] == '-' || value[0] == '+';
        if (starts && *end == 0 && errno == 0) {
            v.type = CUZK_TOML_INT;
            v.u.i = n;
        }
    }
    return apply(cfg, kd, &v, err);
}

cuzk_status cuzk_daemon_config_set(cuzk_daemon_config_t *cfg, const char *key, const char *value,
                                   cuzk_err_t *err)
{
    const key_def *kd = find_key(key);
    if (!kd)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "unknown setting %s", key);
    if (kd->kind == K_DEPRECATED || kd->kind == K_NO_GPU)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%s has no effect in this build", key);
    cuzk_status st = set_value(cfg, kd, key, value, err);
    if (st == CUZK_OK && is_inert(kd) && cfg->warn)
        fprintf(cfg->warn, "%s is read but has no effect: %s\n", key, kd->note);
    return st;
}

/* ---- whole-configuration checks ---- */

static cuzk_status check_reach(const char *key, const char *addr, bool allow_remote, cuzk_err_t *err)
{
    if (allow_remote || cuzk_daemon_addr_is_loopback(addr))
        return CUZK_OK;
    return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                        "%s = \"%.60s\" is reachable from other machines and the service has no "
                        "authentication; set daemon.allow_remote = true to allow it",
                        key, addr);
}

cuzk_status cuzk_daemon_config_validate(const cuzk_daemon_config_t *cfg, cuzk_err_t *err)
{
    cuzk_err_t e;
    uint64_t budget;
    cuzk_status st;
    if (cuzk_daemon_addr_check(cfg->listen, true, &e) != CUZK_OK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "daemon.listen: %s", e.msg);
    if (cfg->status_listen[0] && cuzk_daemon_addr_check(cfg->status_listen, false, &e) != CUZK_OK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "daemon.status_listen: %s", e.msg);
    if ((st = check_reach("daemon.listen", cfg->listen, cfg->allow_remote, err)) != CUZK_OK)
        return st;
    if (cfg->status_listen[0] &&
        (st = check_reach("daemon.status_listen", cfg->status_listen, cfg->allow_remote, err)) != CUZK_OK)
        return st;
    return cuzk_daemon_config_budget(cfg, &budget, err);
}

/* ---- the printout ---- */

/* Sizes and durations are printed in the largest unit that divides them exactly, so that the text
 * reads back to the same number; binary units only (decimal ones would win for round byte counts). */
static void put_size(FILE *f, uint64_t n)
{
    static const char *const names[] = {"TiB", "GiB", "MiB", "KiB"};
    for (int i = 0; i < 4; i++) {
        uint64_t unit = 1ull << (10 * (4 - i));
        if (n && n % unit == 0) {
            fprintf(f, "\"%" PRIu64 "%s\"", n / unit, names[i]);
            return;
        }
    }
    fprintf(f, "%" PRIu64, n);
}

static void put_duration(FILE *f, uint64_t ms)
{
    static const unit_t units[] = {{"h", 3600000}, {"m", 60000}, {"s", 1000}};
    for (int i = 0; i < 3; i++)
        if (ms % units[i].factor == 0) {
            fprintf(f, "\"%" PRIu64 "%s\"", ms / units[i].factor, units[i].name);
            return;
        }
    fprintf(f, "\"%" PRIu64 "ms\"", ms);
}

void cuzk_daemon_config_describe(const cuzk_daemon_config_t *cfg, FILE *f)
{
    for (size_t i = 0; i < NKEYS; i++) {
        const key_def *kd = &keys[i];
        const void *field = (const char *)cfg + kd->off;
        if (kd->kind == K_DEPRECATED || kd->kind == K_NO_GPU)
            continue;
        /* commented out: reading the printout back must not warn, and what it shows must be true */
        fprintf(f, "%s%s = ", is_inert(kd) ? "# " : "", kd->name);
        switch (kd->kind) {
        case K_STRING:
        case K_PATH:
        case K_ADDR:
        case K_STATUS_ADDR: cuzk_toml_write_string(f, *(char *const *)field ? *(char *const *)field : ""); break;
        case K_BOOL: fputs(*(const bool *)field ? "true" : "false", f); break;
        case K_U32: fprintf(f, "%" PRIu32, *(const uint32_t *)field); break;
        case K_U64: fprintf(f, "%" PRIu64, *(const uint64_t *)field); break;
        case K_SIZE: put_size(f, *(const uint64_t *)field); break;
        case K_BUDGET:
            if (cfg->total_budget_auto) {
                uint64_t b;
                fputs("\"auto\"", f);
                if (cuzk_daemon_config_budget(cfg, &b, NULL) == CUZK_OK)
                    fprintf(f, "  # %.1f GiB here: MemTotal minus memory.safety_margin", (double)b / (double)GIB);
            } else {
                put_size(f, cfg->total_budget);
            }
            break;
        case K_DURATION: put_duration(f, *(const uint64_t *)field); break;
        case K_MODE: fprintf(f, "\"%04" PRIo32 "\"", *(const uint32_t *)field); break;
        case K_LEVEL: fprintf(f, "\"%s\"", cuzk_daemon_log_level_name(cfg->log_level)); break;
        case K_SYNTH_MODE: fprintf(f, "\"%s\"", cuzk_engine_synth_mode_name(cfg->synthesis_mode)); break;
        default: break;
        }
        if (is_inert(kd))
            fprintf(f, "  # read but has no effect: %s", kd->note);
        fputc('\n', f);
    }
}
