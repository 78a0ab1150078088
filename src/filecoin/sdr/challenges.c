/* PoRep and PoSt challenge derivation. The 256-bit reductions are done limb by limb with 128-bit
 * remainders (the reference uses a big integer); the synthetic PRFs come from libcrypto. */
#include "filecoin/sdr/challenges.h"
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <pthread.h>
#include <string.h>
#include "filecoin/hash/sha256_tree.h"

uint64_t cuzk_fc_challenge_reduce(const uint8_t le256[32], uint64_t nodes)
{
    uint64_t m = nodes - 1;
    unsigned __int128 r = 0;
    for (int limb = 3; limb >= 0; limb--) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--)
            v = v << 8 | le256[8 * limb + i];
        r = ((r << 64) | v) % m;
    }
    return (uint64_t)r + 1;
}

static cuzk_status check_nodes(uint64_t nodes, cuzk_err_t *err)
{
    if (nodes < 2 || nodes > (1ull << 32))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "challenges: %llu nodes is out of range (2 .. 2^32)",
                            (unsigned long long)nodes);
    return CUZK_OK;
}

static void u32_le(uint8_t out[4], uint32_t v)
{
    for (int i = 0; i < 4; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

cuzk_status cuzk_fc_challenges_interactive(uint64_t *out, uint32_t cpp, uint64_t nodes,
                                           const uint8_t replica_id[32], const uint8_t seed[32],
                                           uint32_t k, cuzk_err_t *err)
{
    cuzk_status st = check_nodes(nodes, err);
    if (st != CUZK_OK)
        return st;
    for (uint32_t i = 0; i < cpp; i++) {
        uint8_t j[4], h[32];
        u32_le(j, cpp * k + i); /* the reference's j is a u32 too */
        cuzk_fc_span_t parts[3] = {{replica_id, 32}, {seed, 32}, {j, 4}};
        cuzk_fc_sha256(h, parts, 3);
        out[i] = cuzk_fc_challenge_reduce(h, nodes);
    }
    return CUZK_OK;
}

cuzk_status cuzk_fc_challenges_ni(uint64_t *out, uint32_t cpp, uint64_t nodes, const uint8_t replica_id[32],
                                  const uint8_t comm_r[32], uint32_t k, cuzk_err_t *err)
{
    static const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
    cuzk_status st = check_nodes(nodes, err);
    if (st != CUZK_OK)
        return st;
    for (uint32_t i = 0; i < cpp; i++) {
        uint8_t j[4], h[32];
        u32_le(j, cpp * k + i);
        cuzk_fc_span_t parts[4] = {{tag, sizeof tag - 1}, {replica_id, 32}, {comm_r, 32}, {j, 4}};
        cuzk_fc_sha256(h, parts, 4);
        out[i] = cuzk_fc_challenge_reduce(h, nodes);
    }
    return CUZK_OK;
}

/* ---- synthetic PoRep ------------------------------------------------------------------------ */

#define SYNTH_DEFAULT_COUNT (1ull << 18)
static const uint8_t SYNTH_NONCE[12] = "synth-porep"; /* 11 characters and the NUL */

uint64_t cuzk_fc_synth_default_count(uint64_t nodes)
{
    return nodes < SYNTH_DEFAULT_COUNT ? nodes : SYNTH_DEFAULT_COUNT;
}

static EVP_MAC *blake2b_mac;
static EVP_CIPHER *chacha20;
static pthread_once_t synth_once = PTHREAD_ONCE_INIT;

static void fetch_synth(void)
{
    blake2b_mac = EVP_MAC_fetch(NULL, "BLAKE2BMAC", NULL);
    chacha20 = EVP_CIPHER_fetch(NULL, "ChaCha20", NULL);
}

/* BLAKE2b with a 32-byte output (set in the parameter block, not a truncation) keyed by `key`, over
 * a ‖ b. */
static int blake2b256_keyed(uint8_t out[32], const char *key, const uint8_t a[32], const uint8_t b[32])
{
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(blake2b_mac);
    if (!ctx)
        return 0;
    size_t size = 32, outl = 0;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size), OSSL_PARAM_END};
    int ok = EVP_MAC_init(ctx, (const unsigned char *)key, strlen(key), params) == 1 &&
             EVP_MAC_update(ctx, a, 32) == 1 && EVP_MAC_update(ctx, b, 32) == 1 &&
             EVP_MAC_final(ctx, out, &outl, 32) == 1 && outl == 32;
    EVP_MAC_CTX_free(ctx);
    return ok;
}

