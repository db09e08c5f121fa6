"""Geometric Jacobian, virtual work, manipulability and singularities (kinematics_lib.arms.kinematics).

References are independent: finite differences of the forward kinematics, the principle of
virtual work, statics by cross products, closed-form determinants of planar arms.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.geometry.rotations import so3_log

PUMA = dict(a=[0.0, 0.4318, 0.0203, 0.0, 0.0, 0.0],
            alpha=[np.pi / 2, 0.0, -np.pi / 2, np.pi / 2, -np.pi / 2, 0.0],
            d=[0.0, 0.0, 0.15005, 0.4318, 0.0, 0.0], theta=np.zeros(6))


def random_pose(rng) -> np.ndarray:
    return kl.make_transform(kl.so3_exp(rng.normal(size=3)), rng.normal(scale=0.3, size=3))


def random_arm(rng, convention: str, n: int = 6) -> kl.DHRobot:
    """A random n-joint arm with at least one prismatic joint, random base and tool."""
    types = "".join(rng.choice(["R", "R", "P"], size=n))
    types = types if "P" in types else "P" + types[1:]
    return kl.DHRobot(a=rng.uniform(-0.5, 0.5, n), alpha=rng.uniform(-np.pi, np.pi, n),
                      d=rng.uniform(-0.3, 0.3, n), theta=rng.uniform(-np.pi, np.pi, n),
                      joint_types=types, convention=convention,
                      T_base=random_pose(rng), T_tool=random_pose(rng))


def fd_jacobian(robot: kl.DHRobot, q: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """Finite differences of the FK, written independently of the library's own helper.

    Linear rows: central differences of the tool position. Angular rows: the rotation vector
    so3_log(R(q + h e_i) R(q)^T) / h, averaged with the backward one (central, O(h^2)).
    """
    T0 = kl.dh_end_effector(robot, q)
    J = np.zeros((6, robot.n))
    for i in range(robot.n):
        e = np.zeros(robot.n)
        e[i] = h
        Tp, Tm = kl.dh_end_effector(robot, q + e), kl.dh_end_effector(robot, q - e)
        J[:3, i] = (Tp[:3, 3] - Tm[:3, 3]) / (2 * h)
        w_fwd = so3_log(Tp[:3, :3] @ T0[:3, :3].T) / h
        w_bwd = so3_log(T0[:3, :3] @ Tm[:3, :3].T) / h
        J[3:, i] = 0.5 * (w_fwd + w_bwd)
    return J


# --- the geometric Jacobian --------------------------------------------------------------------

@pytest.mark.parametrize("convention", ["standard", "modified"])
@pytest.mark.parametrize("seed", range(6))
def test_jacobian_matches_finite_differences(convention, seed):
    rng = np.random.default_rng(seed)
    robot = random_arm(rng, convention, n=int(rng.integers(3, 8)))
    for _ in range(4):
        q = rng.uniform(-np.pi, np.pi, robot.n)
        J = kl.geometric_jacobian(robot, q)
        np.testing.assert_allclose(J, fd_jacobian(robot, q), atol=1e-7)
        np.testing.assert_allclose(kl.numerical_jacobian(robot, q), J, atol=1e-7)


def test_rotation_difference_along_one_joint_is_exact():
    """Turning joint i alone rotates the tool about the fixed world axis z_i, so
    R(q + h e_i) R(q)^T = exp(h [z_i]) exactly: so3_log(...) / h equals column i even for big h."""
    robot = kl.DHRobot(**PUMA)
    q = np.array([0.3, -0.4, 0.5, 0.6, -0.7, 0.8])
    J = kl.geometric_jacobian(robot, q)
    R0 = kl.dh_end_effector(robot, q)[:3, :3]
    for h in (0.5, 1e-3):
        for i in range(6):
            Rh = kl.dh_end_effector(robot, q + h * np.eye(6)[i])[:3, :3]
            np.testing.assert_allclose(so3_log(Rh @ R0.T) / h, J[3:, i], atol=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_column_structure_revolute_and_prismatic(seed):
    rng = np.random.default_rng(10 + seed)
    robot = random_arm(rng, "standard")
    q = rng.uniform(-1, 1, robot.n)
    z, p, T_WE = kl.dh_joint_axes(robot, q)
    J = kl.geometric_jacobian(robot, q)
    for i, kind in enumerate(robot.joint_types):
        if kind == "R":
            np.testing.assert_allclose(J[:3, i], np.cross(z[i], T_WE[:3, 3] - p[i]), atol=1e-12)
            np.testing.assert_allclose(J[3:, i], z[i], atol=1e-12)
        else:
            np.testing.assert_allclose(J[:3, i], z[i], atol=1e-12)
            np.testing.assert_allclose(J[3:, i], 0.0, atol=1e-15)


@pytest.mark.parametrize("seed", range(4))
def test_standard_and_modified_tables_give_the_same_jacobian(seed):
    """z_{i-1}, p_{i-1} (standard DH) and z_i, p_i (modified DH) name the same physical axis."""
    rng = np.random.default_rng(20 + seed)
    std = random_arm(rng, "standard")
    mod = kl.standard_to_modified(std)
    q = rng.uniform(-np.pi, np.pi, std.n)
    np.testing.assert_allclose(kl.geometric_jacobian(mod, q), kl.geometric_jacobian(std, q), atol=1e-12)
    z_std, p_std, _ = kl.dh_joint_axes(std, q)
    z_mod, p_mod, _ = kl.dh_joint_axes(mod, q)
    np.testing.assert_allclose(z_std, z_mod, atol=1e-12)
    for i in range(std.n):  # the points may differ, but only along the common axis
        np.testing.assert_allclose(np.cross(z_std[i], p_mod[i] - p_std[i]), 0.0, atol=1e-12)


# --- velocity and force mapping ------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_virtual_work_tau_equals_JT_F(seed):
    """The work of F = [f; m] on a small displacement equals the work of tau = J^T F on dq."""
    rng = np.random.default_rng(30 + seed)
    robot = random_arm(rng, "modified")
    q = rng.uniform(-np.pi, np.pi, robot.n)
    F = rng.normal(size=6)
    dq = rng.normal(size=robot.n)
    eps = 1e-6
    Tp, Tm = kl.dh_end_effector(robot, q + eps * dq), kl.dh_end_effector(robot, q - eps * dq)
    dp = (Tp[:3, 3] - Tm[:3, 3]) / (2 * eps)
    dphi = so3_log(Tp[:3, :3] @ Tm[:3, :3].T) / (2 * eps)
    tau = kl.geometric_jacobian(robot, q).T @ F
    assert math.isclose(F[:3] @ dp + F[3:] @ dphi, tau @ dq, rel_tol=1e-6, abs_tol=1e-8)


def test_planar_statics_by_cross_products():
    """A tip force f on a planar arm: joint i must supply tau_i = ((p_E - p_i) x f)_z."""
    rng = np.random.default_rng(40)
    arm = kl.planar_arm([1.0, 0.8, 0.5])
    for _ in range(5):
        q = rng.uniform(-np.pi, np.pi, 3)
        f = np.array([*rng.normal(size=2), 0.0])
        z, p, T_WE = kl.dh_joint_axes(arm, q)
        expected = [np.cross(T_WE[:3, 3] - p[i], f)[2] for i in range(3)]
        tau = kl.geometric_jacobian(arm, q).T @ np.concatenate([f, np.zeros(3)])
        np.testing.assert_allclose(tau, expected, atol=1e-12)


# --- manipulability and conditioning -------------------------------------------------------------

@pytest.mark.parametrize("shape", [(2, 3), (3, 3), (6, 6), (6, 7), (1, 4)])
def test_manipulability_is_product_of_singular_values(shape):
    rng = np.random.default_rng(50)
    J = rng.normal(size=shape)
    w = kl.manipulability(J)
    assert math.isclose(w, math.sqrt(np.linalg.det(J @ J.T)), rel_tol=1e-9)
    assert math.isclose(w, float(np.prod(np.linalg.svd(J, compute_uv=False))), rel_tol=1e-12)
    if shape[0] == shape[1]:
        assert math.isclose(w, abs(np.linalg.det(J)), rel_tol=1e-9)


def test_manipulability_of_2r_is_L1_L2_abs_sin_q2():
    rng = np.random.default_rng(51)
    L1, L2 = 1.0, 0.7
    arm = kl.planar_arm([L1, L2])
    for q in rng.uniform(-np.pi, np.pi, (20, 2)):
        J = kl.geometric_jacobian(arm, q)[:2]
        assert math.isclose(kl.manipulability(J), L1 * L2 * abs(math.sin(q[1])), abs_tol=1e-12)
        assert math.isclose(np.linalg.det(J), L1 * L2 * math.sin(q[1]), abs_tol=1e-12)


def test_manipulability_gradient_matches_the_closed_form():
    arm = kl.planar_arm([1.0, 0.7])
    for q2 in (0.3, 1.2, -0.8, 2.5):
        g = kl.manipulability_gradient(arm, [0.4, q2], task="planar_position")
        np.testing.assert_allclose(g, [0.0, 0.7 * math.cos(q2) * np.sign(math.sin(q2))], atol=1e-7)


def test_condition_number_is_inf_at_singularities_never_nan():
    arm = kl.planar_arm([1.0, 0.7])
    puma = kl.DHRobot(**PUMA)
    singular = [kl.geometric_jacobian(arm, [0.3, 0.0])[:2],            # 2R stretched
                kl.geometric_jacobian(arm, [0.3, np.pi])[:2],          # 2R folded
                kl.geometric_jacobian(puma, [0.1, 0.4, -0.3, 0.5, 0.0, 0.2]),  # PUMA wrist q5 = 0
                np.zeros((2, 3))]
    for J in singular:
        kappa = kl.condition_number(J)
        assert kappa == math.inf and not math.isnan(kappa)
    J = kl.geometric_jacobian(arm, [0.3, 1.0])[:2]
    s = np.linalg.svd(J, compute_uv=False)
    assert math.isclose(kl.condition_number(J), s[0] / s[1], rel_tol=1e-12)


# --- singularity reports -------------------------------------------------------------------------

@pytest.mark.parametrize("q2", [0.0, np.pi, -np.pi])
def test_2r_stretched_and_folded_are_singular_with_radial_lost_direction(q2):
    arm = kl.planar_arm([1.0, 0.7])
    q1 = 0.6
    rep = kl.singularity_report(kl.geometric_jacobian(arm, [q1, q2])[:2])
    assert rep.singular and rep.rank == 1
    assert rep.kappa == math.inf and rep.manipulability < 1e-12
    radial = np.array([math.cos(q1), math.sin(q1)])
    assert math.isclose(abs(rep.lost_direction @ radial), 1.0, rel_tol=1e-9)
    assert "SINGULAR" in str(rep)


def test_2r_regular_configuration_is_not_singular():
    arm = kl.planar_arm([1.0, 0.7])
    rep = kl.singularity_report(kl.geometric_jacobian(arm, [0.6, 1.0])[:2])
    assert not rep.singular and rep.rank == 2 and math.isfinite(rep.kappa)


def planar_3r(q, L=(1.0, 0.8, 0.5), task="planar_pose"):
    arm = kl.planar_arm(L)
    return kl.geometric_jacobian(arm, q)[list(kl.arms.kinematics.task_rows(task))]


def test_3r_full_task_determinant_is_L1_L2_sin_q2_independent_of_q3():
    rng = np.random.default_rng(60)
    L = (1.0, 0.8, 0.5)
    for q in rng.uniform(-np.pi, np.pi, (20, 3)):
        assert math.isclose(np.linalg.det(planar_3r(q, L)), L[0] * L[1] * math.sin(q[1]), abs_tol=1e-12)


def test_3r_position_task_minors_cauchy_binet():
    """det(J J^T) of the 2x3 position Jacobian = sum of squared 2x2 minors:
    M23 = L2 L3 sin q3, M13 = L1 L3 sin(q2 + q3) + L2 L3 sin q3, M12 = L1 (L2 sin q2 + L3 sin(q2 + q3))."""
    rng = np.random.default_rng(61)
    L1, L2, L3 = 1.0, 0.8, 0.5
    for q in rng.uniform(-np.pi, np.pi, (20, 3)):
        J = planar_3r(q, (L1, L2, L3), "planar_position")
        s2, s3, s23 = math.sin(q[1]), math.sin(q[2]), math.sin(q[1] + q[2])
        minors = [L1 * (L2 * s2 + L3 * s23), L1 * L3 * s23 + L2 * L3 * s3, L2 * L3 * s3]
        assert math.isclose(np.linalg.det(J @ J.T), sum(m * m for m in minors), rel_tol=1e-9, abs_tol=1e-12)


@pytest.mark.parametrize("q2", [0.0, np.pi])
@pytest.mark.parametrize("q3", [0.0, np.pi, 0.7, -2.0])
def test_3r_full_task_singular_iff_sin_q2_zero(q2, q3):
    rep = kl.singularity_report(planar_3r([0.4, q2, q3]))
    assert rep.singular and rep.rank == 2


@pytest.mark.parametrize("q2, q3, singular", [
    (0.0, 0.0, True), (0.0, np.pi, True), (np.pi, 0.0, True), (np.pi, np.pi, True),  # all on one line
    (1.0, 0.0, False), (1.0, np.pi, False),     # links 2 and 3 collinear: NOT singular
    (0.0, 1.0, False), (np.pi, -1.2, False),    # links 1 and 2 collinear only: not singular either
])
def test_3r_position_task_singular_iff_the_whole_arm_is_on_one_line(q2, q3, singular):
    rep = kl.singularity_report(planar_3r([0.4, q2, q3], task="planar_position"))
    assert rep.singular is singular


def test_3r_links_2_and_3_collinear_is_regular_for_the_full_task():
    """The published answer calls q3 = 0 an internal singularity; det J = L1 L2 sin q2 says no."""
    for q3 in (0.0, np.pi):
        rep = kl.singularity_report(planar_3r([0.4, 1.0, q3]))
        assert not rep.singular and rep.sigma[-1] > 0.1


# --- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: kl.geometric_jacobian(kl.planar_arm([1.0, 1.0]), [0.0]), "q"),
    (lambda: kl.geometric_jacobian("arm", [0.0]), "robot"),
    (lambda: kl.manipulability(np.ones((3, 2))), "J"),
    (lambda: kl.manipulability([[1.0, np.nan]]), "J"),
    (lambda: kl.condition_number(np.ones(3)), "J"),
    (lambda: kl.singularity_report(np.eye(2), tol=-1.0), "tol"),
    (lambda: kl.task_rows("spin"), "task"),
    (lambda: kl.task_rows((0, 7)), "task"),
    (lambda: kl.jacobian_from_axes(np.zeros((2, 3)), np.zeros((2, 3)), np.zeros(3), "RX"), "joint_types"),
    (lambda: kl.jacobian_from_axes(np.zeros((2, 2)), np.zeros((2, 3)), np.zeros(3), "RR"), "z"),
    (lambda: kl.numerical_jacobian(kl.planar_arm([1.0]), [0.0], h=0.0), "h"),
    (lambda: kl.numerical_jacobian(3.0, [0.0]), "fk"),
    (lambda: kl.manipulability_gradient(kl.planar_arm([1.0, 1.0]), [0.0, 0.1], task="twist"), "task"),
])
def test_bad_input_raises_value_error_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        call()
