"""The LibCST half of the module-globals scan: uses that may change a module-level value.

``globals.py`` counts bindings and finds other modules' writes on CPython's tree
(the import scan needs no more, and no LibCST); the uses it cannot classify are
classified here, on the LibCST tree the analysis parses anyway. See docs/rules.md,
R-global.
"""

from __future__ import annotations

import ast
from collections import Counter

import libcst as cst

from dpsens.aliasing import VIEW_RESULTS
from dpsens.frontend.globals import (
    ANY_MODULE, DYNAMIC_ATTRIBUTES, DYNAMIC_NAMES, LIBRARIES, MODULE_REACHING_NAMES,
    PURE_METHODS, SELF_METHODS, TYPE_MODULES, GlobalFacts, foreign_facts,
    function_import_writes, module_bindings, patched_library_names, reaches_modules,
    reprogrammed_functions, words,
)
from dpsens.frontend.syntax import searchable

# Builtins that never write or keep their arguments.
_PURE_BUILTINS = frozenset({
    "len", "float", "int", "bool", "abs", "round", "str", "repr", "print", "isinstance",
    "range", "hash", "id", "type", "format",
})
# numpy functions that write into an argument.
_NUMPY_WRITERS = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal", "shuffle",
                            "put_along_axis", "at", "nan_to_num"})
# numpy functions known to return a new array, with the positional arity of their rule in
# stubs/numpy.pyi: a positional argument beyond it may be numpy's ``out`` (``np.abs(v, OUT)``).
_NUMPY_FRESH = {"sum": 2, "mean": 2, "clip": 3, "abs": 1, "absolute": 1, "max": 1, "min": 1,
                 "amax": 1, "amin": 1, "sort": 1, "cumsum": 1, "maximum": 2, "minimum": 2,
                 "sqrt": 1, "exp": 1, "log": 1, "zeros": 1, "ones": 1, "norm": 1}
# Keywords with which numpy may write or return an argument itself.
_IN_PLACE_KEYWORDS = frozenset({"copy", "overwrite_input", "overwrite_a", "overwrite_b"})


class _Binder(cst.CSTVisitor):
    """Counts the names one scope binds (nested scopes excluded, their own names included)."""

    def __init__(self) -> None:
        self.bound: Counter[str] = Counter()

    def target(self, node: cst.BaseExpression) -> None:
        if isinstance(node, cst.Name):
            self.bound[node.value] += 1
        elif isinstance(node, (cst.Tuple, cst.List)):
            for element in node.elements:
                self.target(element.value)
        elif isinstance(node, cst.StarredElement):
            self.target(node.value)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.bound[node.name.value] += 1
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.bound[node.name.value] += 1
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self.target(target.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self.target(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.target(node.target)

    def visit_For(self, node: cst.For) -> None:
        self.target(node.target)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self.target(node.asname.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.target(node.target)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            self.target(node.name.name)

    def visit_ExceptStarHandler(self, node: cst.ExceptStarHandler) -> None:
        if node.name is not None:
            self.target(node.name.name)

    def visit_Del(self, node: cst.Del) -> None:
        self.target(node.target)

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            name = alias.asname.name if alias.asname else alias.name
            while isinstance(name, cst.Attribute):  # import a.b binds a
                name = name.value
            self.target(name)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            self.target(alias.asname.name if alias.asname else alias.name)

    def visit_MatchAs(self, node: cst.MatchAs) -> None:
        if node.name is not None:
            self.target(node.name)

    def visit_MatchStar(self, node: cst.MatchStar) -> None:
        if node.name is not None:
            self.target(node.name)

    def visit_MatchMapping(self, node: cst.MatchMapping) -> None:
        if node.rest is not None:
            self.target(node.rest)


def _scope_locals(node: cst.FunctionDef | cst.Lambda) -> tuple[set[str], set[str]]:
    """The names a function binds locally, and those it declares ``global``."""
    binder = _Binder()
    params = node.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        binder.target(param.name)
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            binder.target(star.name)
    declared: set[str] = set()

    class _Globals(cst.CSTVisitor):
        def visit_FunctionDef(self, inner: cst.FunctionDef) -> bool:
            return False

        def visit_ClassDef(self, inner: cst.ClassDef) -> bool:
            return False

        def visit_Global(self, g: cst.Global) -> None:
            declared.update(item.name.value for item in g.names)

    node.body.visit(binder)
    node.body.visit(_Globals())
    return set(binder.bound) - declared, declared


def _immutable(node: cst.BaseExpression, imports: dict[str, str]) -> bool:
    """A literal number, string, bool or None, arithmetic on them, a tuple of them, or a
    type alias (a name from dpsens or typing subscripted: ``MetricVector[L_inf, Data]``)."""
    if isinstance(node, cst.Subscript):
        head = _dotted(node.value).split(".")[0]
        return imports.get(head, "").split(".")[0] in TYPE_MODULES
    if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString,
                         cst.ConcatenatedString)):
        return True
    if isinstance(node, cst.Name):
        return node.value in ("True", "False", "None")
    if isinstance(node, cst.UnaryOperation):
        return _immutable(node.expression, imports)
    if isinstance(node, cst.BinaryOperation):
        return _immutable(node.left, imports) and _immutable(node.right, imports)
    if isinstance(node, cst.Tuple):
        return all(isinstance(e, cst.Element) and _immutable(e.value, imports) for e in node.elements)
    return False


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr.value}" if head else ""
    return ""


