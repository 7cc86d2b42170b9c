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

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dpsens.privacy.compose import Cost
from dpsens.privacy.ledger import Charge, VarItem, VarLoop, VarSampled
from dpsens.sym import expr as E


class _Unsupported(Exception):
    """The history has a part the accountant cannot express."""


def _numeric(e: E.Expr | None) -> float:
    if e is None or not e.is_number or E.is_inf(e):
        raise _Unsupported
    try:
        return float(e)
    except TypeError:  # a function of numbers left unevaluated (a sigma no float holds)
        raise _Unsupported from None


@dataclass(frozen=True)
class _PureEvent:
    """A mechanism known only to be ε-DP (randomized response, an exponential mechanism,
    report noisy max): dp-accounting has no event for one. Its PLD is the worst of every
    ε-DP mechanism's, losses ±ε (``from_privacy_parameters``), which dominates each."""

    epsilon: float


def to_event(history: tuple[VarItem, ...], allow_sampling: bool, pure: bool = False) -> Any:
    """A ComposedDpEvent for the history, with a _PureEvent for a generic ε-DP charge where
    ``pure`` (raises _Unsupported)."""
    import dp_accounting  # type: ignore[import-untyped]

    events = []
    for item in history:
        if isinstance(item, Charge):
            if item.gaussian is not None:
                events.append(dp_accounting.GaussianDpEvent(_numeric(item.gaussian)))
            elif item.laplace is not None:
                events.append(dp_accounting.LaplaceDpEvent(_numeric(item.laplace)))
            elif pure and E.is_zero(item.delta) and not item.native_zcdp and not item.part:
                events.append(_PureEvent(_numeric(item.epsilon)))
            else:
                raise _Unsupported  # a generic (ε, δ) guarantee has no event in dp-accounting
        elif isinstance(item, VarLoop):
            count = _numeric(item.count)
            if count != int(count):
                raise _Unsupported
            events.append(dp_accounting.SelfComposedDpEvent(
                to_event(item.body, allow_sampling, pure), int(count)))
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
        with _quiet():
            return _run(method, history, delta_prime)
    except (_Unsupported, ValueError, NotImplementedError, ImportError, AssertionError,
            MemoryError, OverflowError, IndexError, ZeroDivisionError, FloatingPointError):
        # (a library's numbers that fail at extremes, such as the PLD grid of a Gaussian
        # with mu = 1e154, leave the other accountants' bounds, which hold)
        return None


@contextmanager
def _quiet() -> Iterator[None]:
    """dp-accounting logs its numerical fallbacks through absl (a negative Rényi divergence
    of extreme events is taken as 0) and numpy warns of its overflows: a report's stderr
    holds only dpsens's own words."""
    import warnings

    import numpy as np

    logger = logging.getLogger("absl")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            yield
    finally:
        logger.setLevel(level)


def _run(method: str, history: tuple[VarItem, ...], delta_prime: float) -> Cost | None:
    """The accountant's ε at δ' (raises what the accountant raises)."""
    import dp_accounting

    # Sampling without replacement exists only for RDP (see the module docstring).
    event = to_event(history, allow_sampling=method == "rdp", pure=method == "pld")
    compositions, widest = _compositions(event, dp_accounting), _widest_loss(event, dp_accounting)
    if method == "pld" and _interval(compositions, widest) * COARSEST > widest:
        # A grid this coarse for the losses of one mechanism says nothing the other
        # accountants do not say better, and costs minutes: 10⁸ Laplaces of ε = 10⁻⁵ on
        # a grid of 10 took 154 s for an ε of 5980 (zCDP: 0.375 at once).
        return None
    leaves = _leaves(event, dp_accounting)
    if len(leaves) == 1 and isinstance(leaves[0], _PureEvent):
        return None  # one ε: the optimal composition (compose._pure_optimal) is exact
    if any(isinstance(leaf, _PureEvent) for leaf in leaves):
        # (the accountant takes only its own events: the PLDs are composed here, on its grid)
        built = _built_pld(event, dp_accounting, _interval(compositions, widest))
        epsilon = built.get_epsilon_for_delta(delta_prime)
    else:
        accountant = _accountant(method, dp_accounting, compositions, widest)
        if not accountant.supports(event):
            return None
        accountant.compose(event)
        epsilon = accountant.get_epsilon(delta_prime)
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
    return PLDAccountant(neighboring_relation=relation.ADD_OR_REMOVE_ONE,
                         value_discretization_interval=_interval(compositions, widest))


