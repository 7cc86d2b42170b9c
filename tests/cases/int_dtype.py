"""R-int-dtype (D154): a Real that Python holds as an int makes numpy build an integer
array, which truncates a real stored into it and raises on ``w += 0.5`` (review34 finding 1).
Each unsound program is kept with what it used to report; the float-certain controls
must stay exact."""

from typing import Callable

import numpy as np

from dpsens import L1, MetricVector, Priv, Real, Static, fold, laplace_mechanism


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


def sign_keeps_an_int_array(y: Real, z: Real) -> Real:  # expect: y=inf; z=inf
    # np.sign of an int64 array is an int64 array (unlike np.exp, np.sqrt, ...): 0.5·z is
    # stored truncated; whether it is depends on y.
    w = np.sign(np.array([max(0, y), 1]))
    w[0] = 0.5 * z
    return float(np.sum(w))


def sign_of_floats(z: Real) -> Real:  # expect: z=1/2
    w = np.sign(np.array([1.0, -2.0]))
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


# review36 U1: a Real parameter whose default is an int is one whenever a caller leaves it
# out (was x=1/2 here, and z=1/2 in the callers below; the privacy one (1, 0)).
ZERO = 0


def _int_default(x: Real, a: Real = 0) -> Real:  # expect: x=inf; a=2
    w = np.array([a, a])
    w[0] = 0.5 * x
    return float(np.sum(w))


def default_left_out(z: Real) -> Real:  # expect: z=inf
    return _int_default(z)


def _global_default(x: Real, a: Real = ZERO) -> Real:  # expect: x=inf; a=2
    w = np.array([a, a])
    w[0] = 0.5 * x
    return float(np.sum(w))


def global_default_left_out(z: Real) -> Real:  # expect: z=inf
    return _global_default(z)


def _default_returned(a: Real = 0) -> Real:  # expect: a=1
    return a * 1


def default_number_returned(z: Real) -> Real:  # expect: z=inf
    a = _default_returned()
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


def _released_default(x: Real, a: Real = 0) -> Priv[Real]:  # expect: x=(inf, 0); a=(2, 0); accounting=sequential  # E: DPS409
    w = np.array([a, a])
    w[0] = np.clip(x, 0.0, 1.0)
    return laplace_mechanism(1.0, 1.0, float(w[0]))


def released_default_left_out(z: Real) -> Priv[Real]:  # expect: z=(inf, 0); accounting=sequential  # E: DPS409
    return _released_default(z)


# Control: a float default keeps the exact results.
def _float_default(x: Real, a: Real = 0.0) -> Real:  # expect: x=1/2; a=2
    w = np.array([a, a])
    w[0] = 0.5 * x
    return float(np.sum(w))


def float_default_left_out(z: Real) -> Real:  # expect: z=1/2
    return _float_default(z)


# review36 U2: a declared -> Real does not make an int returned a float (were z=1/2; the
# privacy one (1, 0)).
def _returns_zero() -> Real:  # expect:
    return 0


def helper_returns_int(z: Real) -> Real:  # expect: z=inf
    a = _returns_zero()
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


def _returns_length(v: MetricVector[L1, Real]) -> Real:  # expect: v=0
    return len(v)


def helper_returns_length(v: MetricVector[L1, Real], z: Real) -> Real:  # expect: v=0; z=inf
    a = _returns_length(v)
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


def _returns_int_pair(y: Real) -> tuple[Real, Real]:  # expect: y=1
    return (0, y)


def helper_returns_int_part(y: Real, z: Real) -> Real:  # expect: y=inf; z=inf
    a, b = _returns_int_pair(y)
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


# Only the part that may be an int is one: the float part keeps its exact result.
def helper_returns_float_part(y: Real, z: Real) -> Real:  # expect: y=2; z=1/2
    a, b = _returns_int_pair(y)
    w = np.array([b, b])
    w[0] = 0.5 * z
    return float(np.sum(w))


def _returns_int_vector(v: MetricVector[L1, Real]) -> MetricVector[L1, Real]:  # expect: v=0
    return np.zeros(3, dtype=int)


