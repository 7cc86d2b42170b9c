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
    # How the cost grows with the variable's distance d, for parallel composition and the
    # shuffle model (docs/privacy.md §3.3). None: linearly, ε·d (noise calibrated to a
    # sensitivity). Otherwise even a tiny move may cost ε, and ``slope`` bounds the cost
    # by slope·d (inf: no linear bound), while ``cap`` bounds it for any move.
    slope: E.Expr | None = None
    cap: E.Expr | None = None
    # Part of one release paid as two charges (``increment``): it adds up with the rest in
    # ε, δ, ρ and μ², but is no mechanism of its own, so accountants that compose
    # mechanisms one by one (advanced, optimal pure, RDP, PLD) must not take it as one.
    part: bool = False


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


def project(items: tuple[Item, ...] | list[Item], variable: str | frozenset[str],
            related: frozenset[str] = frozenset()) -> tuple[VarItem, ...]:
    """The history of one variable, or of several that one move changes together (each
    by at most 1), in program order: an event charging several of them is one release
    moved by all of them at once, paid as such (``merged``), never as independent ones.
    In an event that charges one of them, the charges of ``related`` variables (which
    may move with them) are merged in too."""
    wanted = frozenset([variable]) if isinstance(variable, str) else variable
    out: list[VarItem] = []
    for item in items:
        if isinstance(item, Event):
            if wanted & item.charges.keys():
                charged = sorted((wanted | related) & item.charges.keys())
                out.extend(merged([item.charges[name] for name in charged]))
        elif isinstance(item, Loop):
            body = project(item.body, wanted, related)
            if body:
                out.append(VarLoop(item.count, body))
        else:
            first, second = (project(b, wanted, related) for b in item.branches)
            if first or second:
                out.append(VarChoice((first, second)))
    return tuple(out)


def merged(histories: list[tuple[VarItem, ...]]) -> tuple[VarItem, ...]:
    """What one event costs when every one of several variables it charges moves by at
    most 1 at once (docs/privacy.md R-merge).

    Each history is the event's cost for a move of one variable. Moving them one after
    the other (the hybrid argument) is group privacy over the steps, not composition:
    a Gaussian reading x + y with x = y moves by 2, μ_x + μ_y, not √(μ_x² + μ_y²).
    Histories of the same shape are merged position by position (charges by the group
    rules of ``_merged_charge``); any other set pays the group of all their steps over
    the composition of all of them, which bounds each step.
    """
    histories = [h for h in histories if h]
    if len(histories) <= 1:
        return histories[0] if histories else ()
    zipped = _zipped(histories)
    if zipped is not None:
        return zipped
    return (VarGroup(E.number(len(histories)), tuple(i for h in histories for i in h)),)


def _zipped(histories: list[tuple[VarItem, ...]]) -> tuple[VarItem, ...] | None:
    """Histories of one item each that pair up (charges; loops of one count; groups of
    one distance), merged; None otherwise. One item each is one release (or one loop of
    releases) seen by every variable. Longer histories are not paired position by
    position: the i-th items of two of them may be different releases (x: A(x), B(x+y);
    y: B(x+y), C(y)), and pairing A with B and B with C pays B moved by 1 twice where it
    moves by 2 once: for Gaussians (a+b)² + (b+c)² < a² + 4b² + c² when b > a + c.
    Branches and samples are not paired: two histories' choices may differ."""
    if any(len(h) != 1 for h in histories):
        return None
    items = [h[0] for h in histories]
    first = items[0]
    charges = tuple(i for i in items if isinstance(i, Charge))
    if len(charges) == len(items):
        return (_merged_charge(charges),)
    if isinstance(first, VarLoop):
        loops = [i for i in items if isinstance(i, VarLoop) and i.count == first.count]
        if len(loops) == len(items):
            return (VarLoop(first.count, merged([i.body for i in loops])),)
    if isinstance(first, VarGroup):
        groups = [i for i in items if isinstance(i, VarGroup) and i.distance == first.distance]
        if len(groups) == len(items):
            return (VarGroup(first.distance, merged([i.body for i in groups])),)
    return None


def _merged_charge(charges: tuple[Charge, ...]) -> Charge:
    """One release moved by all of the charges' variables at once, each charge its cost
    for one of them: group privacy in every form the charges have (a form only some of
    them have is dropped)."""
    total = charges[0]
    for charge in charges[1:]:
        total = _merge_two(total, charge)
    return total


