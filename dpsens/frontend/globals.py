"""Which module-level names have one value: bound once, never rebound, never changed in place.

A module-level name is read as a public constant (R-lit) only if it has one
value for the whole run. This scan is syntactic and over-approximates: any
binding anywhere at module scope (``if``/``for``/``with`` bodies, tuple targets,
walrus, imports, ``del``), a ``global`` declaration in any function, and a
write through ``globals()``/``sys.modules`` count as rebinding; for a value
that may be mutable (anything but a literal number, string, None or a tuple of
them), any use that may write it or let it escape to code that may (a store
through it, a method that is not known to be pure, an argument of anything
but a pure builtin or a non-writing numpy function, a container, a default)
counts as a change. The same uses of names imported from other modules are
reported as writes into those modules' objects. See docs/rules.md, R-global.

This half reads CPython's tree only (the driver's import scan runs it without
LibCST or sympy); the LibCST use scan is in ``global_uses.py``.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass, field

from dpsens.aliasing import VIEW_RESULTS
from dpsens.frontend.syntax import searchable

# Methods that return a new value and change nothing (others may write, or are unknown).
PURE_METHODS = frozenset({
    "sum", "mean", "std", "var", "max", "min", "prod", "any", "all", "argmax", "argmin",
    "copy", "tolist", "item", "dot", "count", "index", "round", "cumsum", "nonzero",
    "startswith", "endswith", "format", "join", "split", "strip", "lower", "upper", "replace",
})
# Methods that may return the object itself (``astype(copy=False)``), besides VIEW_RESULTS.
SELF_METHODS = frozenset({"astype", "conj", "conjugate", "__array__"})
# Modules whose subscripted names are type aliases, and whose names no analyzed module owns.
TYPE_MODULES = frozenset({"dpsens", "typing", "typing_extensions"})
LIBRARIES = TYPE_MODULES | {"numpy", "__future__"}
# Modules the runtime's mechanisms are built on: replacing a function of one (the random
# source secrets.randbelow, a sampler of dpsens.runtime) changes every mechanism's noise.
RUNTIME_MODULES = frozenset({"dpsens", "secrets", "random", "math", "fractions", "decimal",
                             "numbers", "numpy", "builtins", "mpmath"})
# A function's own internals: code that writes them (a mechanism's __kwdefaults__["rng"],
# its __globals__) replaces what the function does, whichever function it names.
FUNCTION_INTERNALS = frozenset({"__kwdefaults__", "__defaults__", "__globals__", "__code__",
                                "__closure__"})
# Modules whose functions have stubs or rules, or that the mechanisms are built on.
_PATCHABLE = LIBRARIES | RUNTIME_MODULES
# Names through which code may write any module global by name.
DYNAMIC_NAMES = frozenset({"globals", "vars", "__import__", "importlib"})
# Names of code that may reach other modules by name (exec("from pkg import cfg; ..."),
# importlib.import_module("pkg.cfg"), sys.modules["pkg.cfg"]); importlib.metadata, a
# __dict__ of an object or vars() of the module itself do not.
MODULE_REACHING_NAMES = frozenset({"exec", "eval", "__import__", "import_module", "reload"})
MODULE_REACHING_ATTRIBUTES = frozenset({"import_module", "reload", "f_globals"})
# Attributes that reach modules by name (sys.modules, m.__dict__, a frame's globals).
DYNAMIC_ATTRIBUTES = frozenset({"modules", "__dict__", "f_globals"})
# A function's attributes that change what calling it does (f.__defaults__ = (100.0,)).
FUNCTION_STATE = frozenset({"__code__", "__defaults__", "__kwdefaults__", "__call__",
                            "__wrapped__", "__globals__"})


def reprogrammed_functions(text: str, syntax: ast.Module) -> set[str]:
    """Names whose function state a module stores into (``sd.__defaults__ = v``, also
    ``del``/augmented): calling them may run other code, with other defaults."""
    if not any(attribute in text for attribute in FUNCTION_STATE):
        return set()
    found = set()
    for node in ast.walk(syntax):
        if isinstance(node, ast.Attribute) and node.attr in FUNCTION_STATE \
                and isinstance(node.ctx, (ast.Store, ast.Del)) and isinstance(node.value, ast.Name):
            found.add(node.value.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("setattr", "delattr") and len(node.args) >= 2 \
                and isinstance(node.args[0], ast.Name) and isinstance(node.args[1], ast.Constant) \
                and node.args[1].value in FUNCTION_STATE:
            found.add(node.args[0].id)  # setattr(sd, "__defaults__", v)
    return found


# A write into anything of any module it names: what code reaching modules by name (exec,
# sys.modules, importlib) may change.
ANY_MODULE = "*"


def words(text: str) -> frozenset[str]:
    """The identifiers of a text, strings and comments included (module names it holds)."""
    return frozenset(re.findall(r"\w+", text))


@dataclass
class GlobalFacts:
    """Which module-level names have no single value, and which of them functions change."""

    rebound: set[str] = field(default_factory=set)  # names without a single value
    in_functions: set[str] = field(default_factory=set)  # those a function may change
    # Other modules' objects (qualified) this module may change, those it assigns or deletes
    # as attributes (``m.X = v``), and those a function may change.
    foreign: set[str] = field(default_factory=set)
    foreign_stored: set[str] = field(default_factory=set)
    foreign_in_functions: set[str] = field(default_factory=set)
    named: frozenset[str] = frozenset()  # with a write into ANY_MODULE: the text's words
    # Names bound once, to an immutable value (a literal, a tuple of them, a type alias):
    # another module's use of them cannot change them, only ``m.X = v`` rebinds them.
    values: set[str] = field(default_factory=set)
    patched: set[str] = field(default_factory=set)  # library functions it replaces (qualified)
    # Module-level names bound to a value holding other mutable globals (``B = (A, 1)``):
    # another module's change through B changes them too.
    held: dict[str, set[str]] = field(default_factory=dict)


def module_bindings(tree: ast.Module, text: str) -> tuple[Counter[str], set[str]]:
    """How often module scope binds each name (a def or class counts once, its body not at
    all), and the names any ``global`` statement declares.

    CPython's tree, already parsed for the syntax check: LibCST's visitors took 70% of
    the parse of benchmark A when this ran on them.
    """
    bound: Counter[str] = Counter()
    # `import pkg` and `import pkg.sub.helper` bind pkg to the one module pkg: one binding.
    packages: set[str] = set()
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound[node.name] += 1
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            # Their targets are their own; a walrus inside binds here.
            bound.update(n.target.id for n in ast.walk(node)
                         if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name))
            continue
        if isinstance(node, ast.AnnAssign) and node.value is None:
            continue  # `x: int` declares, it binds nothing
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound[node.id] += 1
        elif isinstance(node, ast.Import):
            bound.update(alias.asname for alias in node.names if alias.asname)
            packages.update(alias.name.split(".")[0] for alias in node.names if not alias.asname)
        elif isinstance(node, ast.ImportFrom):
            bound.update(alias.asname or alias.name for alias in node.names if alias.name != "*")
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            bound[node.name] += 1
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bound[node.rest] += 1
        stack.extend(ast.iter_child_nodes(node))
    bound.update(packages)
    declared: set[str] = set()
    if "global" in text:  # a declaration in any function, at any depth
        declared = {name for node in ast.walk(tree) if isinstance(node, ast.Global)
                    for name in node.names}
    return bound, declared


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)



def _qualified_chain(node: ast.expr, imports: dict[str, str], foreign: set[str]) -> str | None:
    """``cfg.ARR`` for an attribute chain over a name imported from another module."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in foreign:
        return ".".join((imports[node.id], *reversed(parts)))
    return None


