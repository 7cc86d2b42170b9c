"""Analyze one top-level function into a summary: what callers and reports use."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Sequence

from dpsens import ir
from dpsens import types as T
from dpsens.infer.annotations import Annotation
from dpsens.frontend import tuples
from dpsens.infer import components, dtypes, peaks, pieces, ranges, rowwise
from dpsens.infer.binding import conversion, substitute_type
from dpsens.infer.calls import captures_of
from dpsens.infer.pieces import Pieces
from dpsens.infer.values import Value
from dpsens.privacy.ledger import Charge
from dpsens.sym import context as C
from dpsens.sym import expr as E
from dpsens.sym import facts

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis
    from dpsens.infer.program import Program


@dataclass
class ParamSummary:
    """One parameter: its type and what the function costs in it."""

    name: str
    text: str
    type: T.Type
    static: bool
    has_default: bool
    sensitivity: E.Expr = E.ZERO
    # R-int-dtype: a Real parameter whose default may be an int was analyzed as possibly
    # held as an integer (whenever a caller leaves it out), which nothing passed decides.
    integral: bool = False
    callable_kind: str | None = None
    epsilon: E.Expr = E.ZERO
    delta: E.Expr = E.ZERO


@dataclass
class Summary:
    """The inferred signature of a function."""

    qualname: str
    name: str
    line: int
    kind: str  # sensitivity | privacy | black_box
    params: list[ParamSummary]
    ret_type: T.Type
    ret_text: str
    assumptions: list[str] = field(default_factory=list)
    ret_parts: list[C.Context] | None = None  # per component of a returned tuple
    # The parts of parameters the result, and each returned component, reads (R-parts).
    ret_pieces: Pieces | None = None
    part_pieces: list[Pieces | None] | None = None
    ret_interval: tuple[E.Expr, E.Expr] | None = None  # where a returned number lies (R-range)
    # R-captures: per sensitivity Callable parameter, how far the result moves per unit
    # of one call's move of what the passed function captures.
    captures: dict[str, E.Expr] = field(default_factory=dict)
    ret_zero_d: bool = False  # the returned number may be a 0-d numpy array (Value.zero_d)
    conditions: list[E.Expr] = field(default_factory=list)  # the assumptions, as relations
    defaults: dict[str, Value] = field(default_factory=dict)  # values of parameter defaults
    callable_types: dict[str, list[tuple[T.Type, ...]]] = field(default_factory=dict)
    histories: dict[str, tuple[object, ...]] = field(default_factory=dict)  # privacy, per parameter
    # Of a split tuple parameter (R-components), per component: a call passing a tuple of
    # its own values charges each component's history to that component's variables.
    part_histories: dict[str, Sequence[tuple[object, ...]]] = field(default_factory=dict)
    accounting: str = ""
    mechanisms: list[dict[str, str]] = field(default_factory=list)
    mutated: frozenset[str] = frozenset()  # parameters whose arrays the function may change
    # Every name the body mentions (a function never read is never called); computed only
    # when a parameter is a function.
    read: frozenset[str] = frozenset()
    reads_state: bool = False  # reads, itself or through a callee, a global functions change
    # R-observed: whether a run may raise or call code dpsens cannot see, and the
    # parameters what that shows depends on.
    observes: bool = False
    observed: frozenset[str] = frozenset()
    # R-kept: whether it runs code dpsens cannot see (which may return what earlier
    # unknown code was given), and the parameters it hands to such code.
    runs_unknown: bool = False
    escaped: frozenset[str] = frozenset()
    # R-int-dtype: the returned number (array, or an element of a tuple) may be held as an
    # integer; the body may build or write arrays, where a Real parameter's being a float
    # (as the contract says of callers outside) decides what it computes.
    ret_integral: bool = False
    ret_part_integrals: tuple[bool, ...] | None = None  # per part of a returned tuple
    builds_arrays: bool = False
    # Callable parameters called with a number that may be an integer where the function
    # passed may take a float, per argument position (the call site passes it so).
    int_callables: dict[str, tuple[bool, ...]] = field(default_factory=dict)


def resolve_params(program: Program, module: ir.Module, function: ir.Function
                   ) -> list[tuple[ir.Param, Annotation]]:
    """Each parameter with its resolved annotation (problems reported)."""
    out = []
    for param in function.params:
        if param.annotation is None:
            program.report(module, param.span, "DPS103",
                           f"parameter '{param.name}' has no annotation; treated as Real")
            out.append((param, Annotation(T.REAL, "Real")))
            continue
        out.append((param, _reported(program, module, param.annotation, param.name)))
    return out


def resolve_return(program: Program, module: ir.Module, function: ir.Function) -> Annotation | None:
    """The resolved return annotation, or None when there is none."""
    if function.returns is None:
        return None
    return _reported(program, module, function.returns, "return")


def _reported(program: Program, module: ir.Module, expr: ir.Expr, owner: str) -> Annotation:
    """An annotation resolved, its problems reported."""
    annotation = program.annotation(module, expr, owner)
    for span, code, message in annotation.problems:
        program.report(module, span, code, message)
    return annotation


def summarize(program: Program, module: ir.Module, function: ir.Function,
              bind: bool = True) -> Summary:
    """Run inference on a function body and collect the per-parameter results (with the
    configured bindings of its static values and dimensions unless ``bind`` is False)."""
    from dpsens.infer.engine import Analysis

    params = resolve_params(program, module, function)
    if bind:
        bindings = program.options.bindings_for(function.qualname,
                                                f"{module.name}.{function.qualname}")
        for param, annotation in params:
            value = bindings.get(param.name)
            if value is not None and T.integral_violated(annotation.type, E.number(value)):
                program.report(module, param.span, "DPS301", f"the binding {param.name}={value:g} "
                               f"is not a whole number, but '{param.name}' is {annotation.text}; "
                               "it is not used")
                bindings = {k: v for k, v in bindings.items() if k != param.name}
        params = _bind(params, bindings)
    returns = resolve_return(program, module, function)
    kind = _kind(program, module, params, returns)
    var_types = {p.name: a.type for p, a in params
                 if not (a.static or a.messages) and a.callable_kind is None}
    body, split = _components(function, var_types, kind)
    for name in split:
        del var_types[name]
    var_types.update(components.variables(split))
    if kind == "sensitivity":  # (R-captures: a privacy function charges them (∞, ∞))
        var_types.update({captures_of(p.name): T.REAL for p, a in params
                          if a.callable_kind == "sensitivity"})
    analysis = Analysis(program, module, function.qualname, var_types, privacy=kind in PRIVATE)
    analysis.function_span = function.span
    analysis.static_params = {p.name for p, a in params if a.static}
    analysis.shared.rebound = set(function.rebound)
    defaults = {p.name: Analysis(program, module, function.qualname, {}).expr(p.default)
                for p in function.params if p.default is not None}
    for param, annotation in params:
        if param.name in split:
            default = defaults.get(param.name)
            for i, t in enumerate(split[param.name]):
                name = tuples.component(param.name, i)
                part = default.parts[i] if default is not None and default.parts is not None \
                    and i < len(default.parts) else default  # (held as the whole may be)
                analysis.env[name] = _initial_value(name, replace(annotation, type=t),
                                                    default=part)
        else:
            analysis.env[param.name] = _initial_value(param.name, annotation,
                                                      captures_of(param.name) in var_types,
                                                      defaults.get(param.name))
    for name in function.unsupported_params:
        program.report(module, function.span, "DPS201", f"*{name} parameters are not analyzed")
        analysis.poisoned = True
    for decorator in function.decorators:
        program.report(module, decorator.span, "DPS201",
                       "decorated functions are not analyzed: the decorator may change them")
        analysis.poisoned = True
    if f"{module.name}.{function.qualname}" in program.rebound:
        program.report(module, function.span, "DPS206", f"'{function.name}' is rebound elsewhere "
                       "in the module: the module's function of that name may not be this body")
        analysis.poisoned = True
    summaries = [
        ParamSummary(p.name, a.text, a.type, a.static or a.messages or a.callable_kind is not None,
                     p.default is not None, callable_kind=a.callable_kind,
                     integral=p.name in analysis.env and analysis.env[p.name].integral is not None)
        for p, a in params
    ]
    summary = Summary(function.qualname, function.name, function.line or function.span.line, kind, summaries,
                      T.Opaque("BlackBox") if kind == "black_box" else T.Opaque("None"), "None",
                      defaults=defaults)
    if kind == "black_box":
        summary.ret_text = returns.text if returns else "None"
        for param in summaries:
            param.sensitivity = E.ZERO if param.static else E.INF
        _black_box_effects(analysis, function, summary)
        return summary
    body_result = analysis.run_body(body)
    result = body_result
    impossible = _impossible(program, module, function, analysis.assumptions)
    if not impossible:
        _for_small_inputs(program, module, function, analysis.assumptions)
    if analysis.poisoned or (impossible and kind not in PRIVATE):  # privacy: below
        result = result.with_ctx(C.add(result.ctx, C.blow_up(analysis.tracked())))
    result = _fit_return(program, module, function, result, returns)
    summary.ret_type, summary.ret_text = result.type, _type_text(result.type, returns)
    if isinstance(result.type, T.Scalar) and not analysis.poisoned:
        # The number returned (re-measuring keeps it); no later store can change it.
        summary.ret_interval = ranges.of(body_result)
    summary.ret_zero_d = body_result.zero_d
    # As the body returned it: a declared Real keeps an int returned an int (an Integer's
    # kind, converted, carries no mark of its own).
    summary.ret_integral = dtypes.possible(body_result) is not None
    summary.ret_part_integrals = dtypes.held_parts(body_result)
    functions = {p.name for p, a in params if a.callable_kind is not None}
    summary.builds_arrays = dtypes.builds_arrays(
        function.body, lambda func: analysis.qualify(func) in program.functions
        or isinstance(func, ir.Name) and func.id in functions)
    summary.int_callables = dict(analysis.shared.int_callables)
    if result.ctx == body_result.ctx:  # (not re-measured: what the body computed holds)
        names = [p.name for p in summaries if not p.static]
        summary.ret_pieces = _pieces(body_result, names, split)
        if body_result.parts is not None:
            # Per-component contexts let callers unpack a returned tuple precisely.
            summary.ret_parts = [components.collapsed(part.ctx, split)
                                 for part in body_result.parts]
            summary.part_pieces = [_pieces(part, names, split) for part in body_result.parts]
    # Assumptions that never hold leave every parameter unbounded, whatever a call passes.
    summary.conditions = [] if impossible else list(analysis.assumptions)
    summary.callable_types = dict(analysis.shared.callable_types)
    _record_effects(analysis, summary, split)
    if any(param.callable_kind is not None for param in summaries):
        # Only a call site binding a passed function asks (a full walk of every body: 4%).
        summary.read = frozenset(ir.names_read(function.body))
    summary.assumptions = sorted(E.render(c) for c in analysis.assumptions)
    returned = components.collapsed(result.ctx, split)
    for param in summaries:
        if not param.static:
            param.sensitivity = returned.get(param.name, E.ZERO)
        elif captures_of(param.name) in var_types:
            summary.captures[param.name] = E.INF if param.name in analysis.shared.passed_on \
                else _captures(returned, summary, captures_of(param.name))
    if kind in PRIVATE:
        analysis.library_noise = lambda: _library_noise(analysis, function)
        analysis.finish_privacy(summary, result, split)
        if impossible:
            summary.part_histories.clear()  # (callers pay the whole tuple's ∞ below)
            for entry in summaries:
                if not entry.static:
                    entry.epsilon, entry.delta = E.INF, E.INF
                    summary.histories[entry.name] = (Charge(E.INF, E.INF),)  # callers pay it too
    _explain_unbounded(program, module, analysis, summaries, kind in PRIVATE, split)
    return summary


def _components(function: ir.Function, var_types: dict[str, T.Type], kind: str
                ) -> tuple[tuple[ir.Stmt, ...], components.Split]:
    """The body to analyze, with the tuple parameters it reads by component split into
    one variable per component (R-components), and the components' types of each."""
    if kind not in ("sensitivity", *PRIVATE):
        return function.body, {}
    arities = components.candidates(var_types.items(), kind in PRIVATE)
    if not arities:
        return function.body, {}
    body, done = tuples.split_parameters(function.body, arities)
    return body, {name: t.elts for name, t in var_types.items()
                  if name in done and isinstance(t, T.TupleType)}


