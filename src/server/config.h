/* cuzk-daemon's configuration: the settings with their defaults, loading them from a TOML file
 * (sections and keys as the original daemon's, plus [prover] and daemon.allow_remote), command-line
 * overrides, the checks the daemon runs before it starts, and a printout of the effective values. */
#ifndef CUZK_SERVER_CONFIG_H
#define CUZK_SERVER_CONFIG_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "cuzk/engine.h"
#include "cuzk/status.h"

typedef enum {
    CUZK_DAEMON_LOG_ERROR,
    CUZK_DAEMON_LOG_WARN,
    CUZK_DAEMON_LOG_INFO,
    CUZK_DAEMON_LOG_DEBUG,
    CUZK_DAEMON_LOG_TRACE,
} cuzk_daemon_log_level;

/* The strings are owned (malloc) by the struct: release with cuzk_daemon_config_free. */
typedef struct {
    /* [daemon] */
    char *listen;        /* gRPC: "host:port", "[v6]:port" or "unix:///abs/path"; default 127.0.0.1:9820 */
    char *status_listen; /* HTTP status: "host:port" or "[v6]:port"; "" (default) = off */
    bool allow_remote;   /* false: listen/status_listen must be loopback or a unix socket */
    uint32_t socket_mode;            /* a unix socket's permission bits, whatever the umask; default 0660 */
    uint32_t max_concurrent_calls;   /* gRPC calls served at once (each holds a thread); default 256 */
    uint32_t status_max_connections; /* HTTP connections waiting for their request, and served: each;
                                      * default 64 */
    uint64_t status_idle_timeout_ms; /* an HTTP connection silent this long is closed; default 10 s */
    /* The most bytes of proof input one request may carry, by kind (its bytes fields together: vanilla
     * proofs, randomness, commitments); defaults 128 MiB (PoRep: a 32GiB C1 wrapper is about 52 MB;
     * Window PoSt: a partition of 2349 32GiB sectors about 60 MB, reckoned from the proofs' layout),
     * 64 MiB (SnapDeals), 16 MiB (Winning PoSt). The largest also bounds any gRPC message, refused from
     * its length before it is read. */
    uint64_t max_input_porep, max_input_snap, max_input_window_post, max_input_winning_post;
    /* [srs] */
    char *param_cache;   /* .params/.vk directory; default $FIL_PROOFS_PARAMETER_CACHE or
                          * /var/tmp/filecoin-proof-parameters */
    /* [memory] */
    bool total_budget_auto;        /* "auto" (default): see cuzk_daemon_config_budget */
    uint64_t total_budget;         /* bytes, when not auto */
    uint64_t safety_margin;        /* bytes; default 5 GiB */
    uint64_t eviction_min_idle_ms; /* default 5 minutes */
    /* [scheduler] */
    uint32_t max_batch_size;    /* >= 1, default 1 */
    uint64_t max_batch_wait_ms; /* default 10000 */
    bool sort_by_type;          /* default true */
    uint32_t max_queued;            /* jobs waiting to start; one more is refused (RESOURCE_EXHAUSTED);
                                     * default 256 */
    uint32_t max_kept_results;      /* finished results nobody collected; beyond, the oldest go; default 1000 */
    uint64_t result_retention_ms;   /* an uncollected result is dropped after this long; default 1 hour */
    /* [synthesis] */
    uint32_t synthesis_threads; /* threads of one PoSt partition's synthesis (PoRep: one);
                                 * 0 (default) = all CPUs */
    cuzk_engine_synth_mode synthesis_mode; /* PoRep partitions: "auto" (default), "direct" or "record"
                                            * (cuzk_engine_config_t.synthesis_mode) */
    /* [prover]: the CPU prover, in place of the original's [gpus] */
    uint32_t prover_workers; /* partitions proved at once, >= 1, default 1 */
    uint32_t prover_threads; /* 0 (default) = all CPUs */
    /* [pipeline] */
    bool pipeline_enabled;           /* default true */
    uint32_t synthesis_lookahead;    /* default 1 */
    uint32_t synthesis_concurrency;  /* >= 1, default 1 */
    uint32_t max_parallel_synthesis; /* default 18 */
    uint32_t slot_size;              /* default 0 */
    uint32_t max_gpu_queue_depth;    /* default 0 */
    /* [logging] */
    cuzk_daemon_log_level log_level; /* default info */
    char *log_format;                /* accepted, free-form; default "" */
    /* Where cuzk_daemon_config_set writes its warning for a key that is read but has no effect:
     * stderr after cuzk_daemon_config_defaults and the loaders; NULL = none. Not owned. */
    FILE *warn;
} cuzk_daemon_config_t;

