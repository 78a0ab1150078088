/* Files: output files that appear whole or not at all, and input files read whole with a bound.
 *
 * Output files appear whole or not at all: every file cuzk writes (proofs, C1 outputs, parameters,
 * keys, JSON, caches) goes through a temporary file in the target's directory, is flushed to the disk,
 * renamed onto the target and the directory flushed too. A reader of the target sees the old file or the
 * new one, never a partial one, even after a crash; on every error the temporary file is removed and an
 * existing target is left as it was.
 *
 * Threading: a cuzk_atomic_file_t belongs to one thread at a time; distinct files may be written from
 * distinct threads (two writers of the same target race: the last commit wins, both files are whole). */
#ifndef CUZK_FILE_H
#define CUZK_FILE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/api.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A file being written; opaque. */
typedef struct cuzk_atomic_file cuzk_atomic_file_t;

/* Starts writing path: creates "<path>.tmp.XXXXXX" beside it with mode (0644 is the usual; the process
 * umask applies as to open(2)). Nothing appears under path until cuzk_atomic_commit.
 * Errors: CUZK_ERR_INVALID_ARG (empty path, or one ending in '/'), CUZK_ERR_IO (the directory is missing
 * or not writable: the message names path and the system's reason), CUZK_ERR_NO_MEMORY. On error *out
 * is NULL and nothing was created. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2) cuzk_status
cuzk_atomic_open(cuzk_atomic_file_t **out, const char *path, unsigned mode, cuzk_err_t *err);

/* Appends len bytes (buffered: small writes are cheap). Errors: CUZK_ERR_IO (the device is full, a size
 * limit, an i/o error); after an error the file keeps failing and only commit (which reports it) or
 * abort may follow. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1) cuzk_status
cuzk_atomic_write(cuzk_atomic_file_t *f, const void *buf, size_t len, cuzk_err_t *err);

/* Finishes the file: flushes, fsyncs, renames it onto the target, fsyncs the directory, and frees f in
 * every case. Errors: CUZK_ERR_IO (an earlier write failed, fsync failed, or the rename did: the target
 * is a directory, ...), with the temporary file removed and the target untouched; or, rarely, the
 * directory's fsync failed after the rename (the new file is in place but may not survive a crash). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1) cuzk_status
cuzk_atomic_commit(cuzk_atomic_file_t *f, cuzk_err_t *err);

/* Gives up: removes the temporary file and frees f; the target is untouched. f may be NULL. */
CUZK_API void cuzk_atomic_abort(cuzk_atomic_file_t *f);

/* The path being written (the target, not the temporary name), for messages. */
CUZK_API CUZK_NONNULL(1) const char *cuzk_atomic_path(const cuzk_atomic_file_t *f);

/* The whole of buf as path, mode 0644 (open, write, commit in one call); the same errors. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1) cuzk_status
cuzk_atomic_write_file(const char *path, const void *buf, size_t len, cuzk_err_t *err);

/* Several files written together, mode 0644: every temporary file is written and synced before the
 * first rename, so a failure to create or write any of them leaves none of the targets changed. A
 * rename failing part-way (rare: a target that is a directory) leaves the earlier targets renamed and
 * removes the rest. bufs[i] may be NULL only when lens[i] is 0; n = 0 does nothing. */
CUZK_API CUZK_WARN_UNUSED_RESULT cuzk_status
cuzk_atomic_write_files(size_t n, const char *const *paths, const void *const *bufs, const size_t *lens,
                        cuzk_err_t *err);

/* ---- Input files ---------------------------------------------------------------------------------- */

/* The whole of path, at most max bytes, into a malloc'd *out of *len bytes (the caller frees it with
 * free()). A regular file is sized first: one larger than max is refused before anything is allocated or
 * read, and one that changes size while it is read is refused too. A pipe or character device (/dev/null,
 * /dev/stdin) is read to its end and refused as soon as it passes max bytes, so that /dev/zero costs max
 * bytes of memory, no more. what names what the bound is for in the message ("larger than <what>").
 * Errors, each naming path: CUZK_ERR_IO (missing, unreadable, a directory or another kind of file, a read
 * error), CUZK_ERR_FORMAT (larger than max), CUZK_ERR_NO_MEMORY. On error *out is NULL and *len 0.
 * Thread-safe. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3, 5) cuzk_status
cuzk_file_read(uint8_t **out, size_t *len, const char *path, size_t max, const char *what, cuzk_err_t *err);

#ifdef __cplusplus
}
#endif
#endif
