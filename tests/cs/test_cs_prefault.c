/* The background prefault of a direct system's value arrays (cuzk_cs_prefault_start):
 *  - it leaves every value as the synthesis wrote it: a system (the seeded random circuit of
 *    tests/circuits) synthesized with the prefault running equals one synthesized without (assignment,
 *    A·z, B·z, C·z), with C·z kept and omitted;
 *  - an array that outgrows its reservation mid-prefault (moved by mremap under the thread) is left
 *    alone, and the values still come out equal;
 *  - it does fault the pages in: after a reservation alone, every page of the reserved arrays becomes
 *    resident (mincore) without the synthesis writing a byte, where the kernel populates (Linux 5.14+;
 *    elsewhere nothing may be resident and nothing may break);
 *  - start and stop in any order: twice, stop without start, free while running, reset while running. */
#define _GNU_SOURCE /* mincore */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "circuits/circuits.h"
#include "cuzk/cs.h"
#include "ff/fr.h"
#include "test_util.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

/* 2^19 constraints: arrays of 16 MiB, above the prefault's lower limit of four huge pages. */
#define BIG ((size_t)1 << 19)

/* The seeded random circuit of tests/circuits with n constraints and 1 + 1 inputs. */
static circuit_random_params random_params(size_t n, uint64_t seed)
{
    return (circuit_random_params){seed, 1, 16, n, 2};
}

static size_t aux_of(size_t n)
{
    circuit_random_params p = random_params(n, 0);
    return circuit_random_num_aux(&p);
}

static void synthesize(cuzk_cs_t *cs, size_t n, uint64_t seed)
{
    const circuit_random_params p = random_params(n, seed);
    circuit_random_synthesize(cs, &p);
}

static cuzk_cs_t *new_direct(bool omit_c)
{
    cuzk_cs_t *cs = NULL;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_new(&cs, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, &err) == CUZK_OK);
    if (cs && omit_c)
        CHECK(cuzk_cs_omit_c(cs, &err) == CUZK_OK);
    return cs;
}

static bool same(const void *a, const void *b, size_t n) { return (!a && !b) || (a && b && !memcmp(a, b, n)); }

/* The system of n constraints synthesized with a reservation of `reserve` constraints and the prefault
 * running, against the same without either. */
static void values_unchanged(size_t n, size_t reserve, bool omit_c)
{
    cuzk_cs_t *plain = new_direct(omit_c), *pf = new_direct(omit_c);
    if (!plain || !pf)
        return;
    synthesize(plain, n, 42);
    cuzk_cs_reserve(pf, 2, aux_of(reserve), reserve);
    cuzk_cs_prefault_start(pf);
    synthesize(pf, n, 42);
    cuzk_cs_prefault_stop(pf);
    cuzk_groth16_witness_t w0, w1;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_groth16_witness(plain, &w0, &err) == CUZK_OK);
    CHECK(cuzk_cs_groth16_witness(pf, &w1, &err) == CUZK_OK);
    CHECK(w0.num_aux == aux_of(n) && w1.num_aux == aux_of(n) && w1.num_constraints == n);
    CHECK(same(w0.aux, w1.aux, aux_of(n) * sizeof(fr)));
    CHECK(same(w0.a, w1.a, n * sizeof(fr)));
    CHECK(same(w0.b, w1.b, n * sizeof(fr)));
    CHECK(same(w0.c, w1.c, n * sizeof(fr)));
    CHECK(omit_c == (w1.c == NULL));
    cuzk_cs_free(plain);
    cuzk_cs_free(pf);
}

/* Pages of [p, p + n) not resident. */
static size_t missing_pages(const void *p, size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t b = (uintptr_t)p & ~(uintptr_t)(page - 1), e = (uintptr_t)p + n;
    size_t pages = (e - b + page - 1) / page, miss = 0;
    unsigned char *v = malloc(pages);
    if (!v || mincore((void *)b, e - b, v) != 0) {
        free(v);
        return pages;
    }
    for (size_t i = 0; i < pages; i++)
        miss += !(v[i] & 1);
    free(v);
    return miss;
}

static bool kernel_populates(void)
{
    size_t n = 2 << 20;
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return false;
    bool ok = madvise(p, n, MADV_POPULATE_WRITE) == 0;
    munmap(p, n);
    return ok;
}

static void pages_faulted_in(void)
{
    cuzk_cs_t *cs = new_direct(true);
    if (!cs)
        return;
    cuzk_cs_reserve(cs, 1, BIG, BIG);
    cuzk_groth16_witness_t w;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_groth16_witness(cs, &w, &err) == CUZK_OK); /* the arrays' addresses; nothing written */
    const size_t bytes = BIG * sizeof(fr);
    size_t before = missing_pages(w.aux, bytes) + missing_pages(w.a, bytes) + missing_pages(w.b, bytes);
    CHECK(before > 0); /* fresh mappings: the reservation alone faults nothing in */
    cuzk_cs_prefault_start(cs);
    size_t left = before;
    for (int ms = 0; ms < 20000 && left > 0; ms += 10) {
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
        left = missing_pages(w.aux, bytes) + missing_pages(w.a, bytes) + missing_pages(w.b, bytes);
    }
    cuzk_cs_prefault_stop(cs);
    if (kernel_populates()) {
        CHECK(left == 0);
    } else {
        printf("  (this kernel has no MADV_POPULATE_WRITE: the prefault is expected to do nothing)\n");
        CHECK(left == before);
    }
    /* still zero: populating writes nothing */
    bool zero = true;
    for (size_t i = 0; i < bytes && zero; i += 4096)
        zero = ((const unsigned char *)w.a)[i] == 0 && ((const unsigned char *)w.aux)[i] == 0;
    CHECK(zero);
    cuzk_cs_free(cs);
}

static void start_stop_orders(void)
{
    cuzk_cs_t *cs = new_direct(false);
    if (!cs)
        return;
    cuzk_cs_prefault_stop(cs); /* never started */
    cuzk_cs_reserve(cs, 1, 4 * BIG, 4 * BIG);
    cuzk_cs_prefault_start(cs);
    cuzk_cs_prefault_start(cs); /* already running: nothing more */
    cuzk_cs_prefault_stop(cs);
    cuzk_cs_prefault_stop(cs);
    cuzk_cs_prefault_start(cs);
    cuzk_cs_reset(cs); /* stops it; the system is fresh and usable */
    synthesize(cs, 1000, 7);
    CHECK(cuzk_cs_status(cs, NULL) == CUZK_OK);
    cuzk_cs_prefault_start(cs);
    cuzk_cs_free(cs); /* while running */
    cuzk_cs_t *small = new_direct(false);
    if (small) {
        cuzk_cs_reserve(small, 1, 100, 100); /* below the limit: nothing to start */
        cuzk_cs_prefault_start(small);
        synthesize(small, 100, 9);
        CHECK(cuzk_cs_status(small, NULL) == CUZK_OK);
        cuzk_cs_free(small);
    }
}

int main(void)
{
    test_init("test_cs_prefault");
    values_unchanged(BIG, BIG, false);
    values_unchanged(BIG, BIG, true);
    values_unchanged(3 * BIG + 5, BIG, true); /* outgrows the reservation while the thread runs */
    values_unchanged(1000, 0, false);         /* nothing reserved: nothing to prefault */
    pages_faulted_in();
    start_stop_orders();
    return test_finish();
}
