/* Huge-page hints for large heap buffers (see bigmem.h). Buffers of a MiB or more are allocated
 * 2 MiB-aligned and rounded up to whole huge pages, so that all of a buffer can be advised; glibc serves
 * such requests with their own mmap (free() returns them), so the advice touches no other buffer. */
#include "util/bigmem.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_PAGE ((size_t)2 << 20)
#define HINT_MIN (2 * HUGE_PAGE) /* for memory from elsewhere: below this the aligned interior is small */
#define ALIGN_MIN ((size_t)1 << 20) /* from here on, whole huge pages (at most 2x the memory) */

void cuzk_big_hint(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
    if (!p || n < HINT_MIN)
        return;
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + n) & ~(uintptr_t)(HUGE_PAGE - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* advice only: failure changes nothing */
#else
    (void)p;
    (void)n;
#endif
}

void *cuzk_big_malloc(size_t n)
{
    if (n < ALIGN_MIN || n > SIZE_MAX - HUGE_PAGE)
        return malloc(n ? n : 1);
    size_t whole = (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    void *p;
    if (posix_memalign(&p, HUGE_PAGE, whole) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, whole, MADV_HUGEPAGE); /* advice only: failure changes nothing */
#endif
    return p;
}

void *cuzk_big_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    size_t n = count * size;
    if (n < ALIGN_MIN)
        return calloc(count ? count : 1, size ? size : 1);
    void *p = cuzk_big_malloc(n);
    if (p)
        memset(p, 0, n); /* posix_memalign does not zero; this also makes the pages resident */
    return p;
}

unsigned long long cuzk_mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    unsigned long long kb = 0;
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f))
        found = sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
    if (f)
        fclose(f);
    if (found)
        return kb * 1024;
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (unsigned long long)pages * (unsigned long long)page : 0;
}
