"""Parse the type texts of a report back into metrics the auditor can draw from."""

from __future__ import annotations

import re
from dataclasses import dataclass

_CONTAINER = re.compile(
    r"^(MetricVector|MetricMatrix|ClippedVector|ClippedMatrix)\[(?:(\w+), )?(\w+), (\w+)\]$")


@dataclass(frozen=True)
class Metric:
    """Shape (scalar, vector, matrix), norm, element kind and row clip norm."""

    shape: str
    kind: str
    norm: str = "L1"
    clip: str | None = None


def parse(text: str) -> Metric | None:
    """The metric of a type text such as ``MetricMatrix[L_inf, Data]`` (None if opaque)."""
    if text in ("Real", "Integer", "Data", "Bool", "float", "int", "bool"):
        kind = {"float": "Real", "int": "Integer", "bool": "Bool"}.get(text, text)
        return Metric("scalar", kind)
    match = _CONTAINER.match(text)
    if match is None:
        return None
    name, clip, norm, kind = match.groups()
    shape = "vector" if "Vector" in name else "matrix"
    return Metric(shape, kind, norm, clip)