def patched_library_names(syntax: ast.Module, text: str, imports: dict[str, str]) -> set[str]:
    """Library functions the module replaces or deletes (``np.sum = f``, ``del np.sum``,
    ``for np.sum in ...``, ``setattr(np, "sum", f)``, ``builtins.abs = g``), qualified:
    their stubs no longer describe them. ``setattr`` with a computed name replaces any of
    the library's functions: the library itself is listed (``numpy``)."""
    libraries = {name for name, qualified in imports.items()
                 if qualified.split(".")[0] in _PATCHABLE}
    if any(f"= {name}" in text or f"={name}" in text for name in libraries):
        # N = np makes N the library too (N.sum = f)
        alternation = "|".join(map(re.escape, libraries))
        aliases = dict(re.findall(rf"(?m)^[ \t]*(\w+)[ \t]*=[ \t]*({alternation})[ \t]*(?:#.*)?$",
                                  text))
        imports = {**imports, **{alias: imports[library] for alias, library in aliases.items()}}
        libraries |= set(aliases)
    found: set[str] = set()
    # Walking the tree is 2 ms per module; the text shows when no such store can be there.
    # No leading \b and no top-level alternation in the patterns: either keeps re from
    # searching for the names' first letters (3x slower); a name inside a longer one, or
    # a false alarm, only costs the walk.
    names = "|".join(map(re.escape, libraries))
    attribute = rf"({names})\s*(\\\n\s*)?\."  # np.sum, np . sum, np.\⏎sum
    # (a module imported whole: "import secrets" binds no name a value could escape from)
    modules = "|".join(re.escape(n) for n in libraries if "." not in imports[n]) or "(?!)"
    internals = any(name in text for name in FUNCTION_INTERNALS)
    if not libraries and not internals:
        return found
    if libraries and not internals and searchable(text) and not any(re.search(pattern, text) for pattern in (
            # an assignment: = or op= or an annotation after the attribute, across closing
            # brackets and commas ((np.sum) = f, np.sum, _ = f, 1) but not a call's "(":
            # a keyword argument (f(axis=0)) is not one
            rf"{attribute}[\w\s.)\],\\]*(?<![=!<>])(=(?!=)|[-+*/%@&|^]=|:)",
            rf"(del|for)\b[^:=\n]*\b{attribute}",  # del np.sum, for np.sum in ...
            rf"del\s*[(\[][^)\]]*\b{attribute}",  # del (⏎np.sum)
            rf"with\b[^\n]*\bas\s+[(\[]?\s*{attribute}",  # with ... as np.sum
            rf"(setattr|delattr)\s*\(\s*({names})\b",
            rf"vars\s*\(\s*({names})\s*\)",
            rf"({modules})\s*[,)\]]")) and "__dict__" not in text \
            and not (".__" in text and re.search(rf"({names})\s*\.\s*__\w+__", text)):
        return found  # (last: np.__setattr__(...), m.f.__kwdefaults__, where ".__" is)
    found |= _escaped_libraries(syntax, imports, libraries)
    for node in ast.walk(syntax):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor,
                               ast.comprehension)):
            targets = [node.target]
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            targets = [item.optional_vars for item in node.items if item.optional_vars]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("setattr", "delattr") and node.args:
            owner = _qualified_chain(node.args[0], imports, libraries)
            if owner is not None:
                key = node.args[1] if len(node.args) > 1 else None
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    found.add(f"{owner}.{key.value}")
                else:
                    found.add(owner)  # a computed name: any of the library's functions
            continue
        for target in targets:
            for part in ast.walk(target):  # a, np.sum = ...: every part of a tuple target
                if isinstance(part, ast.Attribute) and isinstance(part.ctx, (ast.Store, ast.Del)):
                    name = _qualified_chain(part, imports, libraries)
                    if name is not None:
                        found.add(name)
                elif isinstance(part, ast.Subscript) and isinstance(part.ctx, (ast.Store, ast.Del)):
                    owner = _namespace_of(part.value, imports, libraries)  # vars(np)["sum"] = f
                    if owner is not None:
                        key = part.slice
                        found.add(f"{owner}.{key.value}" if isinstance(key, ast.Constant)
                                  and isinstance(key.value, str) else owner)
    return found


