/* Small files read whole (file_read.h): sized with fstat, read with one call asking for a byte more than
 * the size so that a file that grew meanwhile is seen. */
#include "util/file_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

cuzk_status cuzk_read_small_file(uint8_t **out, size_t *len, const char *path, size_t max, const char *what,
                                 cuzk_err_t *err)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fclose(f);
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: not a regular file", path);
    }
    if ((uint64_t)sb.st_size > max) {
        fclose(f);
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %llu bytes, larger than %s (%zu at most)", path,
                            (unsigned long long)sb.st_size, what, max);
    }
    size_t n = (size_t)sb.st_size;
    uint8_t *buf = malloc(n + 1);
    if (!buf) {
        fclose(f);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    size_t got = fread(buf, 1, n + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || got != n) {
        free(buf);
        return cuzk_err_set(err, CUZK_ERR_IO, bad ? "%s: read error" : "%s: changed while being read", path);
    }
    *out = buf;
    *len = n;
    return CUZK_OK;
}
