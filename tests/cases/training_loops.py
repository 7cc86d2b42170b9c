"""Training loops in the style of DiffPrivacyInference's DP gradient descent: a public
model, updated only with noised gradients, goes into a black box each step."""

import numpy as np
import numpy.typing as npt

from dpsens import (
    BlackBox, Data, L2, L_inf, MetricMatrix, MetricVector, Priv, Real, Static, clip, cols,
    gaussian_mechanism, rows, sample, unbox, undisc_container,
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


# R-loop-public: a value public at the start that every iteration keeps public (a model
# updated only with noised values) needs no loop variable. Epochs of per-record steps
# compose as n of them; their delta was inf (the outer loop's variable for the model
# looked as if it moved with each record).
def epochs_of_per_record_steps(data: MetricMatrix[L_inf, Data], eps: Static[float], dl: Static[float], eta: Static[float], n: Static[int]) -> Priv[MetricVector[L2, Real]]:  # expect: data=(eps*n, dl*n); eps=static; dl=static; eta=static; n=static; assumes=dl < 1, dl > 0, eps > 0, n >= 0; accounting=basic
    model = np.zeros(cols(data))
    for _ in range(n):
        for i in range(rows(data)):
            g = unbox(gradient(model, data[i, :]), Record, cols(data))
            model = model - eta * gaussian_mechanism(2.0, eps, dl, undisc_container(clip(L2, g)))
    return model


def epochs_of_feedback(data: MetricMatrix[L_inf, Data], n: Static[int]) -> Priv[Real]:  # expect: data=(n/2, n/1000000); n=static; assumes=n >= 0; accounting=basic
    acc = 0.0
    for _ in range(n):
        for i in range(rows(data)):
            v = float(np.clip(data[i, 0] - acc, 0.0, 1.0))
            acc = acc + gaussian_mechanism(1.0, 0.5, 1e-6, v)
    return acc


def epochs_with_a_raw_step(data: MetricMatrix[L_inf, Data], n: Static[int]) -> Priv[Real]:  # expect: data=(inf, inf); n=static; assumes=n >= 0; accounting=released # E: DPS403
    acc = 0.0
    for _ in range(n):
        for i in range(rows(data)):
            v = float(np.clip(data[i, 0] - acc, 0.0, 1.0))
            acc = acc + gaussian_mechanism(1.0, 0.5, 1e-6, v)  # E: DPS402
        acc = acc + float(np.clip(data[0, 0], 0.0, 1.0))  # not noised: acc is not public
    return acc


def labelled_gradient(model: MetricVector[L2, Real], record: MetricVector[L_inf, Data], label: MetricVector[L_inf, Data]) -> BlackBox[npt.NDArray[np.float64]]:  # expect: model=inf; record=inf; label=inf
    return (float(np.dot(model, record)) - float(label[0])) * record


# Rows of two parameters read in one step (the Julia tool's DPGD test with data and
# labels): a row of data moving does not move a row of labels, so neither release is
# paid merged with the other (δ·e^ε, it was).
def records_and_labels(data: MetricMatrix[L_inf, Data], labels: MetricMatrix[L_inf, Data], eps: Static[float], dl: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: data=(eps, dl); labels=(eps, dl); eps=static; dl=static; assumes=dl < 1, dl > 0, eps > 0; accounting=sequential
    model = np.zeros(cols(data))
    for i in range(rows(data)):
        g = unbox(labelled_gradient(model, data[i, :], labels[i, :]), Record, cols(data))
        model = model - gaussian_mechanism(2.0, eps, dl, undisc_container(clip(L2, g)))
    return model


def records_read_twice(data: MetricMatrix[L_inf, Data], eps: Static[float], dl: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: data=(eps, dl); eps=static; dl=static; assumes=dl < 1, dl > 0, eps > 0; accounting=sequential
    model = np.zeros(cols(data))
    same = data
    for i in range(rows(data)):  # the same rows under two names: one element (was (2eps, ...))
        g = unbox(labelled_gradient(model, data[i, :], same[i, :]), Record, cols(data))
        model = model - gaussian_mechanism(2.0, eps, dl, undisc_container(clip(L2, g)))
    return model


# The minibatch step of the Julia tool's flux_dp.jl: D[j] and L[j] are the j-th drawn
# record of one sample, one joint row, so their clipped gradient moves by 2 and the
# Gaussian's s = 2 holds (it was "4-sensitive", DPS402 and (inf, inf)).
def minibatch_of_records_and_labels(data: MetricMatrix[L_inf, Data], labels: MetricMatrix[L_inf, Data]) -> Priv[MetricVector[L2, Real]]:  # expect: data=(log(1 + 8*(-1 + exp(1/2))/rows(data)), 1/(12500*rows(data))); labels=(log(1 + 8*(-1 + exp(1/2))/rows(data)), 1/(12500*rows(data))); accounting=basic
    D, L = sample(8, data, labels)
    model = np.zeros(cols(data))
    total = np.zeros(cols(data))
    for j in range(8):
        g = unbox(labelled_gradient(model, D[j, :], L[j, :]), Record, cols(data))
        total = total + undisc_container(clip(L2, g))
    return gaussian_mechanism(2.0, 0.5, 1e-5, total)


# Rows read at one index are one element only when the containers are one input itself:
# a reversed copy's row i is another record's (n − 1 − i), so a changed record moves two
# iterations' tests.
def rows_against_reversed_rows(m: MetricMatrix[L_inf, Data]) -> Real:  # expect: m=2
    r = m[::-1]
    s = 0.0
    for i in range(rows(m)):
        s = s + float(m[i, 0] == r[i, 0])
    return s


def rows_under_two_names(m: MetricMatrix[L_inf, Data]) -> Real:  # expect: m=1
    r = m
    s = 0.0
    for i in range(rows(m)):
        s = s + float(m[i, 0] == r[i, 0])
    return s
