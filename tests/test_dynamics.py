"""Physics identities of the recursive algorithms on random kinematic trees.

No digits copied from a run: every check is an identity that must hold for any tree
(ABA inverts RNEA, RNEA = M a + h, M SPD, Mdot - 2C skew, energy, finite differences,
momentum = sum of body momenta).
"""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.dynamics.joints import jcalc, joint_transforms
from kinematics_lib.geometry.rotations import so3_log
from kinematics_lib.geometry.spatial import crf, crm, cross_force, cross_motion, inertia_parts

TREES = [
    # (seed, bodies, floating base, joint types, chain)
    (1, 1, False, ("revolute",), True),
    (2, 5, False, ("revolute", "prismatic", "continuous"), False),
    (3, 8, False, ("prismatic",), True),
    (4, 9, True, ("revolute", "prismatic"), False),
    (5, 12, True, ("revolute", "continuous"), False),
    (6, 7, False, ("revolute", "prismatic"), True),
]


def _tree(seed, n, floating, types, chain):
    rng = np.random.default_rng(seed)
    model = kl.random_tree_model(n, rng, floating_base=floating, joint_types=types, chain=chain)
    q = kl.random_configuration(model, rng)
    v = rng.normal(size=model.nv)
    a = rng.normal(size=model.nv)
    return model, q, v, a


@pytest.fixture(params=TREES, ids=lambda p: f"seed{p[0]}-{p[1]}bodies-{'floating' if p[2] else 'fixed'}")
def tree(request):
    return _tree(*request.param)


def _dM(model, q, v, h=1e-6):
    """dM/dt along v by central differences on the configuration manifold."""
    qp = kl.integrate_configuration(model, q, v, h)
    qm = kl.integrate_configuration(model, q, v, -h)
    return (kl.crba(model, qp) - kl.crba(model, qm)) / (2 * h)


def test_aba_inverts_rnea(tree):
    model, q, v, a = tree
    tau = kl.rnea(model, q, v, a)
    assert np.allclose(kl.aba(model, q, v, tau), a, rtol=1e-9, atol=1e-9)


def test_rnea_is_M_a_plus_h(tree):
    model, q, v, a = tree
    M = kl.crba(model, q)
    h = kl.nonlinear_effects(model, q, v)
    assert np.allclose(kl.rnea(model, q, v, a), M @ a + h, rtol=1e-10, atol=1e-10)


def test_mass_matrix_symmetric_positive_definite(tree):
    model, q, _, _ = tree
    M = kl.crba(model, q)
    assert np.allclose(M, M.T, atol=1e-12)
    assert np.linalg.eigvalsh(M).min() > 0.0


def test_coriolis_matrix_consistent_and_skew(tree):
    model, q, v, _ = tree
    C = kl.coriolis_matrix(model, q, v)
    h, g = kl.nonlinear_effects(model, q, v), kl.gravity_torque(model, q)
    assert np.allclose(C @ v, h - g, rtol=1e-9, atol=1e-9)
    N = _dM(model, q, v) - 2 * C
    assert np.allclose(N, -N.T, atol=1e-6), "Mdot - 2C must be skew-symmetric"


def test_coriolis_is_christoffel_for_fixed_base():
    """C_ij = sum_k Gamma_ijk v_k with Gamma from dM/dq (finite differences): the unique Christoffel C."""
    model, q, v, _ = _tree(2, 5, False, ("revolute", "prismatic", "continuous"), False)
    h = 1e-6
    dM = [(kl.crba(model, q + h * e) - kl.crba(model, q - h * e)) / (2 * h) for e in np.eye(model.nv)]
    n = model.nv
    C = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            C[i, j] = sum(0.5 * (dM[k][i, j] + dM[j][i, k] - dM[i][j, k]) * v[k] for k in range(n))
    assert np.allclose(kl.coriolis_matrix(model, q, v), C, atol=1e-6)


def test_kinetic_energy_is_half_vMv(tree):
    model, q, v, _ = tree
    assert np.isclose(kl.kinetic_energy(model, q, v), 0.5 * v @ kl.crba(model, q) @ v, rtol=1e-11)