def _escaped_libraries(syntax: ast.Module, imports: dict[str, str], libraries: set[str]) -> set[str]:
    """Libraries the module may change by routes other than a store to one of their names:
    a dunder of a library chain (``secrets.__setattr__(...)``, ``m.f.__dict__``), a
    module imported whole handed on as a value (``object.__setattr__(secrets, ...)``,
    ``[secrets]``, ``getattr(builtins, name)``), and any function's internals
    (``f.__kwdefaults__``, ``f.__globals__``: "dpsens", whose builtins such code may
    rewrite). Over-approximates."""
    found: set[str] = set()
    as_parts: set[int] = set()  # names that are the base of an attribute or a callee
    for node in ast.walk(syntax):
        if isinstance(node, ast.Attribute):
            as_parts.add(id(node.value))
            if node.attr in FUNCTION_INTERNALS:
                found.add("dpsens")
            elif node.attr.startswith("__") and node.attr.endswith("__"):
                owner = _qualified_chain(node.value, imports, libraries)
                if owner is not None:
                    found.add(owner)
        elif isinstance(node, ast.Call):
            as_parts.add(id(node.func))
    modules = {name for name in libraries if "." not in imports[name]}  # import secrets (as s)
    for node in ast.walk(syntax):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
                and node.id in modules and id(node) not in as_parts:
            found.add(imports[node.id])
    return found