def _pieces(value: Value, names: list[str], split: components.Split) -> Pieces | None:
    """The parts of parameters a value reads: R-parts' own, and the split tuples'
    components."""
    found = pieces.of_params(value, names)
    whole = components.of_components(value.ctx, split)
    return {**(found or {}), **whole} if whole else found


def _captures(returned: C.Context, summary: Summary, variable: str) -> E.Expr:
    """The result's coefficient of a function argument's captures, or ∞ where the body
    also shows them, writes them or hands them on (R-captures covers only the result)."""
    if variable in summary.observed | summary.escaped | summary.mutated:
        return E.INF
    return returned.get(variable, E.ZERO)


def _record_effects(analysis: Analysis, summary: Summary, split: components.Split) -> None:
    """What the function does besides its result, for its callers: the arrays it writes
    into, whether it reads state others change, shows or hands over what it is given."""
    summary.mutated = components.owners(analysis.shared.mutated, split)
    summary.reads_state = analysis.shared.reads_state
    summary.observes = analysis.shared.observations > 0
    summary.observed = components.owners(analysis.observed_inputs(), split)
    summary.runs_unknown = analysis.shared.ran_unknown
    summary.escaped = components.owners(analysis.inputs_in(analysis.shared.escaped), split)


def _black_box_effects(analysis: Analysis, function: ir.Function, summary: Summary) -> None:
    """A black box's effects, from its body analyzed without a word (R-blackbox); a body
    the analysis cannot follow (exec, a crash) does everything."""
    from dpsens.infer.mutation import assigned_names, nested_statements

    analysis.shared.quiet = True
    imported = {  # (a module, not an object the body made: numpy too)
        name for statement in nested_statements(function.body)
        if isinstance(statement, ir.UnsupportedStmt) and statement.kind.startswith("import")
        for name in statement.assigned}
    analysis.shared.own = frozenset(
        assigned_names(function) - {p.name for p in function.params} - imported)
    try:
        analysis.run_body(function.body)
        followed = not analysis.poisoned  # (exec, a frame reader: it reaches any name)
    except Exception:  # noqa: BLE001 - unknown code may do anything it can
        followed = False
    params = frozenset(p.name for p in summary.params)
    if followed:
        _record_effects(analysis, summary, {})
        if any(p.has_default and p.name in summary.mutated for p in summary.params):
            # A default object it writes into lives on between calls: state it keeps.
            summary.runs_unknown, summary.escaped = True, params
        return
    summary.mutated, summary.escaped, summary.observed = params, params, params
    summary.reads_state = summary.observes = summary.runs_unknown = True


