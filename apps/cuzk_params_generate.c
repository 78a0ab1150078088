/* `cuzk params generate`: development Groth16 parameters for the PoRep, Winning PoSt, Window PoSt or
 * SnapDeals (empty sector update) circuit by a fresh random setup, under Filecoin's v28 file names so that a directory of real parameters is used
 * the same way. A <stem>.cuzk-dev file marks them as NOT a trusted setup; existing files of the right shape
 * are reused. PoRep parameters are streamed to the files (cuzk_porep_dev_setup_write: 32GiB's 47 GB key
 * never in memory), with a progress line on stderr; an interrupt (SIGINT, SIGTERM) stops the run and
 * leaves no file behind. */
#include "cli_opts.h"
#include "cli_util.h"
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/file.h"
#include "cuzk/params.h"
#include "cuzk_porep_cmd.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/snap.h"

void cuzk_params_generate_usage(FILE *f)
{
    fprintf(f, "  params generate --kind porep|winning-post|window-post|snap --sector-size <2KiB|8MiB|512MiB|32GiB|64GiB>\n"
               "                  --out DIR [--registered-proof NAME] [--threads N]\n"
               "              development parameters (random setup, NOT trusted) under v28 names;\n"
               "              files of the right shape already in DIR are reused\n");
}

/* The circuit a command line names: a registered proof's, PoRep, PoSt or SnapDeals, its files and its
 * shape. */
typedef enum { TARGET_POREP, TARGET_POST, TARGET_SNAP } target_kind;
typedef struct {
    target_kind kind;
    const char *name;                /* the registered proof (static storage) */
    uint64_t id;                     /* its number */
    cuzk_porep_config_t porep;
    cuzk_post_config_t post_cfg;
    cuzk_snap_config_t snap_cfg;
    cuzk_porep_params_paths_t paths; /* the same layout for all (cuzk_post/snap_params_paths_t) */
} target_t;

static cuzk_status target_check_key(const target_t *t, const cuzk_groth16_pk_t *pk, cuzk_err_t *err)
{
    switch (t->kind) {
    case TARGET_POST: return cuzk_post_check_key(pk, &t->post_cfg, err);
    case TARGET_SNAP: return cuzk_snap_check_key(pk, &t->snap_cfg, err);
    default: return cuzk_porep_check_key(pk, &t->porep, err);
    }
}

static cuzk_status target_setup(const target_t *t, cuzk_groth16_pk_t *pk, int threads, cuzk_err_t *err)
{
    switch (t->kind) {
    case TARGET_POST: return cuzk_post_dev_setup(pk, &t->post_cfg, threads, err);
    case TARGET_SNAP: return cuzk_snap_dev_setup(pk, &t->snap_cfg, threads, err);
    default: return cuzk_porep_dev_setup(pk, &t->porep, threads, err);
    }
}

static cuzk_status target_paths(target_t *t, const char *dir, cuzk_err_t *err)
{
    switch (t->kind) {
    case TARGET_POST: return cuzk_post_params_paths(&t->paths, dir, t->id, err);
    case TARGET_SNAP: return cuzk_snap_params_paths(&t->paths, dir, t->id, err);
    default: return cuzk_porep_params_paths(&t->paths, dir, t->id, err);
    }
}