def _namespace_of(node: ast.expr, imports: dict[str, str], libraries: set[str]) -> str | None:
    """The library whose namespace ``vars(np)`` or ``np.__dict__`` is."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars" \
            and len(node.args) == 1:
        return _qualified_chain(node.args[0], imports, libraries)
    if isinstance(node, ast.Attribute) and node.attr == "__dict__":
        return _qualified_chain(node.value, imports, libraries)
    return None


def _foreign_writes(syntax: ast.Module, imports: dict[str, str], foreign: set[str],
                    facts: GlobalFacts) -> bool:
    """Records stores and method calls into other modules' objects (``cfg.X = v``,
    ``ARR[0] = v``, ``cfg.ARR.fill(v)``); whether other uses of them need ``_Uses``."""
    needs_uses = False

    def record(name: str, inside: bool, stored: bool = False) -> None:
        facts.foreign.add(name)
        if stored:
            facts.foreign_stored.add(name)
        if inside:
            facts.foreign_in_functions.add(name)

    stack: list[tuple[ast.AST, bool]] = [(syntax, False)]
    while stack:
        parent, inside = stack.pop()
        for child in ast.iter_child_nodes(parent):
            stack.append((child, inside or isinstance(child, _SCOPES)))
            if isinstance(parent, ast.Attribute) or not isinstance(child, (ast.Name, ast.Attribute)):
                continue  # only the top of an attribute chain
            name = _qualified_chain(child, imports, foreign)
            if name is None:
                continue
            if isinstance(child.ctx, (ast.Store, ast.Del)):
                if isinstance(child, ast.Attribute) or isinstance(parent, ast.AugAssign):
                    record(name, inside, stored=isinstance(child, ast.Attribute))
            elif isinstance(parent, ast.Call) and parent.func is child:
                if isinstance(child, ast.Attribute) and child.attr not in PURE_METHODS:
                    if child.attr in VIEW_RESULTS or child.attr in SELF_METHODS:
                        needs_uses = True  # the result may be the object
                    else:
                        record(name.rsplit(".", 1)[0], inside)  # a method that may write
            elif isinstance(parent, ast.Subscript) and parent.value is child:
                if isinstance(parent.ctx, ast.Load):
                    needs_uses = True  # a slice is a view
                else:
                    record(name, inside)
            elif not (isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Expr, ast.arg,
                                          ast.FunctionDef, ast.AsyncFunctionDef))
                      or isinstance(parent, ast.AnnAssign) and parent.annotation is child):
                needs_uses = True  # an argument, an alias, a container, ...
    return needs_uses


def _calls_only(text: str, syntax: ast.Module, imports: dict[str, str], foreign: set[str],
                facts: GlobalFacts) -> bool:
    """_foreign_writes from the text, when every mention of an imported name is in a
    top-level import, a call of it (``f(x)``) or a method call on it (``m.f(x)``);
    False when some other mention needs the tree (the common case is 8x faster)."""
    if not searchable(text):
        return False  # a name may be written otherwise than Python reads it: the tree says
    import_lines = {line for statement in syntax.body if isinstance(statement, (ast.Import, ast.ImportFrom))
                    for line in range(statement.lineno, (statement.end_lineno or statement.lineno) + 1)}
    for name, method, call, start in mentions(foreign, text):
        if call is None:
            if method is not None or text.count("\n", 0, start) + 1 not in import_lines:
                return False
        elif method in VIEW_RESULTS or method in SELF_METHODS:
            return False  # the result may be the object
        elif method is not None and method not in PURE_METHODS:
            facts.foreign.add(imports[name])  # a method that may write (or m.f(x): ignored)
            facts.foreign_in_functions.add(imports[name])
    return True


def mentions(names: set[str], text: str) -> list[tuple[str, str | None, str | None, int]]:
    """Each mention of a name as a whole word, in the text's order: (the name, a method
    or attribute read from it, an opening parenthesis after them, where it starts); as
    ``re.finditer`` would find them, a mention inside the previous one's attribute read
    is not one. Found with str.find: a regular expression of the names is compiled
    again for every module's own names (benchmark A: 105 patterns, 20 ms)."""
    found = []
    for name in names:
        start = text.find(name)
        while start >= 0:
            end = start + len(name)
            if not (start and _word_character(text[start - 1])) \
                    and not (end < len(text) and _word_character(text[end])):
                after = _AFTER_NAME.match(text, end)
                assert after is not None  # every part of the pattern is optional
                found.append((start, after.end(), name, after.group(1), after.group(2)))
            start = text.find(name, start + 1)
    found.sort()
    kept, reached = [], 0
    for start, end, name, method, call in found:
        if start >= reached:
            kept.append((name, method, call, start))
            reached = end
    return kept


