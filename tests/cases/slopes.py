"""R-slope: a function of one number is sup |f'|-sensitive over the interval its argument
lies in (mean value theorem: both runs' arguments lie in it), and its results lie in the
image of that interval.

numpy's functions apply to each entry of an array (every Lp norm of the change grows by
the same factor); math's take one number. Where the interval is unknown, reaches a
singularity (log and sqrt at 0, log1p at -1) or its ends are Data, the result stays ∞.
Each bound below is the exact supremum of |f(a) - f(b)| / |a - b| unless it says otherwise.
"""

import math

import numpy as np

from dpsens import L1, L2, L_inf, Data, Integer, MetricMatrix, MetricVector, Real, Static


# --- scalars, numpy ------------------------------------------------------------

def exp_on_an_interval(x: Real) -> Real:  # expect: x=exp(2); returns=Real
    return np.exp(np.clip(x, 0.0, 2.0))  # steepest at 2


def expm1_on_an_interval(x: Real) -> Real:  # expect: x=exp(-1)
    return np.expm1(np.clip(x, -3.0, -1.0))


def log_on_an_interval(x: Real) -> Real:  # expect: x=1
    return np.log(np.clip(x, 1.0, 5.0))  # steepest at 1


def log2_on_an_interval(x: Real) -> Real:  # expect: x=1/(2*log(2))
    return np.log2(np.clip(x, 2.0, 8.0))


def log10_on_an_interval(x: Real) -> Real:  # expect: x=4/log(10)
    return np.log10(np.clip(x, 0.25, 10.0))


def log1p_on_an_interval(x: Real) -> Real:  # expect: x=2
    return np.log1p(np.clip(x, -0.5, 3.0))


def sqrt_on_an_interval(x: Real) -> Real:  # expect: x=1/2
    return np.sqrt(np.clip(x, 1.0, 9.0))


def tanh_away_from_zero(x: Real) -> Real:  # expect: x=1 - tanh(2)**2
    return np.tanh(np.clip(x, 2.0, 3.0))


def tanh_anywhere(x: Real) -> Real:  # expect: x=1
    return np.tanh(x)


def arctan_below_zero(x: Real) -> Real:  # expect: x=1/5
    return np.arctan(np.clip(x, -4.0, -2.0))


def arctan_anywhere(x: Real) -> Real:  # expect: x=1
    return np.arctan(x)


def sin_anywhere(x: Real) -> Real:  # expect: x=1
    return np.sin(x)


def cos_anywhere(x: Real) -> Real:  # expect: x=1
    return np.cos(x)


# --- scalars, math -------------------------------------------------------------

def math_exp(x: Real) -> Real:  # expect: x=exp(2)
    return math.exp(np.clip(x, 0.0, 2.0))


def math_expm1(x: Real) -> Real:  # expect: x=1
    return math.expm1(np.clip(x, -1.0, 0.0))


def math_log(x: Real) -> Real:  # expect: x=2
    return math.log(np.clip(x, 0.5, 5.0))


def math_log2(x: Real) -> Real:  # expect: x=1/log(2)
    return math.log2(np.clip(x, 1.0, 4.0))


def math_log10(x: Real) -> Real:  # expect: x=1/log(10)
    return math.log10(np.clip(x, 1.0, 100.0))


def math_log1p(x: Real) -> Real:  # expect: x=1
    return math.log1p(np.clip(x, 0.0, 1.0))


def math_sqrt(x: Real) -> Real:  # expect: x=1/4
    return math.sqrt(np.clip(x, 4.0, 9.0))


def math_tanh(x: Real) -> Real:  # expect: x=1
    return math.tanh(x)


def math_atan(x: Real) -> Real:  # expect: x=1/2
    return math.atan(np.clip(x, 1.0, 3.0))


def math_sin_and_cos(x: Real, y: Real) -> Real:  # expect: x=1; y=1
    return math.sin(x) + math.cos(y)


# --- arrays: every Lp norm grows by the slope, entry by entry ---------------------

def exp_of_an_l1_vector(v: MetricVector[L1, Real]) -> Real:  # expect: v=exp(2)
    return float(np.sum(np.exp(np.clip(v, 0.0, 2.0))))


def exp_of_an_l2_vector(v: MetricVector[L2, Real]) -> MetricVector[L2, Real]:  # expect: v=exp(2); returns=MetricVector[L2, Real]
    return np.exp(np.clip(v, 0.0, 2.0))


