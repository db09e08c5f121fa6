"""The whole-body QP on ANYmal B (issue 24, item 1): its constraints hold, it agrees with chapter 7's
centroidal distribution where both apply, and it reports a push it cannot cancel."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import kinematics_lib as kl

FEET = kl.ANYMAL_FEET


@functools.lru_cache(maxsize=None)
def _anymal():
    return kl.load_urdf(kl.anymal_b_urdf(), floating_base=True)


@functools.lru_cache(maxsize=None)
def _stance() -> np.ndarray:
    m = _anymal()
    q = kl.neutral_configuration(m)
    for f, a in kl.ANYMAL_STANCE.items():
        q[list(kl.leg_geometry(m, f).q_index)] = a
    P = np.array([kl.frame_placement(m, q, f)[:3, 3] for f in FEET])
    q[2] = -P[:, 2].mean()
    return q


def _tau_max():
    return kl.urdf_effort_limits(_anymal(), kl.anymal_b_urdf())


def _feet_positions(q):
    return np.array([kl.frame_placement(_anymal(), q, f)[:3, 3] for f in FEET])


def _moving_state(seed=3):
    rng = np.random.default_rng(seed)
    return _stance(), 0.4 * rng.normal(size=18)


def test_effort_limits_are_the_urdf_values():
    tau_max = _tau_max()
    assert tau_max.shape == (12,)
    assert np.all(tau_max == 80.0)  # <limit effort="80"> on every ANYmal B joint


@pytest.mark.parametrize("n_faces", [4, None])
def test_dynamics_and_contact_residuals(n_faces):
    m = _anymal()
    q, v = _moving_state()
    r = kl.whole_body_qp(m, q, v, FEET, n_faces=n_faces, tau_max=_tau_max(), push=[20.0, -10.0, 0.0],
                         com_acceleration=[0.3, 0.0, 0.1], base_angular_acceleration=[0.0, 0.5, 0.0])
    assert r.ok, r.message
    M, h = kl.crba(m, q), kl.nonlinear_effects(m, q, v)
    Jc = kl.contact_jacobian(m, q, FEET)
    R = kl.quat_to_matrix(q[3:7])
    gen = np.zeros(18)
    gen[6:] = r.tau
    gen[:3] = R.T @ np.array([20.0, -10.0, 0.0])
    resid = M @ r.a + h - gen - Jc.T @ r.forces.ravel()
    assert np.abs(resid).max() <= 1e-8 * m.total_mass * 9.81
    # contact: the feet's accelerations vanish, checked by a second difference of their positions along
    # q(t) = q ⊕ (t v + t²/2 a) (independent of the QP's own J̇_c v)
    hstep = 1e-3
    P = [_feet_positions(kl.integrate(m, q, s * hstep * v + 0.5 * (s * hstep) ** 2 * r.a)) for s in (-1.0, 0.0, 1.0)]
    foot_acc = (P[0] - 2.0 * P[1] + P[2]) / hstep ** 2
    assert np.abs(foot_acc).max() < 1e-4  # the O(h²) of the difference; a wrong J̇v gives ~0.1 m/s²
    assert r.contact_residual <= 1e-8 and r.dynamics_residual <= 1e-8


@pytest.mark.parametrize("n_faces", [4, None])
def test_forces_in_cone_and_torques_within_limits(n_faces):
    m = _anymal()
    q, v = _moving_state(5)
    r = kl.whole_body_qp(m, q, v, FEET, n_faces=n_faces, tau_max=12.0, push=[60.0, 0.0, 0.0])
    assert r.ok, r.message
    F = r.forces
    if n_faces is None:
        assert np.all(np.hypot(F[:, 0], F[:, 1]) <= 0.7 * F[:, 2] + 1e-7)
    else:
        assert np.all(F @ kl.friction_pyramid(0.7, 4, True).T <= 1e-7)
    assert np.all(np.abs(r.tau) <= 12.0 + 1e-7)
    assert np.abs(r.tau).max() > 11.99  # the limit binds (an interior-point solver stops just inside): without it a torque exceeds 12
    free = kl.whole_body_qp(m, q, v, FEET, n_faces=n_faces, push=[60.0, 0.0, 0.0])
    assert np.abs(free.tau).max() > 12.0 + 1e-3


@pytest.mark.parametrize("n_faces", [4, None])
def test_standing_agrees_with_chapter7_distribution(n_faces):
    """Strict tasks at rest with zero commanded accelerations and only the force regulariser: the QP is
    min ‖f‖² subject to the centroidal balance and the cones, chapter 7's distribution."""
    m = _anymal()
    q = _stance()
    r = kl.whole_body_qp(m, q, np.zeros(18), FEET, n_faces=n_faces, strict=True, w_torque=0.0, w_acc=0.0)
    weight = -m.total_mass * m.gravity
    pG = kl.center_of_mass(m, q)
    F7 = kl.distribute_contact_forces(_feet_positions(q), np.concatenate([weight, np.cross(pG, weight)]), 0.7, n_faces)
    assert np.abs(r.forces - F7).max() < 1e-6


