"""Counterexamples from the privacy review: each once reported ε or δ below the truth."""

import numpy as np

from dpsens import (
    Data, Integer, L1, L2, L_inf, Local, MetricMatrix, MetricVector, Priv, PrivacyFunction, Real, Static, clip, cols, count, rows,
    above_threshold, exponential_mechanism, gaussian_mechanism, gaussian_mechanism_zcdp, kary_randomized_response, laplace_mechanism, local_laplace, map_rows,
    norm_convert, parallel_fold_rows, randomized_response, report_noisy_max, sample, shuffle, undisc_container,
)


def loop_carried(x: Real) -> Priv[Real]:  # expect: x=(55, 0); accounting=sequential
    acc = x
    out = 0.0
    for _ in range(10):
        out = out + laplace_mechanism(1.0, 1.0, acc)
        acc = acc + x
    return out


def noised_carried(x: Real) -> Priv[Real]:  # expect: x=(3, 0); accounting=basic
    acc = x
    for _ in range(3):
        acc = laplace_mechanism(1.0, 1.0, acc)
    return acc


def escaped_sample(m: MetricMatrix[L_inf, Data]) -> Priv[MetricVector[L1, Real]]:  # expect: m=(1, 0); accounting=sequential
    for _ in range(1):
        batch, _rest = sample(10, m, m)
    total = np.sum(undisc_container(clip(L1, batch)), axis=0)
    return laplace_mechanism(2.0, 1.0, total)


def one_sample_two_outputs(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 10*(-1 + exp(4))/rows(m)), 0); accounting=basic
    a, b = sample(10, m, m)
    first = laplace_mechanism(2.0, 2.0, norm_convert(L1, np.sum(undisc_container(clip(L1, a)), axis=0)))
    second = laplace_mechanism(2.0, 2.0, norm_convert(L1, np.sum(undisc_container(clip(L1, b)), axis=0)))
    return first[0] + second[0]


def leaky(x: Real) -> Priv[Real]:  # expect: x=(inf, inf); accounting=released  # E: DPS403
    return x


def calls_leaky(x: Real) -> Priv[Real]:  # expect: x=(inf, inf); accounting=sequential  # E: DPS409
    return leaky(x)


def apply(f: PrivacyFunction, d: Data) -> Priv[Real]:  # expect: d=(eps(f), delta(f)); f=static; accounting=sequential
    return f(d)


def laplace_on_data(d: Data) -> Priv[Real]:  # expect: d=(inf, inf); accounting=sequential
    return apply(lambda z: laplace_mechanism(1.0, 1.0, z), d)  # E: DPS401


def per_entry_linf(v: MetricVector[L_inf, Real]) -> Priv[MetricVector[L1, Real]]:  # expect: v=(len(v), 0); accounting=sequential
    return map_rows(lambda e: laplace_mechanism(1.0, 1.0, e), v)


def per_entry_rr(bits: MetricVector[L2, Data]) -> Priv[MetricVector[L1, Real]]:  # expect: bits=(ceiling(sqrt(len(bits))), 0); accounting=sequential
    return map_rows(lambda b: randomized_response(1.0, b), bits)


def l2_data_caller(bits: MetricVector[L_inf, Data]) -> Priv[MetricVector[L1, Real]]:  # expect: bits=(len(bits)*ceiling(sqrt(len(bits))), 0); accounting=sequential
    return per_entry_rr(bits)


def negative_epsilon(x: Real, y: Real) -> Priv[Real]:  # expect: x=(inf, inf); y=(1, 0); accounting=sequential
    return laplace_mechanism(1.0, -1.0, x) + laplace_mechanism(1.0, 1.0, y)  # E: DPS406


def seeded(x: Real) -> Priv[Real]:  # expect: x=(inf, inf); accounting=sequential
    return laplace_mechanism(1.0, 1.0, x, rng=np.random.default_rng(0))  # E: DPS407



def sampled_linf_record(m: MetricMatrix[L_inf, Data]) -> Priv[Data]:  # expect: m=(1, 0); accounting=sequential
    # one record's features: a neighbour changes every one, so the sampled one always differs
    record = m[0, :]
    b, _rest = sample(1, record, record)  # E: DPS408
    return randomized_response(1.0, b[0])


def sampled_linf_entries(v: MetricVector[L_inf, Real]) -> Priv[Real]:  # expect: v=(1, 0); accounting=sequential
    b, _rest = sample(10, v, v)  # E: DPS408
    return laplace_mechanism(1.0, 1.0, b[0])


def sampled_l2_entries(v: MetricVector[L2, Real]) -> Priv[Real]:  # expect: v=(sqrt(10)/10, 0); accounting=sequential
    # v + 1/sqrt(n) in every entry is 1 away: the sample's L1 shift is 10/sqrt(n), sqrt(10) at n = 10
    b, _rest = sample(10, v, v)  # E: DPS408
    return laplace_mechanism(1.0, 0.1, norm_convert(L1, b))


# K26: entries of an L1 vector of reals sum to its distance, but two entries may be far
# apart: amplification needs the release private against replacing an entry by any other
# (it was log(1 + 10(e − 1)/len(v)); at 6 entries of which one moves by 1 among spread
# values the exact loss of 3 sampled is 1.9899 where the formula gave 1.4338).
def sampled_l1_entries(v: MetricVector[L1, Real]) -> Priv[Real]:  # expect: v=(1, 0); accounting=sequential
    b, _rest = sample(10, v, v)  # E: DPS408
    return laplace_mechanism(1.0, 1.0, b[0])


