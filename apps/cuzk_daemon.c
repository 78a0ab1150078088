/* cuzk-daemon: the proving engine behind the cuzk.v1 gRPC API (and optional HTTP /status, /metrics).
 * Configuration: a TOML file (-c), then command-line overrides (-l, --status-listen, --set key=value).
 * SIGINT/SIGTERM: stop accepting calls and jobs, let started jobs finish (up to --grace seconds), then
 * cancel what is left and exit; a second signal cancels at once. The transport's bounds (calls at once,
 * input per proof kind, HTTP connections, the socket's mode) come from the [daemon] settings. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cli_impl.h"
#include "cli_opts.h"
#include "cli_util.h"
#include "cuzk/engine.h"
#include "server/config.h"
#include "server/http_status.h"
#include "server/rpc_server.h"
#include "server/service.h"

static void more_help(FILE *f)
{
    fprintf(f, "\nThe file is read first, then the other options apply in the order given. Addresses other\n"
               "than loopback or a unix socket need daemon.allow_remote = true.\n");
}

/* The configuration settings of the command line, in their order. */
typedef struct {
    struct {
        char key[128];
        const char *value;
    } *set;
    size_t n, cap;
} overrides_t;

static int push(overrides_t *o, const char *key, size_t key_len, const char *value, char *msg, size_t cap)
{
    if (key_len == 0 || key_len >= sizeof o->set[0].key) {
        snprintf(msg, cap, "expects section.key=value");
        return -1;
    }
    if (o->n == o->cap) {
        size_t c = o->cap ? 2 * o->cap : 8;
        void *p = realloc(o->set, c * sizeof *o->set);
        if (!p) {
            snprintf(msg, cap, "out of memory");
            return -1;
        }
        o->set = p;
        o->cap = c;
    }
    memcpy(o->set[o->n].key, key, key_len);
    o->set[o->n].key[key_len] = 0;
    o->set[o->n++].value = value;
    return 0;
}

static int set_listen(void *o, const char *v, char *msg, size_t cap)
{
    return push(o, "daemon.listen", strlen("daemon.listen"), v, msg, cap);
}
static int set_status_listen(void *o, const char *v, char *msg, size_t cap)
{
    return push(o, "daemon.status_listen", strlen("daemon.status_listen"), v, msg, cap);
}
static int set_log_level(void *o, const char *v, char *msg, size_t cap)
{
    return push(o, "logging.level", strlen("logging.level"), v, msg, cap);
}
static int set_any(void *o, const char *v, char *msg, size_t cap)
{
    const char *eq = strchr(v, '=');
    if (!eq) {
        snprintf(msg, cap, "expects section.key=value");
        return -1;
    }
    return push(o, v, (size_t)(eq - v), eq + 1, msg, cap);
}

