/* A file written from a thread of its own, for the streaming setup: the products of one chunk are
 * computed while the previous chunk's bytes go to the disk. Output goes through the atomic writer
 * (cuzk/file.h): the file appears under its name only at g16_writer_commit. One producer thread. */
#ifndef CUZK_GROTH16_SETUP_WRITER_H
#define CUZK_GROTH16_SETUP_WRITER_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"

typedef struct g16_writer g16_writer;

/* Starts path's temporary file and the writing thread, with buffers of buf_bytes.
 * CUZK_ERR_IO (the directory), CUZK_ERR_NO_MEMORY; *w is NULL on error. */
cuzk_status g16_writer_open(g16_writer **w, const char *path, size_t buf_bytes, cuzk_err_t *err);
/* A free buffer of buf_bytes to fill (waits while every buffer is queued). */
uint8_t *g16_writer_buffer(g16_writer *w);
/* Queues the first len bytes of the buffer g16_writer_buffer gave last. Returns the failure of an
 * earlier write if there was one (CUZK_ERR_IO), else CUZK_OK. */
cuzk_status g16_writer_submit(g16_writer *w, size_t len, cuzk_err_t *err);
/* Writes what is queued, then commits the file (flush, fsync, rename); frees w in every case. */
cuzk_status g16_writer_commit(g16_writer *w, cuzk_err_t *err);
/* Stops, removes the temporary file, frees w (NULL-safe). */
void g16_writer_abort(g16_writer *w);

#endif
