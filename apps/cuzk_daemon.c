/* cuzk-daemon: the proving engine behind the cuzk.v1 gRPC API (and optional HTTP /status, /metrics).
 * Configuration: a TOML file (-c), then command-line overrides (-l, --status-listen, --set key=value).
 * SIGINT/SIGTERM: stop accepting calls and jobs, let started jobs finish (up to --grace seconds), then
 * cancel what is left and exit; a second signal cancels at once. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_util.h"
#include "cuzk/engine.h"
#include "server/config.h"
#include "server/http_status.h"
#include "server/rpc_server.h"
#include "server/service.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk-daemon [-c FILE] [-l ADDR] [--status-listen ADDR] [--set section.key=value]...\n"
               "                   [--log-level LEVEL] [--grace SECONDS] [--print-config]\n"
               "  -c, --config FILE     TOML configuration (defaults when not given)\n"
               "  -l, --listen ADDR     gRPC address: host:port or unix:///path (default 127.0.0.1:9820)\n"
               "  --status-listen ADDR  HTTP /status and /metrics on host:port (default off)\n"
               "  --set KEY=VALUE       any configuration key, e.g. --set memory.total_budget=64GiB\n"
               "  --log-level LEVEL     error, warn, info, debug, trace\n"
               "  --grace SECONDS       on SIGINT/SIGTERM, time given to started jobs (default 30)\n"
               "  --print-config        print the effective configuration and exit\n"
               "Addresses other than loopback or a unix socket need daemon.allow_remote = true.\n");
}

typedef struct {
    cuzk_rpc_server_t *rpc;
    uint64_t grace_ms;
    volatile int done;
} stopper_t;

static void *stop_rpc(void *p)
{
    stopper_t *s = p;
    cuzk_rpc_server_shutdown(s->rpc, s->grace_ms);
    __atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static int parse_args(cuzk_daemon_config_t *cfg, int argc, char **argv, uint64_t *grace_s, bool *print)
{
    const char *path = NULL;
    for (int i = 1; i < argc; i++) /* the file first, so that the other options override it */
        if ((strcmp(argv[i], "-c") == 0 || strcmp(argv[i], "--config") == 0) && i + 1 < argc)
            path = argv[++i];
    cuzk_err_t err = {{0}};
    cuzk_status st = path ? cuzk_daemon_config_load(cfg, path, false, stderr, &err)
                          : cuzk_daemon_config_defaults(cfg, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk-daemon: %s\n", err.msg);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char key[128];
        if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(o, "--print-config") == 0) {
            *print = true;
            continue;
        } else if (!v) {
            fprintf(stderr, "cuzk-daemon: %s needs a value\n", o);
            return 2;
        }
        i++;
        if (strcmp(o, "-c") == 0 || strcmp(o, "--config") == 0)
            continue;
        if (strcmp(o, "-l") == 0 || strcmp(o, "--listen") == 0)
            st = cuzk_daemon_config_set(cfg, "daemon.listen", v, &err);
        else if (strcmp(o, "--status-listen") == 0)
            st = cuzk_daemon_config_set(cfg, "daemon.status_listen", v, &err);
        else if (strcmp(o, "--log-level") == 0)
            st = cuzk_daemon_config_set(cfg, "logging.level", v, &err);
        else if (strcmp(o, "--grace") == 0)
            st = cli_parse_u64(v, grace_s) == 0 ? CUZK_OK
                                                : cuzk_err_set(&err, CUZK_ERR_INVALID_ARG, "--grace: %s", v);
        else if (strcmp(o, "--set") == 0 && strchr(v, '=') && (size_t)(strchr(v, '=') - v) < sizeof key) {
            size_t n = (size_t)(strchr(v, '=') - v);
            memcpy(key, v, n);
            key[n] = 0;
            st = cuzk_daemon_config_set(cfg, key, v + n + 1, &err);
        } else {
            fprintf(stderr, "cuzk-daemon: unknown option %s\n", o);
            usage(stderr);
            return 2;
        }
        if (st != CUZK_OK) {
            fprintf(stderr, "cuzk-daemon: %s\n", err.msg);
            return 2;
        }
    }
    if (cuzk_daemon_config_validate(cfg, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-daemon: %s\n", err.msg);
        return 2;
    }
    return 0;
}