/* len bytes of the IETF ChaCha20 keystream (32-bit block counter, 96-bit nonce) from byte `offset`. */
static int chacha20_keystream(uint8_t *out, size_t len, const uint8_t key[32], uint64_t offset)
{
    uint8_t iv[16], zeros[64] = {0}, block[64];
    u32_le(iv, (uint32_t)(offset / 64));
    memcpy(iv + 4, SYNTH_NONCE, 12);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (!ctx)
        return 0;
    int ok = EVP_EncryptInit_ex2(ctx, chacha20, key, iv, NULL) == 1;
    size_t skip = (size_t)(offset % 64);
    while (ok && (skip || len)) {
        size_t take = skip + len < 64 ? skip + len : 64;
        int outl = 0;
        ok = EVP_EncryptUpdate(ctx, block, &outl, zeros, (int)take) == 1 && (size_t)outl == take;
        if (!ok)
            break;
        size_t use = take - skip;
        memcpy(out, block + skip, use);
        out += use, len -= use, skip = 0;
    }
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

static cuzk_status synth_ready(cuzk_err_t *err)
{
    pthread_once(&synth_once, fetch_synth);
    if (!blake2b_mac || !chacha20)
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED,
                            "synthetic challenges: libcrypto lacks %s",
                            !blake2b_mac ? "BLAKE2BMAC" : "ChaCha20");
    return CUZK_OK;
}

cuzk_status cuzk_fc_synth_challenges(uint64_t *out, uint64_t first, uint64_t count, uint64_t num_synth,
                                     uint64_t nodes, const uint8_t replica_id[32],
                                     const uint8_t comm_r[32], cuzk_err_t *err)
{
    cuzk_status st = check_nodes(nodes, err);
    if (st == CUZK_OK)
        st = synth_ready(err);
    if (st != CUZK_OK)
        return st;
    /* The reference seeks with a u32 byte offset: the set can have at most 2^27 members. */
    if (num_synth > (1ull << 27) || first > num_synth || count > num_synth - first)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "synthetic challenges [%llu, +%llu) outside a set of %llu",
                            (unsigned long long)first, (unsigned long long)count,
                            (unsigned long long)num_synth);
    uint8_t key[32];
    if (!blake2b256_keyed(key, "filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r))
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "synthetic challenges: BLAKE2b key derivation failed");
    /* A few members at a time keeps the keystream calls long without a large buffer. */
    uint8_t buf[32 * 16];
    for (uint64_t done = 0; done < count;) {
        uint64_t n = count - done < 16 ? count - done : 16;
        if (!chacha20_keystream(buf, (size_t)(32 * n), key, 32 * (first + done)))
            return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "synthetic challenges: ChaCha20 failed");
        for (uint64_t i = 0; i < n; i++)
            out[done + i] = cuzk_fc_challenge_reduce(buf + 32 * i, nodes);
        done += n;
    }
    return CUZK_OK;
}

cuzk_status cuzk_fc_synth_indexes(uint64_t *out, uint32_t cpp, uint64_t num_synth,
                                  const uint8_t replica_id[32], const uint8_t rand[32], uint32_t k,
                                  cuzk_err_t *err)
{
    cuzk_status st = synth_ready(err);
    if (st != CUZK_OK)
        return st;
    if (num_synth == 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "synthetic challenges: empty synthetic set");
    uint8_t key[32];
    if (!blake2b256_keyed(key, "filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id, rand))
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "synthetic challenges: BLAKE2b key derivation failed");
    uint64_t word = (uint64_t)cpp * k;
    for (uint32_t done = 0; done < cpp;) {
        uint8_t buf[4 * 64];
        uint32_t n = cpp - done < 64 ? cpp - done : 64;
        if (!chacha20_keystream(buf, 4 * (size_t)n, key, 4 * (word + done)))
            return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "synthetic challenges: ChaCha20 failed");
        for (uint32_t i = 0; i < n; i++) {
            uint32_t v = (uint32_t)buf[4 * i] | (uint32_t)buf[4 * i + 1] << 8 |
                         (uint32_t)buf[4 * i + 2] << 16 | (uint32_t)buf[4 * i + 3] << 24;
            out[done + i] = v % num_synth;
        }
        done += n;
    }
    return CUZK_OK;
}

cuzk_status cuzk_fc_challenges_synthetic(uint64_t *out, uint32_t cpp, uint64_t num_synth, uint64_t nodes,
                                         const uint8_t replica_id[32], const uint8_t comm_r[32],
                                         const uint8_t rand[32], uint32_t k, cuzk_err_t *err)
{
    cuzk_status st = cuzk_fc_synth_indexes(out, cpp, num_synth, replica_id, rand, k, err);
    for (uint32_t i = 0; i < cpp && st == CUZK_OK; i++)
        st = cuzk_fc_synth_challenges(&out[i], out[i], 1, num_synth, nodes, replica_id, comm_r, err);
    return st;
}
