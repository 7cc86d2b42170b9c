"""A hypothesis strategy for random, type-correct sensitivity functions (SPEC §4/§5).

`programs()` draws a module with a helper function `h0` and a main function
`f0` that may call it. Expressions are generated top-down from the type they
must have, so every program runs under numpy and is in the analyzable subset:
parameters Real, Integer, Data, MetricVector/MetricMatrix[L1/L2/L_inf, Real/
Integer/Data], Static[float], Static[int]; assignments, augmented assignments,
tuple unpacking, `if`/`else` and conditional expressions on static and on data
conditions, `for _ in range(k)` loops (carried values, growth above 1, a used
index), arithmetic with public factors, abs, indexing and slices, numpy sums,
means, norms and clips, the dpsens builtins (clip, norm_convert, count,
map_rows, fold, undisc_container), lambdas and calls of the helper.

Shapes: vector parameters all have length "n", matrix parameters "R" × "C".
Each vector type carries a length token (n, R, C, or a slice of one) and only
vectors with equal tokens are combined, so the sizes line up at run time.
All draws shrink towards the first option, i.e. towards smaller programs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, TypeVar

from hypothesis import strategies as st

Chosen = TypeVar("Chosen")

NORMS = ("L1", "L2", "L_inf")
SLICES = ("[0:2]", "[1:]", "[:k]")  # suffixes of slice tokens ("[:k]" only with a static k)


@dataclass(frozen=True)
class T:
    """A value's type: shape, element kind, norm, and length tokens."""

    shape: str  # scalar | vector | matrix
    kind: str  # Real | Integer | Data
    norm: str = "L1"
    length: str = ""  # vector: its length token; matrix: its rows token
    cols: str = ""  # matrix: its columns token

    def annotation(self) -> str:
        if self.shape == "tuple":
            return "tuple[Real, Real]"
        if self.shape == "scalar":
            return self.kind
        name = "MetricVector" if self.shape == "vector" else "MetricMatrix"
        return f"{name}[{self.norm}, {self.kind}]"


REAL = T("scalar", "Real")
PAIR = T("tuple", "Real")  # a helper may return two reals
INTEGER = T("scalar", "Integer")
DATA = T("scalar", "Data")


@dataclass
class Var:
    name: str
    type: T
    static: str | None = None  # "int" or "float" for a Static parameter
    fresh: bool = False  # a local array no parameter shares (may be changed in place)
    readonly: bool = False  # a loop element: read, never rebound


@dataclass
class Fn:
    """A callable the body may use: the helper or a lambda bound to a name."""

    name: str
    params: list[Var]
    returns: T


@dataclass
class Env:
    vars: list[Var] = field(default_factory=list)
    fns: list[Fn] = field(default_factory=list)
    loop_index: str | None = None  # a public Integer loop index in scope
    indexed: list[tuple[str, str]] = field(default_factory=list)  # (container, index) of range(len(c))

    def copy(self) -> Env:
        return Env(list(self.vars), list(self.fns), self.loop_index, list(self.indexed))

    def get(self, name: str) -> Var | None:
        for v in reversed(self.vars):
            if v.name == name:
                return v
        return None

    def bind(self, var: Var) -> None:
        self.vars = [v for v in self.vars if v.name != var.name] + [var]

    def sensitive(self) -> list[Var]:
        return [v for v in self.vars if v.static is None]

    def rebindable(self) -> list[Var]:
        return [v for v in self.vars if v.static is None and not v.readonly]

    def statics(self, kind: str | None = None) -> list[Var]:
        """Public numbers (Static parameters; not Callable ones)."""
        return [v for v in self.vars if v.static in ("int", "float") and (kind is None or v.static == kind)]

    def has_kind(self, kind: str) -> bool:
        return any(v.type.kind == kind for v in self.sensitive())

    def matrices(self) -> list[Var]:
        return [v for v in self.sensitive() if v.type.shape == "matrix"]

    def vectors(self) -> list[Var]:
        return [v for v in self.sensitive() if v.type.shape == "vector"]


def _fits(have: T, want: T) -> bool:
    """A value of type have may stand where want is expected (same shape tokens, compatible kind)."""
    if have.shape != want.shape or have.length != want.length or have.cols != want.cols:
        return False
    if want.kind == "Real":
        return have.kind in ("Real", "Integer")
    return have.kind == want.kind


