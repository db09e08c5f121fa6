"""Mecanum-wheel (麦克纳姆轮) chassis kinematics: from the roller geometry to the chassis matrix H,
the single-wheel sign check, yaw compensation (yaw 补偿) and wheel odometry (轮式里程计).

Frames and units (chapter 9):

* chassis (body) frame B: x forward, y left, z up, origin at the chassis centre;
* world frame W: z up; the yaw ψ is the angle from W's x axis to B's x axis (counter-clockwise);
* a chassis twist is ``v = (v_x, v_y, ω_z)`` in m/s, m/s, rad/s -- [linear; angular];
* a pose is ``(x, y, ψ)`` in W (m, m, rad);
* wheel speeds are angular speeds in rad/s, positive when the wheel rolls the chassis along its
  driving direction (forward for the standard layout).

The wheel model. Wheel i sits at ``(x_i, y_i)`` in B, drives along ``d_i = (cos θ_i, sin θ_i)``,
has radius ``R_i``, and the axle of the roller touching the ground points along
``e_i = (cos(θ_i + γ_i), sin(θ_i + γ_i))`` (seen from above; γ = 0: omni wheel, γ = ±π/4:
mecanum wheel). A roller rolls freely *across* its axle, so only the velocity component *along*
e_i is set by the wheel:

    v_c,i · e_i = R_i ω_i (d_i · e_i),        v_c,i = (v_x − ω_z y_i, v_y + ω_z x_i)

    ⇒  ω_i = h_i · v,   h_i = [e_x, e_y, x_i e_y − y_i e_x] / (R_i cos γ_i)

and for θ_i = 0:  R ω_i = v_x − ω_z y_i + tan γ_i (v_y + ω_z x_i).  Stacking the rows gives
``ω = H v`` with ``H`` of shape (n, 3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import _validate as check

__all__ = [
    "MECANUM_ORDER",
    "RollerWheel",
    "roller_axis",
    "wheel_row",
    "wheel_jacobian",
    "mecanum_layout",
    "mecanum_matrix",
    "mecanum_wheel_speeds",
    "chassis_twist",
    "chassis_world_to_body",
    "chassis_body_to_world",
    "odometry_step",
    "odometry_twist",
    "integrate_odometry",
    "SignCheck",
    "single_wheel_check",
    "identify_flipped_wheel",
    "wheel_ground_forces",
    "max_chassis_force",
    "no_slip_row",
    "degree_of_mobility",
    "OdometryRun",
    "simulate_odometry",
    "odometry_error_rms",
]

#: Wheel order of every four-wheel array in this module: front-left, front-right, rear-left, rear-right.
MECANUM_ORDER = ("FL", "FR", "RL", "RR")
#: The three single-wheel tests (body twists): drive forward, strafe left, spin counter-clockwise.
SIGN_TESTS = {"forward": (1.0, 0.0, 0.0), "strafe left": (0.0, 1.0, 0.0), "spin ccw": (0.0, 0.0, 1.0)}


@dataclass(frozen=True)
class RollerWheel:
    """One wheel with passive rollers (omni γ = 0, mecanum γ = ±π/4), in the chassis frame B.

    x, y: position of the contact point in B [m]; radius: wheel radius R [m];
    gamma: roller angle γ [rad] from the driving direction to the axle of the roller touching
    the ground (seen from above, counter-clockwise positive); theta: driving direction θ [rad]
    (0 = chassis x); name: a label such as 'FL'.
    """

    x: float
    y: float
    radius: float
    gamma: float
    theta: float = 0.0
    name: str = ""

    def __post_init__(self):
        for field in ("x", "y", "gamma", "theta"):
            object.__setattr__(self, field, check.scalar(getattr(self, field), field))
        object.__setattr__(self, "radius", check.positive(self.radius, "radius"))
        check.text(self.name, "name")
        if abs(math.cos(self.gamma)) < 1e-6:
            raise check.InputError(f"gamma must stay away from ±pi/2 (a roller parallel to the wheel axle "
                             f"transmits no drive), got {self.gamma}")


def roller_axis(wheel: RollerWheel) -> np.ndarray:
    """e_i = (cos(θ_i + γ_i), sin(θ_i + γ_i)) (2,): axle of the ground roller in B, unit vector.

    >>> np.round(roller_axis(RollerWheel(0.2, 0.2, 0.05, -np.pi / 4)), 4)
    array([ 0.7071, -0.7071])
    """
    check.instance(wheel, RollerWheel, "wheel")
    return np.array([math.cos(wheel.theta + wheel.gamma), math.sin(wheel.theta + wheel.gamma)])


def wheel_row(wheel: RollerWheel) -> np.ndarray:
    """h_i (3,) with ω_i = h_i · (v_x, v_y, ω_z):  h_i = [e_x, e_y, x_i e_y − y_i e_x] / (R cos γ).

    It is the roller constraint v_c·e = R ω (d·e) solved for ω. Units: 1/m, 1/m, 1 (rad/s out).

    >>> wheel_row(RollerWheel(0.2, 0.15, 0.05, -np.pi / 4)).round(6)   # (1, -1, -(a+b)) / R
    array([ 20., -20.,  -7.])
    """
    e = roller_axis(wheel)
    scale = wheel.radius * math.cos(wheel.gamma)
    row = np.array([e[0], e[1], wheel.x * e[1] - wheel.y * e[0]]) / scale
    return check.finite_result(row, "the wheel row", "wheel (its position or radius)")


def _wheels(wheels, n_min: int = 1) -> tuple:
    """A tuple of at least n_min RollerWheel objects."""
    if isinstance(wheels, (str, bytes)) or not hasattr(wheels, "__iter__"):
        raise check.InputError(f"wheels must be a sequence of RollerWheel objects, got {check.describe(wheels)}")
    wheels = tuple(wheels)
    if len(wheels) < n_min or not all(isinstance(w, RollerWheel) for w in wheels):
        raise check.InputError(f"wheels must be at least {n_min} RollerWheel objects, got {check.describe(wheels)}")
    return wheels


def wheel_jacobian(wheels, require_full_rank: bool = True) -> np.ndarray:
    """H (n, 3): the stacked wheel rows, ω = H v (rad/s from a body twist v in m/s, rad/s).

    Raises ValueError when fewer than 3 wheels are given or (with require_full_rank) when H has
    rank < 3: such a layout cannot produce, or measure, every chassis twist.
    """
    wheels = _wheels(wheels, 3)
    H = np.array([wheel_row(w) for w in wheels])
    rank = np.linalg.matrix_rank(H)
    if check.flag(require_full_rank, "require_full_rank") and rank < 3:
        raise check.InputError(f"wheels: this layout gives H of rank {rank} < 3 (singular values "
                         f"{np.round(np.linalg.svd(H, compute_uv=False), 6)}); some chassis twist "
                         f"cannot be commanded or measured")
    return H


def mecanum_layout(half_length: float, half_width: float, wheel_radius: float,
                   mirrored: bool = False) -> tuple[RollerWheel, ...]:
    """The standard four mecanum wheels in MECANUM_ORDER (FL, FR, RL, RR) at (±a, ±b).

    Ground-roller angles γ_FL = γ_RR = −π/4, γ_FR = γ_RL = +π/4: the ground rollers' axles are
    tangent to a circle about the centre, the rollers seen from above form an "X". With
    mirrored=True every wheel is swapped for its mirror image (γ → −γ).
    """
    a = check.positive(half_length, "half_length")
    b = check.positive(half_width, "half_width")
    R = check.positive(wheel_radius, "wheel_radius")
    g = -math.pi / 4 if check.flag(mirrored, "mirrored") else math.pi / 4
    corners = {"FL": (a, b, -g), "FR": (a, -b, g), "RL": (-a, b, g), "RR": (-a, -b, -g)}
    return tuple(RollerWheel(x, y, R, gamma, name=n) for n, (x, y, gamma) in corners.items())


def mecanum_matrix(half_length: float, half_width: float, wheel_radius: float) -> np.ndarray:
    """H (4, 3) of the standard layout in closed form, rows FL, FR, RL, RR:

        H = 1/R [[1, −1, −(a+b)], [1, 1, a+b], [1, 1, −(a+b)], [1, −1, a+b]]
    """
    a = check.positive(half_length, "half_length")
    b = check.positive(half_width, "half_width")
    R = check.positive(wheel_radius, "wheel_radius")
    k = a + b
    H = np.array([[1.0, -1.0, -k], [1.0, 1.0, k], [1.0, 1.0, -k], [1.0, -1.0, k]]) / R
    return check.finite_result(H, "H", "half_length, half_width, wheel_radius")


def mecanum_wheel_speeds(v_body, half_length: float, half_width: float, wheel_radius: float) -> np.ndarray:
    """Inverse kinematics ω = H v (4,) in rad/s, order FL, FR, RL, RR, positive = rolls forward.

    v_body = (v_x forward [m/s], v_y left [m/s], ω_z counter-clockwise [rad/s]); half_length a,
    half_width b, wheel_radius R in metres.

    >>> mecanum_wheel_speeds([0.0, 1.0, 0.0], 0.2, 0.15, 0.05)    # strafe left
    array([-20.,  20.,  20., -20.])
    >>> mecanum_wheel_speeds([0.0, 0.0, 1.0], 0.2, 0.15, 0.05)    # spin counter-clockwise
    array([-7.,  7., -7.,  7.])
    """
    v = check.vector(v_body, 3, "v_body")
    w = mecanum_matrix(half_length, half_width, wheel_radius) @ v
    return check.finite_result(w, "the wheel speeds", "v_body, half_length, half_width, wheel_radius")


def chassis_twist(H, wheel_speeds) -> tuple[np.ndarray, np.ndarray]:
    """Forward kinematics by least squares: v = argmin |ω − H v|, and the residual r = ω − H v.

    H (n, 3) of rank 3; wheel_speeds (n,) -> v (3,), r (n,)   or   (N, n) -> (N, 3), (N, n).
    A nonzero r means the wheel speeds are not those of any rigid chassis motion (a slipping or
    stalled wheel, a wrong sign in H or in an encoder). For the standard layout the least-squares
    twist is also the steady motion of a chassis whose wheels slip against equal linear friction.

    >>> H = mecanum_matrix(0.2, 0.15, 0.05)
    >>> v, r = chassis_twist(H, H @ [0.3, -0.2, 0.5])
    >>> np.round(v, 6), bool(np.allclose(r, 0.0))
    (array([ 0.3, -0.2,  0.5]), True)
    """
    H = _full_rank_H(H)
    n = H.shape[0]
    w = check._finite(check._array(wheel_speeds, "wheel_speeds"), "wheel_speeds")
    if w.ndim not in (1, 2) or w.shape[-1] != n or (w.ndim == 2 and w.shape[0] == 0):
        raise check.InputError(f"wheel_speeds must have shape ({n},) or (N, {n}), one speed per row of H, "
                               f"got shape {w.shape}")
    v = np.linalg.lstsq(H, w.T, rcond=None)[0].T
    return check.finite_result((v, w - v @ H.T), "the chassis twist", "H, wheel_speeds")


def _full_rank_H(H, name: str = "H") -> np.ndarray:
    H = check.matrix(H, (None, 3), name)
    rank = np.linalg.matrix_rank(H) if H.shape[0] else 0
    if rank < 3:
        raise check.InputError(f"{name} must have rank 3 to recover (v_x, v_y, ω_z), got rank {rank}")
    return H


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
class SignCheck:
    """Outcome of :func:`single_wheel_check`.

    ok (4, 3) bool: wheel (rows of H, in ``order``) x test (forward, strafe left, spin ccw);
    wrong: names of the wheels failing a test; message: one line per finding.
    """

    passed: bool
    ok: np.ndarray
    wrong: tuple
    message: str

    def __str__(self) -> str:
        return self.message

    __repr__ = __str__


_DIAGNOSIS = {
    (False, False, False): "every test reversed: motor direction (or encoder sign) flipped",
    (True, False, False): "strafe and spin wrong: row of the wheel on the other side, or a mirror-image wheel",
    (True, True, False): "spin wrong: row of the diagonally opposite wheel",
    (True, False, True): "strafe wrong: mirror-image (left/right-hand) wheel at this corner",
}


def _sign_ok(H: np.ndarray, order: tuple) -> np.ndarray:
    """(4, 3) bool: sign of each wheel speed in each test equals the standard layout's sign."""
    tests = np.array(list(SIGN_TESTS.values())).T                      # one test per column
    expected = np.sign(mecanum_matrix(1.0, 1.0, 1.0) @ tests)[[MECANUM_ORDER.index(n) for n in order]]
    return np.sign(H @ tests) == expected


