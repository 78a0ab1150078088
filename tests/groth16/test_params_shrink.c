/* A real .params file (the 2KiB Winning PoSt development parameters made by post_params_dev) truncated
 * while it is mapped: cuzk_params_load returns CUZK_ERR_IO naming the file and saying it changed size,
 * instead of the process dying of SIGBUS; the failed sections stay undecoded, nothing is left locked
 * (the same object loads once the file is whole again) or half-counted. Truncated once between open and
 * load (on four decoding threads), and from another thread while the points are being decoded.
 * Usage: test_params_shrink <params dir> */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuzk/params.h"
#include "cuzk/post.h"
#include "test_params_util.h"

static uint8_t *whole;
static size_t whole_len;
static const char *copy_path;

/* Writes the whole file back over the copy, in place (the same inode, as `cp` does). */
static void restore(void)
{
    int fd = open(copy_path, O_WRONLY | O_CREAT, 0644);
    CHECK(fd >= 0 && pwrite(fd, whole, whole_len, 0) == (ssize_t)whole_len && ftruncate(fd, (off_t)whole_len) == 0);
    close(fd);
}

static void check_fault_error(cuzk_status st, const cuzk_err_t *err, const char *what)
{
    CHECK_MSG(st == CUZK_ERR_IO, "%s: status %d (%s)", what, st, err->msg);
    char want[1100];
    snprintf(want, sizeof want, "%s: changed size while in use", copy_path);
    CHECK_MSG(strstr(err->msg, want) != NULL, "%s: message '%s'", what, err->msg);
}

/* Open, truncate to a third, load: the sections past the new end fail; then whole again, the same object
 * loads them all. */
static void test_shrunk_between_open_and_load(void)
{
    restore();
    cuzk_params_t *p = NULL;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_params_open(&p, copy_path, CUZK_PARAMS_CHECK_NONE, 4, &err) == CUZK_OK, "%s", err.msg);
    if (!p)
        return;
    size_t vk_bytes = cuzk_params_decoded_bytes(p);
    CHECK(truncate(copy_path, (off_t)(whole_len / 3)) == 0);
    cuzk_status st = cuzk_params_load(p, CUZK_PARAMS_SEC_ALL, &err);
    check_fault_error(st, &err, "truncated after open");
    const cuzk_groth16_pk_t *pk = cuzk_params_key(p);
    size_t decoded = cuzk_params_decoded_bytes(p);
    /* h (the first section) fits in the first third or not; whatever loaded is counted, nothing else */
    size_t h_bytes = pk->h ? pk->h_len * sizeof(cuzk_g1_affine_t) : 0;
    CHECK_MSG(decoded == vk_bytes + h_bytes, "decoded bytes %zu, expected %zu", decoded, vk_bytes + h_bytes);
    CHECK(!pk->l && !pk->a && !pk->b_g1 && !pk->b_g2);

    restore(); /* the mapping sees the file whole again: nothing was left locked or half-loaded */
    CHECK_MSG(cuzk_params_load(p, CUZK_PARAMS_SEC_ALL, &err) == CUZK_OK, "after restore: %s", err.msg);
    CHECK(pk->h && pk->l && pk->a && pk->b_g1 && pk->b_g2);
    cuzk_params_close(p);
}

typedef struct {
    cuzk_params_t *p;
    size_t vk_bytes;
    volatile int done;
    bool truncated;
} shrinker_t;

/* Truncates the file as soon as the first section is decoded, while the others are being decoded. */
static void *shrinker(void *arg)
{
    shrinker_t *s = arg;
    while (!s->done && cuzk_params_decoded_bytes(s->p) == s->vk_bytes)
        usleep(100);
    if (!s->done) {
        s->truncated = truncate(copy_path, 1000000) == 0;
    }
    return NULL;
}

static void test_shrunk_during_load(void)
{
    int faults = 0;
    for (int attempt = 0; attempt < 5 && faults == 0; attempt++) {
        restore();
        cuzk_params_t *p = NULL;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_params_open(&p, copy_path, CUZK_PARAMS_CHECK_CURVE, 2, &err) == CUZK_OK, "%s", err.msg);
        if (!p)
            return;
        shrinker_t s = {p, cuzk_params_decoded_bytes(p), 0, false};
        pthread_t th;
        CHECK(pthread_create(&th, NULL, shrinker, &s) == 0);
        cuzk_status st = cuzk_params_load(p, CUZK_PARAMS_SEC_ALL, &err);
        s.done = 1;
        pthread_join(th, NULL);
        if (st != CUZK_OK) {
            check_fault_error(st, &err, "truncated during the load");
            faults++;
        } else {
            printf("attempt %d: the load finished before the truncation\n", attempt);
        }
        cuzk_params_close(p);
    }
    CHECK_MSG(faults == 1, "the file was never truncated during a load");
}

int main(int argc, char **argv)
{
    test_init("test_params_shrink");
    if (argc < 2) {
        fprintf(stderr, "usage: test_params_shrink <params dir>\n");
        return 2;
    }
    cuzk_post_registered_proof_t proof;
    cuzk_post_params_paths_t paths;
    cuzk_err_t err = {{0}};
    if (cuzk_post_registered_proof_parse(&proof, "StackedDrgWinning2KiBV1", &err) != CUZK_OK ||
        cuzk_post_params_paths(&paths, argv[1], proof.id, &err) != CUZK_OK) {
        fprintf(stderr, "test_params_shrink: %s\n", err.msg);
        return 2;
    }
    whole = (uint8_t *)test_read_file(paths.params, &whole_len);
    if (!whole) {
        fprintf(stderr, "test_params_shrink: cannot read %s (made by post_params_dev)\n", paths.params);
        return 2;
    }
    tp_init();
    copy_path = tp_path("winning-2k.params");
    test_shrunk_between_open_and_load();
    test_shrunk_during_load();
    free(whole);
    tp_cleanup();
    return test_finish();
}
