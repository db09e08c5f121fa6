"""Timing helpers shared by chapter 5 and ``benchmarks/bench_dynamics.py`` (never by timed tests).

* :func:`time_call` -- CPU seconds per call of ``f(*args)``: ``timeit`` with an automatic loop
  count (each measurement lasts at least ``min_time``) and the *minimum* over ``repeat``
  measurements, the estimate least disturbed by other processes on a shared machine.
* :func:`fit_slope` / :func:`fit_power_law` -- least-squares fit of log t = k log n + log c: the
  exponent k is the measured complexity O(n^k).
* :func:`chain_models`, :func:`scaling_table` -- RNEA, ABA, CRBA and "build M then solve" timed on
  random revolute chains of n bodies.
* :func:`measure_sweeps`, :func:`stored_sweeps`, :func:`save_sweeps` -- chapter 5's timing
  sweeps (chains up to 1024 bodies, the dense solve, the terms of the equation of motion):
  measured here in one to three minutes, or read from the timings stored with the library
  (``kinematics_lib/data/timings/chapter5.json``, measured by ``save_sweeps(measure_sweeps())``),
  so that the chapter runs in seconds and shows the same table at every run.
* :func:`compare_with_pinocchio` -- kinematics_lib and Pinocchio on the same URDF (ANYmal B):
  agreement and per-call times, measured in the same run.
* :func:`pinocchio_model` -- the same robot as a Pinocchio model (for a model without a URDF,
  e.g. the planar arms of chapters 4 and 5).

Timings depend on the machine and its load: print them in cells tagged ``nbval-ignore-output``
and follow them by a property that holds on every run.
"""

from __future__ import annotations

import ctypes
import datetime
import json
import os
import platform
import time
import timeit
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

import numpy as np

from .. import _validate as check
from ..dynamics.algorithms import aba, coriolis_matrix, crba, forward_dynamics_crba, gravity_torque, nonlinear_effects, rnea
from ..dynamics.builders import random_tree_model
from ..dynamics.model import Model, random_configuration
from ..documents.doc000 import DOC000_TIMING_CLAIMS_US

__all__ = [
    "single_threaded_blas",
    "time_call",
    "fit_power_law",
    "fit_slope",
    "chain_models",
    "ALGORITHMS",
    "ScalingTable",
    "scaling_table",
    "TERMS",
    "SWEEPS",
    "Sweeps",
    "measure_sweeps",
    "stored_sweeps",
    "save_sweeps",
    "STORED_TIMINGS",
    "relative_error",
    "DOC000_CLAIMS_US",
    "PinocchioComparison",
    "compare_with_pinocchio",
    "pinocchio_model",
    "machine_description",
]


_SET_THREADS = ("scipy_openblas_set_num_threads64_", "openblas_set_num_threads64_", "openblas_set_num_threads")
_GET_THREADS = ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_", "openblas_get_num_threads")



def _pinocchio():
    """The optional reference library, or an ImportError naming the extra that installs it."""
    try:
        import pinocchio
    except ImportError:
        raise ImportError("this needs Pinocchio, the optional reference library: "
                          "pip install 'kinematics-lib[reference]' (or pip install pin)") from None
    return pinocchio

def _openblas():
    """(set_num_threads, get_num_threads) of the OpenBLAS bundled with numpy's wheel, or None."""
    libs = Path(np.__file__).parent.parent / "numpy.libs"
    for path in sorted(libs.glob("*openblas*")) if libs.is_dir() else []:
        try:
            lib = ctypes.CDLL(str(path))
        except OSError:
            continue
        set_ = next((getattr(lib, n) for n in _SET_THREADS if hasattr(lib, n)), None)
        get_ = next((getattr(lib, n) for n in _GET_THREADS if hasattr(lib, n)), None)
        if set_ is not None and get_ is not None:
            return set_, get_
    return None


@contextmanager
def single_threaded_blas():
    """Run numpy's OpenBLAS on one thread inside the block; yields False if it cannot be found.

    Several BLAS threads on a shared machine make small dense operations slower and their
    timings erratic (idle worker threads spin and compete for the cores); Pinocchio runs on
    one thread too. Outside the block the previous thread count is restored.
    """
    found = _openblas()
    if found is None:
        yield False
        return
    set_threads, get_threads = found
    before = get_threads()
    set_threads(1)
    try:
        yield True
    finally:
        set_threads(before)


