"""Every SPEC section 5 rule with a runtime counterpart, checked against reality.

RULES is the single table of claimed constants: each row says that `function`
is claimed(n)-sensitive from its input space to its output metric.  To check
the analyzer instead of the SPEC, swap `claimed` for the analyzer's result.
"""

from __future__ import annotations

import numpy as np
import pytest
from neighbours import (
    ENTRY_PREDICATES,
    NORM_CLASSES,
    ROW_PREDICATES,
    T_SMALL,
    Metric,
    Rule,
    Witness,
    affine_step,
    as_rows,
    check_rule,
    clip_jump,
    clipped,
    entry_predicates,
    fold_bound,
    fold_witness,
    index,
    length,
    loop,
    loop_other,
    matrices,
    max_ratio,
    one,
    onehot_zeros,
    ones_zeros,
    real_scalar,
    real_vector_ctx,
    root,
    row_predicates,
    scalars,
    two,
    vectors,
)

from dpsens.lang import L1, L2, L_inf
from dpsens.runtime import clip, count, fold, map_rows, norm_convert, undisc_container

NORMS = ("L1", "L2", "L_inf")
CONVERSIONS = {  # (from, to): claimed constant and the witness that attains it
    ("L1", "L2"): (one, onehot_zeros),
    ("L1", "L_inf"): (one, onehot_zeros),
    ("L2", "L_inf"): (one, onehot_zeros),
    ("L2", "L1"): (root, ones_zeros),
    ("L_inf", "L2"): (root, ones_zeros),
    ("L_inf", "L1"): (length, ones_zeros),
}
FOLD_S1 = 1.5
LOOP_S = (0.5, 1.0, 2.0)
SCALES = (0.5, 3.0)
ELEMENTWISE = {
    "np.clip(-1,1)": lambda x: np.clip(x, -1.0, 1.0),
    "np.abs": np.abs,
    "negation": lambda x: -x,
}


def _top_singular_vector(n: int) -> np.ndarray:
    """The unit input that cumsum stretches most (it attains the L2 claim)."""
    _, _, vt = np.linalg.svd(np.tril(np.ones((n, n))))
    return vt[0]


def _conversion_rules() -> list[Rule]:
    rules = []
    for (a, b), (claimed, witness) in CONVERSIONS.items():
        target = NORM_CLASSES[b]
        for kind in ("Real", "Data"):
            rules.append(Rule(
                f"norm_convert {a}->{b} ({kind} vector)", lambda v, t=target: norm_convert(t, v),
                vectors(a, kind), Metric(b, kind), claimed,
                witnesses=[witness(n) for n in (1, 2, 5)]))
            rules.append(Rule(
                f"norm_convert {a}->{b} ({kind} matrix rows)", lambda m, t=target: norm_convert(t, m),
                matrices(a, kind), Metric(b, kind), claimed,
                witnesses=[as_rows(witness(n)) for n in (1, 2, 5)]))
    return rules


