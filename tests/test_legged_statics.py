"""Statics and dynamics of ANYmal B on flat ground (chapter 8): equilibrium forces, joint torques,
proprioceptive force estimation, free fall, zero-gravity floating and a landing.

References: Newton-Euler balance of the whole robot, Pinocchio's RNEA with external forces,
energy and momentum conservation.
"""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl


FEET = kl.ANYMAL_FEET


@pytest.fixture(scope="module")
def anymal():
    return kl.load_urdf(kl.anymal_b_urdf(), floating_base=True)


def stance(model, height=0.0, shift=(0.0, 0.0), rpy=(0.0, 0.0, 0.0), lift=None):
    """ANYmal's nominal stance with the feet on the ground, the base moved/tilted by the arguments."""
    q = kl.neutral_configuration(model)
    for f, a in kl.ANYMAL_STANCE.items():
        q[list(kl.leg_geometry(model, f).q_index)] = a
    P = np.array([kl.frame_placement(model, q, f)[:3, 3] for f in FEET])
    P[:, 2] = 0.0
    p_base = np.array([shift[0], shift[1], 0.487 + height])
    q, res = kl.stance_configuration(model, FEET, P, p_base, kl.rpy_to_matrix(rpy), q_ref=q)
    assert all(r.converged for r in res)
    return q


def balance(model, q, feet, F):
    """(Σ f + m g, Σ (p_i - p_G) x f_i): the Newton-Euler residuals of the whole robot at rest."""
    P = np.array([kl.frame_placement(model, q, f)[:3, 3] for f in feet])
    p_G = kl.center_of_mass(model, q)
    return F.sum(axis=0) + model.total_mass * model.gravity, np.cross(P - p_G, F).sum(axis=0)


@pytest.mark.parametrize("n_faces", [None, 4, 8])
def test_equilibrium_forces_balance_gravity_inside_the_cones(anymal, n_faces):
    mu = 0.6
    for q in (stance(anymal), stance(anymal, -0.04, (0.04, -0.03), (0.1, -0.15, 0.05))):
        F = kl.static_equilibrium_forces(anymal, q, FEET, mu, n_faces)
        force, moment = balance(anymal, q, FEET, F)
        assert np.abs(force).max() < 1e-8 and np.abs(moment).max() < 1e-8
        if n_faces is None:
            assert np.all(np.hypot(F[:, 0], F[:, 1]) <= mu * F[:, 2] + 1e-9)
        else:
            assert np.all(F @ kl.friction_pyramid(mu, n_faces).T <= 1e-9)


def test_three_feet_feasible_inside_the_triangle_and_refused_outside(anymal):
    feet = FEET[:3]  # LF, LH, RF: the CoM must move towards the left front
    q_in = stance(anymal, shift=(0.06, 0.06))
    F = kl.static_equilibrium_forces(anymal, q_in, feet, 0.8)
    assert all(np.abs(r).max() < 1e-8 for r in balance(anymal, q_in, feet, F))
    with pytest.raises(ValueError, match="outside the support polygon"):
        kl.static_equilibrium_forces(anymal, stance(anymal, shift=(-0.06, -0.06)), feet, 0.8)


def test_flat_ground_needs_no_friction(anymal):
    F = kl.static_equilibrium_forces(anymal, stance(anymal, shift=(0.03, 0.0)), FEET, 0.0)
    assert np.abs(F[:, :2]).max() < 1e-8


def test_joint_torques_balance_the_base_rows_and_match_pinocchio(anymal):
    import pinocchio as pin  # pinned: a missing Pinocchio fails, never skips
    ref = pin.buildModelFromUrdf(str(kl.anymal_b_urdf()), pin.JointModelFreeFlyer())
    data = ref.createData()
    q = stance(anymal, -0.02, (0.02, 0.01), (0.05, 0.1, 0.0))
    F = kl.static_equilibrium_forces(anymal, q, FEET, 0.7)
    tau = kl.static_joint_torques(anymal, q, FEET, F)
    pin.framesForwardKinematics(ref, data, q)
    fext = [pin.Force.Zero() for _ in range(ref.njoints)]
    for f, force in zip(FEET, F):
        fr = ref.frames[ref.getFrameId(f)]
        oMi = data.oMi[fr.parentJoint]
        p_local = oMi.rotation.T @ (data.oMf[ref.getFrameId(f)].translation - oMi.translation)
        lin = oMi.rotation.T @ force
        fext[fr.parentJoint] = fext[fr.parentJoint] + pin.Force(lin, np.cross(p_local, lin))
    tau_pin = pin.rnea(ref, data, q, np.zeros(ref.nv), np.zeros(ref.nv), fext)
    assert np.abs(tau_pin[:6]).max() < 1e-8  # the base rows balance
    assert np.abs(tau_pin[6:] - tau).max() < 1e-9


