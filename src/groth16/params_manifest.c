/* parameters.json and Filecoin's parameter file names: the BLAKE2b-512 digest of a file (first 32
 * hex characters, rust-fil-proofs parameter_cache.rs verify_production_entry), the manifest lookup
 * and check, and the "v28-<prefix>-<sha256(identifier)>" stem (parameter_cache.rs cache_identifier). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuzk/params.h"

static void hex_encode(char *out, const uint8_t *in, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = 0;
}

#define DIGEST_CHUNK (4u << 20)

cuzk_status cuzk_params_digest(const char *path, uint8_t full[64], char hex32[33], cuzk_err_t *err)
{
    if (!path)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "digest: NULL path");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    uint8_t *buf = malloc(DIGEST_CHUNK);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    cuzk_status st = CUZK_OK;
    if (!buf || !ctx)
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    else if (EVP_DigestInit_ex(ctx, EVP_blake2b512(), NULL) != 1)
        st = cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "%s: BLAKE2b-512 unavailable in libcrypto", path);
    uint64_t total = 0;
    while (st == CUZK_OK) {
        ssize_t r = read(fd, buf, DIGEST_CHUNK);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            st = cuzk_err_set(err, CUZK_ERR_IO, "%s: read failed at byte %llu: %s", path,
                              (unsigned long long)total, strerror(errno));
            break;
        }
        if (r == 0)
            break;
        total += (uint64_t)r;
        if (EVP_DigestUpdate(ctx, buf, (size_t)r) != 1)
            st = cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "%s: BLAKE2b-512 update failed", path);
    }
    uint8_t md[64];
    unsigned int md_len = 0;
    if (st == CUZK_OK && (EVP_DigestFinal_ex(ctx, md, &md_len) != 1 || md_len != 64))
        st = cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "%s: BLAKE2b-512 final failed", path);
    if (st == CUZK_OK) {
        if (full)
            memcpy(full, md, 64);
        if (hex32)
            hex_encode(hex32, md, 16); /* 32 hex characters = the first 16 bytes */
    }
    EVP_MD_CTX_free(ctx);
    free(buf);
    close(fd);
    return st;
}

static bool is_hex32(const char *s)
{
    if (strlen(s) != 32)
        return false;
    for (int i = 0; i < 32; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
            return false;
    return true;
}

cuzk_status cuzk_params_manifest_entry(cuzk_params_manifest_entry_t *entry, const char *manifest_path,
                                       const char *name, cuzk_err_t *err)
{
    if (!entry || !manifest_path || !name)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "manifest: NULL argument");
    json_error_t je;
    json_t *root = json_load_file(manifest_path, 0, &je);
    if (!root) {
        /* jansson reports a missing or unreadable file with the same call as bad JSON. */
        if (access(manifest_path, R_OK) != 0)
            return cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot read: %s", manifest_path, strerror(errno));
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: line %d column %d: %s", manifest_path, je.line,
                            je.column, je.text);
    }
    cuzk_status st = CUZK_OK;
    json_t *e = NULL, *cid = NULL, *digest = NULL, *size = NULL;
    if (!json_is_object(root))
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: not a JSON object keyed by file name",
                          manifest_path);
    else if (!(e = json_object_get(root, name)))
        st = cuzk_err_set(err, CUZK_ERR_MISMATCH, "%s: no entry for %s", manifest_path, name);
    else if (!json_is_object(e))
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: entry %s is not an object", manifest_path, name);
    else if (!json_is_string(cid = json_object_get(e, "cid")) ||
             strlen(json_string_value(cid)) >= sizeof entry->cid)
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: entry %s: \"cid\" missing or not a short string",
                          manifest_path, name);
    else if (!json_is_string(digest = json_object_get(e, "digest")) ||
             !is_hex32(json_string_value(digest)))
        st = cuzk_err_set(err, CUZK_ERR_FORMAT,
                          "%s: entry %s: \"digest\" missing or not 32 hex characters", manifest_path,
                          name);
    else if (!json_is_integer(size = json_object_get(e, "sector_size")) ||
             json_integer_value(size) < 0)
        st = cuzk_err_set(err, CUZK_ERR_FORMAT,
                          "%s: entry %s: \"sector_size\" missing or not a non-negative integer",
                          manifest_path, name);
    if (st == CUZK_OK) {
        memset(entry, 0, sizeof *entry);
        strcpy(entry->cid, json_string_value(cid));
        const char *d = json_string_value(digest);
        for (int i = 0; i < 32; i++)
            entry->digest[i] = (char)(d[i] >= 'A' && d[i] <= 'F' ? d[i] - 'A' + 'a' : d[i]);
        entry->sector_size = (uint64_t)json_integer_value(size);
    }
    json_decref(root);
    return st;
}

cuzk_status cuzk_params_manifest_check(const char *manifest_path, const char *path, const char *name,
                                       cuzk_params_manifest_entry_t *entry, cuzk_err_t *err)
{
    if (!manifest_path || !path)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "manifest check: NULL argument");
    if (!name) {
        const char *slash = strrchr(path, '/');
        name = slash ? slash + 1 : path;
    }
    cuzk_params_manifest_entry_t e;
    cuzk_status st = cuzk_params_manifest_entry(&e, manifest_path, name, err);
    if (st != CUZK_OK)
        return st;
    char hex[33];
    st = cuzk_params_digest(path, NULL, hex, err);
    if (st != CUZK_OK)
        return st;
    /* The digests first: a v28 path takes most of a message. */
    const char *slash = strrchr(manifest_path, '/');
    if (strcmp(hex, e.digest) != 0)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "digest mismatch: the file's BLAKE2b-512 starts %s, %s records %s: %s", hex,
                            slash ? slash + 1 : manifest_path, e.digest, path);
    if (entry)
        *entry = e;
    return CUZK_OK;
}

cuzk_status cuzk_params_file_stem(char *out, size_t out_len, const char *cache_prefix,
                                  const char *identifier)
{
    if (!out || !cache_prefix || !identifier)
        return CUZK_ERR_INVALID_ARG;
    uint8_t md[32];
    unsigned int md_len = 0;
    if (EVP_Digest(identifier, strlen(identifier), md, &md_len, EVP_sha256(), NULL) != 1 || md_len != 32)
        return CUZK_ERR_UNSUPPORTED;
    char hex[65];
    hex_encode(hex, md, 32);
    int n = snprintf(out, out_len, "v%d-%s-%s", CUZK_PARAMS_VERSION, cache_prefix, hex);
    if (n < 0 || (size_t)n >= out_len) {
        if (out_len)
            out[0] = 0;
        return CUZK_ERR_BAD_LENGTH;
    }
    return CUZK_OK;
}
