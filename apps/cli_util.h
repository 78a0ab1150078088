/* Small helpers the tools' commands share: option values, output directories, clocks. */
#ifndef CUZK_APPS_CLI_UTIL_H
#define CUZK_APPS_CLI_UTIL_H
#include <stddef.h>
#include <stdint.h>

/* A decimal u64 (no sign, no trailing characters); 0 on success, -1 otherwise. */
int cli_parse_u64(const char *s, uint64_t *out);
/* 32 bytes from 64 hex digits, with or without 0x; 0 on success, -1 otherwise. */
int cli_hex32(uint8_t out[32], const char *s);
/* 32 bytes as 64 lowercase hex digits and a NUL (how the tools print commitments). */
void cli_hex32_format(char out[65], const uint8_t b[32]);
/* A new temporary directory beside path (in path's directory, so that a rename into path stays on one
 * file system), named .cuzk-<tag>-XXXXXX, malloc'd; NULL after a message naming prog. */
char *cli_temp_dir_beside(const char *prog, const char *path, const char *tag);
/* mkdir -p: every missing component of dir (0755); 0 on success, -1 with errno set. */
int cli_make_dirs(const char *dir);
/* Checked before any work starts, so that a bad destination costs no proving: path can become an output
 * file of need bytes (not a directory; its directory exists, a file can be created there: one is made and
 * removed, as the atomic writer will; need bytes are free there). 0, or -1 after a message naming prog
 * and the reason. */
int cli_check_output_file(const char *prog, const char *path, uint64_t need);
/* The same for an output directory that is made if missing: an existing dir must be a directory where a
 * file can be created; for a missing one, its nearest existing ancestor. */
int cli_check_output_dir(const char *prog, const char *dir);
/* A sector size: "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" or one of those as a byte count;
 * 0 for anything else. */
uint64_t cli_parse_sector_size(const char *s);
/* Monotonic seconds, for the timing summaries; the same clock in nanoseconds. */
double cli_now(void);
uint64_t cli_now_ns(void);
/* With CUZK_TIMING set to anything but "0" (read once), prints `CUZK_TIMING: phase=<name> ms=<value>` on
 * stderr, in one write, for a phase that started at t0 (cli_now) and ends now: the form of the library's
 * own phase lines. */
void cli_timing_report(const char *phase, double t0);
/* n bytes from the OS's random source (getrandom, retried on EINTR); 0 on success, -1 with errno set. */
int cli_os_random(void *buf, size_t n);
/* Online CPUs (at least 1). */
int cli_cpu_count(void);

#endif
