"""clip, norm_convert, undisc_container: the corrections of the seed note."""

import numpy as np

from dpsens import (
    ClippedMatrix, Data, L1, L2, L_inf, MetricMatrix, MetricVector, Real, clip, norm_convert,
    undisc_container,
)


def clip_linf_data(v: MetricVector[L_inf, Data]) -> MetricVector[L_inf, Data]:  # expect: v=1; returns=MetricVector[L_inf, Data]
    return clip(L2, v)


def clip_l1_data(v: MetricVector[L1, Data]) -> MetricVector[L1, Data]:  # expect: v=len(v)
    return clip(L1, v)


def clip_l2_data(v: MetricVector[L2, Data]) -> MetricVector[L2, Data]:  # expect: v=sqrt(len(v))
    return clip(L2, v)


def clip_l2_real(v: MetricVector[L2, Real]) -> MetricVector[L2, Real]:  # expect: v=1
    return clip(L2, v)


def clip_l1_real(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=2
    return clip(L1, v)


def clip_linf_real(v: MetricVector[L_inf, Real]) -> MetricVector[L_inf, Real]:  # expect: v=2
    return clip(L_inf, v)


def clip_mixed(v: MetricVector[L_inf, Real]) -> MetricVector[L_inf, Real]:  # expect: v=sqrt(len(v))
    return clip(L2, v)


def clip_rows(m: MetricMatrix[L1, Data]) -> MetricMatrix[L1, Data]:  # expect: m=cols(m)
    return clip(L2, m)


def undisc_rows(m: MetricMatrix[L_inf, Data]) -> MetricMatrix[L2, Real]:  # expect: m=2; returns=MetricMatrix[L2, Real]
    return undisc_container(clip(L2, m))


def undisc_declared(m: ClippedMatrix[L1, L_inf, Data]) -> MetricMatrix[L1, Real]:  # expect: m=2
    return undisc_container(m)


def undisc_unclipped(m: MetricMatrix[L_inf, Data]) -> MetricMatrix[L2, Real]:  # expect: m=inf
    return undisc_container(m)  # E: DPS301


def l1_to_l2(v: MetricVector[L1, Real]) -> MetricVector[L2, Real]:  # expect: v=1
    return norm_convert(L2, v)


def l1_to_linf(v: MetricVector[L1, Real]) -> MetricVector[L_inf, Real]:  # expect: v=1
    return norm_convert(L_inf, v)


def l2_to_linf(v: MetricVector[L2, Real]) -> MetricVector[L_inf, Real]:  # expect: v=1
    return norm_convert(L_inf, v)


def l2_to_l1(v: MetricVector[L2, Real]) -> MetricVector[L1, Real]:  # expect: v=sqrt(len(v))
    return norm_convert(L1, v)


def linf_to_l2(v: MetricVector[L_inf, Real]) -> MetricVector[L2, Real]:  # expect: v=sqrt(len(v))
    return norm_convert(L2, v)


def linf_to_l1(v: MetricVector[L_inf, Real]) -> MetricVector[L1, Real]:  # expect: v=len(v)
    return norm_convert(L1, v)


def rows_linf_to_l1(m: MetricMatrix[L_inf, Data]) -> MetricMatrix[L1, Data]:  # expect: m=cols(m)
    return norm_convert(L1, m)


def implicit_widening(v: MetricVector[L1, Real]) -> MetricVector[L2, Real]:  # expect: v=1
    return v


def implicit_narrowing(v: MetricVector[L_inf, Real]) -> MetricVector[L1, Real]:  # expect: v=len(v)  # E: DPS104
    return v


def not_a_norm(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=inf
    return clip(3, v)  # E: DPS301


# --- a row clipped in L1 is clipped in L2 and L_inf (||x||_inf <= ||x||_2 <= ||x||_1) --------------


def takes_l2_clipped(m: ClippedMatrix[L2, L_inf, Data]) -> MetricVector[L2, Real]:  # expect: m=2
    return np.sum(undisc_container(m), axis=0)


def passes_l1_clipped(data: MetricMatrix[L_inf, Data]) -> MetricVector[L2, Real]:  # expect: data=2
    return takes_l2_clipped(clip(L1, data))


def takes_l1_clipped(m: ClippedMatrix[L1, L_inf, Data]) -> MetricVector[L1, Real]:  # expect: m=2
    return np.sum(undisc_container(m), axis=0)


def l2_clip_is_not_l1(data: MetricMatrix[L_inf, Data]) -> MetricVector[L1, Real]:  # expect: data=inf
    return takes_l1_clipped(clip(L2, data))  # E: DPS301


def undisc_l2_rows(m: MetricMatrix[L2, Data]) -> MetricMatrix[L2, Real]:  # expect: m=2; returns=MetricMatrix[L2, Real]
    # One changed entry is one changed row: 2 apart once clipped, whatever sqrt(cols(m)) says
    return undisc_container(clip(L2, m))


def undisc_l1_vector_through_a_name(v: MetricVector[L1, Data]) -> MetricVector[L1, Real]:  # expect: v=2; returns=MetricVector[L1, Real]
    clipped = clip(L1, v)  # the clipped vector is one record: 2 apart in L1 if anything changed
    return undisc_container(clipped)



def sliced_clipped_rows(m: MetricMatrix[L1, Data]) -> MetricMatrix[L1, Real]:  # expect: m=2*cols(m); returns=MetricMatrix[L1, Real]
    # Only clip's own result carries the changed-row count: a slice of it is measured
    # in (L1, Data) again, cols(m) per changed row (sound, loose: the truth is 2)
    return undisc_container(clip(L1, m)[0:2])


def tuple_of_clipped_then_stored(m: MetricMatrix[L2, Data]) -> MetricMatrix[L2, Real]:  # expect: m=2*sqrt(cols(m))*min(3, rows(m)) + 2*sqrt(cols(m)); returns=MetricMatrix[L2, Real]
    c = clip(L2, m)
    p = (c, 0)
    c[0:3, :] = c[3, :]  # p[0] is c: the copied row now differs in four rows
    return undisc_container(p[0])


def tuple_chosen_by_data(m: MetricMatrix[L2, Real], m2: MetricMatrix[L2, Data]) -> MetricVector[L2, Real]:  # expect: m=1; m2=inf
    if m2[0, 0] > 0.0:  # which part p holds depends on m2: so does p[0]
        p = (m[0, :], 0)
    else:
        p = (m[1, :], 0)
    return p[0]


def returned_by_a_closure_and_scaled(m: MetricMatrix[L2, Data]) -> MetricMatrix[L2, Real]:  # expect: m=inf; returns=unknown
    c = clip(L2, m)
    get = lambda: c
    d = get()  # d is c: scaling it in place takes c's rows out of the unit ball
    d *= 100.0
    return undisc_container(c)  # E: DPS301


def unclipped_row_stored(m: MetricMatrix[L2, Data]) -> MetricMatrix[L2, Real]:  # expect: m=inf; returns=unknown
    c = clip(L2, m)
    c[0, :] = m[1, :]  # an unclipped row: c is no longer clipped
    return undisc_container(c)  # E: DPS301


# R-bounded-product: a product of sensitive values whose entries are bounded (np.clip, masks)
# moves by B_a·d(b) + B_b·d(a) (they were ∞): second moments, variances, masked sums.
def clipped_second_moment(v: MetricVector[L1, Real]) -> Real:  # expect: v=2/len(v)
    x = np.clip(v, 0.0, 1.0)
    return float(np.mean(x * x))


def clipped_variance(v: MetricVector[L1, Real]) -> Real:  # expect: v=4/len(v)
    x = np.clip(v, 0.0, 1.0)
    return float(np.mean(x ** 2) - np.mean(x) ** 2)


# R-rowwise: the mask and the clipped column come from one row (it was 2).
def masked_clipped_sum(data: MetricMatrix[L_inf, Data]) -> Real:  # expect: data=1
    x = np.clip(data[:, 1], 0.0, 1.0)
    return float(np.sum(x * (data[:, 0] > 0.5)))


def product_of_clipped(a: Real, b: Real) -> Real:  # expect: a=3; b=2
    return float(np.clip(a, -2.0, 2.0) * np.clip(b, 0.0, 3.0))


def product_with_an_unbounded_factor(a: Real, b: Real) -> Real:  # expect: a=inf; b=inf
    return float(np.clip(a, -2.0, 2.0) * b)


# Sums and differences of bounded values are bounded: a centered variance (was ∞; 8/len(v)
# until R-range: x − m lies in [−1, 1], so the square's slope is 2·1, not 2·2).
def centered_variance(v: MetricVector[L1, Real]) -> Real:  # expect: v=4/len(v)
    x = np.clip(v, 0.0, 1.0)
    m = np.mean(x)
    return float(np.mean((x - m) ** 2))