def single_wheel_check(H, order=MECANUM_ORDER) -> SignCheck:
    """The single-wheel verification (单轮验证) of a 4-wheel chassis matrix H (4, 3).

    ``order`` names the physical wheel each row of H drives. For each of the tests forward
    (1, 0, 0), strafe left (0, 1, 0) and spin ccw (0, 0, 1) the sign of every wheel speed must be
    the standard one: forward all +; strafe left FL −, FR +, RL +, RR −; spin left wheels −,
    right wheels +. A zero speed counts as wrong. Names the wrong wheels, the likely cause, and
    two rows whose exchange passes every test.
    """
    H = check.matrix(H, (4, 3), "H")
    if isinstance(order, str) or not isinstance(order, (tuple, list)) or sorted(map(str, order)) != sorted(MECANUM_ORDER):
        raise check.InputError(f"order must be a permutation of {MECANUM_ORDER}, got {check.describe(order)}")
    order = tuple(order)
    ok = _sign_ok(H, order)
    wrong = tuple(n for n, row in zip(order, ok) if not row.all())
    lines = [f"{n}: " + _DIAGNOSIS.get(tuple(row), "failing " + ", ".join(
        t for t, good in zip(SIGN_TESTS, row) if not good)) for n, row in zip(order, ok) if not row.all()]
    if ok[:, 0].all() and not ok[:, 1].any():
        lines.append("every wheel fails strafe: the whole roller arrangement is mirrored (X and O swapped)")
    for i in range(4):
        for j in range(i + 1, 4):
            swapped = H[[j if k == i else i if k == j else k for k in range(4)]]
            if not ok.all() and _sign_ok(swapped, order).all():
                lines.append(f"rows {order[i]} and {order[j]} look swapped (wheel numbering)")
    return SignCheck(not wrong, ok, wrong, "\n".join(lines) or "all single-wheel tests pass")


