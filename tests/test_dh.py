"""DH link transforms and forward kinematics in both conventions, and the conversions between them.

References: each link transform is rebuilt from the elementary transforms Rz, Tz, Tx, Rx; the
planar arm from plane geometry; the conversions are checked by equal end-effector poses on random
joint values (revolute and prismatic joints, non-zero alpha and d, base and tool transforms).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import kinematics_lib as kl

RNG_SEED = 1955  # Denavit & Hartenberg


def Rz(t):
    return kl.make_transform(kl.rot_z(t), np.zeros(3))


def Rx(t):
    return kl.make_transform(kl.rot_x(t), np.zeros(3))


def Tz(d):
    return kl.translation([0.0, 0.0, d])


def Tx(a):
    return kl.translation([a, 0.0, 0.0])


def random_transform(rng):
    return kl.transform_from_xyz_rpy(rng.normal(size=3), rng.uniform(-np.pi, np.pi, 3))


def random_robot(rng, n=None, convention="standard", base_tool=True):
    n = n or int(rng.integers(1, 8))
    return kl.DHRobot(a=rng.normal(size=n), alpha=rng.uniform(-np.pi, np.pi, n), d=rng.normal(size=n),
                      theta=rng.uniform(-np.pi, np.pi, n), joint_types="".join(rng.choice(["R", "P"], n)),
                      convention=convention,
                      T_base=random_transform(rng) if base_tool else np.eye(4),
                      T_tool=random_transform(rng) if base_tool else np.eye(4))


def test_standard_link_is_the_product_of_elementary_transforms():
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(100):
        a, alpha, d, theta = rng.normal(size=4) * [1.0, 2.0, 1.0, 2.0]
        expected = Rz(theta) @ Tz(d) @ Tx(a) @ Rx(alpha)
        assert np.allclose(kl.dh_standard(a, alpha, d, theta), expected)
        assert np.allclose(kl.dh_transform(a, alpha, d, theta, "standard"), expected)


def test_modified_link_is_the_product_of_elementary_transforms():
    rng = np.random.default_rng(RNG_SEED + 1)
    for _ in range(100):
        a, alpha, d, theta = rng.normal(size=4) * [1.0, 2.0, 1.0, 2.0]
        expected = Rx(alpha) @ Tx(a) @ Rz(theta) @ Tz(d)
        assert np.allclose(kl.dh_modified(a, alpha, d, theta), expected)
        assert np.allclose(kl.dh_transform(a, alpha, d, theta, "modified"), expected)


def test_standard_link_obeys_the_two_frame_rules():
    """x_i is perpendicular to z_{i-1} and the x_i axis line meets the z_{i-1} axis."""
    rng = np.random.default_rng(RNG_SEED + 2)
    for _ in range(50):
        A = kl.dh_standard(*rng.normal(size=4))
        x_axis, origin = A[:3, 0], A[:3, 3]
        assert abs(x_axis[2]) < 1e-12  # x_i . z_{i-1} = 0
        s = -(origin[:2] @ x_axis[:2])  # the point origin + s x_i on the line closest to z_{i-1}
        assert np.allclose((origin + s * x_axis)[:2], 0.0)


def test_forward_kinematics_is_the_product_of_links_with_base_and_tool():
    rng = np.random.default_rng(RNG_SEED + 3)
    for convention in ("standard", "modified"):
        link = kl.dh_standard if convention == "standard" else kl.dh_modified
        for _ in range(30):
            robot = random_robot(rng, convention=convention)
            q = rng.normal(size=robot.n)
            T = robot.T_base.copy()
            frames = [T]
            for i in range(robot.n):
                prismatic = robot.joint_types[i] == "P"
                T = T @ link(robot.a[i], robot.alpha[i], robot.d[i] + (q[i] if prismatic else 0.0),
                             robot.theta[i] + (0.0 if prismatic else q[i]))
                frames.append(T)
            assert np.allclose(kl.dh_frames(robot, q), np.array(frames))
            assert np.allclose(kl.dh_end_effector(robot, q), T @ robot.T_tool)


def test_planar_arm_matches_plane_geometry():
    rng = np.random.default_rng(RNG_SEED + 4)
    L = np.array([0.7, 0.5, 0.3])
    arm = kl.planar_arm(L)
    for _ in range(50):
        q = rng.uniform(-np.pi, np.pi, 3)
        c = np.cumsum(q)
        T = kl.dh_end_effector(arm, q)
        assert np.allclose(T[:2, 3], [L @ np.cos(c), L @ np.sin(c)])
        assert np.allclose(T[:3, :3], kl.rot_z(c[-1]))


def test_joint_moves_along_or_about_its_axis():
    """A prismatic joint moves the end effector along its axis z; a revolute one rotates about it."""
    rng = np.random.default_rng(RNG_SEED + 5)
    for convention in ("standard", "modified"):
        robot = random_robot(rng, n=5, convention=convention)
        q = rng.normal(size=5)
        z, p, T = kl.dh_joint_axes(robot, q)
        for i in range(5):
            dq = np.zeros(5)
            dq[i] = 0.3
            T2 = kl.dh_end_effector(robot, q + dq)
            if robot.joint_types[i] == "P":
                assert np.allclose(T2[:3, 3], T[:3, 3] + 0.3 * z[i]) and np.allclose(T2[:3, :3], T[:3, :3])
            else:
                R = kl.axis_angle_to_matrix(z[i], 0.3)
                assert np.allclose(T2[:3, 3], p[i] + R @ (T[:3, 3] - p[i]))
                assert np.allclose(T2[:3, :3], R @ T[:3, :3])


@pytest.mark.parametrize("seed", range(5))
def test_standard_to_modified_gives_the_same_end_effector_on_random_q(seed):
    rng = np.random.default_rng(RNG_SEED + 10 + seed)
    for _ in range(20):
        std = random_robot(rng)
        mod = kl.standard_to_modified(std)
        assert mod.convention == "modified" and mod.joint_types == std.joint_types
        assert mod.a[0] == 0.0 and mod.alpha[0] == 0.0
        assert np.allclose(mod.a[1:], std.a[:-1]) and np.allclose(mod.alpha[1:], std.alpha[:-1])
        for q in rng.normal(size=(5, std.n)):
            assert np.allclose(kl.dh_end_effector(mod, q), kl.dh_end_effector(std, q))


@pytest.mark.parametrize("seed", range(5))
def test_modified_to_standard_gives_the_same_end_effector_on_random_q(seed):
    rng = np.random.default_rng(RNG_SEED + 20 + seed)
    for _ in range(20):
        mod = random_robot(rng, convention="modified")
        std = kl.modified_to_standard(mod)
        assert std.convention == "standard"
        for q in rng.normal(size=(5, mod.n)):
            assert np.allclose(kl.dh_end_effector(std, q), kl.dh_end_effector(mod, q))
        back = kl.standard_to_modified(std)
        q = rng.normal(size=mod.n)
        assert np.allclose(kl.dh_end_effector(back, q), kl.dh_end_effector(mod, q))


def test_conversion_keeps_the_joint_axes_but_moves_the_frames():
    """Same joint axis lines in both conventions; intermediate frames differ by Tx(a_i) Rx(alpha_i)."""
    rng = np.random.default_rng(RNG_SEED + 30)
    std = random_robot(rng, n=6)
    mod = kl.standard_to_modified(std)
    q = rng.normal(size=6)
    z_s, p_s, _ = kl.dh_joint_axes(std, q)
    z_m, p_m, _ = kl.dh_joint_axes(mod, q)
    assert np.allclose(z_s, z_m)
    assert np.allclose(np.cross(p_m - p_s, z_s), 0.0)  # the points lie on the same lines
    F_s, F_m = kl.dh_frames(std, q), kl.dh_frames(mod, q)
    for i in range(1, 7):
        assert np.allclose(F_s[i], F_m[i] @ Tx(std.a[i - 1]) @ Rx(std.alpha[i - 1]))
    assert not np.allclose(F_s[1:-1], F_m[1:-1])


def test_filling_a_standard_table_into_the_modified_formula_is_wrong():
    """The same numbers read as modified DH describe another arm (the (a, alpha) column is off by one)."""
    arm = kl.planar_arm([1.0, 0.6])
    wrong = dataclasses.replace(arm, convention="modified")
    q = np.array([0.4, 0.9])
    assert np.allclose(kl.dh_end_effector(wrong, q)[:2, 3], [1.0 + 0.6 * np.cos(0.4), 0.6 * np.sin(0.4)])
    assert not np.allclose(kl.dh_end_effector(wrong, q), kl.dh_end_effector(arm, q))


def test_dh_robot_is_frozen_and_copies_its_columns():
    a = np.array([1.0, 2.0])
    robot = kl.DHRobot(a=a, alpha=np.zeros(2), d=np.zeros(2), theta=np.zeros(2))
    a[0] = 99.0
    assert robot.a[0] == 1.0 and robot.joint_types == "RR" and robot.n == 2
    with pytest.raises(ValueError):
        robot.a[0] = 5.0  # read-only array
    with pytest.raises(dataclasses.FrozenInstanceError):
        robot.a = np.zeros(2)


def _robot(**kw):
    args = dict(a=[1.0, 1.0], alpha=[0.0, 0.0], d=[0.0, 0.0], theta=[0.0, 0.0])
    args.update(kw)
    return kl.DHRobot(**args)


@pytest.mark.parametrize("call, name", [
    (lambda: kl.dh_standard(np.nan, 0.0, 0.0, 0.0), "a"),
    (lambda: kl.dh_standard(0.0, [0.1, 0.2], 0.0, 0.0), "alpha"),
    (lambda: kl.dh_modified(0.0, 0.0, np.inf, 0.0), "d"),
    (lambda: kl.dh_modified(0.0, 0.0, 0.0, "pi"), "theta"),
    (lambda: kl.dh_transform(1.0, 0.0, 0.0, 0.0, "craig"), "convention"),
    (lambda: _robot(convention="Craig"), "convention"),
    (lambda: _robot(a=[]), "a"),
    (lambda: _robot(d=[0.0]), "d"),
    (lambda: _robot(theta=[0.0, np.nan]), "theta"),
    (lambda: _robot(alpha=np.zeros((2, 1))), "alpha"),
    (lambda: _robot(joint_types="RX"), "joint_types"),
    (lambda: _robot(joint_types="R"), "joint_types"),
    (lambda: _robot(q_min=[0.0]), "q_min"),
    (lambda: _robot(T_base=np.diag([1.0, 1.0, 1.1, 1.0])), r"T_base\[:3, :3\]"),
    (lambda: _robot(T_tool=np.eye(3)), "T_tool"),
    (lambda: kl.dh_frames(_robot(), [0.0]), "q"),
    (lambda: kl.dh_end_effector(_robot(), [0.0, np.nan]), "q"),
    (lambda: kl.standard_to_modified(_robot(convention="modified")), "robot"),
    (lambda: kl.modified_to_standard(_robot()), "robot"),
    (lambda: kl.planar_arm([1.0, -1.0]), "lengths"),
])
def test_bad_input_raises_value_error_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name}"):
        call()


def test_dh_fit_is_exact_only_for_transforms_obeying_the_rules():
    """Six degrees of freedom do not fit into four numbers; transforms built by DH do."""
    rng = np.random.default_rng(5)
    for _ in range(3):
        a, alpha, d, theta = rng.uniform(-1.5, 1.5, 4)
        T = kl.dh_standard(a, alpha, d, theta)
        assert np.allclose(kl.dh_rule_residuals(T), 0.0, atol=1e-12)
        params, res = kl.fit_dh(T)
        assert res < 1e-8
        assert np.allclose(kl.dh_standard(*params), T, atol=1e-8)
    T_random = kl.se3_exp(rng.normal(size=6))
    assert np.abs(kl.dh_rule_residuals(T_random)).max() > 1e-3
    assert kl.fit_dh(T_random)[1] > 1e-3