def test_gravity_torque_is_gradient_of_potential_energy():
    model, q, _, _ = _tree(6, 7, False, ("revolute", "prismatic"), True)
    h = 1e-6
    grad = np.array([(kl.potential_energy(model, q + h * e) - kl.potential_energy(model, q - h * e)) / (2 * h)
                     for e in np.eye(model.nv)])
    assert np.allclose(kl.gravity_torque(model, q), grad, atol=1e-6)


def test_energy_balance_power(tree):
    """dE/dt = v . tau for the free motion under tau: (T + V) along a short ABA step."""
    model, q, v, _ = tree
    rng = np.random.default_rng(0)
    tau = rng.normal(size=model.nv)
    if model.floating_base:
        tau[:6] = 0.0  # unactuated base
    dt = 1e-6
    a = kl.aba(model, q, v, tau)

    def energy(qq, vv):
        return kl.kinetic_energy(model, qq, vv) + kl.potential_energy(model, qq)

    e_plus = energy(kl.integrate_configuration(model, q, v, dt), v + a * dt)
    e_minus = energy(kl.integrate_configuration(model, q, v, -dt), v - a * dt)
    assert np.isclose((e_plus - e_minus) / (2 * dt), v @ tau, rtol=1e-4, atol=1e-5)


def test_joint_transforms_match_jcalc(tree):
    model, q, _, _ = tree
    Xup = joint_transforms(model, q)
    for i in range(model.nb):
        assert np.allclose(Xup[i], jcalc(model, i, q[model.q_slice[i]])[0], atol=1e-14)


def test_cross_products_match_matrices():
    rng = np.random.default_rng(3)
    v, m = rng.normal(size=(2, 6))
    assert np.allclose(cross_motion(v, m), crm(v) @ m)
    assert np.allclose(cross_force(v, m), crf(v) @ m)
    V, Mm = rng.normal(size=(2, 5, 6))
    assert np.allclose(cross_motion(V, Mm), [crm(a) @ b for a, b in zip(V, Mm)])


@pytest.mark.parametrize("seed", [7, 8])
def test_frame_jacobian_matches_finite_differences(seed):
    model, q, _, _ = _tree(seed, 6, seed == 8, ("revolute", "prismatic", "continuous"), False)
    name = model.body_names[-1]
    J = kl.frame_jacobian(model, q, name)
    h = 1e-6
    for k in range(model.nv):
        e = np.zeros(model.nv)
        e[k] = h
        Tp = kl.frame_placement(model, kl.integrate_configuration(model, q, e), name)
        Tm = kl.frame_placement(model, kl.integrate_configuration(model, q, -e), name)
        lin = (Tp[:3, 3] - Tm[:3, 3]) / (2 * h)
        ang = so3_log(Tp[:3, :3] @ Tm[:3, :3].T) / (2 * h)
        assert np.allclose(J[:, k], np.concatenate([lin, ang]), atol=1e-6)


def test_centroidal_momentum_is_sum_of_body_momenta(tree):
    model, q, v, _ = tree
    T = kl.forward_kinematics(model, q)
    p_G = kl.center_of_mass(model, q)
    h = np.zeros(6)
    for i, name in enumerate(model.body_names):
        m, c, I_c = inertia_parts(model.inertia[i])
        J = kl.frame_jacobian(model, q, name)  # body origin, world-aligned
        v_o, w = np.split(J @ v, 2)
        R = T[i, :3, :3]
        r = R @ c
        v_c = v_o + np.cross(w, r)
        h[:3] += m * v_c
        h[3:] += R @ I_c @ R.T @ w + m * np.cross(T[i, :3, 3] + r - p_G, v_c)
    assert np.allclose(kl.centroidal_momentum(model, q, v), h, atol=1e-10)


def test_center_of_mass_of_two_point_masses():
    model = kl.planar_chain_model([1.0, 2.0], [1.0, 3.0], gravity=(0.0, -9.81, 0.0))
    q = np.array([0.0, np.pi / 2])
    # masses at the link tips: (1, 0) and (1, 2)
    assert np.allclose(kl.center_of_mass(model, q), [1.0, 1.5, 0.0])


