"""Input checks shared by every module (the library's input contract, issue 7).

Each helper converts its argument and raises :class:`InputError` (a ``ValueError``) naming the
argument and what was expected, so that bad input never turns into a silent NaN later. Call them
once, at the public boundary of a function; inner helpers take checked values.

Arrays: :func:`scalar`, :func:`positive`, :func:`nonnegative`, :func:`vector`, :func:`matrix`,
:func:`integer`, :func:`batch_vector` (one vector or a batch of them, as the dynamics core takes
q, v, a) and :func:`same_batch`. Geometry: :func:`rotation`, :func:`transform`, :func:`unit_quaternion`.
Physics: :func:`rotational_inertia`, :func:`spatial_inertia` (one 6x6 or a stack).
Objects: :func:`model` (a ``kinematics_lib.Model``), :func:`instance`, :func:`function`,
:func:`rng`, :func:`text`, :func:`flag`, :func:`one_of`. Results: :func:`finite_result`
(the overflow guard: a non-finite result from finite input raises instead of returning).

This module imports nothing of kinematics_lib (it sits below every layer).
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["InputError", "PhysicsWarning", "vector", "matrix", "scalar", "positive", "nonnegative", "integer", "rotation",
           "transform", "unit_quaternion", "rotational_inertia", "spatial_inertia", "model", "instance",
           "function", "rng", "text", "flag", "one_of", "finite_result", "describe", "batch_vector", "same_batch"]


class InputError(ValueError):
    """Invalid input to a public function; the message names the argument and what was expected.

    A subclass of ValueError, so ``except ValueError`` catches it.
    """


class PhysicsWarning(UserWarning):
    """Physically impossible data read from a file and kept as given (e.g. a vendor's link inertia
    that breaks the triangle inequality), or a file feature approximated (a mimic joint loaded as an
    independent joint). The message names the file, the element and the problem. Raise it to an
    error with ``warnings.simplefilter("error", kl.PhysicsWarning)``, or pass ``strict=True`` where
    a loader offers it.
    """


def describe(x) -> str:
    """A short description of a value for an error message (arrays by shape, long reprs cut)."""
    if isinstance(x, np.ndarray) and x.size > 6:
        return f"an array of shape {x.shape}"
    text_ = repr(x)
    return text_ if len(text_) <= 80 else text_[:77] + "..."


def _finite(x: np.ndarray, name: str) -> np.ndarray:
    if not np.isfinite(x).all():
        bad = "NaN" if np.isnan(x).any() else "inf"
        raise InputError(f"{name} must contain only finite numbers, got {bad} in {describe(x)}")
    return x


def _array(x, name: str) -> np.ndarray:
    if x is None or isinstance(x, (str, bytes)):
        raise InputError(f"{name} must be numeric, got {describe(x)}")
    try:
        return np.asarray(x, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"{name} must be numeric, got {describe(x)}") from None


def scalar(x, name: str) -> float:
    """A finite real number."""
    a = _array(x, name)
    if a.shape != ():
        raise InputError(f"{name} must be a scalar, got an array of shape {a.shape}")
    return float(_finite(a, name))


def positive(x, name: str) -> float:
    """A finite number > 0."""
    value = scalar(x, name)
    if value <= 0.0:
        raise InputError(f"{name} must be positive, got {value}")
    return value


def nonnegative(x, name: str) -> float:
    """A finite number >= 0."""
    value = scalar(x, name)
    if value < 0.0:
        raise InputError(f"{name} must be >= 0, got {value}")
    return value


def integer(x, name: str, low: int | None = None, high: int | None = None) -> int:
    """An integer in [low, high] (either bound optional); integral floats are accepted, bools not.

    Every count that sets the length of a loop has a ``high`` bound, so no input can make a
    public function run (nearly) forever.
    """
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (numbers.Integral, float, np.floating)):
        raise InputError(f"{name} must be an integer, got {describe(x)}")
    if not isinstance(x, numbers.Integral):  # a float only when it is an exactly representable integer
        if not np.isfinite(x) or float(x) != int(x) or abs(x) > 2.0**53:
            raise InputError(f"{name} must be an integer, got {describe(x)}")
    value = int(x)
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise InputError(f"{name} must be an integer in [{lo}, {hi}], got {value}")
    return value


def vector(x, n: int | None, name: str) -> np.ndarray:
    """A finite vector of shape (n,) (any length when n is None)."""
    a = _array(x, name)
    if a.ndim != 1 or (n is not None and a.shape[0] != n):
        want = f"({n},)" if n is not None else "(n,)"
        raise InputError(f"{name} must have shape {want}, got shape {a.shape}")
    return _finite(a, name)


def batch_vector(x, n: int, name: str, batch: bool = True) -> np.ndarray:
    """A finite float array of shape (n,), or (N, n) -- a batch of N vectors -- when ``batch``.

    The fast path (a float ndarray of the right shape) costs well under a microsecond: the
    dynamics functions call this once per public call, on their hot path.
    """
    if type(x) is np.ndarray and x.dtype == np.float64 and x.shape[-1:] == (n,) and (x.ndim == 1 or batch and x.ndim == 2):
        if x.ndim == 1:
            if x.dot(_zeros(n)) == 0.0:  # x . 0 is NaN iff x holds a NaN or an inf
                return x
        elif x.shape[0] > 0 and np.isfinite(x).all():
            return x
    a = _array(x, name)
    if a.ndim == 1 or not batch:
        return vector(a, n, name)
    if a.ndim != 2 or a.shape[1] != n or a.shape[0] == 0:
        raise InputError(f"{name} must have shape ({n},) or (N, {n}) (a batch of N >= 1), got shape {a.shape}")
    return _finite(a, name)


_ZEROS: dict = {}


def _zeros(n: int) -> np.ndarray:
    z = _ZEROS.get(n)
    if z is None:
        z = _ZEROS[n] = np.zeros(n)
        z.setflags(write=False)
    return z


def same_batch(arrays, names) -> None:
    """Arrays from :func:`batch_vector` agree in their batch shape: all (n_k,) or all (N, n_k)."""
    first = arrays[0].shape[:-1]
    for a, name in zip(arrays[1:], names[1:]):
        if a.shape[:-1] != first:
            raise InputError(f"{name} must be a batch like {names[0]}: {names[0]} has shape {arrays[0].shape}, "
                             f"{name} has shape {a.shape}")


def matrix(x, shape: tuple[int | None, int | None], name: str) -> np.ndarray:
    """A finite 2-D array; None in ``shape`` accepts any size on that axis."""
    a = _array(x, name)
    ok = a.ndim == 2 and all(s is None or s == d for s, d in zip(shape, a.shape))
    if not ok:
        want = "(" + ", ".join("n" if s is None else str(s) for s in shape) + ")"
        raise InputError(f"{name} must have shape {want}, got shape {a.shape}")
    return _finite(a, name)


def agreeing(x, shape: tuple, name: str, other: str) -> np.ndarray:
    """A finite array of exactly ``shape``, which another argument ``other`` fixed.

    The message names both arguments, since either may be the wrong one
    ("tau must have shape (9, 3) to match W, got shape (8, 3)").
    """
    a = _array(x, name)
    if a.shape != tuple(shape):
        raise InputError(f"{name} must have shape {tuple(shape)} to match {other}, got shape {a.shape}")
    return _finite(a, name)


def rotation(R, name: str = "R", tol: float = 1e-6) -> np.ndarray:
    """A 3x3 rotation matrix: R^T R = I and det R = +1 within ``tol``."""
    R = matrix(R, (3, 3), name)
    err = np.abs(R.T @ R - np.eye(3)).max()
    if not err <= tol or np.linalg.det(R) < 0.0:
        raise InputError(
            f"{name} must be a rotation matrix (orthonormal, det +1); "
            f"max |R^T R - I| = {err:.2e}, det = {np.linalg.det(R):.6f}"
        )
    return R


def transform(T, name: str = "T", tol: float = 1e-6) -> np.ndarray:
    """A 4x4 homogeneous transform with a rotation block and last row [0 0 0 1]."""
    T = matrix(T, (4, 4), name)
    if np.abs(T[3] - (0.0, 0.0, 0.0, 1.0)).max() > tol:
        raise InputError(f"{name} must have last row [0, 0, 0, 1], got {T[3]}")
    rotation(T[:3, :3], f"{name}[:3, :3]", tol)
    return T


def unit_quaternion(quat, name: str = "quat", tol: float = 1e-6) -> np.ndarray:
    """A quaternion (x, y, z, w) of norm 1 within ``tol`` (a zero quaternion is no rotation)."""
    quat = vector(quat, 4, name)
    norm2 = float(quat @ quat)
    if not abs(norm2 - 1.0) <= tol:
        raise InputError(f"{name} must be a unit quaternion (x, y, z, w), got norm {np.sqrt(norm2):.6g}")
    return quat


def _inertia_problem(I_c: np.ndarray, tol: float, scale: float | None = None) -> str | None:
    """Why a 3x3 rotational inertia about the CoM is impossible, or None when it is fine."""
    scale = max(float(np.abs(I_c).max()) if scale is None else scale, 1e-300)
    if np.abs(I_c - I_c.T).max() > 1e-9 * scale:
        return "it is not symmetric"
    lam = np.linalg.eigvalsh(0.5 * (I_c + I_c.T))
    slack = tol * scale + 1e-12
    if lam[0] < -slack:
        return f"it is not positive semi-definite (principal moments {np.array2string(lam, precision=4)})"
    if lam[0] + lam[1] < lam[2] - slack:  # the sum of the two smallest moments bounds the largest
        return (f"its principal moments {np.array2string(lam, precision=4)} violate the triangle "
                "inequality I1 + I2 >= I3")
    return None


def rotational_inertia(I_com, name: str = "I_com", tol: float = 1e-6, scale: float | None = None) -> np.ndarray:
    """A physical rotational inertia about the centre of mass (3, 3), kg m^2.

    Symmetric, positive semi-definite, and its principal moments satisfy the triangle inequality
    I_1 + I_2 >= I_3 (and cyclic: with I_xx = sum m (y^2 + z^2) etc., I_xx + I_yy - I_zz =
    2 sum m z^2 >= 0), all within ``tol`` times ``scale`` (default: the largest entry of I_com;
    e.g. the rigid body a link belongs to, so that a negligible placeholder inertia passes). A
    zero inertia (a point mass, a massless link) is allowed.
    """
    I_c = matrix(I_com, (3, 3), name)
    problem = _inertia_problem(I_c, tol, scale)
    if problem:
        raise InputError(f"{name} must be a physical rotational inertia: {problem}")
    return I_c


def _skew_part(A: np.ndarray) -> np.ndarray:
    return 0.5 * np.array([A[2, 1] - A[1, 2], A[0, 2] - A[2, 0], A[1, 0] - A[0, 1]])


def _spatial_inertia_problem(I: np.ndarray, tol: float) -> str | None:
    """Why a 6x6 matrix is not the spatial inertia of a rigid body ([linear; angular]), or None."""
    m = I[0, 0]
    scale = max(float(np.abs(I).max()), 1e-300)
    if np.abs(I - I.T).max() > 1e-9 * scale:
        return "it is not symmetric"
    if m < 0.0:
        return f"its mass I[0, 0] = {m:.6g} is negative"
    if np.abs(I[:3, :3] - m * np.eye(3)).max() > 1e-9 * scale:
        return "its upper-left block is not m * identity"
    mC = I[3:, :3]  # = m [c]x
    if np.abs(mC + mC.T).max() > 1e-9 * scale:
        return "its lower-left block is not m [c]x (skew-symmetric)"
    if m == 0.0:
        if np.abs(mC).max() > 1e-9 * scale:
            return "it has zero mass but a non-zero first moment"
        C = np.zeros((3, 3))
    else:
        c = _skew_part(mC) / m
        C = np.array([[0.0, -c[2], c[1]], [c[2], 0.0, -c[0]], [-c[1], c[0], 0.0]])
    # I_c = I_O + m [c]x^2, with rounding relative to the entries of I (not of the smaller I_c)
    problem = _inertia_problem(I[3:, 3:] + m * C @ C, tol, scale)
    return f"its rotational inertia about the centre of mass: {problem}" if problem else None


def spatial_inertia(I, name: str = "I", tol: float = 1e-6) -> np.ndarray:
    """The spatial inertia of a rigid body (6, 6), or a stack of them (n, 6, 6) named ``name[i]``.

    I = [[m 1, -m [c]x], [m [c]x, I_c - m [c]x^2]] with m >= 0 and I_c a physical rotational
    inertia (:func:`rotational_inertia`). A zero matrix (a massless body) is allowed.
    """
    a = _array(I, name)
    if a.shape[-2:] != (6, 6) or a.ndim not in (2, 3):
        raise InputError(f"{name} must have shape (6, 6) (or (n, 6, 6)), got shape {a.shape}")
    _finite(a, name)
    stack = a[None] if a.ndim == 2 else a
    for i, Ii in enumerate(stack):
        problem = _spatial_inertia_problem(Ii, tol)
        if problem:
            label = name if a.ndim == 2 else f"{name}[{i}]"
            raise InputError(f"{label} must be a rigid body's spatial inertia: {problem}")
    return a


def _class_names(x) -> set:
    return {c.__name__ for c in type(x).__mro__ if c.__module__.startswith("kinematics_lib")}


def model(m, name: str = "model"):
    """A :class:`kinematics_lib.Model` (checked by class, without importing the library)."""
    if type(m).__name__ == "Model" and type(m).__module__ == "kinematics_lib.dynamics.model":
        return m  # the fast path: one public dynamics call checks its model once
    if "Model" not in _class_names(m):
        raise InputError(f"{name} must be a kinematics_lib Model (e.g. from kl.load_urdf or "
                         f"kl.planar_chain_model), got {describe(m)}")
    return m


def instance(x, cls, name: str):
    """``x`` if it is an instance of ``cls`` (a type or a tuple of types)."""
    if not isinstance(x, cls):
        names = " or ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
        raise InputError(f"{name} must be a {names}, got {describe(x)}")
    return x


def function(f, name: str):
    """A callable."""
    if not callable(f):
        raise InputError(f"{name} must be a callable, got {describe(f)}")
    return f


def rng(x, name: str = "rng") -> np.random.Generator:
    """A numpy random Generator (``np.random.default_rng(seed)``)."""
    if not isinstance(x, np.random.Generator):
        raise InputError(f"{name} must be a numpy Generator (np.random.default_rng(seed)), got {describe(x)}")
    return x


def text(x, name: str) -> str:
    """A string."""
    if not isinstance(x, str):
        raise InputError(f"{name} must be a string, got {describe(x)}")
    return x


def flag(x, name: str) -> bool:
    """A bool (True/False; numpy bools too) -- not a string such as 'False', which is truthy."""
    if not isinstance(x, (bool, np.bool_)):
        raise InputError(f"{name} must be True or False, got {describe(x)}")
    return bool(x)


def one_of(value, options, name: str):
    """``value`` if it is one of ``options``."""
    try:
        known = value in options
    except TypeError:  # an unhashable value (a list, an array) cannot be an option name
        known = False
    if not known:
        raise InputError(f"{name} must be one of {sorted(options, key=str)}, got {describe(value)}")
    return value


def finite_result(value, name: str, inputs: str):
    """The overflow guard: ``value`` (an array, a number or a tuple of them) if it is finite.

    Otherwise raise InputError: finite inputs gave a non-finite ``name``, which means the
    computation overflowed; ``inputs`` names the arguments whose size is to blame.
    """
    if type(value) is np.ndarray and value.dtype == np.float64 and 0 < value.size <= 4096:
        if value.reshape(-1).dot(_zeros(value.size)) == 0.0:  # x . 0 is NaN iff x holds a NaN or an inf
            return value
    parts = value if isinstance(value, tuple) else (value,)
    for part in parts:
        if not np.isfinite(np.asarray(part, dtype=float)).all():
            raise InputError(f"{name} overflowed (not finite) although the inputs were finite: "
                             f"{inputs} too large")
    return value