def _explain_unbounded(program: Program, module: ir.Module, analysis: Analysis,
                       summaries: list[ParamSummary], private: bool,
                       split: components.Split) -> None:
    """DPS311 notes: for each parameter reported unbounded, where values first became
    unbounded in it without a diagnostic saying why."""
    for param in summaries:
        unbounded = (E.is_inf(param.epsilon) or E.is_inf(param.delta)) if private \
            else E.is_inf(param.sensitivity)
        if param.static or not unbounded:
            continue
        variables = components.names(param.name, split)
        causes = dict.fromkeys(c for v in variables for c in analysis.shared.causes.get(v, ()))
        for span, why in causes:
            program.report(module, span, "DPS311", f"'{param.name}' is unbounded from here: {why}")


def _impossible(program: Program, module: ir.Module, function: ir.Function,
                assumptions: list[E.Expr]) -> bool:
    """DPS306 when the recorded assumptions can never hold together (D47).

    Each is decided under the signs the others give, whatever order they were
    recorded in: a bound derived under ``2*abs(s) <= s`` and ``s > 0`` bounds
    nothing, so the function is unbounded (∞, or (∞, ∞)) in every parameter.
    """
    broken = facts.violated(assumptions)
    if broken is None:
        return False
    condition, given = broken
    when = f" when {' and '.join(E.render(c) for c in given)}" if given else ""
    program.report(module, function.span, "DPS306", f"{function.name}() is only bounded when "
                   f"{E.render(condition)}, which never holds{when}: every parameter is unbounded")
    return True


