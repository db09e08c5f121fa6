"""Wheel odometry (轮式里程计): chassis/world frames, the exact pose update of a constant twist,
integrated odometry with yaw compensation (yaw 补偿), and the noisy odometry simulation.

Units and frames: see :mod:`kinematics_lib.mobile` (chapter 9).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from .wheels import _full_rank_H, chassis_twist

__all__ = ["chassis_world_to_body", "chassis_body_to_world", "odometry_step", "odometry_twist", "integrate_odometry",
           "OdometryRun", "simulate_odometry", "odometry_error_rms"]


def _rot2(psi: float) -> np.ndarray:
    c, s = math.cos(psi), math.sin(psi)
    return np.array([[c, -s], [s, c]])


def chassis_world_to_body(v_world, psi: float) -> np.ndarray:
    """Yaw compensation: (v_x, v_y)_B = R(ψ)^T (v_x, v_y)_W, ω_z unchanged (planar rotation about z).

    R(ψ)^T = [[cos ψ, sin ψ], [−sin ψ, cos ψ]]. v_world (3,) in W -> (3,) in B.

    >>> np.round(chassis_world_to_body([1.0, 0.0, 0.0], np.pi / 2), 6)   # facing +y_W
    array([ 0., -1.,  0.])
    """
    v = check.vector(v_world, 3, "v_world")
    return np.append(_rot2(check.scalar(psi, "psi")).T @ v[:2], v[2])


def chassis_body_to_world(v_body, psi: float) -> np.ndarray:
    """(v_x, v_y)_W = R(ψ) (v_x, v_y)_B, ω_z unchanged. v_body (3,) in B -> (3,) in W."""
    v = check.vector(v_body, 3, "v_body")
    return np.append(_rot2(check.scalar(psi, "psi")) @ v[:2], v[2])


def odometry_step(pose, v_body, dt: float) -> np.ndarray:
    """Pose (x, y, ψ) after holding the body twist v_body for dt seconds (exact SE(2) exponential).

    Over the step the chassis follows an arc: Δp_B = V(ω dt) (v_x, v_y) dt with
    V = [[sin φ/φ, −(1−cos φ)/φ], [(1−cos φ)/φ, sin φ/φ]], φ = ω dt; then Δp_W = R(ψ) Δp_B.

    >>> np.round(odometry_step([0, 0, 0], [1.0, 0.0, np.pi / 2], 1.0), 4)   # quarter circle
    array([0.6366, 0.6366, 1.5708])
    """
    out = _step(check.vector(pose, 3, "pose"), check.vector(v_body, 3, "v_body"), check.positive(dt, "dt"))
    return check.finite_result(out, "the pose", "pose, v_body, dt")


def _V(phi: float) -> np.ndarray:
    """V(φ) = [[sin φ/φ, −(1−cos φ)/φ], [(1−cos φ)/φ, sin φ/φ]], smooth through φ = 0."""
    s = np.sinc(phi / np.pi)
    c = math.sin(phi / 2) * np.sinc(phi / (2 * np.pi))
    return np.array([[s, -c], [c, s]])


def _step(pose: np.ndarray, v: np.ndarray, dt: float) -> np.ndarray:
    phi = v[2] * dt
    d_world = _rot2(pose[2]) @ (_V(phi) @ v[:2]) * dt
    return np.array([pose[0] + d_world[0], pose[1] + d_world[1], pose[2] + phi])


def odometry_twist(pose0, pose1, dt: float) -> np.ndarray:
    """The constant body twist that takes pose0 to pose1 in dt seconds (SE(2) logarithm).

    Inverse of :func:`odometry_step` for |Δψ| < π.

    >>> np.round(odometry_twist([0, 0, 0], odometry_step([0, 0, 0], [0.3, 0.1, 0.8], 0.5), 0.5), 6)
    array([0.3, 0.1, 0.8])
    """
    p0, p1 = check.vector(pose0, 3, "pose0"), check.vector(pose1, 3, "pose1")
    dt = check.positive(dt, "dt")
    phi = (p1[2] - p0[2] + math.pi) % (2 * math.pi) - math.pi
    d_body = _rot2(p0[2]).T @ (p1[:2] - p0[:2])
    v_xy = np.linalg.solve(_V(phi), d_body) / dt
    return check.finite_result(np.array([v_xy[0], v_xy[1], phi / dt]), "the twist", "pose0, pose1, dt")


def integrate_odometry(twists, dt: float, pose0=(0.0, 0.0, 0.0), yaw=None) -> np.ndarray:
    """Dead reckoning: poses (N+1, 3) from body twists (N, 3) held for dt each.

    yaw (N+1,), optional: headings from an IMU. The heading then comes from the IMU and only
    (v_x, v_y) from the wheels ("position from the wheels, heading from the gyro").
    Each step is the exact arc of :func:`odometry_step`, evaluated for all steps at once.
    """
    V = check.matrix(twists, (None, 3), "twists")
    if V.shape[0] == 0:
        raise check.InputError("twists must hold at least one twist, got shape (0, 3)")
    dt = check.positive(dt, "dt")
    x0, y0, psi0 = check.vector(pose0, 3, "pose0")
    if yaw is not None:
        yaw = check.vector(yaw, None, "yaw")
        if yaw.shape != (len(V) + 1,):
            raise check.InputError(f"yaw must have shape ({len(V) + 1},), one heading per pose (len(twists) + 1), "
                                   f"got shape {yaw.shape}")
        V = np.column_stack([V[:, :2], np.diff(yaw) / dt])
        psi0 = yaw[0]
    phi = V[:, 2] * dt                                        # heading change of each step
    psi = psi0 + np.r_[0.0, np.cumsum(phi)]                   # heading at the start of each step
    s, c = np.sinc(phi / np.pi), np.sin(phi / 2) * np.sinc(phi / (2 * np.pi))
    dxb, dyb = (s * V[:, 0] - c * V[:, 1]) * dt, (c * V[:, 0] + s * V[:, 1]) * dt   # V(φ) v dt
    cos, sin = np.cos(psi[:-1]), np.sin(psi[:-1])
    x = x0 + np.r_[0.0, np.cumsum(cos * dxb - sin * dyb)]
    y = y0 + np.r_[0.0, np.cumsum(sin * dxb + cos * dyb)]
    return check.finite_result(np.column_stack([x, y, psi]), "the poses", "twists, dt, pose0, yaw")


@dataclass(frozen=True)
class OdometryRun:
    """Result of :func:`simulate_odometry`; poses (N+1, 3) in W, t (N+1,) in s."""

    t: np.ndarray
    true: np.ndarray
    wheel: np.ndarray
    fused: np.ndarray

    def position_error(self, which: str = "wheel") -> np.ndarray:
        """|p_estimate − p_true| (N+1,) in m for 'wheel' (wheel odometry) or 'fused' (IMU yaw)."""
        est = getattr(self, check.one_of(which, ("wheel", "fused"), "which"))
        return np.linalg.norm(est[:, :2] - self.true[:, :2], axis=1)


def simulate_odometry(H, v_cmd, dt: float, slip_std: float = 0.03, slip_bias_std: float = 0.01,
                      slip_tau: float = 0.3, gyro_bias: float = 0.001, gyro_noise: float = 0.005,
                      seed: int = 0) -> OdometryRun:
    """Open-loop driving with wheel slip; wheel odometry vs wheel odometry + IMU yaw.

    H (n, 3) the chassis (the plant), v_cmd (N, 3) body twists every dt [s] (the model/plant, state,
    dt order of the library). The wheel speed loops track ω = H v_cmd exactly (that is
    what the encoders read), but each wheel's ground speed is ω_i (1 − ρ_i) with a slip ratio
    ρ_i = constant bias (std slip_bias_std) + first-order Gauss-Markov noise (std slip_std,
    correlation time slip_tau [s]); the chassis moves with the least-squares twist of those.
    Gyro: ω_z + gyro_bias [rad/s] + white noise (std gyro_noise per sample). Seeded.
    """
    from scipy.signal import lfilter

    V = check.matrix(v_cmd, (None, 3), "v_cmd")
    if V.shape[0] == 0:
        raise check.InputError("v_cmd must hold at least one twist, got shape (0, 3)")
    H = _full_rank_H(H)
    dt = check.positive(dt, "dt")
    slip_std, slip_bias_std = check.nonnegative(slip_std, "slip_std"), check.nonnegative(slip_bias_std, "slip_bias_std")
    gyro_bias, gyro_noise = check.scalar(gyro_bias, "gyro_bias"), check.nonnegative(gyro_noise, "gyro_noise")
    rng = np.random.default_rng(check.integer(seed, "seed", 0))
    n, N = H.shape[0], len(V)
    alpha = math.exp(-dt / check.positive(slip_tau, "slip_tau"))
    bias = rng.normal(0.0, slip_bias_std, n)
    xi = rng.normal(0.0, slip_std, (N, n))
    xi[1:] *= math.sqrt(1 - alpha**2)
    eta = lfilter([1.0], [1.0, -alpha], xi, axis=0)          # eta_k = alpha eta_{k-1} + xi_k
    rho = bias + eta
    W = V @ H.T
    v_true, _ = chassis_twist(H, W * (1.0 - rho))
    v_wheel, _ = chassis_twist(H, W)
    gyro = v_true[:, 2] + gyro_bias + rng.normal(0.0, gyro_noise, N)
    yaw = np.r_[0.0, np.cumsum(gyro) * dt]
    t = np.arange(N + 1) * dt
    check.finite_result((v_true, yaw), "the simulated motion", "v_cmd, dt, H and the noise levels")
    return OdometryRun(t, integrate_odometry(v_true, dt), integrate_odometry(v_wheel, dt),
                       integrate_odometry(v_wheel, dt, yaw=yaw))


def odometry_error_rms(H, v_cmd, dt: float, seeds, **noise) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Monte Carlo of :func:`simulate_odometry` over the given seeds.

    Returns t (N+1,) [s] and the RMS position error (N+1,) [m] of wheel odometry and of
    wheels + IMU yaw; ``noise`` holds the keyword arguments of simulate_odometry.
    """
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
        raise check.InputError(f"seeds must be a sequence of integer seeds, got {check.describe(seeds)}")
    seeds = [check.integer(s, f"seeds[{k}]", 0) for k, s in enumerate(seeds)]
    if not seeds or len(seeds) > 10_000:
        raise check.InputError(f"seeds must hold 1 to 10000 seeds, got {len(seeds)}")
    runs = [simulate_odometry(H, v_cmd, dt, seed=s, **noise) for s in seeds]
    wheel, fused = (np.sqrt(np.mean([r.position_error(k) ** 2 for r in runs], axis=0)) for k in ("wheel", "fused"))
    return runs[0].t, wheel, fused