/* --grace beyond a week is a typo; the bound also keeps seconds * 1000 far from wrapping. */
#define GRACE_MAX_S 604800u

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
    overrides_t o = {0};
    const cli_opt table[] = {
        CLI_STR_OPT("config", 'c', &path, "FILE", "TOML configuration (defaults when not given)"),
        CLI_CALL_OPT("listen", 'l', &o, set_listen, "ADDR",
                     "gRPC address: host:port or unix:///path (default 127.0.0.1:9820)"),
        CLI_CALL_OPT("status-listen", 0, &o, set_status_listen, "ADDR",
                     "HTTP /status and /metrics on host:port (default off)"),
        CLI_CALL_OPT("set", 0, &o, set_any, "KEY=VALUE", "any configuration key, e.g. --set memory.total_budget=64GiB"),
        CLI_CALL_OPT("log-level", 0, &o, set_log_level, "LEVEL", "error, warn, info, debug, trace"),
        CLI_U64_OPT("grace", 0, grace_s, "SECONDS", 0, GRACE_MAX_S,
                    "on SIGINT/SIGTERM, time given to started jobs (default 30, at most a week)"),
        CLI_FLAG_OPT("print-config", 0, print, "print the effective configuration and exit"),
        CLI_END};
    const cli_cmd c = {"cuzk-daemon", NULL, "The proving engine behind the cuzk.v1 gRPC API.\n", table, 0, 0, more_help};
    int rc = cli_parse(&c, argc, argv, NULL, NULL);
    if (rc != CLI_CONTINUE) {
        free(o.set);
        return rc == 0 ? -1 : rc; /* -1: the help was printed, exit 0 */
    }
    cuzk_err_t err = {{0}};
    cuzk_status st = path ? cuzk_daemon_config_load(cfg, path, false, stderr, &err)
                          : cuzk_daemon_config_defaults(cfg, &err);
    for (size_t i = 0; st == CUZK_OK && i < o.n; i++)
        st = cuzk_daemon_config_set(cfg, o.set[i].key, o.set[i].value, &err);
    free(o.set);
    if (st == CUZK_OK)
        st = cuzk_daemon_config_validate(cfg, &err);
    if (st != CUZK_OK) {
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
    ec.synthesis_threads = (int)cfg->synthesis_threads;
    ec.synthesis_mode = cfg->synthesis_mode;
    ec.max_queued = cfg->max_queued;
    ec.max_kept_results = cfg->max_kept_results;
    ec.result_retention_ms = cfg->result_retention_ms;
    ec.log = stderr;
    if (cuzk_engine_new(e, &ec, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-daemon: %s\n", err.msg);
        return 2;
    }
    return 0;
}

/* The gRPC server's bounds from the configuration. A message may be as large as the largest proof input
 * plus room for the other fields; each kind's own limit is checked before the message is decoded. */
static void rpc_options(const cuzk_daemon_config_t *cfg, cuzk_rpc_server_options_t *o)
{
    memset(o, 0, sizeof *o);
    o->max_calls = cfg->max_concurrent_calls;
    o->socket_mode = cfg->socket_mode;
    o->max_input_by_kind[CUZK_KIND_POREP_SEAL_COMMIT] = cfg->max_input_porep;
    o->max_input_by_kind[CUZK_KIND_SNAP_DEALS_UPDATE] = cfg->max_input_snap;
    o->max_input_by_kind[CUZK_KIND_WINDOW_POST_PARTITION] = cfg->max_input_window_post;
    o->max_input_by_kind[CUZK_KIND_WINNING_POST] = cfg->max_input_winning_post;
    uint64_t largest = 0;
    for (int k = 0; k < CUZK_RPC_MAX_KINDS; k++)
        if (o->max_input_by_kind[k] > largest)
            largest = o->max_input_by_kind[k];
    o->max_message = (size_t)largest + (1u << 20);
}

/* Every connection and socket is a descriptor: the soft limit (often 1024) raised to the hard one, so
 * that many clients exhaust the bounds above before they exhaust descriptors. */
static void raise_fd_limit(void)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
        r.rlim_cur = r.rlim_max;
        setrlimit(RLIMIT_NOFILE, &r);
    }
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

    int rc = cli_impl_init("cuzk-daemon", &argc, argv); /* --impl, CUZK_IMPL: before anything runs */
    if (rc)
        return rc;
    cuzk_daemon_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    uint64_t grace_s = 30;
    bool print = false;
    rc = parse_args(&cfg, argc, argv, &grace_s, &print);
    if (rc < 0) /* --help */
        return 0;
    if (rc || print) {
        if (!rc)
            cuzk_daemon_config_describe(&cfg, stdout);
        cuzk_daemon_config_free(&cfg);
        return rc;
    }
    cuzk_daemon_config_describe(&cfg, stderr);
    raise_fd_limit();
    cuzk_engine_t *e = NULL;
    cuzk_rpc_server_t *rpc = NULL;
    cuzk_http_status_t *http = NULL;
    cuzk_err_t err = {{0}};
    size_t n_methods;
    const cuzk_rpc_method_t *methods = cuzk_service_methods(&n_methods);
    cuzk_rpc_server_options_t ro;
    rpc_options(&cfg, &ro);
    cuzk_http_status_options_t ho = {cfg.status_max_connections, cfg.status_idle_timeout_ms};
    rc = start_engine(&e, &cfg);
    if (!rc && (cuzk_rpc_server_create_with(&rpc, cfg.listen, methods, n_methods, e, &ro, &err) != CUZK_OK ||
                cuzk_rpc_server_start(rpc, &err) != CUZK_OK)) {
        fprintf(stderr, "cuzk-daemon: %s\n", err.msg);
        rc = 2;
    }
    if (!rc && cfg.status_listen[0] &&
        cuzk_http_status_start_with(&http, cfg.status_listen, e, &ho, &err) != CUZK_OK) {
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
