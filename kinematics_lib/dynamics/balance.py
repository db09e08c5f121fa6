"""Balance points on flat ground: centre of pressure (压力中心), ZMP (零力矩点) and CMP (质心力矩枢轴点).

Ground plane z = 0 (``zmp``, ``cmp``) or the contacts' common height (``center_of_pressure``);
gravity g_vec = (0, 0, -g). With the total ground reaction force F = m (p_G_ddot - g_vec) and the
rate of centroidal angular momentum L_dot = sum_i (p_i - p_G) x f_i:

* centre of pressure: the point of the ground about which the contact forces have no horizontal
  moment, sum_i p_i^xy f_i^z / sum_i f_i^z;
* zero-moment point: the same point computed from the motion (p_G, p_G_ddot, L_dot) -- on flat
  ground ZMP = CoP;
* centroidal moment pivot (Popovic, Goswami & Herr 2005): where the line through G along F meets
  the ground, x_G - z_G F_x / F_z. ZMP = CMP exactly when the horizontal part of L_dot is zero.

The linear inverted pendulum (LIPM, 线性倒立摆; Kajita 2001): CoM at constant height z, no L_dot,
foot (the ZMP) at p, so x_ddot = omega^2 (x - p) with omega = sqrt(g0 / z). Its capture point
(捕获点; Pratt 2006) xi = x + x_dot / omega is where the foot must be for the CoM to come to
rest above it.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check

__all__ = ["center_of_pressure", "zmp", "cmp", "capture_point", "lipm_trajectory"]


def center_of_pressure(points, forces, tol: float = 1e-9) -> np.ndarray:
    """p_CoP (2,): sum_i p_i^xy f_i^z / sum_i f_i^z for contacts on flat ground (m).

    points (k, 3) contact positions, all at the same height (within ``tol`` m); forces (k, 3) the
    contact forces on the robot (N). The total normal force must be positive: a foot that is
    not pushed on the ground has no centre of pressure (document 000, section 3.2.2, "ZMP").
    """
    P = check.matrix(points, (None, 3), "points")
    F = check.matrix(forces, (None, 3), "forces")
    if F.shape[0] != P.shape[0]:
        raise check.InputError(f"forces must have shape ({P.shape[0]}, 3), one row per row of points, "
                               f"got shape {F.shape}")
    if P.shape[0] == 0:
        raise check.InputError("points must list at least one contact, got shape (0, 3)")
    tol = check.positive(tol, "tol")
    spread = float(P[:, 2].max() - P[:, 2].min())
    if not spread <= tol * max(1.0, float(np.abs(P[:, 2]).max())):
        raise check.InputError(f"points must lie on flat ground at one height: their z spread over {spread:.3g} m")
    fz = float(F[:, 2].sum())
    if not fz > 0.0:
        raise check.InputError(f"forces: the total normal force must be positive (sum f_z = {fz:.6g} N): "
                               "without a push on the ground there is no centre of pressure")
    return check.finite_result(P[:, :2].T @ F[:, 2] / fz, "the centre of pressure", "points and forces")


def _com_motion(p_com, a_com, g) -> tuple[np.ndarray, np.ndarray, float, float]:
    p = check.vector(p_com, 3, "p_com")
    a = check.vector(a_com, 3, "a_com")
    g = check.positive(g, "g")
    if not p[2] > 0.0:
        raise check.InputError(f"p_com must be above the ground plane z = 0, got z = {p[2]:.6g} m")
    gz = g + a[2]
    if not gz > 0.0:
        raise check.InputError(f"a_com: g + z_ddot = {gz:.6g} m/s^2 <= 0 means no push on the ground "
                               "(the robot is in free fall or pulled): ZMP and CMP are undefined")
    return p, a, g, gz


def zmp(p_com, a_com, mass, dL=None, g: float = 9.81) -> np.ndarray:
    """p_ZMP (2,) on the ground z = 0 from the centroidal motion (m).

    x_zmp = x - z x_ddot / (g + z_ddot) - L_dot_y / (m (g + z_ddot)),
    y_zmp = y - z y_ddot / (g + z_ddot) + L_dot_x / (m (g + z_ddot)).
    p_com (3,) CoM position (z > 0, m), a_com (3,) CoM acceleration (m/s^2), mass (kg),
    dL (3,) rate of angular momentum about the CoM, world axes (N m; None = 0), g > 0 (m/s^2).
    With dL = 0 and z_ddot = 0 this is the linear inverted pendulum x - (z / g) x_ddot.
    """
    p, a, g, gz = _com_motion(p_com, a_com, g)
    m = check.positive(mass, "mass")
    dL = np.zeros(3) if dL is None else check.vector(dL, 3, "dL")
    out = p[:2] - p[2] * a[:2] / gz + np.array([-dL[1], dL[0]]) / (m * gz)
    return check.finite_result(out, "the ZMP", "p_com, a_com, dL and mass")


def cmp(p_com, a_com, g: float = 9.81) -> np.ndarray:
    """p_CMP (2,): where the line through the CoM along the ground reaction force meets z = 0 (m).

    F = m (a_com - (0, 0, -g)), so p_CMP = p_G^xy - z_G a^xy / (g + z_ddot) (Popovic, Goswami & Herr
    2005). It differs from the ZMP by L_dot^xy / (m (g + z_ddot)); it is *not* the CoM's ground
    projection (which document 000, section 3.2.2, calls "CMP").
    """
    p, a, g, gz = _com_motion(p_com, a_com, g)
    return check.finite_result(p[:2] - p[2] * a[:2] / gz, "the CMP", "p_com and a_com")


def _lipm_state(com, com_velocity, height, g) -> tuple[np.ndarray, np.ndarray, float]:
    x = check.vector(com, 2, "com")
    xd = check.vector(com_velocity, 2, "com_velocity")
    z = check.positive(height, "height")
    omega = float(np.sqrt(check.positive(g, "g") / z))
    return x, xd, omega


def capture_point(com, com_velocity, height, g: float = 9.81) -> np.ndarray:
    """Capture point xi (2,) of the linear inverted pendulum: xi = x + x_dot / omega (m).

    com (2,) horizontal CoM position (m), com_velocity (2,) its velocity (m/s), height > 0 the
    constant CoM height above the ground (m), g > 0 the magnitude of gravity g0 (m/s^2);
    omega = sqrt(g0 / height). A foot (ZMP) placed at xi brings the CoM to rest above it; a foot
    anywhere else lets the divergent component x + x_dot / omega - p grow as exp(omega t).

    >>> capture_point([0.0, 0.0], [0.4, 0.0], 0.9).round(4)    # pushed to 0.4 m/s: step 12 cm
    array([0.1212, 0.    ])
    """
    x, xd, omega = _lipm_state(com, com_velocity, height, g)
    return check.finite_result(x + xd / omega, "the capture point", "com, com_velocity, height and g")


def lipm_trajectory(com, com_velocity, foot, height, t, g: float = 9.81) -> tuple[np.ndarray, np.ndarray]:
    """CoM position and velocity (N, 2) each of the LIPM x_ddot = omega^2 (x - foot) at times t (N,).

    Closed form with d = x - foot: d(t) = d0 cosh(omega t) + (x_dot0 / omega) sinh(omega t).
    com, com_velocity (2,) at t = 0 (m, m/s); foot (2,) the fixed ZMP (m); height > 0 (m);
    t (N,) times >= 0 (s); g > 0 the magnitude g0 (m/s^2).

    >>> x, xd = lipm_trajectory([0.0, 0.0], [0.4, 0.0], capture_point([0.0, 0.0], [0.4, 0.0], 0.9), 0.9, [0.0, 5.0])
    >>> bool(abs(xd[-1, 0]) < 1e-6)    # foot at the capture point: at rest after 5 s
    True
    """
    x, xd, omega = _lipm_state(com, com_velocity, height, g)
    z = float(height)
    p = check.vector(foot, 2, "foot")
    t = check.vector(t, None, "t")
    if t.size == 0:
        raise check.InputError("t must hold at least one time, got shape (0,)")
    if not t.min() >= 0.0:
        raise check.InputError(f"t must hold times >= 0, got a minimum of {t.min():.6g} s")
    if not omega * t.max() <= 700.0:
        raise check.InputError(f"t: omega t = {omega * t.max():.6g} > 700 overflows exp(omega t) "
                               f"(omega = {omega:.6g} 1/s from g = {omega**2 * z:.6g} m/s^2 and height); "
                               "the LIPM has long diverged by then")
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported by finite_result below
        c, s = np.cosh(omega * t)[:, None], np.sinh(omega * t)[:, None]
        d0 = x - p
        pos = p + d0 * c + xd / omega * s
        vel = d0 * omega * s + xd * c
    inputs = "com, com_velocity, foot, height, t and g"
    return check.finite_result(pos, "the LIPM position", inputs), check.finite_result(vel, "the LIPM velocity", inputs)
