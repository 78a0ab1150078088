/* Large buffers (point arrays, scalar and evaluation vectors): malloc'd as usual and freed with free(),
 * but with transparent huge pages requested for them. First touches of fresh memory are a large part of a
 * small proof's time (a 4 KiB page fault costs microseconds, more in a VM); a 2 MiB page takes 512 of
 * them at once. Where the kernel gives no huge pages the hint is ignored. */
#ifndef CUZK_UTIL_BIGMEM_H
#define CUZK_UTIL_BIGMEM_H
#include <stddef.h>

/* malloc(n), asking for huge pages over the buffer when it is large (a few MiB or more). */
void *cuzk_big_malloc(size_t n);
/* calloc(count, size), same hint. */
void *cuzk_big_calloc(size_t count, size_t size);
/* The hint alone, for memory allocated elsewhere (a no-op for small ranges). */
void cuzk_big_hint(void *p, size_t n);

/* Bytes of memory that can be taken without swapping now (the kernel's MemAvailable: free memory and the
 * page cache it can drop), or the free pages where /proc/meminfo cannot be read. */
unsigned long long cuzk_mem_available(void);

#endif
