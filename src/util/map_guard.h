/* Reads of file mappings that survive the file changing under them. A mapped file that is truncated
 * while mapped (an operator replacing or re-downloading it in place) makes every read past its new end
 * raise SIGBUS, as does a page the kernel cannot read; the default action kills the process, and with it
 * every job. cuzk_map_guard_run runs a function with a recovery point armed on the calling thread for one
 * address range: a fault inside that range while the function runs ends the function there and makes
 * cuzk_map_guard_run return false, so the reader can report an error. Any other SIGBUS keeps the effect
 * it had before: the handler that was installed before ours, or the default (the process dies).
 *
 * Rules for the guarded function: a fault abandons it at the faulting read, without unwinding, so while it
 * reads the range it holds no lock, owns no allocation and leaves nothing half-updated that its caller does
 * not discard on failure. It may call cuzk_map_guard_run again (nested ranges: the innermost range that
 * holds the address wins).
 * Threading: a recovery point belongs to the thread that armed it; a reader that spreads its reads over
 * several threads arms one on each of them and tells the others to stop when one faults (see
 * groth16/params_codec.c). The handler is installed once, by the first call, for the whole process; a
 * program that replaces the SIGBUS handler afterwards gets guarded faults in its own handler instead.
 * Cost: one sigsetjmp that saves the signal mask (a system call: 1.6 to 2.2 us measured on the
 * development machine) and two thread-local stores per call: arm it per section and worker, never per
 * point. */
#ifndef CUZK_UTIL_MAP_GUARD_H
#define CUZK_UTIL_MAP_GUARD_H
#include <stdbool.h>
#include <stddef.h>

/* Runs fn(ctx) with faults inside [base, base + len) recoverable. Returns true when fn returned; false
 * when a read inside the range faulted, with *fault_off (may be NULL) the faulting byte's offset from
 * base. When the handler cannot be installed, fn runs unguarded (a fault is then fatal, as without
 * this). */
bool cuzk_map_guard_run(const void *base, size_t len, void (*fn)(void *ctx), void *ctx, size_t *fault_off);

/* Copies len bytes of a mapping to dst (not in the mapping) under a guard for [src, src + len): false
 * when the copy faulted (dst then holds part of the bytes), with *fault_off as above. */
bool cuzk_map_guard_copy(void *dst, const void *src, size_t len, size_t *fault_off);

#endif
