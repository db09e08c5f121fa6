"""Operational-space control of a full pose on the Panda (issue 24, item 2): the SO(3) logarithm as the
orientation error, each promised closed loop checked against its analytic solution."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl

MODEL = kl.dh_model(kl.panda_arm())
Q0 = np.array([0.0, -0.3, 0.0, -2.0, 0.0, 1.8, 0.8])


def _errors(run, reference):
    return np.array([kl.pose_error(kl.frame_placement(MODEL, q, "tool"), reference(t)[0]) for t, q in zip(run.t, run.q)])


def test_pose_error_is_position_difference_and_rotation_still_to_go():
    rng = np.random.default_rng(3)
    for _ in range(10):
        T, T_d = np.eye(4), np.eye(4)
        T[:3, :3], T_d[:3, :3] = kl.so3_exp(rng.normal(size=3)), kl.so3_exp(rng.normal(size=3))
        T[:3, 3], T_d[:3, 3] = rng.normal(size=3), rng.normal(size=3)
        e = kl.pose_error(T, T_d)
        np.testing.assert_allclose(e[:3], T_d[:3, 3] - T[:3, 3], atol=1e-12)
        np.testing.assert_allclose(kl.so3_exp(e[3:]) @ T[:3, :3], T_d[:3, :3], atol=1e-9)  # turning by e_R reaches R_d
        assert np.linalg.norm(e[3:]) <= np.pi + 1e-12
    assert np.abs(kl.pose_error(T_d, T_d)).max() < 1e-12
    with pytest.raises(ValueError, match="T_target"):
        kl.pose_error(np.eye(4), np.zeros((4, 4)))


def test_pose_regulation_follows_the_promised_second_order_error_on_both_parts():
    """Regulation from an error about one axis n: e_p and θ (e_R = θ n) both obey ë + K_d ė + K_p e = 0."""
    n = np.array([1.0, 2.0, -1.0]) / np.sqrt(6.0)
    T0 = kl.frame_placement(MODEL, Q0, "tool")
    T_d = T0.copy()
    T_d[:3, :3] = kl.so3_exp(0.6 * n) @ T0[:3, :3]
    T_d[:3, 3] += [0.05, -0.03, 0.02]
    reference = lambda t: (T_d, np.zeros(6), np.zeros(6))  # noqa: E731
    run = kl.simulate_continuous(MODEL, kl.pose_operational_space_controller(MODEL, "tool", reference, 100.0, 20.0),
                                 Q0, np.zeros(7), 0.5, 0.01)
    E = _errors(run, reference)
    theta = kl.error_dynamics_solution(0.6, 0.0, 100.0, 20.0, run.t)
    assert np.abs(E[:, 3:] - theta[:, None] * n).max() < 1e-8
    assert np.abs(E[:, :3] - kl.error_dynamics_solution(E[0, :3], np.zeros(3), 100.0, 20.0, run.t)).max() < 1e-8
    assert np.linalg.norm(E[-1]) < 0.05 * np.linalg.norm(E[0])  # (1 + 10 t) e^{-10 t} = 0.04 at 0.5 s


def test_tracking_a_cartesian_trajectory_at_1khz_error_shrinks_with_the_period():
    """A digital controller reading kl.cartesian_trajectory's samples: the error is first order in dt."""
    T0 = kl.frame_placement(MODEL, Q0, "tool")
    T1 = T0.copy()
    T1[:3, :3] = kl.rot_z(0.8) @ kl.rot_x(0.3) @ T0[:3, :3]
    T1[:3, 3] += [0.15, 0.2, -0.1]
    peaks = []
    for dt in (2e-3, 1e-3):
        reference = kl.pose_reference(kl.cartesian_trajectory(T0, T1, 1.0, round(1.0 / dt) + 1))
        law = kl.pose_operational_space_controller(MODEL, "tool", reference, 400.0, 40.0, posture=Q0)
        run = kl.simulate_sampled(MODEL, law, Q0, np.zeros(7), 1.2, dt)
        E = _errors(run, reference)
        peaks.append((np.linalg.norm(E[:, :3], axis=1).max(), np.linalg.norm(E[:, 3:], axis=1).max()))
    (p2, r2), (p1, r1) = peaks
    assert p1 < 1e-4 and r1 < np.radians(0.02)  # 0.1 mm, 0.02 deg over a 0.27 m, 49 deg move
    assert 1.7 < p2 / p1 < 2.3 and 1.7 < r2 / r1 < 2.3  # halving the period halves the error
    # the same law without the feed-forward twist and acceleration lags far behind
    ref = kl.pose_reference(kl.cartesian_trajectory(T0, T1, 1.0, 1001))
    lag = kl.simulate_sampled(MODEL, kl.pose_operational_space_controller(
        MODEL, "tool", lambda t: (ref(t)[0], np.zeros(6), np.zeros(6)), 400.0, 40.0, posture=Q0), Q0, np.zeros(7), 1.2, 1e-3)
    assert np.linalg.norm(_errors(lag, ref)[:, :3], axis=1).max() > 20 * p1


def test_pose_reference_reads_the_sample_of_each_tick():
    T0, T1 = np.eye(4), kl.frame_placement(MODEL, Q0, "tool")
    traj = kl.cartesian_trajectory(T0, T1, 0.5, 51)
    ref = kl.pose_reference(traj)
    for k in (0, 7, 50):
        T, V, A = ref(traj.t[k])
        np.testing.assert_array_equal(T, traj.T[k])
        np.testing.assert_array_equal(V, traj.V[k])
    T, V, A = ref(2.0)
    np.testing.assert_array_equal(T, traj.T[-1])
    assert not V.any() and not A.any()
    with pytest.raises(ValueError, match="trajectory"):
        kl.pose_reference((traj.t, traj.T))


def test_pose_controller_rejects_bad_input():
    ref = lambda t: (np.eye(4), np.zeros(6), np.zeros(6))  # noqa: E731
    with pytest.raises(ValueError, match="frame"):
        kl.pose_operational_space_controller(MODEL, "nope", ref, 1.0, 1.0)
    with pytest.raises(ValueError, match="Kp"):
        kl.pose_operational_space_controller(MODEL, "tool", ref, -1.0, 1.0)
    with pytest.raises(ValueError, match="6 velocity"):
        kl.pose_operational_space_controller(kl.planar_chain_model([1.0, 1.0], [1.0, 1.0]), "tip", ref, 1.0, 1.0)