def log_of_a_max_vector(v: MetricVector[L_inf, Real]) -> MetricVector[L_inf, Real]:  # expect: v=1; returns=MetricVector[L_inf, Real]
    return np.log(np.clip(v, 1.0, 5.0))


def sqrt_of_matrix_rows(m: MetricMatrix[L2, Real]) -> MetricMatrix[L2, Real]:  # expect: m=1/2
    return np.sqrt(np.clip(m, 1.0, 4.0))


def sum_of_logs(v: MetricVector[L_inf, Real]) -> Real:  # expect: v=len(v)/2
    return float(np.sum(np.log(np.clip(v, 2.0, 3.0))))  # each entry moves by up to 1/2


# --- symbolic intervals ------------------------------------------------------

def exp_up_to_a_static(x: Real, c: Static[float]) -> Real:  # expect: x=exp(c); c=static
    # [min(0, c), c]: numpy gives c everywhere when c < 0, where exp(c) still holds.
    return np.exp(np.clip(x, 0.0, c))


def log_from_a_static(x: Real, c: Static[float]) -> Real:  # expect: x=1/min(5, c); c=static; assumes=min(5, c) > 0
    return np.log(np.clip(x, c, 5.0))  # log needs the interval above 0: assumed


def log_from_a_positive_static(x: Real, k: Static[int]) -> Real:  # expect: x=1/min(10, k**2 + 1); k=static; assumes=k**2 + 1 <= 9007199254740992
    # Above 0 whatever k is: nothing assumed for log (np.clip's own assumption: k² + 1 is
    # the float numpy clips with).
    return np.log(np.clip(x, k * k + 1, 10))


# --- singularities and unknown intervals stay unbounded ------------------------

def log_down_to_zero(x: Real) -> Real:  # expect: x=inf
    return np.log(np.clip(x, 0.0, 5.0))


def log_below_zero(x: Real) -> Real:  # expect: x=inf
    return np.log(np.clip(x, -1.0, 5.0))


def sqrt_down_to_zero(x: Real) -> Real:  # expect: x=inf
    return np.sqrt(np.clip(x, 0.0, 4.0))


def math_sqrt_down_to_zero(x: Real) -> Real:  # expect: x=inf
    return math.sqrt(np.clip(x, 0.0, 4.0))


def log1p_down_to_minus_one(x: Real) -> Real:  # expect: x=inf
    return np.log1p(np.clip(x, -1.0, 1.0))


def exp_without_an_interval(x: Real) -> Real:  # expect: x=inf
    return np.exp(x)


def exp_above_a_floor(x: Real) -> Real:  # expect: x=inf
    return np.exp(np.maximum(x, 0.0))  # no upper end


def log_without_an_interval(v: MetricVector[L2, Real]) -> MetricVector[L2, Real]:  # expect: v=inf
    return np.log(v)


# --- Data: a changed entry may be anything ------------------------------------

def exp_of_data(d: Data) -> Real:  # expect: d=inf
    return np.exp(d)


def tanh_of_a_data_vector(v: MetricVector[L1, Data]) -> MetricVector[L1, Real]:  # expect: v=2
    # A changed entry's result moves within (-1, 1): 2 per changed entry. Tight at the ends.
    return np.tanh(v)


def sin_of_data_rows(m: MetricMatrix[L2, Data]) -> MetricMatrix[L2, Real]:  # expect: m=2
    # (L2, Data) counts a row's changed entries as sqrt(k); each result moves by 2: 2·sqrt(k).
    return np.sin(m)


def arctan_of_data_rows(m: MetricMatrix[L_inf, Data]) -> MetricMatrix[L_inf, Real]:  # expect: m=pi
    return np.arctan(m)  # results in (-pi/2, pi/2)


