"""Task-space control laws (issue 24, item 2): each law against the closed loop it promises."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import fsolve

import kinematics_lib as kl


def test_pd_gravity_lyapunov_function_decreases_as_promised():
    """Takegaki-Arimoto: V = ½ q̇ᵀMq̇ + ½ eᵀK_p e never increases, and V̇ = −q̇ᵀ K_d q̇ exactly."""
    arm = kl.TwoLinkArm()
    q_d, Kp, Kd = np.array([0.8, 0.4]), np.array([50.0, 30.0]), np.array([8.0, 5.0])
    run = kl.simulate_continuous(arm, kl.pd_gravity_controller(arm, q_d, Kp, Kd), [0.0, 0.0], [0.0, 0.0], 3.0, 0.002)
    V = np.array([kl.pd_gravity_lyapunov(arm, q, v, q_d, Kp) for q, v in zip(run.q, run.v)])
    assert np.all(np.diff(V) <= 1e-9 * V[0])
    assert V[-1] < 0.05 * V[0]
    dissipated = np.trapezoid(np.sum(Kd * run.v ** 2, axis=1), run.t)
    assert abs((V[0] - V[-1]) - dissipated) < 1e-4 * V[0]  # the whole decrease is the damper's work
    # without gravity compensation the same gains leave a steady error (the law needs g, nothing else)
    no_g = kl.simulate_continuous(arm, lambda t, q, v: Kp * (q_d - q) - Kd * v, [0.0, 0.0], [0.0, 0.0], 3.0, 0.01)
    assert np.abs(no_g.q[-1] - q_d).max() > 0.1


def test_operational_space_control_error_dynamics():
    arm = kl.TwoLinkArm()
    ref = kl.sine_reference([1.2, 0.8], [0.1, 0.05], [2.0, 3.0])
    q0 = np.array([0.3, 1.2])
    run = kl.simulate_continuous(arm, kl.operational_space_controller(arm, ref, 100.0, 20.0), q0, [0.0, 0.0], 1.0, 0.01)
    E = np.array([ref(t)[0] - arm.tip(q) for t, q in zip(run.t, run.q)])
    predicted = kl.error_dynamics_solution(E[0], ref(0.0)[1], 100.0, 20.0, run.t)
    assert np.abs(E[0]).max() > 0.1  # a real initial error ...
    assert np.abs(E - predicted).max() < 1e-7  # ... decays exactly as ë + 20 ė + 100 e = 0


def test_null_space_posture_does_not_disturb_the_task():
    m3 = kl.planar_chain_model([0.6, 0.5, 0.4], [1.0, 1.0, 0.5])
    plant, task = kl.ModelPlant(m3), kl.tip_task(m3)
    q0 = np.array([0.4, 0.6, 0.5])
    ref = kl.sine_reference(task.x(q0) + [0.05, 0.0], [0.1, 0.05], [2.0, 3.0])
    runs = [kl.simulate_continuous(plant, kl.operational_space_controller(m3, ref, 100.0, 20.0, posture=posture,
                                                                          Kp_null=20.0), q0, np.zeros(3), 0.5, 0.01)
            for posture in (None, [0.0, 0.0, 0.0])]
    X = [np.array([task.x(q) for q in r.q]) for r in runs]
    assert np.abs(X[0] - X[1]).max() < 1e-7  # the tip moves the same ...
    assert np.abs(runs[0].q - runs[1].q).max() > 0.1  # ... while the posture torque moved the joints
    E = np.array([ref(t)[0] for t in runs[1].t]) - X[1]
    assert np.abs(E - kl.error_dynamics_solution(E[0], ref(0.0)[1], 100.0, 20.0, runs[1].t)).max() < 1e-7
    # a posture torque without the projection does disturb the task
    plain = kl.operational_space_controller(m3, ref, 100.0, 20.0)
    leak = kl.simulate_continuous(plant, lambda t, q, v: plain(t, q, v) + 20.0 * (0.0 - q) - 5.0 * v, q0, np.zeros(3),
                                  0.5, 0.01)
    assert np.abs(np.array([task.x(q) for q in leak.q]) - X[0]).max() > 1e-3


def test_orientation_error_is_the_rotation_still_to_go():
    rng = np.random.default_rng(4)
    for _ in range(20):
        R = kl.so3_exp(rng.normal(size=3))
        axis = rng.normal(size=3)
        phi = axis / np.linalg.norm(axis) * rng.uniform(0.0, 3.1)
        e = kl.orientation_error(R, kl.so3_exp(phi) @ R)
        assert np.allclose(e, phi, atol=1e-10)
    assert np.allclose(kl.orientation_error(R, R), 0.0, atol=1e-12)
    with pytest.raises(ValueError, match="R_d"):
        kl.orientation_error(R, 2.0 * R)


def test_hybrid_force_motion_control_on_the_wall():
    arm, wall = kl.TwoLinkArm(), kl.Wall(1.5, 5000.0, 20.0)
    y_ref = kl.sine_reference([0.5], [0.2], [1.5])
    q0 = fsolve(lambda q: arm.tip(q) - [1.48, 0.5], [0.0, 1.0])  # 2 cm before the wall
    run = kl.simulate_wall_contact(arm, kl.hybrid_force_motion_controller(arm, wall, 20.0, y_ref), wall, q0, [0.0, 0.0],
                                   3.0, 1e-3)
    assert run.status == "ok"
    last = run.t >= 2.0
    assert np.abs(-run.force[last, 0] - 20.0).max() < 0.01 * 20.0  # the force set-point, held while sliding
    y_d = np.array([y_ref(t)[0][0] for t in run.t[last]])
    assert np.abs(run.x[last, 1] - y_d).max() < 1e-4  # tracking along the wall
    assert np.ptp(run.x[last, 1]) > 0.2  # it really slides
    assert abs(run.x[-1, 0] - (1.5 + 20.0 / 5000.0)) < 1e-4  # pressed in by f_d / k
