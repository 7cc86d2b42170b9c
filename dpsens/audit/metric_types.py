"""Parse the type texts of a report back into metrics the auditor can draw from."""

from __future__ import annotations

import re
from dataclasses import dataclass

from dpsens.text import top_level_items

_CONTAINER = re.compile(
    r"^(MetricVector|MetricMatrix|ClippedVector|ClippedMatrix)\[(?:(\w+), )?(\w+), (\w+)\]$")


@dataclass(frozen=True)
class Metric:
    """Shape (scalar, vector, matrix, tuple, list), norm, element kind and row clip norm;
    a tuple's component metrics, or a list's one element metric, in ``parts``."""

    shape: str
    kind: str
    norm: str = "L1"
    clip: str | None = None
    parts: tuple[Metric, ...] = ()


def parse(text: str) -> Metric | None:
    """The metric of a type text such as ``MetricMatrix[L_inf, Data]`` (None if opaque)."""
    if text in ("Real", "Integer", "Data", "Bool", "float", "int", "bool"):
        kind = {"float": "Real", "int": "Integer", "bool": "Bool"}.get(text, text)
        return Metric("scalar", kind)
    for shape in ("tuple", "list"):
        if text.startswith(f"{shape}[") and text.endswith("]"):
            parts = [parse(part) for part in top_level_items(text[len(shape) + 1:-1])]
            if not parts or None in parts or (shape == "list" and len(parts) != 1):
                return None
            return Metric(shape, "", parts=tuple(p for p in parts if p is not None))
    match = _CONTAINER.match(text)
    if match is None:
        return None
    name, clip, norm, kind = match.groups()
    shape = "vector" if "Vector" in name else "matrix"
    return Metric(shape, kind, norm, clip)

