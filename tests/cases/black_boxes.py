"""R-blackbox effects: a black box's result is unbounded in its arguments, and what it
does besides is read from its body: arrays it writes into change the caller's, state
it keeps reaches later calls (found by a review porting DiffPrivacyInference's tests,
whose black boxes cannot mutate; Python's can)."""

import collections

import numpy as np
import numpy.typing as npt
import scipy.ndimage
import scipy.optimize
import scipy.special

from dpsens import (L1, L2, L_inf, BlackBox, Data, MetricMatrix, MetricVector, Priv, Real, Static, clip,
                    cols, gaussian_mechanism, laplace_mechanism, rows, unbox, undisc_container)

_STASH = [0.0]
_QUEUE: collections.deque[float] = collections.deque()


def scale_in_place(w: MetricVector[L1, Real]) -> BlackBox[float]:  # expect: w=inf
    w[0] = 1000 * w[0]
    return 0.0


def written_by_a_black_box(x: Real) -> Real:  # expect: x=inf; returns=unknown
    # Truth 1000 (it was 1: the caller's array was taken as unchanged).
    w = np.zeros(3)
    w[0] = x
    scale_in_place(w)
    return float(w[0])


def released_after_a_black_box_wrote(x: Real) -> Priv[Real]:  # expect: x=(inf, inf); accounting=released  # E: DPS403
    w = np.zeros(3)
    w[0] = np.clip(x, 0.0, 1.0)
    scale_in_place(w)
    return laplace_mechanism(1.0, 1.0, w[0])


def scale_row(record: MetricVector[L_inf, Real]) -> BlackBox[float]:  # expect: record=inf
    record *= 1000
    return 0.0


def row_scaled_by_a_black_box(m: MetricMatrix[L1, Real]) -> Real:  # expect: m=inf; returns=unknown
    scale_row(m[0, :])  # a view of the parameter: the caller's matrix changes
    return float(m[0, 0])


def stash(v: Real) -> BlackBox[float]:  # expect: v=inf
    _STASH[0] = v
    return 0.0


def fetch(n: Static[int]) -> BlackBox[float]:  # expect: n=static
    return float(_STASH[0]) * n


def through_a_stash(x: Real) -> Real:  # expect: x=inf
    # fetch is given nothing sensitive, but returns what stash kept (it was 0).
    stash(x)
    return unbox(fetch(1), Real, ())


def leaky_gradient(model: MetricVector[L2, Real], record: MetricVector[L_inf, Data]) -> BlackBox[npt.NDArray[np.float64]]:  # expect: model=inf; record=inf
    model += record  # the private record, written into the caller's model
    return np.zeros(len(record))


