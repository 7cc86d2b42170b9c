"""Per-function privacy budgets from the config: DPS501 when a cost is not provably within."""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from fnmatch import fnmatchcase
from typing import Any, Sequence

from dpsens.config import Budget
from dpsens.diagnostics import Diagnostic

_DIMENSION = re.compile(r"\b(rows|cols|len)\((\w+)\)")
_NAME = re.compile(r"\b[A-Za-z_]\w*\b")
_BUILTIN_NAMES = {"inf", "oo", "sqrt", "log", "exp", "abs", "max", "min", "Max", "Min", "Abs",
                  "pi", "E"}


def findings(path: str, module: str, functions: Sequence[dict[str, Any]],
             budgets: Sequence[Budget], text: str | None,
             delta_prime: float) -> list[Diagnostic]:
    """DPS501 for each reported privacy function over a budget whose glob matches it.

    A glob matches the qualified name (``pkg.mod.dp_mean``) or the name within its
    module (``dp_mean``); ``*`` spans dots, as in fnmatch. A budget without a delta allows
    delta_prime, the delta its epsilon is accounted at (any delta below 1 would pass
    gaussian_mechanism(1, 0.5, 0.9, x) under epsilon <= 1).
    """
    out = []
    for function in functions:
        names = (function["qualname"], f"{module}.{function['qualname']}")
        costs = [p for p in function["params"] if "epsilon" in p]
        for given in budgets:
            budget = given if given.delta is not None else replace(given, delta=delta_prime)
            if costs and any(fnmatchcase(name, budget.pattern) for name in names):
                problems = _over(costs, budget)
                if problems:
                    line, column = _def_position(text, function["qualname"], function["line"])
                    implied = " (without a delta, a budget allows delta_prime, " \
                        f"{delta_prime:g})" if given.delta is None and any(
                            p.startswith("delta") for p in problems) else ""
                    message = (f"'{function['qualname']}' exceeds its privacy budget "
                               f"('{budget.pattern}': {_limits(given)}): {'; '.join(problems)}"
                               f"{implied}")
                    out.append(Diagnostic(path, line, column, "DPS501", message))
    return out


def _limits(budget: Budget) -> str:
    parts = [f"{k} <= {v:g}" for k, v in (("epsilon", budget.epsilon), ("delta", budget.delta))
             if v is not None]
    return ", ".join(parts)


def _over(params: Sequence[dict[str, Any]], budget: Budget) -> list[str]:
    from dpsens.sym import expr as E

    problems = []
    for kind, limit in (("epsilon", budget.epsilon), ("delta", budget.delta)):
        if limit is None:
            continue
        for param in params:
            cost = _parse(param[kind])
            verdict = E.decide_le(cost, E.number(limit)) if cost is not None else None
            if verdict is False and cost is not None and cost.is_number:
                problems.append(f"{kind} of '{param['name']}' is {param[kind]}")
            elif verdict is not True:
                problems.append(f"{kind} of '{param['name']}' is {param[kind]}, "
                                f"which cannot be shown to stay within {limit:g}")
    return problems


def _parse(text: str) -> Any:
    """A report-syntax cost as a sympy expression over static symbols and dimensions."""
    from dpsens.sym import expr as E

    symbols: dict[str, Any] = {}

    def dimension(match: re.Match[str]) -> str:
        placeholder = f"_dim{len(symbols)}"
        symbols[placeholder] = E.dimension(match.group(1), match.group(2))
        return placeholder

    rewritten = _DIMENSION.sub(dimension, text)
    for name in _NAME.findall(rewritten):
        if name not in symbols and name not in _BUILTIN_NAMES:
            symbols[name] = E.static_symbol(name)
    try:
        return E.parse(rewritten, symbols)
    except Exception:  # noqa: BLE001 - an unparsable cost is one that cannot be shown within
        return None


def _def_position(text: str | None, qualname: str, reported: int) -> tuple[int, int]:
    """The 1-based line and column of the ``def`` keyword of a function, found by name.

    The def line is where a suppression comment for the whole function goes, so
    the finding is put there rather than wherever the report's line points.
    """
    try:
        scope: list[ast.stmt] = ast.parse(text or "").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return reported, 1
    definitions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | None = None
    for part in qualname.split("."):
        node = next((n for n in scope if isinstance(n, definitions) and n.name == part), None)
        if node is None:
            return reported, 1
        scope = node.body
    if node is None:
        return reported, 1
    return node.lineno, node.col_offset + 1


__all__ = ["findings"]
