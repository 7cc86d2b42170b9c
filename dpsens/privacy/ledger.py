"""The ledger of a privacy function: mechanism charges, loops, branches and samples.

Items are recorded in program order for all variables at once; ``project``
extracts the history of one variable, which is what composition theorems
account (privacy is reported per parameter).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Union

from dpsens.sym import expr as E


@dataclass(frozen=True)
class Charge:
    """The cost of one mechanism call to one variable, in every form an accountant can use."""

    epsilon: E.Expr
    delta: E.Expr
    rho: E.Expr | None = None  # zCDP parameter (Gaussian: r²/(2σ²); pure ε: ε²/2)
    gaussian: E.Expr | None = None  # noise multiplier σ/r, for RDP and PLD
    laplace: E.Expr | None = None  # Laplace scale over sensitivity b/r, for PLD
    native_zcdp: bool = False  # the mechanism is defined by its ρ (its (ε, δ) is derived)


@dataclass(frozen=True)
class Event:
    """One mechanism call (or privacy-function call) charging several variables."""

    charges: dict[str, tuple[VarItem, ...]]


@dataclass(frozen=True)
class Loop:
    """A body run ``count`` times: k-fold composition."""

    count: E.Expr
    body: tuple[Item, ...]


@dataclass(frozen=True)
class Choice:
    """Either branch runs (a public condition): per variable the larger cost."""

    branches: tuple[tuple[Item, ...], tuple[Item, ...]]


Item = Union[Event, Loop, Choice]


@dataclass(frozen=True)
class VarLoop:
    """The per-variable view of a Loop."""

    count: E.Expr
    body: tuple[VarItem, ...]


@dataclass(frozen=True)
class VarChoice:
    """The per-variable view of a Choice."""

    branches: tuple[tuple[VarItem, ...], tuple[VarItem, ...]]


@dataclass(frozen=True)
class VarSampled:
    """Costs spent on a sample of ``size`` of ``population`` rows (amplified by q = size/population)."""

    size: E.Expr
    population: E.Expr
    body: tuple[VarItem, ...]


@dataclass(frozen=True)
class VarGroup:
    """Costs for a variable that moves by ``distance`` > 1: group privacy over ceil(distance) steps."""

    distance: E.Expr
    body: tuple[VarItem, ...]


VarItem = Union[Charge, VarLoop, VarChoice, VarSampled, VarGroup]


@dataclass
class Ledger:
    """A mutable list of items, shared by the analyses of one block."""

    items: list[Item] = field(default_factory=list)

    def charge(self, per_variable: dict[str, tuple[VarItem, ...]]) -> None:
        """Record an event (variables with nothing to pay are dropped)."""
        kept = {v: items for v, items in per_variable.items() if items}
        if kept:
            self.items.append(Event(kept))


def project(items: tuple[Item, ...] | list[Item], variable: str | frozenset[str]) -> tuple[VarItem, ...]:
    """The history of one variable (or of several together, in program order)."""
    wanted = frozenset([variable]) if isinstance(variable, str) else variable
    out: list[VarItem] = []
    for item in items:
        if isinstance(item, Event):
            for name in sorted(wanted & item.charges.keys()):
                out.extend(item.charges[name])
        elif isinstance(item, Loop):
            body = project(item.body, wanted)
            if body:
                out.append(VarLoop(item.count, body))
        else:
            first, second = (project(b, wanted) for b in item.branches)
            if first or second:
                out.append(VarChoice((first, second)))
    return tuple(out)


def variables(items: tuple[Item, ...] | list[Item]) -> set[str]:
    """Every variable charged anywhere in the items."""
    found: set[str] = set()
    for item in items:
        if isinstance(item, Event):
            found |= set(item.charges)
        elif isinstance(item, Loop):
            found |= variables(item.body)
        else:
            found |= variables(item.branches[0]) | variables(item.branches[1])
    return found


def retarget(items: tuple[Item, ...] | list[Item], moves: dict[str, dict[str, E.Expr]],
             wrap: object = None) -> list[Item]:
    """Charges of each source u become charges of every target v in moves[u].

    Sources that reach the same target are accounted together: one record of v
    may move all of them at once (two outputs of one sample, two arguments cut
    from one matrix), so their histories compose before any amplification
    ``wrap(history)`` and are paid at the largest distance r = moves[u][v].
    """
    targets: dict[str, dict[str, E.Expr]] = {}
    for source, reached in moves.items():
        for target, distance in reached.items():
            if not E.is_zero(distance):
                targets.setdefault(target, {})[source] = distance
    result: dict[str, tuple[VarItem, ...]] = {}
    for target, sources in targets.items():
        history = project(items, frozenset(sources))
        if not history:
            continue
        if wrap is not None:
            history = wrap(history)  # type: ignore[operator]
        distance = E.ZERO
        for r in sources.values():
            distance = E.smax(distance, r)
        result[target] = in_group(history, distance)
    return [Event(result)] if result else []


def in_group(history: tuple[VarItem, ...], distance: E.Expr) -> tuple[VarItem, ...]:
    """A history paid by a variable at the given distance (group privacy beyond 1)."""
    if E.is_zero(distance):
        return ()
    if E.decide_le(distance, E.ONE):
        return history
    return (VarGroup(distance, history),)


def substitute(history: tuple[VarItem, ...], mapping: dict[E.Expr, E.Expr],
               at: Callable[[E.Expr], E.Expr | None] | None = None) -> tuple[VarItem, ...]:
    """A callee's history with call-site values for its static parameters and dimensions
    (``at``: the call site's own instantiation, None for an unknown value, then ∞)."""
    def sub(e: E.Expr) -> E.Expr:
        if at is None:
            return E.substitute(e, mapping)
        found = at(e)
        return E.INF if found is None else found

    out: list[VarItem] = []
    for item in history:
        if isinstance(item, Charge):
            gaussian = None if item.gaussian is None else sub(item.gaussian)
            rho = None if item.rho is None else sub(item.rho)
            if rho is None and gaussian is not None and gaussian.is_number and gaussian.is_positive:
                # A Gaussian whose σ was symbolic (no ρ then) has one now: ρ = 1/(2·(σ/r)²).
                rho = E.div(E.ONE, 2 * gaussian**2)
            out.append(replace(
                item, epsilon=sub(item.epsilon), delta=sub(item.delta), rho=rho, gaussian=gaussian,
                laplace=None if item.laplace is None else sub(item.laplace)))
        elif isinstance(item, VarLoop):
            out.append(VarLoop(sub(item.count), substitute(item.body, mapping, at)))
        elif isinstance(item, VarChoice):
            a, b = item.branches
            out.append(VarChoice((substitute(a, mapping, at), substitute(b, mapping, at))))
        elif isinstance(item, VarSampled):
            out.append(VarSampled(sub(item.size), sub(item.population),
                                  substitute(item.body, mapping, at)))
        else:
            out.append(VarGroup(sub(item.distance), substitute(item.body, mapping, at)))
    return tuple(out)