class _Uses(cst.CSTVisitor):
    """Finds uses of mutable module-level values that may change them (see the module doc)."""

    def __init__(self, roots: set[str], imports: dict[str, str], foreign: set[str]) -> None:
        self.roots = roots  # the mutable module-level values
        self.imports = imports
        self.foreign = foreign  # names imported from other modules: their objects are qualified
        self.locals: dict[int, set[str]] = {}  # per function node
        self.stack: list[cst.CSTNode] = []
        self.scopes: list[tuple[cst.CSTNode, set[str]]] = []  # enclosing functions, locals
        self.aliases: dict[tuple[int, str], set[str]] = {}  # (function id, local) -> objects
        self.returners: dict[str, set[str]] = {}  # module function -> objects it may return
        self.held: dict[str, set[str]] = {}  # module-level name -> other objects it may hold
        self.changed: set[str] = set()
        self.changed_in_functions: set[str] = set()
        self.dynamic = False
        self.reaches_modules = False  # exec or eval: other modules may be reached by name
        self.named_dynamic: dict[str, bool] = {}  # globals()["X"]: X -> inside a function
        self.grew = True

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.stack.append(node)
        if isinstance(node, (cst.FunctionDef, cst.Lambda)):
            if id(node) not in self.locals:
                self.locals[id(node)] = _scope_locals(node)[0]
            self.scopes.append((node, self.locals[id(node)]))
        return super().on_visit(node)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        super().on_leave(original_node)
        if self.scopes and self.scopes[-1][0] is original_node:
            self.scopes.pop()
        self.stack.pop()

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in DYNAMIC_NAMES and self._is_load(node):
            self._dynamic_use()
        if node.value in MODULE_REACHING_NAMES and self._is_load(node):
            self.reaches_modules = True  # exec, eval, import_module: other modules by name
        index, objects = len(self.stack) - 1, self._objects(node)
        if not objects and node.value in self.foreign and self._is_load(node) \
                and not any(node.value in local for _, local in self.scopes):
            index, name = self._foreign_object(index)
            if self._used_whole(index):
                # The object is passed, aliased or held (poke(cfg), setattr(cfg, ...),
                # m = pkg.cfg): anything reachable from it may change.
                name += ".*"
            objects = {name}
        if objects and self._may_change(index, objects):
            self.changed |= objects
            if self.scopes:
                self.changed_in_functions |= objects

    def _foreign_object(self, index: int) -> tuple[int, str]:
        """An imported name and the attributes read from it (not a method called on it):
        ``cfg.ARR`` in ``cfg.ARR[0] = x``, qualified, with its position on the stack."""
        name = self.imports[self.stack[index].value]  # type: ignore[attr-defined]
        while index > 1:
            parent, above = self.stack[index - 1], self.stack[index - 2]
            if not isinstance(parent, cst.Attribute) or parent.value is not self.stack[index] \
                    or isinstance(above, cst.Call) and above.func is parent:
                break
            name, index = f"{name}.{parent.attr.value}", index - 1
        return index, name

    def _used_whole(self, index: int) -> bool:
        """Whether the value at stack[index] is used as a value: not read from (``.attr``,
        a method call, ``[i]``) and not stored into."""
        if index == 0:
            return False
        node, parent = self.stack[index], self.stack[index - 1]
        if isinstance(parent, (cst.Attribute, cst.Subscript)) and parent.value is node:
            return False
        return not (isinstance(parent, (cst.AssignTarget, cst.Del))
                    or isinstance(parent, (cst.AugAssign, cst.AnnAssign)) and parent.target is node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value in DYNAMIC_ATTRIBUTES:
            self._dynamic_use()
        if reaches_modules(node.attr.value, node.value):
            self.reaches_modules = True

    def _dynamic_use(self) -> None:
        """``globals()["X"] = v`` changes X; any other dynamic access may change any name."""
        parent = self.stack[-2] if len(self.stack) > 1 else None
        outer = self.stack[-3] if len(self.stack) > 2 else None
        if (isinstance(parent, cst.Call) and isinstance(outer, cst.Subscript) and len(outer.slice) == 1
                and isinstance(outer.slice[0].slice, cst.Index)
                and isinstance(outer.slice[0].slice.value, cst.SimpleString)):
            name = outer.slice[0].slice.value.evaluated_value
            self.named_dynamic[str(name)] = self.named_dynamic.get(str(name), False) or bool(self.scopes)
        else:
            self.dynamic = True

    def _objects(self, node: cst.Name) -> set[str]:
        """The module-level objects a loaded name may stand for (none when it is not a use)."""
        if not self._is_load(node):
            return set()
        for scope, local in reversed(self.scopes):
            if node.value in local:
                return set(self.aliases.get((id(scope), node.value), ()))
        if node.value in self.returners:
            return set(self.returners[node.value])  # its calls' results: see _may_change
        own = {node.value} if node.value in self.roots else set()
        return own | self.held.get(node.value, set())

    def _is_load(self, node: cst.Name) -> bool:
        parent = self.stack[-2] if len(self.stack) > 1 else None
        if isinstance(parent, cst.Attribute):
            return parent.value is node
        if isinstance(parent, (cst.Arg, cst.Param)):
            return parent.value is node if isinstance(parent, cst.Arg) else parent.default is node
        if isinstance(parent, (cst.FunctionDef, cst.ClassDef, cst.ImportAlias, cst.AsName,
                               cst.NameItem, cst.MatchAs, cst.MatchStar, cst.MatchMapping)):
            return False
        if isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.Del,
                               cst.NamedExpr, cst.CompFor)):
            # A bare name as a target is a binding (counted by _Binder), not a use.
            return getattr(parent, "target", None) is not node
        return True

    def _may_change(self, index: int, objects: set[str]) -> bool:
        """Whether the value at stack[index] may be written, or escape where it may be."""
        node = self.stack[index]
        if isinstance(node, cst.Name) and node.value in self.returners \
                and isinstance(self.stack[index - 1], cst.Call) and self.stack[index - 1].func is node:
            index -= 1  # a call of a function that may return the object: follow its result
            node = self.stack[index]
        while index > 0:
            parent = self.stack[index - 1]
            if isinstance(parent, (cst.Subscript, cst.Attribute)) and parent.value is node:
                above = self.stack[index - 2] if index > 1 else None
                if isinstance(parent, cst.Attribute) and isinstance(above, cst.Call) and above.func is parent:
                    method = parent.attr.value
                    if method in PURE_METHODS:
                        return False  # a new value
                    if method not in VIEW_RESULTS and method not in SELF_METHODS:
                        return True  # it may write; else its result may be the value itself
                    index, node = index - 2, above
                    continue
                index, node = index - 1, parent
                continue
            if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison,
                                   cst.ComparisonTarget, cst.Index, cst.Slice, cst.If, cst.While,
                                   cst.Assert, cst.Expr, cst.FormattedStringExpression,
                                   cst.Annotation, cst.Decorator)):
                return False  # a new value, a test, an index or an annotation
            if isinstance(parent, cst.Call):
                return False  # calling it writes nothing; the callee's body is scanned itself
            if isinstance(parent, (cst.BooleanOperation, cst.IfExp)):
                if isinstance(parent, cst.IfExp) and parent.test is node:
                    return False
                index, node = index - 1, parent  # the result may be the value itself
                continue
            if isinstance(parent, cst.Arg):
                return self._argument_may_change(index - 1, parent, objects)
            if isinstance(parent, (cst.Assign, cst.AnnAssign, cst.For)) and self.scopes \
                    and getattr(parent, "value", getattr(parent, "iter", None)) is node:
                return self._alias(parent, objects)
            if isinstance(parent, cst.Return) and self.scopes:
                function = self.scopes[-1][0]
                if isinstance(function, cst.FunctionDef) and len(self.scopes) == 1:
                    self._add(self.returners, function.name.value, objects)
                    return False
            if not self.scopes:
                self._hold(index, objects)
            return True  # a store target, a container, a default, a lambda's result, ...
        return False

    def _argument_may_change(self, index: int, arg: cst.Arg, objects: set[str]) -> bool:
        call = self.stack[index - 1]
        if not isinstance(call, cst.Call):
            return True  # a class's base or keyword: its metaclass and __init_subclass__ run
        if arg.star or (arg.keyword is not None and arg.keyword.value == "out"):
            return True
        callee = _dotted(call.func)
        head, _, rest = callee.partition(".")
        qualified = f"{self.imports[head]}.{rest}".rstrip(".") if head in self.imports else callee
        if not rest and callee in _PURE_BUILTINS and not any(callee in s for _, s in self.scopes):
            return False
        if qualified.startswith("numpy."):
            name = qualified.rsplit(".", 1)[1]
            if name in _NUMPY_WRITERS or qualified.startswith("numpy.ndarray.") or any(
                    a.keyword is not None and a.keyword.value in _IN_PLACE_KEYWORDS for a in call.args):
                return True  # it writes (np.ndarray.fill(A, x) is A.fill(x))
            if name in VIEW_RESULTS:
                return self._may_change(index - 1, objects)  # a view: follow the result
            position = next(i for i, a in enumerate(call.args) if a is arg)
            if arg.keyword is None and position >= _NUMPY_FRESH.get(name, 1):
                return True  # past the rule's arity: may be numpy's positional out
            if name in _NUMPY_FRESH:
                return False  # a new array
            return self._may_change(index - 1, objects)  # it may return it: follow the result
        return True  # an analyzed or unknown function may write or keep it

    def _alias(self, statement: cst.CSTNode, objects: set[str]) -> bool:
        """``v = value`` or ``for v in value`` in a function: v stands for the same objects."""
        if isinstance(statement, cst.Assign):
            targets = [t.target for t in statement.targets]
        else:
            targets = [statement.target]  # type: ignore[attr-defined]
        if not all(isinstance(t, cst.Name) for t in targets):
            return True
        scope = self.scopes[-1][0]
        for target in targets:
            self._add(self.aliases, (id(scope), target.value), objects)  # type: ignore[attr-defined]
        return False

    def _hold(self, index: int, objects: set[str]) -> None:
        """At module scope, ``B = A`` or ``B = (A, 1)``: B holds A, so that a change made
        through B (``B[0][0] = x`` in a function) is a change of A too."""
        while index > 0:
            parent = self.stack[index - 1]
            if isinstance(parent, (cst.Element, cst.StarredElement, cst.DictElement, cst.Tuple,
                                   cst.List, cst.Set, cst.Dict)):
                index -= 1
                continue
            if isinstance(parent, (cst.Assign, cst.AnnAssign)):
                targets = [t.target for t in parent.targets] if isinstance(parent, cst.Assign) \
                    else [parent.target]
                for target in targets:
                    if isinstance(target, cst.Name):
                        self._add(self.held, target.value, objects)
            return

    def _add(self, table: dict, key: object, objects: set[str]) -> None:  # type: ignore[type-arg]
        known = table.setdefault(key, set())
        if not objects <= known:
            known |= objects
            self.grew = True