/* 0: the files are there and have the circuit's shape; 1: absent or of another shape; 2: unreadable. */
static int existing_ok(const target_t *t)
{
    const cuzk_porep_params_paths_t *pp = &t->paths;
    if (!cuzk_porep_file_exists(pp->params) || !cuzk_porep_file_exists(pp->vk))
        return 1;
    cuzk_err_t err = {{0}};
    cuzk_params_t *p = NULL;
    cuzk_groth16_vk_t vk;
    memset(&vk, 0, sizeof vk);
    int rc = 0;
    if (cuzk_params_open(&p, pp->params, CUZK_PARAMS_CHECK_NONE, 1, &err) != CUZK_OK ||
        cuzk_params_vk_read(&vk, pp->vk, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk params generate: %s\n", err.msg);
        rc = 2;
    } else if (target_check_key(t, cuzk_params_key(p), &err) != CUZK_OK) {
        fprintf(stderr, "cuzk params generate: %s: %s\n", pp->params, err.msg);
        rc = 1;
    } else if (vk.ic_len != cuzk_params_key(p)->vk.ic_len) {
        fprintf(stderr, "cuzk params generate: %s: %zu inputs, %s has %zu\n", pp->vk, vk.ic_len, pp->params,
                cuzk_params_key(p)->vk.ic_len);
        rc = 1;
    }
    cuzk_groth16_vk_free(&vk);
    cuzk_params_close(p);
    return rc;
}

/* The PoRep circuit of a size (every registered version of a size shares it) or of a named seal proof. */
static int porep_target(target_t *t, const char *size, uint64_t bytes, const char *proof_name, cuzk_err_t *err)
{
    cuzk_porep_registered_proof_t reg;
    bool found = false;
    if (proof_name) {
        if (cuzk_porep_registered_proof_parse(&reg, proof_name, err) != CUZK_OK)
            return 2;
        if (bytes && reg.sector_size != bytes) {
            cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "--sector-size %s disagrees with %s", size, reg.name);
            return 2;
        }
        found = true;
    }
    for (uint64_t id = 0; !found && cuzk_porep_registered_proof(&reg, id, NULL) == CUZK_OK; id++)
        found = reg.sector_size == bytes;
    if (!found) {
        cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "no registered proof for sector size %s", size);
        return 2;
    }
    t->name = reg.name;
    t->id = reg.id;
    if (cuzk_porep_config_for_proof(&t->porep, NULL, reg.name, err) != CUZK_OK)
        return 2;
    return 0;
}

/* The Winning or Window PoSt circuit of a size (the proof Filecoin registers today) or of a named PoSt proof
 * of that kind. */
static int post_target(target_t *t, cuzk_post_kind kind, uint64_t bytes, const char *proof_name, cuzk_err_t *err)
{
    cuzk_post_registered_proof_t reg;
    if (cuzk_post_registered_proof_select(&reg, kind, proof_name, bytes, err) != CUZK_OK)
        return 2;
    t->kind = TARGET_POST;
    t->name = reg.name;
    t->id = reg.id;
    return cuzk_post_config_for_proof(&t->post_cfg, reg.id, err) == CUZK_OK ? 0 : 2;
}

/* The SnapDeals circuit of a size or of a named registered update proof. */
static int snap_target(target_t *t, const char *size, uint64_t bytes, const char *proof_name, cuzk_err_t *err)
{
    cuzk_snap_registered_proof_t reg;
    if ((proof_name ? cuzk_snap_registered_proof_parse(&reg, proof_name, err)
                    : cuzk_snap_registered_proof_for_size(&reg, bytes, err)) != CUZK_OK)
        return 2;
    if (proof_name && bytes && reg.sector_size != bytes) {
        cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "--sector-size %s disagrees with %s", size, reg.name);
        return 2;
    }
    t->kind = TARGET_SNAP;
    t->name = reg.name;
    t->id = reg.id;
    return cuzk_snap_config_for_proof(&t->snap_cfg, reg.id, err) == CUZK_OK ? 0 : 2;
}

/* ---- the streamed PoRep setup: interrupts and progress ---- */

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

static bool stop_requested(void *arg)
{
    (void)arg;
    return interrupted != 0;
}

typedef struct {
    bool tty;           /* rewrite one line; otherwise a line per phase and every 30 s */
    const char *phase;  /* the last phase printed */
    double phase_start_s, last_line_s;
} progress_t;

static void print_duration(char *out, size_t n, double s)
{
    unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;
    if (t >= 3600)
        snprintf(out, n, "%luh%02lum", t / 3600, t / 60 % 60);
    else
        snprintf(out, n, "%lum%02lus", t / 60, t % 60);
}

