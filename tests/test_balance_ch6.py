"""Chapter 6 claims of issue 23 (items 9, 12, 14, 15) checked by physics, not by the printed digits.

* the ZMP derived from the moment balance (sympy) is ``kl.zmp``;
* the real CMP leaves the foot while the ZMP (= CoP) stays in it exactly when the ground force
  has a moment about the CoM (centroidal moment), and that moment buys braking beyond g0 * a / z;
* one joint on a free-floating base: the zero-momentum base motion is path-independent
  (integrable); two joints: it depends on the path (non-holonomic);
* spatial transforms: forces map with X^-T, inertias by congruence, power and energy frame-free.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

import kinematics_lib as kl

G0 = 9.81


def test_zmp_from_the_moment_balance_is_kl_zmp():
    x, y, z, xp, yp, m, g0 = sp.symbols("x y z x_p y_p m g_0")
    a = sp.symbols("ax ay az")
    L = sp.symbols("Lx Ly Lz")
    F = m * sp.Matrix([a[0], a[1], a[2] + g0])
    moment = sp.Matrix(L) + (sp.Matrix([x, y, z]) - sp.Matrix([xp, yp, 0])).cross(F)
    sol = sp.solve(list(moment[:2]), [xp, yp], dict=True)[0]
    rng = np.random.default_rng(3)
    for _ in range(10):
        p, acc, dL = np.r_[rng.uniform(-0.2, 0.2, 2), rng.uniform(0.4, 1.2)], rng.uniform(-3, 3, 3), rng.uniform(-9, 9, 3)
        mass = rng.uniform(20, 90)
        vals = {x: p[0], y: p[1], z: p[2], m: mass, g0: G0, **dict(zip(a, acc)), **dict(zip(L, dL))}
        got = [float(sol[xp].subs(vals)), float(sol[yp].subs(vals))]
        assert np.allclose(got, kl.zmp(p, acc, mass, dL, g=G0), rtol=1e-12, atol=1e-12)
    assert L[2] not in sol[xp].free_symbols | sol[yp].free_symbols   # a vertical moment is allowed


def test_real_cmp_leaves_the_foot_with_a_centroidal_moment():
    mass, com, half_foot = 60.0, np.array([0.0, 0.0, 0.9]), 0.1
    toe = np.array([half_foot, 0.0, 0.0])
    for fx in (-60.0, -150.0, -250.0):                       # braking forces at the toe
        F = np.array([fx, 0.0, mass * G0])
        a = F / mass - np.array([0.0, 0.0, G0])
        dL = np.cross(toe - com, F)                           # centroidal moment of the ground force
        assert np.allclose(kl.zmp(com, a, mass, dL), kl.center_of_pressure(toe[None], F[None]))
        x_cmp = kl.cmp(com, a)[0]
        assert np.isclose(x_cmp, kl.zmp(com, a, mass, dL)[0] + dL[1] / (mass * G0))
        # the CMP is outside the foot exactly when the braking exceeds what dL = 0 allows
        assert (x_cmp > half_foot) == (-a[0] > G0 * half_foot / com[2])
    # the force line through the CoM (dL = 0) keeps CMP = ZMP: no centroidal moment, no gain
    a0 = np.array([-G0 * half_foot / com[2], 0.0, 0.0])
    assert np.isclose(kl.cmp(com, a0)[0], half_foot) and np.isclose(kl.zmp(com, a0, mass)[0], half_foot)


def _base_yaw_deg(model, waypoints, steps=200):
    w = np.pad(np.asarray(waypoints, dtype=float), ((0, 0), (0, model.nv - 6 - len(waypoints[0]))))
    qj = np.vstack([np.linspace(a, b, steps) for a, b in zip(w[:-1], w[1:])])
    path = kl.zero_momentum_base_path(model, kl.neutral_configuration(model), qj,
                                      np.gradient(qj, 1 / steps, axis=0), 1 / steps)
    return np.degrees(2 * np.arctan2(path[-1, 5], path[-1, 6])), path[-1]


@pytest.mark.parametrize("ratio", [0.3, 0.8])
def test_one_joint_is_integrable_two_joints_are_not(ratio):
    sat = kl.satellite_arm_model(mass_ratio=ratio)
    yaw_a, q_a = _base_yaw_deg(sat, [[0.0], [0.8]])
    yaw_b, q_b = _base_yaw_deg(sat, [[0.0], [-0.5], [1.2], [0.8]])
    assert abs(yaw_a) > 1.0                                   # the base does turn ...
    assert abs(yaw_a - yaw_b) < 1e-3                          # ... by an amount fixed by q_1 alone
    assert np.allclose(q_a, q_b, atol=1e-4)
    yaw_c, _ = _base_yaw_deg(sat, [[0.0, 0.0], [0.8, 0.0], [0.8, 0.8]])
    yaw_d, _ = _base_yaw_deg(sat, [[0.0, 0.0], [0.0, 0.8], [0.8, 0.8]])
    assert abs(yaw_c - yaw_d) > 0.1                           # two joints: path-dependent


def test_spatial_transforms_force_inverse_transpose_and_congruence():
    rng = np.random.default_rng(7)
    for _ in range(5):
        R, p = kl.so3_exp(rng.normal(size=3)), rng.normal(size=3)
        X = kl.motion_transform(R, p)
        X_star = np.linalg.inv(X).T
        expected = np.block([[R.T, np.zeros((3, 3))], [-R.T @ kl.skew(p), R.T]])
        assert np.allclose(X_star, expected)
        v, f = rng.normal(size=6), rng.normal(size=6)
        assert np.isclose((X_star @ f) @ (X @ v), f @ v)
        I_B = kl.spatial_inertia(rng.uniform(0.5, 3), rng.normal(scale=0.1, size=3), np.diag(rng.uniform(0.02, 0.04, 3)))
        I_A = kl.transform_inertia(I_B, X)
        assert np.allclose(I_A, X.T @ I_B @ X)
        assert np.allclose(X_star @ I_A, I_B @ X)              # momentum: h_B = X* h_A with h = I v
        assert np.isclose(v @ I_A @ v, (X @ v) @ I_B @ (X @ v))
