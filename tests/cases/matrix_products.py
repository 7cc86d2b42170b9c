"""R-gram and R-matmul: products of matrices with vectors and matrices, sound through
the entry bounds of the other side (np.clip, np.ones), exact where one side moves.

``X.T @ y`` and ``v @ X`` are sums over the rows of outer products (R-gram), so a
changed row of X moves one of them; ``X @ w`` and ``A @ B`` sum along the columns
(R-matmul). The traps: entries without a bound, Data entries.
"""

import numpy as np

from dpsens import L1, L_inf, Data, MetricMatrix, MetricVector, Real, Static, clip, cols, undisc_container


def features_times_labels(X: MetricMatrix[L_inf, Data], y: MetricVector[L1, Data]) -> MetricVector[L1, Real]:  # expect: X=2*cols(X); y=2*cols(X); assumes=len(y) == rows(X)
    # The sufficient statistic X^T y of linear regression: a changed row of X moves each
    # of its cols(X) entries by 2, times |y_i| <= 1; a changed label moves the row by 2.
    return np.clip(X, -1.0, 1.0).T @ np.clip(y, -1.0, 1.0)


def labels_times_features(X: MetricMatrix[L_inf, Data], y: MetricVector[L1, Data]) -> MetricVector[L1, Real]:  # expect: X=2*cols(X); y=2*cols(X); assumes=rows(X) == len(y)
    return np.clip(y, -1.0, 1.0) @ np.clip(X, -1.0, 1.0)


def gram_matrix(X: MetricMatrix[L_inf, Data]) -> MetricMatrix[L1, Real]:  # expect: X=2*cols(X)**2
    # A changed row changes one outer product, whose cols(X)² entries lie in [−1, 1]
    # (the bilinear bound counted the row once as each side: 4·cols(X)²).
    Xc = np.clip(X, -1.0, 1.0)
    return Xc.T @ Xc


def gram_of_nonnegative_entries(X: MetricMatrix[L_inf, Data]) -> MetricMatrix[L1, Real]:  # expect: X=cols(X)**2
    Xc = np.clip(X, 0.0, 1.0)
    return Xc.T @ Xc


def features_and_label_of_one_dataset(D: MetricMatrix[L_inf, Data]) -> MetricVector[L1, Real]:  # expect: D=2*cols(D) - 2
    # Linear regression's X^T y with the label in the last column: one changed record
    # changes one row of X and one entry of y, so one outer product.
    X = np.clip(D[:, :-1], -1.0, 1.0)
    y = np.clip(D[:, -1], -1.0, 1.0)
    return X.T @ y


def gram_of_shifted_rows(X: MetricMatrix[L_inf, Data]) -> MetricMatrix[L1, Real]:  # expect: X=4*cols(X)**2
    # Trap: row i meets row i + 1, so a changed row changes two outer products.
    Xc = np.clip(X, -1.0, 1.0)
    return Xc[1:].T @ Xc[:-1]


def gram_of_centered_rows(X: MetricMatrix[L_inf, Data]) -> MetricMatrix[L1, Real]:  # expect: X=4*cols(X)**2
    # Trap: the mean moves every centered row.
    Xc = np.clip(X, 0.0, 1.0)
    Z = Xc - np.mean(Xc, axis=0)
    return Z.T @ Z


def predictions(X: MetricMatrix[L_inf, Data]) -> MetricVector[L1, Real]:  # expect: X=cols(X)
    return np.clip(X, -1.0, 1.0) @ (0.5 * np.ones(cols(X)))


def predictions_of_a_model(X: MetricMatrix[L_inf, Data], w: Static[MetricVector[L_inf, Real]]) -> MetricVector[L1, Real]:  # expect: X=2*cols(X); w=static; assumes=len(w) == cols(X)
    return np.clip(X, -1.0, 1.0) @ np.clip(w, -1.0, 1.0)


def two_projections(X: MetricMatrix[L_inf, Data]) -> MetricMatrix[L1, Real]:  # expect: X=4*cols(X)
    return np.clip(X, -1.0, 1.0) @ np.ones((cols(X), 2))


def public_design(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=3
    return np.ones((3, len(v))) @ v


def public_weights_of_rows(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=2
    # Row i of the result sums v_j·1: each entry of v moves two outputs.
    return v @ np.ones((len(v), 2))


def unbounded_weights(X: MetricMatrix[L1, Real], w: Static[MetricVector[L_inf, Real]]) -> MetricVector[L1, Real]:  # expect: X=inf; w=static; assumes=len(w) == cols(X)
    return X @ w  # E: DPS305


def data_entries(X: MetricMatrix[L_inf, Data], y: MetricVector[L1, Data]) -> MetricVector[L1, Real]:  # expect: X=inf; y=inf; assumes=len(y) == rows(X)
    return X.T @ y


def features_times_labels_by_dot(X: MetricMatrix[L_inf, Data], y: MetricVector[L1, Data]) -> MetricVector[L1, Real]:  # expect: X=2*cols(X); y=2*cols(X); assumes=len(y) == rows(X)
    # The transpose is measured in L1 (R-transpose), so np.dot(X.T, y), a named
    # transpose and np.transpose are as exact as X.T @ y.
    return np.dot(np.clip(X, -1.0, 1.0).T, np.clip(y, -1.0, 1.0))


def features_times_labels_by_name(X: MetricMatrix[L_inf, Data], y: MetricVector[L1, Data]) -> MetricVector[L1, Real]:  # expect: X=2*cols(X); y=2*cols(X); assumes=len(y) == rows(X)
    Xt = np.transpose(np.clip(X, -1.0, 1.0))
    return Xt.dot(np.clip(y, -1.0, 1.0))


# The review of R-matmul: bounds it dropped, and spellings it missed.
def clipped_rows_times_labels(X: MetricMatrix[L_inf, Data], y: MetricVector[L1, Data]) -> MetricVector[L1, Real]:  # expect: X=2*cols(X); y=2*cols(X); assumes=len(y) == rows(X)
    # Rows clipped to norm 1 have entries of at most 1 (the clip marker, now a bound).
    return undisc_container(clip(L_inf, X)).T @ np.clip(y, -1.0, 1.0)


def numpy_matmul(x: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: x=3
    return np.matmul(np.ones((3, len(x))), x)


def transposed_vector(z: MetricVector[L1, Real], v: MetricVector[L1, Real]) -> Real:  # expect: z=1; v=1; assumes=len(v) == len(z)
    return float(np.clip(z, 0.0, 1.0).T @ np.clip(v, 0.0, 1.0))  # a vector's .T is itself


def product_of_public_matrices(x: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: x=9; assumes=len(x) == 3
    M = np.ones((3, 3)) @ np.ones((3, 3))  # entries 3: the public product keeps its bound
    return M @ np.clip(x, -1.0, 1.0)