def _for_small_inputs(program: Program, module: ir.Module, function: ir.Function,
                      assumptions: list[E.Expr]) -> None:
    """DPS410 for each assumption on sizes alone that holds for small inputs only (D153)."""
    for condition in assumptions:
        sizes = facts.false_at_large_sizes(condition)
        if sizes is not None:
            at = " and ".join(f"{E.render(s)} = {n}" for s, n in sizes.items())
            program.report(module, function.span, "DPS410", f"{function.name}()'s results "
                           f"hold only while {E.render(condition)}, which fails at {at} "
                           "and at every larger size tried: such inputs are not covered")


PRIVATE = ("privacy", "local_randomizer")


def _kind(program: Program, module: ir.Module, params: list[tuple[ir.Param, Annotation]],
          returns: Annotation | None) -> str:
    """sensitivity, privacy, local_randomizer, analyzer or black_box."""
    if returns is not None and (returns.priv or returns.local):
        return "local_randomizer" if returns.local else "privacy"
    if returns is not None and returns.black_box:
        return "black_box"
    if any(a.messages for _, a in params):
        for param, annotation in params:
            if not (annotation.static or annotation.messages or annotation.callable_kind):
                program.report(module, param.span, "DPS601", f"an analyzer may only read "
                               f"randomizer reports (Messages[...]) and static values; "
                               f"'{param.name}' is {annotation.text}")
        return "analyzer"
    return "sensitivity"