static void on_progress(void *arg, const char *phase, uint64_t done, uint64_t total, double fraction,
                        double elapsed_s)
{
    progress_t *p = arg;
    bool new_phase = p->phase != phase;
    if (!p->tty && !new_phase && elapsed_s - p->last_line_s < 30)
        return;
    if (new_phase)
        p->phase_start_s = elapsed_s;
    p->phase = phase;
    p->last_line_s = elapsed_s;
    char el[32], eta[32] = "?";
    print_duration(el, sizeof el, elapsed_s);
    if (fraction > 0.005)
        print_duration(eta, sizeof eta, elapsed_s / fraction - elapsed_s);
    double in_phase = elapsed_s - p->phase_start_s;
    char what[96];
    int n = total ? snprintf(what, sizeof what, "%" PRIu64 "/%" PRIu64, done, total)
                  : snprintf(what, sizeof what, "%" PRIu64, done);
    if (n > 0 && (size_t)n < sizeof what && in_phase > 0.5 && done)
        snprintf(what + n, sizeof what - (size_t)n, " at %.3gk/s", (double)done / in_phase / 1e3);
    fprintf(stderr, "%ssetup: %3.0f%% done, %s elapsed, ETA %s | %s %s%s", p->tty ? "\r" : "", 100 * fraction, el,
            eta, phase, what, p->tty ? "      " : "\n");
    fflush(stderr);
}

/* The PoRep parameters streamed to their files, interruptible. */
static cuzk_status porep_stream(const target_t *t, int threads, cuzk_err_t *err)
{
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    progress_t prog = {.tty = isatty(STDERR_FILENO) != 0};
    const cuzk_porep_setup_opts_t opts = {threads, on_progress, &prog, stop_requested, NULL};
    cuzk_status st = cuzk_porep_dev_setup_write(&t->porep, t->paths.params, t->paths.vk, &opts, err);
    if (prog.tty)
        fputc('\n', stderr);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (st == CUZK_ERR_CANCELLED && interrupted)
        cuzk_err_set(err, st, "interrupted: no parameter file was written");
    return st;
}

static cuzk_status write_marker(const char *path, const char *proof_name, cuzk_err_t *err)
{
    char text[512];
    int n = snprintf(text, sizeof text, "development parameters for %s: random setup by cuzk params generate, NOT a "
                                        "trusted setup; proofs made with them are worthless on chain\n",
                     proof_name);
    if (n < 0 || (size_t)n >= sizeof text)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%s: proof name too long", path);
    return cuzk_atomic_write_file(path, text, (size_t)n, err);
}