RULES: list[Rule] = [
    # --- clip: into (L_inf, Data) any clipping is 1-sensitive -----------------
    *[Rule(f"clip({c}) (L_inf,Data) vector", lambda v, c=NORM_CLASSES[c]: clip(c, v),
           vectors("L_inf", "Data"), Metric("L_inf", "Data"), one,
           witnesses=[clip_jump(n) for n in (1, 3)])
      for c in NORMS],
    *[Rule(f"clip({c}) (L_inf,Data) matrix", lambda m, c=NORM_CLASSES[c]: clip(c, m),
           matrices("L_inf", "Data"), Metric("L_inf", "Data"), one)
      for c in NORMS],
    # --- clip keeping (L1, Data) / (L2, Data): len(v) / sqrt(len(v)) ---------
    *[Rule(f"clip({c}) (L1,Data) vector", lambda v, c=NORM_CLASSES[c]: clip(c, v),
           vectors("L1", "Data"), Metric("L1", "Data"), length,
           witnesses=[clip_jump(n) for n in (1, 2, 5)])
      for c in NORMS],
    *[Rule(f"clip({c}) (L1,Data) matrix", lambda m, c=NORM_CLASSES[c]: clip(c, m),
           matrices("L1", "Data"), Metric("L1", "Data"), length,
           witnesses=[as_rows(clip_jump(4))])
      for c in NORMS],
    *[Rule(f"clip({c}) (L2,Data) vector", lambda v, c=NORM_CLASSES[c]: clip(c, v),
           vectors("L2", "Data"), Metric("L2", "Data"), root,
           witnesses=[clip_jump(n) for n in (1, 2, 5)])
      for c in NORMS],
    *[Rule(f"clip({c}) (L2,Data) matrix", lambda m, c=NORM_CLASSES[c]: clip(c, m),
           matrices("L2", "Data"), Metric("L2", "Data"), root,
           witnesses=[as_rows(clip_jump(4))])
      for c in NORMS],
    # The seed note's counterexample, verbatim.
    Rule("clip(L1) (L1,Data) seed pair", lambda v: clip(L1, v),
         vectors("L1", "Data"), Metric("L1", "Data"), length,
         witnesses=[Witness(2, np.array([1.0, 1.0]), np.array([1.0, 0.0]))]),
    # --- clip on reals: projection (L2) 1, radial retraction (L1, L_inf) 2 ---
    Rule("clip(L2) (L2,Real) vector", lambda v: clip(L2, v),
         vectors("L2", "Real"), Metric("L2", "Real"), one,
         witnesses=[Witness(n, np.full(n, 0.25 / n), np.zeros(n)) for n in (1, 3)]),
    Rule("clip(L2) (L2,Real) matrix", lambda m: clip(L2, m),
         matrices("L2", "Real"), Metric("L2", "Real"), one),
    Rule("clip(L1) (L1,Real) vector", lambda v: clip(L1, v),
         vectors("L1", "Real"), Metric("L1", "Real"), two,
         witnesses=[Witness(2, np.array([1.0, 0.0]), np.array([1.0, T_SMALL]), slack=1e-5)]),
    Rule("clip(L1) (L1,Real) matrix", lambda m: clip(L1, m),
         matrices("L1", "Real"), Metric("L1", "Real"), two),
    Rule("clip(L_inf) (L_inf,Real) vector", lambda v: clip(L_inf, v),
         vectors("L_inf", "Real"), Metric("L_inf", "Real"), two,
         witnesses=[Witness(2, np.array([1.0, 1.0]), np.array([1 + T_SMALL, 1 - T_SMALL]), slack=1e-5)]),
    Rule("clip(L_inf) (L_inf,Real) matrix", lambda m: clip(L_inf, m),
         matrices("L_inf", "Real"), Metric("L_inf", "Real"), two),
    # --- undisc_container: clipped Data rows -> rows in (clip norm, Real): 2 -
    *[Rule(f"undisc_container clip {c}", undisc_container,
           clipped(matrices("L_inf", "Data"), c), Metric(c, "Real"), two,
           witnesses=[Witness(2, np.array([[1.0, 0.0]]), np.array([[-1.0, 0.0]]))])
      for c in NORMS],
    # --- norm_convert: identity, re-measured ---------------------------------
    *_conversion_rules(),
    # --- sums and means -----------------------------------------------------
    *[Rule(f"np.sum(axis=0) ({c},Real) matrix", lambda m: np.sum(m, axis=0),
           matrices(c, "Real"), Metric(c, "Real"), one,
           witnesses=[as_rows(onehot_zeros(3))])
      for c in NORMS],
    Rule("np.sum (L1,Real) vector", np.sum, vectors("L1", "Real"), Metric("L1", "Real"), one,
         witnesses=[onehot_zeros(4)]),
    Rule("np.mean (L1,Real) vector", np.mean, vectors("L1", "Real"), Metric("L1", "Real"),
         lambda n: 1.0 / n, witnesses=[onehot_zeros(n) for n in (1, 4)]),
    # --- count --------------------------------------------------------------
    Rule("count (L1,Data) vector", lambda v, p: count(p, v),
         vectors("L1", "Data"), Metric("L1", "Integer"), one, context=entry_predicates,
         witnesses=[Witness(3, np.ones(3), np.array([1.0, 1.0, 0.0]), ENTRY_PREDICATES[0])]),
    Rule("count (L_inf,Data) vector", lambda v, p: count(p, v),
         vectors("L_inf", "Data"), Metric("L1", "Integer"), length, context=entry_predicates,
         witnesses=[Witness(n, np.ones(n), np.zeros(n), ENTRY_PREDICATES[0]) for n in (1, 5)]),
    Rule("count rows (L_inf,Data) matrix", lambda m, p: count(p, m),
         matrices("L_inf", "Data"), Metric("L1", "Integer"), one, context=row_predicates,
         witnesses=[Witness(2, np.ones((2, 2)), np.array([[1.0, 1.0], [1.0, 0.0]]), ROW_PREDICATES[2])]),
    # --- map_rows: f s-Lipschitz gives s -------------------------------------
    *[Rule(f"map_rows {s}*sum(row) (L1,Real)", lambda m, s=s: map_rows(lambda r: s * np.sum(r), m),
           matrices("L1", "Real"), Metric("L1", "Real"), lambda n, s=s: s,
           witnesses=[as_rows(onehot_zeros(3))])
      for s in SCALES],
    *[Rule(f"map_rows {s}*clip(row) (L2,Real)", lambda m, s=s: map_rows(lambda r: s * np.clip(r, -1, 1), m),
           matrices("L2", "Real"), Metric("L2", "Real"), lambda n, s=s: s,
           witnesses=[as_rows(onehot_zeros(3))])
      for s in SCALES],
    *[Rule(f"map_rows {s}*abs(entry) (L2,Real) vector", lambda v, s=s: map_rows(lambda e: s * abs(e), v),
           vectors("L2", "Real"), Metric("L2", "Real"), lambda n, s=s: s,
           witnesses=[onehot_zeros(3)])
      for s in SCALES],
    # --- fold: m gets s1*max(1,s2)^(N-1), init gets s2^N ---------------------
    *[Rule(f"fold m scalar s2={s2}", lambda v, init, s2=s2: fold(affine_step(s2, FOLD_S1), init, v),
           vectors("L1", "Real"), Metric("L1", "Real"), fold_bound(FOLD_S1, s2),
           sizes=(1, 2, 3, 5, 7), context=real_scalar,
           witnesses=[fold_witness(s2, n, init=0.0) for n in (1, 2, 5)])
      for s2 in (0.5, 1.0, 2.0, 3.0)],
    *[Rule(f"fold m rows s2={s2}",
           lambda m, s2=s2: fold(affine_step(s2, FOLD_S1), np.zeros(m.shape[1]), m),
           matrices("L2", "Real", size="rows"), Metric("L2", "Real"), fold_bound(FOLD_S1, s2),
           sizes=(1, 2, 3, 5),
           witnesses=[fold_witness(s2, n, (2,)) for n in (1, 2, 5)])
      for s2 in (0.5, 1.0, 2.0, 3.0)],
    *[Rule(f"fold init s2={s2}", lambda init, v, s2=s2: fold(affine_step(s2, FOLD_S1), init, v),
           scalars("Real"), Metric("L1", "Real"), lambda n, s2=s2: s2**n,
           sizes=(1, 2, 3, 5, 7), context=real_vector_ctx,
           witnesses=[Witness(n, 0.0, 1.0, np.zeros(n)) for n in (1, 3)])
      for s2 in (0.5, 1.0, 2.0, 3.0)],
    # --- loop x = s*x + y, k = n times: x0 gets s^k, y gets sum_{j<k} s^j -----
    *[Rule(f"loop x0 s={s}", lambda x0, ky, s=s: loop(s, ky[0], x0, ky[1]),
           scalars("Real"), Metric("L1", "Real"), lambda k, s=s: s**k,
           sizes=(1, 2, 3, 4, 6), context=loop_other,
           witnesses=[Witness(3, 0.0, 1.0, (3, 0.0))])
      for s in LOOP_S],
    *[Rule(f"loop y s={s}", lambda y, kx, s=s: loop(s, kx[0], kx[1], y),
           scalars("Real"), Metric("L1", "Real"), lambda k, s=s: sum(s**j for j in range(k)),
           sizes=(1, 2, 3, 4, 6), context=loop_other,
           witnesses=[Witness(3, 0.0, 1.0, (3, 0.0))])  # 7*y for s = 2
      for s in LOOP_S],
    # --- elementwise 1-Lipschitz maps ---------------------------------------
    *[Rule(f"{name} ({c},{kind}) vector", f, vectors(c, kind), Metric(c, kind), one,
           witnesses=[Witness(2, np.array([0.5, 0.0]), np.zeros(2))])
      for name, f in ELEMENTWISE.items() for c in NORMS for kind in ("Real", "Data")],
    *[Rule(f"{name} ({c},{kind}) matrix", f, matrices(c, kind), Metric(c, kind), one)
      for name, f in ELEMENTWISE.items() for c, kind in (("L2", "Real"), ("L_inf", "Data"))],
    # --- indexing: 1 in the container ---------------------------------------
    *[Rule(f"{name} ({c},{kind})", f, space(c, kind), Metric(c if out is None else out, kind), one,
           context=index, witnesses=[Witness(2, x, np.zeros_like(x), 0)])
      for c in NORMS for kind in ("Real", "Data")
      for name, f, space, out, x in (
          ("m[i,:]", lambda m, i: m[i % m.shape[0], :], matrices, None, np.eye(2)[:1]),
          ("m[i,j]", lambda m, i: m[i % m.shape[0], i % m.shape[1]], matrices, None, np.eye(2)[:1]),
          ("v[i]", lambda v, i: v[i % v.shape[0]], vectors, None, np.eye(2)[0]),
          ("m[:,j] as (L1,T)", lambda m, j: m[:, j % m.shape[1]], matrices, "L1", np.eye(2)[:1]),
      )],
    # --- np.max / np.min: 1 in every metric; np.sort: 1 on reals, Data rows move --
    *[Rule(f"{name} ({c},{kind}) {shape}", f, space(c, kind), Metric("L1", kind), one,
           witnesses=[Witness(2, np.array([1.0, 0.0]) if shape == "vector" else np.eye(2)[:1],
                              np.zeros(2) if shape == "vector" else np.zeros((1, 2)))])
      for name, f in (("np.max", np.max), ("np.min", lambda v: np.min(-v)))
      for c in NORMS for kind in ("Real", "Data")
      for shape, space in (("vector", vectors), ("matrix", matrices))],
    *[Rule(f"np.sort ({c},Real) {shape}", np.sort, space(c, "Real"), Metric(c, "Real"), one,
           witnesses=[onehot_zeros(3) if shape == "vector" else as_rows(onehot_zeros(3))])
      for c in NORMS for shape, space in (("vector", vectors), ("matrix", matrices))],
    *[Rule(f"np.sort ({c},Data) vector", np.sort, vectors(c, "Data"), Metric(c, "Data"), claim,
           witnesses=[Witness(n, np.arange(1.0, n + 1), np.r_[n + 1.0, np.arange(2.0, n + 1)])
                      for n in (1, 3, 5)])
      for c, claim in (("L1", length), ("L2", root), ("L_inf", one))],
    *[Rule(f"np.flip ({c},{kind}) {shape}", np.flip, space(c, kind), Metric(c, kind), one)
      for c in NORMS for kind in ("Real", "Data")
      for shape, space in (("vector", vectors), ("matrix", matrices))],
    # --- np.cumsum: n in L1 and L_inf, 1/(2 sin(pi/(4n+2))) in L2 ---------------
    Rule("np.cumsum (L1,Real) vector", np.cumsum, vectors("L1", "Real"), Metric("L1", "Real"),
         length, witnesses=[onehot_zeros(n) for n in (1, 3, 5)]),
    Rule("np.cumsum (L_inf,Real) vector", np.cumsum, vectors("L_inf", "Real"),
         Metric("L_inf", "Real"), length, witnesses=[ones_zeros(n) for n in (1, 3, 5)]),
    Rule("np.cumsum (L2,Real) vector", np.cumsum, vectors("L2", "Real"), Metric("L2", "Real"),
         lambda n: 1 / (2 * np.sin(np.pi / (4 * n + 2))),
         witnesses=[Witness(n, _top_singular_vector(n), np.zeros(n), slack=1e-9)
                    for n in (1, 3, 5)]),
    # --- Data scaling: any map D -> D is 1-sensitive, even c < 1 ---------------
    *[Rule(f"Data scaling c={c}", lambda a, c=c: c * a,
           scalars("Data"), Metric("L1", "Data"), one,
           witnesses=[Witness(1, 0.0, 1.0)] if c != 0 else [])
      for c in (0.5, 2.0, -3.0, 0.0)],
]


@pytest.mark.parametrize("rule", RULES, ids=str)
def test_rule_holds(rule: Rule) -> None:
    """No adversarial or random neighbouring pair exceeds the claimed constant."""
    check_rule(rule)


WITNESSED = [pytest.param(rule, w, id=f"{rule.name} n={w.n}") for rule in RULES for w in rule.witnesses]


@pytest.mark.parametrize(("rule", "witness"), WITNESSED)
def test_rule_is_tight(rule: Rule, witness: Witness) -> None:
    """The witness pair attains the claimed constant: the rule is not loose there."""
    pair = [(witness.x, witness.y)]
    observed = max_ratio(rule.bind(witness.context), pair, rule.source.metric, rule.target)
    claimed = rule.claimed(witness.n)
    assert claimed - witness.slack - 1e-9 <= observed <= claimed + 1e-9


def test_rule_names_are_unique() -> None:
    names = [rule.name for rule in RULES]
    assert len(names) == len(set(names))
