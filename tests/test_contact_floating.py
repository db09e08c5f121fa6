"""Chapter 7's floating-base contact: the selection matrix and the four-foot KKT dynamics of ANYmal,
checked against Pinocchio's constraint dynamics (RigidConstraintModel CONTACT_3D at the feet)."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.notebook.contact_reference import pinocchio_contact_dynamics

FEET = ("LF_FOOT", "RF_FOOT", "LH_FOOT", "RH_FOOT")


@pytest.fixture(scope="module")
def anymal():
    return kl.load_urdf(kl.anymal_b_urdf(), floating_base=True)


def test_selection_matrix(anymal):
    S = kl.selection_matrix(anymal)
    assert S.shape == (12, 18)
    assert np.array_equal(S[:, :6], np.zeros((12, 6))) and np.array_equal(S[:, 6:], np.eye(12))
    tau = np.arange(1.0, 13.0)
    assert np.array_equal(S.T @ tau, np.r_[np.zeros(6), tau])
    arm = kl.planar_chain_model([1.0, 1.0], [1.0, 1.0])               # fixed base: S = I
    assert np.array_equal(kl.selection_matrix(arm), np.eye(2))


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_four_foot_kkt_equals_pinocchio_constraint_dynamics(anymal, seed):
    rng = np.random.default_rng(seed)
    q, v, tau = kl.random_configuration(anymal, rng), rng.normal(size=18), rng.normal(scale=20.0, size=12)
    a, f = kl.contact_constraint_dynamics(anymal, q, v, tau, FEET)
    a_pin, f_pin = pinocchio_contact_dynamics(kl.anymal_b_urdf(), q, v, kl.selection_matrix(anymal).T @ tau, FEET)
    assert np.abs(a - a_pin).max() < 1e-8
    assert np.abs(f - f_pin).max() < 1e-8
    assert np.abs(a).max() > 1.0 and np.abs(f).max() > 1.0     # not a trivial zero state


def test_kkt_solution_satisfies_the_equations(anymal):
    rng = np.random.default_rng(5)
    q, v, tau = kl.random_configuration(anymal, rng), rng.normal(size=18), rng.normal(size=12)
    a, f = kl.contact_constraint_dynamics(anymal, q, v, tau, FEET)
    J = kl.contact_jacobian(anymal, q, FEET)
    Jdv = np.concatenate([(kl.frame_jacobian_time_variation(anymal, q, v, ft) @ v)[:3] for ft in FEET])
    M, h = kl.crba(anymal, q), kl.nonlinear_effects(anymal, q, v)
    assert np.abs(M @ a + h - kl.selection_matrix(anymal).T @ tau - J.T @ f.ravel()).max() < 1e-9
    assert np.abs(J @ a + Jdv).max() < 1e-9


def test_contact_forces_obey_newtons_law_for_the_whole_robot(anymal):
    """At rest (v = 0) the rate of linear momentum A_G a (its first three rows) equals the sum of
    the contact forces plus gravity m g: an identity the KKT solver is not built from."""
    rng = np.random.default_rng(9)
    q, tau = kl.random_configuration(anymal, rng), rng.normal(scale=10.0, size=12)
    a, f = kl.contact_constraint_dynamics(anymal, q, np.zeros(18), tau, FEET)
    mass = sum(kl.inertia_parts(I)[0] for I in anymal.inertia)
    rate = kl.centroidal_momentum_matrix(anymal, q)[:3] @ a
    assert f.sum(axis=0) + mass * np.asarray(anymal.gravity)[:3] == pytest.approx(rate, abs=1e-8)
    assert np.abs(f.sum(axis=0)[2]) > 10.0


def test_bad_input(anymal):
    q = kl.neutral_configuration(anymal)
    with pytest.raises(ValueError, match="tau"):
        kl.contact_constraint_dynamics(anymal, q, np.zeros(18), np.zeros(18), FEET)
    with pytest.raises(ValueError, match="feet"):
        kl.contact_constraint_dynamics(anymal, q, np.zeros(18), np.zeros(12), ["NOSE"])
    with pytest.raises(ValueError, match="model"):
        kl.selection_matrix("anymal")