int cuzk_params_generate_cmd(int argc, char **argv)
{
    static const char *const kinds[] = {"porep", "winning-post", "window-post", "snap", NULL};
    static const char *prog = "cuzk params generate";
    const char *size = NULL, *out = NULL, *proof_name = NULL;
    int kind = 0, threads = 0;
    const cli_opt opts[] = {
        CLI_CHOICE_OPT("kind", 0, &kind, kinds, "the circuit", .required = true),
        CLI_STR_OPT("sector-size", 0, &size, "SIZE", "2KiB, 8MiB, 512MiB, 32GiB or 64GiB (or --registered-proof)"),
        CLI_STR_OPT("out", 0, &out, "DIR", "the parameter directory (made if missing)", .required = true),
        CLI_STR_OPT("registered-proof", 0, &proof_name, "NAME",
                    "the registered seal proof (porep), PoSt proof of the kind or update proof (snap), instead "
                    "of the size"),
        CLI_INT_OPT("threads", 0, &threads, "N", 0, 4096, "threads (0 = every CPU; default 0)"),
        CLI_END};
    const cli_cmd c = {prog, NULL,
                       "Development parameters for a circuit by a fresh random setup (NOT a trusted setup: a\n"
                       "<stem>.cuzk-dev file beside them says so) under Filecoin's v28 file names; files of the\n"
                       "right shape already in DIR are reused. Every registered version of a kind and size shares\n"
                       "one circuit and one set of files.\n",
                       opts, 0, 0, NULL};
    int rc = cli_parse(&c, argc, argv, NULL, NULL);
    if (rc != CLI_CONTINUE)
        return rc;
    if (!size && !proof_name)
        return cli_usage_error(prog, "--sector-size or --registered-proof is required");
    uint64_t bytes = size ? cli_parse_sector_size(size) : 0;
    if (size && !bytes)
        return cli_usage_error(prog, "--sector-size: bad value '%s' (expects 2KiB, 8MiB, 512MiB, 32GiB or 64GiB)",
                               size);
    cuzk_err_t err = {{0}};
    target_t t;
    memset(&t, 0, sizeof t);
    rc = kind == 0   ? porep_target(&t, size, bytes, proof_name, &err)
         : kind == 3 ? snap_target(&t, size, bytes, proof_name, &err)
                     : post_target(&t, kind == 1 ? CUZK_POST_WINNING : CUZK_POST_WINDOW, bytes, proof_name, &err);
    if (rc) {
        fprintf(stderr, "cuzk params generate: %s\n", err.msg);
        return rc;
    }
    cuzk_porep_params_paths_t *pp = &t.paths;
    cuzk_status st = target_paths(&t, out, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk params generate: %s\n", err.msg);
        return 2;
    }
    int ex = existing_ok(&t);
    if (ex == 2)
        return 2;
    bool dev = cuzk_porep_file_exists(pp->dev);
    if (ex == 0) {
        printf("%s: reusing %s.{params,vk}\n", out, pp->stem);
        if (dev)
            cuzk_porep_dev_warning("cuzk params generate", pp->stem);
        return 0;
    }
    if (cuzk_porep_file_exists(pp->params) && !dev) {
        fprintf(stderr, "cuzk params generate: %s is not a development file of this circuit's shape; "
                        "refusing to overwrite it\n", pp->params);
        return 2;
    }
    if (cli_make_dirs(out) != 0) {
        fprintf(stderr, "cuzk params generate: %s: cannot create the directory: %s\n", out, strerror(errno));
        return 2;
    }
    double t0 = cli_now();
    if (t.kind == TARGET_POREP) {
        /* the marker goes first: development files never exist without it */
        st = write_marker(pp->dev, t.name, &err);
        if (st == CUZK_OK)
            st = porep_stream(&t, threads, &err);
        if (st != CUZK_OK) {
            fprintf(stderr, "cuzk params generate: %s\n", err.msg);
            unlink(pp->dev);
            return 1;
        }
        struct stat sb;
        printf("%s: wrote %s.params (%lld bytes), .vk, .cuzk-dev for %s\n", out, pp->stem,
               stat(pp->params, &sb) == 0 ? (long long)sb.st_size : -1LL, t.name);
        printf("time: setup and write %.2f s\n", cli_now() - t0);
        cuzk_porep_dev_warning("cuzk params generate", pp->stem);
        return 0;
    }
    cuzk_groth16_pk_t pk;
    if (target_setup(&t, &pk, threads, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk params generate: setup: %s\n", err.msg);
        return 1;
    }
    double setup_s = cli_now() - t0;
    double t1 = cli_now();
    /* the marker goes first: development files never exist without it */
    st = write_marker(pp->dev, t.name, &err);
    if (st == CUZK_OK)
        st = cuzk_params_write(pp->params, &pk, threads, &err);
    if (st == CUZK_OK)
        st = cuzk_params_vk_write(pp->vk, &pk.vk, &err);
    double write_s = cli_now() - t1;
    uint64_t file_size = cuzk_params_file_size(&pk);
    cuzk_groth16_pk_free(&pk);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk params generate: %s\n", err.msg);
        unlink(pp->params);
        unlink(pp->vk);
        unlink(pp->dev);
        return 1;
    }
    printf("%s: wrote %s.params (%" PRIu64 " bytes), .vk, .cuzk-dev for %s\n", out, pp->stem, file_size, t.name);
    printf("time: setup %.2f s, write %.2f s\n", setup_s, write_s);
    cuzk_porep_dev_warning("cuzk params generate", pp->stem);
    return 0;
}
