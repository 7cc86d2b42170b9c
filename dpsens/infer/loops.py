"""The loop rules: s^k on the carried value, Σ_{j<k} s^j on everything else.

The body is analyzed once with every carried variable replaced by a fresh
context variable; that gives the one-step transfer new_u = Σ_v A[u][v]·old_v
+ B_u.  Iterating it is exact for the abstraction, so a known small count is
unrolled; a symbolic count uses the closed forms of docs/rules.md.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Mapping, Sequence

import sympy as sp

from dpsens import ir
from dpsens import types as T
from dpsens.frontend import choices
from dpsens.infer import dtypes
from dpsens.infer.iterators import as_index_loop
from dpsens.infer.mutation import nested_statements, target_names
from dpsens.infer.values import (DEPENDS, LOOP_PREFIX, Value, decided, element_of, holds_zero_d,
                                 is_list, join, join_types, list_length, list_type, sampled,
                                 unknown)
from dpsens.privacy.ledger import (Charge, Event, Ledger, Loop, increment, linear, retarget,
                                   substituted, variables)
from dpsens.sym import context as C
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis

UNROLL_LIMIT = 1000


def run_loop(a: Analysis, s: ir.For) -> None:
    """Update the environment for the effect of a for loop."""
    index_loop = as_index_loop(a, s, _assigned(s.body))
    if index_loop is not None:  # enumerate(X), zip(X, Y)
        try:
            for statement in index_loop:
                a.statement(statement)
        finally:
            a.shared.live_lists.pop(id(index_loop[-1]), None)
        return
    unswitched = _unswitched(a, s)
    if unswitched is not None:
        a.statement(unswitched)
        return
    iteration = _iteration(a, s)
    if iteration is not None:
        seen = a.effects()
        if not _running_extreme(a, s, *iteration) and not _with_symbolic_index(a, s, *iteration):
            _counted_loop(a, s, *iteration)
        count = iteration[0]
        if not count.public:
            a.reveal(count.ctx, seen)  # how often it raised or printed (R-observed)
        return
    _not_analyzed(a, s)  # an unsupported iterable (DPS201)


def _not_analyzed(a: Analysis, s: ir.For) -> None:
    """A loop whose body is not analyzed (reported by the caller): everything it may
    assign or change is unbounded, and a call, return or raise in it poisons the function."""
    if any(isinstance(n, (ir.Return, ir.Raise, ir.Call)) for n in ir.nodes(s.body)):
        a.poisoned = True  # it may return, raise or print anything
    for name in _assigned(s.body) | target_names(s.target, stores=True):
        a.env[name] = unknown(a.tracked())
    # The body may write into what the target is an element of (for r in (w,): r += x).
    a.record_loop_aliases(s.target, s.iter)
    for name in sorted(_changed_in_place(s.body)):
        if name in a.env:
            a.invalidate(ir.Name(s.span, name), C.blow_up(a.tracked()))


def _unswitched(a: Analysis, s: ir.For) -> ir.If | None:
    """R-loop-unswitch: ``for t in it: A; if c: B else: C; D`` with c public and the same in
    every iteration is ``if c: for t in it: A; B; D else: for t in it: A; C; D``.

    c must be made of names, constants, arithmetic, comparisons and Boolean operators
    (no calls), over names holding numbers (which only rebinding changes) that the body
    neither assigns nor binds as the target. Python evaluates c in every iteration and
    gets the same value each time; evaluated once, before, it decides the same way, and
    a loop that runs no iteration runs neither arm. Each loop then sees one arm only:
    the larger arm is no longer taken in every iteration, and chosen anew in the next
    (x = 2x under a flag, x = x + y otherwise, k times: 2^k − 1 in y; now k).
    """
    changing = _assigned(s.body) | target_names(s.target, stores=True) | a.shared.rebound
    if any(isinstance(n, (ir.Lambda, ir.Function)) for n in ir.nodes(s.body)):
        return None  # a nested def may rebind a name of the test (nonlocal)
    for position, statement in enumerate(s.body):
        if not (isinstance(statement, ir.If) and _invariant_test(a, statement.test, changing)):
            continue
        test = a.expr(statement.test)
        if not test.public or decided(test) is not None:
            continue  # a known test is already followed as it goes (R-if)
        before, after = s.body[:position], s.body[position + 1:]
        arms = [ir.For(s.span, s.target, s.iter, (*before, *arm, *after))
                for arm in (statement.body, statement.orelse)]
        return ir.If(statement.span, statement.test, (arms[0],), (arms[1],))
    return None


def _invariant_test(a: Analysis, test: ir.Expr, changing: set[str]) -> bool:
    """A test of numbers the loop body does not rebind, with no calls or subscripts."""
    for node in ir.nodes(test):
        if isinstance(node, ir.Name):
            value = a.env.get(node.id)
            if node.id in changing or value is None or not isinstance(value.type, T.Scalar) \
                    or value.zero_d:
                return False
        elif not isinstance(node, (ir.Const, ir.BinOp, ir.UnaryOp, ir.Compare, ir.BoolOp)):
            return False
    return True


def _with_symbolic_index(a: Analysis, s: ir.For, count: Value, element: Value,
                         container: T.Type | None) -> bool:
    """R-loop-slices: a range loop whose body slices by its index (``X[i*b:(i+1)*b]``) is
    analyzed with the index a symbol i = start + step·j (j a whole number below the
    count). Kept when j is left only in the types and values of names the body binds
    (they hold the last iteration's, j = count − 1) and in assumptions linear in j
    (which hold for every iteration if they hold for the first and the last); anything
    else (a context, a charge, a diagnostic, a trace entry that depends on j) undoes the
    run, and False lets the loop be analyzed with an unknown index."""
    if container is not None or not count.public or count.exact is None \
            or not _slices_by(s.body, getattr(s.target, "id", None)):
        return False
    found = _range_start_step(a, s)
    if found is None or not (found[1].is_number and found[1].is_positive):
        return False
    j = sp.Dummy("slice_index", integer=True, nonnegative=True)
    saved, items = _snapshot(a), len(a.ledger.items)
    symbolic = Value(T.INTEGER, exact=found[0] + found[1] * j)
    _counted_loop(a, s, count, symbolic, container)
    last = {j: count.exact - 1}
    assumptions = _for_every_index(a.assumptions[saved["assumptions"]:], j, count.exact)  # type: ignore[misc]
    new_diagnostics = a.program.diagnostics.get(a.module.path, set()) - saved["diagnostics"]  # type: ignore[operator]
    trace = a.shared.trace[saved["trace"]:]  # type: ignore[misc]
    env = {name: _at(value, j, last) for name, value in a.env.items()}
    if assumptions is None or None in env.values() or _mentions(a.ledger.items[items:], j) \
            or any("_slice_index" in str(d) for d in (*new_diagnostics, *trace)):
        _restore(a, saved)
        del a.ledger.items[items:]
        return False
    a.env = env  # type: ignore[assignment]
    del a.assumptions[saved["assumptions"]:]  # type: ignore[misc]
    for condition in assumptions:
        a.assume(condition)
    return True


def _slices_by(body: tuple[ir.Stmt, ...], index: str | None) -> bool:
    """Whether the body reads a slice whose bounds read the index."""
    return index is not None and any(
        isinstance(n, ir.Slice) and index in ir.names_read(n) for n in ir.nodes(body))


def _at(value: Value, j: sp.Dummy, last: dict[E.Expr, E.Expr]) -> Value | None:
    """A value after the loop: j (in its type, exact value or range) is the last index;
    None when its context depends on j."""
    if any(j in c.free_symbols for c in value.ctx.values()) or _mentions(value.parts, j) \
            or _mentions(value.rowwise, j):
        return None
    if not (j in _type_symbols(value.type) or _mentions((value.exact, value.bound, value.interval), j)):
        return value
    from dataclasses import replace

    from dpsens.infer.binding import substitute_type

    def at(e: E.Expr | None) -> E.Expr | None:
        return None if e is None else E.substitute(e, last)

    interval = None if value.interval is None else (at(value.interval[0]), at(value.interval[1]))
    return replace(value, type=substitute_type(value.type, last), exact=at(value.exact),
                   bound=at(value.bound), interval=interval)  # type: ignore[arg-type]


def _for_every_index(conditions: list[E.Expr], j: sp.Dummy, count: E.Expr) -> list[E.Expr] | None:
    """Conditions on j as conditions for every j in [0, count): a relation linear in j holds
    for all of them if it holds at both ends; None if one is not linear in j."""
    out = []
    for condition in conditions:
        if j not in condition.free_symbols:
            out.append(condition)
            continue
        if not isinstance(condition, sp.core.relational.Relational):
            return None
        try:
            if sp.Poly(condition.lhs - condition.rhs, j).degree() > 1:
                return None
        except sp.PolynomialError:  # (Abs, Min, Max of j: not a polynomial in it)
            return None
        out += [condition.subs(j, 0), condition.subs(j, count - 1)]
    return out


def _mentions(item: object, j: sp.Dummy) -> bool:
    """Whether j appears anywhere in a ledger item, a value's parts or a row-wise mark."""
    if isinstance(item, sp.Basic):
        return j in item.free_symbols
    if isinstance(item, (tuple, list)):
        return any(_mentions(x, j) for x in item)
    if isinstance(item, dict):
        return any(_mentions(x, j) for x in (*item.keys(), *item.values()))
    if hasattr(item, "__dataclass_fields__"):
        return any(_mentions(getattr(item, f), j) for f in item.__dataclass_fields__)
    if isinstance(item, frozenset):
        return any(_mentions(x, j) for x in item)
    return False


def _counted_loop(a: Analysis, s: ir.For, count: Value, element: Value, container: T.Type | None
                  ) -> None:
    """A loop over a supported iterable, ``count`` iterations of ``element``."""
    assigned = _assigned(s.body)
    # A loop that may run no iteration leaves its target as it was (i = 10; for i in range(0)).
    kept = {name: a.env[name] for name in target_names(s.target, stores=True) if name in a.env} \
        if count.exact is None or count.exact.is_positive is not True else {}  # (a count is whole)
    in_place = _changed_in_place(s.body)
    rebound = assigned - in_place
    for name in in_place:
        if name in a.env:
            assigned |= a.alias_group(name)[1]  # a store through b changes a too
    # At most this many iterations (composition only grows with the number of steps).
    repetitions = (count.exact if count.exact is not None else count.bound or E.INF) \
        if count.public else E.INF
    if _resizes_iterated(a, s, container, element, repetitions):
        return
    carried = sorted(name for name in assigned if name in a.env)
    types = {name: a.env[name].type for name in carried}
    mark = (len(a.shared.trace), len(a.shared.samples))
    rows = _indexed_rows(a, s, assigned)
    cells = _partition_cells(a, s, assigned, element)
    batches = _sliced_batches(a, s, assigned, element)
    own = {**cells, **batches}  # (the index's uses that pick this iteration's part)
    counted = _counted_index_uses(a, s, cells)
    if _reads_range_index(s, rows, own, counted) and _unroll_concretely(a, s, count):
        return  # each iteration with its own index: i * x costs i, not max |i|
    if not rows and not own and not in_place and _reads_range_index(s, rows, own, counted) \
            and _summed_over_index(a, s, count, carried, types, element, kept):
        return  # Σ_i of what iteration i adds: a triangular loop is n(n − 1)/2, not n²
    if any(a.env[name].public for name in carried):
        # A public start is 0 away from itself in every metric, so it may take
        # the metric one iteration gives it (np.zeros(d) + an L2 row stays L2).
        probe = _run_body(a, s, element, {}, repetitions)
        _rollback(a, mark)
        if _drives_public_values(a, probe, carried, bool(own) or bool(rows)) \
                and _unroll_concretely(a, s, count):
            return
        for name in carried:
            after = probe.env[name].type
            if a.env[name].public and type(after) is type(types[name]):
                types[name] = after
        targets = target_names(s.target, stores=True)
        # (Only with a public count, and no array changed in place: an element read from
        # one would change with it. A number local to the body is rebound by ``n += 1``.)
        numbers = {name for name in in_place - a.env.keys() if name in probe.env
                   and isinstance(probe.env[name].type, T.Scalar) and not probe.env[name].zero_d
                   and _set_before_read(s.body, name)}
        steady = _steady_publics(a, s, element, repetitions, mark, types, {
            name for name in rebound & set(carried) - targets
            if a.env[name].public and C.is_public(probe.env[name].ctx)}) \
            if count.public and not in_place - numbers else {}
    else:
        steady = {}
    outside = {name: a.env[name] for name in steady}
    carried = [name for name in carried if name not in steady]
    # The iterated arrays: if the body changes one, an element may be read again later.
    iterated = _hold_iterated(a, s, container, element)
    sources = {iterated} if iterated is not None else set()
    sources |= {m for n in (*rows, *own) for m in (base_name(n), *a.alias_group(base_name(n))[1])}
    targets = target_names(s.target, stores=True)
    with_elements, rounds = True, 0
    while True:
        rounds += 1
        shares: list[tuple[str, E.Expr, E.Expr, C.Context]] = []  # element variable, F, G, container
        share = _element_share(a, container, element) if with_elements else None
        abstract = element
        if share is not None:
            shares.append((*share, element.ctx))
            abstract = Value(element.type, C.single(share[0]), integral=element.integral,
                             zero_d=element.zero_d)  # (a 0-d array changes in place: D155)
        # Each iteration's own part of a container (row, cell, batch), for engine to find
        # where the body reads it: with the index's and the container's values, since a
        # name rebound inside (by a comprehension or a closure's parameter) is another.
        parts = ((a.shared.row_reads, {name: (*row, a.env[name].ctx) for name, row in rows.items()}),
                 (a.shared.cell_reads, cells), (a.shared.slice_reads, batches))
        registered = []
        for table, found in (parts if with_elements else ()):
            for name, (variable, factor, gaussian, source) in found.items():
                if all(variable != shared for shared, *_ in shares):  # (a joint row: once)
                    shares.append((variable, factor, gaussian, source))
                table[(s.target.id, name)] = (variable, abstract, a.env[base_name(name)])  # type: ignore[index]
                registered.append((table, (s.target.id, name)))
        held: dict[str, dtypes.Integral] = {}
        try:
            for attempt in range(2):
                pseudo = {name: a.fresh_variable("loop", types[name]) for name in carried}
                start = {name: Value(types[name], C.single(pseudo[name]),
                                     zero_d=_carried_zero_d(a, name)) for name in carried}
                if not with_elements and iterated in pseudo:
                    abstract = Value(element.type, C.single(pseudo[iterated]),
                                     integral=element.integral, zero_d=element.zero_d)
                body = _run_body(a, s, abstract, {**steady, **start}, repetitions, held)
                changed = {n: join_types(types[n], body.env[n].type) for n in carried}
                grown = _held_after(a, [*carried, *steady], body, held)
                settled = all(changed[n] == types[n] for n in carried) and \
                    (grown == held or not _dtypes_matter(a, s))
                held = grown  # (what the loop leaves held as integers, R-int-dtype)
                if settled or attempt == 1:
                    break
                _rollback(a, mark)
                types = {n: changed[n] or T.Opaque("unknown") for n in carried}
        finally:
            for table, key in registered:
                table.pop(key, None)  # type: ignore[attr-defined]
        # A store into the iterated array (through any alias or view), or a call that
        # may change it, changes the elements later iterations read (and can copy one
        # element into a later one): run again with the array carried, every iteration
        # charged, and each element an entry or row of the array's current value (at
        # most the whole array away in every metric).
        # A name the body only rebinds (r = r + m[i] after r = m[0]) leaves the object
        # it shared with the array as it was: a store into that object changes the
        # array's own name too, which is checked.
        moved = sorted(n for n in sources - rebound if body.env.get(n) is not a.env.get(n)) \
            if with_elements else []
        # A name the body changes without binding it (a closure's store, a call that
        # writes into its argument) is seen changed by the next iteration: carried too.
        stray = sorted(n for n in a.env if n not in carried and n not in steady
                       and n not in targets and body.env.get(n) is not a.env.get(n))
        if not moved and not stray:
            break
        if rounds == 3:  # (it keeps finding more: nothing is known)
            a.poisoned = True
            break
        _rollback(a, mark)
        # The steady values were found with the elements as they were: carried again.
        carried.extend(steady)
        steady, outside = {}, {}
        for name in (*moved, *stray):
            if name not in carried:  # changed through an alias or by a call
                carried.append(name)
                types[name] = a.env[name].type
        carried.sort()
        with_elements = with_elements and not moved
    # k iterations read k elements, each at most its container away: Σ_t d_t ≤ k·d and
    # √(Σ_t d_t²) ≤ √k·d, tighter than F and G for a few entries of an L∞ vector.
    shares = [(variable, _fewer(factor, repetitions), _fewer(gaussian, E.sqrt(repetitions)),
               source) for variable, factor, gaussian, source in shares]
    transfer = {name: body.env[name].ctx for name in carried}
    initial = {name: a.env[name].ctx for name in carried}
    per_row: dict[str, C.Context] = {}
    for variable, factor, _, source in shares:
        transfer, added = _split_element(transfer, pseudo, (variable, factor), source)
        for u, ctx in added.items():
            per_row[u] = C.add(per_row.get(u, C.EMPTY), ctx)
    final, before_last = _iterate(a, s, count, transfer, initial, pseudo)
    for u, elements in per_row.items():  # every state, not only the last, holds them
        final[u] = C.add(final[u], elements)
        before_last[pseudo[u]] = C.add(before_last[pseudo[u]], elements)
        if pseudo[u] in a.shared.loop_states:
            a.shared.loop_states[pseudo[u]] = C.add(a.shared.loop_states[pseudo[u]], elements)
    items = a.close_samples(body.ledger.items, mark[1])
    bounds = _carried_bounds(pseudo, initial, before_last, a.shared.loop_states)
    once: list = []  # type: ignore[type-arg]
    for variable, factor, gaussian, source in shares:
        # (a range loop's element variable has its container's type: the same metric kind)
        whole = T.has_whole_steps(a.var_types[variable])
        # Another element moves only with its own container: the rows of labels do not
        # move when a row of data does (each is a variable of its own, with its source).
        others = {v: c for v, _, _, c in shares if v != variable}
        items, paid_once = _parallel_pure(items, (variable, factor, gaussian), source, whole,
                                          {**bounds, **others})
        once += paid_once
    # Other charges on one element are paid by the container, every iteration.
    items = _moved(items, {variable: source for variable, _, _, source in shares})
    settle_findings(a, bounds)
    # What the body showed (R-observed) of an element or a carried value is of what they
    # stand for: the container, the carried value's bound.
    stand_for = {**{variable: source for variable, _, _, source in shares}, **bounds}
    if set(a.shared.observed) & set(stand_for):
        a.shared.observed = C.substitute(a.shared.observed, stand_for)
    spent = _charged_to_inputs(items, bounds)
    if spent:
        a.ledger.items.append(Loop(repetitions, tuple(spent)))
    a.ledger.items.extend(once)
    for name in carried:
        if changed[name] == types[name]:
            a.env[name] = _held_final(a, name, Value(types[name], final[name],
                                                     zero_d=_carried_zero_d(a, name, body)),
                                      body, held, before_last)
        else:  # the metric changes every iteration: nothing is known
            a.env[name] = unknown(C.add(final[name], initial[name]))
    # A body-local read from an element: one element is at most its container away.
    before_last = {**before_last, **{variable: source for variable, _, _, source in shares}}
    for name in sorted(assigned - set(carried)):
        if name in body.env:
            local = body.env[name]
            a.env[name] = dtypes.marked(Value(local.type, C.substitute(local.ctx, before_last)),
                                        None if local.integral is None else
                                        C.substitute(local.integral, before_last))
    for name, before in outside.items():  # (a loop may run no iteration: join)
        a.env[name] = join(before, body.env[name])
    for name in sorted(set(a.env) - assigned - set(carried)):
        if body.env.get(name) is not a.env[name]:
            # Changed without an assignment (a store through an alias, an
            # unknown call): the loop rules did not follow it.
            a.env[name] = unknown(C.add(a.env[name].ctx, a.tracked()))
    a.assign(s.target, element)
    for name, before in kept.items():
        a.env[name] = join(a.env[name], before)
    a.record_loop_aliases(s.target, s.iter)
    if iterated is not None:
        _release_iterated(a, iterated)


def _resizes_iterated(a: Analysis, s: ir.For, container: T.Type | None, element: Value,
                      repetitions: E.Expr) -> bool:
    """R-loop-grown-list (D149): Python iterates a list by position up to its current end,
    so a body that may make the iterated list longer (append, extend, insert, +=, *=, a
    slice store, or handing it to code that may, through any name) runs more iterations
    than it had elements, over elements it added: the count is not known. A trial run of
    the body (undone) tells whether it may; if so the loop is reported (DPS207) and not
    analyzed, and True is returned."""
    if not isinstance(container, T.ListType) and not a.shared.live_lists.get(id(s)):
        return False  # (no list iterated: most loops, without a snapshot)
    saved = _snapshot(a)
    held = [_hold_iterated(a, s, container, element)] if isinstance(container, T.ListType) else []
    held += _hold_live_lists(a, s)
    resized = False
    if held:
        body = _run_body(a, s, element, {}, repetitions)
        resized = any(_resized(a, body, name) for name in held if name is not None)
    _restore(a, saved)
    if resized:
        a.report(s.iter.span, "DPS207", "the loop may change the length of the list it "
                 "iterates (through this name, an alias or a call): Python iterates the "
                 "elements it adds too, so the count is not known (iterate over "
                 "range(len(...)), which is evaluated once, or leave the list as it is)")
        _not_analyzed(a, s)
    return resized


def _hold_live_lists(a: Analysis, s: ir.For) -> list[str]:
    """Hidden names for the lists an enumerate/zip loop iterates (``a.shared.live_lists``),
    each in the alias group of the name that held it when the loop started."""
    return [_hidden_alias(a, a.env[source], ir.Name(s.span, source))
            for source in a.shared.live_lists.get(id(s), ())
            if source in a.env and is_list(a.env[source])]


def _resized(a: Analysis, body: Analysis, name: str) -> bool:
    """Whether the body may have changed the length of the list held under the hidden
    ``name``: it changed it, and not only by changing arrays it holds in place (every
    other change of a list leaves the names that may hold it unknown:
    MutationRules.grow_list, _store_into_list, invalidate)."""
    after = body.env.get(name)
    return after is not a.env.get(name) and (after is None or not is_list(after))


def _hold_iterated(a: Analysis, s: ir.For, container: T.Type | None, element: Value) -> str | None:
    """A hidden name for the iterated array object, in the alias group of what ``s.iter``
    names: Python iterates that object, so stores and in-place operations through any
    alias change the elements later iterations read, and rebinding the name does not."""
    if container is None:
        return None
    return _hidden_alias(a, Value(container, element.ctx, zero_d=element.zero_d), s.iter)


def _hidden_alias(a: Analysis, value: Value, iterated: ir.Expr) -> str:
    """A fresh hidden name holding ``value``, in the alias group of what ``iterated`` names."""
    a.program.fresh += 1
    name = f"@iterated{a.program.fresh}"
    a.env[name] = value
    a.record_alias(name, iterated)
    return name


def _release_iterated(a: Analysis, name: str) -> None:
    """Forget the hidden name once the loop is done."""
    a.env.pop(name, None)
    a.shared.aliases.pop(name, None)
    a.shared.views.discard(name)


def _element_share(a: Analysis, container: T.Type | None, element: Value
                   ) -> tuple[str, E.Expr, E.Expr] | None:
    """For a loop over the rows of a matrix or the entries of a vector: a fresh variable
    for the element, F with Σ_t d(element_t) ≤ F·d(container), and G with
    √(Σ_t d(element_t)²) ≤ G·d(container) (None for range loops).

    A matrix's distance is the sum of its rows' distances, a list's of its
    elements' (F = G = 1: a sum bounds the root of the sum of squares). A
    vector's entries sum to its L1 distance (F = G = 1), to at most √n times
    its L2 distance (G = 1: that root is the L2 distance), and to n times its
    L∞ distance (G = √n).
    """
    if not element.ctx:
        return None
    if isinstance(container, (T.Matrix, T.ListType)):
        factors = (E.ONE, E.ONE)
    elif isinstance(container, T.Vector):
        n = container.length
        norms = {"L1": (E.ONE, E.ONE), "L2": (E.sqrt(n), E.ONE), "L_inf": (n, E.sqrt(n))}
        factors = norms.get(container.norm, (E.INF, E.INF))
    else:
        return None
    return a.fresh_variable("elem", element.type), *factors


def _fewer(factor: E.Expr, limit: E.Expr) -> E.Expr:
    """min(factor, limit) where the limit is a number or known smaller (a symbolic count
    would leave a min that no later step can simplify)."""
    return E.smin(factor, limit) if limit.is_Number or E.decide_le(limit, factor) else factor


def _split_element(transfer: dict[str, C.Context], pseudo: dict[str, str],
                   share: tuple[str, E.Expr], container: C.Context
                   ) -> tuple[dict[str, C.Context], dict[str, C.Context]]:
    """The transfer without the element, and what the elements add over all iterations.

    A carried u that grows by at most 1 per iteration, depends on no other carried
    variable and is read by none (new_u = a·u + r·e_t + …, a ≤ 1) ends at most
    Σ_t r·d(e_t) ≤ r·F·d(container) from the elements, because each element
    is read in one iteration only; for a number a < 1 also at most
    r·d(container)·Σ_j a^j ≤ r·d(container)/(1 − a). Otherwise every iteration is charged the
    whole container, as for any other input: Σ_{j<k} g^j·r·Γ_container.
    """
    variable, factor = share
    stripped = {u: {k: v for k, v in ctx.items() if k != variable} for u, ctx in transfer.items()}
    added: dict[str, C.Context] = {}
    carried = set(pseudo.values())
    # Carried values another one reads (t = t + s): the transfer iterates s's states,
    # which must then hold the elements' part; only the unread ones take it once.
    read = {k for w, ctx in transfer.items() for k, r in ctx.items()
            if k in carried and k != pseudo[w] and not E.is_zero(r)}
    for u, ctx in transfer.items():
        r = ctx.get(variable, E.ZERO)
        if E.is_zero(r):
            continue
        own = ctx.get(pseudo[u], E.ZERO)
        alone = not any(k in carried and k != pseudo[u] for k in ctx) and pseudo[u] not in read
        if alone and E.decide_le(own, E.ONE) is True:
            spread = factor
            if own.is_number and own < 1:
                # A shrinking carry (s = 0.5*s + 0.5*e) also weighs element t by own^(k-1-t),
                # each element at most the container away: Σ_j own^j ≤ 1/(1 − own).
                spread = sp.Min(factor, 1 / (1 - own))
            added[u] = C.scale(E.mul(r, spread), container)
        else:
            stripped[u] = C.add(stripped[u], C.scale(r, container))  # per iteration, as before
    return stripped, added


def _parallel_pure(items: list, share: tuple[str, E.Expr, E.Expr],  # type: ignore[type-arg]
                   container: C.Context, whole: bool,
                   bounds: dict[str, C.Context]) -> tuple[list, list]:  # type: ignore[type-arg]
    """Pure-DP and Gaussian charges on the element, made directly in the body: paid once,
    by F·Γ (Gaussians by G·Γ).

    Parallel composition: iteration t's mechanisms see only element t. A pure
    ε-DP charge that grows linearly with distance costs the iterations
    ε·Σ_t d_t ≤ ε·F·d(container) together; a capped one is paid at its linear
    bound, and one that any move may cost in full only over elements whose
    changes are whole (ledger.linear); a Gaussian with μ per unit distance is
    μ·d_t-GDP on element t, and together √(Σ_t (μ·d_t)²) ≤ μ·G·d(container)
    (Dong–Roth–Su composition). Other charges, and charges under a branch or an
    inner loop, stay per iteration.
    """
    variable, factor, gaussian_factor = share
    kept: list = []  # type: ignore[type-arg]
    once: dict[bool, list] = {False: [], True: []}  # type: ignore[type-arg]  # by: Gaussian?
    for item in items:
        history = item.charges.get(variable) if isinstance(item, Event) else None
        related = [c for v, h in (item.charges.items() if history else ()) if v != variable
                   and _may_share(v, container, bounds) for c in h]
        if history and sampled(container) and len(item.charges) > 1:
            history = None  # the rows of a sample beside anything else: every iteration
        elif history and related:
            # The release also reads what may move with the element (the container, a
            # carried value), paid in every iteration: the changed element's iteration
            # pays it merged with the element, so once more its increment (by F: the
            # cross term μ_e·μ_c grows with Σ d_t, not with its root).
            if len(history) == 1 and isinstance(history[0], Charge) \
                    and all(isinstance(c, Charge) for c in related):
                history = (increment(history[0], tuple(related)),)
            else:
                history = None
        paid = linear(history, whole) if history and all(isinstance(c, Charge) for c in history) \
            else None
        if paid:
            for gaussian in (False, True):
                part = tuple(c for c in paid if (_gaussian_only(c) and not related) == gaussian)
                if part:
                    once[gaussian].append(Event({variable: part}))
            rest = {v: h for v, h in item.charges.items() if v != variable}
            if rest:
                kept.append(Event(rest))
        else:
            kept.append(item)
    if not (once[False] or once[True]):
        return items, []
    return kept, (retarget(once[False], {variable: dict(C.scale(factor, container))})
                  + retarget(once[True], {variable: dict(C.scale(gaussian_factor, container))}))


def _may_share(variable: str, container: C.Context, bounds: dict[str, C.Context]) -> bool:
    """Whether a variable may move when the container does: one of its variables, a
    carried value whose bound reads them (or another fresh variable), or a fresh variable
    (an argument, a sample) that may stand for them."""
    if variable in bounds:
        return any(v in container or v.startswith("@") for v in bounds[variable])
    return variable in container or variable.startswith("@")


def _gaussian_only(item: object) -> bool:
    """A Gaussian charge (its μ per unit distance known), which composes in μ²."""
    return isinstance(item, Charge) and item.gaussian is not None and item.laplace is None


def _moved(items: list, moves: dict[str, C.Context]) -> list:  # type: ignore[type-arg]
    """Charges on the given variables re-charged to their contexts."""
    if not set(moves) & variables(items):
        return items
    return substituted(items, {v: dict(ctx) for v, ctx in moves.items()})


def _carried_bounds(pseudo: dict[str, str], initial: dict[str, C.Context],
                    before_last: dict[str, C.Context],
                    states: dict[str, C.Context]) -> dict[str, C.Context]:
    """What each carried value's pseudo variable stands for, over every iteration.

    In iteration t the carried value u moves by its state-t context; every
    state is below the start plus the state before the last iteration (the
    sums are monotone in t for the closed forms), or below the join of all
    states when the loop was unrolled.
    """
    bounds = {}
    for name, variable in pseudo.items():
        bound = states.get(variable)
        bounds[variable] = bound if bound is not None else \
            C.add(initial[name], before_last.get(variable, C.EMPTY))
    return bounds


def _charged_to_inputs(items: list, bounds: dict[str, C.Context]) -> list:  # type: ignore[type-arg]
    """Charges on a carried value at the start of an iteration, paid by the inputs."""
    carried = set(bounds)
    if not carried & variables(items):
        return items
    return substituted(items, {variable: dict(bound) for variable, bound in bounds.items()})


def settle_findings(a: Analysis, bounds: dict[str, C.Context]) -> None:
    """Report the deferred findings on carried values that depend on sensitive inputs.

    A finding on a carried value that stands for other carried values (of
    enclosing loops) waits for those; on a public one it was never a problem
    (a model updated only with noised values is public).
    """
    waiting = []
    for variable, span, code, message in a.shared.deferred:
        if variable not in bounds:
            waiting.append((variable, span, code, message))
            continue
        sources = sorted(v for v, r in bounds[variable].items() if not E.is_zero(r))
        inputs = [v for v in sources if not v.startswith(LOOP_PREFIX)]
        if inputs:  # the message names the inputs the carried value depends on
            shown = ", ".join(f"'{v}'" for v in inputs if not v.startswith("@")) or "the rows it reads"
            # (an iteration analyzed as it was may have reported it already)
            plain = message[:-len(DEPENDS)] if message.endswith(DEPENDS) else None
            if plain is None or not a.reported_at(span, code, plain.format()):
                a.report(span, code, message.format(shown))
        else:
            waiting.extend((v, span, code, message) for v in sources)
    a.shared.deferred = waiting


def _run_body(a: Analysis, s: ir.For, element: Value, start: dict[str, Value],
              repetitions: E.Expr, held: Mapping[str, dtypes.Integral] | None = None) -> Analysis:
    """One analysis of the loop body with its own ledger (wrapped in a Loop by the caller).
    A carried value is held as an integer at the start of an iteration where it was
    before the loop, or where ``held`` (what an iteration made of it) says (R-int-dtype)."""
    body = a.child()
    body.ledger = Ledger()
    body.env.update({name: _held_at_start(a, name, value, held or {})
                     for name, value in start.items()})
    a.shared.loop_counts.append(repetitions)
    try:
        body.assign(s.target, element)
        body.record_loop_aliases(s.target, s.iter)
        body.block(s.body)
    finally:
        a.shared.loop_counts.pop()
    return body


def _carried_zero_d(a: Analysis, name: str, body: Analysis | None = None) -> bool:
    """Whether a carried value may be, or hold, a 0-d array at an iteration's start or after
    the loop: as it was before, or as the body leaves it; a list or tuple may have been given
    one by any iteration, of any in scope (D155)."""
    value = a.env[name]
    if value.zero_d or (body is not None and name in body.env and body.env[name].zero_d):
        return True
    return is_list(value) and holds_zero_d(a.env.values())


def _dtypes_matter(a: Analysis, s: ir.For) -> bool:
    """Whether the body may make or write an array, or call an analyzed function, so that
    a carried value's being held as an integer changes what an iteration does; where it
    cannot, the body is not run again for that alone (R-int-dtype): in nested loops each
    run of an outer body runs the inner loops again, 2ⁿ runs at a depth of n."""
    return dtypes.builds_arrays(s.body, lambda func: a.qualify(func) in a.program.functions
                                or isinstance(func, ir.Name) and func.id in a.env)


def _held_at_start(a: Analysis, name: str, value: Value,
                   held: Mapping[str, dtypes.Integral]) -> Value:
    """A carried value at an iteration's start, held as an integer where it may be."""
    found = _held_sources(name, held, a.env)
    return dtypes.marked(value, C.total(found)) if found else value


def _held_sources(name: str, held: Mapping[str, dtypes.Integral],
                  *envs: Mapping[str, Value]) -> list[C.Context]:
    """What decides whether a carried value is held as an integer: as ``held`` says, and
    as it is in each of the environments (before the loop, after an iteration)."""
    found = [dtypes.possible(env[name]) for env in envs if name in env]
    return [h for h in (*found, held.get(name)) if h is not None]


def _held_after(a: Analysis, carried: Sequence[str], body: Analysis,
                held: Mapping[str, dtypes.Integral]) -> dict[str, dtypes.Integral]:
    """What an iteration leaves held as integers, with what was before: if any is, every
    carried value may be at the next iteration's start (one may be copied into another).
    Values that are integers before and after (a counter) are left out: their kind says
    so, and counting them would run every loop's body twice, 2ⁿ times at a depth of n."""
    reals = [n for n in carried if n in body.env and any(
        dtypes.holds_reals(env[n].type) for env in (a.env, body.env) if n in env)]
    found = [h for h in (*(dtypes.possible(body.env[n]) for n in reals), *held.values())
             if h is not None]
    if not found:
        return {}
    every = C.blow_up(C.total(found))
    if any(v.startswith("@") for v in every):
        # A loop's variable (this run's) stands for any input a carried value may hold.
        reach = C.total([*(a.env[n].ctx for n in carried if n in a.env),
                         *(body.env[n].ctx for n in carried if n in body.env)])
        every = C.blow_up(C.add({v: r for v, r in every.items() if not v.startswith("@")},
                                {v: r for v, r in reach.items() if not v.startswith("@")}))
    return {name: every for name in carried}


def _held_final(a: Analysis, name: str, value: Value, body: Analysis,
                held: Mapping[str, dtypes.Integral], before_last: Mapping[str, C.Context]
                ) -> Value:
    """A carried value after the loop: held as an integer where it was at the start (no
    iteration may run) or after an iteration; the loop's variables stand for their values."""
    found = _held_sources(name, held, a.env, body.env)
    if not found:
        return value
    return dtypes.marked(value, C.substitute(C.total(found), before_last))


CONCRETE_LIMIT = 64  # iterations run one by one when public values change in the loop


def _steady_publics(a: Analysis, s: ir.For, element: Value, repetitions: E.Expr,
                    mark: tuple[int, int], types: dict[str, T.Type], candidates: set[str]
                    ) -> dict[str, Value]:
    """R-loop-public: the candidates (carried values public at the start) that the body
    keeps public whatever the other carried values are, each as a public value of its type.

    By induction they are public at the start of every iteration, so they need no loop
    variable, which would stand for a value that may move with the data: a release that
    reads one (``acc = acc + gaussian(…, f(row, acc))`` in an outer loop) would be paid
    as if it did (δ = ∞ where the loop variable may not move at all). The body is run
    with the candidates public and every other carried value a fresh variable; those
    that do not stay public (or change type) are dropped, until none is.
    """
    steady = set(candidates)
    while steady:
        start = {name: Value(t, C.EMPTY, zero_d=_carried_zero_d(a, name)) if name in steady else
                 Value(t, C.single(a.fresh_variable("loop", t)), zero_d=_carried_zero_d(a, name))
                 for name, t in types.items()}
        body = _run_body(a, s, element, start, repetitions)
        _rollback(a, mark)
        kept = {name for name in steady if C.is_public(body.env[name].ctx)
                and body.env[name].type == types[name]}
        if kept == steady:
            return {name: start[name] for name in sorted(steady)}
        steady = kept
    return {}


def _drives_public_values(a: Analysis, probe: Analysis, carried: list[str], cells: bool) -> bool:
    """Whether an iteration changes a public scalar (a counter, a step size): the transfer
    abstraction would make it a sensitive unknown, and every product with it ∞. With
    ``cells`` (R-loop-partition, or rows read by the index: what a concrete run loses),
    only a change to another known value counts: a running total of noisy counts is
    known in no iteration."""
    for name in carried:
        before, after = a.env[name], probe.env.get(name)
        if (after is not None and before.public and after.public
                and isinstance(after.type, T.Scalar) and after.exact != before.exact
                and not (cells and after.exact is None)):
            return True
    return False


def _counted_index_uses(a: Analysis, s: ir.For, cells: Mapping[str, object]) -> int:
    """How often the index is read inside the predicates of counts that are cells."""
    if not cells or not isinstance(s.target, ir.NameTarget):
        return 0  # (most loops have no cells: no walk of their bodies for counts)
    index, uses = s.target.id, 0
    for call in ir.nodes(s.body):
        if isinstance(call, ir.Call):
            found = _counted_cell(a, call, index)
            if found is not None and found[0] in cells:
                uses += _count_name((call.args[0],), index)  # type: ignore[arg-type]
    return uses


def _reads_range_index(s: ir.For, rows: dict[str, tuple[str, E.Expr, E.Expr]],
                       cells: Mapping[str, object], counted: int = 0) -> bool:
    """``for i in range(...)`` whose body reads i other than to pick its own rows or cells
    (``counted``: its reads in the predicates of counts that are cells)."""
    if not (isinstance(s.iter, ir.Call) and isinstance(s.target, ir.NameTarget)
            and ir.dotted_name(s.iter.func) == "range"):
        return False
    index = s.target.id
    uses = _count_name(s.body, index)
    # With cells, an index that only says where iteration i stores its count (out[i] =
    # np.sum(v == i)) picks a distinct entry each time: the loop need not be unrolled,
    # which would count each cell on its own (4 for four bins, where the partition is 2).
    positions = _store_positions(s.body, index) if cells else 0
    return uses > positions + counted + sum(len(_row_subscripts(s.body, index, name)) for name in rows) \
        + sum(_count_name(tuple(_cell_tests(s.body, index, name)), index)  # type: ignore[arg-type]
              + _count_name(tuple(_batch_slices(s.body, index, name)), index)  # type: ignore[arg-type]
              for name in cells)


def _store_positions(body: tuple[ir.Stmt, ...], index: str) -> int:
    """Stores ``name[index] = ...`` (the index alone, as the whole position) in a body."""
    return sum(1 for statement in nested_statements(body) if isinstance(statement, ir.Assign)
               for target in statement.targets if isinstance(target, ir.StoreTarget)
               and isinstance(target.target, ir.Subscript) and isinstance(target.target.value, ir.Name)
               and len(target.target.index) == 1 and isinstance(target.target.index[0], ir.Name)
               and target.target.index[0].id == index)


def _indexed_rows(a: Analysis, s: ir.For, assigned: set[str]) -> dict[str, tuple[str, E.Expr, E.Expr]]:
    """Containers the body reads as ``m[i]``, ``m[i, ...]`` or ``v[i]`` with i the index of
    a range loop: each iteration reads its own row or entry (the indices are distinct).

    Only containers the body does not assign or store into, with a sensitive value;
    each gets a fresh element variable and the F of R-loop-elements.
    """
    if not (isinstance(s.iter, ir.Call) and a.qualify(s.iter.func) == "builtins.range"
            and isinstance(s.target, ir.NameTarget) and s.target.id not in assigned):
        return {}
    args = s.iter.args
    if len(args) == 3:  # counting down may reach negative indices: -1 and n - 1 are one entry
        step = a.expr(args[2])
        if not (step.public and step.exact is not None and step.exact.is_positive):
            return {}
    if len(args) >= 2:  # negative indices count from the end: -1 and n - 1 are one entry
        start = a.expr(args[0])
        if not (start.public and start.exact is not None and start.exact.is_nonnegative):
            return {}
    index = s.target.id
    nodes = ir.nodes(s.body)
    if any(isinstance(n, (ir.Lambda, ir.Function)) for n in nodes):
        return {}  # a closure's own parameter could be named like the index
    found: dict[str, tuple[str, E.Expr, E.Expr]] = {}
    joint: dict[tuple[str, tuple[tuple[str, E.Expr], ...]], tuple[str, E.Expr, E.Expr]] = {}
    for name in sorted({n for n in _subscripted_names(s.body) if _row_subscripts(s.body, index, n)}):
        value = a.env.get(name)
        if name in assigned or value is None or not value.ctx:
            continue
        # Containers that are one input itself (Value.input_of: a parameter under two
        # names, or the two outputs of one sample(), row i of each the i-th drawn record)
        # are row-aligned: row i of each is one row of that input, so they share its
        # element (D[j] and L[j] of a minibatch move as one record).
        key = (value.input_of, tuple(sorted(value.ctx.items()))) \
            if value.input_of is not None else None
        share = joint.get(key) if key is not None else None
        if share is None:
            share = _element_share(a, value.type, Value(value.type, value.ctx))
        if share is not None:
            found[name] = share
            if key is not None:
                joint[key] = share
    return found


def _partition_cells(a: Analysis, s: ir.For, assigned: set[str], index: Value
                     ) -> dict[str, tuple[str, E.Expr, E.Expr, C.Context]]:
    """Arrays of discrete entries the body tests as ``x == i`` with i the index of a range
    loop over public bounds (R-loop-partition): iteration i's mask is cell i of a
    partition of the entries, since an entry equals at most one of the distinct indices.

    A changed entry leaves one cell and enters at most one other, so the masks' L1
    distances d_i (entries changed in cell i) sum to at most 2c, with c the entries
    changed, and √(Σ_i d_i²) ≤ √(max_i d_i · Σ_i d_i) ≤ √2·c; each mask is at most c
    away. An entry that changes moves by at least 1 (a discrete metric), so c is at most
    the array's distance times 1 (L1), √n (L2: c ≤ Σ|Δ| ≤ √n·‖Δ‖₂) or n (L∞), with n
    the entries of a vector or of a matrix row (a matrix's distance sums its rows').
    Each gets a fresh variable for the mask with F = 2, G = √2 and, as its container,
    c's bound; the body must not assign the array or the index.
    """
    if not (isinstance(s.iter, ir.Call) and a.qualify(s.iter.func) == "builtins.range"
            and isinstance(s.target, ir.NameTarget) and s.target.id not in assigned
            and C.is_public(index.ctx)):
        return {}
    nodes = ir.nodes(s.body)
    counted: dict[int, tuple[ir.Expr, str, ir.Expr]] = {}  # by predicate: (it, key, column)
    for call in nodes:
        found_cell = _counted_cell(a, call, s.target.id) if isinstance(call, ir.Call) else None
        if isinstance(call, ir.Call) and found_cell is not None:
            counted[id(call.args[0])] = (call.args[0], *found_cell)
    if any(isinstance(n, (ir.Lambda, ir.Function)) and id(n) not in counted for n in nodes):
        return {}  # a closure's own parameter could be named like the index
    found: dict[str, tuple[str, E.Expr, E.Expr, C.Context]] = {}
    tested: dict[str, ir.Expr] = {}  # what the body compares: names and columns
    inside = {id(n) for pred, _, _ in counted.values() for n in ir.nodes(pred)}
    for node in nodes:
        if isinstance(node, ir.Compare) and id(node) not in inside:
            for side in (node.left, node.right):
                key = name_of(side)
                if key is not None:
                    tested[key] = side
    for _, key, column in counted.values():
        tested[key] = column
    counted_keys = {key for _, key, _ in counted.values()}
    for name in sorted(set(tested) - {s.target.id}):
        if base_name(name) in assigned:
            continue
        if name == base_name(name):
            value = a.env.get(name)
        else:  # a column m[:, j], read as written (a pure read of m)
            value = a.expr(tested[name]) if base_name(name) in a.env else None
        if value is None or not value.ctx or not (
                name in counted_keys or _cell_tests(s.body, s.target.id, name)):
            continue
        t = value.type
        if not (isinstance(t, (T.Vector, T.Matrix, T.Scalar)) and T.is_discrete_metric(t)):
            continue
        # (a number is one entry: unary encoding, x == j for each category j)
        n = E.ONE if isinstance(t, T.Scalar) else t.length if isinstance(t, T.Vector) else t.cols
        changed = E.ONE if isinstance(t, T.Scalar) else \
            {"L1": E.ONE, "L2": E.sqrt(n), "L_inf": n}.get(t.norm)
        if changed is None:
            continue
        variable = a.fresh_variable("cell", T.Vector("L1", "Integer", n))
        found[name] = (variable, E.number(2), E.sqrt(E.number(2)), C.scale(changed, value.ctx))
    return found


def _sliced_batches(a: Analysis, s: ir.For, assigned: set[str], index: Value
                    ) -> dict[str, tuple[str, E.Expr, E.Expr, C.Context]]:
    """Matrices the body slices by rows as ``m[lo:hi, ...]`` with lo and hi reading the
    index of a range loop run with a symbolic index (R-loop-slices): where the slices of
    different iterations cannot share a row (engine.subscript checks it on the bounds),
    each is iteration i's own batch of rows, an element with F = G = 1 (a matrix's
    distance sums its rows'). The body must not assign the matrix or the index."""
    if index.exact is None or not any(getattr(v, "name", "") == "slice_index"
                                      for v in index.exact.free_symbols) \
            or not isinstance(s.target, ir.NameTarget) or s.target.id in assigned:
        return {}
    # (A closure in the body may slice too: engine._own_batch takes a slice as the batch
    # only where the index and the matrix are this loop's own values, so a closure's
    # parameter named like the index is another value.)
    found: dict[str, tuple[str, E.Expr, E.Expr, C.Context]] = {}
    for name in sorted(_subscripted_names(s.body) - assigned):
        value = a.env.get(name)
        slices = _batch_slices(s.body, s.target.id, name)
        if value is None or not value.ctx or not isinstance(value.type, T.Matrix) or not slices:
            continue
        # One batch per iteration: every row slice of it the same rows (X[i:i+1] and
        # X[i+1:i+2], or X[j:j+1] with j = i + 1, would read row r in two iterations),
        # from names the body keeps.
        every = [n.index[0] for n in ir.nodes(s.body) if isinstance(n, ir.Subscript)
                 and isinstance(n.value, ir.Name) and n.value.id == name
                 and isinstance(n.index[0], ir.Slice)]
        if len({ir.written(part) for part in every}) != 1 \
                or ir.names_read(slices[0]) & (assigned - {s.target.id}):
            continue
        found[name] = (a.fresh_variable("batch", value.type), E.ONE, E.ONE, value.ctx)
    return found


def _batch_slices(body: tuple[ir.Stmt, ...], index: str, name: str) -> list[ir.Slice]:
    """The row slices ``name[lo:hi, ...]`` whose bounds read the index."""
    return [n.index[0] for n in ir.nodes(body) if isinstance(n, ir.Subscript)
            and isinstance(n.value, ir.Name) and n.value.id == name
            and isinstance(n.index[0], ir.Slice) and index in ir.names_read(n.index[0])]


def _counted_cell(a: Analysis, call: ir.Call, index: str) -> tuple[str, ir.Expr] | None:
    """``count(lambda r: r[j] == i, m)`` (or ``count(lambda e: e == i, v)``) with i the loop's
    index: np.sum(m[:, j] == i) written with dpsens's count, whose predicate tests one entry
    of each row. The key of the tested column (as name_of gives it) and the column itself."""
    if len(call.args) != 2 or call.keywords:
        return None
    pred, data = call.args
    if not (isinstance(pred, ir.Lambda) and isinstance(data, ir.Name)
            and a.qualify(call.func) == "dpsens.count"):
        return None
    column = _tested_entry(pred, index)
    held = a.env.get(data.id)
    # (rows of a matrix, entries of a vector: the column read is built only where it exists)
    if column is None or held is None or not isinstance(
            held.type, T.Vector if column < 0 else T.Matrix):
        return None
    if column < 0:
        return data.id, data
    read = ir.Subscript(call.span, data, (ir.Slice(call.span, None, None, None),
                                          ir.Const(call.span, column)))
    return f"{data.id}[:, {column}]", read


def _tested_entry(pred: ir.Lambda, index: str) -> int | None:
    """j for ``lambda r: r[j] == index`` (either way round), −1 for ``lambda e: e == index``,
    else None."""
    test = pred.body
    if len(pred.params) != 1 or pred.params[0].default is not None \
            or pred.params[0].name == index or not isinstance(test, ir.Compare) or test.op != "==":
        return None
    row = pred.params[0].name
    for entry, other in ((test.left, test.right), (test.right, test.left)):
        if not (isinstance(other, ir.Name) and other.id == index):
            continue
        if isinstance(entry, ir.Name) and entry.id == row:
            return -1
        if isinstance(entry, ir.Subscript) and isinstance(entry.value, ir.Name) \
                and entry.value.id == row and len(entry.index) == 1 \
                and isinstance(entry.index[0], ir.Const) and type(entry.index[0].value) is int \
                and entry.index[0].value >= 0:
            return entry.index[0].value
    return None


def counted_cell_variable(a: Analysis, pred: ir.Lambda, container: Value) -> str | None:
    """The cell variable of ``count(pred, container)`` in a loop whose partition holds it
    (R-loop-partition), or None: the loop registered the count's column, and the index
    and the container are still the values it saw."""
    for (index, key), (variable, index_value, source) in a.shared.cell_reads.items():
        column = _tested_entry(pred, index)
        if column is None or source is not container or a.env.get(index) is not index_value:
            continue
        if key == (base_name(key) if column < 0 else f"{base_name(key)}[:, {column}]"):
            return variable
    return None


def _cell_tests(body: tuple[ir.Stmt, ...], index: str, name: str) -> list[ir.Compare]:
    """The tests ``name == index`` (either way round) in a body."""
    return [n for n in ir.nodes(body) if isinstance(n, ir.Compare) and n.op == "=="
            and {name_of(n.left), name_of(n.right)} == {name, index}]


def name_of(e: ir.Expr) -> str | None:
    """A name, or a column ``m[:, j]`` of a name at a whole number j, as the key of what a
    partition's cells test (``m[:, 0] == i``)."""
    if isinstance(e, ir.Name):
        return e.id
    if isinstance(e, ir.Subscript) and isinstance(e.value, ir.Name) and len(e.index) == 2:
        rows, column = e.index
        if isinstance(rows, ir.Slice) and rows.lower is None and rows.upper is None \
                and rows.step is None and isinstance(column, ir.Const) \
                and type(column.value) is int:
            return f"{e.value.id}[:, {column.value}]"
    return None


def base_name(key: str) -> str:
    """The name a cell's key reads (m for ``m[:, 0]``)."""
    return key.split("[", 1)[0]


def _subscripted_names(body: tuple[ir.Stmt, ...]) -> set[str]:
    return {n.value.id for n in ir.nodes(body)
            if isinstance(n, ir.Subscript) and isinstance(n.value, ir.Name)}


def _row_subscripts(body: tuple[ir.Stmt, ...], index: str, name: str) -> list[ir.Subscript]:
    """The reads ``name[index, ...]`` in a body."""
    return [n for n in ir.nodes(body) if isinstance(n, ir.Subscript)
            and isinstance(n.value, ir.Name) and n.value.id == name
            and isinstance(n.index[0], ir.Name) and n.index[0].id == index]


def _count_name(body: tuple[ir.Stmt, ...], name: str) -> int:
    return sum(1 for n in ir.nodes(body) if isinstance(n, ir.Name) and n.id == name)


def _unroll_concretely(a: Analysis, s: ir.For, count: Value) -> bool:
    """Run a short loop with a known count iteration by iteration, exactly as written.

    Each iteration sees the values the previous one left (public counters keep
    their exact values, and a range index its exact value), and its spends are
    composed in sequence; False, with nothing done, when the count is not a
    known number up to CONCRETE_LIMIT or the loop iterates something else.
    """
    n = count.exact
    if not (count.public and n is not None and n.is_Integer and 0 <= int(n) <= CONCRETE_LIMIT):
        return False
    if a.shared.unrolling:
        return False  # nested unrolling would multiply: 64 x 64 x ... body analyses
    indices = _range_values(a, s, int(n))
    if indices is None:
        return False
    traced = len(a.shared.trace)
    a.shared.unrolling = True
    try:
        for index in indices:
            mark = len(a.shared.samples)
            body = _run_body(a, s, index, {}, E.ONE)  # (its calls counted below)
            a.ledger.items.extend(a.close_samples(body.ledger.items, mark))
            for name, value in body.env.items():
                if name in a.env or name in _assigned(s.body) | target_names(s.target, stores=True):
                    a.env[name] = value
    finally:
        a.shared.unrolling = False
    # One trace entry per distinct call, repeated as many times as iterations made it (a
    # call whose ε depends on the index is one entry per ε: each was n times).
    distinct: list[dict[str, object]] = []
    made: list[int] = []
    for entry in a.shared.trace[traced:]:
        if entry in distinct:
            made[distinct.index(entry)] += 1
        else:
            distinct.append(entry)
            made.append(1)
    for entry, times in zip(distinct, made):
        if times > 1:
            count = E.mul(times, a.shared.repetitions.get(id(entry), E.ONE))
            entry["repetitions"] = E.render(count)
            a.shared.repetitions[id(entry)] = count
    a.shared.trace[traced:] = distinct
    return True


def _summed_over_index(a: Analysis, s: ir.For, count: Value, carried: list[str],
                       types: dict[str, T.Type], element: Value, kept: dict[str, Value]) -> bool:
    """A range loop whose body reads its index, run once with the index a symbol i = a + b·j
    (j ≥ 0 a whole number): when every carried value only accumulates (new_u = u + Γ(j)),
    the loop adds Σ_{j<n} Γ(j), summed symbolically (R-loop-index). False, with nothing
    changed, when the body does anything else (privacy, assumptions, diagnostics,
    locals that keep j, a carried value that is not a sum)."""
    n = count.exact
    found = _range_start_step(a, s)
    if not (count.public and n is not None and found is not None):
        return False
    start, step = found
    if not (step.is_number and step.is_positive):
        return False
    j = sp.Dummy("j", integer=True, nonnegative=True)
    saved = _snapshot(a)
    pseudo = {name: a.fresh_variable("loop", types[name]) for name in carried}
    begin = {name: Value(types[name], C.single(pseudo[name]), zero_d=_carried_zero_d(a, name))
             for name in carried}
    body = _run_body(a, s, Value(T.INTEGER, exact=start + step * j), begin, n)
    final = _sums(a, s, body, saved, carried, types, pseudo, j, n)
    entry = _held_after(a, carried, a, {})  # (one run: an integer the body makes is not seen)
    if final is None or _held_after(a, carried, body, {}) != entry:
        _restore(a, saved)
        return False
    for name in carried:
        a.env[name] = _held_final(a, name, Value(types[name], final[name],
                                                 zero_d=_carried_zero_d(a, name, body)), body, {}, {})
    a.assign(s.target, element)
    for name, before in kept.items():
        a.env[name] = join(a.env[name], before)
    a.record_loop_aliases(s.target, s.iter)
    return True


def _sums(a: Analysis, s: ir.For, body: Analysis, saved: dict[str, object], carried: list[str],
          types: dict[str, T.Type], pseudo: dict[str, str], j: sp.Dummy, n: E.Expr
          ) -> dict[str, C.Context] | None:
    """Each carried value's context after the loop, or None when the body is not a sum."""
    unchanged = (body.ledger.items == [] and len(a.shared.trace) == saved["trace"]
                 and len(a.shared.samples) == saved["samples"] and a.poisoned == saved["poisoned"]
                 and len(a.assumptions) == saved["assumptions"]
                 and a.program.diagnostics.get(a.module.path, set()) == saved["diagnostics"])
    if not unchanged:
        return None
    pseudos = set(pseudo.values())
    locals_ = {}
    body_locals = _assigned(s.body) - set(carried) - target_names(s.target, stores=True)
    before: dict[str, Value] = saved["env"]  # type: ignore[assignment]
    if any(body.env.get(name) is not value for name, value in before.items()
           if name not in body_locals and name not in carried
           and name != getattr(s.target, "id", None)):
        return None  # something else changed (an array written by a call, a closure)
    for name in sorted(body_locals):
        local = body.env.get(name)
        if local is None or set(local.ctx) & pseudos or isinstance(local.type, T.Callable_) \
                or any(j in c.free_symbols for c in local.ctx.values()) \
                or j in _type_symbols(local.type):
            return None  # a body-local would keep the index or a carried value (a closure's
            # defaults or captures among them)
        # A public value the index decided (an inner loop's last index) is not known after.
        locals_[name] = local if j not in _symbols(local) else \
            Value(local.type, local.ctx, integral=local.integral)
    final: dict[str, C.Context] = {}
    for name in carried:
        value = body.env[name]
        own = value.ctx.get(pseudo[name], E.ZERO)
        if value.type != types[name] or own != E.ONE or set(value.ctx) & (pseudos - {pseudo[name]}):
            return None
        total = dict(saved["env"][name].ctx)  # type: ignore[index]
        for variable, coefficient in value.ctx.items():
            if variable == pseudo[name]:
                continue
            summed = _closed_sum(coefficient, j, n)
            if summed is None:
                return None
            total = C.add(total, {variable: summed})
        final[name] = total
    a.env.update(locals_)
    return final


def _closed_sum(term: E.Expr, j: sp.Dummy, count: E.Expr) -> E.Expr | None:
    """Σ_{j<count} term in closed form, or None when sympy leaves a sum, a case split or
    an undefined value."""
    # sympy sums |j + c| of a symbol c only by case splits, and recursed without end on
    # it (a RecursionError after 35 s): |a + b| ≤ |a| + |b| bounds the term from above,
    # and |j| = j on 0 ≤ j < count.
    term = term.replace(lambda e: isinstance(e, sp.Abs) and e.args[0].is_Add and e.has(j),
                        lambda e: sp.Add(*(sp.Abs(t) for t in e.args[0].args))).subs(sp.Abs(j), j)
    try:
        total = sp.summation(term, (j, 0, count - 1))
    except RecursionError:
        return None
    return None if total.has(sp.Sum, sp.Piecewise, sp.nan, sp.zoo) else total


def _symbols(value: Value) -> set[sp.Basic]:
    """The symbols a value's context and static knowledge mention."""
    found: set[sp.Basic] = set()
    for e in (*value.ctx.values(), value.exact, value.bound):
        if e is not None:
            found |= e.free_symbols
    return found


def _type_symbols(t: T.Type) -> set[sp.Basic]:
    """The symbols a type's sizes mention."""
    found: set[sp.Basic] = set()
    stack: list[object] = [t]
    while stack:
        item = stack.pop()
        if isinstance(item, sp.Basic):
            found |= item.free_symbols
        elif isinstance(item, (tuple, list)):
            stack.extend(item)
        elif isinstance(item, (T.Scalar, T.Vector, T.Matrix, T.TupleType, T.ListType)):
            stack.extend(getattr(item, f) for f in item.__dataclass_fields__)
    return found


def _snapshot(a: Analysis) -> dict[str, object]:
    """What a trial run of a body may change: restored by _restore if it is not kept."""
    from dataclasses import fields

    return {"env": dict(a.env), "assumptions": len(a.assumptions), "poisoned": a.poisoned,
            "trace": len(a.shared.trace), "samples": len(a.shared.samples),
            "diagnostics": set(a.program.diagnostics.get(a.module.path, set())),
            "shared": {f.name: _shallow(getattr(a.shared, f.name)) for f in fields(a.shared)}}


def _shallow(value: object) -> object:
    """A copy of a list, dict or set (their items are replaced, never changed, by the
    analysis); any other value as it is."""
    return copy.copy(value) if isinstance(value, (list, dict, set)) else value


def _restore(a: Analysis, saved: dict[str, object]) -> None:
    a.env = dict(saved["env"])  # type: ignore[call-overload]
    del a.assumptions[saved["assumptions"]:]
    a.program.diagnostics[a.module.path] = set(saved["diagnostics"])  # type: ignore[call-overload]
    for name, value in saved["shared"].items():  # type: ignore[attr-defined]
        setattr(a.shared, name, value)


def _range_values(a: Analysis, s: ir.For, n: int) -> list[Value] | None:
    """The exact index of each iteration of ``for i in range(...)`` (public bounds)."""
    found = _range_start_step(a, s)
    if found is None:
        return None
    start, step = found
    return [Value(T.INTEGER, exact=start + step * k) for k in range(n)]


def _range_start_step(a: Analysis, s: ir.For) -> tuple[E.Expr, E.Expr] | None:
    """The exact start and step of ``for i in range(...)``, when all its bounds are
    public and known."""
    it = s.iter
    if not (isinstance(it, ir.Call) and a.qualify(it.func) == "builtins.range"):
        return None
    bounds = [a.expr(arg) for arg in it.args]
    if not bounds or any(b.exact is None or not b.public for b in bounds):
        return None
    return (bounds[0].exact if len(bounds) >= 2 else E.ZERO,
            bounds[2].exact if len(bounds) == 3 else E.ONE)


def _rollback(a: Analysis, mark: tuple[int, int]) -> None:
    """Forget the mechanism calls and samples of a body run whose result is discarded."""
    del a.shared.trace[mark[0]:]
    del a.shared.samples[mark[1]:]


@E.remembered
def _range_count(start: E.Expr, stop: E.Expr, step: E.Expr) -> tuple[E.Expr, E.Expr | None]:
    """(the number of iterations of range(start, stop, step), an assumption it needs or
    None); range(10, 0, -3) counts down: 10, 7, 4, 1. Remembered: the same few ranges
    recur, and sympy's arithmetic and assumptions cost ~50 µs here."""
    direction = 1 if step.is_positive else -1
    span = direction * (stop - start)
    step_size = direction * step
    assumption = None
    if span.is_negative:
        span = E.ZERO
    elif not span.is_nonnegative:
        assumption = sp.Ge(span, 0)
    return (span if step_size == E.ONE else sp.ceiling(span / step_size)), assumption


_EXTREMES = {"builtins.max": "max", "builtins.min": "min", "numpy.maximum": "max",
             "numpy.minimum": "min"}
# Calls a running extreme's term may make: they neither spend, store nor read state.
_PLAIN_CALLS = frozenset({"builtins.abs", "builtins.float", "numpy.abs", "numpy.clip",
                          "numpy.square"})


def _running_extreme(a: Analysis, s: ir.For, count: Value, element: Value,
                     container: T.Type | None) -> bool:
    """R-loop-extreme: ``for e in X: best = max(best, E)`` (or min, np.maximum, or the
    conditional expression R-if-extreme reads as one) with E reading neither best nor
    anything the loop changes, over a public number of iterations, leaves
    max(best, E(e_0), ..., E(e_n−1)): it moves by at most the largest move of a term,
    and each element by at most the container's distance (as for R-fold-extreme).
    True when the environment was updated so."""
    if len(s.body) != 1 or not isinstance(s.target, ir.NameTarget) or not count.public \
            or not isinstance(element.type, T.Scalar):
        # (a row of a matrix is a view of it: the general rule keeps the two together)
        return False
    statement = s.body[0]
    if not (isinstance(statement, ir.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ir.NameTarget)):
        return False
    best, index = statement.targets[0].id, s.target.id
    found = extreme_of(a, statement.value, best)
    initial = a.env.get(best)
    if found is None or best == index or initial is None \
            or not isinstance(initial.type, T.Scalar) \
            or T.scalar_kind_of(initial.type) not in ("Real", "Integer"):
        return False
    kind, term = found
    if best in ir.names_read(term) or not plain(a, term):
        return False
    before = a.env.get(index)
    a.env[index] = element
    value = a.expr(term)
    if not isinstance(value.type, T.Scalar):  # the general rule takes it from here
        if before is None:
            del a.env[index]
        else:
            a.env[index] = before
        return False
    a.env[best] = a.apply_rule(f"builtins.{kind}", (initial, value), s.span) or \
        unknown(C.blow_up(C.add(initial.ctx, value.ctx)))
    # After the loop the target holds the last element, or what it held if none ran.
    runs = count.exact is not None and count.exact.is_positive is True
    a.env[index] = element if runs or before is None else join(before, element)
    return True


def extreme_of(a: Analysis, value: ir.Expr, best: str) -> tuple[str, ir.Expr] | None:
    """("max" or "min", the other operand) of max(best, E), min(E, best), ... or of
    ``E if E > best else best`` (R-if-extreme), else None (names qualified in ``a``'s
    scope). Also R-fold-extreme's test of a lambda's body."""
    operands: tuple[ir.Expr, ...] = ()
    kind = None
    if isinstance(value, ir.Call) and not value.keywords and len(value.args) == 2:
        kind, operands = _EXTREMES.get(a.qualify(value.func) or ""), value.args
    elif isinstance(value, ir.IfExp):
        kind, operands = choices.extreme(value.test, value.body, value.orelse), \
            (value.body, value.orelse)
    others = [o for o in operands if not (isinstance(o, ir.Name) and o.id == best)]
    if kind is None or len(operands) != 2 or len(others) != 1:
        return None
    return kind, others[0]


def plain(a: Analysis, e: ir.Expr) -> bool:
    """Names, numbers, arithmetic, indexing and a few stateless calls: evaluated once
    here, it is every iteration's term."""
    nodes = ir.nodes(e)
    functions = {id(n.func) for n in nodes if isinstance(n, ir.Call)}
    for node in nodes:
        if isinstance(node, ir.Call):
            if a.qualify(node.func) not in _PLAIN_CALLS:
                return False
        elif id(node) in functions:
            continue  # np.clip's ``np.clip``: the call was checked
        elif not isinstance(node, (ir.Name, ir.Const, ir.BinOp, ir.UnaryOp, ir.Subscript,
                                   ir.Slice, ir.Keyword)):
            return False
    return True


def _iteration(a: Analysis, s: ir.For) -> tuple[Value, Value, T.Type | None] | None:
    """(iteration count, value of the loop variable, the iterated container's type or
    None for a range), or None for an unsupported iterable."""
    it = s.iter
    if isinstance(it, ir.Call) and a.qualify(it.func) == "builtins.range" and not it.keywords:
        bounds = [a.expr(arg) for arg in it.args]
        step = bounds[2] if len(bounds) == 3 else Value(T.INTEGER, exact=E.ONE)
        if len(bounds) in (1, 2, 3) and step.exact is not None and step.exact.is_nonzero:
            start = bounds[0] if len(bounds) >= 2 else Value(T.INTEGER, exact=E.ZERO)
            stop = bounds[1] if len(bounds) >= 2 else bounds[0]
            ctx = C.total([start.ctx, stop.ctx, step.ctx])
            exact = None
            if start.exact is not None and stop.exact is not None:
                exact, assumption = _range_count(start.exact, stop.exact, step.exact)
                if assumption is not None:
                    a.assume(assumption)  # a negative count would make s^k wrong
            bound = most = None
            if start.magnitude() is not None and stop.magnitude() is not None:
                bound = E.smax(start.magnitude() or E.ZERO, stop.magnitude() or E.ZERO)
                # |stop − start| ≤ |start| + |stop| iterations, at any step of size ≥ 1.
                most = E.add(start.magnitude() or E.ZERO, stop.magnitude() or E.ZERO)
            count = Value(T.INTEGER, ctx, exact, bound=most if exact is None else None)
            return count, Value(T.INTEGER, C.blow_up(ctx), bound=bound), None
        if len(bounds) == 3:
            a.report(it.span, "DPS201", "the step of range() must be a known non-zero number "
                     "(its sign decides which way it counts): bind it, or step by 1")
            return None
    container = a.expr(it)
    if isinstance(container.type, T.Vector):
        entry = Value(T.Scalar(container.type.elem), container.ctx, integral=container.integral)
        return Value(T.INTEGER, exact=container.type.length), entry, container.type
    if isinstance(container.type, T.Matrix):
        t = container.type
        row = Value(T.Vector(t.norm, t.elem, t.cols, t.clip), container.ctx,
                    integral=container.integral)
        return Value(T.INTEGER, exact=t.rows), row, t
    if isinstance(container.type, T.ListType):
        # As many iterations as elements: a number the analysis does not know (D72).
        count = Value(T.INTEGER, list_length(container))
        return count, element_of(container, container.type.elem, container.ctx), container.type
    listed = list_type(container.type) if isinstance(container.type, T.TupleType) else None
    if listed is not None:  # a tuple or list display: its elements, in turn
        count = Value(T.INTEGER, exact=E.number(len(container.type.elts)))  # type: ignore[union-attr]
        return count, element_of(container, listed.elem, container.ctx), listed
    why = "only range(...), vectors, matrices and lists of numbers or arrays can be iterated"
    if isinstance(container.type, T.TupleType):
        why += f", not {container.type.show()} (write the calls out, one per element)"
    a.report(it.span if hasattr(it, "span") else s.span, "DPS201", why)
    return None


def _iterate(a: Analysis, s: ir.For, count: Value, transfer: dict[str, C.Context],
             initial: dict[str, C.Context], pseudo: dict[str, str]
             ) -> tuple[dict[str, C.Context], dict[str, C.Context]]:
    """Contexts after all iterations and after all but the last (by pseudo variable)."""
    names = sorted(transfer)
    ratio = {u: {v: transfer[u].get(pseudo[v], E.ZERO) for v in names} for u in names}
    rest = {u: {k: x for k, x in transfer[u].items() if k not in pseudo.values()} for u in names}
    n = count.exact
    if count.public and n is not None and n.is_Integer and int(n) <= UNROLL_LIMIT:
        return _unrolled(int(n), ratio, rest, initial, pseudo, a.shared.loop_states)
    ratio, added = _without_invariants(ratio, rest, initial)
    if count.public and n is not None:
        return _closed_form(n, ratio, added, initial, pseudo)
    if count.public and count.bound is not None:
        return _at_most(count.bound, ratio, added, initial, pseudo)
    return _unbounded(a, s, count, ratio, added, initial, pseudo)


def _step(state: dict[str, C.Context], ratio: dict[str, dict[str, E.Expr]],
          rest: dict[str, C.Context]) -> dict[str, C.Context]:
    return {
        u: C.add(C.total(C.scale(ratio[u][v], state[v]) for v in state), rest[u]) for u in state
    }


def _by_pseudo(state: dict[str, C.Context], pseudo: dict[str, str]) -> dict[str, C.Context]:
    return {pseudo[name]: ctx for name, ctx in state.items()}


def _unrolled(n, ratio, rest, initial, pseudo, states=None):  # type: ignore[no-untyped-def]
    state, previous = dict(initial), dict(initial)
    highest = dict(initial)
    for step in range(n):
        previous, state = state, _step(state, ratio, rest)
        if step < n - 1:  # the states seen at the start of an iteration
            highest = {u: C.join(highest[u], state[u]) for u in state}
    if states is not None:
        states.update(_by_pseudo(highest, pseudo))
    return state, _by_pseudo(previous, pseudo)


def _reach(ratio: dict[str, dict[str, E.Expr]]) -> dict[str, list[str]]:
    """Per carried variable, itself and every carried variable it depends on, transitively."""
    reach = {}
    for u in ratio:
        seen, todo = {u}, [u]
        while todo:
            for v, factor in ratio[todo.pop()].items():
                if v not in seen and not E.is_zero(factor):
                    seen.add(v)
                    todo.append(v)
        reach[u] = sorted(seen)
    return reach


def _without_invariants(ratio: dict[str, dict[str, E.Expr]], rest: Mapping[str, C.Context],
                        initial: dict[str, C.Context]
                        ) -> tuple[dict[str, dict[str, E.Expr]], dict[str, C.Context]]:
    """The transfer with each carried variable the body leaves as it was made a constant.

    When v's row is new_v = a·v with a ≤ 1 (nothing added, no other carried
    variable), every state of v is within initial_v, so w's term A[w][v]·v is
    at most A[w][v]·initial_v in every iteration: it moves to w's added part,
    and v couples with nothing (docs/rules.md R-loop, invariant variables). As
    part of a coupled subsystem v would instead add its column sum 1 + A[w][v]
    to the growth: s = x; for …: s = s + x was 2·2^k (truth k + 1).
    """
    invariant = [v for v in ratio
                 if C.is_public(rest[v]) and E.decide_le(ratio[v][v], E.ONE) is True
                 and all(E.is_zero(f) for w, f in ratio[v].items() if w != v)]
    added = dict(rest)
    if not invariant:
        return ratio, added
    ratio = {u: dict(row) for u, row in ratio.items()}
    for v in invariant:
        for u in ratio:
            if u != v and not E.is_zero(ratio[u][v]):
                added[u] = C.add(added[u], C.scale(ratio[u][v], initial[v]))
                ratio[u][v] = E.ZERO
    return ratio, added


def _subsystems(ratio, rest, initial):  # type: ignore[no-untyped-def]
    """Per carried variable: the factor its distance may grow by in one iteration, and
    its (start, added) contexts summed over what it depends on.

    A variable that depends on no other carried one grows by its own factor.
    Otherwise it is bounded with everything it depends on (a closed subsystem):
    the sum of their distances grows by the largest column sum of that part of
    the transfer matrix (its induced L1 norm), and each is at most that sum.
    """
    found = {}
    for u, group in _reach(ratio).items():
        growth = ratio[u][u] if group == [u] else E.ZERO
        if group != [u]:
            for v in group:
                column = E.ZERO
                for w in group:
                    column = E.add(column, ratio[w][v])
                growth = E.smax(growth, column)
        found[u] = (growth, C.total(initial[v] for v in group), C.total(rest[v] for v in group))
    return found


def _closed_form(n, ratio, rest, initial, pseudo):  # type: ignore[no-untyped-def]
    chained = _triangular(n, ratio, rest, initial)
    if chained is not None:
        final, last = chained
        return final, _by_pseudo(last, pseudo)
    bounds = _subsystems(ratio, rest, initial)
    final = {u: _geometric_state(n, *bounds[u]) for u in ratio}
    last = {u: _geometric_state(n - 1, *bounds[u]) for u in ratio}
    return final, _by_pseudo(last, pseudo)


def _triangular(n, ratio, rest, initial):  # type: ignore[no-untyped-def]
    """Exact closed forms when no two carried variables depend on each other (s = s + e;
    t = t + s): in an order where each reads only earlier ones,
    u_k = a^k·u_0 + Σ_{j<k} a^(k−1−j)·(Σ_v A[u][v]·v_j + rest_u), summed symbolically
    (the coupled bound of _subsystems is exponential there: 2·2^k for k(k + 1)/2).
    (final states, states before the last iteration), or None."""
    order: list[str] = []
    pending = set(ratio)
    while pending:
        ready = sorted(u for u in pending if all(
            v == u or v not in pending or E.is_zero(f) for v, f in ratio[u].items()))
        if not ready:
            return None  # a cycle through two or more variables
        order += ready
        pending -= set(ready)
    if all(all(E.is_zero(f) for v, f in ratio[u].items() if v != u) for u in ratio):
        return None  # nothing chained: the per-variable closed forms are already exact
    j = sp.Dummy("j", integer=True, nonnegative=True)
    k = sp.Dummy("k", integer=True, nonnegative=True)
    states: dict[str, C.Context] = {}  # u_k, with k free
    for u in order:
        a = ratio[u][u]
        step: C.Context = dict(rest[u])
        for v, f in ratio[u].items():
            if v != u and not E.is_zero(f):
                step = C.add(step, C.scale(f, {x: c.subs(k, j) for x, c in states[v].items()}))
        if E.is_zero(a):
            # u is overwritten each iteration (b = a): u_k is the last step alone, or u_0
            # for k = 0. sympy would take 0^(k−1−j) for 0 even at j = k − 1 (D82).
            states[u] = C.add(initial[u], {x: c.subs(j, k - 1) for x, c in step.items()})
            continue
        state = C.scale(E.power(a, k), initial[u])
        for x, c in step.items():
            total = _closed_sum(E.power(a, k - 1 - j) * c, j, k)
            if total is None:
                return None
            state = C.add(state, {x: sp.simplify(total)})
        states[u] = state
    final = {u: {x: E.substitute(c, {k: n}) for x, c in states[u].items()} for u in ratio}
    last = {u: {x: E.substitute(c, {k: n - 1}) for x, c in states[u].items()} for u in ratio}
    return final, last


def _at_most(most: E.Expr, ratio: dict[str, dict[str, E.Expr]], rest: dict[str, C.Context],
             initial: dict[str, C.Context], pseudo: dict[str, str]
             ) -> tuple[dict[str, C.Context], dict[str, C.Context]]:
    """A public count of at most ``most`` iterations (``range(i)`` inside ``for i in
    range(70)``): the closed form's start term s^k is largest at k = 0 or k = most, and
    its added term Σ_{j<k} s^j grows with k; every state is within both maxima."""
    final = {}
    for u, (growth, start, added) in _subsystems(ratio, rest, initial).items():
        final[u] = C.add(C.scale(E.smax(E.ONE, E.power(growth, most)), start),
                         C.scale(E.geometric(growth, most), added))
    return final, _by_pseudo(final, pseudo)


def _geometric_state(n: E.Expr, s: E.Expr, start: C.Context, added: C.Context) -> C.Context:
    return C.add(C.scale(E.power(s, n), start), C.scale(E.geometric(s, n), added))


def _unbounded(a, s, count, ratio, rest, initial, pseudo):  # type: ignore[no-untyped-def]
    """Unknown count: only a carried value that is at most 1-sensitive stays bounded."""
    taint = C.blow_up(count.ctx)
    a.unbounded_here(s.iter.span, taint, (), "a loop count that depends on inputs: one "
                     "more iteration may change everything the loop computes")
    final = {}
    for u, (growth, start, added) in _subsystems(ratio, rest, initial).items():
        verdict = E.decide_le(growth, E.ONE)
        if verdict is None:
            verdict = False if a.decide(sp.Le(growth, 1)) is False else None
        if verdict is None:
            a.assume(sp.Le(growth, 1))
        if verdict is False:
            a.report(s.span, "DPS207", f"the loop count is not static and '{u}' grows by a "
                     f"factor {E.render(growth)} per iteration")
            final[u] = C.add(C.blow_up(C.add(start, added)), taint)
            continue
        # Growth <= 1: the start contributes at most once, but whatever an
        # iteration adds accumulates an unknown number of times.
        final[u] = C.add(C.add(start, C.blow_up(added)), taint)
    return final, _by_pseudo(final, pseudo)


def _set_before_read(body: tuple[ir.Stmt, ...], name: str) -> bool:
    """Whether the body's top level assigns ``name`` before anything reads or changes it:
    then no value of it passes from one iteration to the next."""
    for statement in body:
        if isinstance(statement, ir.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.targets[0], ir.NameTarget) and statement.targets[0].id == name:
            return name not in ir.names_read(statement.value)
        if name in ir.names_read(statement) or name in _assigned((statement,)):
            return False
    return False


def _assigned(body: tuple[ir.Stmt, ...]) -> set[str]:
    """The names a body binds or stores into, nested blocks included."""
    names: set[str] = set()
    for statement in nested_statements(body):
        if isinstance(statement, ir.Assign):
            for target in statement.targets:
                names |= target_names(target, stores=True)
        elif isinstance(statement, ir.AugAssign):
            names |= target_names(statement.target, stores=True)
        elif isinstance(statement, ir.For):
            names |= target_names(statement.target, stores=True)
        elif isinstance(statement, ir.FunctionDef):
            names.add(statement.function.name)
        elif isinstance(statement, ir.UnsupportedStmt):
            names |= set(statement.assigned) | set(statement.reached)
    # An expression dpsens does not analyze may bind names too (``z = (c := f(x))``).
    names |= {name for node in ir.nodes(body) if isinstance(node, ir.Unsupported)
              for name in (*node.assigned, *node.reached)}
    return names | _grown_lists(body)


def _changed_in_place(body: tuple[ir.Stmt, ...]) -> set[str]:
    """The names a body may change the object of: the bases of its stores, the targets of
    its augmented assignments (in place for an array) and what unsupported statements
    reach. Rebinding a name (``s = s + x``) makes a new object: the names that shared
    the old one keep it, so their alias groups are not changed by it."""
    names: set[str] = set()
    for statement in nested_statements(body):
        if isinstance(statement, ir.Assign):
            for target in statement.targets:
                names |= _store_bases(target)
        elif isinstance(statement, ir.AugAssign):
            names |= target_names(statement.target, stores=True)
        elif isinstance(statement, ir.For):
            names |= _store_bases(statement.target)
        elif isinstance(statement, ir.UnsupportedStmt):
            names |= set(statement.reached)
    return names | _grown_lists(body)


def _grown_lists(body: tuple[ir.Stmt, ...]) -> set[str]:
    """The names of lists a body appends to (``out.append(v)``, ``out.extend(w)``)."""
    from dpsens.infer.calls import LIST_GROWERS

    return {n.func.value.id for n in ir.nodes(body) if isinstance(n, ir.Call)
            and isinstance(n.func, ir.Attribute) and n.func.attr in LIST_GROWERS
            and isinstance(n.func.value, ir.Name)}


def _store_bases(target: ir.Target) -> set[str]:
    """The names a target stores into (``x[i] = …``, ``x.a = …``), not those it binds."""
    if isinstance(target, ir.TupleTarget):
        return set().union(*(_store_bases(t) for t in target.elts))
    if isinstance(target, ir.StoreTarget) and target.base:
        return {target.base}
    return set()