def test_standing_still_is_gravity_compensation():
    m = _anymal()
    q = _stance()
    r = kl.whole_body_qp(m, q, np.zeros(18), FEET, tau_max=_tau_max(), strict=True)
    assert r.ok
    tau_static = kl.static_joint_torques(m, q, FEET, r.forces)  # raises unless the forces balance gravity
    assert np.abs(r.tau - tau_static).max() < 1e-6 * 80.0
    assert np.abs(r.a).max() < 1e-12
    soft = kl.whole_body_qp(m, q, np.zeros(18), FEET, tau_max=_tau_max())  # soft tasks: nearly the same
    assert np.abs(soft.task_residual).max() < 1e-3 and np.abs(soft.a).max() < 1e-2
    assert np.abs(soft.tau - r.tau).max() < 1e-2 * np.abs(r.tau).max()
    # and the torque regulariser moves load between the feet, still balancing gravity
    r0 = kl.whole_body_qp(m, q, np.zeros(18), FEET, strict=True, w_torque=0.0)
    r1 = kl.whole_body_qp(m, q, np.zeros(18), FEET, strict=True, w_torque=1.0)
    assert np.sum(r1.tau ** 2) < np.sum(r0.tau ** 2) - 1e-6


def test_push_too_large_is_reported_infeasible():
    m = _anymal()
    q = _stance()
    lim = kl.largest_push(m, q, FEET, [1.0, 0.0, 0.0], n_faces=None, tau_max=_tau_max())
    mu_w = 0.7 * m.total_mass * np.linalg.norm(m.gravity)
    assert 0.9 * mu_w < lim <= mu_w + 0.2  # a forward push is limited by friction: |F| <= mu m g
    ok = kl.whole_body_qp(m, q, np.zeros(18), FEET, n_faces=None, tau_max=_tau_max(), strict=True,
                          push=[lim - 1.0, 0.0, 0.0])
    bad = kl.whole_body_qp(m, q, np.zeros(18), FEET, n_faces=None, tau_max=_tau_max(), strict=True,
                           push=[lim + 1.0, 0.0, 0.0])
    assert ok.ok and ok.friction_ratio.max() > 0.95
    assert bad.status == "infeasible" and bad.forces is None and bad.tau is None and bad.a is None
    with pytest.raises(ValueError):
        bad.friction_ratio
    # the inscribed 4-face pyramid allows mu / sqrt(2) along x
    lim4 = kl.largest_push(m, q, FEET, [1.0, 0.0, 0.0], n_faces=4, tau_max=_tau_max())
    assert abs(lim4 - mu_w / np.sqrt(2.0)) < 0.5
    # lifting: an upward push beyond the weight cannot be cancelled by pushing ground forces
    up = kl.largest_push(m, q, FEET, [0.0, 0.0, 1.0], n_faces=None)
    weight = m.total_mass * np.linalg.norm(m.gravity)
    assert 0.95 * weight < up <= weight  # (less: the push at the base origin also tilts the load off a foot)


def test_soft_tasks_track_commanded_accelerations():
    m = _anymal()
    q, v = _moving_state(7)
    a_des, w_des = np.array([0.5, -0.2, 0.3]), np.array([0.2, -0.4, 0.1])
    for task in ("com", "base"):
        r = kl.whole_body_qp(m, q, v, FEET, n_faces=None, com_acceleration=a_des, base_angular_acceleration=w_des,
                             task=task)
        assert r.ok
        assert np.abs(r.task_residual).max() < 1e-3
    # the CoM acceleration checked from the motion: J_G a + J̇_G v by a difference of J_G along v
    r = kl.whole_body_qp(m, q, v, FEET, n_faces=None, com_acceleration=a_des, base_angular_acceleration=w_des,
                         strict=True)
    hstep = 1e-4
    Jp, Jm = (kl.com_jacobian(m, kl.integrate(m, q, s * hstep * v)) for s in (1.0, -1.0))
    acc = kl.com_jacobian(m, q) @ r.a + (Jp - Jm) @ v / (2 * hstep)
    assert np.abs(acc - a_des).max() < 1e-5
    R = kl.quat_to_matrix(q[3:7])
    assert np.abs(R @ r.a[3:6] - w_des).max() < 1e-9


def test_push_simulation_recovers_or_reports():
    m = _anymal()
    q = _stance()
    small = kl.simulate_push(m, q, FEET, [0.0, 60.0, 0.0], duration=0.3, dt=5e-3, tau_max=_tau_max())
    assert small.qp_ok.all() and small.first_infeasible is None
    assert np.nanmax(small.friction_ratio) <= 1.0 + 1e-7
    assert np.abs(small.tau).max() <= 80.0 + 1e-7
    assert np.abs(small.com[:, 1] - small.com[0, 1]).max() > 1e-3  # the push moved it ...
    assert np.abs(small.dynamics_residual).max() < 1e-8 and np.abs(small.contact_residual).max() < 1e-8
    big = kl.simulate_push(m, q, FEET, [0.0, 600.0, 0.0], duration=0.15, dt=5e-3, tau_max=_tau_max())
    assert big.first_infeasible is not None and big.first_infeasible >= 0.05  # ... this one cannot be held
    assert not big.qp_ok.all()
    assert np.abs(big.tau).max() <= 80.0 + 1e-7
    # where the strict QP failed, the soft re-solve's torques were applied: its forces and residuals are kept
    soft = ~big.qp_ok & np.isfinite(big.dynamics_residual)
    assert soft.any() and np.abs(big.forces[soft]).max() > 0.0 and big.dynamics_residual[soft].max() < 1e-8
