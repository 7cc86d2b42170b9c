"""Privacy amplification by subsampling: one scalar Laplace release of a small sample.

Each function draws k = 2 or 3 rows of a 6-row dataset (or fewer rows of a sample)
and releases one number through one Laplace mechanism, so that
tests/soundness/test_sampled_privacy.py can enumerate every sample and compute the
exact privacy loss of the resulting Laplace mixture.
"""

import numpy as np

from dpsens import (
    Data, Integer, L1, L_inf, MetricMatrix, MetricVector, Priv, Real, Static, clip, count, gaussian_mechanism,
    gaussian_mechanism_zcdp, laplace_mechanism, sample,
    undisc_container,
)


def sampled_clipped_sum(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 3*(-1 + E)/rows(m)), 0); accounting=basic
    batch, _ = sample(3, m, m)
    total = np.sum(undisc_container(clip(L1, batch)), axis=0)
    return laplace_mechanism(2.0, 1.0, total[0])


def sampled_clipped_mean(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 3*(-1 + E)/rows(m)), 0); accounting=basic
    batch, _ = sample(3, m, m)
    mean = np.sum(undisc_container(clip(L1, batch)), axis=0) / 3
    return laplace_mechanism(2.0 / 3, 1.0, mean[0])


def sampled_count_static(m: MetricMatrix[L_inf, Data], k: Static[int], eps: Static[float]) -> Priv[Real]:  # expect: m=(log(k*(exp(eps) - 1)/rows(m) + 1), 0); k=static; eps=static; accounting=basic; assumes=eps > 0, k >= 1
    batch, _ = sample(k, m, m)
    return laplace_mechanism(1.0, eps, count(lambda r: r[0] > 0.0, batch))


# reads one of the 2 sampled rows: amplified at q = 2/rows (sound; exact is 1/rows)
def first_sampled_entry(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 2*(-1 + E)/rows(m)), 0); accounting=basic
    batch, _ = sample(2, m, m)
    return laplace_mechanism(1.0, 1.0, float(np.clip(batch[0][0], 0.0, 1.0)))


def sampled_loop_sum(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 3*(-1 + E)/rows(m)), 0); accounting=basic
    batch, _ = sample(3, m, m)
    t = 0.0
    for r in batch:
        t = t + float(np.clip(r[1], -1.0, 1.0))
    return laplace_mechanism(2.0, 1.0, t)


# one release reading two samples of m: not amplified (sound; exact 0.3915 at 6 rows)
def two_samples_added(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(1, 0); accounting=sequential
    a, _ = sample(2, m, m)
    b, _ = sample(2, m, m)
    return laplace_mechanism(2.0, 1.0, count(lambda r: r[0] > 0.0, a) + count(lambda r: r[0] > 0.0, b))


def noisy_sampled_count(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 3*(-1 + E)/rows(m)), 0); accounting=basic
    batch, _ = sample(3, m, m)
    return laplace_mechanism(1.0, 1.0, count(lambda r: r[0] > 0.0, batch))


def helper_sample(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 3*(-1 + E)/rows(m)), 0); accounting=basic
    return noisy_sampled_count(m)


# the release also reads the whole dataset: not amplified
def sample_and_full_count(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(1, 0); accounting=sequential
    batch, _ = sample(2, m, m)
    both = count(lambda r: r[0] > 0.0, batch) + count(lambda r: r[0] > 0.0, m)
    return laplace_mechanism(2.0, 1.0, both)


# amplified twice: q = (3/rows)·(2/3)
def sample_of_sample(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 3*(-2/3 + 2*E/3)/rows(m)), 0); accounting=basic
    outer, _ = sample(3, m, m)
    inner, _ = sample(2, outer, outer)
    return laplace_mechanism(1.0, 1.0, count(lambda r: r[0] > 0.0, inner))


# K26: rows that may be more than 1 apart are not amplified (DPS408). Amplification needs
# the release private against replacing a sampled row by any other row; a neighbour moving
# one real row by 1 among rows far apart lost 1.99989 at 6 rows where log(1 + q(e² − 1))
# claimed 1.4338.
def real_rows_sampled(c: MetricMatrix[L1, Real]) -> Priv[Real]:  # expect: c=(2, 0); accounting=sequential
    b, _ = sample(3, c, c)  # E: DPS408
    return laplace_mechanism(1.0, 2.0, np.sum(b, axis=0)[0])