def time_call(f: Callable, *args, min_time: float = 0.02, repeat: int = 5,
              clock: Callable[[], float] = time.thread_time) -> float:
    """Seconds per call of ``f(*args)``: the best of ``repeat`` timeit runs of >= ``min_time`` s each.

    The calls run with single-threaded BLAS (:func:`single_threaded_blas`) after one warm-up
    call. clock: ``time.thread_time`` (default) is the CPU time of the calling thread, which
    other programs sharing the machine do not inflate; ``time.perf_counter`` is wall-clock time.
    """
    min_time = check.positive(min_time, "min_time")
    if int(repeat) < 1:
        raise ValueError(f"repeat must be >= 1, got {repeat}")
    timer = timeit.Timer(lambda: f(*args), timer=clock)
    with single_threaded_blas():
        timer.timeit(1)  # warm-up: first-call costs (caches, allocations) are not the call's
        number, elapsed = 1, timer.timeit(1)
        while elapsed < min_time:  # grow the loop count until one run lasts min_time
            number = max(2 * number, int(1.2 * number * min_time / max(elapsed, 1e-9)))
            elapsed = timer.timeit(number)
        runs = [elapsed] + [timer.timeit(number) for _ in range(int(repeat) - 1)]
    return min(runs) / number


def fit_power_law(n, t) -> tuple[float, float]:
    """(k, c) with t ~ c n^k: the least-squares line through (log n, log t).

    >>> k, c = fit_power_law([2, 4, 8, 16], [3 * 2.0**2, 3 * 4.0**2, 3 * 8.0**2, 3 * 16.0**2])
    >>> round(k, 12), round(c, 12)
    (2.0, 3.0)
    """
    n, t = check.vector(n, None, "n"), check.vector(t, None, "t")
    if n.shape != t.shape or n.shape[0] < 2:
        raise ValueError(f"n and t must have the same length >= 2, got {n.shape[0]} and {t.shape[0]}")
    if np.any(n <= 0) or np.any(t <= 0):
        raise ValueError("n and t must be positive (their logarithms are fitted)")
    if np.ptp(n) == 0:
        raise ValueError("n must contain at least two different sizes")
    k, log_c = np.polyfit(np.log(n), np.log(t), 1)
    return float(k), float(np.exp(log_c))


def fit_slope(n, t) -> float:
    """Slope k of log t against log n (least squares): the measured exponent of t = O(n^k)."""
    return fit_power_law(n, t)[0]


def chain_models(ns: Sequence[int], seed: int = 0) -> list[Model]:
    """One random revolute chain (``random_tree_model(n, rng, chain=True)``) per size in ``ns``."""
    rng = np.random.default_rng(seed)
    return [random_tree_model(int(n), rng, chain=True, joint_types=("revolute",)) for n in ns]


#: name -> f(model, q, v, u): the algorithms timed by :func:`scaling_table` (u is a or tau).
ALGORITHMS: Mapping[str, Callable] = {
    "RNEA": lambda m, q, v, u: rnea(m, q, v, u),
    "ABA": lambda m, q, v, u: aba(m, q, v, u),
    "CRBA": lambda m, q, v, u: crba(m, q),
    "M then solve": forward_dynamics_crba,
}


@dataclass(frozen=True)
class ScalingTable:
    """Seconds per call ``times[name][k]`` of each algorithm on a chain of ``ns[k]`` bodies."""

    ns: np.ndarray
    times: dict

    def slope(self, name: str, n_min: int = 0) -> float:
        """Fitted exponent of ``name`` over the sizes n >= n_min."""
        keep = self.ns >= n_min
        return fit_slope(self.ns[keep], self.times[name][keep])

    def rows(self) -> list[str]:
        """The table as text, microseconds per call (machine-dependent: do not compare)."""
        head = f"{'n':>5}" + "".join(f"{name:>15}" for name in self.times)
        body = [f"{n:>5}" + "".join(f"{self.times[k][i] * 1e6:>12.1f} us" for k in self.times)
                for i, n in enumerate(self.ns)]
        return [head] + body


