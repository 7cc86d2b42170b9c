"""The one registry of diagnostic codes, each with its documentation."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    """A diagnostic code: name, default severity and the three doc sections."""

    code: str
    name: str
    severity: str
    what: str
    why: str
    example: str


REGISTRY: dict[str, Code] = {}


def _register(code: str, name: str, severity: str, what: str, why: str, example: str) -> None:
    REGISTRY[code] = Code(code, name, severity, what, why, example)


def severity_of(code: str) -> str:
    """The default severity of a code ('error' for unknown codes)."""
    entry = REGISTRY.get(code)
    return entry.severity if entry else "error"


def listing(prefix: str = "") -> str | None:
    """One line per code starting with ``prefix`` (``dpsens explain``, ``dpsens explain
    DPS4``); None when no code does."""
    chosen = [REGISTRY[c] for c in sorted(REGISTRY) if c.startswith(prefix.upper())]
    if not chosen:
        return None
    return "".join(f"{e.code}  {e.severity:<7}  {e.name}: {_first_sentence(e.what)}\n"
                   for e in chosen)


def _first_sentence(text: str) -> str:
    end = text.find(". ")
    return text if end < 0 else text[:end + 1]


def explain(code: str) -> str | None:
    """The documentation of a code as printed by ``dpsens explain``."""
    entry = REGISTRY.get(code.upper())
    if entry is None:
        return None
    return (
        f"{entry.code} {entry.name} ({entry.severity})\n\n"
        f"## What it does\n{entry.what}\n\n"
        f"## Why\n{entry.why}\n\n"
        f"## Example\n{entry.example}\n"
    )


_register(
    "DPS001", "internal-error", "error",
    "dpsens failed on this file; the analysis of the file is incomplete.",
    "A crash must never pass silently: every parameter the failure touched is "
    "unaccounted for. Please report it with the file that triggers it.",
    "Any input that makes the analyzer raise an unexpected exception.",
)
_register(
    "DPS002", "unreadable-file", "error",
    "A path given on the command line does not exist or cannot be read.",
    "A lint that silently skips a file gives a false sense of safety.",
    "dpsens check missing.py",
)
_register(
    "DPS003", "decode-error", "error",
    "The file is not valid UTF-8 (or its declared encoding).",
    "dpsens must see exactly the code Python runs.",
    "A file saved as Latin-1 containing b'\\xe9'.",
)
_register(
    "DPS004", "syntax-error", "error",
    "The file does not parse as Python.",
    "Nothing in a file that does not parse can be analyzed.",
    "def f(x: Real) -> Real\n    return x    # missing colon",
)
_register(
    "DPS005", "time-limit", "error",
    "The analysis of a file took longer than the per-file time limit (`timeout` in "
    "[tool.dpsens] or `--timeout`, in seconds; one minute by default). The function being "
    "analyzed and those after it in the file are not reported; the others are.",
    "A lint that hangs gets switched off, and one that silently skips code gives a false "
    "sense of safety; the run exits 2 and the result is not cached.",
    "A generated function summing 10,000 terms, checked with --timeout 1.",
)
_register(
    "DPS006", "file-too-large", "error",
    "A file is larger than the size limit (1,000,000 bytes by default; `max_file_size` in "
    "[tool.dpsens], `--max-file-size`) and is not parsed or analyzed.",
    "LibCST needs about 600 bytes of memory per byte of source: a 5 MB generated module "
    "takes 3 GB and most of a minute to parse. Files that never mention dpsens are not "
    "parsed at all and never get this finding. The run exits 2.",
    "A 5 MB generated module of constants that imports dpsens.",
)
_register(
    "DPS007", "unnormalized-name", "error",
    "A name is written in a form Python normalizes (NFKC, PEP 3131): `ｘ` (fullwidth) and "
    "`x` are one variable to Python. The file is not analyzed; its imports and what it "
    "changes in other modules are still followed, from CPython's own parser.",
    "dpsens reads names as they are written, so it would take the two spellings for two "
    "variables: `x = 0.0; ｘ = v; return x` returns v, which it would read as 0.0.",
    "x = 0.0\nｘ = v      # write x",
)
_register(
    "DPS008", "shadowed-runtime-module", "error",
    "A checked top-level module is named like a library dpsens's mechanisms are built on "
    "(secrets, random, math, fractions, decimal, numbers, numpy, builtins, mpmath).",
    "Python puts a script's directory first on its import path, so a script run beside "
    "this file imports it in place of the library, also inside dpsens's runtime: a "
    "secrets.py whose randbelow is seeded makes every mechanism's noise predictable. The "
    "reported (epsilon, delta) assume the real library.",
    "secrets.py   # def randbelow(n): return random.Random(0).randrange(n)",
)
_register(
    "DPS101", "unknown-annotation", "error",
    "An annotation names something that is not part of the dpsens vocabulary.",
    "dpsens cannot know how distance is measured on an unknown type, so the "
    "parameter is treated as unbounded.",
    "def f(x: Matrix[L1, Real]) -> Real: ...   # use MetricMatrix",
)
_register(
    "DPS102", "malformed-annotation", "error",
    "A vocabulary annotation has the wrong number or kind of arguments.",
    "MetricMatrix[N, T] needs a norm (L1, L2, L_inf) and an element type "
    "(Real, Integer, Data); anything else has no metric.",
    "def f(x: MetricMatrix[Real, L1]) -> Real: ...   # arguments swapped",
)
_register(
    "DPS103", "missing-annotation", "warning",
    "A parameter of an analyzed function has no annotation; it is treated as Real.",
    "The metric of an input decides its sensitivity; an explicit annotation "
    "documents the assumption.",
    "def f(x, c: Static[float]) -> Real: ...",
)
_register(
    "DPS104", "return-metric-mismatch", "error",
    "The inferred return type does not fit the declared one without a "
    "conversion that costs sensitivity.",
    "Changing the metric silently would hide a sensitivity factor; the "
    "reported sensitivities include the conversion factor, but say it with "
    "norm_convert so the code shows it.",
    "def f(v: MetricVector[L_inf, Real]) -> MetricVector[L1, Real]:\n    return v",
)
_register(
    "DPS201", "unsupported-statement", "error",
    "A statement outside the analyzable subset (while, try, with, global, "
    "del, ...); every variable it may change becomes unbounded. Also a def that is "
    "not analyzed although its signature uses the dpsens vocabulary (a parameter or "
    "return annotation naming something of dpsens, also through a re-export or an "
    "alias): a method of a class (at any nesting, in nested classes and in classes "
    "inside functions) or a def under a module-level if/try/with/for/while. Such a "
    "function is not in the report; define it as a module-level function. Defs "
    "without the vocabulary there are not analyzed either, silently.",
    "dpsens only reports bounds it can prove; the subset is listed in SPEC §4. A "
    "function meant to be checked must not drop out of the report unnoticed.",
    "while err > tol:\n    x = step(x)\n\n"
    "class Model:\n"
    "    def release(self, data: MetricMatrix[L_inf, Data]) -> Priv[Real]:   # DPS201\n"
    "        ...",
)
_register(
    "DPS202", "unsupported-expression", "error",
    "An expression outside the analyzable subset; its value is unbounded in "
    "every variable it uses.",
    "dpsens only reports bounds it can prove.",
    "y = [v * 2 for v in x]",
)
_register(
    "DPS203", "unknown-call", "error",
    "A call to a function that is neither analyzed nor described by a stub; "
    "the result is unbounded in every non-static argument.",
    "Without a rule, the callee's sensitivity is unknown. Add a stub "
    "(extra stub directories are configured in [tool.dpsens]) or annotate it.",
    "y = scipy.special.expit(x)",
)
_register(
    "DPS204", "recursion", "error",
    "A function calls itself directly or through other analyzed functions.",
    "Recursion has no static bound on its depth; results are unbounded.",
    "def f(x: Real, n: Static[int]) -> Real:\n    return f(x, n - 1)",
)
_register(
    "DPS205", "parameter-mutation", "error",
    "A parameter (or a container reachable from it) is mutated in place.",
    "In-place mutation changes values the caller still holds; dpsens tracks "
    "values, not memory, so the parameter becomes unbounded.",
    "x[0] = 0.0",
)
_register(
    "DPS206", "unresolved-name", "error",
    "A name that is neither a parameter, a local, an analyzed function, an "
    "import nor a constant module global, or a module global without a single "
    "value: bound more than once anywhere at module scope, declared global in a "
    "function, written through globals(), or a mutable value changed in place.",
    "The value of such a name is unknown to the analysis; when a function may "
    "change it, it may hold any caller's data and the function is unbounded in "
    "every parameter (docs/rules.md, R-global).",
    "return x * scale   # scale is a reassigned module global",
)
_register(
    "DPS207", "unbounded-loop", "error",
    "A loop whose iteration count is not static carries a value that is not "
    "1-sensitive, or runs a body that is not analyzable.",
    "With an unknown number of iterations, only a non-expanding body keeps a "
    "finite bound.",
    "for _ in range(n_private):\n    x = 2 * x",
)
_register(
    "DPS301", "type-error", "error",
    "An operation is applied to values whose metric types do not fit "
    "(e.g. a vector where a scalar is needed, a black-box value used without "
    "unbox).",
    "Without a consistent metric the distance of the result is undefined.",
    "y = unbox_missing + 1.0   # black-box result used directly",
)
_register(
    "DPS302", "privacy-in-sensitivity-function", "error",
    "A noise mechanism or a privacy function is called inside a function that "
    "is not declared -> Priv[...].",
    "A randomized value has no sensitivity; mark the function -> Priv[T].",
    "def f(x: Real) -> Real:\n    return laplace_mechanism(1, 0.1, x)",
)
_register(
    "DPS303", "bad-arguments", "error",
    "A call passes the wrong number of arguments or an unknown keyword.",
    "The rule of the callee cannot be applied.",
    "clip(L2)   # missing the value to clip",
)
_register(
    "DPS304", "static-required", "error",
    "A parameter that must be static (public) receives a value that depends on "
    "sensitive inputs.",
    "A sensitive value in a public position (a norm, a loop count, a "
    "mechanism's epsilon) leaks it; those inputs become unbounded.",
    "clip(L2, v) * x.shape[0] if x else 0",
)
_register(
    "DPS305", "unknown-static-value", "warning",
    "A static value whose symbolic value dpsens cannot compute multiplies a "
    "sensitive value; the product is treated as unbounded.",
    "The sensitivity of c*x is |c| times that of x; without c it is unknown.",
    "c = np.linalg.det(public_matrix)\nreturn c * x",
)
_register(
    "DPS306", "assumption-violated", "error",
    "A call passes values for which the callee's reported bound does not hold (one "
    "of the callee's assumptions is false, also under the signs the caller's "
    "assumptions give, or depends on an unknown static value); or, at a def, the "
    "function's own assumptions can never hold together (one is false under the "
    "signs the others give: s > 0 and -s > 0).",
    "The callee's sensitivity was derived under that assumption; without it the "
    "result is unbounded in the call's arguments. A bound under assumptions no run "
    "satisfies says nothing, so such a function is unbounded in every parameter.",
    "def shrink(x: Real, n: Integer, c: Static[float]) -> Real: ...  # assumes abs(c) <= 1\n"
    "shrink(x, n, 3.0)",
)
_register(
    "DPS307", "function-argument-captures", "error",
    "A function passed for a Callable or PrivacyFunction parameter uses sensitive "
    "values of the caller (a closure), and the callee's summary does not bound what "
    "they move; they become unbounded.",
    "Each call of the function moves the result (or spends privacy) by what it "
    "captures. A sensitivity function that calls a Callable parameter itself bounds "
    "that (R-captures: apply(lambda t: t + y, x) is 1 in y); a privacy function, a "
    "callee that passes the function on, stores it, hands it to unknown code or "
    "branches on its result does not.",
    "release_with(lambda d: laplace_mechanism(1.0, 1.0, d + y), x)   # y is captured",
)
_register(
    "DPS311", "unbounded-from-here", "note",
    "Explains a parameter reported unbounded (inf) that no error explains: where a value "
    "first became unbounded in it, and by which rule (a branch on a comparison of reals, "
    "a product of two sensitive values, a comparison used as a number, a sensitive "
    "index, a call whose rule or report is unbounded).",
    "Such values are sound to call unbounded, not errors; the note shows what to change "
    "(clip before comparing, use np.clip or max/min, keep one factor public).",
    "def f(x: Real, y: Real) -> Real:\n    return x * y   # DPS311: x and y unbounded here",
)
_register(
    "DPS401", "mechanism-metric", "error",
    "A noise mechanism receives a value measured in a metric its guarantee does not "
    "cover: Laplace needs a real number or an (L1, Real) container, the Gaussian "
    "mechanisms an (L2, Real) one, randomized response a Data or Bool bit.",
    "Laplace noise calibrated to an L2 sensitivity is not private for vectors (the "
    "Julia tool accepted L2 here); the parameters it touches cost (inf, inf).",
    "laplace_mechanism(1.0, eps, v)   # v: MetricVector[L2, Real]; use norm_convert(L1, v)",
)
_register(
    "DPS402", "sensitivity-exceeds-mechanism", "error",
    "A value noised by gaussian_mechanism(s, ...) is more than s-sensitive in a parameter.",
    "The noise is calibrated for sensitivity s; a larger one voids the (eps, delta) "
    "guarantee, so that parameter costs (inf, inf).",
    "gaussian_mechanism(1.0, eps, delta, 2 * x)   # 2-sensitive in x",
)
_register(
    "DPS403", "released-without-noise", "error",
    "A privacy function returns a value that still depends on a sensitive parameter.",
    "Releasing a non-noised sensitive value is not differentially private: it costs "
    "(inf, inf) in that parameter.",
    "def f(x: Real, eps: Static[float]) -> Priv[Real]:\n    return x + laplace_mechanism(1, eps, x)",
)
_register(
    "DPS404", "sparse-vector-query", "error",
    "A query given to above_threshold() is not 1-sensitive in the data, or depends on "
    "other sensitive values.",
    "AboveThreshold's guarantee assumes 1-sensitive queries; the data costs (inf, inf).",
    "above_threshold((lambda d: 2 * count(p, d),), eps, data, 10.0)",
)
_register(
    "DPS405", "privacy-in-builtin-function", "error",
    "A function given to a builtin (a utility, a query, an accumulator) spends privacy "
    "in a way dpsens cannot attribute to rows, or changes values it captures (writes "
    "what it is given into them, or keeps a running total across the runs).",
    "Without knowing how often and on what data it runs, its cost is unbounded; the "
    "builtin runs it once per row, query or candidate, each run writing over or adding "
    "to what the last one wrote, so what it writes is unbounded too.",
    "fold(lambda acc, r: acc + laplace_mechanism(1, eps, acc), 0.0, m)\n"
    "above_threshold((lambda d: seen.append(d[0]) or d[0],), eps, v, 0.0)",
)
_register(
    "DPS601", "analyzer-reads-data", "error",
    "A function with Messages[...] parameters (an analyzer of the local or shuffle "
    "model) also reads a sensitive parameter.",
    "An analyzer only post-processes randomizer reports; reading raw data breaks the "
    "model's guarantee (the function is reported as a sensitivity function of it).",
    "def estimate(reports: Messages[Data], data: MetricMatrix[L_inf, Data]) -> Real: ...",
)
_register(
    "DPS501", "budget-exceeded", "error",
    "A privacy function matched by a [tool.dpsens.budget] glob costs more epsilon or delta "
    "in some parameter than its budget allows, or its cost is symbolic (in static "
    "parameters) and cannot be shown to stay within it.",
    "A budget is a promise about what a release may spend; a change that raises the cost "
    "(more iterations, less noise) must fail review instead of shipping silently. Bind "
    "static parameters with [tool.dpsens.bindings] to get numeric costs.",
    '[tool.dpsens.budget]\n"train.dp_sgd" = {epsilon = 3.0, delta = 1e-5}\n'
    "# fails when dp_sgd reports epsilon 5.24 for its data",
)
_register(
    "DPS502", "unused-suppression", "warning",
    "A '# dpsens: ignore[...]' comment suppresses nothing: no diagnostic with that code is "
    "reported on its line (or, on a def line, in its function), or the code is unknown.",
    "Stale suppressions hide the next real finding on that line; remove them once the "
    "code is fixed.",
    "y = 2 * x  # dpsens: ignore[DPS203]   (nothing is called here)",
)
_register(
    "DPS406", "invalid-mechanism-parameter", "error",
    "A mechanism gets a scale, epsilon, rho or sample size that is not positive, or a "
    "delta outside (0, 1).",
    "The runtime refuses such calls; statically, a negative epsilon would cancel other "
    "costs, so the noised values cost (inf, inf).",
    "laplace_mechanism(1.0, -1.0, x)",
)
_register(
    "DPS407", "explicit-random-generator", "error",
    "A mechanism in analyzed code is given rng=...: a seeded generator makes the noise "
    "predictable.",
    "The privacy guarantee assumes the cryptographically secure default source; pass "
    "rng= only in tests of the runtime.",
    "laplace_mechanism(1.0, eps, x, rng=np.random.default_rng(0))",
)
_register(
    "DPS408", "sample-not-amplified", "warning",
    "sample() draws rows that may be more than 1 apart, or entries of a vector measured "
    "in L2 or L_inf, so the sample is not amplified.",
    "Amplification by subsampling needs the computation on the sample to be private "
    "against replacing one sampled row by any other row. That is a neighbour's change "
    "only when any two rows are at most 1 apart: records (Data rows of a matrix measured "
    "in L_inf) and entries of an (L1, Data) vector. Rows of reals or integers, or of "
    "several Data entries, may be far apart (a real row moved by 1 among rows far apart "
    "loses almost the unamplified epsilon), and an L_inf or L2 vector can change in every "
    "entry at distance 1. Sample the dataset's records, and clip after sampling.",
    "sample(100, v, v)   # v: MetricVector[L_inf, Real], or MetricMatrix[L1, Real]",
)
_register(
    "DPS409", "unbounded-privacy-cost", "error",
    "A privacy function's epsilon or delta in a parameter is unbounded, and no other error "
    "of the function already fails the run.",
    "Usually a noised value whose sensitivity the rules cannot bound: a product of two "
    "sensitive values, a function with no dpsens rule, a noise scale that is public but "
    "not known. The function is not shown to be private in that parameter; clip or "
    "bound the value before noising it, or restructure the computation.",
    "laplace_mechanism(1.0, eps, x * y)   # x, y: Real",
)
_register(
    "DPS410", "bounded-for-small-inputs", "warning",
    "A function's results rest on an assumption about the sizes of its inputs (rows, "
    "columns, lengths) that holds for small inputs only: it fails at a size tried and at "
    "every larger one tried.",
    "The assumption is listed with the results, but inputs of the sizes that break it are "
    "not covered: usually a mechanism given a sensitivity below the one that grows with "
    "the columns (the Gaussian's s for Xᵀy of unit rows is 2, not 1). Give the mechanism "
    "the sensitivity the report shows, or bound the sizes (slice a fixed number of columns).",
    "gaussian_mechanism(1.0, eps, delta, x.T @ y)   # r = 2*cols(data) + ...: holds at cols 1",
)
