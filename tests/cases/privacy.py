"""Privacy functions: mechanisms, composition, post-processing, calls, corrections."""

import numpy as np

from dpsens import (
    Data, Integer, L1, L2, L_inf, MetricMatrix, MetricVector, Priv, PrivacyFunction, Real, Static, above_threshold,
    clip, count, fold, map_rows,
    gaussian_mechanism, gaussian_mechanism_zcdp, laplace_mechanism, norm_convert,
    exponential_mechanism, parallel_fold_rows, randomized_response, report_noisy_max, rows, sample, undisc_container,
)


def laplace_scalar(x: Real, eps: Static[float]) -> Priv[Real]:  # expect: x=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    return laplace_mechanism(1.0, eps, x)


def laplace_scaled(x: Real) -> Priv[Real]:  # expect: x=(1/5, 0); accounting=sequential
    return laplace_mechanism(10.0, 1.0, 2 * x)


def post_processing(x: Real) -> Priv[Real]:  # expect: x=(1, 0); accounting=sequential
    noisy = laplace_mechanism(1.0, 1.0, x)
    return 2 * noisy + noisy * noisy


def sequential(x: Real, y: Real) -> Priv[Real]:  # expect: x=(3/2, 0); y=(1/2, 0); accounting=sequential
    a = laplace_mechanism(1.0, 1.0, x)
    b = laplace_mechanism(1.0, 0.5, x + y)
    return a + b


def released(x: Real, eps: Static[float]) -> Priv[Real]:  # expect: x=(inf, inf); eps=static; accounting=released; assumes=eps > 0  # E: DPS403
    return x + laplace_mechanism(1.0, eps, x)


def laplace_needs_l1(v: MetricVector[L2, Real]) -> Priv[MetricVector[L2, Real]]:  # expect: v=(inf, inf); accounting=sequential
    return laplace_mechanism(1.0, 1.0, v)  # E: DPS401


def laplace_after_conversion(v: MetricVector[L2, Real]) -> Priv[MetricVector[L1, Real]]:  # expect: v=(sqrt(len(v)), 0); accounting=sequential
    return laplace_mechanism(1.0, 1.0, norm_convert(L1, v))