def _single_values(tree: cst.Module, imports: dict[str, str]) -> set[str]:
    """Names a top-level def, class, import or ``NAME = v`` with an immutable v binds."""
    safe = set(imports) | _immutable_values(tree, imports)
    for statement in tree.body:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            safe.add(statement.name.value)
    return safe


def _immutable_values(tree: cst.Module, imports: dict[str, str]) -> set[str]:
    """Names a top-level ``NAME = v`` (or ``NAME: t = v``) with an immutable v binds."""
    safe: set[str] = set()
    for statement in tree.body:
        for small in statement.body if type(statement) is cst.SimpleStatementLine else ():
            if isinstance(small, (cst.Assign, cst.AnnAssign)):
                safe.update(name for name, value in named_values(small)
                            if _immutable(value, imports))
    return safe


def named_values(node: cst.Assign | cst.AnnAssign) -> list[tuple[str, cst.BaseExpression]]:
    """(name, value) pairs an assignment binds one to one: ``X = v``, or ``LO, HI = 0.0, 1.0``
    (Python evaluates every value first; a starred part or a second target pairs nothing)."""
    targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
    if node.value is None or len(targets) != 1:
        return []
    target, value = targets[0], node.value
    if isinstance(target, cst.Name):
        return [(target.value, value)]
    if not (isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List))
            and len(target.elements) == len(value.elements)
            and all(type(e) is cst.Element for e in (*target.elements, *value.elements))):
        return []
    return [(name.value.value, item.value) for name, item in zip(target.elements, value.elements)
            if isinstance(name.value, cst.Name)]


