/* Seeded xoshiro256** PRNG and the CHECK bookkeeping used by every test program. */
#include "test_util.h"
#include "cuzk/cuzk.h"
#include "ff/fr.h"
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

unsigned long test_failures, test_checks;
static uint64_t s[4];
static const char *test_name = "test";

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void test_init(const char *name)
{
    test_name = name;
    uint64_t seed;
    const char *env = getenv("CUZK_TEST_SEED");
    if (env && *env) {
        seed = strtoull(env, NULL, 0);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec;
    }
    printf("%s: seed=%llu (replay with CUZK_TEST_SEED=%llu)\n", name, (unsigned long long)seed,
           (unsigned long long)seed);
    fflush(stdout);
    /* CUZK_IMPL and CUZK_NTT_KERNELS steer the tests as they steer the tools. */
    cuzk_err_t err;
    if (cuzk_init(&(cuzk_init_options_t){.from_env = true}, &err) != CUZK_OK)
        fprintf(stderr, "%s: %s\n", name, err.msg);
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        s[i] = splitmix(&x);
}

int test_finish(void)
{
    printf("%s: %lu checks, %lu failures\n", test_name, test_checks, test_failures);
    return test_failures ? 1 : 0;
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t test_rand64(void)
{
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0], s[3] ^= s[1], s[1] ^= s[2], s[0] ^= s[3], s[2] ^= t, s[3] = rotl(s[3], 45);
    return r;
}

uint64_t test_rand_below(uint64_t n)
{
    uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;
    do
        x = test_rand64();
    while (x >= lim);
    return x % n;
}

void test_rand_bytes(void *out, size_t n)
{
    uint8_t *p = out;
    while (n) {
        uint64_t x = test_rand64();
        size_t k = n < 8 ? n : 8;
        memcpy(p, &x, k);
        p += k, n -= k;
    }
}

/* Canonical limbs < r by rejection: 255 random bits, kept when below r (about 9 draws in 10). */
static void canonical_from(uint64_t l[4], uint64_t (*next)(void *), void *ctx)
{
    for (;;) {
        for (int i = 0; i < 4; i++)
            l[i] = next(ctx);
        l[3] &= 0x7fffffffffffffffull;
        for (int i = 3; i >= 0; i--) {
            if (l[i] != FR_MODULUS[i]) {
                if (l[i] < FR_MODULUS[i])
                    return;
                break;
            }
        }
    }
}

static uint64_t shared_next(void *ctx)
{
    (void)ctx;
    return test_rand64();
}

void test_rand_fr_from(cuzk_fr_t *x, uint64_t (*next)(void *ctx), void *ctx)
{
    uint64_t l[4];
    canonical_from(l, next, ctx);
    fr_to_mont(x, l);
}

void test_rand_fr(cuzk_fr_t *x) { test_rand_fr_from(x, shared_next, NULL); }

void test_rand_scalar(cuzk_scalar_t *k) { canonical_from(k->l, shared_next, NULL); }

void test_rand_fr_bytes(uint8_t out[32])
{
    uint64_t l[4];
    canonical_from(l, shared_next, NULL);
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)(l[i / 8] >> (8 * (i % 8)));
}

char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        if (len)
            *len = (size_t)n;
    }
    return buf;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

long test_hex_decode(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = strlen(hex);
    if (n % 2 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(n / 2);
}

bool test_stop_after(void *counter)
{
    test_stop_counter *c = counter;
    return ++c->polls == c->stop_at;
}

double test_thread_cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void test_sha256_parts(uint8_t out[32], const uint8_t *const *parts, const size_t *lens, int n)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    unsigned int len = 0;
    CHECK(c && EVP_DigestInit_ex(c, EVP_sha256(), NULL) == 1);
    for (int i = 0; i < n; i++)
        CHECK(EVP_DigestUpdate(c, parts[i], lens[i]) == 1);
    CHECK(EVP_DigestFinal_ex(c, out, &len) == 1 && len == 32);
    EVP_MD_CTX_free(c);
}

uint64_t test_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
