"""Training loops in the style of DiffPrivacyInference's DP gradient descent: a public
model, updated only with noised gradients, goes into a black box each step."""

import numpy as np
import numpy.typing as npt

from dpsens import (
    BlackBox, Data, L2, L_inf, MetricMatrix, MetricVector, Priv, Real, Static, clip, cols,
    gaussian_mechanism, rows, unbox, undisc_container,
)

Record = MetricVector[L_inf, Data]


def gradient(model: MetricVector[L2, Real], record: MetricVector[L_inf, Data]) -> BlackBox[npt.NDArray[np.float64]]:  # expect: model=inf; record=inf
    return (float(np.dot(model, record)) - 1.0) * record


def per_record_steps(data: MetricMatrix[L_inf, Data], eps: Static[float], dl: Static[float], eta: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: data=(eps, dl); eps=static; dl=static; eta=static; assumes=dl < 1, dl > 0, eps > 0; accounting=sequential
    model = np.zeros(cols(data))
    for i in range(rows(data)):  # one Gaussian per record, a public model in the black box
        g = unbox(gradient(model, data[i, :]), Record, cols(data))
        model = model - eta * gaussian_mechanism(2.0, eps, dl, undisc_container(clip(L2, g)))
    return model


def model_from_a_record(data: MetricMatrix[L_inf, Data], eps: Static[float], dl: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: data=(eps*rows(data) + eps, dl*rows(data) + dl*exp(eps)); eps=static; dl=static; assumes=dl < 1, dl > 0, eps > 0; accounting=basic
    # The model comes from record 0, so every step also depends on it: each step pays
    # once more for it (the black box's Data result is at most 1 away, so s = 2 holds).
    # The step of the record that moved reads it twice (its row and the model): that
    # release pays both moves at once, group privacy (δ·e^ε; the truth is δ, since the
    # clipped value moves by at most s either way, which the charges do not record).
    model = undisc_container(clip(L2, data))[0, :]
    out = np.zeros(cols(data))
    for i in range(rows(data)):
        g = unbox(gradient(model, data[i, :]), Record, cols(data))
        out = out + gaussian_mechanism(2.0, eps, dl, undisc_container(clip(L2, g)))
    return out