class Gen:
    """The program generator: every choice is a hypothesis draw (shrinks towards option 0)."""

    MAX_DEPTH = 3

    def __init__(self, draw: Callable[[st.SearchStrategy[Any]], Any]) -> None:
        self.draw = draw
        self.counter = 0

    # ------------------------------------------------------------------ choices

    def index(self, n: int) -> int:
        return self.draw(st.integers(0, n - 1))

    def pick(self, options: list[Any]) -> Any:
        return options[self.index(len(options))]

    def flip(self, percent: int) -> bool:
        return self.draw(st.integers(0, 99)) >= 100 - percent

    def choose(self, options: list[tuple[int, Callable[[], Chosen]]]) -> Chosen:
        """One of the weighted alternatives (weight 0 = unavailable), then run it."""
        live = [(w, f) for w, f in options if w > 0]
        total = sum(w for w, _ in live)
        point = self.draw(st.integers(0, total - 1))
        for weight, make in live:
            if point < weight:
                return make()
            point -= weight
        raise AssertionError("unreachable")

    def fresh_name(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    # ------------------------------------------------------------------ public values

    def public(self, env: Env, nonzero: bool = False) -> str:
        """A public number: a literal, a static, a dimension."""
        literals = ["2.0", "0.5", "3", "-1.5", "0.25", "-1", "10.0"] + ([] if nonzero else ["0.0"])
        options: list[tuple[int, Callable[[], str]]] = [(6, lambda: self.pick(literals))]
        statics = env.statics()
        options.append((3 if statics else 0, lambda: self.pick(statics).name))
        dims = self.dimensions(env)
        options.append((1 if dims else 0, lambda: self.pick(dims)))
        if env.loop_index and not nonzero:
            options.append((1, lambda: env.loop_index or "0"))
        options.append((1, lambda: self.compound(env)))
        return self.choose(options)

    def compound(self, env: Env) -> str:
        """Public arithmetic: statics and literals combined (rounding, R-float-static)."""
        simple = ["0.1", "0.2", "1.0", "3", "1e16"] + [v.name for v in env.statics()] + self.dimensions(env)
        a, b = self.pick(simple), self.pick(simple)
        return self.pick([f"({a} + {b})", f"({a} - {b})", f"({a} * {b})", f"({a} / {b})",
                          f"np.sqrt(abs({a}))", f"(({a} + {b}) - {a})"])

    def dimensions(self, env: Env) -> list[str]:
        out = [f"len({v.name})" for v in env.vectors() if v.type.length == "n"]
        out += [f"{v.name}.shape[0]" for v in env.vectors() if v.type.length not in ("n", "R", "C")][:2]
        out += [f"len({v.name})" for v in env.vectors() if v.type.length.startswith("?")][-2:]
        for m in env.matrices():
            if m.type.length == "R":
                out += [f"rows({m.name})", f"cols({m.name})"]
        return out

    def public_int(self, env: Env) -> str:
        options: list[tuple[int, Callable[[], str]]] = [(4, lambda: self.pick(["1", "2", "3", "0"]))]
        ints = env.statics("int")
        options.append((2 if ints else 0, lambda: self.pick(ints).name))
        return self.choose(options)

    def bounds(self) -> tuple[str, str]:
        return self.pick([("0.0", "1.0"), ("-1.0", "1.0"), ("-2.5", "0.5"), ("0.0", "10.0")])

    # ------------------------------------------------------------------ tokens

    def tokens(self, env: Env) -> list[str]:
        """Vector length tokens that can be produced in this environment."""
        out = sorted({v.type.length for v in env.vectors()})
        if env.matrices():
            out += [t for t in ("R", "C") if t not in out]
        return out

    def base_token(self, env: Env) -> str | None:
        toks = [t for t in self.tokens(env) if "[" not in t and not t.startswith("?")]
        return self.pick(toks) if toks else None

    def vector_type(self, env: Env, kind: str = "Real", sliced: bool = True,
                    static_slice: bool = True) -> T | None:
        tok = self.base_token(env)
        if tok is None:
            return None
        if sliced and self.flip(15):
            suffix = self.pick([s for s in SLICES if s != "[:k]" or (static_slice and env.statics("int"))])
            tok = tok + suffix
        return T("vector", kind, self.pick(list(NORMS)), tok)

    def matrix_type(self, env: Env, kind: str = "Real") -> T | None:
        ms = env.matrices()
        if not ms:
            return None
        base = self.pick(ms).type
        return T("matrix", kind, self.pick(list(NORMS)), base.length, base.cols)

    # ------------------------------------------------------------------ conditions

    def condition(self, env: Env, depth: int) -> str:
        d = max(depth - 1, 0)
        options: list[tuple[int, Callable[[], str]]] = []
        statics = env.statics()
        dims = self.dimensions(env)
        if statics:
            options.append((4, lambda: f"{self.pick(statics).name} {self.pick(['>', '<', '>=', '=='])} "
                                       f"{self.pick(['1', '2', '2.0', '0', '3'])}"))
        if dims:
            options.append((2, lambda: f"{self.pick(dims)} > {self.pick(['1', '2', '3'])}"))
        options.append((1 if not statics and not dims else 0, lambda: self.pick(["True", "False"])))
        if env.has_kind("Data"):
            options.append((3, lambda: f"{self.scalar(env, 'Data', d)} > {self.pick(['0.5', '0.0'])}"))
        options.append((2, lambda: f"{self.scalar(env, 'Integer', d)} > {self.pick(['0', '1', '2'])}"))
        options.append((2, lambda: f"{self.scalar(env, 'Real', d)} > {self.pick(['0.0', '1.0'])}"))
        return self.choose(options)

    # ------------------------------------------------------------------ calls

    def call(self, env: Env, fn: Fn, depth: int) -> str:
        args = []
        for p in fn.params:
            if p.static == "fn":  # a Callable parameter: a lambda over the caller's variables
                inner = env.copy()
                q = Var(self.fresh_name("q"), REAL)
                inner.bind(q)
                args.append(f"lambda {q.name}: {self.scalar(inner, 'Real', 2)}")
            elif p.static == "int":
                args.append(self.public_int(env))
            elif p.static == "float":
                args.append(self.public(env))
            else:
                args.append(self.expr(env, p.type, depth - 1))
        return f"{fn.name}({', '.join(args)})"

    def calls_for(self, env: Env, want: T, depth: int) -> list[tuple[int, Callable[[], str]]]:
        out: list[tuple[int, Callable[[], str]]] = []
        for fn in env.fns:
            if _fits(fn.returns, want) and self._callable(env, fn):
                out.append((3, lambda fn=fn: self.call(env, fn, depth)))  # type: ignore[misc]
            if fn.returns == PAIR and want.shape == "scalar" and want.kind == "Real" and self._callable(env, fn):
                out.append((2, lambda fn=fn: f"{self.call(env, fn, depth)}[{self.pick(['0', '1'])}]"))  # type: ignore[misc]
        return out

    def _callable(self, env: Env, fn: Fn) -> bool:
        """Every argument type can be produced here (shape tokens exist)."""
        toks = self.tokens(env)
        for p in fn.params:
            t = p.type
            if t.shape == "vector" and t.length.split("[")[0] not in toks:
                return False
            if t.shape == "matrix" and not any(m.type.length == t.length and m.type.cols == t.cols
                                                 for m in env.matrices()):
                return False
            if t.kind == "Data" and t.shape == "scalar" and not self._data_scalar_source(env):
                return False
            if t.kind == "Data" and t.shape != "scalar" and not any(
                    v.type.kind == "Data" and v.type.shape == t.shape for v in env.sensitive()):
                return False
        return True

    def _data_scalar_source(self, env: Env) -> bool:
        return env.has_kind("Data")

    # ------------------------------------------------------------------ expressions

    def expr(self, env: Env, want: T, depth: int) -> str:
        if want.shape == "tuple":
            return f"{self.scalar(env, 'Real', depth)}, {self.scalar(env, 'Real', depth)}"
        if want.shape == "scalar":
            return self.scalar(env, want.kind, depth)
        if want.shape == "vector":
            return self.vector(env, want, depth)
        return self.matrix(env, want, depth)

    def variables(self, env: Env, want: T) -> list[Var]:
        """Sensitive variables of a type, most recently bound first (so results use the body)."""
        return [v for v in reversed(env.sensitive()) if _fits(v.type, want)]

    def scalar(self, env: Env, kind: str, depth: int) -> str:
        want = T("scalar", kind)
        d = depth - 1
        vs = self.variables(env, want)
        opts: list[tuple[int, Callable[[], str]]] = []
        opts.append((8 if vs else 0, lambda: self.pick(vs).name))
        if kind == "Real":
            opts.append((3, lambda: self.public(env)))
        elif kind == "Integer":
            opts.append((3, lambda: self.public_int(env)))
        # sources of Data scalars
        data_vecs = [v for v in env.vectors() if v.type.kind == kind]
        data_mats = [m for m in env.matrices() if m.type.kind == kind]
        if kind == "Data" and not vs and not data_vecs and not data_mats:
            raise AssertionError("no Data in scope")  # callers check has_kind("Data")
        if depth <= 0:
            if kind == "Data" and not vs:
                if data_vecs:
                    return f"{self.pick(data_vecs).name}[0]"
                return f"{self.pick(data_mats).name}[0, 0]"
            return self.choose(opts)
        if kind != "Data" or vs:
            opts += [
                (3, lambda: f"({self.scalar(env, kind, d)} {self.pick(['+', '-'])} {self.scalar(env, kind, d)})"),
                (1, lambda: f"(-{self.scalar(env, kind, d)})"),
                (1, lambda: f"abs({self.scalar(env, kind, d)})"),
            ]
        if kind == "Real":
            opts += [
                (3, lambda: f"({self.public(env)} * {self.scalar(env, kind, d)})"),
                (1, lambda: f"({self.scalar(env, kind, d)} * {self.public(env)})"),
                (2, lambda: f"({self.scalar(env, kind, d)} / {self.public(env, nonzero=True)})"),
                (1, lambda: "np.clip({}, {}, {})".format(self.scalar(env, kind, d), *self.bounds())),
                (1, lambda: f"{self.pick(['max', 'min'])}({self.scalar(env, kind, d)}, {self.scalar(env, kind, d)})"),
                (1, lambda: self.scalar(env, "Integer", d)),
            ]
            if env.has_kind("Data"):
                opts.append((1, lambda: "np.clip({}, {}, {})".format(self.scalar(env, "Data", d), *self.bounds())))
            vt = self.vector_type(env, "Real")
            if vt is not None:
                opts += [
                    (2, lambda: f"np.sum({self.vector(env, vt, d)})"),
                    (1, lambda: f"{self.vector(env, vt, d)}.sum()"),
                    (1, lambda: f"np.mean({self.vector(env, vt, d)})"),
                    (1, lambda: f"np.linalg.norm({self.vector(env, vt, d)})"),
                    (1, lambda: f"np.max({self.vector(env, vt, d)})"),
                    (2, lambda: f"{self.vector(env, vt, d)}[{self.pick(['0', '-1', '1'])}]"),
                    (2, lambda: self.fold_vector(env, vt, d)),
                ]
            mt = self.matrix_type(env, "Real")
            if mt is not None:
                opts += [
                    (1, lambda: f"np.sum({self.matrix(env, mt, d)})"),
                    (1, lambda: f"{self.matrix(env, mt, d)}[{self.pick(['0', '-1'])}, {self.pick(['0', '-1'])}]"),
                    (1, lambda: self.fold_matrix(env, mt, d)),
                ]
            dm = [m for m in env.matrices() if m.type.kind == "Data"]
            if dm:
                opts.append((1, lambda: "np.sum(np.clip({}[:, 0], {}, {}))".format(
                    self.pick(dm).name, *self.bounds())))
        elif kind == "Integer":
            opts += [
                (1, lambda: f"({self.pick(['2', '3', '-1'])} * {self.scalar(env, kind, d)})"),
                (1, lambda: f"({self.scalar(env, kind, d)} {self.pick(['//', '%'])} {self.pick(['2', '3'])})"),
            ]
            counted = [v for v in env.vectors() if v.type.kind in ("Data", "Integer")]
            if counted:
                opts.append((2, lambda: f"count(lambda e: e > {self.pick(['0.5', '0.0'])}, {self.pick(counted).name})"))
            cm = [m for m in env.matrices() if m.type.kind in ("Data", "Integer")]
            if cm:
                opts.append((1, lambda: f"count(lambda r: r[0] > 0.5, {self.pick(cm).name})"))
            if env.loop_index:
                opts.append((1, lambda: env.loop_index or "0"))
        else:  # Data
            opts += [
                (2, lambda: f"({self.public(env)} * {self.scalar(env, kind, d)})"),
                (1, lambda: f"({self.scalar(env, kind, d)} / {self.public(env, nonzero=True)})"),
            ]
        for name, i in env.indexed:  # range(len(c)) loops read c[i]
            c = env.get(name)
            if c is not None and c.static is None and c.type.kind == kind:
                read = f"{name}[{i}]" if c.type.shape == "vector" else f"{name}[{i}, {self.pick(['0', '-1'])}]"
                opts.append((4, lambda read=read: read))  # type: ignore[misc]
        if kind == "Real":
            opts.append((1, lambda: f"float({self.condition(env, d)})"))
            ragged = [v for v in env.vectors() if v.type.length.startswith("?") and v.type.kind != "Data"]
            if ragged:  # reductions take any length
                opts.append((4, lambda: f"{self.pick(['np.sum', 'np.mean', 'np.linalg.norm', 'np.max'])}"
                                        f"({self.pick(ragged).name})"))
                opts.append((1, lambda: f"{self.pick(ragged).name}[0]"))
            counted = [v for v in env.vectors() if v.type.kind in ("Data", "Integer")]
            if counted:
                opts.append((1, lambda: f"count(lambda e: e > {self.pick(['0.5', '0.0'])}, {self.pick(counted).name})"))
        if kind == "Integer":
            masked = [v for v in env.vectors() if v.type.kind in ("Data", "Integer")]
            if masked:
                opts.append((1, lambda: f"np.sum({self.pick(masked).name} > {self.pick(['0.5', '0.0'])})"))
        if kind == "Data" and vs:
            opts.append((1, lambda: f"({self.scalar(env, kind, d)} + {self.scalar(env, 'Real', d)})"))
        vk = [v for v in env.vectors() if v.type.kind == kind and "[" not in v.type.length]
        if vk:
            opts.append((2, lambda: f"{self.pick(vk).name}[{self.pick(['0', '-1'])}]"))
        mk = [m for m in env.matrices() if m.type.kind == kind]
        if mk:
            opts.append((1, lambda: f"{self.pick(mk).name}[0, {self.pick(['0', '-1'])}]"))
        if kind != "Data" or vs:
            opts.append((2, lambda: f"({self.scalar(env, kind, d)} if {self.condition(env, d)} else {self.scalar(env, kind, d)})"))
        opts += self.calls_for(env, want, depth)
        return self.choose(opts)

    def fold_vector(self, env: Env, vt: T, depth: int) -> str:
        inner = env.copy()
        acc, el = self.fresh_name("acc"), self.fresh_name("e")
        inner.bind(Var(acc, REAL))
        inner.bind(Var(el, REAL))
        body = self.fold_body(inner, acc, el, depth)
        return f"fold(lambda {acc}, {el}: {body}, {self.scalar(env, 'Real', depth)}, {self.vector(env, vt, depth)})"

    def fold_matrix(self, env: Env, mt: T, depth: int) -> str:
        inner = env.copy()
        acc, row = self.fresh_name("acc"), self.fresh_name("r")
        inner.bind(Var(acc, REAL))
        inner.bind(Var(row, T("vector", mt.kind, mt.norm, mt.cols)))
        part = self.pick([f"{row}[0]", f"np.sum({row})", f"{row}[-1]"])
        step = self.pick([f"{acc} + {part}", f"2 * {acc} + {part}", f"{acc} / 2 + {part}",
                          f"{acc} - {part}", f"max({acc}, {part})"])
        return f"fold(lambda {acc}, {row}: {step}, {self.scalar(env, 'Real', depth)}, {self.matrix(env, mt, depth)})"

    def fold_body(self, env: Env, acc: str, el: str, depth: int) -> str:
        return self.choose([
            (3, lambda: f"{acc} + {el}"),
            (2, lambda: f"{self.public(env)} * {acc} + {el}"),
            (1, lambda: f"{acc} + {self.public(env)} * {el}"),
            (1, lambda: f"max({acc}, {el})"),
            (2, lambda: self.scalar(env, "Real", min(depth, 1))),
        ])

    def vector(self, env: Env, want: T, depth: int) -> str:
        d = depth - 1
        tok = want.length
        base, _, suffix = tok.partition("[")
        vs = self.variables(env, want)
        ms = [m for m in env.matrices() if _fits(m.type, T("matrix", want.kind, length=m.type.length, cols=m.type.cols))]
        opts: list[tuple[int, Callable[[], str]]] = []
        opts.append((6 if vs else 0, lambda: self.pick(vs).name))
        if suffix:
            sl = "[" + suffix
            if sl == "[:k]":
                sl = f"[:{env.statics('int')[0].name}]"
            opts.append((4, lambda: f"{self.vector(env, replace(want, length=base), max(d, 0))}{sl}"))
        elif base == "C" and ms:
            opts.append((3, lambda: f"{self.pick(ms).name}[{self.pick(['0', '-1', '1'])}, :]"))
            rows_read = [f"{n}[{i}, :]" for n, i in env.indexed if any(m.name == n for m in ms)]
            if rows_read:
                opts.append((4, lambda: self.pick(rows_read)))
            opts.append((1 if depth > 0 else 0, lambda: f"np.sum({self.matrix(env, self.matrix_like(env, want), d)}, axis=0)"))
            opts.append((1 if depth > 0 else 0, lambda: f"{self.matrix(env, self.matrix_like(env, want), d)}.sum(axis=0)"))
            opts.append((1 if depth > 0 and want.kind != "Data" else 0,
                         lambda: f"np.mean({self.matrix(env, self.matrix_like(env, want), d)}, axis=0)"))
        elif base == "R" and ms:
            opts.append((3, lambda: f"{self.pick(ms).name}[:, {self.pick(['0', '-1'])}]"))
            if depth > 0 and want.kind == "Real":
                opts.append((1, lambda: f"np.sum({self.matrix(env, self.matrix_like(env, want), d)}, axis=1)"))
                opts.append((2, lambda: self.map_rows_scalar(env, want, d)))
        if depth <= 0 or sum(w for w, _ in opts) == 0 and depth <= 0:
            if sum(w for w, _ in opts) == 0:  # nothing of this kind: build one from a public scalar
                return f"np.zeros({self.length_of(env, want)})"
            return self.choose(opts)
        opts += [
            (3, lambda: f"({self.vector(env, want, d)} {self.pick(['+', '-'])} {self.vector(env, want, d)})"),
            (1, lambda: f"(-{self.vector(env, want, d)})"),
            (1, lambda: f"np.abs({self.vector(env, want, d)})"),
            (1, lambda: f"norm_convert({self.pick(list(NORMS))}, {self.vector(env, want, d)})"),
            (2, lambda: f"({self.vector(env, want, d)} if {self.condition(env, d)} else {self.vector(env, want, d)})"),
            (1, lambda: f"{self.vector(env, want, d)}[::-1]"),
            (1, lambda: f"np.flip({self.vector(env, want, d)})"),
        ]
        if want.kind != "Integer":  # these leave the integers
            opts += [
                (2, lambda: f"({self.public(env)} * {self.vector(env, want, d)})"),
                (1, lambda: f"({self.vector(env, want, d)} / {self.public(env, nonzero=True)})"),
                (1, lambda: f"clip({self.pick(list(NORMS))}, {self.vector(env, want, d)})"),
            ]
        if want.kind == "Real":
            opts += [
                (2, lambda: f"({self.vector(env, want, d)} + {self.scalar(env, 'Real', d)})"),
                (1, lambda: "np.clip({}, {}, {})".format(self.vector(env, want, d), *self.bounds())),
                (1, lambda: f"np.sort({self.vector(env, want, d)})"),
                (1, lambda: f"np.cumsum({self.vector(env, want, d)})"),
                (1, lambda: f"np.maximum({self.vector(env, want, d)}, {self.pick(['0.0', '1.0'])})"),
                (1, lambda: f"np.minimum({self.vector(env, want, d)}, {self.scalar(env, 'Real', d)})"),
                (1, lambda: f"map_rows(lambda e: {self.pick(['2 * e', 'e + 1.0', 'abs(e)', '-e', 'e / 2'])}, "
                            f"{self.vector(env, want, d)})"),
            ]
            dwant = replace(want, kind="Data")
            if any(_fits(v.type, dwant) for v in env.sensitive()) or (base in ("R", "C") and any(
                    m.type.kind == "Data" for m in env.matrices())):
                opts.append((1, lambda: "np.clip({}, {}, {})".format(self.vector(env, dwant, d), *self.bounds())))
        opts += self.calls_for(env, want, depth)
        return self.choose(opts)

    def length_of(self, env: Env, want: T) -> str:
        """The length of a vector with a base token, as a public expression."""
        if want.length == "n":
            return f"len({[v for v in env.vectors() if v.type.length == 'n'][0].name})"
        m = env.matrices()[0].name
        return f"rows({m})" if want.length == "R" else f"cols({m})"

    def matrix_like(self, env: Env, want: T) -> T:
        m = self.pick(env.matrices())
        return T("matrix", want.kind if want.kind != "Integer" else "Real", want.norm, m.type.length, m.type.cols)

    def map_rows_scalar(self, env: Env, want: T, depth: int) -> str:
        mt = self.matrix_like(env, want)
        inner = env.copy()
        row = self.fresh_name("r")
        inner.bind(Var(row, T("vector", mt.kind, mt.norm, mt.cols)))
        body = self.choose([
            (2, lambda: f"np.sum({row})"),
            (2, lambda: f"{row}[0]"),
            (1, lambda: f"np.max({row})"),
            (2, lambda: self.scalar(inner, "Real", max(depth, 1))),
        ])
        return f"map_rows(lambda {row}: {body}, {self.matrix(env, mt, depth)})"

    def matrix(self, env: Env, want: T, depth: int) -> str:
        d = depth - 1
        vs = self.variables(env, want)
        opts: list[tuple[int, Callable[[], str]]] = [(6 if vs else 0, lambda: self.pick(vs).name)]
        data = [m for m in env.matrices() if m.type.kind == "Data" and m.type.length == want.length
                and m.type.cols == want.cols]
        if want.kind == "Real" and data:
            opts.append((2, lambda: f"undisc_container(clip({self.pick(list(NORMS))}, {self.pick(data).name}))"))
            opts.append((1, lambda: "np.clip({}, {}, {})".format(self.pick(data).name, *self.bounds())))
        if depth <= 0:
            if sum(w for w, _ in opts) == 0:
                m = env.matrices()[0].name
                return f"np.zeros((rows({m}), cols({m})))"
            return self.choose(opts)
        row = replace(want, shape="vector", length=want.cols, cols="")
        opts += [
            (3, lambda: f"({self.matrix(env, want, d)} {self.pick(['+', '-'])} {self.matrix(env, want, d)})"),
            (2, lambda: f"({self.public(env)} * {self.matrix(env, want, d)})"),
            (1, lambda: f"({self.matrix(env, want, d)} / {self.public(env, nonzero=True)})"),
            (1, lambda: f"(-{self.matrix(env, want, d)})"),
            (1, lambda: f"np.abs({self.matrix(env, want, d)})"),
            (1, lambda: f"clip({self.pick(list(NORMS))}, {self.matrix(env, want, d)})"),
            (1, lambda: f"norm_convert({self.pick(list(NORMS))}, {self.matrix(env, want, d)})"),
            (2, lambda: f"({self.matrix(env, want, d)} + {self.vector(env, row, d)})"),
            (1, lambda: f"({self.matrix(env, want, d)} if {self.condition(env, d)} else {self.matrix(env, want, d)})"),
            (1, lambda: self.map_rows_vector(env, want, d)),
        ]
        if want.kind == "Real":
            opts += [
                (1, lambda: f"({self.matrix(env, want, d)} + {self.scalar(env, 'Real', d)})"),
                (1, lambda: "np.clip({}, {}, {})".format(self.matrix(env, want, d), *self.bounds())),
            ]
        opts += self.calls_for(env, want, depth)
        return self.choose(opts)

    def map_rows_vector(self, env: Env, want: T, depth: int) -> str:
        inner = env.copy()
        row = self.fresh_name("r")
        rt = T("vector", want.kind, want.norm, want.cols)
        inner.bind(Var(row, rt))
        body = self.choose([
            (2, lambda: f"{self.public(env)} * {row}"),
            (1, lambda: f"clip({self.pick(list(NORMS))}, {row})"),
            (1, lambda: self.vector(inner, rt, max(depth, 1))),
        ])
        return f"map_rows(lambda {row}: {body}, {self.matrix(env, want, depth)})"

    # ------------------------------------------------------------------ statements

    def any_type(self, env: Env) -> T:
        """A type for a new local: mostly real scalars."""
        opts: list[tuple[int, Callable[[], T]]] = [(5, lambda: REAL), (1, lambda: INTEGER)]
        if env.has_kind("Data"):
            opts.append((1, lambda: DATA))
        if self.tokens(env):
            opts.append((4, lambda: self.vector_type(env, "Real") or REAL))
        if env.matrices():
            opts.append((2, lambda: self.matrix_type(env, "Real") or REAL))
        return self.choose(opts)

    def target(self, env: Env) -> Var:
        """An existing sensitive variable to rebind, or a new one."""
        old = env.rebindable()
        if old and self.flip(60):
            return self.pick(old)
        return Var(self.fresh_name("t"), self.any_type(env))

    def is_fresh(self, env: Env, value: str, t: T) -> bool:
        """Whether a local array bound to value may be changed in place (no parameter shares it)."""
        if t.shape == "scalar":
            return False
        if value.startswith("np.zeros"):
            return True
        named = env.get(value)
        if named is not None:
            return named.fresh  # an alias of a local array: stores through either change both
        base = env.get(value.split("[")[0])
        if base is not None and value.endswith("]"):
            return base.fresh  # a view of a local array: stores through it change the array
        return value.startswith("(") and " if " not in value

    def zeros(self, env: Env, t: T) -> str | None:
        """A public array of type t (a local to fill), when its shape has a base token."""
        if t.shape == "scalar":
            return None
        if t.shape == "matrix":
            m = [v for v in env.matrices() if v.type.length == t.length and v.type.cols == t.cols]
            return f"np.zeros((rows({m[0].name}), cols({m[0].name})))" if m else None
        if "[" in t.length or (t.length == "n" and not any(v.type.length == "n" for v in env.vectors())):
            return None
        if t.length in ("R", "C") and not env.matrices():
            return None
        return f"np.zeros({self.length_of(env, t)})"

    def block(self, env: Env, count: int, depth: int, lines: list[str], indent: str,
              can_bind: bool = True) -> None:
        for _ in range(count):
            self.statement(env, depth, lines, indent, can_bind)

    def statement(self, env: Env, depth: int, lines: list[str], indent: str, can_bind: bool) -> None:
        """One statement; can_bind: new names may be introduced (not inside one branch only)."""
        edepth = self.draw(st.integers(1, self.MAX_DEPTH))
        rebind = env.rebindable()
        kinds: list[tuple[int, Callable[[], None]]] = []

        def assign() -> None:
            var = self.target(env) if can_bind else self.pick(rebind)
            value = None
            if env.get(var.name) is None and self.flip(35):
                value = self.zeros(env, var.type)
            if value is None:
                value = self.expr(env, var.type, edepth)
            fresh = self.is_fresh(env, value, var.type)
            if fresh and can_bind and self.flip(15):  # a = b = value: two names, one array
                other = Var(self.fresh_name("t"), var.type, fresh=True)
                lines.append(f"{indent}{other.name} = {var.name} = {value}")
                env.bind(other)
            else:
                lines.append(f"{indent}{var.name} = {value}")
            env.bind(Var(var.name, var.type, fresh=fresh))

        def augment() -> None:
            cands = [v for v in rebind if v.type.shape == "scalar" or v.fresh]
            var = self.pick(cands)
            if var.type.kind == "Real" and self.flip(40):
                op, value = self.pick(["*=", "/="]), self.public(env, nonzero=True)
            else:
                op = self.pick(["+=", "-="])
                other = var.type if var.type.shape == "scalar" else self.pick([var.type, REAL])
                value = self.expr(env, other if var.type.kind != "Integer" else INTEGER, edepth)
            lines.append(f"{indent}{var.name} {op} {value}")

        def store() -> None:
            var = self.pick([v for v in rebind if v.fresh])
            t = var.type
            if t.shape == "vector":
                where = self.pick(["0", "-1", "1"])
                op = self.pick(["=", "+=", "-=", "*="])
                value = self.public(env) if op == "*=" else self.scalar(env, t.kind, edepth)
                lines.append(f"{indent}{var.name}[{where}] {op} {value}")
                return
            row = T("vector", t.kind, t.norm, t.cols)
            col = T("vector", t.kind, "L1", t.length)
            kind = self.index(3)
            if kind == 0:
                lines.append(f"{indent}{var.name}[0, {self.pick(['0', '-1'])}] = {self.scalar(env, t.kind, edepth)}")
            elif kind == 1:
                lines.append(f"{indent}{var.name}[{self.pick(['0', '-1'])}] = {self.vector(env, row, edepth)}")
            else:
                lines.append(f"{indent}{var.name}[:, 0] = {self.vector(env, col, edepth)}")

        def unpack() -> None:
            pairs = [fn for fn in env.fns if fn.returns == PAIR and self._callable(env, fn)]
            if pairs and self.flip(40):
                a = self.pick(rebind) if not can_bind or self.flip(50) else Var(self.fresh_name("t"), REAL)
                b = self.pick(rebind) if not can_bind or self.flip(50) else Var(self.fresh_name("t"), REAL)
                if a.type == REAL and b.type == REAL and a.name != b.name:
                    lines.append(f"{indent}{a.name}, {b.name} = {self.call(env, self.pick(pairs), edepth)}")
                    env.bind(Var(a.name, REAL))
                    env.bind(Var(b.name, REAL))
                    return
            a = self.pick(rebind) if not can_bind or self.flip(50) else Var(self.fresh_name("t"), REAL)
            same = [v for v in rebind if v.type == a.type and v.name != a.name]
            if same and self.flip(60):
                b = self.pick(same)  # a coupled update: a, b = b, f(a, b)
                lines.append(f"{indent}{a.name}, {b.name} = {b.name}, {self.expr(env, b.type, edepth)}")
                env.bind(Var(a.name, a.type, fresh=b.fresh))
                env.bind(Var(b.name, b.type))
                return
            b = self.pick(rebind) if not can_bind or self.flip(50) else Var(self.fresh_name("t"), REAL)
            if b.name == a.name:
                b = Var(self.fresh_name("t"), REAL) if can_bind else b
            if b.name == a.name:
                return assign()
            va, vb = self.expr(env, a.type, edepth), self.expr(env, b.type, edepth)
            lines.append(f"{indent}{a.name}, {b.name} = {va}, {vb}")
            env.bind(Var(a.name, a.type))
            env.bind(Var(b.name, b.type))

        def branch() -> None:
            cond = self.condition(env, 2)
            targets = self.branch_targets(env, can_bind)
            lines.append(f"{indent}if {cond}:")
            self.arm(env, targets, depth, lines, indent)
            if self.flip(25):
                lines.append(f"{indent}elif {self.condition(env, 2)}:")
                self.arm(env, targets, depth, lines, indent)
            if self.flip(80) or any(env.get(t.name) is None for t in targets):
                lines.append(f"{indent}else:")
                self.arm(env, targets, depth, lines, indent)
            for t in targets:
                env.bind(Var(t.name, t.type))

        def counted() -> None:  # R-if-counted: arms that only add public amounts
            scalars = [v for v in rebind if v.type.shape == "scalar" and v.type.kind != "Data"]
            cond = self.condition(env, 2)
            lines.append(f"{indent}if {cond}:")
            names = list(dict.fromkeys(self.pick(scalars).name for _ in range(self.draw(st.integers(1, 2)))))
            for arm in range(1 + self.flip(60)):
                if arm:
                    lines.append(f"{indent}else:")
                for name in names:
                    var = env.get(name)
                    assert var is not None
                    amount = self.public_int(env) if var.type.kind == "Integer" else self.public(env)
                    form = self.pick([f"{name} += {amount}", f"{name} -= {amount}",
                                      f"{name} = {name} + {amount}", f"{name} = {amount} + {name}"])
                    lines.append(f"{indent}    {form}")

        def loop() -> None:
            inner = env.copy()
            head = self.loop_head(env, inner)
            lines.append(f"{indent}{head}")
            body: list[str] = []
            carried = inner.rebindable()
            if carried and self.flip(60):  # a carried update, possibly growing: x = a*x + e
                var = self.pick(carried)
                factor = self.pick(["2", "0.5", "1", "-1", "3"] + [c.name for c in env.statics()])
                rest = self.expr(inner, var.type, 2)
                body.append(f"{indent}    {var.name} = {factor} * {var.name} + {rest}")
                inner.bind(Var(var.name, var.type))
            n = self.draw(st.integers(0 if body else 1, 2))
            self.block(inner, n, depth + 1, body, indent + "    ", can_bind=True)
            lines.extend(body)
            for v in inner.vars:  # body-locals stay bound after the loop (every count is >= 1)
                if env.get(v.name) is None and not v.readonly:
                    env.bind(Var(v.name, v.type))
            env.fns += [fn for fn in inner.fns if fn not in env.fns]
            for v in env.rebindable():  # a store in the body may have gone through an alias
                if v.fresh and (inner.get(v.name) is None or not inner.get(v.name).fresh):  # type: ignore[union-attr]
                    env.bind(replace(v, fresh=False))

        def ragged() -> None:  # a vector whose length depends on the path taken (D18)
            base = self.pick([v for v in env.vectors()])
            name, tok = self.fresh_name("t"), f"?{self.counter}"
            form = self.index(3)
            if form == 0:
                lines.append(f"{indent}{name} = ({base.name} if {self.condition(env, 2)} else {base.name}[1:])")
            elif form == 1:
                lines.append(f"{indent}{name} = ({base.name}[0:2] if {self.condition(env, 2)} else {base.name})")
            else:
                lines.append(f"{indent}{name} = {base.name}")
                lines.append(f"{indent}for _ in range({self.pick(['1', '2'] + [k.name for k in env.statics('int')])}):")
                lines.append(f"{indent}    {name} = {name}[{self.pick(['1:', ':-1', '0:2', '::2'])}]")
            env.bind(Var(name, T("vector", base.type.kind, base.type.norm, tok)))

        def early_return() -> None:
            cond = self.condition(env, 2)
            lines.append(f"{indent}if {cond}:")
            lines.append(f"{indent}    return {self.expr(env, self.returns, edepth)}")

        def define_function() -> None:
            name = self.fresh_name("g")
            inner = env.copy()
            inner.fns = []
            pt = REAL if self.flip(70) or not self.tokens(env) else (self.vector_type(env, "Real", sliced=False) or REAL)
            param = Var(self.fresh_name("p"), pt)
            inner.bind(param)
            rt = pt if self.flip(40) else REAL
            if self.flip(50):
                lines.append(f"{indent}{name} = lambda {param.name}: {self.expr(inner, rt, 2)}")
            else:  # a nested def, with a local of its own
                lines.append(f"{indent}def {name}({param.name}):")
                if self.flip(50):
                    local = Var(self.fresh_name("q"), pt)
                    lines.append(f"{indent}    {local.name} = {self.expr(inner, pt, 2)}")
                    inner.bind(local)
                lines.append(f"{indent}    return {self.expr(inner, rt, 2)}")
            env.fns.append(Fn(name, [param], rt))

        kinds.append((6, assign))
        if any(v.type.shape == "scalar" or v.fresh for v in rebind):
            kinds.append((2, augment))
        if any(v.fresh for v in rebind):
            kinds.append((4, store))
        if rebind:
            kinds.append((2, unpack))
        if depth < 3:
            kinds.append((3, branch))
            kinds.append((3, loop))
            if any(v.type.shape == "scalar" and v.type.kind != "Data" for v in rebind):
                kinds.append((2, counted))
        if can_bind:
            kinds.append((1, define_function))
            if env.vectors():
                kinds.append((1, ragged))  # in a loop body too: a closure over carried values
        if can_bind and depth == 0:
            kinds.append((1 if self.returns is not None else 0, early_return))
        if not rebind:
            kinds = [(w, f) for w, f in kinds if f in (assign,) and can_bind] or kinds
        live = [(w, f) for w, f in kinds if w > 0]
        total = sum(w for w, _ in live)
        point = self.draw(st.integers(0, total - 1))
        for w, f in live:
            if point < w:
                f()
                return
            point -= w

    def loop_head(self, env: Env, inner: Env) -> str:
        """The `for` line; binds the index or element in inner."""
        kind = self.choose_index([
            (6, True),  # for _ in range(count)
            (2, True),  # for i in range(count), i used as a public number
            (2, bool(env.vectors() or env.matrices())),  # for i in range(len(c)), c[i] read
            (2, bool(env.vectors() or env.matrices())),  # for e in c
            (1, any(v.type.kind == "Integer" and v.type.shape == "scalar" for v in env.sensitive())),  # dynamic
        ])
        if kind <= 1:
            count = self.pick(["3", "2", "1", "4"] + [k.name for k in env.statics("int")])
            if kind == 0:
                return f"for _ in range({count}):"
            index = self.fresh_name("i")
            inner.loop_index = index
            return f"for {index} in range({count}):"
        if kind == 4:
            ints = [v for v in env.sensitive() if v.type.kind == "Integer" and v.type.shape == "scalar"]
            return f"for _ in range(int({self.pick(ints).name}) % 4):"  # a count the run can afford
        container = self.pick(env.vectors() + env.matrices())
        if kind == 2:
            index = self.fresh_name("i")
            inner.loop_index = index
            inner.indexed.append((container.name, index))
            size = "len" if container.type.shape == "vector" else "rows"
            return f"for {index} in range({size}({container.name})):"
        element = self.fresh_name("e")
        t = container.type
        et = T("scalar", t.kind) if t.shape == "vector" else T("vector", t.kind, t.norm, t.cols)
        inner.bind(Var(element, et, readonly=True))
        return f"for {element} in {container.name}:"

    def choose_index(self, options: list[tuple[int, bool]]) -> int:
        live = [(i, w) for i, (w, ok) in enumerate(options) if ok]
        point = self.draw(st.integers(0, sum(w for _, w in live) - 1))
        for i, w in live:
            if point < w:
                return i
            point -= w
        raise AssertionError("unreachable")

    def branch_targets(self, env: Env, can_bind: bool) -> list[Var]:
        n = self.draw(st.integers(1, 2))
        out: list[Var] = []
        for _ in range(n):
            v = self.target(env) if can_bind else self.pick(env.rebindable())
            if all(v.name != o.name for o in out):
                out.append(v)
        return out

    def arm(self, env: Env, targets: list[Var], depth: int, lines: list[str], indent: str) -> None:
        inner = env.copy()
        body: list[str] = []
        if self.flip(30) and env.rebindable():
            self.statement(inner, depth + 1, body, indent + "    ", can_bind=False)
        for t in targets:
            body.append(f"{indent}    {t.name} = {self.expr(inner, t.type, self.draw(st.integers(1, 2)))}")
        lines.extend(body)
        for v in env.rebindable():  # the arm may have rebound a local array to a parameter's
            now = inner.get(v.name)
            if v.fresh and (now is None or not now.fresh):
                env.bind(replace(v, fresh=False))

    returns: T | None = None

    def parameters(self, prefix: str, allow_matrix: bool = True, callable_param: bool = False) -> list[Var]:
        count = self.draw(st.integers(1, 4))
        out: list[Var] = []
        for i in range(count):
            kind = self.choose_type(allow_matrix)
            out.append(Var(f"{prefix}{i}", kind))
        if callable_param:  # f: Callable[[float], float], called in the body (sens(f, 0))
            out.append(Var(f"g{prefix}", REAL, static="fn"))
        statics = self.draw(st.integers(0, 2))
        for i in range(statics):
            which = self.pick(["float", "int"])
            out.append(Var(f"{'c' if which == 'float' else 'k'}{prefix}{i}", REAL if which == "float" else INTEGER,
                           static=which))
        return out

    def choose_type(self, allow_matrix: bool) -> T:
        options: list[tuple[int, Callable[[], T]]] = [
            (6, lambda: REAL),
            (2, lambda: INTEGER),
            (2, lambda: DATA),
            (4, lambda: T("vector", "Real", self.pick(list(NORMS)), "n")),
            (2, lambda: T("vector", self.pick(["Data", "Integer"]), self.pick(list(NORMS)), "n")),
            (3 if allow_matrix else 0, lambda: T("matrix", "Real", self.pick(list(NORMS)), "R", "C")),
            (2 if allow_matrix else 0, lambda: T("matrix", "Data", self.pick(list(NORMS)), "R", "C")),
        ]
        live = [(w, f) for w, f in options if w > 0]
        point = self.draw(st.integers(0, sum(w for w, _ in live) - 1))
        for w, f in live:
            if point < w:
                return f()
            point -= w
        raise AssertionError("unreachable")

    def return_type(self, env: Env) -> T:
        opts: list[tuple[int, Callable[[], T]]] = [(8, lambda: REAL), (1, lambda: INTEGER)]
        if env.has_kind("Data"):
            opts.append((1, lambda: DATA))
        if self.tokens(env):
            opts.append((3, lambda: self.vector_type(env, "Real", static_slice=False) or REAL))
        if env.matrices():
            opts.append((2, lambda: self.matrix_type(env, "Real") or REAL))
        live = [(w, f) for w, f in opts if w > 0]
        point = self.draw(st.integers(0, sum(w for w, _ in live) - 1))
        for w, f in live:
            if point < w:
                return f()
            point -= w
        raise AssertionError("unreachable")

    def function(self, name: str, prefix: str, fns: list[Fn], min_statements: int,
                 max_statements: int) -> tuple[list[str], Fn]:
        helper = name != "f0"
        params = self.parameters(prefix, callable_param=helper and self.flip(15))
        env = Env(list(params), list(fns))
        env.fns += [Fn(p.name, [Var("_", REAL)], REAL) for p in params if p.static == "fn"]
        # A helper with unannotated parameters is analyzed again at each call (R-closure).
        annotated = not helper or not self.flip(12)
        self.returns = PAIR if helper and self.flip(15) else self.return_type(env)
        lines = [f"def {name}({', '.join(self.signature(p, annotated) for p in params)}) -> {self.returns.annotation()}:"]
        count = self.draw(st.integers(min_statements, max_statements))
        self.block(env, count, 0, lines, "    ")
        lines.append(f"    return {self.expr(env, self.returns, self.draw(st.integers(1, self.MAX_DEPTH)))}")
        fn = Fn(name, params, self.returns)
        self.returns = None
        return lines, fn

    @staticmethod
    def signature(p: Var, annotated: bool = True) -> str:
        if p.static == "fn":
            return f"{p.name}: Callable[[float], float]"
        if p.static is not None:
            return f"{p.name}: Static[{p.static}]"
        if not annotated:
            return p.name
        return f"{p.name}: {p.type.annotation()}"


HEADER = """from typing import Callable

import numpy as np

from dpsens import (
    L1, L2, L_inf, Data, Integer, MetricMatrix, MetricVector, Real, Static, clip, cols, count, fold,
    map_rows, norm_convert, rows, undisc_container,
)
"""


@dataclass(frozen=True)
class Program:
    source: str

    def __str__(self) -> str:
        return self.source


@st.composite
def programs(draw: Callable[[st.SearchStrategy[Any]], Any]) -> Program:
    """A module with a helper h0 and a main function f0 that may call it."""
    gen = Gen(draw)
    fns: list[Fn] = []
    chunks = [HEADER]
    if gen.flip(60):
        # The helper's parameters sometimes have the main function's names: a callee's
        # symbols (len(x0), cx0) must not be read as the caller's own.
        lines, helper = gen.function("h0", "x" if gen.flip(30) else "a", [], 0, 4)
        chunks.append("\n".join(lines) + "\n")
        fns.append(helper)
    lines, _ = gen.function("f0", "x", fns, 1, 8)
    chunks.append("\n".join(lines) + "\n")
    return Program("\n\n".join(chunks))