def increment(own: Charge, others: tuple[Charge, ...]) -> Charge:
    """What a release costs beyond ``others`` when ``own``'s variable moves with theirs: the
    merged charge less the others in every additive form (ε, δ, ρ and μ² add under
    composition), so that paying ``others`` in every iteration and this once for the
    iteration whose element moved pays that iteration merged. It is marked a part: no
    mechanism is ε-DP for its ε alone (a 2ε Laplace is not two ε-DP mechanisms composed,
    which KOV's optimal composition or a PLD would take it for: K30)."""
    together = _merged_charge((own, *others))
    delta = together.delta if E.is_zero(together.delta) or E.is_inf(together.delta) else \
        E.smax(E.ZERO, together.delta - sum((c.delta for c in others), E.ZERO))
    rho = None
    if together.rho is not None and all(c.rho is not None for c in others):
        rho = together.rho - sum((c.rho for c in others), E.ZERO)  # type: ignore[misc]
    gaussian = None
    if together.gaussian is not None and all(c.gaussian is not None for c in others):
        mu_squared = E.div(E.ONE, together.gaussian**2) - sum(
            (E.div(E.ONE, c.gaussian**2) for c in others), E.ZERO)  # type: ignore[operator]
        gaussian = E.div(E.ONE, E.sqrt(mu_squared))
    return Charge(own.epsilon, delta, rho=rho, gaussian=gaussian, native_zcdp=together.native_zcdp,
                  slope=own.slope, cap=own.cap, part=True)


def _merge_two(a: Charge, b: Charge) -> Charge:
    import sympy as sp

    def harmonic(x: E.Expr | None, y: E.Expr | None) -> E.Expr | None:
        # a multiplier σ/r or b/r of shifts that add: r₁ + r₂ = σ/m₁ + σ/m₂
        return None if x is None or y is None else E.div(E.ONE, E.add(E.div(E.ONE, x), E.div(E.ONE, y)))

    gaussian = harmonic(a.gaussian, b.gaussian) if a.laplace is None and b.laplace is None else None
    rho = None if a.rho is None or b.rho is None else (E.sqrt(a.rho) + E.sqrt(b.rho)) ** 2
    slope = None
    if a.slope is not None or b.slope is not None:
        slope = E.add(a.epsilon if a.slope is None else a.slope, b.epsilon if b.slope is None else b.slope)
    return Charge(
        E.add(a.epsilon, b.epsilon),
        a.delta if E.is_zero(b.delta) else E.INF if E.is_inf(a.epsilon) else
        E.add(a.delta, E.mul(sp.exp(a.epsilon), b.delta)),
        rho=rho, gaussian=gaussian, laplace=harmonic(a.laplace, b.laplace),
        native_zcdp=a.native_zcdp and b.native_zcdp, slope=slope,
        cap=None if a.cap is None or b.cap is None else E.add(a.cap, b.cap),
        part=a.part or b.part)


def events(items: tuple[Item, ...] | list[Item]) -> list[dict[str, tuple[VarItem, ...]]]:
    """The charges of every event in the items, loops and branches included."""
    found: list[dict[str, tuple[VarItem, ...]]] = []
    for item in items:
        if isinstance(item, Event):
            found.append(item.charges)
        elif isinstance(item, Loop):
            found += events(item.body)
        else:
            found += events(item.branches[0]) + events(item.branches[1])
    return found


def variables(items: tuple[Item, ...] | list[Item]) -> set[str]:
    """Every variable charged anywhere in the items."""
    return set().union(*(charges.keys() for charges in events(items)))


