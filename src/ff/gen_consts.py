#!/usr/bin/env python3
"""Derives every hard-coded constant of src/ff from p and r (Python 3 standard library only):
Montgomery constants (with mont_adx.h's friendly-step Q), fixed exponents, the Fr root of unity, the safegcd moduli and the Fp6/Fp12
Frobenius tables (tower_consts.c is this script's `tower` output). The tests recompute them
independently with GMP or from their definitions, so this script is documentation, not a trust
anchor. Usage: gen_consts.py [field|tower]"""
import sys

P = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB
R_ORDER = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001


def limbs(x, n, bits=64):
    return [(x >> (bits * i)) & ((1 << bits) - 1) for i in range(n)]


def c_limbs(x, n):
    return ", ".join("0x%016xULL" % v for v in limbs(x, n))


def field():
    for name, q, n in (("fp", P, 6), ("fr", R_ORDER, 4)):
        R = 1 << (64 * n)
        print("/* %s */" % name)
        print("modulus   ", c_limbs(q, n))
        print("n0         0x%016xULL" % ((-pow(q, -1, 1 << 64)) % (1 << 64)))
        print("R mod q   ", c_limbs(R % q, n))
        print("R^2 mod q ", c_limbs(R * R % q, n))
        print("R^3 mod q ", c_limbs(R ** 3 % q, n))
        print("q - 2     ", c_limbs(q - 2, n))
        print("(q - 1)/2 ", c_limbs((q - 1) // 2, n))
        n62 = 7 if n == 6 else 5
        print("signed-62 ", ", ".join("0x%016x" % v for v in limbs(q, n62, 62)))
        print("q^-1 mod 2^62 0x%016xULL" % pow(q, -1, 1 << 62))
        n0 = (-pow(q, -1, 1 << 64)) % (1 << 64)
        print("Q = (n0*q + 1)/2^64 (friendly steps)", c_limbs((n0 * q + 1) >> 64, n))
        if n == 4:
            print("-q^-1 mod 2^128, high limb 0x%016xULL" % ((-pow(q, -1, 1 << 128)) % (1 << 128) >> 64))
        b = q.bit_length()
        print("divsteps bound floor((49*%d + 57) / 17) = %d" % (b, (49 * b + 57) // 17))
    print("(p + 1)/4 ", c_limbs((P + 1) // 4, 6))
    t = (R_ORDER - 1) >> 32
    print("(t - 1)/2 ", c_limbs((t - 1) // 2, 4))
    z = pow(7, t, R_ORDER)
    assert pow(z, 1 << 31, R_ORDER) == R_ORDER - 1
    print("7^t (Montgomery)", c_limbs(z * (1 << 256) % R_ORDER, 4))


def fp2_mul(a, b):
    return ((a[0] * b[0] - a[1] * b[1]) % P, (a[0] * b[1] + a[1] * b[0]) % P)


def fp2_pow(a, e):
    r = (1, 0)
    while e:
        if e & 1:
            r = fp2_mul(r, a)
        a = fp2_mul(a, a)
        e >>= 1
    return r


def tower():
    R = 1 << 384

    def fp_c(x):
        v = limbs(x * R % P, 6)
        return ("{{" + ", ".join("0x%016xULL" % w for w in v[:3]) + ",\n       "
                + ", ".join("0x%016xULL" % w for w in v[3:]) + "}}")

    def fp2_c(a):
        return "    {" + fp_c(a[0]) + ",\n     " + fp_c(a[1]) + "},"

    xi = (1, 1)
    tables = (("FROB6_C1", 6, 1, 3), ("FROB6_C2", 6, 2, 3), ("FROB12_W", 12, 1, 6))
    for name, count, mult, div in tables:
        print("const fp2 %s[%d] = {" % (name, count))
        for k in range(count):
            print(fp2_c(fp2_pow(xi, mult * (P ** k - 1) // div)))
        print("};\n")


if __name__ == "__main__":
    {"field": field, "tower": tower}[sys.argv[1] if len(sys.argv) > 1 else "field"]()
