"""The set of analyzed modules: name resolution across modules and cached summaries."""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Callable

from dpsens import ir
from dpsens import types as T
from dpsens.diagnostics import Diagnostic, Span
from dpsens.frontend.globals import ANY_MODULE, FUNCTION_STATE
from dpsens.infer.annotations import Annotation, AnnotationResolver, written_key
from dpsens.infer.summary import ParamSummary, Summary, summarize
from dpsens.infer.values import Value
from dpsens.options import Options
from dpsens.sym import expr as E

if TYPE_CHECKING:
    from dpsens.infer.engine import Analysis
    from dpsens.rules.table import RuleTable

_CANONICAL_PREFIXES = ("dpsens.lang.", "dpsens.runtime.builtins.", "dpsens.runtime.mechanisms.",
                       "dpsens.runtime.")


def canonical(name: str) -> str:
    """``dpsens.lang.Real`` and ``dpsens.Real`` are one name; so are numpy aliases."""
    for prefix in _CANONICAL_PREFIXES:
        if name.startswith(prefix):
            return "dpsens." + name[len(prefix):]
    if name.startswith("numpy.core."):
        return "numpy." + name.split(".")[-1]
    return name


_BUILTIN_NAMES = frozenset(vars(builtins))


class Program:
    """Modules being checked, the rule table, and per-function summaries."""

    def __init__(self, modules: list[ir.Module], rules: RuleTable,
                 options: Options = Options()) -> None:
        self.options = options
        self.modules = {m.name: m for m in modules}
        self.rules = rules
        self.functions: dict[str, tuple[ir.Module, ir.Function]] = {
            f"{m.name}.{f.name}": (m, f) for m in modules for f in m.functions
        }
        # Module-level names without a single value (R-global), and those a function may change.
        # Names the stubs or the vocabulary describe keep their rules (dpsens's own
        # package re-exports them through import_module).
        # Other modules' writes count as the owner's (R-global: `cfg.SCALE = 100.0` in main.py).
        foreign = {m.name: self._foreign(m, m.foreign_changed) for m in modules}
        self.rebound_elsewhere = set().union(*foreign.values())  # cfg.abs = g in another module
        self.rebound = self._not_described(self._with_held(
            {f"{m.name}.{n}" for m in modules for n in m.rebound} | set().union(*foreign.values())))
        self.shared_state = self._not_described(self._with_held(
            {f"{m.name}.{n}" for m in modules for n in m.changed_in_functions}
            | {n for m in modules for n in self._foreign(m, m.foreign_in_functions)}))
        self.patched = frozenset().union(*(m.patched for m in modules))  # np.sum = f
        self.summaries: dict[str, Summary] = {}
        # Summaries without the configured bindings, for call sites of functions that have
        # some: a caller's arguments, not `--bind f.eps=...`, give the callee's values.
        self.call_summaries: dict[str, Summary] = {}
        self.active: list[str] = []
        self.inline_stack: list[object] = []
        self.fresh = 0  # counter for fresh context variables, shared by nested analyses
        self.diagnostics: dict[str, set[Diagnostic]] = {m.path: set() for m in modules}
        self._constants: dict[tuple[str, str], Value | None] = {}
        # Every call and annotation asks. Keyed by identity (two files may share a name);
        # the module is kept with the answer, so that its id is not reused meanwhile.
        self._qualified: dict[tuple[int, str], tuple[ir.Module, str]] = {}
        self._annotations: dict[tuple[str, object, str], Annotation] = {}

    def _foreign(self, module: ir.Module, dotted: frozenset[str]) -> set[str]:
        """The analyzed modules' names that ``module`` changes through these dotted names;
        ``cfg.*`` (the module object itself passed or held, or CPython's scan of a module
        without IR that could not tell which) is all of cfg's names."""
        found = set()
        for d in dotted:
            if ".__dict__" in d:  # cfg.__dict__["X"] = v: any name of cfg
                d = d.partition(".__dict__")[0] + ".*"
            owners = self._named_by(module) if d == ANY_MODULE else [
                m for name, m in self.modules.items()
                if name == d[:-2] or name.startswith(d[:-1])] if d.endswith(".*") else []
            for owner in owners:  # a package's modules are its attributes; a builtin may be
                found |= {f"{owner.name}.{n}" for n in (  # shadowed (setattr(cfg, "abs", f))
                    *owner.constants, *owner.rebound, *owner.values,
                    # (the vocabulary is read from the source, whatever a run rebinds)
                    *(n for n, q in owner.imports.items() if q.split(".")[0] != "dpsens"),
                    *(f.name for f in owner.functions), *_BUILTIN_NAMES)}
            if not owners and (name := self._owned(d, d in module.foreign_stored)) is not None:
                found.add(name)
        return found

    def _named_by(self, module: ir.Module) -> list[ir.Module]:
        """The other modules a module reaching modules by name may change: those whose
        name's last part its text holds (graph.ModuleGraph._named_in, which links them;
        dpsens's own package loads its vocabulary so, changing nothing). Its own names:
        R-global's dynamic access (globals, vars), or eval/exec's frame rule."""
        if module.name == "dpsens" or module.name.startswith("dpsens."):
            return []
        return [m for m in self.modules.values()
                if m is not module and m.name.rpartition(".")[2] in module.named]

    def _with_held(self, names: set[str]) -> set[str]:
        """The names, and the globals their values hold: a change through ``m.B`` changes
        ``m.A`` when m binds ``B = (A, 1)`` (held names are closed over aliases already)."""
        found = set(names)
        for qualified in names:
            owner, _, head = qualified.rpartition(".")
            module = self.modules.get(owner)
            if module is not None:
                found |= {h if "." in h else f"{owner}.{h}" for h in module.held.get(head, ())}
        return found

    def _owned(self, dotted: str, stored: bool, depth: int = 0) -> str | None:
        """``cfg.ARR`` for a write into ``cfg.ARR[0]`` or ``cfg.ARR.x`` (through re-exports);
        None outside the analyzed modules, for a module itself, for a def that is
        passed or called rather than assigned (a function's value cannot change in place),
        or for a name the owner binds once to an immutable value (``Row =
        MetricVector[L_inf, Data]``, ``SCALE = 3.0``) unless it is assigned as an attribute
        (``cfg.SCALE = v``): passing it, or a store into it, cannot change it."""
        parts = dotted.split(".")
        for i in range(len(parts) - 1, 0, -1):
            owner = self.modules.get(".".join(parts[:i]))
            if owner is None:
                continue
            head = parts[i]
            rebinds = stored and i == len(parts) - 1  # `cfg.X = v`, `del cfg.X`
            if head in owner.imports and depth < 10 and not rebinds:
                # a re-exported object: its owner's name (`cfg.np = v` rebinds cfg's own)
                return self._owned(".".join((owner.imports[head], *parts[i + 1:])), stored, depth + 1)
            name = f"{owner.name}.{head}"
            # A function's code or defaults can be replaced in place (f.__code__ = ...).
            reprogrammed = i + 1 < len(parts) and parts[i + 1] in FUNCTION_STATE
            if (name in self.functions or head in owner.values) and not rebinds \
                    and not reprogrammed:
                return None
            return name
        return None

    def _not_described(self, names: set[str]) -> set[str]:
        """The names without a stub rule or a vocabulary entry."""
        from dpsens.infer.annotations import VOCABULARY

        return {n for n in names if canonical(n) not in VOCABULARY and self.rules.get(canonical(n)) is None}

    def report(self, module: ir.Module, span: Span, code: str, message: str) -> None:
        """Record a diagnostic (duplicates from re-analysis collapse)."""
        self.diagnostics.setdefault(module.path, set()).add(
            Diagnostic.at(module.path, span, code, message))

    def report_unanalyzed(self, module: ir.Module) -> None:
        """DPS201 at each def outside the analyzable subset (a method, a def under a
        module-level ``if``/``try``/...) whose signature uses the dpsens vocabulary: it is
        meant to be checked, yet no analysis reaches it (SPEC §3: every function)."""
        for item in module.unanalyzed:
            if not any(self._names_vocabulary(module, a) for a in item.annotations):
                continue
            if item.where in ("method", "class"):
                what = "method" if item.where == "method" else "function"
                why = (f"{'methods of classes' if item.where == 'method' else 'functions inside a class'}"
                       " are outside the analyzable subset; define it as a module-level function")
            else:
                what, why = "function", (f"functions defined inside a module-level {item.where} "
                                         "are outside the analyzable subset; define it at the top "
                                         "level of the module")
            self.report(module, item.span, "DPS201",
                        f"{what} '{item.qualname}' is not analyzed: {why}")

    def _names_vocabulary(self, module: ir.Module, expr: object, depth: int = 0) -> bool:
        """Whether an annotation names something of dpsens: directly, through imports and
        re-exports, a module-level alias (``Row = MetricVector[L_inf, Data]``) or a string."""
        stack = [expr]
        while stack:
            item = stack.pop()
            dotted = ir.dotted_name(item) if isinstance(item, (ir.Name, ir.Attribute)) else None
            if dotted is not None:
                qualified = self.qualify(module, dotted) or ""
                if qualified == "dpsens" or qualified.startswith("dpsens."):
                    return True
                owner_name, _, name = qualified.rpartition(".")
                owner = self.modules.get(owner_name)
                if (owner is not None and name in owner.constants and depth < 10
                        and self._names_vocabulary(owner, owner.constants[name], depth + 1)):
                    return True
            elif isinstance(item, ir.Const) and isinstance(item.value, str) and depth < 10:
                from dpsens.frontend.strings import parsed_string

                parsed = parsed_string(item.value)
                if parsed is not None and self._names_vocabulary(module, parsed, depth + 1):
                    return True
            elif isinstance(item, (tuple, list)):
                stack.extend(item)
            elif hasattr(item, "__dataclass_fields__"):
                stack.extend(getattr(item, f) for f in item.__dataclass_fields__ if f != "span")
        return False

    # -- names -----------------------------------------------------------------
    def qualify(self, module: ir.Module, dotted: str) -> str | None:
        """The qualified name of a dotted module-scope name."""
        key = (id(module), dotted)
        if key not in self._qualified:
            self._qualified[key] = (module, self._qualify(module, dotted))
        return self._qualified[key][1]

    def _qualify(self, module: ir.Module, dotted: str, depth: int = 0) -> str:
        head, _, rest = dotted.partition(".")
        own = f"{module.name}.{head}"
        if self._bound_again(module, head, depth):
            base = own
        elif head in module.imports:
            base = module.imports[head]
        elif (any(f.name == head for f in module.functions) or head in module.constants
              or head in module.rebound):
            base = f"{module.name}.{head}"
        else:
            base = self._from_star(module, head, depth) or f"builtins.{head}"
        return self._reexported(canonical(f"{base}.{rest}" if rest else base), depth)

    def _reexported(self, qualified: str, depth: int) -> str:
        """The name an analyzed module's import stands for: ``pkg.vocab.Real`` is
        ``dpsens.Real`` when pkg/vocab.py says ``from dpsens import Real`` (re-exports of
        re-exports too). A name the module binds more than once keeps its own name."""
        parts = qualified.split(".")
        for i in range(len(parts) - 1, 0, -1):
            owner = self.modules.get(".".join(parts[:i]))
            if owner is None:
                continue
            head, rest = parts[i], ".".join(parts[i + 1:])
            if depth >= 10 or any(f.name == head for f in owner.functions) \
                    or head in owner.constants or self._bound_again(owner, head, depth):
                return qualified
            base = owner.imports[head] if head in owner.imports else \
                self._from_star(owner, head, depth + 1)
            if base is None:
                return qualified
            return self._reexported(canonical(f"{base}.{rest}" if rest else base), depth + 1)
        return qualified

    def _bound_again(self, module: ir.Module, head: str, depth: int) -> bool:
        """Whether a module-level name is bound more than once, so that no import of it
        gives its value: by the module (np = ..., def clip after importing it: review31
        U1), from elsewhere (cfg.np = v), or by a star import of an analyzed module that
        binds it to another object than the module's own import (review31 U2)."""
        if head in module.rebound or f"{module.name}.{head}" in self.rebound_elsewhere:
            return True
        if head not in module.imports or not module.star_imports:
            return False
        star = self._from_star(module, head, depth)
        return star is not None and self._reexported(star, depth + 1) \
            != self._reexported(canonical(module.imports[head]), depth + 1)

    def _from_star(self, module: ir.Module, head: str, depth: int = 0) -> str | None:
        """A name brought in by ``from m import *``, if m defines it (or imports it)."""
        from dpsens.infer.annotations import VOCABULARY

        for star in module.star_imports:
            candidate = canonical(f"{star}.{head}")
            owner = self.modules.get(star)
            if (candidate in VOCABULARY or self.rules.get(candidate) or candidate in self.functions
                    or (owner is not None and (head in owner.constants or (
                        head in owner.imports and not head.startswith("_")
                        and head not in owner.rebound)))):
                return candidate
            if owner is not None and depth < 10 and self._from_star(owner, head, depth + 1):
                return candidate  # ``from m import *`` where m itself star-imports it
        return None

    def qualify_expr(self, module: ir.Module, expr: ir.Expr) -> str | None:
        """qualify() for an expression that is a dotted name, else None."""
        dotted = ir.dotted_name(expr)
        return None if dotted is None else self.qualify(module, dotted)

    def constant(self, module: ir.Module, dotted: str) -> Value | None:
        """The value of a module-level constant (assigned once), local or imported."""
        qualified = self.qualify(module, dotted) or ""
        owner_name, _, name = qualified.rpartition(".")
        owner = self.modules.get(owner_name)
        if owner is None or name not in owner.constants:
            return None
        key = (owner_name, name)
        if key not in self._constants:
            from dpsens.infer.engine import Analysis

            self._constants[key] = None  # a constant defined through itself is unknown
            expr = owner.constants[name]
            alias = self.annotation_type(owner, expr, None, quiet=True) \
                if isinstance(expr, ir.Subscript) else None
            if alias is not None:  # Row = MetricVector[L_inf, Data]
                value = Value(T.TypeValue(alias))
            else:
                value = Analysis(self, owner, f"{owner_name}.<module>", {}).expr(expr)
            self._constants[key] = value
        return self._constants[key]

    def metric_type(self, module: ir.Module, dotted: str) -> T.Type | None:
        """A scalar metric type written as a value (``unbox(v, Real, ())``)."""
        return self.annotation_type(module, ir.Name(Span(0, 0, 0, 0), dotted), None, quiet=True)

    def annotation(self, module: ir.Module, expr: ir.Expr, owner: str) -> Annotation:
        """A parameter's (``owner``) or the return's annotation, resolved. The same few
        annotations are written on every function of a module: one without problems
        (which name their own positions) is resolved once per module and owner."""
        written = written_key(expr)
        key = (module.name, written, owner)
        known = self._annotations.get(key) if written is not None else None
        if known is not None:
            return known
        annotation = AnnotationResolver(lambda e: self.qualify_expr(module, e), owner,
                                        lambda e: self._aliased(module, e)).resolve(expr)
        if written is not None and not annotation.problems:
            self._annotations[key] = annotation
        return annotation

    def in_project(self, top: str) -> bool:
        """Whether a top-level name is one of the analyzed modules or packages (the user's
        code, not a library)."""
        return any(name == top or name.startswith(top + ".") for name in self.modules)

    def _aliased(self, module: ir.Module, expr: ir.Expr) -> ir.Expr | None:
        """The type expression a name of this module stands for when it is a module-level
        alias assigned once (``Row = MetricVector[L_inf, Data]``), else None. (An alias
        imported from another module would need that module's names: not followed.)"""
        if not isinstance(expr, ir.Name):
            return None
        qualified = self.qualify(module, expr.id) or ""
        owner_name, _, name = qualified.rpartition(".")
        value = module.constants.get(name) if owner_name == module.name else None
        return value if isinstance(value, (ir.Subscript, ir.Name, ir.Attribute)) else None

    def annotation_type(self, module: ir.Module, expr: ir.Expr,
                        report: Callable[[Span, str, str], None] | None,
                        quiet: bool = False) -> T.Type | None:
        """The metric type an annotation expression denotes (None if it is not one)."""
        resolver = AnnotationResolver(lambda e: self.qualify_expr(module, e), "value")
        metric, _ = resolver.metric(expr)
        if resolver.problems:
            if report is not None and not quiet:
                for span, code, message in resolver.problems:
                    report(span, code, message)
            return None
        return metric

    # -- summaries -------------------------------------------------------------
    def summary(self, qualname: str, span: Span, caller: Analysis) -> Summary:
        """The (cached) summary of an analyzed function, reported (no caller) or for a call
        site; recursion is DPS204."""
        module, function = self.functions[qualname]
        bind = caller is None or not self.options.bindings_for(
            function.qualname, f"{module.name}.{function.qualname}")
        cache = self.summaries if bind else self.call_summaries
        if qualname in cache:
            return cache[qualname]
        if qualname in self.active:
            caller.report(span, "DPS204", f"recursive call of '{function.name}'")
            return _unbounded_summary(qualname, function)
        self.active.append(qualname)
        try:
            result = summarize(self, module, function, bind)
        finally:
            self.active.pop()
        cache[qualname] = result
        return result

    def summarize_all(self) -> None:
        """Summaries of every top-level function, in source order."""
        for qualname, (module, function) in self.functions.items():
            if qualname not in self.summaries:
                self.active.append(qualname)
                try:
                    self.summaries[qualname] = summarize(self, module, function)
                finally:
                    self.active.pop()


def _unbounded_summary(qualname: str, function: ir.Function) -> Summary:
    params = [ParamSummary(p.name, "?", T.Opaque("unknown"), False, p.default is not None,
                           sensitivity=E.INF, epsilon=E.INF, delta=E.INF) for p in function.params]
    return Summary(qualname, function.name, function.line or function.span.line, "sensitivity", params,
                   T.Opaque("unknown"), "unknown")


__all__ = ["Program", "canonical"]