def test_two_link_mass_matrix_closed_form():
    """Point masses at the link ends: M = [[(m1+m2)L1^2 + m2 L2^2 + 2 m2 L1 L2 c2, ...], ...]."""
    L1, L2, m1, m2 = 0.7, 0.4, 2.0, 1.5
    model = kl.planar_chain_model([L1, L2], [m1, m2])
    for q2 in np.linspace(-3, 3, 7):
        c2 = np.cos(q2)
        M = np.array([[(m1 + m2) * L1**2 + m2 * L2**2 + 2 * m2 * L1 * L2 * c2, m2 * L2**2 + m2 * L1 * L2 * c2],
                      [m2 * L2**2 + m2 * L1 * L2 * c2, m2 * L2**2]])
        assert np.allclose(kl.crba(model, [0.3, q2]), M)


def test_floating_base_free_fall():
    """No joint torque, gravity only: the base accelerates at g (world) and joints do not move."""
    model = kl.load_urdf(kl.anymal_b_urdf(), floating_base=True)
    q = kl.neutral_configuration(model)
    a = kl.aba(model, q, np.zeros(model.nv), np.zeros(model.nv))
    assert np.allclose(a[:3], model.gravity, atol=1e-12)
    assert np.allclose(a[3:], 0.0, atol=1e-12)


@pytest.mark.parametrize("bad", [np.zeros(3), np.full(12, np.nan), "x"])
def test_bad_state_is_rejected(bad):
    model = kl.load_urdf(kl.anymal_b_urdf())
    with pytest.raises(ValueError, match="q"):
        kl.rnea(model, bad, np.zeros(12), np.zeros(12))
    with pytest.raises(ValueError, match="tau"):
        kl.aba(model, np.zeros(12), np.zeros(12), np.zeros(5))


def test_double_pendulum_model_matches_the_lagrangian_in_relative_angles():
    """The recursive algorithms on the tree model equal the sympy Lagrange equations (chapter 4)."""
    params = {"m1": 1.3, "m2": 0.7, "l1": 0.9, "l2": 0.6, "g": 9.81}
    model = kl.double_pendulum_model(params["l1"], params["l2"], params["m1"], params["m2"], params["g"])
    lag = kl.to_numeric(kl.double_pendulum_lagrangian("relative"), params)
    rng = np.random.default_rng(11)
    for _ in range(5):
        q, v, a = rng.normal(size=(3, 2))
        assert np.allclose(kl.crba(model, q), lag.M(q))
        assert np.allclose(kl.rnea(model, q, v, a), lag.M(q) @ a + lag.C(q, v) @ v + lag.G(q))
        assert np.allclose(kl.coriolis_matrix(model, q, v), lag.C(q, v))
        assert np.isclose(kl.potential_energy(model, q) - kl.potential_energy(model, np.zeros(2)), lag.V(q))


def test_mass_matrix_by_rnea_equals_crba(tree):
    model, q, _, _ = tree
    assert np.allclose(kl.mass_matrix_by_rnea(model, q), kl.crba(model, q), atol=1e-10)


def test_inertia_kernels_on_a_stack_equal_them_body_by_body():
    """geometry.kernels.inertia_parts / spatial_inertia on (nb, 6, 6) stacks (centroidal_inertia's
    form) give each body's single-body answer, a massless body included, and invert each other."""
    from kinematics_lib.geometry import kernels as K

    I = np.array(kl.random_tree_model(6, np.random.default_rng(7)).inertia)
    I[2] = 0.0
    I[2, 3:, 3:] = np.diag([1e-3, 2e-3, 3e-3])  # a massless body with rotor inertia only
    m, c, I_c = K.inertia_parts(I)
    for i in range(len(I)):
        m_i, c_i, I_ci = K.inertia_parts(I[i])
        assert m[i] == m_i and np.array_equal(c[i], c_i) and np.allclose(I_c[i], I_ci, rtol=0, atol=1e-15)
        assert np.allclose(K.spatial_inertia(m, c, I_c)[i], K.spatial_inertia(m_i, c_i, I_ci), rtol=0, atol=1e-15)
    np.testing.assert_allclose(K.spatial_inertia(m, c, I_c), I, rtol=0, atol=1e-14)
