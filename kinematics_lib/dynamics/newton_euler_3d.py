"""The classic 3-D Newton-Euler recursion (牛顿-欧拉递推) of a serial arm, and the documents' versions.

Correct algorithms (both equal :func:`kinematics_lib.rnea` on the same arm, to rounding):

* :func:`newton_euler` / :func:`newton_euler_terms` -- world-frame vectors on a **standard-DH**
  arm (:class:`DHArm`): joint i turns (or slides) about z_{i-1} through O_{i-1}; link i carries
  frame {i} at its far end O_i. The form of document 003 (with its one wrong line corrected).
* :func:`newton_euler_local` -- every vector of link i in link i's own frame (Craig's form, the
  formula list of document 001, completed) on a revolute chain :class:`~kinematics_lib.Model`;
  it can count its own 3-vector operations (exercise 3.4 of document 000).
* :func:`dh_model` -- the same DH arm as a :class:`~kinematics_lib.Model`, so that the spatial
  RNEA, CRBA and ABA run on it.

The documents' versions of these recursions, **errors included** (``doc000.rnea``, ``doc003.ne``,
``doc001.ne``, ``doc001.rnea``, ``doc000.aba``, ``doc000.crba``), live in
:mod:`kinematics_lib.documents`; they reuse the private helpers of this module.

Units: SI (m, kg, s, N, N m, rad). Gravity is a world vector (default (0, 0, -9.81)) and enters,
as in every recursive algorithm, as the base acceleration v_dot_0 = -g.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from .. import _validate as check
from ..arms.dh import DHRobot, dh_frames, dh_transform
from ..arms.robots import panda
from .model import GRAVITY, Model
from ..geometry.kernels import cross as _cross
from ..geometry.rotations import rot_x, rot_z, so3_exp
from ..geometry.spatial import inertia_parts, spatial_inertia

__all__ = [
    "DHArm",
    "random_dh_arm",
    "dh_model",
    "panda_arm",
    "NewtonEulerTerms",
    "newton_euler_terms",
    "ne_inward",
    "newton_euler",
    "newton_euler_local",
    "NE_LINE_OPS",
    "FLOP_COSTS",
    "ne_operation_counts",
    "ne_flops",
]


# ---------------------------------------------------------------- the arm


@dataclass(frozen=True, eq=False)
class DHArm:
    """A DH arm with link inertias (frozen).

    robot: the kinematics (:class:`~kinematics_lib.DHRobot`, standard or modified DH).
    masses (n,): link masses m_i (kg).
    coms (n, 3): r_{i,ci}, the centre of mass of link i in DH frame {i} (m).
    inertias (n, 3, 3): I_ci, link i's rotational inertia about its CoM, frame-{i} axes (kg m^2).
    gravity (3,): gravity in world (= base frame 0) coordinates, m/s^2.
    """

    robot: DHRobot
    masses: np.ndarray
    coms: np.ndarray
    inertias: np.ndarray
    gravity: np.ndarray = field(default_factory=lambda: GRAVITY.copy())

    def __post_init__(self):
        n = check.instance(self.robot, DHRobot, "robot").n
        masses = check.vector(self.masses, None, "masses")
        if masses.shape != (n,):
            raise check.InputError(f"masses must have shape ({n},), one per link of robot, got shape {masses.shape}")
        if np.any(masses < 0):
            raise check.InputError(f"masses must be non-negative, got {masses}")
        coms = check._finite(check._array(self.coms, "coms"), "coms")
        if coms.shape != (n, 3):
            raise check.InputError(f"coms must have shape ({n}, 3), one per link of robot, got shape {coms.shape}")
        inertias = check._finite(check._array(self.inertias, "inertias"), "inertias")
        if inertias.shape != (n, 3, 3):
            raise check.InputError(f"inertias must have shape ({n}, 3, 3), one per link of robot, "
                                   f"got shape {inertias.shape}")
        for i in range(n):
            check.rotational_inertia(inertias[i], f"inertias[{i}]")
        for name, value in (("masses", masses), ("coms", coms), ("inertias", inertias),
                            ("gravity", check.vector(self.gravity, 3, "gravity"))):
            value = np.array(value)
            value.setflags(write=False)
            object.__setattr__(self, name, value)

    @property
    def n(self) -> int:
        return self.robot.n


def random_dh_arm(n: int, rng: np.random.Generator, joint_types: str | None = None,
                  convention: str = "standard", gravity=GRAVITY) -> DHArm:
    """A random DH arm for tests: any a, alpha, d, theta, CoM and a physically valid inertia.

    Principal moments (A, B, C) = (y + z, x + z, x + y) satisfy the triangle inequality.
    """
    n = check.integer(n, "n", 1, 1000)
    rng = check.rng(rng)
    robot = DHRobot(a=rng.uniform(0.1, 0.6, n), alpha=rng.uniform(-np.pi, np.pi, n),
                    d=rng.uniform(-0.3, 0.3, n), theta=rng.uniform(-np.pi, np.pi, n),
                    joint_types=joint_types or "R" * n, convention=convention, name=f"random {n}-link arm")
    masses = rng.uniform(0.5, 3.0, n)
    inertias = []
    for m in masses:
        x = rng.uniform(0.01, 0.05, 3)
        Q = so3_exp(rng.normal(size=3))
        inertias.append(Q @ np.diag(m * np.array([x[1] + x[2], x[0] + x[2], x[0] + x[1]])) @ Q.T)
    return DHArm(robot, masses, rng.uniform(-0.2, 0.2, (n, 3)), np.array(inertias), gravity)


def _split_link(robot: DHRobot, i: int) -> tuple[np.ndarray, np.ndarray]:
    """(P, Q) with the DH link transform A_i(q_i) = P J(q_i) Q, J = Rz(q) or Tz(q).

    standard  A = Rz(theta) Tz(d) Tx(a) Rx(alpha):  R: P = Rz(theta), Q = Tz(d) Tx(a) Rx(alpha);
                                                    P: P = Rz(theta) Tz(d), Q = Tx(a) Rx(alpha).
    modified  A = Rx(alpha) Tx(a) Rz(theta) Tz(d):  R: P = Rx Tx Rz(theta), Q = Tz(d);
                                                    P: P = Rx Tx Rz(theta) Tz(d), Q = 1.
    """
    a, alpha, d, theta = robot.a[i], robot.alpha[i], robot.d[i], robot.theta[i]
    Rz, Tz = np.eye(4), np.eye(4)
    Rz[:3, :3] = rot_z(theta)
    Tz[2, 3] = d
    if robot.convention == "standard":
        rest = dh_transform(a, alpha, 0.0, 0.0, "standard")  # Tx(a) Rx(alpha)
        return (Rz, Tz @ rest) if robot.joint_types[i] == "R" else (Rz @ Tz, rest)
    head = np.eye(4)
    head[:3, :3], head[0, 3] = rot_x(alpha), a  # Rx(alpha) Tx(a)
    return (head @ Rz, Tz) if robot.joint_types[i] == "R" else (head @ Rz @ Tz, np.eye(4))


def dh_model(arm: DHArm, name: str | None = None) -> Model:
    """The arm as a :class:`~kinematics_lib.Model` (one body per link, joint axes = local z).

    Body i's frame B_i = T_{W,i-1} P_i J(q_i) sits on joint i's axis and moves with link i; DH
    frame {i} = B_i Q_i is kept as the model frame ``f"dh{i+1}"`` and the tool as ``"tool"``.
    T_tree[0] = T_base P_0, T_tree[i] = Q_{i-1} P_i; link inertias are moved from {i} to B_i.
    """
    robot = check.instance(arm, DHArm, "arm").robot
    parts = [_split_link(robot, i) for i in range(robot.n)]
    T_tree, inertia, frames = [], [], {}
    for i, (P, Q) in enumerate(parts):
        T_tree.append((robot.T_base if i == 0 else parts[i - 1][1]) @ P)
        R_Q = Q[:3, :3]
        inertia.append(spatial_inertia(arm.masses[i], R_Q @ arm.coms[i] + Q[:3, 3], R_Q @ arm.inertias[i] @ R_Q.T))
        frames[f"dh{i + 1}"] = (i, Q)
    frames["tool"] = (robot.n - 1, parts[-1][1] @ robot.T_tool)
    kinds = {"R": "revolute", "P": "prismatic"}
    return Model(name=name or robot.name, body_names=tuple(f"link{i + 1}" for i in range(robot.n)),
                 body_joint=tuple(f"joint{i + 1}" for i in range(robot.n)), parent=tuple(range(-1, robot.n - 1)),
                 joint_types=tuple(kinds[t] for t in robot.joint_types), axes=np.tile([0.0, 0.0, 1.0], (robot.n, 1)),
                 T_tree=np.array(T_tree), inertia=np.array(inertia), gravity=arm.gravity, frames=frames,
                 lower=robot.q_min, upper=robot.q_max)


#: the Panda's link inertial parameters as Franka publishes them in franka_description's
#: panda.urdf (franka_ros, Apache-2.0; shipped unchanged by example-robot-data 6.0.0), links 1..7:
#: mass (kg), centre of mass in link frame {i} (m), and (Ixx, Ixy, Ixz, Iyy, Iyz, Izz) about the
#: centre of mass, frame-{i} axes (kg m^2)
_PANDA_MASSES = (4.970684, 0.646926, 3.228604, 3.587895, 1.225946, 1.666555, 0.735522)
_PANDA_COMS = ((0.003875, 0.002081, -0.04762), (-0.003141, -0.02872, 0.003495),
               (2.7518e-02, 3.9252e-02, -6.6502e-02), (-5.317e-02, 1.04419e-01, 2.7454e-02),
               (-1.1953e-02, 4.1065e-02, -3.8437e-02), (6.0149e-02, -1.4117e-02, -1.0517e-02),
               (1.0517e-02, -4.252e-03, 6.1597e-02))
_PANDA_INERTIAS = ((0.70337, -0.000139, 0.006772, 0.70661, 0.019169, 0.009117),
                   (0.007962, -0.003925, 0.010254, 0.02811, 0.000704, 0.025995),
                   (0.037242, -0.004761, -0.011396, 0.036155, -0.012805, 0.01083),
                   (0.025853, 0.007796, -0.001332, 0.019552, 0.008641, 0.028323),
                   (0.035549, -0.002117, -0.004037, 0.029474, 0.000229, 0.008627),
                   (0.001964, 0.000109, -0.001158, 0.004354, 0.000341, 0.005433),
                   (0.012516, -0.000428, -0.001196, 0.010027, -0.000741, 0.004815))


def panda_arm(gravity=GRAVITY) -> DHArm:
    """The Franka Emika Panda with its link inertias: :func:`~kinematics_lib.panda` plus dynamics.

    Kinematics: :func:`~kinematics_lib.panda` (Craig's modified DH, Franka's table; tool = flange).
    Dynamics (links 1..7, no gripper): the masses m_i (kg), centres of mass r_{i,ci} in DH frame
    {i} (m) and inertias I_ci about the centre of mass, frame-{i} axes (kg m^2), that Franka
    publishes in ``franka_description/robots/panda/panda.urdf`` of franka_ros (Apache-2.0; the file
    example-robot-data 6.0.0 ships). That URDF's link frames are the modified-DH frames {i}, so the
    numbers carry over unchanged. Total arm mass 16.062 kg (link 1: 4.971 kg, ..., link 7: 0.736 kg).
    The Franka Hand (0.73 kg at (-0.01, 0, 0.03) m in the hand frame, which is the flange turned by
    Rz(-pi/4); two 0.015 kg fingers) is not included: add it as a payload if it is mounted.
    These are CAD-based values; Gaz et al. (IEEE RA-L 2019) identify different ones from data.

    gravity (3,): world gravity (m/s^2). ``dh_model(panda_arm())`` is the arm as a
    :class:`~kinematics_lib.Model` for :func:`~kinematics_lib.rnea`, ``crba`` and ``aba``
    (M(q) q_dd + C(q, q_d) q_d + g(q) = tau, q in rad, tau in N m).
    """
    inertias = []
    for xx, xy, xz, yy, yz, zz in _PANDA_INERTIAS:
        inertias.append([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    return DHArm(panda(), np.array(_PANDA_MASSES), np.array(_PANDA_COMS), np.array(inertias),
                 check.vector(gravity, 3, "gravity"))


# ---------------------------------------------------------------- classic NE, world frame


@dataclass(frozen=True)
class NewtonEulerTerms:
    """Every vector of the classic recursion, world coordinates, one row per link i = 1..n.

    omega, omega_dot: angular velocity/acceleration of link i (rad/s, rad/s^2);
    v_dot: acceleration of O_i (m/s^2, gravity included as v_dot_0 = -g); v_dot_c: of the CoM;
    F, N: inertial force m a_c (N) and moment about the CoM (N m); f, n: force and moment
    (about O_{i-1}) exerted on link i by link i-1; tau (n,): joint torques/forces.
    origins (n+1, 3): O_0..O_n; coms (n, 3): CoM positions; z (n, 3): joint axes z_0..z_{n-1}.
    """

    omega: np.ndarray
    omega_dot: np.ndarray
    v_dot: np.ndarray
    v_dot_c: np.ndarray
    F: np.ndarray
    N: np.ndarray
    f: np.ndarray
    n: np.ndarray
    tau: np.ndarray
    origins: np.ndarray
    coms: np.ndarray
    z: np.ndarray


def _world_geometry(arm: DHArm, q):
    """O (n+1, 3), z (n+1, 3), r_{i-1,i} (n, 3), r_{i,ci} (n, 3), I_ci (n, 3, 3), world frame."""
    if arm.robot.convention != "standard":
        raise ValueError("arm.robot.convention must be 'standard' (joint i about z_{i-1}); got 'modified'")
    T = dh_frames(arm.robot, q)
    O, z, R = T[:, :3, 3], T[:, :3, 2], T[1:, :3, :3]
    rc = np.einsum("nij,nj->ni", R, arm.coms)
    I = R @ arm.inertias @ R.transpose(0, 2, 1)
    return O, z, O[1:] - O[:-1], rc, I


#: joint rates above this (rad/s, rad/s^2) overflow the products of the recursions (omega x (I omega) ...)
MAX_RATE = 1e100


def _rates(x, n: int, name: str) -> np.ndarray:
    """A finite (n,) vector of joint velocities or accelerations, |x| <= MAX_RATE."""
    x = check.vector(x, n, name)
    if np.abs(x).max(initial=0.0) > MAX_RATE:
        raise check.InputError(f"{name} must be at most {MAX_RATE:g} in magnitude (larger rates overflow the "
                               f"recursion), got {np.abs(x).max():.3g}")
    return x


def _state(arm: DHArm, q, v, a, names=("v", "a")):
    """(q, v, a) checked against the arm; ``names``: the caller's names of v and a (for the messages)."""
    n = check.instance(arm, DHArm, "arm").n
    return (check.vector(q, n, "q"), _rates(v, n, names[0]), _rates(a, n, names[1]))


