/* Memory for the constraint system: growable arrays, whose big ones live in their own mappings
 * with transparent huge pages (grown by mremap, not copied), and the bump arena behind the
 * CUZK_LC_ARENA strategy. */
#define _GNU_SOURCE /* mremap */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "cs/cs_internal.h"

/* Synthesis writes its big arrays once, front to back, into fresh memory: with 4 KiB pages the
 * page faults cost as much as the synthesis itself (more in virtual machines), with 2 MiB pages
 * they vanish. malloc cannot be asked for that, so arrays from BIG_MIN bytes up are mappings of
 * our own, remembered here so that cs_big_free can tell them from malloc's. */
enum { BIG_MIN = 1 << 20, BIG_ALIGN = 2 << 20 };

typedef struct {
    void *p;
    size_t len; /* bytes mapped */
} big_map;

static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
static big_map *bigs;
static size_t nbigs, capbigs;

/* Index of p among the mappings, or nbigs. Caller holds big_lock. */
static size_t big_find(const void *p)
{
    size_t i = 0;
    while (i < nbigs && bigs[i].p != p)
        i++;
    return i;
}

static bool big_table_grow(void)
{
    size_t cap = 2 * capbigs + 8;
    big_map *t = realloc(bigs, cap * sizeof *t);
    if (!t)
        return false;
    bigs = t;
    capbigs = cap;
    return true;
}

static size_t big_round(size_t bytes)
{
    return bytes > SIZE_MAX - BIG_ALIGN ? 0 : (bytes + BIG_ALIGN - 1) & ~(size_t)(BIG_ALIGN - 1);
}

void *cs_big_realloc(void *p, size_t old_bytes, size_t new_bytes)
{
    pthread_mutex_lock(&big_lock);
    size_t i = p ? big_find(p) : nbigs;
    void *q = NULL;
    if (i < nbigs) {
        size_t len = big_round(new_bytes);
        if (len && len <= bigs[i].len) {
            q = p;
        } else if (len) {
            q = mremap(p, bigs[i].len, len, MREMAP_MAYMOVE);
            if (q == MAP_FAILED) {
                q = NULL;
            } else {
                bigs[i] = (big_map){q, len};
            }
        }
    } else if (new_bytes < BIG_MIN) {
        q = realloc(p, new_bytes ? new_bytes : 1);
    } else if (nbigs < capbigs || big_table_grow()) {
        size_t len = big_round(new_bytes);
        q = len ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : MAP_FAILED;
        if (q == MAP_FAILED) {
            q = NULL;
        } else {
#ifdef MADV_HUGEPAGE
            madvise(q, len, MADV_HUGEPAGE); /* a hint: without it the mapping still works */
#endif
            if (p) {
                memcpy(q, p, old_bytes < new_bytes ? old_bytes : new_bytes);
                free(p);
            }
            bigs[nbigs++] = (big_map){q, len};
        }
    }
    pthread_mutex_unlock(&big_lock);
    return q;
}

void cs_big_free(void *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&big_lock);
    size_t i = big_find(p);
    bool mapped = i < nbigs;
    if (mapped) {
        munmap(p, bigs[i].len);
        bigs[i] = bigs[--nbigs];
    }
    pthread_mutex_unlock(&big_lock);
    if (!mapped)
        free(p);
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels refuse it with EINVAL */
#endif

bool cs_big_populate(const void *base, size_t off, size_t len)
{
    pthread_mutex_lock(&big_lock);
    size_t i = big_find(base);
    bool ok = i < nbigs && off <= bigs[i].len && len <= bigs[i].len - off &&
              madvise((char *)bigs[i].p + off, len, MADV_POPULATE_WRITE) == 0;
    pthread_mutex_unlock(&big_lock);
    return ok;
}

bool cs_vec_reserve(cs_vec *v, size_t need, size_t elem)
{
    if (need <= v->cap)
        return true;
    if (v->borrowed)
        return false;
    size_t cap = v->cap ? v->cap : 16;
    while (cap < need) {
        if (cap > SIZE_MAX / 2)
            return false;
        cap *= 2;
    }
    size_t bytes;
    if (__builtin_mul_overflow(cap, elem, &bytes))
        return false;
    void *p = cs_big_realloc(v->p, v->len * elem, bytes);
    if (!p)
        return false;
    v->p = p;
    v->cap = cap;
    return true;
}

void cs_vec_free(cs_vec *v)
{
    if (!v->borrowed)
        cs_big_free(v->p);
    *v = (cs_vec){0};
}

enum { ARENA_MIN_CHUNK = 64 * 1024 };

static bool arena_use(cs_arena *a, cs_chunk *c)
{
    a->cur = c;
    a->ptr = c->data;
    a->end = c->data + c->size;
    return true;
}

void *cs_arena_alloc(cs_arena *a, size_t bytes)
{
    bytes = (bytes + 63) & ~(size_t)63; /* keeps every block cache-line aligned */
    if (a->cur && (size_t)(a->end - a->ptr) >= bytes) {
        void *p = a->ptr;
        a->ptr += bytes;
        return p;
    }
    /* Move on to the next kept chunk that is big enough, else append a new one. */
    cs_chunk **link = a->cur ? &a->cur->next : &a->first;
    while (*link && (*link)->size < bytes)
        link = &(*link)->next;
    if (!*link) {
        size_t size = a->cur ? a->cur->size * 2 : ARENA_MIN_CHUNK;
        if (size < bytes)
            size = bytes;
        if (size > SIZE_MAX - sizeof(cs_chunk))
            return NULL;
        cs_chunk *c = aligned_alloc(64, (sizeof(cs_chunk) + size + 63) & ~(size_t)63);
        if (!c)
            return NULL;
        c->next = NULL;
        c->size = size;
        *link = c;
    }
    arena_use(a, *link);
    void *p = a->ptr;
    a->ptr += bytes;
    return p;
}

bool cs_arena_extend(cs_arena *a, void *p, size_t old, size_t new_bytes)
{
    old = (old + 63) & ~(size_t)63;
    new_bytes = (new_bytes + 63) & ~(size_t)63;
    if (!a->cur || (unsigned char *)p + old != a->ptr || (size_t)(a->end - (unsigned char *)p) < new_bytes)
        return false;
    a->ptr = (unsigned char *)p + new_bytes;
    return true;
}

void cs_arena_reset(cs_arena *a)
{
    if (a->first)
        arena_use(a, a->first);
}

void cs_arena_free(cs_arena *a)
{
    cs_chunk *c = a->first;
    while (c) {
        cs_chunk *n = c->next;
        free(c);
        c = n;
    }
    *a = (cs_arena){0};
}
