"""R-int-dtype (D154): a Real that Python holds as an int makes numpy build an integer
array, which truncates a real stored into it and raises on ``w += 0.5`` (review34 finding 1).
Each unsound program is kept with what it used to report; the float-certain controls
must stay exact."""

import numpy as np

from dpsens import Priv, Real, Static, laplace_mechanism


# max(0, y) is the int 0 for y <= 0: w is int64 and 0.5 * z is truncated (was z=1/2).
def max_int_operand(y: Real, z: Real) -> Real:  # expect: y=inf; z=inf
    a = max(0, y)
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


# An if-expression with an int arm (was z=1/2).
def if_expression_int_arm(y: Real, z: Real) -> Real:  # expect: y=inf; z=inf
    a = 0 if y < 0.0 else y
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


# zeros_like of the number keeps its dtype (np.zeros_like(0) is an int 0-d array): a
# step in y too (was y=0).
def zeros_like_of_int_operand(y: Real, z: Real) -> Real:  # expect: y=inf; z=inf
    a = max(0, y)
    w = np.zeros_like(a)
    w[()] = 0.5 * z
    return float(w)


# A released store into such an array: truncated or not as y decides (was y=(2, 0), z=(1, 0)).
def released_store(y: Real, z: Real) -> Priv[Real]:  # expect: y=(inf, 0); z=(inf, 0); accounting=sequential  # E: DPS409
    a = max(0, y, -1)
    w = np.array([a, a])
    w[0] = np.clip(z, 0.0, 1.0)
    return laplace_mechanism(1.0, 1.0, float(w[0]))


# w += 0.5 raises UFuncTypeError on an int64 array: only for y <= 0 (was y=(1, 0)).
def leak_sign(y: Real) -> Priv[Real]:  # expect: y=(inf, inf); accounting=released  # E: DPS403
    a = max(0, np.clip(y, -1.0, 1.0))
    w = np.array([a, a])
    w += 0.5
    return laplace_mechanism(2.0, 1.0, float(w[0]))


# Only public values decide the dtype: still a truncating store (was z=1/2).
def public_branch_int(z: Real, flag: Static[bool]) -> Real:  # expect: z=inf; flag=static
    a = 0
    if flag:
        a = 1.5
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


def min_of_static_int(z: Real, n: Static[int]) -> Real:  # expect: z=inf; n=static
    w = np.zeros(n) + min(n, 2.5)     # float either way (np.zeros is float)
    u = np.array([min(n, 2.5), 0.0])  # float either way (0.0)
    v = np.array([min(n, 2.5)])       # an int array when n <= 2
    v[0] = 0.5 * z
    return float(np.sum(v) + np.sum(w) + np.sum(u))


# A Static[float] may be given an int (mypy takes f(z, 3)): np.array([c, c]) is int64.
def static_float_given_int(z: Real, c: Static[float]) -> Real:  # expect: z=inf; c=static
    w = np.array([c, c])
    w[0] = 0.5 * z
    return float(np.sum(w))


# A loop that may run no iteration leaves the int it started with.
def loop_from_int(z: Real, n: Static[int]) -> Real:  # expect: z=inf; n=static; assumes=n >= 0
    a = 0
    for _ in range(n):
        a = a + 1.5
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


def _doubled(x: Real) -> Real:  # expect: x=2
    w = np.array([x, x])
    w[0] = 0.25
    return float(np.sum(w))


# A Real parameter given an int by analyzed code: the callee's arrays are not known.
def helper_given_int(y: Real) -> Real:  # expect: y=inf
    return _doubled(max(0, y))


# numpy's joins promote over their parts: arrays of possible ints joined are possibly
# int64 (merged from parallel work, R-concat and R-int-dtype met: they were z=1/2).
def concatenated_int_arrays(y: Real, z: Real) -> Real:  # expect: y=inf; z=inf
    a = max(0, y)
    w = np.concatenate([np.array([a, a]), np.array([a])])
    w[0] = 0.5 * z
    return float(np.sum(w))


def hstacked_int_numbers(y: Real, z: Real) -> Real:  # expect: y=inf; z=inf
    a = max(0, y)
    w = np.hstack((a, a))
    w[0] = 0.5 * z
    return float(np.sum(w))


def vstacked_int_rows(y: Real, z: Real) -> Real:  # expect: y=inf; z=inf
    a = max(0, y)
    w = np.vstack([np.array([a, a]), np.array([a, a])])
    w[0, 0] = 0.5 * z
    return float(np.sum(w))


# --- Controls: numbers numpy certainly holds as floats keep their exact results. ---

def max_float_operand(y: Real, z: Real) -> Real:  # expect: y=2; z=1/2
    a = max(0.0, y)
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


def one_float_entry(y: Real, z: Real) -> Real:  # expect: y=1; z=1/2
    a = max(0, y)
    w = np.array([a, 1.0])  # one float entry: numpy upcasts the array
    w[0] = 0.5 * z
    return float(np.sum(w))


def float_times_int_operand(y: Real, z: Real) -> Real:  # expect: y=inf; z=1/2
    a = 0
    if y > 0.0:
        a = y
    w = np.array([a, 1.0 * a])  # 1.0 * a is a float
    w[0] = 0.5 * z
    return float(np.sum(w))


def dtype_float_given(y: Real, z: Real) -> Real:  # expect: y=2; z=1/2
    a = max(0, y)
    w = np.array([a, a], dtype=float)
    w[0] = 0.5 * z
    return float(np.sum(w))


def converted_by_float(y: Real, z: Real) -> Real:  # expect: y=2; z=1/2
    a = float(max(0, y))
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


def divided(y: Real, z: Real) -> Real:  # expect: y=1; z=1/2
    a = max(0, y) / 2
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


def in_place_on_floats(y: Real) -> Priv[Real]:  # expect: y=(1, 0); accounting=sequential
    a = max(0.0, np.clip(y, -1.0, 1.0))
    w = np.array([a, a])
    w += 0.5
    return laplace_mechanism(2.0, 1.0, float(w[0]))


def helper_given_float(y: Real) -> Real:  # expect: y=2
    return _doubled(max(0.0, y))


def loop_from_float(z: Real, n: Static[int]) -> Real:  # expect: z=1/2; n=static; assumes=n >= 0
    a = 0.0
    for _ in range(n):
        a = a + 1.5
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


# numpy's 1-Lipschitz maps of a list make an array of it, as numpy promotes its entries
# (the list was kept as a tuple, and the store into it not checked: z=1/2).
def absolute_of_int_list(y: Real, z: Real) -> Real:  # expect: y=inf; z=inf
    a = max(0, y)
    w = np.abs([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


def absolute_of_a_list_with_a_float(y: Real, z: Real) -> Real:  # expect: y=1; z=1/2
    a = max(0, y)
    w = np.abs([a, 1.0])
    w[0] = 0.5 * z
    return float(np.sum(w))

# One float part makes the join a float array.
def hstacked_with_a_float(y: Real, z: Real) -> Real:  # expect: y=1; z=1/2
    a = max(0, y)
    w = np.hstack((a, 1.0))
    w[0] = 0.5 * z
    return float(np.sum(w))
