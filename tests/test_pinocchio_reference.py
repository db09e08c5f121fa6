"""kinematics_lib against Pinocchio (the independent reference) on the shipped ANYmal B.

Both libraries read the same URDF; every quantity must agree to 1e-9 relative (measured on
this machine: ~1e-15) for fixed and floating base, on random states.
"""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl

pin = pytest.importorskip("pinocchio")

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
