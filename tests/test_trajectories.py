"""Time scalings and trajectories (issue 22, item 7).

Defining properties (boundary values, velocities and accelerations equal to finite differences,
the geodesic orientation, the straight-line origin) and Modern Robotics' documented examples of
CubicTimeScaling, QuinticTimeScaling, JointTrajectory and CartesianTrajectory (numbers restated
from MR's docstrings; its rows are kl's q, its list of poses kl's T).
"""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl

SCALINGS = {"cubic": kl.cubic_time_scaling, "quintic": kl.quintic_time_scaling}


def test_modern_robotics_time_scaling_examples():
    assert np.isclose(kl.cubic_time_scaling(2.0, 0.6)[0], 0.216, atol=1e-15)
    assert np.isclose(kl.quintic_time_scaling(2.0, 0.6)[0], 0.16308, atol=1e-15)


@pytest.mark.parametrize("method", sorted(SCALINGS))
def test_time_scaling_properties(method):
    f, T = SCALINGS[method], 1.7
    s, sd, sdd = f(T, np.array([0.0, T]))
    assert np.allclose(s, [0.0, 1.0]) and np.allclose(sd, 0.0)
    if method == "quintic":
        assert np.allclose(sdd, 0.0)
    t, h = np.linspace(0.05, T - 0.05, 30), 1e-5
    s, sd, sdd = f(T, t)
    assert np.allclose(sd, (f(T, t + h)[0] - f(T, t - h)[0]) / (2 * h), atol=1e-8)
    assert np.allclose(sdd, (f(T, t + h)[1] - f(T, t - h)[1]) / (2 * h), atol=1e-6)
    assert np.all(np.diff(s) > 0) and f(T, -1.0) == (0.0, 0.0, 0.0) and f(T, 2 * T) == (1.0, 0.0, 0.0)


def test_modern_robotics_joint_trajectory_example():
    q0 = np.array([1, 0, 0, 1, 1, 0.2, 0, 1.0])
    q1 = np.array([1.2, 0.5, 0.6, 1.1, 2, 2, 0.9, 1.0])
    t, q, qd, qdd = kl.joint_trajectory(q0, q1, 4.0, 6, method="cubic")
    expected = np.array([[1, 0, 0, 1, 1, 0.2, 0, 1],
                         [1.0208, 0.052, 0.0624, 1.0104, 1.104, 0.3872, 0.0936, 1],
                         [1.0704, 0.176, 0.2112, 1.0352, 1.352, 0.8336, 0.3168, 1],
                         [1.1296, 0.324, 0.3888, 1.0648, 1.648, 1.3664, 0.5832, 1],
                         [1.1792, 0.448, 0.5376, 1.0896, 1.896, 1.8128, 0.8064, 1],
                         [1.2, 0.5, 0.6, 1.1, 2, 2, 0.9, 1]])
    assert np.allclose(t, np.linspace(0, 4, 6)) and np.allclose(q, expected, atol=1e-12)


@pytest.mark.parametrize("method", sorted(SCALINGS))
def test_joint_trajectory_derivatives(method):
    rng = np.random.default_rng(1)
    q0, q1 = rng.normal(size=(2, 5))
    t, q, qd, qdd = kl.joint_trajectory(q0, q1, 2.0, 2001, method=method)
    dt = t[1] - t[0]
    assert np.allclose(np.gradient(q, dt, axis=0)[1:-1], qd[1:-1], atol=1e-5)
    assert np.allclose(np.gradient(qd, dt, axis=0)[2:-2], qdd[2:-2], atol=1e-4)


