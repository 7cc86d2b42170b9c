"""Module-level names read as constants only when they have one value (R-global, D38).

A name bound more than once anywhere at module scope, declared ``global`` in a
function, written through ``globals()``, or (for a mutable value) changed in
place or passed where it may be, is DPS206 where it is read: unknown, and
unbounded in every parameter when a function may change it (it may hold a
caller's data that reached it through another call).
"""

import contextlib

import numpy as np

from dpsens import L1, MetricVector, Real

K = 2.0
WEIGHTS = np.ones(3)


def untouched_constant(x: Real) -> Real:  # expect: x=2
    return K * x


def untouched_array(x: Real) -> Real:  # expect: x=1
    v = WEIGHTS
    return x + v[0] + np.sum(WEIGHTS)


SCALE = 1.0
SCALE *= 10.0


def augmented(x: Real) -> Real:  # expect: x=inf
    return SCALE * x  # E: DPS206


LIMIT = 1.0
if True:
    LIMIT = 100.0


def rebound_in_if(x: Real) -> Real:  # expect: x=inf
    return LIMIT * x  # E: DPS206


C3 = 1.0
for _ in range(3):
    C3 = C3 * 10.0


def rebound_in_loop(x: Real) -> Real:  # expect: x=inf
    return C3 * x  # E: DPS206


A = 1.0
_, A = 0.0, 100.0


def rebound_by_unpacking(x: Real) -> Real:  # expect: x=inf
    return A * x  # E: DPS206


B = 1.0
for B in [100.0]:
    pass


def rebound_by_for(x: Real) -> Real:  # expect: x=inf
    return B * x  # E: DPS206


C = 1.0
with contextlib.nullcontext():
    C = 100.0


def rebound_in_with(x: Real) -> Real:  # expect: x=inf
    return C * x  # E: DPS206


D = 1.0
(D := 100.0)


def rebound_by_walrus(x: Real) -> Real:  # expect: x=inf
    return D * x  # E: DPS206


C10 = 1.0


def _mutate():
    global C10  # E: DPS201
    C10 = 1000.0


_mutate()


def rebound_by_global_statement(x: Real) -> Real:  # expect: x=inf
    return C10 * x  # E: DPS206


C11 = 1.0
globals()["C11"] = 77.0


def rebound_through_globals(x: Real) -> Real:  # expect: x=inf
    return C11 * x  # E: DPS206


def h(x: Real) -> Real:  # expect: x=inf  # E: DPS206
    return x


if True:
    def h(x: Real) -> Real:  # E: DPS201
        return 100.0 * x


def calls_a_redefined_function(x: Real) -> Real:  # expect: x=inf
    return h(x)  # E: DPS206, DPS203


def deco(f):  # E: DPS103
    return lambda t: 100.0 * f(t)


def h3(x: Real) -> Real:  # expect: x=inf  # E: DPS206
    return x


h3 = deco(h3)


def calls_a_rewrapped_function(x: Real) -> Real:  # expect: x=inf
    return h3(x)  # E: DPS206, DPS203


def G(x: Real) -> Real:  # expect: x=inf  # E: DPS206
    return x


G = lambda x: 100.0 * x


def calls_a_function_rebound_to_a_lambda(x: Real) -> Real:  # expect: x=inf
    return G(x)  # E: DPS206, DPS203


ARR = np.zeros(3)


def write_arr(x: Real) -> Real:  # expect: x=inf
    ARR[0] = x  # E: DPS205
    return 0.0


def read_arr() -> Real:
    return ARR[0]  # E: DPS206


def store_then_read(x: Real) -> Real:  # expect: x=inf
    write_arr(x)
    return read_arr()


OUT = np.zeros(3)


def copy_into_global(x: MetricVector[L1, Real]) -> Real:  # expect: x=inf
    np.copyto(OUT, x)  # E: DPS203, DPS206
    return 0.0