_AFTER_NAME = re.compile(r"(?:\s*\.\s*(\w+))?(\s*\()?")  # always matches (both parts optional)


def _word_character(character: str) -> bool:
    """What ``\\w`` matches in a str pattern."""
    return character.isalnum() or character == "_"


def foreign_facts(text: str, syntax: ast.Module, imports: dict[str, str], foreign: set[str],
                   facts: GlobalFacts) -> bool:
    """_foreign_writes, from the text when it can."""
    if not foreign:
        return False
    found = GlobalFacts()
    if _calls_only(text, syntax, imports, foreign, found):
        facts.foreign |= found.foreign
        facts.foreign_in_functions |= found.foreign_in_functions
        return False
    return _foreign_writes(syntax, imports, foreign, facts)


def function_import_writes(syntax: ast.Module, text: str, origin: str
                           ) -> tuple[set[str], set[str]]:
    """What the module's functions change through the names their own imports bind
    (local_import_writes, for each of them): (changed, assigned as attributes)."""
    from dpsens.frontend.syntax import function_imports

    changed: set[str] = set()
    stored: set[str] = set()
    for function, names in function_imports(syntax, text, origin):
        more, assigned = local_import_writes(function, names)
        changed |= more
        stored |= assigned
    return changed, stored


def local_import_writes(function: ast.FunctionDef | ast.AsyncFunctionDef,
                        names: dict[str, str]) -> tuple[set[str], set[str]]:
    """What a function changes through the names its own imports bind (``def f(): from
    pkg import cfg; cfg.X = v``): (changed, assigned as attributes); a use only the tree
    scan of a whole module could classify changes anything of what they name."""
    foreign = {name for name, qualified in names.items()
               if qualified.split(".")[0] not in LIBRARIES}
    found = GlobalFacts()
    if foreign and _foreign_writes(ast.Module(body=function.body, type_ignores=[]), names,
                                   foreign, found):
        found.foreign |= {f"{names[name]}.*" for name in foreign}
    return found.foreign, found.foreign_stored


def _reaches_modules_by_name(text: str, syntax: ast.Module) -> bool:
    """Whether the module uses exec, eval, importlib, sys.modules, a __dict__, ...
    (the text first: the walk costs ~2 ms a module)."""
    if searchable(text) and not any(name in text for name in (*MODULE_REACHING_NAMES,
                                                              "modules", "f_globals")):
        return False
    return any(isinstance(node, ast.Name) and node.id in MODULE_REACHING_NAMES
               or isinstance(node, ast.Attribute) and reaches_modules(node.attr, node.value)
               for node in ast.walk(syntax))


def reaches_modules(attribute: str, owner: object) -> bool:
    """Whether ``owner.attribute`` reaches modules by name (importlib.import_module,
    sys.modules, a frame's f_globals); ``owner`` an ast or LibCST node."""
    if attribute in MODULE_REACHING_ATTRIBUTES:
        return True
    name = getattr(owner, "id", None) or getattr(owner, "value", None)
    return attribute == "modules" and name == "sys"


def foreign_writes(text: str, syntax: ast.Module, imports: dict[str, str]) -> tuple[str, ...]:
    """The other modules' objects a module may change, from CPython's tree alone: with a
    use only ``_Uses`` could classify, anything in every module it imports from; with
    modules reached by name (exec, sys.modules, importlib), anything of any module."""
    if _reaches_modules_by_name(text, syntax):
        return (ANY_MODULE,)
    foreign = {name for name, qualified in imports.items()
               if qualified.split(".")[0] not in LIBRARIES}
    facts = GlobalFacts()
    if foreign_facts(text, syntax, imports, foreign, facts):
        return tuple(sorted({f"{imports[name]}.*" for name in foreign}))
    return tuple(sorted(facts.foreign))