def scaling_table(ns: Sequence[int], seed: int = 0, min_time: float = 0.01, repeat: int = 3,
                  algorithms: Mapping[str, Callable] | None = None, progress=None) -> ScalingTable:
    """Time each algorithm on random revolute chains of ``ns`` bodies (random q, v, a from ``seed``).

    progress: optional object with ``update()`` (e.g. :class:`kinematics_lib.notebook.widgets.Progress`).
    """
    algorithms = dict(algorithms or ALGORITHMS)
    rng = np.random.default_rng(seed + 1)
    times = {name: np.empty(len(ns)) for name in algorithms}
    for k, model in enumerate(chain_models(ns, seed)):
        q, v, u = random_configuration(model, rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
        for name, f in algorithms.items():
            times[name][k] = time_call(f, model, q, v, u, min_time=min_time, repeat=repeat)
        if progress is not None:
            progress.update()
    return ScalingTable(np.array(ns, dtype=int), times)


#: The terms of the equation of motion timed by chapter 5, section 10 (same signature as ALGORITHMS).
TERMS: Mapping[str, Callable] = {
    "g(q)": lambda m, q, v, u: gravity_torque(m, q),
    "C(q,v) v": lambda m, q, v, u: nonlinear_effects(m, q, v) - gravity_torque(m, q),
    "M(q)": lambda m, q, v, u: crba(m, q),
    "C(q,v)": lambda m, q, v, u: coriolis_matrix(m, q, v),
}


def _dense_solve(m, q, v, u):  # m is the size n here: one LAPACK solve of a well-conditioned n x n system
    return np.linalg.solve(m * np.eye(m) + 1.0, np.ones(m))


#: Chapter 5's sweeps: name -> (chain sizes, seed, algorithm names; "dense solve" times the solve alone).
SWEEPS: Mapping[str, tuple] = {
    "chains": ((2, 4, 8, 16, 32, 64, 128), 0, tuple(ALGORITHMS)),
    "long": ((128, 256, 512, 1024), 1, ("RNEA", "ABA")),
    "solve": ((128, 256, 512, 1024, 2048), 0, ("dense solve",)),
    "terms": ((4, 8, 16, 32, 64), 7, tuple(TERMS)),
}
#: The sweeps as measured for the committed chapter 5 (``save_sweeps(measure_sweeps())``).
STORED_TIMINGS = Path(__file__).resolve().parents[1] / "data" / "timings" / "chapter5.json"


@dataclass(frozen=True)
class Sweeps:
    """Chapter 5's timing sweeps: ``tables[name]`` a :class:`ScalingTable`; ``machine`` and
    ``date`` say where and when they were measured."""

    tables: dict
    machine: str
    date: str

    def __getitem__(self, name: str) -> ScalingTable:
        return self.tables[name]


def measure_sweeps(quick: bool = False, progress=None) -> Sweeps:
    """Time every sweep of :data:`SWEEPS` on this machine (CPU time, single-threaded BLAS; one to
    three minutes). quick: at most three sizes of each, none above 256, shorter measurements (seconds)."""
    tables = {}
    for name, (ns, seed, names) in SWEEPS.items():
        ns = tuple(n for n in ns if n <= 256)[:3] if quick else ns
        kw = dict(min_time=0.005 if quick else 0.02, repeat=3)
        if name == "solve":
            times = {"dense solve": np.array([time_call(_dense_solve, n, None, None, None, **kw) for n in ns])}
            tables[name] = ScalingTable(np.array(ns, dtype=int), times)
        else:
            algorithms = {k: (ALGORITHMS | TERMS)[k] for k in names}
            tables[name] = scaling_table(ns, seed=seed, algorithms=algorithms, **kw)
        if progress is not None:
            progress.update()
    return Sweeps(tables, machine_description(), datetime.date.today().isoformat())


def save_sweeps(sweeps: Sweeps, path=STORED_TIMINGS) -> Path:
    """Write ``sweeps`` as JSON (seconds per call) where :func:`stored_sweeps` reads them."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"machine": sweeps.machine, "date": sweeps.date, "seconds_per_call": {
        name: {"n": [int(n) for n in t.ns], **{k: [float(f"{x:.6g}") for x in v] for k, v in t.times.items()}}
        for name, t in sweeps.tables.items()}}
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return path


def stored_sweeps(path=STORED_TIMINGS) -> Sweeps:
    """The sweeps stored with the library (the same numbers at every run: a chapter that shows them
    is reproducible; :func:`measure_sweeps` measures this machine instead)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    tables = {name: ScalingTable(np.array(cols.pop("n"), dtype=int), {k: np.array(v, dtype=float) for k, v in cols.items()})
              for name, cols in data["seconds_per_call"].items()}
    return Sweeps(tables, data["machine"], data["date"])


def relative_error(x, y) -> float:
    """max |x - y| / max |y|: the error of x relative to the size of the reference y."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    return float(np.abs(x - y).max() / max(float(np.abs(y).max()), 1e-300))


#: Document 000, section 3.5.3: ANYmal timings "on an Intel i7 @ 2.8 GHz", microseconds (upper bounds);
#: the same dict as ``kinematics_lib.DOC000_TIMING_CLAIMS_US`` (documents/doc000.py).
DOC000_CLAIMS_US = DOC000_TIMING_CLAIMS_US


@dataclass(frozen=True)
class PinocchioComparison:
    """errors[name]: max relative difference over the states; times[name] = (kl, pin) seconds/call;
    pin_only[name]: seconds/call of Pinocchio functions kinematics_lib does not have."""

    errors: dict
    times: dict
    pin_only: dict

    def ratio(self, name: str) -> float:
        """How many times slower kinematics_lib is than Pinocchio for ``name``."""
        ours, theirs = self.times[name]
        return ours / theirs

    def rows(self, claims: Mapping[str, float] | None = None) -> list[str]:
        """A text table in microseconds per call, with the documents' claims beside (machine-dependent)."""
        claims = DOC000_CLAIMS_US if claims is None else claims
        out = [f"{'':24}{'doc claim':>11}{'kinematics_lib':>16}{'Pinocchio':>12}{'ratio':>8}"]
        for name, (ours, theirs) in self.times.items():
            claim = f"< {claims[name]:.0f} us" if name in claims else "-"
            out.append(f"{name:24}{claim:>11}{ours * 1e6:>13.1f} us{theirs * 1e6:>9.2f} us{ours / theirs:>7.0f}x")
        for name, theirs in self.pin_only.items():
            claim = f"< {claims[name]:.0f} us" if name in claims else "-"
            out.append(f"{name:24}{claim:>11}{'(none)':>16}{theirs * 1e6:>9.2f} us{'':>8}")
        return out


def pinocchio_model(model: Model):
    """The kinematics_lib ``model`` as a ``pinocchio.Model`` (same bodies, joints, inertias, gravity).

    Joint i hangs on joint parent[i] + 1 of Pinocchio (0 is its universe) at T_tree[i]; revolute
    and continuous joints become RevoluteUnaligned, prismatic ones PrismaticUnaligned, a free
    base FreeFlyer, so q and v mean the same in both (a continuous joint keeps one coordinate).
    Body i's inertia is Pinocchio's Inertia(mass, com, I_com). Needs Pinocchio (``pin``).
    """
    pin = _pinocchio()

    from ..geometry.spatial import inertia_parts

    model = check.model(model, "model")
    out = pin.Model()
    out.gravity = pin.Motion(np.asarray(model.gravity, dtype=float), np.zeros(3))
    joint_ids = []
    for i in range(model.nb):
        kind, axis = model.joint_types[i], np.asarray(model.axes[i], dtype=float)
        joint = {"free": lambda: pin.JointModelFreeFlyer(),
                 "prismatic": lambda: pin.JointModelPrismaticUnaligned(axis)}.get(
                     kind, lambda: pin.JointModelRevoluteUnaligned(axis))()
        T = np.asarray(model.T_tree[i], dtype=float)
        parent = 0 if model.parent[i] < 0 else joint_ids[model.parent[i]]
        jid = out.addJoint(parent, joint, pin.SE3(T[:3, :3], T[:3, 3]), model.body_joint[i])
        mass, com, I_com = inertia_parts(model.inertia[i])
        out.appendBodyToJoint(jid, pin.Inertia(mass, com, I_com), pin.SE3.Identity())
        joint_ids.append(jid)
    return out


def compare_with_pinocchio(urdf, n_states: int = 5, seed: int = 0, min_time: float = 0.02,
                           repeat: int = 5, foot: str = "LF_FOOT") -> PinocchioComparison:
    """RNEA, CRBA, ABA (and a foot Jacobian) of kinematics_lib vs Pinocchio on a floating-base URDF.

    Both read ``urdf`` with a free-flyer root. Pinocchio's C++ ``crba`` fills only the upper
    triangle of ``data.M``; the Python binding (Pinocchio 4.1, pinned here) returns the full symmetric
    matrix, and ``data.M`` is then symmetric too (chapter 5 checks it). M is compared as its
    upper triangle mirrored, which is the same matrix either way (not when timed). Times are CPU seconds
    per single call from Python (call overhead included for both). ``pin_only['full update']``
    times Pinocchio's computeAllTerms + computeABADerivatives (document 000's "full dynamics
    update including all derivatives"), which kinematics_lib has no counterpart for.
    """
    pin = _pinocchio()

    from ..dynamics.frames import frame_jacobian
    from ..dynamics.urdf import load_urdf

    ours = load_urdf(urdf, floating_base=True)
    ref = pin.buildModelFromUrdf(str(urdf), pin.JointModelFreeFlyer())
    data = ref.createData()
    rng = np.random.default_rng(seed)
    states = [(random_configuration(ours, rng), rng.normal(size=ours.nv), rng.normal(size=ours.nv))
              for _ in range(n_states)]

    def pin_crba(q):
        M = pin.crba(ref, data, q)
        return np.triu(M) + np.triu(M, 1).T

    fid = ref.getFrameId(foot)
    pairs = {  # name: (kinematics_lib, Pinocchio as timed, Pinocchio as compared)
        "RNEA": (lambda q, v, a: rnea(ours, q, v, a), lambda q, v, a: pin.rnea(ref, data, q, v, a), None),
        "CRBA": (lambda q, v, a: crba(ours, q), lambda q, v, a: pin.crba(ref, data, q), lambda q, v, a: pin_crba(q)),
        "ABA": (lambda q, v, a: aba(ours, q, v, a), lambda q, v, a: pin.aba(ref, data, q, v, a), None),
        "foot Jacobian": (lambda q, v, a: frame_jacobian(ours, q, foot),
                          lambda q, v, a: pin.computeFrameJacobian(ref, data, q, fid, pin.LOCAL_WORLD_ALIGNED), None),
    }
    errors = {name: max(relative_error(f(*s), (h or g)(*s)) for s in states) for name, (f, g, h) in pairs.items()}
    times = {name: (time_call(f, *states[0], min_time=min_time, repeat=repeat),
                    time_call(g, *states[0], min_time=min_time, repeat=repeat)) for name, (f, g, _) in pairs.items()}

    def full_update(q, v, a):  # all terms (M, h, Jacobians, CoM, energies) and the ABA derivatives
        pin.computeAllTerms(ref, data, q, v)
        pin.computeABADerivatives(ref, data, q, v, a)

    return PinocchioComparison(errors, times, {"full update": time_call(full_update, *states[0], min_time=min_time,
                                                                        repeat=repeat)})


def machine_description() -> str:
    """CPU model (from /proc/cpuinfo when available), logical cores, load and library versions."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next((line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")), cpu)
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    versions = f"Python {platform.python_version()}, numpy {np.__version__}"
    try:
        import pinocchio as pin

        versions += f", pinocchio {pin.__version__}"
    except ImportError:
        versions += ", pinocchio not installed"
    return f"CPU: {cpu}; logical cores (nproc): {os.cpu_count()}; load average: {load}; {versions}"
