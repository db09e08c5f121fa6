"""Coulomb friction cones and their polyhedral (pyramid) approximations.

A point contact with the ground (normal +z) transmits a force f = (f_x, f_y, f_z) [N] in the
exact cone ||f_t|| <= mu f_n, f_t = (f_x, f_y), f_n = f_z >= 0. A pyramid with k faces
replaces the circle of radius mu f_n by a regular k-gon:

* circumscribed (the k-gon around the circle): face j is  cos(th_j) f_x + sin(th_j) f_y <= mu f_z,
  th_j = 2 pi j / k; it admits up to mu f_n / cos(pi/k) at its corners (not conservative);
* inscribed (the k-gon inside the circle): the same faces at mu cos(pi/k); it loses up to a
  fraction 1 - cos(pi/k) at the middle of a face (conservative).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check

__all__ = ["friction_pyramid", "pyramid_worst_case_error", "in_friction_cone", "pyramid_tangential_limit"]

MAX_FACES = 1024


def _faces(n_faces: int) -> np.ndarray:
    return 2.0 * np.pi * np.arange(n_faces) / n_faces


def friction_pyramid(mu, n_faces=4, inscribed=True) -> np.ndarray:
    """The linearised friction cone  A f <= 0  for a contact normal along +z.

    mu: friction coefficient (>= 0); n_faces: number of faces k (3 ... 1024); inscribed: True for
    the pyramid inside the exact cone (conservative), False for the one around it.
    Returns A of shape (k + 1, 3): rows [cos th_j, sin th_j, -mu c] with th_j = 2 pi j / k and
    c = cos(pi/k) (inscribed) or 1 (circumscribed), then [0, 0, -1] (f_z >= 0).
    For k = 4, circumscribed, these are the rows (+-1, 0, -mu), (0, +-1, -mu) of exercise 3.3.
    """
    mu = check.nonnegative(mu, "mu")
    k = check.integer(n_faces, "n_faces", 3, MAX_FACES)
    c = np.cos(np.pi / k) if check.flag(inscribed, "inscribed") else 1.0
    th = _faces(k)
    A = np.zeros((k + 1, 3))
    A[:k, 0], A[:k, 1], A[:k, 2] = np.cos(th), np.sin(th), -mu * c
    A[:k, :2][np.abs(A[:k, :2]) < 1e-15] = 0.0  # exact zeros on the axes
    A[k, 2] = -1.0
    return A


def pyramid_worst_case_error(n_faces, inscribed=True) -> float:
    """The worst relative error of a k-face pyramid against the exact cone (dimensionless).

    Inscribed: it admits at least cos(pi/k) mu f_n in every direction, so it loses up to
    1 - cos(pi/k) (at the middle of a face). Circumscribed: it admits up to mu f_n / cos(pi/k)
    (at a corner), an excess of 1/cos(pi/k) - 1. k = 4: 0.2929 and 0.4142.
    """
    k = check.integer(n_faces, "n_faces", 3, MAX_FACES)
    c = np.cos(np.pi / k)
    return float(1.0 - c) if check.flag(inscribed, "inscribed") else float(1.0 / c - 1.0)


def pyramid_tangential_limit(mu, n_faces, inscribed, phi) -> np.ndarray:
    """The largest |f_t| / f_n a pyramid admits in the tangential direction(s) phi [rad].

    Along (cos phi, sin phi): min over the faces with cos(phi - th_j) > 0 of mu c / cos(phi - th_j).
    phi: a number or an array; returns an array of the same shape. The exact cone gives mu.
    """
    mu = check.nonnegative(mu, "mu")
    k = check.integer(n_faces, "n_faces", 3, MAX_FACES)
    c = np.cos(np.pi / k) if check.flag(inscribed, "inscribed") else 1.0
    phi = check.scalar(phi, "phi") if np.ndim(phi) == 0 else check.vector(phi, None, "phi")
    if np.size(phi) == 0:
        raise check.InputError("phi must hold at least one direction, got an empty array")
    phi = np.mod(phi, 2.0 * np.pi)
    cos = np.cos(np.asarray(phi)[..., None] - _faces(k))
    with np.errstate(divide="ignore"):
        limit = np.where(cos > 1e-12, mu * c / np.where(cos > 1e-12, cos, 1.0), np.inf)
    return limit.min(axis=-1)


def in_friction_cone(f, mu, tol=1e-9) -> bool:
    """True when f = (f_x, f_y, f_z) [N] lies in the exact cone ||f_t|| <= mu f_z (within tol [N])."""
    f = check.vector(f, 3, "f")
    mu = check.nonnegative(mu, "mu")
    tol = check.positive(tol, "tol")
    return bool(f[2] >= -tol and np.hypot(f[0], f[1]) <= mu * f[2] + tol)
