"""Which numpy functions and array methods may return (a view of) an argument.

Shared by the module-globals scan (frontend) and the mutation rules (infer); it
imports nothing, so that the driver's import scan stays free of LibCST and sympy.
"""

from __future__ import annotations

# numpy functions and array methods whose result may be (a view of) an argument.
VIEW_RESULTS = frozenset({
    "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "reshape", "ravel",
    "transpose", "squeeze", "expand_dims", "atleast_1d", "atleast_2d", "atleast_3d",
    "broadcast_to", "broadcast_arrays", "diagonal", "swapaxes", "moveaxis", "rollaxis", "flip",
    "fliplr", "flipud", "rot90", "view", "real", "imag", "split", "array_split", "hsplit",
    "vsplit", "dsplit", "unstack", "matrix_transpose", "permute_dims", "flatten_view",
})
# Those among them whose result lays the entries out in other rows (a transpose, a
# reshape, a diagonal): a store through one moves the other by more than its own distance.
RESHAPING = frozenset({
    "reshape", "ravel", "transpose", "squeeze", "expand_dims", "atleast_1d", "atleast_2d",
    "atleast_3d", "broadcast_to", "broadcast_arrays", "diagonal", "swapaxes", "moveaxis",
    "rollaxis", "rot90", "view", "matrix_transpose", "permute_dims", "flatten_view",
})
# numpy functions and array methods known to build a new array: the stubbed rules and the
# common constructors.  Any other numpy function or method may return (a view of) an
# argument (np.require, np.trim_zeros, np.einsum('i->i', w), w.conj(), w.__array__()).
FRESH_RESULTS = frozenset({
    "sum", "mean", "clip", "abs", "absolute", "max", "min", "amax", "amin", "sort", "cumsum",
    "maximum", "minimum", "sqrt", "exp", "log", "norm", "zeros", "ones", "empty", "full",
    "zeros_like", "ones_like", "empty_like", "full_like", "array", "copy", "astype", "arange",
    "linspace", "concatenate", "hstack", "vstack", "stack", "column_stack",
})