def _interval(compositions: int, widest: float) -> float:
    """The PLD grid (see _accountant)."""
    return max(1e-4 * max(1.0, compositions / 1000), widest / POINTS)


POINTS = 5e5  # the most grid points one mechanism's losses may take
COARSEST = 10  # the fewest grid points one mechanism's losses may take for PLD to run


def _widest_loss(event: Any, dp_accounting: Any) -> float:
    """The widest range of privacy losses of one mechanism of an event (shift 1): [−ε, ε]
    for Laplace, about μ²/2 ± 10μ once the Gaussian's tails (e^−50) are cut."""
    if isinstance(event, dp_accounting.SelfComposedDpEvent):
        return _widest_loss(event.event, dp_accounting)
    if isinstance(event, dp_accounting.ComposedDpEvent):
        return max((_widest_loss(e, dp_accounting) for e in event.events), default=0.0)
    if isinstance(event, dp_accounting.LaplaceDpEvent):
        return 2.0 / float(event.noise_multiplier)
    if isinstance(event, _PureEvent):
        return 2.0 * event.epsilon
    if isinstance(event, dp_accounting.GaussianDpEvent):
        mu = 1.0 / float(event.noise_multiplier)
        return mu * mu + 20.0 * mu
    return 0.0


def _leaves(event: Any, dp_accounting: Any) -> list[Any]:
    """The mechanisms an event composes, each once."""
    if isinstance(event, dp_accounting.SelfComposedDpEvent):
        return _leaves(event.event, dp_accounting)
    if isinstance(event, dp_accounting.ComposedDpEvent):
        found: list[Any] = []
        for part in event.events:
            found += [leaf for leaf in _leaves(part, dp_accounting) if leaf not in found]
        return found
    return [event]


def _built_pld(event: Any, dp_accounting: Any, interval: float) -> Any:
    """The pessimistic PLD of an event of Gaussians, Laplaces and _PureEvents, as the
    PLD accountant builds each (ADD_OR_REMOVE_ONE: a shift of 1)."""
    from dp_accounting.pld import common, privacy_loss_distribution as pld

    if isinstance(event, _PureEvent):
        return pld.from_privacy_parameters(
            common.DifferentialPrivacyParameters(event.epsilon, 0.0),
            value_discretization_interval=interval)
    if isinstance(event, dp_accounting.GaussianDpEvent):
        return pld.from_gaussian_mechanism(
            standard_deviation=event.noise_multiplier, value_discretization_interval=interval,
            neighboring_relation=dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE)
    if isinstance(event, dp_accounting.LaplaceDpEvent):
        return pld.from_laplace_mechanism(parameter=event.noise_multiplier,
                                          value_discretization_interval=interval)
    if isinstance(event, dp_accounting.SelfComposedDpEvent):
        return _built_pld(event.event, dp_accounting, interval).self_compose(event.count)
    if isinstance(event, dp_accounting.ComposedDpEvent) and event.events:
        parts = [_built_pld(e, dp_accounting, interval) for e in event.events]
        total = parts[0]
        for part in parts[1:]:
            total = total.compose(part)
        return total
    raise _Unsupported


def _compositions(event: Any, dp_accounting: Any) -> int:
    """How many mechanisms an event composes."""
    if isinstance(event, dp_accounting.SelfComposedDpEvent):
        return event.count * _compositions(event.event, dp_accounting)
    if isinstance(event, dp_accounting.ComposedDpEvent):
        return sum(_compositions(e, dp_accounting) for e in event.events)
    return 1