def gaussian_rows(m: MetricMatrix[L_inf, Data], eps: Static[float], delta: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: m=(eps, delta); eps=static; delta=static; accounting=sequential; assumes=delta < 1, delta > 0, eps > 0
    total = np.sum(undisc_container(clip(L2, m)), axis=0)
    return gaussian_mechanism(2.0, eps, delta, total)


def gaussian_too_sensitive(m: MetricMatrix[L_inf, Data]) -> Priv[MetricVector[L2, Real]]:  # expect: m=(inf, inf); accounting=sequential
    total = np.sum(undisc_container(clip(L2, m)), axis=0)
    return gaussian_mechanism(1.0, 1.0, 1e-5, total)  # E: DPS402


def hundred_laplace(x: Real) -> Priv[Real]:  # expect: x=(4.22035, 1/100000); accounting=pld
    total = 0.0
    for _ in range(100):
        total = total + laplace_mechanism(1.0, 0.1, x)
    return total


def hundred_gaussians(x: Real) -> Priv[Real]:  # expect: x=(9.99726, 1/100000); accounting=gdp
    total = 0.0
    for _ in range(100):
        total = total + gaussian_mechanism_zcdp(1.0, 0.02, x)
    return total


def symbolic_loop(x: Real, k: Static[int], eps: Static[float]) -> Priv[Real]:  # expect: x=(eps*k, 0); k=static; eps=static; accounting=basic; assumes=eps > 0, k >= 0
    total = 0.0
    for _ in range(k):
        total = total + laplace_mechanism(1.0, eps, x)
    return total


def public_branch(x: Real, flag: Static[bool]) -> Priv[Real]:  # expect: x=(1, 0); flag=static; accounting=sequential
    if flag:
        return laplace_mechanism(1.0, 1.0, x)
    return laplace_mechanism(1.0, 0.5, x)


def caller(x: Real) -> Priv[Real]:  # expect: x=(3, 0); accounting=sequential
    return laplace_scalar(x, 1.0) + laplace_scalar(2 * x, 1.0)


def subsampled(m: MetricMatrix[L_inf, Data]) -> Priv[MetricVector[L2, Real]]:  # expect: m=(log(1 + 10*(-1 + E)/rows(m)), 0); accounting=basic
    batch, _ = sample(10, m, m)
    total = np.sum(undisc_container(clip(L1, batch)), axis=0)
    return laplace_mechanism(2.0, 1.0, norm_convert(L1, total))


def higher_order(f: PrivacyFunction, x: Real) -> Priv[Real]:  # expect: x=(eps(f), delta(f)); f=static; accounting=sequential
    return f(x)


def randomized(bit: Data, eps: Static[float]) -> Priv[Data]:  # expect: bit=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    return randomized_response(eps, bit)


def noisy_max(scores: MetricVector[L_inf, Real]) -> Priv[int]:  # expect: scores=(1/2, 0); accounting=sequential
    return report_noisy_max(2.0, 1.0, scores)


def mechanism_outside_privacy(x: Real) -> Real:  # expect: x=inf; returns=unknown
    return laplace_mechanism(1.0, 1.0, x)  # E: DPS302


def noisy_rows(data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[MetricVector[L1, Real]]:  # expect: data=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    return map_rows(lambda r: laplace_mechanism(1.0, eps, np.clip(r[0], 0.0, 1.0)), data)


def noisy_rows_capture(data: MetricMatrix[L_inf, Data], x: Real, eps: Static[float]) -> Priv[MetricVector[L1, Real]]:  # expect: data=(0, 0); x=(eps*rows(data), 0); eps=static; accounting=basic; assumes=eps > 0
    return map_rows(lambda r: laplace_mechanism(1.0, eps, x), data)


def noisy_fold(v: MetricVector[L1, Real], eps: Static[float]) -> Priv[Real]:  # expect: v=(inf, 0); eps=static; accounting=sequential; assumes=eps > 0
    return fold(lambda acc, e: acc + laplace_mechanism(1.0, eps, acc), 0.0, v)  # E: DPS405


def conditional_expression(x: Real, flag: Static[bool]) -> Priv[Real]:  # expect: x=(2, 0); flag=static; accounting=sequential
    return laplace_mechanism(1.0, 2.0, x) if flag else laplace_mechanism(1.0, 1.0, x)


def first_large_count(xs: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[int]:  # expect: xs=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    return above_threshold((lambda d: count(lambda r: r[0] > 1.0, d),
                            lambda d: count(lambda r: r[0] > 2.0, d)), eps, xs, 10.0)


def first_large_half_count(xs: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[int]:  # expect: xs=(eps/2, 0); eps=static; accounting=sequential; assumes=eps > 0
    # 1/2-sensitive queries under noise calibrated for 1: the algorithm calibrated for 1/2 at eps/2
    return above_threshold((lambda d: 0.5 * count(lambda r: r[0] > 1.0, d),
                            lambda d: 0.5 * count(lambda r: r[0] > 2.0, d)), eps, xs, 10.0)


def first_large_double_count(xs: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[int]:  # expect: xs=(inf, 0); eps=static; accounting=sequential; assumes=eps > 0
    return above_threshold((lambda d: 2.0 * count(lambda r: r[0] > 1.0, d),), eps, xs, 10.0)  # E: DPS404


def first_crossing_mixed(x: Real, eps: Static[float]) -> Priv[int]:  # expect: x=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    # queries moving both ways: the exact loss reaches 3/4 of eps (all moving up: 1/2)
    return above_threshold((lambda d: d, lambda d: d, lambda d: d, lambda d: -d), eps, x, 0.0)


def first_crossing_mixed_half(x: Real, eps: Static[float]) -> Priv[int]:  # expect: x=(eps/2, 0); eps=static; accounting=sequential; assumes=eps > 0
    return above_threshold((lambda d: 0.5 * d, lambda d: 0.5 * d, lambda d: 0.5 * d,
                            lambda d: -0.5 * d), eps, x, 0.0)


def _closeness(d: MetricMatrix[L_inf, Data], c: Real) -> Real:  # expect: d=1; c=inf
    return -abs(count(lambda r: r[0] < c, d) - rows(d) / 2)


# The chosen candidate is a public number: post-processing it is free.
def median_doubled(data: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: data=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    m = exponential_mechanism(1.0, eps, (0.0, 1.0, 2.0, 3.0), _closeness, data)
    return 2.0 * m + 1.0


# parallel_fold_rows with a nested def (it was (inf, inf) in both with a wrong DPS403 on l):
# each row's release is paid once; what f returns un-noised is released.
def parallel_nested_def(m: MetricMatrix[L_inf, Data], l: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(1/2, 0); l=(0, 0); accounting=sequential
    def step(acc: Real, r1: MetricVector[L_inf, Data], r2: MetricVector[L_inf, Data]) -> Priv[Real]:
        return acc + laplace_mechanism(1.0, 0.5, float(np.clip(r1[0], 0.0, 1.0)))
    return parallel_fold_rows(step, 0.0, m, l)


def parallel_leaks_a_row(m: MetricMatrix[L_inf, Data], l: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(inf, inf); l=(0, 0); accounting=sequential
    def step(acc: Real, r1: MetricVector[L_inf, Data], r2: MetricVector[L_inf, Data]) -> Priv[Real]:
        return acc + float(np.clip(r1[0], 0.0, 1.0))
    return parallel_fold_rows(step, 0.0, m, l)  # E: DPS403


def parallel_leaks_the_start(x: Real, m: MetricMatrix[L_inf, Data], l: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: x=(inf, inf); m=(1/2, 0); l=(0, 0); accounting=sequential
    def step(acc: Real, r1: MetricVector[L_inf, Data], r2: MetricVector[L_inf, Data]) -> Priv[Real]:
        return acc + laplace_mechanism(1.0, 0.5, float(np.clip(r1[0], 0.0, 1.0)))
    return parallel_fold_rows(step, x, m, l)  # E: DPS403


def _gaussians(data: MetricMatrix[L_inf, Data], k: Static[int], eps: Static[float], delta: Static[float]) -> Priv[Real]:  # expect: data=(eps*k, delta*k); k=static; eps=static; delta=static; assumes=delta < 1, delta > 0, eps > 0, k >= 0; accounting=basic
    acc = 0.0
    for _ in range(k):
        acc = acc + gaussian_mechanism(1.0, eps, delta, count(lambda r: r[0] > 0, data))
    return acc


# A callee's symbolic Gaussians get their zCDP form once the call binds eps and delta
# (it used to fall back to basic composition, 11/2, while the inline loop gave 2.82944);
# split from the exponential mechanism, they are exactly μ-GDP: 1.52254 + 0.5; composed
# with the worst 0.5-DP mechanism in one PLD, 1.97686.
def gaussians_then_a_choice(data: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: data=(1.97686, 1/100000); accounting=pld
    released = _gaussians(data, 10, 0.5, 1e-6)
    choice = exponential_mechanism(1.0, 0.5, (0.01, 0.1), _closeness, data)
    return released + choice


# Adaptive clipping (Duet's example): a threshold picks the scale, then 100 Gaussians.
# The Gaussians are exactly 1.03035-DP at δ' (μ-GDP) and the threshold 0.05-DP: split,
# 1.08035; in one PLD with the worst 0.05-DP mechanism, 1.04768; zCDP of the whole gave
# 1.14511 (the review of the literature's tools).
def threshold_then_gaussians(data: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: data=(1.04768, 1/100000); accounting=pld
    picked = above_threshold((lambda d: count(lambda r: r[0] > 0.0, d),), 0.05, data, 5.0)
    acc = 0.0
    for _ in range(100):
        acc = acc + gaussian_mechanism(1.0, 0.1, 1e-6, count(lambda r: r[0] > 0, data))
    return acc * picked


# --- a budget computed in floats is charged at its largest float (D46) -----------------------


def laplace_budget_less_a_tenth(x: Real, eps: Static[float]) -> Priv[Real]:  # expect: x=(eps + 1.67e-16*abs(eps) - 0.0999999999999999833, 0); eps=static; accounting=sequential; assumes=eps + 1.67e-16*abs(eps) - 0.0999999999999999833 > 0
    return laplace_mechanism(1.0, eps - 0.1, x)  # 0.1 is not 1/10: eps - 1/10 may be below the float


def laplace_budget_less_a_tenth_at_three_tenths(x: Real) -> Priv[Real]:  # expect: x=(0.2, 0); accounting=sequential
    return laplace_budget_less_a_tenth(x, 0.1 + 0.2)  # 0.20000000000000004 (within 1e-12 of 0.2)


# McSherry–Talwar's digital-goods auction: the utility multiplies the public candidate
# price by a count; for each price p ≤ 1 it is p-sensitive, so s = 1 gives eps (the
# candidate was taken for a sensitive real: inf).
def auction(bids: MetricVector[L1, Data], eps: Static[float]) -> Priv[Real]:  # expect: bids=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    return exponential_mechanism(1.0, eps, (0.25, 0.5, 0.75, 1.0),
                                 lambda d, p: p * float(count(lambda b: b >= p, d)), bids)


# Prices up to 2: the utility is 2-sensitive, so s = 1 costs 2·eps.
def auction_of_higher_prices(bids: MetricVector[L1, Data], eps: Static[float]) -> Priv[Real]:  # expect: bids=(2*eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    return exponential_mechanism(1.0, eps, (0.5, 2.0),
                                 lambda d, p: p * float(count(lambda b: b >= p, d)), bids)


# Frank–Wolfe's vertex choice: a public sign per candidate times a clipped sum.
def signed_vertex(data: MetricVector[L1, Data], eps: Static[float]) -> Priv[Real]:  # expect: data=(eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    return exponential_mechanism(1.0, eps, (0.0, 1.0, 2.0, 3.0),
                                 lambda d, c: (-1.0 if c < 1.5 else 1.0) * float(np.sum(np.clip(d, 0.0, 1.0))),
                                 data)


# Duet's gradient descent (gd-pb) through a callee: the callee's noise scale is symbolic
# in the data's size, but σ/r is a number once eps and delta are (it was basic
# composition, (10, 1/10000), while the same loop written inline gives 1.03035).
def _descent(m: MetricMatrix[L_inf, Data], k: Static[int], eps: Static[float], delta: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: m=(eps*k, delta*k); k=static; eps=static; delta=static; accounting=basic; assumes=cols(m) == 3, delta < 1, delta > 0, eps > 0, k >= 0
    theta = np.zeros(3)
    for _ in range(k):
        g = np.mean(undisc_container(clip(L2, m)), axis=0)
        theta = theta - 0.1 * gaussian_mechanism(2.0 / rows(m), eps, delta, g)
    return theta


def descent_called(m: MetricMatrix[L_inf, Data]) -> Priv[MetricVector[L2, Real]]:  # expect: m=(1.03035, 1/100000); accounting=gdp; assumes=cols(m) == 3
    return _descent(m, 100, 0.1, 1e-6)


# A utility that keeps a running total in a captured array scores the k-th candidate k
# times the first (it is analyzed once but runs once per candidate): unbounded (K28;
# it was eps, truth 4.5 at eps 1 with 10 candidates).
def stateful_utility(bids: MetricVector[L1, Data], eps: Static[float]) -> Priv[Real]:  # expect: bids=(inf, 0); eps=static; assumes=eps > 0; accounting=sequential
    z = np.zeros(1)

    def u(d: MetricVector[L1, Data], c: Real) -> Real:
        r = z[0] + float(np.sum(np.clip(d, 0.0, 1.0)))
        z[0] = r
        return r

    return exponential_mechanism(1.0, eps, (1.0, 2.0, 3.0, 4.0), u, bids)  # E: DPS405


# What a mechanism measures: a tuple of reals is the L1 vector numpy makes of it; an L1
# container's distance bounds its L2 distance; an array of entries with their own
# contexts moves by √(Σ_i Γ_i²) in L2 (all were DPS401 and (inf, inf), or charged the L1 sum).
def laplace_of_a_tuple(x: Real) -> Priv[MetricVector[L1, Real]]:  # expect: x=(2, 0); accounting=sequential
    return laplace_mechanism(1.0, 1.0, (x, x))


def gaussian_of_an_l1_vector(v: MetricVector[L1, Real]) -> Priv[MetricVector[L1, Real]]:  # expect: v=(1, 1/100000); accounting=sequential
    return gaussian_mechanism(1.0, 1.0, 1e-5, v)


def gaussian_of_repeated_counts(d: MetricMatrix[L_inf, Data]) -> Priv[MetricVector[L1, Real]]:  # expect: d=(1.99310, 1/100000); accounting=gdp
    c = count(lambda r: r[0] > 0.5, d)
    return gaussian_mechanism_zcdp(2.0, 0.125, np.array([c, c, c, c]))  # L2 move 2, not 4


def gaussian_of_a_repeated_number(x: Real, y: Real) -> Priv[MetricVector[L1, Real]]:  # expect: x=(inf, inf); y=(1, 1/100000); accounting=sequential
    return gaussian_mechanism(1.0, 1.0, 1e-5, (x, y, x))  # E: DPS402


# R-components in privacy functions: a tuple whose components are at distance 0 or a
# whole number of unit steps (datasets of records, Data, Integer) has neighbours that
# move one component, so it costs its dearest component's (ε, δ) (it was their sum); a
# call passing a tuple of its own values charges each component's history to them.
def two_datasets(p: tuple[MetricMatrix[L_inf, Data], MetricMatrix[L_inf, Data]], eps: Static[float]) -> Priv[Real]:  # expect: p=(2*eps, 0); eps=static; accounting=sequential; assumes=2*eps > 0, eps > 0
    first = laplace_mechanism(1.0, eps, count(lambda r: r[0] > 0.5, p[0]))
    return first + laplace_mechanism(1.0, 2 * eps, count(lambda r: r[0] > 0.5, p[1]))


def two_datasets_passed(d: MetricMatrix[L_inf, Data], e: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: d=(4, 0); e=(2, 0); accounting=sequential
    return two_datasets((d, d), 1.0) + two_datasets((d, e), 1.0)  # d: 1 + 2, then 1


def repeated_on_two_datasets(p: tuple[MetricMatrix[L_inf, Data], MetricMatrix[L_inf, Data]]) -> Priv[Real]:  # expect: p=(1.52253, 1/100000); accounting=gdp
    s = 0.0
    for _ in range(10):
        s = s + gaussian_mechanism(1.0, 0.5, 1e-6, count(lambda r: r[0] > 0.5, p[0]))
        s = s + gaussian_mechanism(1.0, 0.5, 1e-6, count(lambda r: r[0] > 0.5, p[1]))
    return s


def released_component(p: tuple[Integer, Integer]) -> Priv[Real]:  # expect: p=(inf, inf); accounting=released  # E: DPS403
    return laplace_mechanism(1.0, 1.0, p[0]) + p[1]


# The utility is analyzed at each known candidate of a short tuple, and pays the largest
# move: |c − 5|·count over (0, 10) is 5, where the candidates' interval [0, 10] gave
# |c| + 5 = 15; c² − 10c over (1, 9) is 9 (it was 171); 2**c over 0..3 is 8 (was inf).
def utility_at_each_candidate(d: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: d=(5*eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    return exponential_mechanism(1.0, eps, (0.0, 10.0),
                                 lambda x, c: abs(c - 5.0) * count(lambda r: r[0] > 0.5, x), d)


def quadratic_utility(d: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: d=(9*eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    return exponential_mechanism(1.0, eps, (1.0, 9.0),
                                 lambda x, c: (c * c - 10 * c) * count(lambda r: r[0] > 0.5, x), d)


def power_utility(d: MetricMatrix[L_inf, Data], eps: Static[float]) -> Priv[Real]:  # expect: d=(8*eps, 0); eps=static; assumes=eps > 0; accounting=sequential
    return exponential_mechanism(1.0, eps, (1, 3, 0, 2),
                                 lambda x, c: 2.0 ** c * count(lambda r: r[0] > 0.5, x), d)


# review29: a number passed for two components at distances 1 and 2 paid a group over
# both components' histories, 6 (truth 3); it pays the tuple's history at distance 3.
def _summed_pair(p: tuple[Integer, Integer]) -> Priv[Real]:  # expect: p=(1, 0); accounting=sequential
    return laplace_mechanism(1.0, 1.0, p[0] + p[1])


def number_passed_twice_scaled(x: Integer) -> Priv[Real]:  # expect: x=(3, 0); accounting=sequential
    return _summed_pair((x, 2 * x))