def sample_of_a_sample(data: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: data=(log(1 + 1000*(-1/100 + E/100)/rows(data)), 0); accounting=basic
    # amplified twice: q = (1000/rows)·(10/1000) (the outer amplification used to be lost)
    b, _rest = sample(1000, data, data)
    c, _more = sample(10, b, b)
    return laplace_mechanism(2.0, 1.0, np.sum(undisc_container(clip(L1, c)), axis=0)[0])


def zcdp_callee(x: Real) -> Priv[Real]:  # expect: x=(1.76006, 1/100000); accounting=gdp
    return gaussian_mechanism_zcdp(1.0, 0.1, x)


def zcdp_group(x: Real) -> Priv[Real]:  # expect: x=(6.17450, 1/100000); accounting=gdp
    # 3x: the Gaussian's μ triples (9ρ), exact GDP; it was group privacy of (ε, δ): (6.74, 2.7e-3)
    return zcdp_callee(3 * x)


# A public scale joined from branches has no value to account with: (inf, inf), and
# DPS305 says why (it used to be silent).
def scale_from_a_branch(x: Real, flag: Static[bool]) -> Priv[Real]:  # expect: x=(inf, inf); flag=static; accounting=sequential  # E: DPS409
    s = 2.0 if flag else 1.0
    return laplace_mechanism(s, 1.0, x)  # E: DPS305


# D47: a bound derived under assumptions that can never hold together. Each was
# undecided alone (2*abs(s) <= s for a real s), but false under the sign another
# assumption gives (the mechanism's own s > 0, 1/b > 0): now the same DPS402 and
# (inf, inf) as a concretely too small s. They reported (eps, delta) before.
def scale_too_small(x: Real, s: Static[float], eps: Static[float], delta: Static[float]) -> Priv[Real]:  # expect: x=(inf, inf); s=static; eps=static; delta=static; accounting=sequential; assumes=delta < 1, delta > 0, eps > 0, s > 0
    return gaussian_mechanism(s, eps, delta, 2 * s * x)  # E: DPS402


def batch_scale_too_small(xs: MetricMatrix[L_inf, Data], k: Static[int], eps: Static[float], delta: Static[float], b: Static[int]) -> Priv[MetricVector[L2, Real]]:  # expect: xs=(inf, inf); k=static; eps=static; delta=static; b=static; accounting=basic; assumes=1/b > 0, b >= 1, delta < 1, delta > 0, eps > 0, k >= 0
    # the Duet gd-pb-mini pattern: the clipped batch mean is 2/b-sensitive, noised for 1/b
    theta = np.zeros(cols(xs))
    for _ in range(k):
        xb, _y = sample(b, xs, xs)
        avg = np.sum(undisc_container(clip(L2, xb)), axis=0) / b
        theta = theta + gaussian_mechanism(1.0 / b, eps, delta, avg)  # E: DPS402
    return theta


def batch_scale_enough(xs: MetricMatrix[L_inf, Data], k: Static[int], eps: Static[float], delta: Static[float], b: Static[int]) -> Priv[MetricVector[L2, Real]]:  # expect: xs=(k*log(b*(exp(eps) - 1)/rows(xs) + 1), b*delta*k/rows(xs)); k=static; eps=static; delta=static; b=static; accounting=basic; assumes=2/abs(b) <= 2/b, 2/b > 0, b >= 1, delta < 1, delta > 0, eps > 0, k >= 0
    # noised for 2/b: satisfiable (b > 0), unchanged
    theta = np.zeros(cols(xs))
    for _ in range(k):
        xb, _y = sample(b, xs, xs)
        avg = np.sum(undisc_container(clip(L2, xb)), axis=0) / b
        theta = theta + gaussian_mechanism(2.0 / b, eps, delta, avg)
    return theta


def scale_t(x: Real, s: Static[float], t: Static[float], eps: Static[float], delta: Static[float]) -> Priv[Real]:  # expect: x=(eps, delta); s=static; t=static; eps=static; delta=static; accounting=sequential; assumes=2*abs(s) <= t, delta < 1, delta > 0, eps > 0, t > 0
    return gaussian_mechanism(t, eps, delta, 2 * s * x)


def scale_t_at_s(x: Real, s: Static[float], eps: Static[float], delta: Static[float]) -> Priv[Real]:  # expect: x=(inf, inf); s=static; eps=static; delta=static; accounting=released; assumes=delta < 1, delta > 0, eps > 0, s > 0  # E: DPS403
    # the callee's 2*abs(s) <= t at t = s, after its t > 0 at t = s: DPS306, as for a number
    return scale_t(x, s, s, eps, delta)  # E: DPS306


def sign_recorded_later(x: Real, s: Static[float], t: Static[float], eps: Static[float], delta: Static[float]) -> Priv[Real]:  # expect: x=(inf, inf); s=static; t=static; eps=static; delta=static; accounting=sequential; assumes=-s > 0, abs(s - t) <= t, delta < 1, delta > 0, eps > 0, t > 0  # E: DPS306
    # abs(s - t) <= t is recorded first; -s > 0 (s < 0) comes later and rules it out
    a = gaussian_mechanism(t, eps, delta, (s - t) * x)
    return a + laplace_mechanism(-s, eps, x)


def opposite_scales(x: Real, t: Static[float], eps: Static[float]) -> Priv[Real]:  # expect: x=(inf, inf); t=static; eps=static; accounting=sequential; assumes=-t > 0, eps > 0, t > 0  # E: DPS306
    # t > 0 and -t > 0: the two charges eps/t and eps/(-t) cancelled to (0, 0)
    return laplace_mechanism(t, eps, x) + laplace_mechanism(-t, eps, x)


# K17: FMT needs a randomizer whose cost is bounded for any two records.
def shuffled_laplace(vals: MetricVector[L1, Integer]) -> Priv[MetricVector[L1, Real]]:  # expect: vals=(1, 0); accounting=sequential
    # was FMT on eps0 = 1, its cost at distance 1 (0.0694 at 100,000 users; truth ~1)
    return shuffle(lambda v: laplace_mechanism(1.0, 1.0, v), vals)


def shuffled_capped(vals: MetricVector[L1, Integer]) -> Priv[MetricVector[L1, Real]]:  # expect: vals=(log(1 + (1 - exp(-1/2))*(8*exp(1/2)/len(vals) + 8*exp(1/4)*sqrt(log(400000))/sqrt(len(vals)))/(1 + exp(-1/2)/(1 + 8*exp(1/2)/len(vals) + 8*exp(1/4)*sqrt(log(400000))/sqrt(len(vals))))), 1/100000); accounting=sequential; assumes=1/2 <= log(len(vals)/(16*log(400000)))
    # any change of an Integer record costs at most 1/2 (the clamp): amplified
    return shuffle(lambda v: local_laplace(0.5, v, 0.0, 10.0), vals)


def shuffled_wide(data: MetricMatrix[L_inf, Real]) -> Priv[MetricVector[L1, Real]]:  # expect: data=(1, 0); accounting=sequential
    # eps0 over the domain is 1000; was FMT on 1; rows that move by parts of 1 are no FMT neighbours
    return shuffle(lambda r: local_laplace(1000.0, r[0], 0.0, 1000.0), data)


# K18: parallel composition of charges that are not linear in the distance.
def tiny_width(x: Real) -> Local[Real]:  # expect: x=(1, 0); accounting=sequential
    return local_laplace(1.0, x, 0.0, 0.001)


def collected_tiny_width(vals: MetricVector[L1, Real]) -> Priv[MetricVector[L1, Real]]:  # expect: vals=(1000, 0); accounting=sequential
    # was 1; (0, 0) vs (0.5, 0.5) is 2 (each report pays the cap): the slope 1/0.001
    return map_rows(tiny_width, vals)


def looped_tiny_width(vals: MetricVector[L1, Real]) -> Priv[Real]:  # expect: vals=(1000, 0); accounting=sequential
    t = 0.0
    for e in vals:
        t = t + local_laplace(1.0, e, 0.0, 0.001)
    return t


def folded_tiny_width(m: MetricMatrix[L1, Real]) -> Priv[Real]:  # expect: m=(1000, 0); accounting=sequential
    def step(acc: Real, r1: MetricVector[L1, Real], r2: MetricVector[L1, Real]) -> Priv[Real]:
        return acc + local_laplace(1.0, r1[0], 0.0, 0.001)
    return parallel_fold_rows(step, 0.0, m, m)


def shuffled_tiny_width(vals: MetricVector[L1, Real]) -> Priv[MetricVector[L1, Real]]:  # expect: vals=(1000, 0); accounting=sequential
    # was FMT on 1 (0.0694 at 100,000 users; all 0 vs all 1e-5 is ~17.8)
    return shuffle(tiny_width, vals)


def integer_tiny_width(vals: MetricVector[L1, Integer]) -> Priv[MetricVector[L1, Real]]:  # expect: vals=(1, 0); accounting=sequential
    # a changed Integer entry is 1 away: the cap is paid once per unit
    return map_rows(tiny_width, vals)


def bucketed(vals: MetricVector[L1, Real]) -> Priv[MetricVector[L1, Real]]:  # expect: vals=(len(vals), 0); accounting=basic
    # was 1; (0.5, 0.5) vs (1, 1) is 2: any move may change a bucket, so every entry pays
    return map_rows(lambda v: kary_randomized_response(1.0, int(np.clip(v, 0, 3)), 4), vals)


# K19: amplification by sampling rows that a neighbour may all change a little.
def sampled_buckets(m: MetricMatrix[L1, Real]) -> Priv[Real]:  # expect: m=(10, 0); accounting=basic
    # was log(1 + 10(e^10 − 1)/rows(m)) (5.4 at 1,000 rows): every sampled row may change bucket
    d, _ = sample(10, m, m)  # E: DPS408
    t = 0.0
    for r in d:
        t = t + kary_randomized_response(1.0, int(np.clip(r[0], 0, 3)), 4)
    return t


# K20: an event charging a row and a capture together in parallel_fold_rows.
def fold_row_and_capture(m: MetricMatrix[L_inf, Data], x: Real) -> Priv[Real]:  # expect: m=(1/2, 0); x=(rows(m)/2, 0); accounting=basic, sequential
    # was DPS001 (the row's charge went into the per-row loop unattributed) and (inf, inf)
    def step(acc: Real, r1: MetricVector[L_inf, Data], r2: MetricVector[L_inf, Data]) -> Priv[Real]:
        return acc + laplace_mechanism(1.0, 0.5, float(np.clip(r1[0], 0.0, 1.0)) + x)
    return parallel_fold_rows(step, 0.0, m, m)


# K22: Gaussians on the entries compose in μ²: √(Σ_t d_t²) is the L2 distance itself
# (G = 1; it was √len(v), as for pure charges) and at most √len(v) times the L∞ one.
def gaussian_entries_l2(v: MetricVector[L2, Real]) -> Priv[Real]:  # expect: v=(4.37718, 1/100000); accounting=gdp
    s = 0.0
    for e in v:
        s = s + gaussian_mechanism_zcdp(1.0, 0.5, e)
    return s


def gaussian_entries_linf(v: MetricVector[L_inf, Real]) -> Priv[Real]:  # expect: v=(sqrt(2)*sqrt(len(v))*sqrt(log(100000)) + len(v)/2, 1/100000); accounting=zcdp
    s = 0.0
    for e in v:
        s = s + gaussian_mechanism_zcdp(1.0, 0.5, e)
    return s


# K23: a basic bound with δ ≥ 1 says nothing (every mechanism is (0, 1)-DP): any other
# theorem's bound with δ < 1 replaces it, whatever its ε (it was (53.0, 1) here).
def vacuous_basic_bound(v: MetricVector[L_inf, Real]) -> Priv[Real]:  # expect: v=(91.8173, 1/100000); accounting=gdp; assumes=len(v) == 100
    s = 0.0
    for e in np.zeros(100) + v:
        s = s + gaussian_mechanism_zcdp(1.0, 0.5, e)
    return s


# A loop count with only a public bound (an outer index) composes that many releases.
def triangular_releases(x: Real) -> Priv[Real]:  # expect: x=(2.90429, 1/100000); accounting=pld
    s = 0.0
    for i in range(70):
        for _ in range(i):
            s = s + laplace_mechanism(1.0, 0.01, x)
    return s


# K24: one release reached through two routes (a variable passed for two parameters, a
# row and the matrix it is in, one row given twice to parallel_fold_rows, a sample and
# its source) moves by both at once: group privacy over the routes, never the
# composition of two releases (μ₁ + μ₂, not √(μ₁² + μ₂²): same_value_twice was 2.94323).
def noisy_pair(x: Real, y: Real) -> Priv[Real]:  # expect: x=(1.99310, 1/100000); y=(1.99310, 1/100000); accounting=gdp
    return gaussian_mechanism_zcdp(2.0, 0.5, x + y)


def same_value_twice(x: Real) -> Priv[Real]:  # expect: x=(4.37718, 1/100000); accounting=gdp
    return noisy_pair(x, x)


def noisy_pairs(x: Real, y: Real) -> Priv[Real]:  # expect: x=(4.22035, 1/100000); y=(4.22035, 1/100000); accounting=pld
    t = 0.0
    for _ in range(100):
        t = t + laplace_mechanism(2.0, 0.2, x + y)
    return t


def same_value_twice_repeated(x: Real) -> Priv[Real]:  # expect: x=(9.38192, 1/100000); accounting=pld
    return noisy_pairs(x, x)


def row_and_its_matrix(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(rows(m)/2 + 2*sqrt(rows(m)/2 + 3/2)*sqrt(log(100000)) + 3/2, 1/100000); accounting=zcdp
    t = 0.0
    for r in m:
        total = count(lambda z: z[0] > 0.0, m)
        t = t + gaussian_mechanism_zcdp(1.0, 0.5, float(np.clip(r[0], 0.0, 1.0)) + total)
    return t


def one_row_given_twice(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(4.37718, 1/100000); accounting=gdp
    def step(acc: Real, r1: MetricVector[L_inf, Data], r2: MetricVector[L_inf, Data]) -> Priv[Real]:
        return acc + gaussian_mechanism_zcdp(2.0, 0.5, float(np.clip(r1[0], 0.0, 1.0))
                                             + float(np.clip(r2[1], 0.0, 1.0)))
    return parallel_fold_rows(step, 0.0, m, m)


# (the release reads rows of the sample beside the whole matrix: no amplification)
def sample_and_its_source(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(1.99310, 1/100000); accounting=gdp
    b, _ = sample(500, m, m)
    both = count(lambda r: r[0] > 0.0, m) + count(lambda r: r[0] > 0.0, b)
    return gaussian_mechanism_zcdp(2.0, 0.125, both)


# Duet's gd-pb: σ(s, ε, δ) = s·σ(1, ε, δ), so a sensitivity 2/rows(xs) still gives every
# step a numeric μ = r/σ, and 100 steps compose exactly in Gaussian DP (it was basic
# composition, (10, 1/10000), because σ was symbolic).
def gradient_descent_symbolic_rows(xs: MetricMatrix[L_inf, Data], eta: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: xs=(1.03035, 1/100000); eta=static; assumes=cols(xs) == 3; accounting=gdp
    theta = np.zeros(3)
    for _ in range(100):
        g = np.mean(undisc_container(clip(L2, xs)), axis=0)
        theta = theta - eta * gaussian_mechanism(2.0 / rows(xs), 0.1, 1e-6, g)
    return theta


# Rows read through enumerate() are still read once each: parallel composition.
def enumerated_rows(m: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: m=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    out = 0.0
    for i, r in enumerate(m):
        out = out + laplace_mechanism(1.0, eps, float(np.clip(r[0], 0.0, 1.0)))
    return out


# (K24, continued) rows of a sample released with a count over its source, in a loop:
# every iteration pays the release unamplified (it was amplified: 5.00918 at rows 10,
# truth 6.76787; found by an adversarial review).
def sampled_rows_and_their_source(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(9.99726, 1/100000); accounting=gdp
    b, _ = sample(1, m, m)
    t = 0.0
    for r in b:
        total = count(lambda z: z[0] > 0.0, m)
        t = t + gaussian_mechanism_zcdp(1.0, 0.5, float(np.clip(r[0], 0.0, 1.0)) + total)
    return t


# K25: a query or utility whose result is a Data value may move by any amount when the
# data moves (a Data value is 1 away from every other): above_threshold and the
# exponential mechanism charged it as 1-sensitive (ε 1, truth unbounded).
def threshold_on_a_data_value(x: Data) -> Priv[Integer]:  # expect: x=(inf, 0); accounting=sequential
    return above_threshold((lambda d: d,), 1.0, x, 0.0)  # E: DPS404


def utility_of_a_data_value(x: Data) -> Priv[Real]:  # expect: x=(inf, 0); accounting=sequential  # E: DPS409
    return exponential_mechanism(1.0, 1.0, (0.0, 1.0), lambda d, c: c * d, x)


# R-observed: whether a privacy function raises is seen by its caller, and so is what it
# gives code dpsens cannot see (print): both were (0, 0) in the data they depend on.
def asserted_on_data(x: Real, y: Real) -> Priv[Real]:  # expect: x=(inf, inf); y=(1, 0); accounting=released, sequential  # E: DPS403
    assert x > 0.0  # x = 0.5 returns a number, x = -0.5 raises every time
    return laplace_mechanism(1.0, 1.0, y)


def raised_on_data(x: Real, y: Real) -> Priv[Real]:  # expect: x=(inf, inf); y=(1, 0); accounting=released, sequential  # E: DPS403
    if x > 0.0:
        raise ValueError("positive")
    return laplace_mechanism(1.0, 1.0, y)


def printed_data(x: Real, y: Real) -> Priv[Real]:  # expect: x=(inf, inf); y=(1, 0); accounting=released, sequential  # E: DPS403
    print(x)  # E: DPS203
    return laplace_mechanism(1.0, 1.0, y)


def _positive(x: Real) -> Real:  # expect: x=0
    assert x > 0.0  # a sensitivity function's bound holds wherever it returns
    return 0.0


def asserted_by_a_helper(x: Real, y: Real) -> Priv[Real]:  # expect: x=(inf, inf); y=(1, 0); accounting=released, sequential  # E: DPS403
    _positive(x)
    return laplace_mechanism(1.0, 1.0, y)


def raised_on_data_in_a_loop(v: MetricVector[L1, Real], k: Static[int]) -> Priv[Real]:  # expect: v=(inf, inf); k=static; assumes=k >= 0; accounting=released  # E: DPS403
    acc = 0.0
    for i in range(k):
        if v[i] > 3.0:
            raise ValueError("large")
        acc = acc + laplace_mechanism(1.0, 1.0, float(np.clip(v[i], 0.0, 1.0)))
    return acc


def checked_public_parameters(x: Real, eps: Static[float]) -> Priv[Real]:  # expect: x=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    if eps <= 0.0:
        raise ValueError("eps must be positive")
    assert eps < 100.0, "eps is too large"
    return laplace_mechanism(1.0, eps, x)


def raised_on_a_released_value(x: Real) -> Priv[Real]:  # expect: x=(1, 0); accounting=sequential
    y = laplace_mechanism(1.0, 1.0, x)
    if y > 1e9:
        raise ValueError("implausible")  # post-processing: seen, but it shows only y
    return y


def raised_as_often_as_data_says(v: MetricVector[L1, Data], eps: Static[float]) -> Priv[Real]:  # expect: v=(inf, inf); eps=static; assumes=eps > 0; accounting=released  # E: DPS403
    kept = [e for e in v if e > 0.5]
    for e in kept:  # as many iterations as kept entries: whether it raises depends on them
        if eps > 1.0:
            raise ValueError("eps")
    return laplace_mechanism(1.0, eps, float(np.count_nonzero(v)))


def written_into_the_callers_array(x: Real, out: Static[MetricVector[L1, Real]]) -> Priv[Real]:  # expect: x=(inf, inf); out=static; accounting=released  # E: DPS403
    out[0] = x  # E: DPS205
    return laplace_mechanism(1.0, 1.0, 0.0)


# R-observed, found by a review of it: effects with public inputs, in one arm of an
# expression, or inside statements dpsens does not analyze, were not seen.
def _always_fails() -> Real:  # expect: returns=None
    raise ValueError("always")


def _raises_above(t: Real) -> Real:  # expect: t=0
    if t > 0.5:
        raise ValueError("above")
    return 0.0


def printed_under_a_test(x: Real, y: Real) -> Priv[Real]:  # expect: x=(inf, inf); y=(1, 0); accounting=released, sequential  # E: DPS403
    if x > 0.5:
        print("big")  # prints for x = 0.6, not for x = 0.4
    return laplace_mechanism(1.0, 1.0, y)


def raised_in_one_arm(x: Real, y: Real) -> Priv[Real]:  # expect: x=(inf, inf); y=(1, 0); accounting=released, sequential  # E: DPS403
    z = _always_fails() if x > 0.5 else 0.0
    return laplace_mechanism(1.0, 1.0, y)


def raised_after_and(x: Real, y: Real) -> Priv[Real]:  # expect: x=(inf, inf); y=(1, 0); accounting=released, sequential  # E: DPS403
    z = x > 0.5 and _always_fails() > 0.0
    return laplace_mechanism(1.0, 1.0, y)


def stored_at_a_data_index(x: Integer, out: Static[MetricVector[L1, Real]]) -> Priv[Real]:  # expect: x=(inf, inf); out=static; accounting=released  # E: DPS403
    out[x] = 1.0  # E: DPS205
    return laplace_mechanism(1.0, 1.0, 0.0)


def raised_inside_try(x: Real, y: Real) -> Priv[Real]:  # expect: x=(inf, inf); y=(inf, inf); accounting=released  # E: DPS403
    try:  # E: DPS201
        _raises_above(x)
    finally:
        pass
    return laplace_mechanism(1.0, 1.0, y)


def raised_on_an_entry(v: MetricVector[L1, Real], y: Real) -> Priv[Real]:  # expect: v=(inf, inf); y=(1, 0); accounting=released, sequential  # E: DPS403
    for e in v:
        if e > 0.5:
            raise ValueError("large")  # shows v's entries; y is charged only its release
    return laplace_mechanism(1.0, 1.0, y)


def randomized_over_40(age: Real, eps: Static[float]) -> Priv[Data]:  # expect: age=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    return randomized_response(eps, age > 40.0)  # a bit flips at most once: eps (it was inf)


# A public companion shows which rows were drawn: nothing is amplified (D126 claimed
# log(1 + 2*(e - 1)/rows) while the released ids give the sample away).
def public_companion(m: MetricMatrix[L_inf, Data], ids: Static[MetricMatrix[L_inf, Real]]) -> Priv[Real]:  # expect: m=(1, 0); ids=static; accounting=sequential
    batch, batch_ids = sample(2, m, ids)  # E: DPS408
    noisy = laplace_mechanism(1.0, 1.0, count(lambda r: r[0] > 0.0, batch))
    return noisy + 10000.0 * batch_ids[0][0] + 10000000.0 * batch_ids[1][0]


# R-tuple-choice: a scale picked among public candidates by a mechanism is post-processing
# (Duet's adaptive clipping; it was DPS301 and (∞, ∞)).
def scale_picked_by_a_mechanism(v: MetricVector[L1, Data], eps: Static[float]) -> Priv[Real]:  # expect: v=(2*eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    counts = (float(np.sum(v == 0.0)), float(np.sum(v == 1.0)), float(np.sum(v == 2.0)))
    b = report_noisy_max(1.0, eps, counts)
    scale = (1.0, 10.0, 100.0)[b]
    return scale * laplace_mechanism(1.0, eps, float(np.sum(np.clip(v, 0.0, 1.0))))


def _weights_total(w: Static[MetricVector[L1, Real]]) -> Real:  # expect: w=static
    return float(np.sum(w))


# A model computed only from noised values is public (MWEM's weights, the review of the
# literature's tools): findings about it at the start of an iteration wait until the loop
# is solved (they were DPS305 and DPS304 errors, with the run failing).
def weights_from_noised_answers(v: MetricVector[L1, Data], T: Static[int]) -> Priv[Real]:  # expect: v=(T/10, 0); T=static; assumes=T >= 0; accounting=basic
    syn = np.ones(4)
    t = 0.0
    for _ in range(T):
        q = laplace_mechanism(1.0, 0.1, float(count(lambda e: e < 1.0, v)))
        w = np.ones(4)
        for j in range(4):
            if j < q:
                w[j] = 2.0
        syn = syn * w
        t = t + _weights_total(syn)
    return t


def weights_from_the_data(v: MetricVector[L1, Real], T: Static[int]) -> Real:  # expect: v=inf; T=static; assumes=T >= 0
    syn = np.clip(v, 0.0, 1.0)  # not public: the findings stand, once each
    t = 0.0
    for _ in range(T):
        w = np.ones(len(v))
        for j in range(3):
            if j < t:
                w[j] = 2.0
        syn = syn * w  # E: DPS305
        t = t + _weights_total(syn)  # E: DPS304
    return t


# D136: a function given to a builtin wrote what it was given into values it captures.
# above_threshold's query was analyzed for its sensitivity, but what it wrote kept the
# query's own variable, which no parameter stood for: the data was returned at (eps, 0).
def query_writes_what_it_reads(v: MetricVector[L_inf, Real], eps: Static[float]) -> Priv[Real]:  # expect: v=(inf, inf); eps=static; assumes=eps > 0; accounting=released  # E: DPS403
    w = np.zeros(1)

    def query(d: MetricVector[L_inf, Real]) -> Real:
        w[0] = d[0]
        return d[0]
    above_threshold((query,), eps, v, 0.0)  # E: DPS405
    return float(w[0])


def query_appends_what_it_reads(v: MetricVector[L_inf, Real], eps: Static[float]) -> Priv[list[Real]]:  # expect: v=(inf, inf); eps=static; assumes=eps > 0; accounting=released  # E: DPS403
    seen = []

    def query(d: MetricVector[L_inf, Real]) -> Real:
        seen.append(d[0])
        return d[0]
    above_threshold((query,), eps, v, 0.0)  # E: DPS405
    return seen


def query_reads_what_another_wrote(v: MetricVector[L_inf, Real], eps: Static[float]) -> Priv[Integer]:  # expect: v=(inf, 0); eps=static; assumes=eps > 0; accounting=sequential
    w = np.zeros(1)

    def first(d: MetricVector[L_inf, Real]) -> Real:
        w[0] = d[0]
        return d[0]

    def second(d: MetricVector[L_inf, Real]) -> Real:
        return 1000.0 * float(w[0])
    return above_threshold((first, second), eps, v, 0.0)  # E: DPS404  # E: DPS405


def rows_written_out(m: MetricMatrix[L_inf, Data]) -> Real:  # expect: m=inf
    w = np.zeros(1)

    def g(r: MetricVector[L_inf, Data]) -> Real:
        w[0] += 1000.0 * float(np.clip(r[0], 0.0, 1.0))
        return 0.0
    map_rows(g, m)  # E: DPS405
    return float(w[0])


def queries_listed_in_a_loop(v: MetricVector[L_inf, Real], eps: Static[float]) -> Priv[Integer]:  # expect: v=(inf, inf); eps=static; assumes=eps > 0; accounting=released  # E: DPS403
    queries = [lambda d: d[0]]
    for _ in range(3):
        queries.append(lambda d: d[1])  # E: DPS203
    return above_threshold(queries, eps, v, 0.0)  # E: DPS203  # E: DPS404


# Two releases of entries of an (L∞, Real) vector cost 2ε, not ε·len(q): k iterations read
# k elements, each at most the vector away (the standard abstraction of SVT's queries).
def two_of_many_queries(q: MetricVector[L_inf, Real], eps: Static[float]) -> Priv[list[Real]]:  # expect: q=(eps*min(2, len(q)), 0); eps=static; assumes=eps > 0; accounting=sequential
    out = []
    for i in range(2):
        out.append(laplace_mechanism(1.0, eps, q[i]))
    return out


# A released center carried by a loop of k rounds (k-means, DP-EM): it is public in every
# round, so the count that compares rows with it is 1-sensitive. A count kept in a number
# local to the body (n += 1) turned R-loop-public off, as an array changed in place does:
# (inf, 0), truth k·eps.
def carried_center(X: MetricMatrix[L_inf, Data], eps: Static[float], k: Static[int]) -> Priv[Real]:  # expect: X=(eps*k, 0); eps=static; k=static; assumes=eps > 0, k >= 0; accounting=basic
    center = 0.25
    for _ in range(k):
        below = 0.0
        for r in X:
            if r[0] < center:
                below += 1.0
        center = laplace_mechanism(1.0, eps, below)
    return center


# K29, found by the review of it: a closure the query saves still read the query's own
# argument after the builtin, though the list holding it was re-measured: returning what
# it computes was (eps, 0), truth (inf, inf); noised, it was DPS001.
def query_saves_a_closure(v: MetricVector[L1, Real], eps: Static[float]) -> Priv[Real]:  # expect: v=(inf, inf); eps=static; assumes=eps > 0; accounting=released  # E: DPS403
    box = []

    def query(d: MetricVector[L1, Real]) -> Real:
        box.append(lambda: d[0])
        return float(np.sum(d))
    above_threshold((query,), eps, v, 0.0)  # E: DPS405
    return float(box[0]())  # E: DPS203


def query_saves_a_noised_closure(v: MetricVector[L1, Real], eps: Static[float]) -> Priv[Real]:  # expect: v=(inf, inf); eps=static; assumes=eps > 0; accounting=released  # E: DPS403
    box = []

    def query(d: MetricVector[L1, Real]) -> Real:
        box.append(lambda: 1000.0 * d[0])
        return float(np.sum(d))
    above_threshold((query,), eps, v, 0.0)  # E: DPS405
    return laplace_mechanism(1.0, eps, float(box[0]()))  # E: DPS203


# A count reset only in the first round carries over: round j releases a j-sensitive count
# (k(k+1)/2·eps in all). Only a number the body sets before reading it is local to it.
def count_kept_across_rounds(X: MetricMatrix[L_inf, Data], eps: Static[float], k: Static[int]) -> Priv[Real]:  # expect: X=(inf, 0); eps=static; k=static; assumes=eps > 0, k >= 0; accounting=basic  # E: DPS409
    center = 0.25
    first = True
    for _ in range(k):
        if first:
            below = 0.0
            first = False
        for r in X:
            if r[0] < center:
                below += 1.0
        center = laplace_mechanism(1.0, eps, below)
    return center



def misaligned_routes(x: Real, y: Real) -> Priv[Real]:  # expect: x=(4.40247, 1/100000); y=(4.40247, 1/100000); accounting=gdp
    a = gaussian_mechanism_zcdp(1.0, 0.005, x)
    b = gaussian_mechanism_zcdp(1.0, 0.5, x + y)
    c = gaussian_mechanism_zcdp(1.0, 0.005, y)
    return a + b + c


def misaligned_routes_same_value(z: Real) -> Priv[Real]:  # expect: z=(15.5553, 1/100000); accounting=gdp
    # review32 U1: x's history is A, B and y's is B, C. Pairing them by position paid
    # B moved by 1 twice (7.36597); the truth is mu = sqrt(0.01 + 4 + 0.01): 10.0280.
    return misaligned_routes(z, z)


def sampled_count(data: MetricMatrix[L_inf, Data], k: Static[int]) -> Priv[Real]:  # expect: data=(log(k*(-1 + E)/rows(data) + 1), 0); k=static; accounting=basic; assumes=k >= 1
    rows_drawn, _ = sample(k, data, data)
    return laplace_mechanism(1.0, 1.0, count(lambda r: r[0] > 0.0, rows_drawn))


# review32 C1: k = -5 reached the amplification formula: a negative epsilon, and with
# rows bound, a complex number (exit 2). The runtime refuses k < 1: so does the call.
def sampled_with_a_negative_count(data: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: data=(inf, inf); accounting=released  # E: DPS403
    return sampled_count(data, -5)  # E: DPS306


# D149 (U5): a loop over a list its body appends to was counted at the list's starting
# length, one release; Python runs four: reported (eps, 0); truth (4 eps, 0).
def released_per_element_of_a_growing_list(x: Real, eps: Static[float]) -> Priv[Real]:  # expect: x=(inf, inf); eps=static; accounting=released  # E: DPS403
    xs = [x]
    s = 0.0
    for v in xs:  # E: DPS207
        s = s + laplace_mechanism(1.0, eps, v)
        if len(xs) < 4:
            xs.append(v)
    return s


def released_per_element_of_a_copy(x: Real, eps: Static[float]) -> Priv[Real]:  # expect: x=(2*eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    xs = [x, x]
    s = 0.0
    for i in range(len(xs)):  # evaluated once: two releases
        s = s + laplace_mechanism(1.0, eps, xs[i])
        xs.append(xs[i])
    return s


# review35: a Gaussian on the Gram matrix of unit-L2 rows given s = 1 (the Frobenius
# sensitivity is sqrt(2), dpsens's bound 4*cols(data)**(3/2)) was (1, 1e-5) under the
# assumption 4*cols(data)**(3/2) <= 1, which no number of columns meets: an assumption
# on sizes alone that is false at every size is a violated one (DPS306, ∞).
def gram_under_an_impossible_size(data: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: data=(inf, inf); accounting=sequential; assumes=4*cols(data)**(3/2) <= 1  # E: DPS306
    x = undisc_container(clip(L2, data))
    return float(np.sum(gaussian_mechanism(1.0, 1.0, 1e-5, x.T @ x)))


# A size condition that holds for some sizes stays an assumption; one that holds for small
# inputs only (up to 4 columns here) is also a warning, DPS410 (D153).
def gram_of_few_columns(data: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: data=(1, 1/100000); accounting=sequential; assumes=4*cols(data)**(3/2) <= 32  # E: DPS410
    x = undisc_container(clip(L2, data))
    return float(np.sum(gaussian_mechanism(32.0, 1.0, 1e-5, x.T @ x)))


# review35: a loop of a known count whose index picks its rows was run iteration by
# iteration, because of its public running total, and lost R-loop-rows (rows·ε at
# --bind rows(data)=10, 1 without): the running total of releases drives no public value.
def rows_of_a_short_loop(data: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: data=(1, 0); accounting=sequential
    total = 0.0
    for i in range(10):
        total = total + laplace_mechanism(1.0, 1.0, float(np.clip(data[i, 0], 0.0, 1.0)))
    return total


# review35: Duet's idiom sample(b, X, y) with X and y column slices of one dataset paid a
# group of 2 (a change reaches both outputs), where a changed record is one row of each,
# the same joint row: as sample(b, data, data). Rows read another way stay a group.
def sampled_columns_of_one_dataset(data: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: data=(log(1 + 10*(-1 + exp(2))/rows(data)), 0); accounting=basic
    X, y = data[:, :1], data[:, 1:]
    bx, by = sample(10, X, y)
    return laplace_mechanism(1.0, 1.0, count(lambda r: r[0] > 0.5, bx) + count(lambda r: r[0] > 0.5, by))


def sampled_columns_in_other_rows(data: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: data=(2*log(1 + 10*(-1 + exp(2))/rows(data)), 0); accounting=basic
    X, y = data[:, :1], data[::-1, 1:]
    bx, by = sample(10, X, y)
    return laplace_mechanism(1.0, 1.0, count(lambda r: r[0] > 0.5, bx) + count(lambda r: r[0] > 0.5, by))