def summed_sines_of_a_data_column(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=2
    return np.sum(np.sin(data[:, 0]))


def summed_signs_of_a_data_vector(v: MetricVector[L1, Data]) -> Real:  # expect: v=2
    return float(np.sum(np.sign(v)))  # a changed entry's sign moves from -1 to 1 at most


def signs_of_data_rows(m: MetricMatrix[L_inf, Data]) -> MetricMatrix[L_inf, Real]:  # expect: m=2
    return np.sign(m)


def sign_of_a_real(x: Real) -> Real:  # expect: x=inf
    return float(np.sign(x))  # it jumps at 0: no factor bounds a small change's move


def exp_of_a_data_vector(v: MetricVector[L1, Data]) -> MetricVector[L1, Real]:  # expect: v=inf
    return np.exp(v)  # an unbounded image


def log_of_a_data_vector(v: MetricVector[L1, Data]) -> MetricVector[L1, Real]:  # expect: v=inf
    return np.log(v)  # not even defined everywhere


def exp_of_clipped_data(d: Data) -> Real:  # expect: d=-1 + exp(2)
    # Clipped into a real of [0, 2]: a changed d moves the result within [1, e²] (the cap).
    return np.exp(np.clip(d, 0.0, 2.0))


def exp_of_a_clipped_data_vector(v: MetricVector[L1, Data]) -> MetricVector[L1, Real]:  # expect: v=2*exp(2)
    # A changed entry moves by 2 in [0, 2], then by e² per unit: 2e², above the truth e² − 1.
    return np.exp(np.clip(v, 0.0, 2.0))


def sin_of_data(d: Data) -> Real:  # expect: d=2
    return float(np.sin(d))  # unbounded slope for Data, but the result lies in [-1, 1]


# --- Integer entries: two different ones are at least 1 apart ----------------------

def summed_signs_of_integers(v: MetricVector[L1, Integer]) -> Real:  # expect: v=2
    # The image's width, 2, per unit (no slope bounds sign). Loose: sign is 1-Lipschitz on
    # the integers, so the truth is 1.
    return float(np.sum(np.sign(v)))


def exp_of_clipped_integers(v: MetricVector[L1, Integer]) -> MetricVector[L1, Real]:  # expect: v=-1 + exp(3)
    # The width of [1, e³] below the slope e³. The truth is e³ - e² (from 2 to 3).
    return np.exp(np.clip(v, 0, 3))


# --- composition: the image of one interval is the next one's ----------------------

def log_of_exp(x: Real) -> Real:  # expect: x=exp(2)
    # exp on [0, 2] (e²) maps into [1, e²], where log has slope 1: e²·1. The truth is 1.
    return np.log(np.exp(np.clip(x, 0.0, 2.0)))


def exp_of_log(x: Real) -> Real:  # expect: x=5
    # log on [1, 5] (1) maps into [0, log 5], where exp has slope 5: 1·5. The truth is 1.
    return np.exp(np.log(np.clip(x, 1.0, 5.0)))


def sqrt_of_exp(x: Real) -> Real:  # expect: x=exp(2)/2
    # exp on [0, 2] (e²) into [1, e²], where sqrt has slope 1/2: e²/2. The truth is e/2.
    return math.sqrt(math.exp(np.clip(x, 0.0, 2.0)))


def square_of_tanh(x: Real) -> Real:  # expect: x=2
    # tanh in [-1, 1] (R-bounded-product: 1·1 + 1·1). The truth is 4/(3·sqrt(3)) ≈ 0.77.
    return math.tanh(x) * math.tanh(x)


def product_of_exps(x: Real, y: Real) -> Real:  # expect: x=exp(2); y=exp(2)
    # Each factor in [1, e] with slope e: e·e. Exact (at x = y = 1).
    return np.exp(np.clip(x, 0.0, 1.0)) * np.exp(np.clip(y, 0.0, 1.0))


# --- public arguments stay public -----------------------------------------------

def public_weights(v: MetricVector[L1, Real], c: Static[float]) -> Real:  # expect: v=1; c=static
    weights = np.tanh(np.ones(3) * c) + np.log1p(np.ones(3) * c * c)
    return float(np.sum(v)) + float(np.sum(weights))


def static_exponential(x: Real, c: Static[float]) -> Real:  # expect: x=exp(min(1, max(0, c))); c=static
    return x * math.exp(np.clip(c, 0.0, 1.0))


def scaled_by_a_static_sign(x: Real, c: Static[float]) -> Real:  # expect: x=abs(sign(c)); c=static
    return float(np.sign(c)) * x  # the sign of the float held: exact


def scaled_by_the_sign_of_a_rounded_zero(x: Real) -> Real:  # expect: x=inf
    # 0.1 + 0.2 - 0.3 is 0 in the reals and 5.6e-17 in floats: its sign is not known here.
    return float(np.sign(0.1 + 0.2 - 0.3)) * x  # E: DPS305
