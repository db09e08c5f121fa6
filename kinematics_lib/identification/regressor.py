"""Linearity in the inertial parameters: the joint-torque regressor Y(q, v, a) with Y pi = RNEA.

A spatial inertia about a body frame's origin is linear in ten numbers (Pinocchio's order,
``pin.Inertia.toDynamicParameters``):

    pi_i = [m, m c_x, m c_y, m c_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz]       (kg, kg m, kg m^2)

with c the centre of mass and I the rotational inertia **about the body frame's origin**
(I = I_c - m [c]x^2, the parallel-axis theorem), both in body axes:

    I(pi) = [[m 1, -[h]x], [[h]x, I]],   h = m c          ([linear; angular] order)

The body's equation of motion f_i = I_i a_i + v_i x* I_i v_i is therefore linear in pi_i,
f_i = A_i pi_i with the (6, 10) *body regressor* A_i = Phi(a_i) + crf(v_i) Phi(v_i), where
Phi(x) pi = I(pi) x. RNEA's inward pass sums each body's force into its own joint and every
ancestor joint, so joint j's torque is a sum over the bodies of j's subtree:

    tau_j = S_j^T sum_{i in subtree(j)} (^iX_j)^T A_i pi_i     =>    Y[j, block i] = S_j^T (^iX_j)^T A_i

Floating base: the first six rows are the base wrench in the base frame, like :func:`rnea`.
Every function here accepts a leading batch axis over states (a trajectory).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..dynamics.joints import jcalc
from ..dynamics.model import Model  # noqa: F401 (Model: type hints)
from ..geometry.spatial import crf, spatial_inertia
from ..geometry.kernels import crf as _crf, crm as _crm
from ..geometry.kernels import skew as _skew

__all__ = [
    "PARAMETER_NAMES",
    "body_regressor",
    "inertial_parameters_of",
    "inertial_parameters",
    "inertia_from_parameters",
    "parameter_labels",
    "joint_torque_regressor",
    "stack_regressor",
]

#: the ten inertial parameters of one body, in Pinocchio's order
PARAMETER_NAMES = ("m", "mcx", "mcy", "mcz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz")

def _phi_basis() -> np.ndarray:
    """G (6, 6, 10): Phi(x) = sum_k x_k G[k] with I(pi) x = Phi(x) pi.

    For x = [v; w]:  I(pi) x = [m v + w x h;  h x v + I w]  =  [[v, [w]x, 0], [0, -[v]x, L(w)]] pi,
    L(w) (3, 6) the map (Ixx, Ixy, Iyy, Ixz, Iyz, Izz) -> I w.
    """
    G = np.zeros((6, 6, 10))
    for k in range(3):
        e = np.eye(3)[k]
        G[k, :3, 0] = e  # m v
        G[k, 3:, 1:4] = -_skew(e)  # h x v = -[v]x h
        G[3 + k, :3, 1:4] = _skew(e)  # w x h = [w]x h
        # I w: row r of I w is sum_c I_rc w_c; column of each parameter in L(w)
    sym = {(0, 0): 4, (0, 1): 5, (1, 1): 6, (0, 2): 7, (1, 2): 8, (2, 2): 9}
    for (r, c), col in sym.items():
        G[3 + c, 3 + r, col] = 1.0
        G[3 + r, 3 + c, col] = 1.0
    return G


_G = _phi_basis()


def _phi(x: np.ndarray) -> np.ndarray:
    """Phi(x) (..., 6, 10) for motion vectors x (..., 6)."""
    return np.tensordot(x, _G, axes=([-1], [0]))


def body_regressor(a, v) -> np.ndarray:
    """A (6, 10) with  I(pi) a + v x* I(pi) v = A pi  for every pi  (one body's Newton-Euler equation).

    a, v: spatial acceleration and velocity of the body, [linear; angular] in body coordinates
    (m/s^2, rad/s^2; m/s, rad/s), shape (6,) or a stack (N, 6) -> (N, 6, 10). The force f = A pi
    is [force (N); moment about the body origin (N m)].

    >>> import numpy as np
    >>> pi = inertial_parameters_of(spatial_inertia(2.0, [0.1, 0.0, 0.0], np.eye(3)))
    >>> a, v = np.arange(6.0), np.ones(6)
    >>> I = inertia_from_parameters(pi)
    >>> bool(np.allclose(body_regressor(a, v) @ pi, I @ a + crf(v) @ I @ v))
    True
    """
    a, v = _motion(a, "a"), _motion(v, "v")
    if a.shape != v.shape:
        raise check.InputError(f"a and v must have the same shape, got {a.shape} and {v.shape}")
    return check.finite_result(body_regressor_batch(a, v), "A", "a, v")


def _motion(x, name: str) -> np.ndarray:
    arr = check._array(x, name)
    if arr.ndim not in (1, 2) or arr.shape[-1] != 6:
        raise check.InputError(f"{name} must have shape (6,) or (N, 6), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise check.InputError(f"{name} must contain only finite numbers")
    return arr


def inertial_parameters_of(I) -> np.ndarray:
    """pi (10,) of one spatial inertia (6, 6) about its frame origin (Pinocchio's order)."""
    return _parameters_of(check.spatial_inertia(check.matrix(I, (6, 6), "I"), "I"))


def _parameters_of(I: np.ndarray) -> np.ndarray:
    h = np.array([I[5, 1], I[3, 2], I[4, 0]])  # I[3:, :3] = [h]x
    J = I[3:, 3:]
    return np.array([I[0, 0], *h, J[0, 0], J[0, 1], J[1, 1], J[0, 2], J[1, 2], J[2, 2]])


def inertial_parameters(model: Model) -> np.ndarray:
    """pi (10 nb,): the inertial parameters of every body, body after body, Pinocchio's order.

    Per body [m, m c_x, m c_y, m c_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz] (kg, kg m, kg m^2),
    c and I about the body (= joint) frame's origin in its axes; the same as concatenating
    ``pin.Inertia.toDynamicParameters()`` over Pinocchio's joints. ``Y @ pi == rnea``.
    """
    check.model(model)
    return np.concatenate([_parameters_of(I) for I in model.inertia])


def inertia_from_parameters(pi) -> np.ndarray:
    """The spatial inertia (6, 6) of pi (10,): [[m 1, -[h]x], [[h]x, I]] (no physical check).

    The inverse of :func:`inertial_parameters` for one body. Identified parameters need not be
    physically consistent (m > 0 and a positive definite pseudo-inertia); this map does not ask.
    """
    pi = check.vector(pi, 10, "pi")
    m, h = pi[0], pi[1:4]
    Ixx, Ixy, Iyy, Ixz, Iyz, Izz = pi[4:]
    out = np.zeros((6, 6))
    out[:3, :3] = m * np.eye(3)
    out[:3, 3:] = -_skew(h)
    out[3:, :3] = _skew(h)
    out[3:, 3:] = [[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]]
    return out


def parameter_labels(model: Model) -> tuple[str, ...]:
    """Names of the 10 nb parameters, e.g. 'm[link1]', 'Izz[link2]' (the columns of Y)."""
    check.model(model)
    return tuple(f"{p}[{b}]" for b in model.body_names for p in PARAMETER_NAMES)


def _batch(model: Model, q, v, a, names=("q", "v", "a")):
    """(Q (N, nq), V (N, nv), A (N, nv), single): validated states with a leading batch axis.

    ``names``: how the caller calls q, v and a (for the error messages)."""
    arrays = []
    for x, n, name in zip((q, v, a), (model.nq, model.nv, model.nv), names):
        arr = check._array(x, name)
        if arr.ndim not in (1, 2) or arr.shape[-1] != n:
            raise check.InputError(f"{name} must have shape ({n},) or (N, {n}), got shape {arr.shape}")
        if not np.all(np.isfinite(arr)):
            raise check.InputError(f"{name} must contain only finite numbers")
        arrays.append(arr)
    for i, kind in enumerate(model.joint_types):  # the floating base's attitude: a unit quaternion
        if kind == "free":
            k = model.q_slice[i].start + 3
            norm2 = np.sum(arrays[0][..., k:k + 4] ** 2, axis=-1)
            if not np.all(np.abs(norm2 - 1.0) <= 1e-6):
                raise check.InputError(f"{names[0]}[{k}:{k + 4}] must be a unit quaternion (x, y, z, w), got norm "
                                       f"{np.sqrt(norm2).flat[np.argmax(np.abs(norm2 - 1.0))]:.6g}")
    ref = arrays[0]
    odd = [i for i, x in enumerate(arrays) if x.ndim != ref.ndim or (x.ndim == 2 and x.shape[0] != ref.shape[0])]
    if odd:
        raise check.InputError(f"{names[odd[0]]} has shape {arrays[odd[0]].shape}, {names[0]} {ref.shape}: "
                               f"{', '.join(names[:2])} and {names[2]} must all be single states or stacks of the "
                               "same length N")
    single = arrays[0].ndim == 1
    return (*(x[None] if single else x for x in arrays), single)


def _joint_transforms_batch(model: Model, Q: np.ndarray) -> np.ndarray:
    """jcalc over a batch: Xup (nb, N, 6, 6), the motion transforms parent -> body i at each state.

    1-dof joints: Xup = X_J(q) X_tree with X_J = I + c1 E1 + c2 E2 (Rodrigues: revolute c1 = sin q,
    c2 = 1 - cos q, E1 = -diag([a]x, [a]x), E2 = diag([a]x^2, [a]x^2); prismatic c1 = q, c2 = 0,
    E1 = [[0, -[a]x], [0, 0]]). A free joint goes through :func:`jcalc` state by state.
    """
    N = Q.shape[0]
    Xup = np.empty((model.nb, N, 6, 6))
    for i, kind in enumerate(model.joint_types):
        if kind == "free":
            Xup[i] = [jcalc(model, i, qk[model.q_slice[i]])[0] for qk in Q]
            continue
        q, K, X = Q[:, model.q_slice[i].start], _skew(model.axes[i]), model.X_tree[i]
        E1, E2 = np.zeros((6, 6)), np.zeros((6, 6))
        if kind == "prismatic":
            E1[:3, 3:] = -K
            c1, c2 = q, np.zeros(N)
        else:
            E1[:3, :3] = E1[3:, 3:] = -K
            E2[:3, :3] = E2[3:, 3:] = K @ K
            c1, c2 = np.sin(q), 1.0 - np.cos(q)
        Xup[i] = X + c1[:, None, None] * (E1 @ X) + c2[:, None, None] * (E2 @ X)
    return Xup


def _body_motions(model: Model, Xup: np.ndarray, V: np.ndarray, A: np.ndarray):
    """RNEA's outward pass over a batch: body velocities and accelerations (nb, N, 6), body coordinates.

    v_i = Xup_i v_parent + S_i qd_i;  a_i = Xup_i a_parent + S_i qdd_i + v_i x S_i qd_i;
    the world (parent -1) is at rest and accelerates at -g (gravity as a fictitious acceleration).
    """
    N, nb = V.shape[0], model.nb
    a0 = np.concatenate([-model.gravity, np.zeros(3)])
    vel, acc = np.empty((nb, N, 6)), np.empty((nb, N, 6))
    for i in range(nb):
        S, p, s = model.S[i], model.parent[i], model.v_slice[i]
        vJ = V[:, s] @ S.T
        v_p = vel[p] if p >= 0 else np.zeros((N, 6))
        a_p = acc[p] if p >= 0 else np.broadcast_to(a0, (N, 6))
        vel[i] = (Xup[i] @ v_p[:, :, None])[:, :, 0] + vJ
        acc[i] = (Xup[i] @ a_p[:, :, None])[:, :, 0] + A[:, s] @ S.T + (_crm(vel[i]) @ vJ[:, :, None])[:, :, 0]
    return vel, acc


def joint_torque_regressor(model: Model, q, v, a) -> np.ndarray:
    """Y(q, v, a) (nv, 10 nb) with  Y @ inertial_parameters(model) == rnea(model, q, v, a).

    The same matrix as Pinocchio's ``computeJointTorqueRegressor`` (columns body after body in
    the order of :data:`PARAMETER_NAMES`; floating base: the first six rows are the base wrench
    [force; moment] in the base frame). q (nq,), v (nv,), a (nv,) -> (nv, 10 nb); with a
    leading batch axis, q (N, nq), v (N, nv), a (N, nv) -> (N, nv, 10 nb). Rows in N m (revolute)
    or N (prismatic) per unit parameter.

    RNEA's two passes with the inertias left symbolic: the outward pass (velocities and
    accelerations, no inertia needed) gives each body's regressor A_i (f_i = A_i pi_i); the
    inward pass carries A_i to joint i and to each ancestor j, Y[j, block i] = S_j^T (^iX_j)^T A_i.
    O(nb * depth) per state, like CRBA.
    """
    check.model(model)
    Q, V, Acc, single = _batch(model, q, v, a)
    Y = check.finite_result(_regressor(model, Q, V, Acc), "Y", "q, v, a")
    return Y[0] if single else Y


def _regressor(model: Model, Q: np.ndarray, V: np.ndarray, Acc: np.ndarray) -> np.ndarray:
    """:func:`joint_torque_regressor` on checked stacks Q (N, nq), V, Acc (N, nv) -> (N, nv, 10 nb)."""
    N, nb = Q.shape[0], model.nb
    Xup = _joint_transforms_batch(model, Q)  # (nb, N, 6, 6): parent -> body i
    vel, acc = _body_motions(model, Xup, V, Acc)  # outward pass
    A = body_regressor_batch(acc, vel)  # (nb, N, 6, 10): f_i = A_i pi_i
    Y = np.zeros((N, model.nv, 10 * nb))
    for i in range(nb):  # inward pass: body i's force acts on joint i and on every ancestor joint
        F, j = A[i], i
        while j >= 0:
            Y[:, model.v_slice[j], 10 * i:10 * i + 10] = model.S[j].T @ F  # tau_j += S_j^T f
            F = Xup[j].transpose(0, 2, 1) @ F  # the same force in the parent's coordinates
            j = model.parent[j]
    return Y


def body_regressor_batch(acc: np.ndarray, vel: np.ndarray) -> np.ndarray:
    """:func:`body_regressor` on stacks (..., 6) without input checks (inner helper)."""
    return _phi(acc) + _crf(vel) @ _phi(vel)


def stack_regressor(Y, tau=None):
    """Stack a trajectory's regressors (N, nv, p) into W (N nv, p) (and tau (N, nv) into (N nv,)).

    Rows are sample after sample, joint after joint within a sample: W = [Y(t_1); Y(t_2); ...].
    Returns W, or (W, tau_stacked) when tau is given.
    """
    Y = check._array(Y, "Y")
    if Y.ndim != 3 or Y.shape[0] == 0 or not np.all(np.isfinite(Y)):
        raise check.InputError(f"Y must be a finite, non-empty stack of regressors of shape (N, nv, p), "
                               f"got shape {Y.shape}")
    W = Y.reshape(-1, Y.shape[2])
    if tau is None:
        return W
    tau = check.agreeing(tau, Y.shape[:2], "tau", "Y")
    return W, tau.reshape(-1)
