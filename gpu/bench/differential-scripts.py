#!/usr/bin/env python3
# The language-level differential test of the GPU engine: writes a cas script that computes
# random large operations twice, with gpu("on") and gpu("off"), and stops with an error at the
# first result that differs. Products in Z/pZ[x] for 15 moduli (NTT primes, CRT primes, composite,
# above 64 bits), powers, Z[x] and integer products, fft / ifft, convolve / negaconvolve (over
# Z/pZ and Z), division (//, %, divrem, and in Z[x] by a monic divisor or exactly) and powmod, at
# lengths around the crossovers and transform sizes.
# Usage: differential-scripts.py SEED COUNT [division] > d.cas; then on the device: cas d.cas
# ("division": every operation a product, division or powmod by a monic fb)
# (prints "checks COUNT all equal"). Without a GPU both runs take the CPU, which checks the script.
import random, sys
seed, count = int(sys.argv[1]), int(sys.argv[2])
division_only = len(sys.argv) > 3 and sys.argv[3] == "division"
random.seed(seed)
PRIMES = ["998244353", "2013265921", "469762049", "3", "2", "65537", "1000000007", "4611686018427387847",
          "18446744069414584321", "18446744073709551557", "(2^62 - 57)", "4294967291", "(3 * 1000000007)", "(2^89 - 1)", "(2^127 - 1)"]
NTT = ["998244353", "2013265921", "469762049", "18446744069414584321", "65537"]
def length():
    return random.choice([1, 2, 3, 17, 1000, 1023, 1024, 1025, 2047, 4095, 4097, 30000, 65536, 65537, 100000, 262143, 400000])
lines = ['seed(%d);' % seed, 'fn both(name, a, b) { if a != b { print("MISMATCH ", name); assert(false, name) } }',
         'checks = 0;']
for k in range(count):
    r = 1.0 if division_only else random.random()
    if r < 0.35:
        p = random.choice(PRIMES); na, nb = length(), length()
        expr = "randpoly(%d, %s) * randpoly(%d, %s)" % (na, p, nb, p)
        setup = "fa = randpoly(%d, %s); fb = randpoly(%d, %s);" % (na, p, nb, p)
        op = "fa * fb"
    elif r < 0.45:
        p = random.choice(PRIMES); na = random.choice([2, 3, 100, 1000, 5000, 30000]); e = random.choice([2, 3, 5, 8, 17])
        setup = "fa = randpoly(%d, %s); fb = 0;" % (na, p); op = "fa^%d" % e
    elif r < 0.6:
        na, nb = length(), length(); bits = random.choice([1, 10, 64, 200, 1000])
        setup = "fa = randzpoly(%d, %d); fb = randzpoly(%d, %d);" % (na, bits, nb, bits); op = "fa * fb"
    elif r < 0.67:
        bits = random.choice([10000, 200000, 1000000, 3000000])
        setup = "fa = 3^%d + %d; fb = 7^%d - 1;" % (bits, random.randint(0, 99), bits // 2); op = "fa * fb"
    elif r < 0.8:
        p = random.choice(NTT); n = 2 ** random.randint(1, 20)
        if p == "65537": n = min(n, 2 ** 16)
        setup = "w = rootofunity(%d, %s); fa = coeffs(randpoly(%d, %s)); fb = 0;" % (n, p, n, p)
        op = random.choice(["fft(fa, w)", "ifft(fa, w)", "ifft(fft(fa, w), w)"])
    elif r < 0.92:
        p = random.choice(PRIMES); n = length()
        setup = "fa = coeffs(randpoly(%d, %s)); fb = coeffs(randpoly(%d, %s));" % (n, p, n, p)
        if random.random() < 0.3:  # over Z: one Z[x] product, folded
            bits = random.choice([1, 64, 300])
            setup = "fa = coeffs(randzpoly(%d, %d)); fb = coeffs(randzpoly(%d, %d));" % (n, bits, n, bits)
        op = random.choice(["convolve(fa, fb)", "negaconvolve(fa, fb)"])
    else:
        p = random.choice([q for q in PRIMES if q != "(3 * 1000000007)"])  # // needs an invertible lc
        na = length()
        nb = max(1, na // 3)  # fb monic of degree nb: never zero, even modulo 2
        op = random.choice(["fa * fb - fb * fa", "(fa * fb) // fb", "(fa + 1) * (fa - 1)", "divrem(fa, fb)",
                            "fa % fb", "powmod(fa, 1000003, fb)"])
        if op.startswith("powmod"): nb = min(nb, 4097)  # FLINT's powmod above 64 bits: seconds from there
        setup = "fa = randpoly(%d, %s); fb = randpoly(%d, %s) + x^%d;" % (na, p, nb, p, nb)
        if random.random() < 0.3:  # in Z[x] (through primes when long): fa = fb h + r with fb monic, and
            # the exact division of fc = fb h by 3 fb. (A random fa's quotient by a monic fb with large
            # roots has coefficients of about deg fa times their bits: out of anyone's reach.)
            bits = random.choice([1, 20, 64, 300])
            op = random.choice(["fa // fb", "divrem(fa, fb)", "fa % fb", "(3 * fc) / (3 * fb)"])
            setup = "fb = randzpoly(%d, %d) + x^%d; fc = fb * randzpoly(%d, %d); fa = fc + randzpoly(%d, %d);" % (
                nb, bits, nb, max(1, na - nb), bits, nb, bits)
    lines.append(setup)
    lines.append('gpu("on"); g = %s; gpu("off"); c = %s; gpu("auto"); both("%d: %s", g, c); checks = checks + 1;' % (op, op, k, setup.replace('"', "'") + " " + op))
lines.append('print("checks ", checks, " all equal");')
print("\n".join(lines))