def identify_flipped_wheel(poses, dt: float, v_cmd, half_length: float, half_width: float,
                           wheel_radius: float) -> str:
    """Which wheel of a standard chassis turns the wrong way, from a recorded path.

    poses (N+1, 3): path recorded while the controller commanded the constant body twist v_cmd
    through H (4 wheels, MECANUM_ORDER); dt: sample time [s]. The chassis moves with the
    least-squares twist of its actual wheel speeds (:func:`chassis_twist`). Returns the name of
    the wheel whose sign flip best explains the measured twist, or 'none'.
    """
    P = check.matrix(poses, (None, 3), "poses")
    if len(P) < 2:
        raise check.InputError("poses must hold at least 2 poses")
    dt = check.positive(dt, "dt")
    v_meas = np.mean([odometry_twist(P[k], P[k + 1], dt) for k in range(len(P) - 1)], axis=0)
    H = mecanum_matrix(half_length, half_width, wheel_radius)
    if np.linalg.matrix_rank(H) < 3:
        raise check.InputError(f"half_length + half_width = {half_length + half_width:.3g} m is too large next to "
                               f"wheel_radius = {wheel_radius:.3g} m: H is numerically of rank < 3")
    w = H @ check.vector(v_cmd, 3, "v_cmd")
    names = ("none",) + MECANUM_ORDER
    flips = [np.ones(4)] + [np.where(np.arange(4) == k, -1.0, 1.0) for k in range(4)]
    errors = [np.linalg.norm(chassis_twist(H, f * w)[0] - v_meas) for f in flips]
    return names[int(np.argmin(errors))]


