#!/usr/bin/env python3
"""The constants and polynomial coefficients of kernels/expr_libm.hpp.

Each polynomial is mpmath's Chebyshev fit (near-minimax in absolute error)
of the smooth remainder a kernel evaluates, at 60 digits, then rounded to
double; the printed error is the fit's before that rounding. Constants
split into a head with few bits (so that an integer times it is exact) and
the rest. Run: python3 scripts/libm_coefficients.py
"""
import mpmath as mp

mp.mp.dps = 60


def dbl(v):
    return float(v)


def split(v, bits):
    """v as head (at most `bits` significant bits) + tail, both doubles."""
    m, e = mp.frexp(v)
    head = mp.ldexp(mp.floor(mp.ldexp(m, bits)), e - bits)
    return dbl(head), dbl(v - head)


def pair(v):
    """v as double + double (the second the first's rounding error)."""
    hi = dbl(v)
    return hi, dbl(v - mp.mpf(hi))


def fit(name, f, small, lo, hi, n):
    """A polynomial in z of n coefficients, lowest first, for f on [lo, hi];
    `small` stands in for f near 0, where f's formula cancels."""
    g = lambda z: small(z) if abs(z) < mp.mpf(10) ** -25 else f(z)
    coeffs, err = mp.chebyfit(g, [lo, hi], n, error=True)
    coeffs = [dbl(c) for c in reversed(coeffs)]
    print(f"// {name}: degree {n - 1} on [{mp.nstr(lo, 6)}, {mp.nstr(hi, 6)}], fit error {mp.nstr(err, 3)}")
    print("  " + ", ".join(repr(c) for c in coeffs))


print("ln2 (32-bit head):", *split(mp.log(2), 32))
print("1/ln2:", *pair(1 / mp.log(2)))
print("1/ln10:", *pair(1 / mp.log(10)))
print("pi/2 in 24-bit pieces:")
rest = mp.pi / 2
pieces = []
for _ in range(4):
    head, _tail = split(rest, 24)
    pieces.append(head)
    rest -= mp.mpf(head)
pieces.append(dbl(rest))
print("  ", ", ".join(repr(p) for p in pieces))
print("2/pi:", dbl(2 / mp.pi))
print("pi/2:", *pair(mp.pi / 2))
print("pi:", *pair(mp.pi))
print("pi/4:", *pair(mp.pi / 4))
print("3pi/4:", *pair(3 * mp.pi / 4))
print("atan(1/2):", *pair(mp.atan(mp.mpf(1) / 2)))
print("2/3:", *pair(mp.mpf(2) / 3))

# exp(r) = 1 + r + r^2 E(r), |r| <= ln2/2 plus the rounding of k.
fit("exp E(r) = (e^r - 1 - r)/r^2", lambda r: (mp.exp(r) - 1 - r) / r**2, lambda r: mp.mpf(1) / 2 + r / 6,
    -0.3466, 0.3466, 11)
# log(1+f) = 2s + s^3 (2/3 + z Q(z)), s = f/(2+f), z = s^2, f in [sqrt(1/2)-1, sqrt(2)-1].
s_max = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)
fit("log Q(z) = ((2 atanh s - 2s)/s^3 - 2/3)/z", lambda z: ((2 * mp.atanh(mp.sqrt(z)) - 2 * mp.sqrt(z)) / mp.sqrt(z) ** 3 -
    mp.mpf(2) / 3) / z, lambda z: mp.mpf(2) / 5 + 2 * z / 7, 0, s_max**2 * mp.mpf("1.0001"), 8)
# sin r = r + r^3 S(z), cos r = 1 - z/2 + z^2 C(z), z = r^2, |r| <= pi/4 plus rounding.
fit("sin S(z) = (sin r - r)/r^3", lambda z: (mp.sin(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z) ** 3,
    lambda z: -mp.mpf(1) / 6 + z / 120, 0, 0.62, 7)
fit("cos C(z) = (cos r - 1 + z/2)/z^2", lambda z: (mp.cos(mp.sqrt(z)) - 1 + z / 2) / z**2,
    lambda z: mp.mpf(1) / 24 - z / 720, 0, 0.62, 6)
# atan u = u + u^3 A(z), |u| <= 7/16.
fit("atan A(z) = (atan u - u)/u^3", lambda z: (mp.atan(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z) ** 3,
    lambda z: -mp.mpf(1) / 3 + z / 5, 0, 0.1915, 12)