def training_with_a_leaky_gradient(data: MetricMatrix[L_inf, Data], eps: Static[float], dl: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: data=(inf, inf); eps=static; dl=static; assumes=dl < 1, dl > 0, eps > 0; accounting=released  # E: DPS403
    model = np.zeros(cols(data))
    for i in range(rows(data)):
        g = unbox(leaky_gradient(model, data[i, :]), MetricVector[L_inf, Data], cols(data))  # E: DPS301
        model = model - gaussian_mechanism(2.0, eps, dl, undisc_container(clip(L2, g)))
    return model


def pure_gradient(model: MetricVector[L2, Real], record: MetricVector[L_inf, Data]) -> BlackBox[npt.NDArray[np.float64]]:  # expect: model=inf; record=inf
    return np.asarray(record) - model


def training_with_a_pure_gradient(data: MetricMatrix[L_inf, Data], eps: Static[float], dl: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: data=(eps, dl); eps=static; dl=static; assumes=dl < 1, dl > 0, eps > 0; accounting=sequential
    model = np.zeros(cols(data))
    for i in range(rows(data)):
        g = unbox(pure_gradient(model, data[i, :]), MetricVector[L_inf, Data], cols(data))
        model = model - gaussian_mechanism(2.0, eps, dl, undisc_container(clip(L2, g)))
    return model


def exec_scale(w: MetricVector[L1, Real]) -> BlackBox[float]:  # expect: w=inf
    exec("w[0] = 1000 * w[0]")  # reaches any name: the body is not followed
    return 0.0


def written_by_exec_in_a_black_box(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)
    w[0] = x
    exec_scale(w)
    return float(w[0])


def setitem_scale(w: MetricVector[L1, Real]) -> BlackBox[float]:  # expect: w=inf
    w.__setitem__(0, 1000 * w[0])  # an array's own method is not trusted as library code is
    return 0.0


def written_by_a_method_in_a_black_box(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)
    w[0] = x
    setitem_scale(w)
    return float(w[0])


def gradient_of_a_copy(model: MetricVector[L2, Real], record: MetricVector[L_inf, Data]) -> BlackBox[npt.NDArray[np.float64]]:  # expect: model=inf; record=inf
    g = record.copy()  # new memory: the store below leaves the caller's record alone
    g[0] = 0.0
    return g


def training_with_a_copying_gradient(data: MetricMatrix[L_inf, Data], eps: Static[float], dl: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: data=(eps, dl); eps=static; dl=static; assumes=dl < 1, dl > 0, eps > 0; accounting=sequential
    model = np.zeros(cols(data))
    for i in range(rows(data)):
        g = unbox(gradient_of_a_copy(model, data[i, :]), MetricVector[L_inf, Data], cols(data))
        model = model - gaussian_mechanism(2.0, eps, dl, undisc_container(clip(L2, g)))
    return model


# The second review of R-blackbox: numpy and Python's own modules are not trusted (they
# write through positional outs, print, seed, keep); a third-party library is.
def scaled_through_a_positional_out(w: MetricVector[L1, Real]) -> BlackBox[float]:  # expect: w=inf
    np.multiply(w, 1000.0, w)
    return 0.0


def written_by_numpy_in_a_black_box(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)
    w[0] = x
    scaled_through_a_positional_out(w)
    return float(w[0])


def shows_its_argument(w: MetricVector[L1, Real]) -> BlackBox[float]:  # expect: w=inf
    print(w)
    return 0.0


def released_after_a_black_box_printed(x: Real, y: Real) -> Priv[Real]:  # expect: x=(inf, inf); y=(1, 0); accounting=released, sequential  # E: DPS403
    w = np.zeros(3)
    w[0] = x
    shows_its_argument(w)  # x was printed: no noise on y makes up for that
    return laplace_mechanism(1.0, 1.0, y)


def queue_it(v: Real) -> BlackBox[float]:  # expect: v=inf
    _QUEUE.append(v)  # a module-level object keeps it
    return 0.0


def dequeue(n: Static[int]) -> BlackBox[float]:  # expect: n=static
    return float(_QUEUE.popleft()) * n


def through_a_queue(x: Real) -> Real:  # expect: x=inf
    queue_it(x)
    return unbox(dequeue(1), Real, ())


def accumulate(v: Real, total: MetricVector[L1, Real] = np.zeros(1)) -> BlackBox[float]:  # expect: v=inf; total=inf
    total[0] = total[0] + v  # the default array lives on between calls
    return float(total[0])


def through_a_default(x: Real) -> Real:  # expect: x=inf
    accumulate(x)
    return unbox(accumulate(0.0), Real, ())


def logistic_gradient(model: MetricVector[L2, Real], record: MetricVector[L_inf, Data]) -> BlackBox[npt.NDArray[np.float64]]:  # expect: model=inf; record=inf
    return scipy.special.expit(np.dot(model, record)) * np.asarray(record)  # a library: trusted


def training_with_a_library_gradient(data: MetricMatrix[L_inf, Data], eps: Static[float], dl: Static[float]) -> Priv[MetricVector[L2, Real]]:  # expect: data=(eps, dl); eps=static; dl=static; assumes=dl < 1, dl > 0, eps > 0; accounting=sequential
    model = np.zeros(cols(data))
    for i in range(rows(data)):
        g = unbox(logistic_gradient(model, data[i, :]), MetricVector[L_inf, Data], cols(data))
        model = model - gaussian_mechanism(2.0, eps, dl, undisc_container(clip(L2, g)))
    return model


# The third review of R-blackbox: a trusted library still writes into what it is given
# (an output argument of any name) and runs the closures it is given (each was 0).
def shifted_into_the_argument(w: MetricVector[L1, Real], x: Real) -> BlackBox[float]:  # expect: w=inf; x=inf
    scipy.ndimage.shift(w * 0.0 + x, 0.0, output=w)
    return 0.0


def written_by_a_library_output(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)
    shifted_into_the_argument(w, x)
    return float(w[0])


def minimized_with_a_writing_callback(w: MetricVector[L1, Real], x: Real) -> BlackBox[float]:  # expect: w=inf; x=inf
    def objective(z: float) -> float:
        w[0] = x
        return z * z
    scipy.optimize.minimize_scalar(objective)
    return 0.0


def written_by_a_callback(x: Real) -> Real:  # expect: x=inf; returns=unknown
    w = np.zeros(3)
    minimized_with_a_writing_callback(w, x)
    return float(w[0])