def test_joint_torques_refuse_forces_that_do_not_balance(anymal):
    q = stance(anymal)
    F = kl.static_equilibrium_forces(anymal, q, FEET, 0.7)
    with pytest.raises(ValueError, match="forces"):
        kl.static_joint_torques(anymal, q, FEET, 0.9 * F)
    with pytest.raises(ValueError, match="forces"):
        kl.static_joint_torques(anymal, q, FEET, F[:3])


def test_proprioceptive_estimate_recovers_the_forces(anymal):
    q = stance(anymal, 0.0, (0.03, -0.02), (0.0, 0.1, 0.0))
    F = kl.static_equilibrium_forces(anymal, q, FEET, 0.7)
    tau = kl.static_joint_torques(anymal, q, FEET, F)
    F_hat = kl.contact_force_estimate(anymal, q, FEET, tau)
    assert np.abs(F_hat - F).max() < 1e-8
    J_j = kl.contact_jacobian(anymal, q, FEET)[:, 6:]
    doc = kl.doc000.contact_force_estimate(J_j, tau, kl.gravity_torque(anymal, q)[6:])
    assert np.abs(doc.reshape(-1, 3) + F).max() < 1e-8  # the document's formula: the force on the ground


def test_bad_input_names_the_argument(anymal):
    q = stance(anymal)
    with pytest.raises(ValueError, match="mu"):
        kl.static_equilibrium_forces(anymal, q, FEET, -0.1)
    with pytest.raises(ValueError, match="feet"):
        kl.static_equilibrium_forces(anymal, q, ["LF_FOOT", "XX"], 0.5)
    bad = q.copy()
    bad[3:7] = [0.0, 0.0, 0.0, 2.0]
    with pytest.raises(ValueError, match="quaternion"):
        kl.static_equilibrium_forces(anymal, bad, FEET, 0.5)


# ---------------------------------------------------------------- simulation checks (section 3.5.3)


def rk4(model, q, v, tau, dt):
    """One RK4 step on the configuration manifold (velocities composed by integrate_configuration)."""
    acc = lambda qq, vv: kl.aba(model, qq, vv, tau)
    a1 = acc(q, v)
    v2 = v + dt / 2 * a1
    a2 = acc(kl.integrate_configuration(model, q, v, dt / 2), v2)
    v3 = v + dt / 2 * a2
    a3 = acc(kl.integrate_configuration(model, q, v2, dt / 2), v3)
    v4 = v + dt * a3
    a4 = acc(kl.integrate_configuration(model, q, v3, dt), v4)
    return (kl.integrate_configuration(model, q, (v + 2 * v2 + 2 * v3 + v4) / 6, dt),
            v + dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4))


def test_free_fall_turns_potential_into_kinetic_energy(anymal):
    q = kl.random_configuration(anymal, np.random.default_rng(20))
    v = np.zeros(anymal.nv)
    z0 = kl.center_of_mass(anymal, q)[2]
    for _ in range(100):
        q, v = rk4(anymal, q, v, np.zeros(anymal.nv), 2e-3)
    h = z0 - kl.center_of_mass(anymal, q)[2]
    m_g_h = anymal.total_mass * 9.81 * h
    assert h == pytest.approx(0.5 * 9.81 * 0.2 ** 2, rel=1e-9)
    assert 0.5 * v @ kl.crba(anymal, q) @ v == pytest.approx(m_g_h, rel=1e-9)


def test_zero_gravity_conserves_linear_and_angular_momentum(anymal):
    model = kl.load_urdf(kl.anymal_b_urdf(), floating_base=True, gravity=np.zeros(3))
    rng = np.random.default_rng(21)
    q, v = stance(model), 0.3 * rng.normal(size=model.nv)
    h0 = kl.centroidal_momentum(model, q, v)
    drift = 0.0
    for k in range(200):  # the legs swing under sinusoidal joint torques
        tau = np.concatenate([np.zeros(6), 2.0 * np.sin(20 * k * 2e-3 + np.arange(12))])
        q, v = rk4(model, q, v, tau, 2e-3)
        drift = max(drift, np.abs(kl.centroidal_momentum(model, q, v) - h0).max())
    assert np.abs(v[6:]).max() > 0.5  # the legs did move
    assert drift < 1e-6 * max(1.0, np.abs(h0).max())


def test_landing_settles_to_the_static_forces(anymal):
    q0 = stance(anymal)
    q0[2] += 0.03
    res = kl.simulate_landing(anymal, q0, FEET, duration=0.6, dt=1e-3)
    F, F_qp = res.forces[-1], res.forces_qp
    assert np.abs(res.v[-1]).max() < 1e-3  # at rest
    assert np.abs(F.sum(axis=0) + anymal.total_mass * anymal.gravity).max() < 1e-3 * anymal.total_mass * 9.81
    assert np.abs(F[:, 2] - F_qp[:, 2]).max() < 0.01 * F_qp[:, 2].max()
    touchdown = int(np.argmax(res.forces[:, :, 2].sum(axis=1) > 0))
    assert res.t[touchdown] == pytest.approx(np.sqrt(2 * 0.03 / 9.81), abs=0.01)  # the free-fall time
    assert res.energy[-1] < res.energy[0]  # the impact and the damping took energy out
