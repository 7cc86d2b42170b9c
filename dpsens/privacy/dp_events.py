"""Numeric histories as dp-accounting events, accounted by its RDP and PLD accountants.

Each Gaussian charge is a GaussianDpEvent with noise multiplier σ/r and each
Laplace charge a LaplaceDpEvent with b/r, i.e. events normalized to a shift
of 1.  The RDP accountant uses REPLACE_ONE, whose Gaussian RDP is α/(2σ²)
for a shift of 1 and which analyzes sampling without replacement (Wang,
Balle, Kasiviswanathan 2019).  The PLD accountant uses ADD_OR_REMOVE_ONE,
under which its Gaussian and Laplace losses are those of a shift of exactly
1 (its REPLACE_ONE Gaussian shifts by 2); it cannot account sampling
without replacement, so histories with a sample are left to RDP.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from dpsens.privacy.compose import Cost
from dpsens.privacy.ledger import Charge, VarChoice, VarItem, VarLoop, VarSampled
from dpsens.sym import expr as E


class _Unsupported(Exception):
    """The history has a part the accountant cannot express."""


def _numeric(e: E.Expr | None) -> float:
    if e is None or not e.is_number or E.is_inf(e):
        raise _Unsupported
    return float(e)


def to_event(history: tuple[VarItem, ...], allow_sampling: bool) -> Any:
    """A ComposedDpEvent for the history (raises _Unsupported)."""
    import dp_accounting  # type: ignore[import-untyped]

    events = []
    for item in history:
        if isinstance(item, Charge):
            if item.gaussian is not None:
                events.append(dp_accounting.GaussianDpEvent(_numeric(item.gaussian)))
            elif item.laplace is not None:
                events.append(dp_accounting.LaplaceDpEvent(_numeric(item.laplace)))
            else:
                raise _Unsupported  # a generic (ε, δ) guarantee has no event in dp-accounting
        elif isinstance(item, VarLoop):
            count = _numeric(item.count)
            if count != int(count):
                raise _Unsupported
            events.append(dp_accounting.SelfComposedDpEvent(to_event(item.body, allow_sampling),
                                                            int(count)))
        elif isinstance(item, VarSampled) and allow_sampling:
            population, size = _numeric(item.population), _numeric(item.size)
            events.append(dp_accounting.SampledWithoutReplacementDpEvent(
                int(population), int(size), to_event(item.body, allow_sampling)))
        else:
            raise _Unsupported
    return dp_accounting.ComposedDpEvent(events)


def rdp_cost(history: tuple[VarItem, ...], delta_prime: float) -> Cost | None:
    """ε at δ' from the RDP accountant, or None when it cannot express the history."""
    return _memoized("rdp", history, delta_prime)


def pld_cost(history: tuple[VarItem, ...], delta_prime: float) -> Cost | None:
    """ε at δ' from the PLD accountant, or None when it cannot express the history."""
    return _memoized("pld", history, delta_prime)


@lru_cache(maxsize=512)
def _memoized(method: str, history: tuple[VarItem, ...], delta_prime: float) -> Cost | None:
    """One accountant run; PLD takes ~0.3 s and generated and real code repeat the same
    histories (a helper called with the same constants), so each is computed once."""
    try:
        import dp_accounting

        # Sampling without replacement exists only for RDP (see the module docstring).
        event = to_event(history, allow_sampling=method == "rdp")
        accountant = _accountant(method, dp_accounting, _compositions(event, dp_accounting),
                                 _widest_loss(event, dp_accounting))
        if not accountant.supports(event):
            return None
        accountant.compose(event)
        epsilon = accountant.get_epsilon(delta_prime)
    except (_Unsupported, ValueError, NotImplementedError, ImportError, AssertionError,
            MemoryError, OverflowError):
        return None
    return Cost(E.decimal_up(epsilon), E.number(delta_prime), method)


def _accountant(method: str, dp_accounting: Any, compositions: int, widest: float) -> Any:
    relation = dp_accounting.NeighboringRelation
    if method == "rdp":
        from dp_accounting.rdp import RdpAccountant  # type: ignore[import-untyped]

        return RdpAccountant(neighboring_relation=relation.REPLACE_ONE)
    from dp_accounting.pld import PLDAccountant  # type: ignore[import-untyped]

    # The PLD's support grows with the number of compositions: at a fixed grid of 1e-4,
    # 1,000 Laplace mechanisms took 1.2 s and 430 MB, 10,000 took 12 s and 2.5 GB, and
    # 100,000 did not finish in 60 s. A grid growing with the count keeps about 1 s and
    # 330 MB; a coarser grid is still pessimistic (sound), and the other accountants
    # are compared with it. One mechanism whose losses span a wide range (Laplace with
    # ε = 1000: 2·10⁷ points, 60 s and 3 GB; a Gaussian with μ = 1414: MemoryError) is
    # held to POINTS grid points the same way.
    interval = max(1e-4 * max(1.0, compositions / 1000), widest / POINTS)
    return PLDAccountant(neighboring_relation=relation.ADD_OR_REMOVE_ONE,
                         value_discretization_interval=interval)


POINTS = 5e5  # the most grid points one mechanism's losses may take


def _widest_loss(event: Any, dp_accounting: Any) -> float:
    """The widest range of privacy losses of one mechanism of an event (shift 1): [−ε, ε]
    for Laplace, about μ²/2 ± 10μ once the Gaussian's tails (e^−50) are cut."""
    if isinstance(event, dp_accounting.SelfComposedDpEvent):
        return _widest_loss(event.event, dp_accounting)
    if isinstance(event, dp_accounting.ComposedDpEvent):
        return max((_widest_loss(e, dp_accounting) for e in event.events), default=0.0)
    if isinstance(event, dp_accounting.LaplaceDpEvent):
        return 2.0 / float(event.noise_multiplier)
    if isinstance(event, dp_accounting.GaussianDpEvent):
        mu = 1.0 / float(event.noise_multiplier)
        return mu * mu + 20.0 * mu
    return 0.0


def _compositions(event: Any, dp_accounting: Any) -> int:
    """How many mechanisms an event composes."""
    if isinstance(event, dp_accounting.SelfComposedDpEvent):
        return event.count * _compositions(event.event, dp_accounting)
    if isinstance(event, dp_accounting.ComposedDpEvent):
        return sum(_compositions(e, dp_accounting) for e in event.events)
    return 1