def newton_euler_terms(arm: DHArm, q, v, a) -> NewtonEulerTerms:
    """The classic Newton-Euler recursion in world coordinates (standard DH, joint i about z_{i-1}).

    Outward, i = 1..n (omega_0 = omega_dot_0 = 0, v_dot_0 = -g), revolute joint i:
        omega_i = omega_{i-1} + qd_i z_{i-1}
        omega_dot_i = omega_dot_{i-1} + qdd_i z_{i-1} + omega_{i-1} x qd_i z_{i-1}
        v_dot_i = v_dot_{i-1} + omega_dot_i x r_{i-1,i} + omega_i x (omega_i x r_{i-1,i})
    (prismatic: omega, omega_dot unchanged, v_dot gains qdd_i z_{i-1} + 2 qd_i omega_i x z_{i-1})
        v_dot_ci = v_dot_i + omega_dot_i x r_{i,ci} + omega_i x (omega_i x r_{i,ci})
        F_i = m_i v_dot_ci,   N_i = I_i omega_dot_i + omega_i x I_i omega_i   (I_i about the CoM)
    Inward, i = n..1 (f_{n+1} = n_{n+1} = 0), moments about O_{i-1}, r_{i-1,ci} = r_{i-1,i} + r_{i,ci}:
        f_i = F_i + f_{i+1},   n_i = N_i + n_{i+1} + r_{i-1,ci} x F_i + r_{i-1,i} x f_{i+1}
        tau_i = n_i . z_{i-1} (revolute)  or  f_i . z_{i-1} (prismatic)
    """
    q, v, a = _state(arm, q, v, a)
    O, z, r, rc, I = _world_geometry(arm, q)
    n = arm.n
    out = {k: np.zeros((n, 3)) for k in ("omega", "omega_dot", "v_dot", "v_dot_c", "F", "N", "f", "n")}
    w, wd, vd = np.zeros(3), np.zeros(3), -arm.gravity
    for i in range(n):  # outward: base to tip
        if arm.robot.joint_types[i] == "R":
            wd = wd + a[i] * z[i] + _cross(w, v[i] * z[i])
            w = w + v[i] * z[i]
            vd = vd + _cross(wd, r[i]) + _cross(w, _cross(w, r[i]))
        else:
            vd = vd + _cross(wd, r[i]) + _cross(w, _cross(w, r[i])) + a[i] * z[i] + 2 * v[i] * _cross(w, z[i])
        vdc = vd + _cross(wd, rc[i]) + _cross(w, _cross(w, rc[i]))
        row = (w, wd, vd, vdc, arm.masses[i] * vdc, I[i] @ wd + _cross(w, I[i] @ w))
        for key, value in zip(("omega", "omega_dot", "v_dot", "v_dot_c", "F", "N"), row):
            out[key][i] = value
    check.finite_result((out["F"], out["N"]), "the link forces", "the arm's masses and inertias, v, a")
    out["f"], out["n"], tau = _ne_inward(out["F"], out["N"], r, rc, z[:-1], arm.robot.joint_types)
    check.finite_result(tau, "tau", "the arm's masses and inertias, v, a")
    return NewtonEulerTerms(**out, tau=tau, origins=O, coms=O[1:] + rc, z=z[:-1])


