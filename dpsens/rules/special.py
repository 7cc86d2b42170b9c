"""The registry of special rules, by the name stubs give in ``@rule(...)``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from dpsens.rules import arrays, containers, higher_order, local_model, mechanisms, misc, stacking

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis
    from dpsens.infer.values import Value
    from dpsens.rules.table import Rule

SpecialRule = Callable[["Analysis", "Rule", "dict[str, Value | None]", object], "Value"]

RULES: dict[str, SpecialRule] = {
    "clip": containers.clip,
    "norm_convert": containers.norm_convert,
    "undisc_container": containers.undisc_container,
    "map_rows": higher_order.map_rows,
    "fold": higher_order.fold,
    "count": higher_order.count,
    "rows": misc.rows,
    "cols": misc.cols,
    "len": misc.length,
    "elementwise_lipschitz": misc.elementwise_lipschitz,
    "join": misc.join_rule,
    "float": misc.to_float,
    "int": misc.to_int,
    "bool": misc.to_bool,
    "sum": misc.sum_rule,
    "mean": misc.mean_rule,
    "vector_norm": misc.vector_norm,
    "zeros": misc.zeros,
    "zeros_like": misc.zeros_like,
    "square": misc.square,
    "array": misc.array,
    "astype": misc.astype,
    "extreme": arrays.extreme,
    "sort": arrays.sort,
    "order_statistic": arrays.order_statistic,
    "variance": arrays.variance,
    "standard_deviation": arrays.standard_deviation,
    "ravel": arrays.ravel,
    "transpose": arrays.transpose,
    "concatenate": stacking.concatenate,
    "hstack": stacking.hstack,
    "vstack": stacking.vstack,
    "stack": stacking.stack,
    "column_stack": stacking.column_stack,
    "diff": arrays.diff,
    "where": arrays.where,
    "dot": arrays.dot,
    "flip": arrays.flip,
    "cumsum": arrays.cumsum,
    "histogram": arrays.histogram,
    "count_nonzero": misc.count_nonzero,
    "unbox": misc.unbox,
    "range": misc.range_rule,
    "laplace_mechanism": mechanisms.laplace,
    "gaussian_mechanism": mechanisms.gaussian,
    "gaussian_mechanism_zcdp": mechanisms.gaussian_zcdp,
    "exponential_mechanism": mechanisms.exponential,
    "report_noisy_max": mechanisms.report_noisy_max,
    "above_threshold": mechanisms.above_threshold,
    "randomized_response": mechanisms.randomized_response,
    "sample": mechanisms.sample,
    "parallel_fold_rows": mechanisms.parallel_fold_rows,
    "kary_randomized_response": local_model.kary_randomized_response,
    "local_laplace": local_model.local_laplace,
    "shuffle": local_model.shuffle,
}