def scan(tree: cst.Module, syntax: ast.Module, text: str, imports: dict[str, str],
         origin: str = "") -> GlobalFacts:
    """The module-level names of ``tree`` that have no single value, and what it writes
    elsewhere (``origin``: the name relative imports count from, syntax.relative_origin)."""
    bound, declared = module_bindings(syntax, text)
    facts = GlobalFacts()
    changed, stored = function_import_writes(syntax, text, origin)  # def f(): import ...
    facts.foreign |= changed
    facts.foreign_in_functions |= changed
    facts.foreign_stored |= stored
    facts.patched = patched_library_names(syntax, text, imports)
    facts.rebound = {name for name, count in bound.items() if count > 1} | declared \
        | (reprogrammed_functions(text, syntax) & set(bound))
    facts.in_functions |= declared
    safe = _single_values(tree, imports)
    mutable = {name for name, count in bound.items() if count > 1 or name not in safe}
    facts.values = {name for name in _immutable_values(tree, imports) if bound[name] == 1} \
        - facts.rebound
    foreign = {name for name, qualified in imports.items()
               if qualified.split(".")[0] not in LIBRARIES}
    needs_uses = foreign_facts(text, syntax, imports, foreign, facts)
    if not mutable and not needs_uses \
            and searchable(text) \
            and not any(name in text for name in (*DYNAMIC_NAMES, *MODULE_REACHING_NAMES,
                                                  *DYNAMIC_ATTRIBUTES)):
        return facts  # nothing the use scan below could find
    # A name bound by imports alone (import pkg; import pkg.cfg) is the imported object.
    uses = _Uses(mutable - foreign, imports, foreign)
    while uses.grew:  # aliases and returned values found on one pass are followed on the next
        uses.grew = False
        tree.visit(uses)
    facts.rebound |= (uses.changed & mutable) | set(uses.named_dynamic)
    facts.in_functions |= uses.changed_in_functions & mutable
    facts.in_functions |= {name for name, inside in uses.named_dynamic.items() if inside}
    facts.held = {name: objects for name, objects in uses.held.items() if name in bound}
    facts.foreign |= uses.changed - mutable
    facts.foreign_in_functions |= uses.changed_in_functions - mutable
    if uses.dynamic:
        facts.rebound |= set(bound)
        facts.in_functions |= set(bound)
    if uses.reaches_modules:  # any other module it names may change
        facts.foreign.add(ANY_MODULE)
        facts.foreign_in_functions.add(ANY_MODULE)
        facts.named = words(text)
    facts.values -= facts.rebound
    return facts
