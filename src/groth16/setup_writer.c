/* A file written from a thread of its own (setup_writer.h): a ring of buffers the producer fills and
 * the thread writes in order. */
#include "groth16/setup_writer.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include "cuzk/file.h"

#define NBUF 3 /* one being filled, one being written, one ready */

struct g16_writer {
    cuzk_atomic_file_t *f;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint8_t *buf[NBUF];
    size_t len[NBUF];
    int head, count;  /* queued buffers: head .. head + count − 1 (mod NBUF) */
    bool closing;     /* no more submissions: the thread ends once the queue is empty */
    bool stop;        /* abort: drop what is queued */
    cuzk_status st;   /* the first write failure */
    cuzk_err_t err;
};

static void *writer_main(void *p)
{
    g16_writer *w = p;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->count == 0 && !w->closing && !w->stop)
            pthread_cond_wait(&w->cv, &w->mu);
        if (w->stop || w->count == 0)
            break;
        int i = w->head;
        bool failed = w->st != CUZK_OK;
        pthread_mutex_unlock(&w->mu);
        cuzk_err_t err = {{0}};
        cuzk_status st = failed ? CUZK_OK : cuzk_atomic_write(w->f, w->buf[i], w->len[i], &err);
        pthread_mutex_lock(&w->mu);
        if (st != CUZK_OK && w->st == CUZK_OK) {
            w->st = st;
            w->err = err;
        }
        w->head = (w->head + 1) % NBUF;
        w->count--;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

static void writer_free(g16_writer *w)
{
    for (int i = 0; i < NBUF; i++)
        free(w->buf[i]);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}

cuzk_status g16_writer_open(g16_writer **out, const char *path, size_t buf_bytes, cuzk_err_t *err)
{
    *out = NULL;
    g16_writer *w = calloc(1, sizeof *w);
    if (!w)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    for (int i = 0; i < NBUF; i++)
        if (!(w->buf[i] = malloc(buf_bytes ? buf_bytes : 1))) {
            writer_free(w);
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory (write buffers)", path);
        }
    cuzk_status st = cuzk_atomic_open(&w->f, path, 0644, err);
    if (st != CUZK_OK) {
        writer_free(w);
        return st;
    }
    if (pthread_create(&w->thread, NULL, writer_main, w) != 0) {
        cuzk_atomic_abort(w->f);
        writer_free(w);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: cannot start the writing thread", path);
    }
    *out = w;
    return CUZK_OK;
}

uint8_t *g16_writer_buffer(g16_writer *w)
{
    pthread_mutex_lock(&w->mu);
    while (w->count == NBUF)
        pthread_cond_wait(&w->cv, &w->mu);
    uint8_t *b = w->buf[(w->head + w->count) % NBUF];
    pthread_mutex_unlock(&w->mu);
    return b;
}

cuzk_status g16_writer_submit(g16_writer *w, size_t len, cuzk_err_t *err)
{
    pthread_mutex_lock(&w->mu);
    w->len[(w->head + w->count) % NBUF] = len;
    w->count++;
    pthread_cond_broadcast(&w->cv);
    cuzk_status st = w->st;
    if (st != CUZK_OK && err)
        *err = w->err;
    pthread_mutex_unlock(&w->mu);
    return st;
}

/* Ends the thread: after the queue is written (drain) or at once. */
static void writer_join(g16_writer *w, bool drain)
{
    pthread_mutex_lock(&w->mu);
    if (drain)
        w->closing = true;
    else
        w->stop = true;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
}

cuzk_status g16_writer_commit(g16_writer *w, cuzk_err_t *err)
{
    writer_join(w, true);
    cuzk_status st = w->st;
    if (st != CUZK_OK) {
        if (err)
            *err = w->err;
        cuzk_atomic_abort(w->f);
    } else {
        st = cuzk_atomic_commit(w->f, err);
    }
    writer_free(w);
    return st;
}

void g16_writer_abort(g16_writer *w)
{
    if (!w)
        return;
    writer_join(w, false);
    cuzk_atomic_abort(w->f);
    writer_free(w);
}
