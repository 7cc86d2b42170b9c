"""Random programs for fuzzing the analyzer: dpsens-subset programs and mutated examples.

Both are functions of a ``random.Random``, so a failing case is replayed
from its seed.  The generated programs are *plausible* rather than correct:
they mix the annotation vocabulary, builtins, mechanisms, loops and branches
with wrong arities, wrong metrics and unknown names, which is what a
user's code in progress looks like.
"""

from __future__ import annotations

import random

HEADER = """\
import numpy as np
from dpsens import (
    Bool, Data, Integer, L1, L2, L_inf, MetricMatrix, MetricVector, Priv, Real, Static,
    above_threshold, clip, cols, count, discrete, fold, gaussian_mechanism, gaussian_mechanism_zcdp,
    laplace_mechanism, map_rows, norm_convert, parallel_fold_rows, randomized_response,
    report_noisy_max, rows, sample, undisc, undisc_container,
)
"""

NORMS = ["L1", "L2", "L_inf"]
KINDS = ["Real", "Data", "Integer"]
SCALARS = ["Real", "Integer", "Data", "Bool", "float", "int"]
STATICS = ["Static[float]", "Static[int]", "Static[bool]"]


def _type(r: random.Random) -> str:
    choice = r.random()
    if choice < 0.3:
        return r.choice(SCALARS)
    if choice < 0.55:
        return f"MetricVector[{r.choice(NORMS)}, {r.choice(KINDS)}]"
    if choice < 0.8:
        return f"MetricMatrix[{r.choice(NORMS)}, {r.choice(KINDS)}]"
    return r.choice(STATICS)


class _Function:
    def __init__(self, r: random.Random, name: str, others: list[str]) -> None:
        self.r, self.name, self.others = r, name, others
        self.params = [(f"p{i}", _type(r)) for i in range(r.randint(0, 4))]
        self.privacy = r.random() < 0.35
        self.names = [p for p, _ in self.params] or ["0.0"]
        self.lines: list[str] = []

    def expr(self, depth: int = 0) -> str:
        r = self.r
        if depth > 3 or r.random() < 0.3:
            return r.choice(self.names + ["1.0", "2", "0.5", "-3.0", "1e308", "True"])
        x, y = self.expr(depth + 1), self.expr(depth + 1)
        forms = [
            f"{x} + {y}", f"{x} - {y}", f"{x} * {y}", f"{x} / {y}", f"-{x}", f"({x})",
            f"abs({x})", f"{x} ** 2", f"{x} if {x} > {y} else {y}", f"{x}[0]", f"{x}[0, :]",
            f"{x}[:, 0]", f"len({x})", f"rows({x})", f"cols({x})", f"{x}.shape[0]",
            f"np.sum({x})", f"np.sum({x}, axis=0)", f"np.mean({x})", f"np.clip({x}, 0.0, 1.0)",
            f"np.sqrt({x})", f"np.exp({x})", f"np.dot({x}, {y})", f"np.zeros({x})",
            f"clip({r.choice(NORMS)}, {x})", f"norm_convert({r.choice(NORMS)}, {x})",
            f"undisc_container(clip({r.choice(NORMS)}, {x}))", f"discrete({x})", f"undisc({x})",
            f"count(lambda e: e > 0.5, {x})", f"map_rows(lambda row: {x}, {y})",
            f"map_rows(lambda row: clip(L2, row), {x})",
            f"fold(lambda acc, e: acc + e, {x}, {y})", f"float({x})", f"int({x})",
            f"[{x}, {y}]", f"({x}, {y})", f"{x} == {y}", f"{x} and {y}", f"not {x}",
            f"unknown_function({x})", f"np.unknown({x})", f"{x}.T", f"{x} @ {y}",
        ]
        if self.others:
            callee = r.choice(self.others)
            forms.append(f"{callee}({', '.join(self.expr(depth + 1) for _ in range(r.randint(0, 3)))})")
        if self.privacy:
            forms += [
                f"laplace_mechanism({r.choice(['1.0', '2.0', x])}, {r.choice(['1.0', '0.5', y])}, {x})",
                f"gaussian_mechanism(1.0, 0.5, 1e-5, {x})", f"gaussian_mechanism_zcdp(2.0, 0.1, {x})",
                f"report_noisy_max(1.0, 1.0, {x})", f"randomized_response(1.0, {x})",
                f"above_threshold([lambda d: {x}], 1.0, {y}, 0.5)",
            ]
        return r.choice(forms)

    def block(self, indent: int, depth: int = 0) -> list[str]:
        r = self.r
        pad = " " * indent
        out = []
        for _ in range(r.randint(1, 4)):
            choice = r.random()
            target = f"v{r.randint(0, 5)}"
            if choice < 0.45 or depth >= 2:
                out.append(f"{pad}{target} = {self.expr()}")
                self.names.append(target)
            elif choice < 0.55:
                out.append(f"{pad}{target} += {self.expr()}")
            elif choice < 0.7:
                out.append(f"{pad}if {self.expr()} > {self.expr()}:")
                out += self.block(indent + 4, depth + 1)
                if r.random() < 0.5:
                    out.append(f"{pad}else:")
                    out += self.block(indent + 4, depth + 1)
            elif choice < 0.82:
                bound = r.choice(["3", "k", self.names[0], "len(p0)" if self.params else "2"])
                out.append(f"{pad}for _ in range({bound}):")
                out += self.block(indent + 4, depth + 1)
            elif choice < 0.88:
                out.append(f"{pad}while {self.expr()} > 0:")
                out += self.block(indent + 4, depth + 1)
            elif choice < 0.93:
                out.append(f"{pad}def inner(z: Real) -> Real:")
                out.append(f"{pad}    return z * {self.expr()}")
                self.names.append("inner(1.0)")
            elif choice < 0.97:
                out.append(f"{pad}{self.names[0]}[0] = {self.expr()}")
            else:
                out.append(f"{pad}a, b = sample(2, {self.expr()}, {self.expr()})")
                self.names += ["a", "b"]
        return out

    def source(self) -> str:
        params = ", ".join(f"{p}: {t}" for p, t in self.params)
        ret = _type(self.r)
        if self.privacy:
            ret = f"Priv[{ret}]"
        body = self.block(4)
        body.append(f"    return {self.expr()}")
        return "\n".join([f"def {self.name}({params}) -> {ret}:", *body]) + "\n"