def integer_rows_sampled(c: MetricMatrix[L1, Integer]) -> Priv[Real]:  # expect: c=(2, 0); accounting=sequential
    b, _ = sample(3, c, c)  # E: DPS408
    return laplace_mechanism(1.0, 2.0, float(np.sum(b, axis=0)[0]))


def real_entries_sampled(v: MetricVector[L1, Real]) -> Priv[Real]:  # expect: v=(2, 0); accounting=sequential
    b, _ = sample(3, v, v)  # E: DPS408
    return laplace_mechanism(1.0, 2.0, np.sum(b))


# Clipped before sampling, a record's row moves by 2 and any two rows are 2 apart: the
# unit cost amplified and then doubled (2·log(1 + q(e^½ − 1)) = 0.5619) was below the
# exact 0.6201 = log(1 + q(e − 1)); not amplified now (1).
def clipped_then_sampled(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(1, 0); accounting=sequential
    c = undisc_container(clip(L1, m))
    b, _ = sample(3, c, c)  # E: DPS408
    return laplace_mechanism(2.0, 1.0, np.sum(b, axis=0)[0])


# --- one scalar Gaussian release of a sample: (ε, δ) claims -----------------------------

def sampled_gaussian_sum(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 3*(-1 + E)/rows(m)), 3/(100000*rows(m))); accounting=basic
    batch, _ = sample(3, m, m)
    total = np.sum(undisc_container(clip(L1, batch)), axis=0)
    return gaussian_mechanism(2.0, 1.0, 1e-5, total[0])


def sampled_gaussian_zcdp_sum(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 3*(-1 + exp(1/2 + sqrt(2)*sqrt(log(100000))))/rows(m)), 3/(100000*rows(m))); accounting=basic
    batch, _ = sample(3, m, m)
    total = np.sum(undisc_container(clip(L1, batch)), axis=0)
    return gaussian_mechanism_zcdp(2.0, 0.5, total[0])


def sampled_gaussian_count(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 2*(-1 + exp(1/2))/rows(m)), 1/(500*rows(m))); accounting=basic
    batch, _ = sample(2, m, m)
    return gaussian_mechanism(1.0, 0.5, 1e-3, count(lambda r: r[0] > 0.0, batch))


def sampled_gaussian_zcdp_count(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 2*(-1 + exp(2 + 2*sqrt(2)*sqrt(log(100000))))/rows(m)), 1/(50000*rows(m))); accounting=basic
    batch, _ = sample(2, m, m)
    return gaussian_mechanism_zcdp(1.0, 2.0, count(lambda r: r[0] > 0.0, batch))


def gaussian_sample_of_sample(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 3*(-2/3 + 2*E/3)/rows(m)), 1/(5000*rows(m))); accounting=basic
    outer, _ = sample(3, m, m)
    inner, _ = sample(2, outer, outer)
    return gaussian_mechanism(1.0, 1.0, 1e-4, count(lambda r: r[0] > 0.0, inner))


# A row drawn is a row of both outputs: a release reading both pays for replacing the row
# in both (2 here), amplified once. Each output amplified on its own (D126) claimed
# log(1 + 2*(e - 1)/rows) for x and y, below the exact loss (0.8137 at 4 rows).
def sampled_features_and_labels(x: MetricMatrix[L_inf, Data], y: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: x=(log(1 + 2*(-1 + exp(2))/rows(x)), 0); y=(log(1 + 2*(-1 + exp(2))/rows(x)), 0); accounting=basic
    bx, by = sample(2, x, y)
    return laplace_mechanism(1.0, 1.0, count(lambda r: r[0] > 0.0, bx) + count(lambda r: r[0] > 0.0, by))


# Both outputs of one array: the release pays 2 for a row, amplified once (was (2, 0):
# not amplified at all).
def both_halves_released(m: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: m=(log(1 + 2*(-1 + exp(2))/rows(m)), 0); accounting=basic
    d, l = sample(2, m, m)
    return laplace_mechanism(1.0, 1.0, count(lambda r: r[0] > 0.0, d) + count(lambda r: r[0] > 0.0, l))