/* The defaults (the environment's FIL_PROOFS_PARAMETER_CACHE, when set and not empty, replaces the
 * default param_cache). cfg's previous contents are not freed. Fails only for lack of memory. */
cuzk_status cuzk_daemon_config_defaults(cuzk_daemon_config_t *cfg, cuzk_err_t *err);

/* Defaults, then the file at path. A missing file is an error (CUZK_ERR_IO) unless missing_ok, when
 * the defaults stand. Unknown sections and keys, deprecated keys and the [gpus] keys are accepted with
 * a one-line warning each written to warn (NULL: not written); so are the keys this build reads but
 * does not act on ("<key> is read but has no effect: <why>"), whose values are kept for the printout.
 * A value of the wrong type or out of
 * range is CUZK_ERR_FORMAT with "path: line N: section.key: expected ..., got ...". On error cfg holds
 * nothing to free. The cross-key checks are cuzk_daemon_config_validate's, to be called after the
 * command line's overrides. */
cuzk_status cuzk_daemon_config_load(cuzk_daemon_config_t *cfg, const char *path, bool missing_ok, FILE *warn,
                                    cuzk_err_t *err);
/* The same for text in memory; name prefixes the messages (NULL: none). */
cuzk_status cuzk_daemon_config_load_text(cuzk_daemon_config_t *cfg, const char *text, size_t len,
                                         const char *name, FILE *warn, cuzk_err_t *err);

/* One setting from the command line, "section.key" and its text: written as in the file without TOML
 * quoting (daemon.listen 0.0.0.0:9820, memory.total_budget 64GiB, pipeline.enabled false,
 * logging.level debug). Unknown, deprecated and ignored keys are CUZK_ERR_INVALID_ARG. A key that is
 * read but has no effect is set, with its warning written to cfg->warn. */
cuzk_status cuzk_daemon_config_set(cuzk_daemon_config_t *cfg, const char *key, const char *value,
                                   cuzk_err_t *err);

/* The checks that look at more than one key, run once everything is set: listen and status_listen
 * are loopback addresses or unix sockets unless allow_remote, and the memory budget resolves. */
cuzk_status cuzk_daemon_config_validate(const cuzk_daemon_config_t *cfg, cuzk_err_t *err);

/* The memory budget in bytes: total_budget, or for "auto" MemTotal (from /proc/meminfo; 256 GiB when
 * that cannot be read) minus safety_margin. A margin that leaves nothing is CUZK_ERR_INVALID_ARG. */
cuzk_status cuzk_daemon_config_budget(const cuzk_daemon_config_t *cfg, uint64_t *bytes, cuzk_err_t *err);
/* The "auto" rule with the meminfo file named (for tests). */
cuzk_status cuzk_daemon_budget_auto(const char *meminfo_path, uint64_t safety_margin, uint64_t *bytes,
                                    cuzk_err_t *err);

/* Prints the effective configuration, one "section.key = value" line per key, in TOML that
 * cuzk_daemon_config_load_text reads back to the same settings. A key that has no effect is printed
 * commented out, with its value and why (so it is not read back: the effect is the same). */
void cuzk_daemon_config_describe(const cuzk_daemon_config_t *cfg, FILE *f);

/* Frees the strings and zeroes cfg; safe on a zeroed or already freed struct. */
void cuzk_daemon_config_free(cuzk_daemon_config_t *cfg);

/* Address forms: "host:port" (host a name or an IPv4 address), "[ipv6]:port", and when allow_unix
 * "unix:///absolute/path" (at most 107 bytes of path, the sockaddr_un limit). Port 0..65535. */
cuzk_status cuzk_daemon_addr_check(const char *addr, bool allow_unix, cuzk_err_t *err);
/* Whether addr can only be reached from this machine: a unix socket, localhost, 127.0.0.0/8, [::1]
 * (or its IPv4-mapped form of 127/8). Names are not resolved: any other name counts as remote. A
 * malformed address is not loopback. */
bool cuzk_daemon_addr_is_loopback(const char *addr);

/* "64GiB", "512 MiB", "1.5GiB", "64GB", "100MB", "4096B", "4096" (bytes). Binary units KiB MiB GiB
 * TiB, decimal kB/KB MB GB TB; a fraction of a byte is dropped. */
cuzk_status cuzk_daemon_parse_size(const char *s, uint64_t *bytes, cuzk_err_t *err);
/* "5m", "30s", "250ms", "1h", "1.5s", "300" (seconds) into milliseconds. */
cuzk_status cuzk_daemon_parse_duration(const char *s, uint64_t *ms, cuzk_err_t *err);

/* "error" "warn" "info" "debug" "trace". */
bool cuzk_daemon_log_level_parse(const char *s, cuzk_daemon_log_level *out);
const char *cuzk_daemon_log_level_name(cuzk_daemon_log_level level);

#endif