static int start_engine(cuzk_engine_t **e, const cuzk_daemon_config_t *cfg)
{
    cuzk_engine_config_t ec;
    cuzk_engine_config_defaults(&ec);
    cuzk_err_t err = {{0}};
    if (cuzk_daemon_config_budget(cfg, &ec.total_budget, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-daemon: %s\n", err.msg);
        return 2;
    }
    ec.param_cache = cfg->param_cache;
    ec.eviction_min_idle_ms = cfg->eviction_min_idle_ms;
    ec.synthesis_workers = cfg->synthesis_concurrency ? (int)cfg->synthesis_concurrency : 1;
    ec.pipeline_depth = cfg->synthesis_lookahead ? (int)cfg->synthesis_lookahead : 1;
    ec.prover_workers = (int)cfg->prover_workers;
    ec.prover_threads = (int)cfg->prover_threads;
    ec.log = stderr;
    if (cfg->max_batch_size > 1)
        fprintf(stderr, "cuzk-daemon: note: scheduler.max_batch_size = %u: cross-sector batching is not "
                        "implemented; each sector is proved on its own\n", cfg->max_batch_size);
    if (!cfg->pipeline_enabled)
        fprintf(stderr, "cuzk-daemon: note: pipeline.enabled = false: partitions are always pipelined here\n");
    if (cuzk_engine_new(e, &ec, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-daemon: %s\n", err.msg);
        return 2;
    }
    return 0;
}

/* Waits for SIGINT/SIGTERM, then stops in order; a second signal cancels running work. */
static void run_until_signal(cuzk_engine_t *e, cuzk_rpc_server_t *rpc, const sigset_t *sigs, uint64_t grace_s)
{
    int sig = 0;
    while (sigwait(sigs, &sig) != 0 || (sig != SIGINT && sig != SIGTERM))
        ;
    fprintf(stderr, "cuzk-daemon: %s: no new calls or jobs; started jobs get %llu s\n", strsignal(sig),
            (unsigned long long)grace_s);
    cuzk_engine_drain(e);
    stopper_t s = {rpc, grace_s * 1000, 0};
    pthread_t th;
    if (pthread_create(&th, NULL, stop_rpc, &s) != 0) {
        cuzk_engine_shutdown(e);
        cuzk_rpc_server_shutdown(rpc, 0);
        return;
    }
    bool cancelled = false;
    while (!__atomic_load_n(&s.done, __ATOMIC_ACQUIRE)) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        int again = cancelled ? 0 : sigtimedwait(sigs, NULL, &ts);
        if (!cancelled && (again == SIGINT || again == SIGTERM || cuzk_engine_busy(e) == 0)) {
            /* a second signal, or nothing left that a waiting call could get: answer the waiters now */
            cancelled = true;
            cuzk_engine_shutdown(e);
        } else if (cancelled)
            nanosleep(&ts, NULL);
    }
    pthread_join(th, NULL);
}

int main(int argc, char **argv)
{
    /* every thread inherits the mask: only sigwait sees these signals */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    cuzk_daemon_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    uint64_t grace_s = 30;
    bool print = false;
    int rc = parse_args(&cfg, argc, argv, &grace_s, &print);
    if (rc || print) {
        if (!rc)
            cuzk_daemon_config_describe(&cfg, stdout);
        cuzk_daemon_config_free(&cfg);
        return rc;
    }
    cuzk_daemon_config_describe(&cfg, stderr);
    cuzk_engine_t *e = NULL;
    cuzk_rpc_server_t *rpc = NULL;
    cuzk_http_status_t *http = NULL;
    cuzk_err_t err = {{0}};
    size_t n_methods;
    const cuzk_rpc_method_t *methods = cuzk_service_methods(&n_methods);
    rc = start_engine(&e, &cfg);
    if (!rc && (cuzk_rpc_server_create(&rpc, cfg.listen, methods, n_methods, e, &err) != CUZK_OK ||
                cuzk_rpc_server_start(rpc, &err) != CUZK_OK)) {
        fprintf(stderr, "cuzk-daemon: %s\n", err.msg);
        rc = 2;
    }
    if (!rc && cfg.status_listen[0] && cuzk_http_status_start(&http, cfg.status_listen, e, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-daemon: %s\n", err.msg);
        rc = 2;
    }
    if (!rc) {
        fprintf(stderr, "cuzk-daemon: serving cuzk.v1.ProvingEngine on %s (port %d)", cfg.listen,
                cuzk_rpc_server_port(rpc));
        if (http)
            fprintf(stderr, ", status on %s (port %d)", cfg.status_listen, cuzk_http_status_port(http));
        fprintf(stderr, "\n");
        run_until_signal(e, rpc, &sigs, grace_s);
    }
    cuzk_http_status_stop(http);
    cuzk_rpc_server_destroy(rpc);
    cuzk_engine_free(e);
    cuzk_daemon_config_free(&cfg);
    if (!rc)
        fprintf(stderr, "cuzk-daemon: stopped\n");
    return rc;
}