def helper_returns_int_vector(v: MetricVector[L1, Real], z: Real) -> Real:  # expect: v=0; z=inf
    w = _returns_int_vector(v)
    w[0] = 0.5 * z
    return float(np.sum(w))


def _returns_count(d: MetricVector[L1, Real]) -> Real:  # expect: d=inf
    return int(np.sum(d > 0.0))


def helper_returns_count(d: MetricVector[L1, Real], z: Real) -> Real:  # expect: d=inf; z=inf
    a = _returns_count(d)
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


def released_helper_int(z: Real) -> Priv[Real]:  # expect: z=(inf, 0); accounting=sequential  # E: DPS409
    a = _returns_zero()
    w = np.array([a, a])
    w[0] = np.clip(z, 0.0, 1.0)
    return laplace_mechanism(1.0, 1.0, float(w[0]))


# Control: a helper returning float(len(v)) returns a float.
def _returns_float_length(v: MetricVector[L1, Real]) -> Real:  # expect: v=0
    return float(len(v))


def helper_returns_float_length(v: MetricVector[L1, Real], z: Real) -> Real:  # expect: v=0; z=1/2
    a = _returns_float_length(v)
    w = np.array([a, a])
    w[0] = 0.5 * z
    return float(np.sum(w))


# review36 U3: an int reaching an analyzed function through a Callable parameter (was y=2).
def _applied(f: Callable[[Real], Real], a: Real) -> Real:  # expect: f=static; a=sens(f, 0)
    return f(a)


def applied_to_int(y: Real) -> Real:  # expect: y=inf
    return _applied(_doubled, max(0, y))


def _applied_to_zero_or(f: Callable[[Real], Real], a: Real) -> Real:  # expect: f=static; a=sens(f, 0)
    return f(max(0, a))


# The higher-order function itself passes the int.
def applied_inside_to_int(y: Real) -> Real:  # expect: y=inf
    return _applied_to_zero_or(_doubled, y)


# A function passed returns an int that the higher-order function builds an array of.
def _stored_into_result(f: Callable[[Real], Real], a: Real, z: Real) -> Real:  # expect: f=static; a=2*sens(f, 0); z=1/2
    b = f(a)
    w = np.array([b, b])
    w[0] = 0.5 * z
    return float(np.sum(w))


def _truncated(t: Real) -> Real:  # expect: t=inf
    return int(t)


def passed_function_returns_int(y: Real, z: Real) -> Real:  # expect: y=inf; z=inf
    return _stored_into_result(_truncated, y, z)


# Controls: floats through the same paths keep the exact results.
def applied_to_float(y: Real) -> Real:  # expect: y=2
    return _applied(_doubled, max(0.0, y))


def _truncated_float(t: Real) -> Real:  # expect: t=inf
    return float(int(t))


def passed_function_returns_float(y: Real, z: Real) -> Real:  # expect: y=inf; z=1/2
    return _stored_into_result(_truncated_float, y, z)



# review37 F3: a default the analysis cannot resolve (a class attribute holding 0) was taken
# as a float (z was 1/2): what is unknown may be an int (D156).
class Constants:
    ZERO = 0


def _with_class_default(x: Real, a: Real = Constants.ZERO) -> Real:  # expect: x=inf; a=2  # E: DPS206
    w = np.array([a, a])
    w[0] = 0.5 * x
    return float(np.sum(w))


def class_default_left_out(z: Real) -> Real:  # expect: z=inf
    return _with_class_default(z)  # E: DPS301


# review37 F2: fold's accumulator starts as init, which may be an int (y, v were 2**len(v)
# and 2**(len(v) - 1)/2; truth ∞: _fold_step truncates into np.array([0, 0])).
def _fold_step(acc: Real, e: Real) -> Real:  # expect: acc=2; e=1/2
    w = np.array([acc, acc])
    w[0] = 0.5 * e
    return float(np.sum(w))


def folded_from_an_int_start(y: Real, v: MetricVector[L1, Real]) -> Real:  # expect: y=inf; v=inf
    return fold(_fold_step, max(0, y), v)


def folded_from_a_float_start(v: MetricVector[L1, Real]) -> Real:  # expect: v=2**(len(v) - 1)/2
    return fold(_fold_step, 0.0, v)
