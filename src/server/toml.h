/* A small strict TOML reader for the daemon's configuration: the subset a config file needs (tables,
 * dotted and quoted keys, strings, integers, floats, booleans, arrays of scalars), everything else
 * refused with "line N: what". It knows nothing about the daemon; config.c gives the keys meaning. */
#ifndef CUZK_SERVER_TOML_H
#define CUZK_SERVER_TOML_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cuzk/status.h"

/* What is refused (each an error naming the line): duplicate keys and tables, bad escapes, unterminated
 * strings and arrays, anything after a value but a comment, integer overflow, control characters and
 * invalid UTF-8, and the TOML features outside the subset: multi-line strings, inline tables, arrays
 * of tables, nested arrays, dates and times. A "\u0000" escape is refused too (values are C strings).
 * A key may have at most CUZK_TOML_MAX_KEY_PARTS dotted parts (an error beyond, not a truncation). */
#define CUZK_TOML_MAX_KEY_PARTS 32

typedef enum {
    CUZK_TOML_TABLE,
    CUZK_TOML_STRING,
    CUZK_TOML_INT,
    CUZK_TOML_FLOAT,
    CUZK_TOML_BOOL,
    CUZK_TOML_ARRAY,
} cuzk_toml_type;

/* One node of a parsed document: a table or a key's value. Read-only for callers. */
typedef struct cuzk_toml_value {
    cuzk_toml_type type;
    int line;   /* where the key (or the table's header, or the array element) is */
    /* The full key: the parts joined by '.', a part that is not a bare key written as a basic
     * string ("a.b" stays quoted), array elements as path[i]. Unique within a document. */
    char *path;
    union {
        char *s;    /* STRING: UTF-8, NUL-terminated, no NUL inside */
        int64_t i;  /* INT */
        double f;   /* FLOAT */
        bool b;     /* BOOL */
        struct {
            struct cuzk_toml_value *items;
            size_t n;
        } arr;      /* ARRAY: scalars only */
        int origin; /* TABLE: how it was made (internal) */
    } u;
} cuzk_toml_value_t;

typedef struct cuzk_toml cuzk_toml_t;

/* Parses len bytes (need not be NUL-terminated; a leading UTF-8 byte-order mark is skipped).
 * On success *out owns the document (free with cuzk_toml_free). On error *out is NULL, the status
 * is CUZK_ERR_FORMAT (or CUZK_ERR_NO_MEMORY) and err says "line N: what". */
cuzk_status cuzk_toml_parse(const char *buf, size_t len, cuzk_toml_t **out, cuzk_err_t *err);
void cuzk_toml_free(cuzk_toml_t *doc);

/* Every table and key of the document (not the root, not array elements) in the order they first
 * appear; a table made implicitly by [a.b] or a.b = 1 comes right before its first child. */
size_t cuzk_toml_count(const cuzk_toml_t *doc);
const cuzk_toml_value_t *cuzk_toml_at(const cuzk_toml_t *doc, size_t i);

/* The node with this full path ("section.key", written as in cuzk_toml_value_t.path), or NULL. */
const cuzk_toml_value_t *cuzk_toml_find(const cuzk_toml_t *doc, const char *path);

/* "a table", "a string", "an integer", ... for messages. */
const char *cuzk_toml_type_name(cuzk_toml_type type);

/* Typed reads of one node: CUZK_ERR_FORMAT "line N: path: expected X, got Y" on a type mismatch.
 * as_float also takes an integer. */
cuzk_status cuzk_toml_as_string(const cuzk_toml_value_t *v, const char **out, cuzk_err_t *err);
cuzk_status cuzk_toml_as_int(const cuzk_toml_value_t *v, int64_t *out, cuzk_err_t *err);
cuzk_status cuzk_toml_as_float(const cuzk_toml_value_t *v, double *out, cuzk_err_t *err);
cuzk_status cuzk_toml_as_bool(const cuzk_toml_value_t *v, bool *out, cuzk_err_t *err);

/* The same by path, for settings with defaults: an absent key returns CUZK_OK and leaves *out as it
 * was; found (may be NULL) says which. */
cuzk_status cuzk_toml_get_string(const cuzk_toml_t *doc, const char *path, const char **out, bool *found,
                                 cuzk_err_t *err);
cuzk_status cuzk_toml_get_int(const cuzk_toml_t *doc, const char *path, int64_t *out, bool *found,
                              cuzk_err_t *err);
cuzk_status cuzk_toml_get_float(const cuzk_toml_t *doc, const char *path, double *out, bool *found,
                                cuzk_err_t *err);
cuzk_status cuzk_toml_get_bool(const cuzk_toml_t *doc, const char *path, bool *out, bool *found,
                               cuzk_err_t *err);

/* Writes s as a TOML basic string ("..." with \" \\ and \uXXXX for control characters), so that
 * what the daemon prints about its configuration can be read back. */
void cuzk_toml_write_string(FILE *f, const char *s);

#endif