def retarget(items: tuple[Item, ...] | list[Item], moves: dict[str, dict[str, E.Expr]],
             wrap: object = None) -> list[Item]:
    """Charges of each source u become charges of every target v in moves[u].

    Sources that reach the same target are accounted together: one record of v
    may move all of them at once (two outputs of one sample, two arguments cut
    from one matrix, one variable passed for two parameters), so their histories
    are projected together (an event charging several is merged, not composed)
    before any amplification ``wrap(history)`` and paid at the largest distance
    r = moves[u][v].
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


def substituted(items: tuple[Item, ...] | list[Item], moves: dict[str, dict[str, E.Expr]]
                ) -> list[Item]:
    """Charges of each source u become charges of every target v in moves[u], in place and
    unamplified: in an event that also charges v (or another source of v), all of them
    are one release moved at once, merged (each source at its distance r = moves[u][v])."""
    out: list[Item] = []
    for item in items:
        if isinstance(item, Event):
            parts: dict[str, list[tuple[VarItem, ...]]] = {}
            for name in sorted(item.charges):
                for target, distance in moves.get(name, {name: E.ONE}).items():
                    if not E.is_zero(distance):
                        parts.setdefault(target, []).append(in_group(item.charges[name], distance))
            charges = {target: merged(histories) for target, histories in parts.items()}
            out.append(Event({t: h for t, h in charges.items() if h}))
        elif isinstance(item, Loop):
            out.append(Loop(item.count, tuple(substituted(item.body, moves))))
        else:
            first, second = (tuple(substituted(b, moves)) for b in item.branches)
            out.append(Choice((first, second)))
    return out


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
                laplace=None if item.laplace is None else sub(item.laplace),
                slope=None if item.slope is None else sub(item.slope),
                cap=None if item.cap is None else sub(item.cap)))
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


def linear(history: tuple[VarItem, ...], whole: bool) -> tuple[VarItem, ...] | None:
    """The history as costs at most linear in the variable's distance d, or None.

    Parallel composition adds the costs of elements t that move by d_t, with
    Σ d_t <= F·d: that is Σ_t c(d_t) <= c(1)·F·d only when c(d) <= c(1)·d.
    When distances are whole (``whole``: every change is at least 1 away and d
    apart is d moves of 1), group privacy gives that for any history, and the
    groups of the changed elements add up to one group of F·d. Otherwise pure
    charges of noise calibrated to a sensitivity are linear, and so are
    Gaussians in μ; a capped charge takes its linear bound slope·d; a charge
    with none (any move may cost ε), an approximate one, or a sample of
    anything but pure charges gets no parallel discount.
    """
    if whole:
        return history
    out: list[VarItem] = []
    for item in history:
        if isinstance(item, Charge):
            gaussian = item.gaussian is not None and item.laplace is None
            if not (E.is_zero(item.delta) or gaussian):
                return None
            if item.slope is None:
                out.append(item)
            elif E.is_inf(item.slope):
                return None
            else:
                out.append(Charge(item.slope, E.ZERO, rho=item.slope**2 / 2,
                                  laplace=E.div(E.ONE, item.slope), part=item.part))
            continue
        if isinstance(item, VarChoice):
            parts = [linear(b, whole) for b in item.branches]
            if parts[0] is None or parts[1] is None:
                return None
            out.append(VarChoice((parts[0], parts[1])))
            continue
        body = linear(item.body, whole)
        if body is None:
            return None
        if isinstance(item, VarLoop):
            out.append(VarLoop(item.count, body))
        elif isinstance(item, VarGroup):
            out.append(VarGroup(item.distance, body))
        elif _pure(body):  # log(1 + q(e^x − 1)) is convex and 0 at 0: below its chord
            out.append(VarSampled(item.size, item.population, body))
        else:
            return None
    return tuple(out)


def every_charge(history: tuple[VarItem, ...], test: Callable[[Charge], bool],
                 through_samples: bool = False) -> bool:
    """Whether every charge of a history (in loops, groups and both branches) passes the
    test; a sample passes only ``through_samples``, by its body's charges."""
    for item in history:
        if isinstance(item, Charge):
            passed = test(item)
        elif isinstance(item, VarChoice):
            passed = all(every_charge(b, test, through_samples) for b in item.branches)
        elif isinstance(item, VarSampled) and not through_samples:
            passed = False
        else:
            passed = every_charge(item.body, test, through_samples)
        if not passed:
            return False
    return True


def _pure(history: tuple[VarItem, ...]) -> bool:
    """Every charge in the history is pure (δ = 0)."""
    return every_charge(history, lambda c: E.is_zero(c.delta), through_samples=True)


def any_change(history: tuple[VarItem, ...], steps: E.Expr) -> tuple[VarItem, ...]:
    """The history paid for any change of its variable, however large: capped charges
    cost their cap, the others group privacy over ``steps`` moves of 1 (inf: none)."""
    out: list[VarItem] = []
    for item in history:
        if isinstance(item, Charge) and item.cap is not None:
            out.append(Charge(item.cap, item.delta, rho=item.cap**2 / 2, part=item.part))
        elif isinstance(item, VarLoop):
            out.append(VarLoop(item.count, any_change(item.body, steps)))
        elif isinstance(item, VarChoice):
            a, b = (any_change(branch, steps) for branch in item.branches)
            out.append(VarChoice((a, b)))
        elif isinstance(item, VarGroup) and _capped(item.body):
            # Each cap holds at any distance, but a group may stand for that many releases
            # (the cells of a partition loop: one change moves two of them, F = 2), whose
            # caps add up: review35's one-hot randomized response was ε/2 for 2 bits of ε/2.
            out.append(VarGroup(item.distance, any_change(item.body, steps)))
        else:
            out.extend(in_group((item,), steps))
    return tuple(out)


def _capped(history: tuple[VarItem, ...]) -> bool:
    """Every charge in the history has a cap (loops and branches of them too)."""
    return every_charge(history, lambda c: c.cap is not None)