def test_modern_robotics_cartesian_trajectory_example():
    X0 = np.array([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 1], [0, 0, 0, 1.0]])
    X1 = np.array([[0, 0, 1, 0.1], [1, 0, 0, 0], [0, 1, 0, 4.1], [0, 0, 0, 1.0]])
    traj = kl.cartesian_trajectory(X0, X1, 5.0, 4, method="quintic")
    assert np.allclose(traj.T[0], X0) and np.allclose(traj.T[-1], X1, atol=1e-12)
    assert np.allclose(traj.T[1], [[0.937, -0.214, 0.277, 0.811], [0.277, 0.937, -0.214, 0],
                                   [-0.214, 0.277, 0.937, 1.651], [0, 0, 0, 1]], atol=5e-4)
    assert np.allclose(traj.T[2], [[0.277, -0.214, 0.937, 0.289], [0.937, 0.277, -0.214, 0],
                                   [-0.214, 0.937, 0.277, 3.449], [0, 0, 0, 1]], atol=5e-4)


def test_cartesian_trajectory_is_straight_and_geodesic():
    rng = np.random.default_rng(2)
    T0 = kl.make_transform(kl.so3_exp(rng.normal(size=3)), rng.normal(size=3))
    T1 = kl.make_transform(kl.so3_exp(rng.normal(size=3)), rng.normal(size=3))
    t, T, V, A = kl.cartesian_trajectory(T0, T1, 3.0, 3001)
    s = kl.quintic_time_scaling(3.0, t)[0]
    q0, q1 = kl.matrix_to_quat(T0[:3, :3]), kl.matrix_to_quat(T1[:3, :3])
    for k in (0, 700, 1500, 3000):
        assert np.allclose(T[k, :3, 3], T0[:3, 3] + s[k] * (T1[:3, 3] - T0[:3, 3]))
        assert np.allclose(T[k, :3, :3], kl.quat_to_matrix(kl.slerp(q0, q1, s[k])), atol=1e-12)
    dt = t[1] - t[0]
    # V: the twist (world axes) that moves the poses: dp/dt and [omega]x = dR/dt R^T
    assert np.allclose(np.gradient(T[:, :3, 3], dt, axis=0)[1:-1], V[1:-1, :3], atol=1e-5)
    dR = np.gradient(T[:, :3, :3], dt, axis=0)
    omega = np.array([kl.vee(dR[k] @ T[k, :3, :3].T) for k in range(1, len(t) - 1)])
    assert np.allclose(omega, V[1:-1, 3:], atol=1e-5)
    assert np.allclose(np.gradient(V, dt, axis=0)[2:-2], A[2:-2], atol=1e-4)


def test_bad_input():
    with pytest.raises(kl.InputError, match="method"):
        kl.joint_trajectory([0.0], [1.0], 1.0, 5, method="septic")
    with pytest.raises(kl.InputError, match="n must"):
        kl.joint_trajectory([0.0], [1.0], 1.0, 1)
    with pytest.raises(kl.InputError, match="duration"):
        kl.cubic_time_scaling(0.0, 0.5)
    with pytest.raises(kl.InputError, match="q1"):
        kl.joint_trajectory([0.0, 1.0], [1.0], 1.0, 5)


@pytest.mark.parametrize("method", sorted(SCALINGS))
def test_point_to_point_reference_is_the_joint_trajectory_in_time(method):
    q0, q1 = np.array([0.0, 0.3]), np.array([0.8, 0.9])
    ref = kl.point_to_point_reference(q0, q1, 1.5, method=method)
    t, q, qd, qdd = kl.joint_trajectory(q0, q1, 1.5, 7, method=method)
    for k in range(7):
        got = ref(t[k])
        assert np.allclose(got[0], q[k]) and np.allclose(got[1], qd[k]) and np.allclose(got[2], qdd[k])
    assert np.allclose(ref(5.0)[0], q1) and not ref(5.0)[1].any()


def test_computed_torque_tracks_a_point_to_point_move_exactly():
    """With the exact model and a start on the reference the tracking error stays at rounding level."""
    arm = kl.TwoLinkArm()
    ref = kl.point_to_point_reference([0.0, 0.3], [0.8, 0.9], 1.5)
    Kp, Kd = kl.pd_gains(20.0, 1.0)
    run = kl.simulate_continuous(arm, kl.computed_torque_controller(arm, ref, Kp, Kd), [0.0, 0.3], [0.0, 0.0], 2.0, 1e-3)
    assert np.abs(np.array([ref(t)[0] for t in run.t]) - run.q).max() < 1e-9
