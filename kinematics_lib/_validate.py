"""Input checks shared by every module.

Each helper converts its argument to a float array and raises ``ValueError`` naming the
argument and what was expected, so that bad input never turns into a silent NaN later.
"""

from __future__ import annotations

import numpy as np

__all__ = ["InputError", "vector", "matrix", "scalar", "rotation", "transform", "positive", "one_of"]


class InputError(ValueError):
    """Invalid input to a public function; the message names the argument and what was expected.

    A subclass of ValueError, so ``except ValueError`` catches it.
    """


def _finite(x: np.ndarray, name: str) -> np.ndarray:
    if not np.all(np.isfinite(x)):
        raise InputError(f"{name} must contain only finite numbers, got {x!r}")
    return x


def _array(x, name: str) -> np.ndarray:
    try:
        return np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be numeric, got {x!r}") from None


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


def vector(x, n: int | None, name: str) -> np.ndarray:
    """A finite vector of shape (n,) (any length when n is None)."""
    a = _array(x, name)
    if a.ndim != 1 or (n is not None and a.shape[0] != n):
        want = f"({n},)" if n is not None else "(n,)"
        raise InputError(f"{name} must have shape {want}, got shape {a.shape}")
    return _finite(a, name)


def matrix(x, shape: tuple[int | None, int | None], name: str) -> np.ndarray:
    """A finite 2-D array; None in ``shape`` accepts any size on that axis."""
    a = _array(x, name)
    ok = a.ndim == 2 and all(s is None or s == d for s, d in zip(shape, a.shape))
    if not ok:
        want = "(" + ", ".join("n" if s is None else str(s) for s in shape) + ")"
        raise InputError(f"{name} must have shape {want}, got shape {a.shape}")
    return _finite(a, name)


def rotation(R, name: str = "R", tol: float = 1e-6) -> np.ndarray:
    """A 3x3 rotation matrix: R^T R = I and det R = +1 within ``tol``."""
    R = matrix(R, (3, 3), name)
    err = np.abs(R.T @ R - np.eye(3)).max()
    if err > tol or np.linalg.det(R) < 0.0:
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


def one_of(value, options, name: str):
    """``value`` if it is one of ``options``."""
    if value not in options:
        raise InputError(f"{name} must be one of {sorted(options)}, got {value!r}")
    return value