def wheel_ground_forces(wheels, tau) -> np.ndarray:
    """Ground forces on the chassis (n, 2) in B from wheel torques tau (n,) [N·m], ideal rollers.

    A free roller transmits force only along its axle e_i; the torque balance R (f e_i · d_i) = τ_i
    gives f_i = τ_i / (R cos γ_i) along e_i. The resulting wrench (F_x, F_y, M_z) equals H^T τ.
    """
    wheels = _wheels(wheels)
    tau = check.vector(tau, None, "tau")
    if tau.shape != (len(wheels),):
        raise check.InputError(f"tau must have shape ({len(wheels)},), one torque per entry of wheels, "
                               f"got shape {tau.shape}")
    F = np.array([t / (w.radius * math.cos(w.gamma)) * roller_axis(w) for w, t in zip(wheels, tau)])
    return check.finite_result(F, "the forces", "tau")


def max_chassis_force(H, tau_max, direction) -> float:
    """Largest s with H^T τ = s u and |τ_i| <= tau_max_i (linear program).

    H (n, 3); tau_max (n,) [N·m] per-wheel torque limits (e.g. friction: μ N_i R cos γ_i);
    direction u (3,) in wrench space (F_x, F_y, M_z), normalised here. Returns s in N (N·m for
    a pure moment): the largest push along u with no other force or moment.
    """
    from scipy.optimize import linprog

    H = check.matrix(H, (None, 3), "H")
    if H.shape[0] == 0:
        raise check.InputError("H must have at least one row (one per wheel), got shape (0, 3)")
    t = check.vector(tau_max, None, "tau_max")
    if t.shape != (H.shape[0],):
        raise check.InputError(f"tau_max must have shape ({H.shape[0]},), one limit per row of H, got shape {t.shape}")
    u = check.vector(direction, 3, "direction")
    if np.any(t < 0):
        raise check.InputError(f"tau_max must be >= 0, got {t}")
    norm_u = math.hypot(*u)
    if norm_u == 0.0:
        raise check.InputError("direction must be a non-zero wrench direction")
    # solved in scaled units (|H| <= 1, tau_max <= 1): the LP never sees 1e300 coefficients
    h_scale, t_scale = max(float(np.abs(H).max()), 1e-300), max(float(t.max()), 1e-300)
    n = H.shape[0]
    res = linprog(np.r_[np.zeros(n), -1.0], A_eq=np.column_stack([H.T / h_scale, -u / norm_u]),
                  b_eq=np.zeros(3), bounds=[(-ti / t_scale, ti / t_scale) for ti in t] + [(0, None)], method="highs")
    if res.status != 0:
        raise check.InputError(f"the linear program for H, tau_max, direction failed: {res.message}")
    return float(check.finite_result(res.x[-1] * h_scale * t_scale, "the force", "H, tau_max"))


