"""kinematics_lib against Pinocchio (the independent reference) on the shipped ANYmal B.

Both libraries read the same URDF; every quantity must agree to 1e-9 relative (measured on
this machine: ~1e-15) for fixed and floating base, on random states.
"""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl

import pinocchio as pin  # pinned in requirements: a missing reference is a failure, never a skip

RTOL = 1e-9
URDF = str(kl.anymal_b_urdf())


def rel_err(x, y) -> float:
    x, y = np.asarray(x, float), np.asarray(y, float)
    return float(np.abs(x - y).max() / max(np.abs(y).max(), 1e-12))


@pytest.fixture(scope="module", params=[False, True], ids=["fixed", "floating"])
def models(request):
    floating = request.param
    ours = kl.load_urdf(URDF, floating_base=floating)
    ref = pin.buildModelFromUrdf(URDF, pin.JointModelFreeFlyer()) if floating else pin.buildModelFromUrdf(URDF)
    return ours, ref, ref.createData()


def states(model, n=4, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        yield kl.random_configuration(model, rng), rng.normal(size=model.nv), rng.normal(size=model.nv)


def test_structure(models):
    ours, ref, _ = models
    assert (ours.nq, ours.nv) == (ref.nq, ref.nv)
    first = 2 if ours.floating_base else 1  # skip 'universe' (and 'root_joint')
    assert ours.joint_names == tuple(ref.names[first:])
    # inertias[0] is Pinocchio's 'universe', which holds the links fixed to the world
    assert np.isclose(ours.total_mass, sum(i.mass for i in ref.inertias[1:]))
    if ours.floating_base:
        assert np.isclose(ours.total_mass, 30.475, atol=5e-4)  # data/anymal_b/README.md


def test_dynamics_terms(models):
    ours, ref, data = models
    for q, v, a in states(ours):
        assert rel_err(kl.rnea(ours, q, v, a), pin.rnea(ref, data, q, v, a)) < RTOL
        M_ref = pin.crba(ref, data, q)
        M_ref = np.triu(M_ref) + np.triu(M_ref, 1).T  # Pinocchio fills the upper triangle
        assert rel_err(kl.crba(ours, q), M_ref) < RTOL
        assert rel_err(kl.aba(ours, q, v, a), pin.aba(ref, data, q, v, a)) < RTOL
        assert rel_err(kl.nonlinear_effects(ours, q, v), pin.nonLinearEffects(ref, data, q, v)) < RTOL
        assert rel_err(kl.gravity_torque(ours, q), pin.computeGeneralizedGravity(ref, data, q)) < RTOL
        assert rel_err(kl.coriolis_matrix(ours, q, v), pin.computeCoriolisMatrix(ref, data, q, v)) < RTOL
        assert rel_err(kl.kinetic_energy(ours, q, v), pin.computeKineticEnergy(ref, data, q, v)) < RTOL
        assert rel_err(kl.potential_energy(ours, q), pin.computePotentialEnergy(ref, data, q)) < RTOL


def test_centroidal_quantities(models):
    ours, ref, data = models
    for q, v, _ in states(ours):
        assert rel_err(kl.center_of_mass(ours, q), pin.centerOfMass(ref, data, q)) < RTOL
        assert rel_err(kl.centroidal_momentum_matrix(ours, q), pin.computeCentroidalMap(ref, data, q)) < RTOL


def test_frames(models):
    ours, ref, data = models
    names = [f.name for f in ref.frames if f.name != "universe" and f.name in ours.frames]
    assert {"LF_FOOT", "LH_FOOT", "RF_FOOT", "RH_FOOT", "base"} <= set(names)
    for q, _, _ in states(ours, n=2):
        pin.framesForwardKinematics(ref, data, q)
        for name in names:
            fid = ref.getFrameId(name)
            assert rel_err(kl.frame_placement(ours, q, name), data.oMf[fid].homogeneous) < RTOL, name
            J_ref = pin.computeFrameJacobian(ref, data, q, fid, pin.LOCAL_WORLD_ALIGNED)
            assert np.abs(kl.frame_jacobian(ours, q, name) - J_ref).max() < RTOL * max(np.abs(J_ref).max(), 1.0), name


# ---------------------------------------------------------------- the reference recursions (kl.rbda)
# and the floating-base recursions of chapter 5 (issue 23, item 13)


def _sym(M):
    return np.triu(M) + np.triu(M, 1).T  # Pinocchio's C++ fills the upper triangle


def test_reference_recursions_equal_pinocchio(models):
    """kl.rbda.rnea / crba / aba (RBDA's tables, one body at a time; a free root joint S = 1_6)."""
    ours, ref, data = models
    for q, v, a in states(ours, n=3, seed=7):
        assert rel_err(kl.rbda.rnea(ours, q, v, a), pin.rnea(ref, data, q, v, a)) < 1e-10
        assert rel_err(kl.rbda.crba(ours, q), _sym(pin.crba(ref, data, q))) < 1e-10
        assert rel_err(kl.rbda.aba(ours, q, v, a), pin.aba(ref, data, q, v, a)) < 1e-10


@pytest.fixture(scope="module")
def floating():
    ours = kl.load_urdf(URDF, floating_base=True)
    ref = pin.buildModelFromUrdf(URDF, pin.JointModelFreeFlyer())
    return ours, ref, ref.createData()


def test_base_wrench_is_zero_exactly_when_the_motion_needs_no_contact(floating):
    """In flight (the accelerations ABA gives for tau = [0_6; tau_j]) RNEA's first six entries
    vanish; holding the base still instead needs a base wrench, the same in Pinocchio."""
    ours, ref, data = floating
    for q, v, _ in states(ours, n=3, seed=9):
        tau = np.concatenate([np.zeros(6), np.random.default_rng(1).normal(size=ours.nv - 6) * 10.0])
        a_flight = pin.aba(ref, data, q, v, tau)
        wrench = kl.rbda.rnea(ours, q, v, a_flight)[:6]
        assert np.abs(wrench).max() < 1e-10 * np.abs(tau).max()
        np.testing.assert_allclose(kl.rbda.rnea(ours, q, v, a_flight)[6:], tau[6:], rtol=1e-10, atol=1e-9)
        a_held = a_flight.copy()
        a_held[:6] = 0.0  # the base does not accelerate: not possible without an external wrench
        held = kl.rbda.rnea(ours, q, v, a_held)[:6]
        assert rel_err(held, pin.rnea(ref, data, q, v, a_held)[:6]) < 1e-10
        assert np.linalg.norm(held[:3]) > 1.0  # newtons: a contact would have to supply it


def test_six_virtual_joints_are_the_free_joint_in_other_coordinates(floating):
    """M_virtual = J^T M_free J with M_free from Pinocchio's free flyer and J = d v_free / d q_dot."""
    ours, ref, data = floating
    virtual = kl.virtual_joints_model(ours)
    rng = np.random.default_rng(4)
    for _ in range(3):
        q_v = np.concatenate([rng.normal(size=6), kl.random_configuration(ours, rng)[7:]])
        q_free, _, J = kl.virtual_to_free(virtual, q_v, np.zeros(virtual.nv))
        assert rel_err(kl.rbda.crba(virtual, q_v), J.T @ _sym(pin.crba(ref, data, q_free)) @ J) < 1e-10
        a_v = rng.normal(size=virtual.nv)
        zero = np.zeros(virtual.nv)
        assert rel_err(kl.rbda.rnea(virtual, q_v, zero, a_v), J.T @ pin.rnea(ref, data, q_free, zero, J @ a_v)) < 1e-10