def copy_then_read(x: MetricVector[L1, Real]) -> Real:  # expect: x=inf
    copy_into_global(x)
    return OUT[0]  # E: DPS206


STATE = 2.0


def set_state(x: Real) -> Real:  # expect: x=0
    global STATE  # E: DPS201
    STATE = x
    return 0.0


def set_then_read(x: Real) -> Real:  # expect: x=inf
    set_state(x)
    return STATE + 0.0  # E: DPS206


LST = np.zeros(1).tolist()


def append_then_read(x: Real) -> Real:  # expect: x=inf
    LST.append(x)  # E: DPS203
    return LST[-1]  # E: DPS206


# D43: every module-level name but a def, class, import or a plain `NAME = v` of an
# immutable v may be mutable, so writes into it are tracked.
ANN: np.ndarray = np.zeros(3)


def write_annotated(x: Real) -> Real:  # expect: x=inf
    ANN[0] = x  # E: DPS205
    return 0.0


def annotated_then_read(x: Real) -> Real:  # expect: x=inf
    write_annotated(x)
    return ANN[0]  # E: DPS206


if True:
    IN_IF = np.zeros(3)
TA, TB = np.zeros(3), np.zeros(3)
(WAL := np.zeros(3))
RR = np.r_[0.0, 0.0, 0.0]
MG = np.mgrid[0.0:1.0:3j]


def write_bound_otherwise(x: Real) -> Real:  # expect: x=inf
    IN_IF[0] = x  # E: DPS205
    TB[0] = x  # E: DPS205
    WAL[0] = x  # E: DPS205
    RR[0] = x  # E: DPS205
    MG[0] = x  # E: DPS205
    return 0.0


def bound_otherwise_then_read(x: Real) -> Real:  # expect: x=inf
    write_bound_otherwise(x)
    return IN_IF[0] + TB[0] + WAL[0] + RR[0] + MG[0]  # E: DPS206


# Writes through numpy: a positional out, an unbound method, results that may be the array.
POS_OUT = np.zeros(3)
CLIP_OUT = np.zeros(3)
FILLED = np.zeros(3)
REQUIRED = np.zeros(3)
CAST = np.zeros(3)


def positional_out(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    np.abs(v, POS_OUT)  # E: DPS303, DPS206
    np.clip(v, -10.0, 10.0, CLIP_OUT)  # E: DPS303, DPS206
    return 0.0


def positional_out_then_read(v: MetricVector[L1, Real]) -> Real:  # expect: v=inf
    positional_out(v)
    return POS_OUT[0] + CLIP_OUT[0]  # E: DPS206


def unbound_fill(x: Real) -> Real:  # expect: x=inf
    np.ndarray.fill(FILLED, x)  # E: DPS203, DPS206
    return 0.0


def unbound_fill_then_read(x: Real) -> Real:  # expect: x=inf
    unbound_fill(x)
    return FILLED[0]  # E: DPS206


def through_results(x: Real) -> Real:  # expect: x=inf
    u = np.require(REQUIRED)  # E: DPS203, DPS206
    u[0] = x
    w = CAST.astype(float, copy=False)  # E: DPS203  (np.require was given an unknown object: R-kept)
    w[0] = x
    return 0.0


def through_results_then_read(x: Real) -> Real:  # expect: x=inf
    through_results(x)
    return REQUIRED[0] + CAST[0]  # E: DPS206


# A module-level container or alias holds another global: a function's change through
# it changes that global too (D63: read_after_alias_write was 0, truth 1).
INNER = np.zeros(3)
HOLDER = (INNER, 1.0)
INNER_ALIAS = INNER


def write_through_holder(x: Real) -> Real:  # expect: x=inf
    HOLDER[0][0] = x  # E: DPS205
    INNER_ALIAS[1] = x  # E: DPS205
    return 0.0


def read_after_holder_write(x: Real) -> Real:  # expect: x=inf
    write_through_holder(x)
    return INNER[0] + INNER[1]  # E: DPS206