def no_slip_row(x: float, y: float, theta: float) -> np.ndarray:
    """Sliding constraint of a conventional (roller-less) wheel at (x, y) driving along θ:
    the contact velocity across the wheel is zero, n·v_c = 0 with n = (−sin θ, cos θ).

    Row (3,) c with c · v = 0:  c = [n_x, n_y, x n_y − y n_x].
    """
    x, y, theta = check.scalar(x, "x"), check.scalar(y, "y"), check.scalar(theta, "theta")
    n = np.array([-math.sin(theta), math.cos(theta)])
    return check.finite_result(np.array([n[0], n[1], x * n[1] - y * n[0]]), "the row", "x, y")


def degree_of_mobility(C) -> int:
    """δ_m = 3 − rank C: how many chassis twists are free under the sliding constraints C (k, 3).

    An empty C (only roller wheels, or steerable wheels) gives 3: an omnidirectional chassis.
    """
    if np.size(C) == 0 and not isinstance(C, (str, bytes)) and C is not None:
        return 3
    C = check.matrix(C, (None, 3), "C")
    scale = max(float(np.abs(C).max()), 1e-300)
    return 3 - int(np.linalg.matrix_rank(C / scale))


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


def simulate_odometry(v_cmd, dt: float, H, slip_std: float = 0.03, slip_bias_std: float = 0.01,
                      slip_tau: float = 0.3, gyro_bias: float = 0.001, gyro_noise: float = 0.005,
                      seed: int = 0) -> OdometryRun:
    """Open-loop driving with wheel slip; wheel odometry vs wheel odometry + IMU yaw.

    v_cmd (N, 3) body twists; H (n, 3). The wheel speed loops track ω = H v_cmd exactly (that is
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


def odometry_error_rms(v_cmd, dt: float, H, seeds, **noise) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Monte Carlo of :func:`simulate_odometry` over the given seeds.

    Returns t (N+1,) [s] and the RMS position error (N+1,) [m] of wheel odometry and of
    wheels + IMU yaw; ``noise`` holds the keyword arguments of simulate_odometry.
    """
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
        raise check.InputError(f"seeds must be a sequence of integer seeds, got {check.describe(seeds)}")
    seeds = [check.integer(s, f"seeds[{k}]", 0) for k, s in enumerate(seeds)]
    if not seeds or len(seeds) > 10_000:
        raise check.InputError(f"seeds must hold 1 to 10000 seeds, got {len(seeds)}")
    runs = [simulate_odometry(v_cmd, dt, H, seed=s, **noise) for s in seeds]
    wheel, fused = (np.sqrt(np.mean([r.position_error(k) ** 2 for r in runs], axis=0)) for k in ("wheel", "fused"))
    return runs[0].t, wheel, fused