def program(r: random.Random) -> str:
    """A module of a few generated functions that may call each other."""
    names: list[str] = []
    parts = [HEADER]
    if r.random() < 0.3:
        parts.append("k = 3\n")
    for i in range(r.randint(1, 4)):
        name = f"f{i}"
        parts.append(_Function(r, name, list(names)).source())
        names.append(name)
    return "\n\n".join(parts)


TOKENS = ["(", ")", "[", "]", ":", ",", ".", "=", "+", "-", "*", "**", "/", "@", "lambda", "if",
          "else", "for", "in", "while", "return", "yield", "await", "def", "class", "global x",
          "nonlocal x", "not", "and", "or", "None", "...", "x", "1e308", "0", "\\", '"', "'",
          '"""', "#", "\t", "    ", "\n", "dpsens", "Priv", "Static", "MetricMatrix[L1, Real]",
          "Real", "L_inf", "clip", "laplace_mechanism", "range(", "import numpy", "try:", "except",
          "with", "async", "match", "case", "type", "del", "assert", ";", "\x0c", "\u00e9", "\ufeff"]


def mutate(text: str, r: random.Random, steps: int | None = None) -> str:
    """Delete, duplicate, swap or re-indent lines, and insert random tokens."""
    lines = text.splitlines(keepends=True) or ["\n"]
    for _ in range(steps if steps is not None else r.randint(1, 6)):
        i, j = r.randrange(len(lines)), r.randrange(len(lines))
        op = r.random()
        if op < 0.2 and len(lines) > 1:
            del lines[i]
        elif op < 0.35:
            lines.insert(i, lines[j])
        elif op < 0.5:
            lines[i], lines[j] = lines[j], lines[i]
        elif op < 0.6:
            lines[i] = (" " * r.choice([1, 2, 4, 8])) + lines[i]
        elif op < 0.65:
            lines[i] = lines[i].lstrip()
        else:
            line = lines[i]
            at = r.randint(0, len(line))
            lines[i] = line[:at] + r.choice(TOKENS) + line[at:]
    return "".join(lines)


__all__ = ["HEADER", "mutate", "program"]
