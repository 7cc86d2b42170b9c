"""R-loop-slices: range loops whose body slices by the index (``X[i*b:(i+1)*b]``) run with
the index a symbol; consecutive batches that share no row are the loop's elements
(parallel composition). Minibatch gradient descent over disjoint batches costs one
release per record, not one per batch."""

import numpy as np

from dpsens import (L1, L2, L_inf, Data, MetricMatrix, MetricVector, Priv, Real, Static, clip, map_rows,
                    gaussian_mechanism, laplace_mechanism, rows, undisc_container)


def minibatch_descent(X: MetricMatrix[L_inf, Data], theta: Static[MetricVector[L2, Real]], eps: Static[float], delta: Static[float], b: Static[int], lr: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: X=(eps, delta); theta=static; eps=static; delta=static; b=static; lr=static; accounting=sequential; assumes=b >= 0, b*(floor(rows(X)/b) - 1) >= 0, b*floor(rows(X)/b) >= 0, cols(X) == len(theta), delta < 1, delta > 0, eps > 0, floor(rows(X)/b) >= 0
    for i in range(rows(X) // b):
        batch = X[i * b:(i + 1) * b, :]
        g = np.sum(undisc_container(clip(L2, batch)), axis=0)
        theta = theta - lr * gaussian_mechanism(2.0, eps, delta, g)
    return theta


def epochs_of_minibatches(X: MetricMatrix[L_inf, Data], eps: Static[float], b: Static[int], k: Static[int], epochs: Static[int]) -> Priv[Real]:  # expect: X=(epochs*eps, 0); eps=static; b=static; k=static; epochs=static; accounting=basic; assumes=b >= 0, b*(k - 1) >= 0, b*k >= 0, epochs >= 0, eps > 0, k >= 0
    total = 0.0
    for _ in range(epochs):
        for i in range(k):
            s = float(np.sum(np.clip(X[i * b:(i + 1) * b, 0], 0.0, 1.0)))
            total = total + laplace_mechanism(1.0, eps, s)
    return total


def batch_sums(X: MetricMatrix[L_inf, Data], b: Static[int], k: Static[int]) -> Real:  # expect: X=1; b=static; k=static; assumes=b >= 0, b*(k - 1) >= 0, b*k >= 0, k >= 0
    total = 0.0
    for i in range(k):
        total = total + float(np.sum(np.clip(X[i * b:(i + 1) * b, 0], 0.0, 1.0)))
    return total


def overlapping_windows(X: MetricMatrix[L_inf, Data], k: Static[int], eps: Static[float]) -> Priv[Real]:  # expect: X=(eps*k/2, 0); k=static; eps=static; accounting=basic; assumes=eps > 0, k >= 0
    total = 0.0
    for i in range(k):
        s = float(np.sum(np.clip(X[i:i + 2, 0], 0.0, 1.0)))  # rows i, i + 1: shared (truth eps)
        total = total + laplace_mechanism(2.0, eps, s)
    return total


def windows_from_the_end(X: MetricMatrix[L_inf, Data], k: Static[int]) -> Real:  # expect: X=inf; k=static; assumes=False, k - 2 >= 0, k >= 0  # E: DPS306
    total = 0.0
    for i in range(k):  # X[-1:0] counts from the end: the bounds must not be negative
        total = total + float(np.sum(np.clip(X[i - 1:i, 0], 0.0, 1.0)))
    return total


def batches_of_a_changed_matrix(X: MetricMatrix[L_inf, Data], b: Static[int], k: Static[int]) -> Real:  # expect: X=3**k; b=static; k=static; assumes=b >= 0, b*(k - 1) >= 0, b*k >= 0, k >= 0
    Y = np.clip(X, 0.0, 1.0)
    total = 0.0
    for i in range(k):
        total = total + float(np.sum(Y[i * b:(i + 1) * b, 0]))
        Y[0, 0] = total  # a later batch may read what an earlier one wrote
    return total


def batch_means_divide_by_a_length(X: MetricMatrix[L_inf, Data], b: Static[int], k: Static[int]) -> Real:  # expect: X=inf; b=static; k=static; returns=unknown; assumes=k >= 0
    total = 0.0
    for i in range(k):
        total = total + float(np.mean(np.clip(X[i * b:(i + 1) * b, 0], 0.0, 1.0)))  # E: DPS301
    return total


def overlapping_sums(X: MetricMatrix[L_inf, Data]) -> Real:  # expect: X=3
    total = 0.0
    for i in range(3):
        total = total + float(np.sum(np.clip(X[i:i + 2, 0], 0.0, 1.0)))  # (truth 2)
    return total


def released_windows(X: MetricMatrix[L_inf, Data]) -> Priv[Real]:  # expect: X=(3/2, 0); accounting=basic
    total = 0.0
    for i in range(3):
        s = float(np.sum(np.clip(X[2 * i:2 * i + 3, 0], 0.0, 1.0)))  # row 2: in two windows
        total = total + laplace_mechanism(2.0, 1.0, s)
    return total


# Found by a review: two families of slices of one matrix are not one batch per
# iteration (row r is read by iterations r and r - 1); bounds on the symbolic index that
# are not polynomial in it (Abs, Min, Max) undo the symbolic run instead of failing.
def two_slices_joined(X: MetricMatrix[L_inf, Data]) -> Real:  # expect: X=3
    total = 0.0
    for i in range(3):
        a = float(np.sum(np.clip(X[i:i + 1, 0], 0.0, 1.0)))
        b = float(np.sum(np.clip(X[i + 1:i + 2, 0], 0.0, 1.0)))
        total = total + max(a, b)  # (truth 2; one batch each would have said 1)
    return total


def two_slices_by_parity(X: MetricMatrix[L_inf, Data], k: Static[int]) -> Real:  # expect: X=k; k=static; assumes=k >= 0
    total = 0.0
    for i in range(k):
        if i % 2 == 0:
            s = float(np.sum(np.clip(X[i:i + 1, 0], 0.0, 1.0)))
        else:
            s = float(np.sum(np.clip(X[i + 1:i + 2, 0], 0.0, 1.0)))
        total = total + s
    return total


def one_batch_read_twice(X: MetricMatrix[L_inf, Data], k: Static[int]) -> Real:  # expect: X=2; k=static; assumes=k >= 0
    total = 0.0
    for i in range(k):
        total = total + float(np.sum(np.clip(X[i:i + 1, 0], 0.0, 1.0))) + float(np.sum(np.clip(X[i:i + 1, 1], 0.0, 1.0)))
    return total


def clipped_at_the_index(X: MetricMatrix[L_inf, Data], a: Static[int], k: Static[int]) -> Real:  # expect: X=inf; a=static; k=static; assumes=k >= 0
    total = 0.0
    for i in range(a, a + k):
        total = total + float(np.sum(np.clip(X[i:i + 1, 0], 0, i)))  # E: DPS301
    return total


def batches_through_a_closure(X: MetricMatrix[L_inf, Data], b: Static[int], k: Static[int]) -> Real:  # expect: X=1; b=static; k=static; assumes=b >= 0, b*(k - 1) >= 0, b*k >= 0, k >= 0
    total = 0.0
    for i in range(k):
        batch = X[i * b:(i + 1) * b, :]
        total = total + float(np.sum(map_rows(lambda r: float(np.clip(r[0], 0.0, 1.0)), batch)))
    return total


def closure_named_like_the_index(X: MetricMatrix[L_inf, Data], k: Static[int]) -> Real:  # expect: X=k + 1; k=static; assumes=k >= 0
    total = 0.0
    for i in range(k):
        f = lambda i: float(np.sum(np.clip(X[i:i + 1, 0], 0.0, 1.0)))  # its own i
        total = total + f(0) + float(np.sum(np.clip(X[i:i + 1, 0], 0.0, 1.0)))
    return total