def _bind(params: list[tuple[ir.Param, Annotation]], bindings: dict[str, float]
          ) -> list[tuple[ir.Param, Annotation]]:
    """Configured values for static parameters (kept as .bound) and dimensions (in the types)."""
    if not bindings:
        return params
    out = []
    for param, annotation in params:
        annotation = replace(annotation, bound=bindings.get(param.name))
        mapping = {E.dimension(kind, param.name): E.number(bindings[f"{kind}({param.name})"])
                   for kind in ("rows", "cols", "len") if f"{kind}({param.name})" in bindings}
        if mapping:
            annotation = replace(annotation, type=substitute_type(annotation.type, mapping))
        out.append((param, annotation))
    return out


def _initial_value(name: str, annotation: Annotation, captures: bool = False,
                   default: Value | None = None) -> Value:
    if annotation.callable_kind is not None:
        # Passed on, the function carries what it captures (R-captures).
        return Value(T.Callable_(("parameter", name, annotation.callable_kind)),
                     C.single(captures_of(name)) if captures else C.EMPTY)
    if annotation.messages:
        return Value(annotation.type)  # reports are public: post-processing is free
    if annotation.static:
        if not isinstance(annotation.type, T.Scalar):
            return Value(annotation.type)  # a public array or other value
        exact = E.static_symbol(name) if annotation.bound is None else E.number(annotation.bound)
        # A Static[float] may be given an int (mypy takes one): held as one (R-int-dtype).
        held = C.EMPTY if annotation.type == T.REAL else None
        return Value(annotation.type, C.EMPTY, exact=exact, integral=held)
    value = Value(annotation.type, C.single(name),
                  rowwise=rowwise.of_parameter(name, annotation.type), input_of=name)
    return dtypes.marked(value, dtypes.defaulted(default))  # (`a: Real = 0`: R-int-dtype)


