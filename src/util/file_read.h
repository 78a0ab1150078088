/* Reading a small file whole (metadata, vanilla proofs, C1 outputs): one place that refuses what is not a
 * regular file, what is larger than the caller's bound before allocating for it (a replica or a tree file
 * named by mistake is not read), and a file that grows while it is read (rather than cutting it). The
 * public cuzk_file_read (cuzk/file.h) is the same reader, also taking pipes and character devices. */
#ifndef CUZK_UTIL_FILE_READ_H
#define CUZK_UTIL_FILE_READ_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"

/* The whole of the regular file `path`, at most max bytes, into a malloc'd *out (the caller frees it; one
 * byte more is allocated than read; huge pages are asked for a large one) of *len bytes. what names what
 * the bound is for in the message of a larger file ("larger than <what> (<max> at most)"). CUZK_ERR_IO
 * naming path (missing, unreadable, a directory or anything but a regular file, a read error, changed
 * while being read), CUZK_ERR_FORMAT naming path and its size (larger than max), CUZK_ERR_NO_MEMORY. On
 * error *out is NULL and *len 0. Thread-safe. */
cuzk_status cuzk_read_small_file(uint8_t **out, size_t *len, const char *path, size_t max, const char *what,
                                 cuzk_err_t *err);

#endif