def ne_inward(F, N, r, rc, z, joint_types: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Inward pass of the world-frame recursion: (f, n, tau) from the links' inertial F, N.

    F, N (n, 3): m_i v_dot_ci and N_i; r (n, 3): r_{i-1,i} = O_i - O_{i-1}; rc (n, 3): r_{i,ci} =
    c_i - O_i; z (n, 3): joint axes z_{i-1}; joint_types: 'R'/'P' letters (default all 'R').
    For i = n..1 with f_{n+1} = n_{n+1} = 0 (moments about O_{i-1}, the point on joint i's axis):
        f_i = F_i + f_{i+1},   n_i = N_i + n_{i+1} + (r_{i-1,i} + r_{i,ci}) x F_i + r_{i-1,i} x f_{i+1}
        tau_i = n_i . z_{i-1} (revolute) or f_i . z_{i-1} (prismatic)
    """
    F, N, r, rc, z = (check.matrix(x, (None, 3), name) for x, name in
                      ((F, "F"), (N, "N"), (r, "r"), (rc, "rc"), (z, "z")))
    n = F.shape[0]
    if n == 0:
        raise check.InputError("F must have at least one row (one per link), got shape (0, 3)")
    for x, name in ((N, "N"), (r, "r"), (rc, "rc"), (z, "z")):
        if x.shape[0] != n:
            raise check.InputError(f"{name} must have shape ({n}, 3) like F's (one row per link), got {x.shape}")
    types = "R" * n if joint_types is None else check.text(joint_types, "joint_types")
    if len(types) != n or set(types) - {"R", "P"}:
        raise check.InputError(f"joint_types must be {n} letters 'R'/'P' (one per row of F), got {joint_types!r}")
    out = _ne_inward(F, N, r, rc, z, types)
    return check.finite_result(out, "the wrenches", "F, N, r, rc")


def _ne_inward(F, N, r, rc, z, types: str):
    n = F.shape[0]
    f, m, tau = np.zeros((n, 3)), np.zeros((n, 3)), np.zeros(n)
    f_next, n_next = np.zeros(3), np.zeros(3)
    for i in range(n - 1, -1, -1):  # inward: tip to base
        f[i] = F[i] + f_next
        m[i] = N[i] + n_next + _cross(r[i] + rc[i], F[i]) + _cross(r[i], f_next)
        tau[i] = (m[i] if types[i] == "R" else f[i]) @ z[i]
        f_next, n_next = f[i], m[i]
    return f, m, tau


def newton_euler(arm: DHArm, q, v, a) -> np.ndarray:
    """Joint torques tau (n,) of the classic world-frame recursion (see :func:`newton_euler_terms`)."""
    return newton_euler_terms(arm, q, v, a).tau


# ---------------------------------------------------------------- classic NE, link frames (counted)


class _Ops:
    """3-vector operations that count themselves in a Counter (add, scale, cross, matvec, dot)."""

    def __init__(self, count: Counter | None):
        self.count = count if count is not None else Counter()

    def add(self, *vs):
        self.count["add"] += len(vs) - 1
        return sum(vs[1:], vs[0])

    def scale(self, s, v):
        self.count["scale"] += 1
        return s * v

    def cross(self, a, b):
        self.count["cross"] += 1
        return _cross(a, b)

    def matvec(self, A, b):
        self.count["matvec"] += 1
        return A @ b

    def dot(self, a, b):
        self.count["dot"] += 1
        return float(a @ b)


def _revolute_chain(model: Model, q, v, a, q_in_R: bool = True, names=("v", "a")):
    """Per body: R_i (rotation of frame i in frame i-1, with the joint angle when q_in_R), p_i, z_i,
    m_i, c_i, I_ci, all in body frames; raises unless the model is a revolute serial chain.
    ``names``: the caller's names of v and a (for the messages)."""
    check.model(model)
    if model.parent != tuple(range(-1, model.nb - 1)) or any(t not in ("revolute", "continuous")
                                                            for t in model.joint_types):
        raise check.InputError("model must be a serial chain of revolute joints (parent[i] = i - 1)")
    q = check.vector(q, model.nv, "q")
    v, a = _rates(v, model.nv, names[0]), _rates(a, model.nv, names[1])
    R_tree, p = model.T_tree[:, :3, :3], model.T_tree[:, :3, 3]
    R = np.array([R_tree[i] @ so3_exp(model.axes[i] * q[i]) for i in range(model.nb)]) if q_in_R else R_tree
    m, c, I = zip(*(inertia_parts(Ii) for Ii in model.inertia))
    return q, v, a, R, p, model.axes, np.array(m), np.array(c), np.array(I)


def newton_euler_local(model: Model, q, v, a, count: Counter | None = None) -> np.ndarray:
    """Classic Newton-Euler with every vector of link i in its own frame i (Craig's form).

    Frame i is body i's joint frame (on joint i's axis z_i); R_i, p_i: orientation and origin of
    frame i in frame i-1 (R_i includes the joint rotation); c_i, I_i: CoM and inertia about it.
        omega_i = R_i^T omega_{i-1} + qd_i z_i
        omega_dot_i = R_i^T omega_dot_{i-1} + (R_i^T omega_{i-1}) x (qd_i z_i) + qdd_i z_i
        v_dot_i = R_i^T (omega_dot_{i-1} x p_i + omega_{i-1} x (omega_{i-1} x p_i) + v_dot_{i-1})
        v_dot_ci = omega_dot_i x c_i + omega_i x (omega_i x c_i) + v_dot_i
        F_i = m_i v_dot_ci,   N_i = I_i omega_dot_i + omega_i x (I_i omega_i)
        f_i = R_{i+1} f_{i+1} + F_i
        n_i = N_i + R_{i+1} n_{i+1} + c_i x F_i + p_{i+1} x (R_{i+1} f_{i+1})
        tau_i = n_i . z_i
    with omega_0 = omega_dot_0 = 0, v_dot_0 = -g and a zero wrench beyond the last link (its
    R_{n+1} = 1, p_{n+1} = 0, still applied so that every link costs the same: see NE_LINE_OPS).
    count: optional Counter, incremented by the number of each 3-vector operation as written.
    """
    q, v, a, R, p, z, m, c, I = _revolute_chain(model, q, v, a)
    if count is not None:
        check.instance(count, Counter, "count")
    o, n = _Ops(count), model.nb
    w, wd, vd = np.zeros(3), np.zeros(3), -model.gravity
    F, N = np.zeros((n, 3)), np.zeros((n, 3))
    for i in range(n):  # outward: base to tip
        Rt = R[i].T
        vd = o.matvec(Rt, o.add(o.cross(wd, p[i]), o.cross(w, o.cross(w, p[i])), vd))
        wd = o.add(o.matvec(Rt, wd), o.cross(o.matvec(Rt, w), o.scale(v[i], z[i])), o.scale(a[i], z[i]))
        w = o.add(o.matvec(Rt, w), o.scale(v[i], z[i]))
        vdc = o.add(o.cross(wd, c[i]), o.cross(w, o.cross(w, c[i])), vd)
        F[i] = o.scale(m[i], vdc)
        N[i] = o.add(o.matvec(I[i], wd), o.cross(w, o.matvec(I[i], w)))
    f, nn, tau = np.zeros(3), np.zeros(3), np.zeros(n)
    for i in range(n - 1, -1, -1):  # inward: tip to base
        R_next, p_next = (R[i + 1], p[i + 1]) if i + 1 < n else (np.eye(3), np.zeros(3))
        Rf = o.matvec(R_next, f)
        nn = o.add(N[i], o.matvec(R_next, nn), o.cross(c[i], F[i]), o.cross(p_next, o.matvec(R_next, f)))
        f = o.add(Rf, F[i])
        tau[i] = o.dot(nn, z[i])
    return check.finite_result(tau, "tau", "the model's inertias and gravity, v, a")


#: 3-vector operations per link in each line of :func:`newton_euler_local`, counted as written
#: (no product reused between lines; forming R_i from q_i is not counted).
NE_LINE_OPS = {
    "omega": {"matvec": 1, "scale": 1, "add": 1},
    "omega_dot": {"matvec": 2, "scale": 2, "cross": 1, "add": 2},
    "v_dot": {"cross": 3, "add": 2, "matvec": 1},
    "v_dot_c": {"cross": 3, "add": 2},
    "F": {"scale": 1},
    "N": {"matvec": 2, "cross": 1, "add": 1},
    "f": {"matvec": 1, "add": 1},
    "n": {"matvec": 2, "cross": 2, "add": 3},
    "tau": {"dot": 1},
}

#: floating-point operations (multiplications + additions) of each 3-vector operation.
FLOP_COSTS = {"add": 3, "scale": 3, "cross": 9, "matvec": 15, "dot": 5}


def ne_operation_counts() -> dict:
    """Total 3-vector operations per link of the local-frame recursion: {'add': 12, 'scale': 4, ...}."""
    total = Counter()
    for ops in NE_LINE_OPS.values():
        total.update(ops)
    return dict(total)


def ne_flops(n_links: int, costs: dict | None = None) -> int:
    """Operations of the recursion on n links: n * sum_k count_k * cost_k (default: FLOP_COSTS).

    >>> ne_flops(1), ne_flops(1, {"add": 3, "scale": 3, "cross": 6, "matvec": 9, "dot": 3}), ne_flops(10)
    (278, 192, 2780)
    """
    n = check.integer(n_links, "n_links", 0, 10**9)
    if costs is not None and not isinstance(costs, dict):
        raise check.InputError(f"costs must be a dict operation -> flops, got {check.describe(costs)}")
    costs = dict(FLOP_COSTS if costs is None else costs)
    missing = set(ne_operation_counts()) - set(costs)
    if missing:
        raise check.InputError(f"costs must give a cost for every operation, missing {sorted(missing)}")
    per_link = sum(k * check.integer(costs[op], f"costs[{op!r}]", 0, 10**6) for op, k in ne_operation_counts().items())
    return n * per_link


# ---------------------------------------------------------------- helpers the documents' versions share


def _inward_local(R, p, z, c, F, N) -> np.ndarray:
    """Correct local-frame inward pass (the one of :func:`newton_euler_local`), uncounted."""
    n = len(F)
    f, nn, tau = np.zeros(3), np.zeros(3), np.zeros(n)
    for i in range(n - 1, -1, -1):
        R_next, p_next = (R[i + 1], p[i + 1]) if i + 1 < n else (np.eye(3), np.zeros(3))
        nn = N[i] + R_next @ nn + _cross(c[i], F[i]) + _cross(p_next, R_next @ f)
        f = R_next @ f + F[i]
        tau[i] = nn @ z[i]
    return tau