def _fit_return(program: Program, module: ir.Module, function: ir.Function, result: Value,
                returns: Annotation | None) -> Value:
    """Measure the result in the declared return metric (DPS104 when that costs)."""
    if returns is None or returns.priv or isinstance(returns.type, T.Opaque):
        return result
    declared = returns.type
    if isinstance(result.type, T.Opaque):
        return result
    factor = conversion(result.type, _with_dims(declared, result.type))
    if factor is None or factor != E.ONE:
        shown = "unbounded" if factor is None else E.render(factor)
        # Only a change of norm is what norm_convert does; a change of kind is not.
        arrays = all(isinstance(t, (T.Vector, T.Matrix)) for t in (result.type, declared))
        same_kind = T.scalar_kind_of(result.type) == T.scalar_kind_of(declared)
        hint = " (use norm_convert)" if arrays and same_kind else ""
        program.report(module, function.returns.span if function.returns else function.span,
                       "DPS104", f"returns {result.type.show()} but declares {returns.text}; "
                       f"the conversion costs a factor {shown}{hint}")
    typed = _with_dims(declared, result.type)
    if factor != E.ONE and T.scalar_kind_of(declared) != T.scalar_kind_of(result.type):
        # A declared kind the value does not have (`-> Bool` returning i * 5): callers must
        # not take its values to be 0 or 1; they get what the body returns (DPS104 above).
        typed = result.type
    ctx = peaks.remeasured(result, declared.norm) if factor == E.ONE and \
        isinstance(declared, T.Vector) else None
    return Value(typed, C.scale(E.INF if factor is None else factor, result.ctx)
                 if ctx is None else ctx)


def _with_dims(declared: T.Type, actual: T.Type) -> T.Type:
    """The declared metric with the inferred dimensions (a tuple's, component by component:
    the sizes of a declared return, len(return[1]), belong to no caller)."""
    if isinstance(declared, T.Vector) and isinstance(actual, T.Vector):
        return T.Vector(declared.norm, declared.elem, actual.length, declared.clip)
    if isinstance(declared, T.Matrix) and isinstance(actual, T.Matrix):
        return T.Matrix(declared.norm, declared.elem, actual.rows, actual.cols, declared.clip)
    if isinstance(declared, T.TupleType) and isinstance(actual, T.TupleType) \
            and len(declared.elts) == len(actual.elts):
        return T.TupleType(tuple(_with_dims(d, a) for d, a in zip(declared.elts, actual.elts)))
    return declared


def _type_text(t: T.Type, returns: Annotation | None) -> str:
    if returns is not None and returns.priv:
        return returns.text
    return t.show()


# Random draws of libraries: noise that is neither a dpsens mechanism nor accounted.
_LIBRARY_RANDOMNESS = ("numpy.random.", "random.", "scipy.stats.", "secrets.")


def _library_noise(analysis: Analysis, function: ir.Function) -> str | None:
    """The first library random draw the function calls (``np.random.laplace``), if any."""
    for node in ir.nodes(function.body):
        if isinstance(node, ir.Call):
            name = analysis.qualify(node.func)
            if name is not None and name.startswith(_LIBRARY_RANDOMNESS):
                return name
    return None
