"""Friction models and drives: the issue's reference values, LuGre's steady state and pre-sliding,
reflected inertia by energy, and the rotor armature against Pinocchio."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl

STRIBECK = dict(f_c=1.0, f_s=1.5, f_v=0.05, v_s=0.1)


def lugre(sigma0=1e4, sigma1=100.0):
    return kl.LuGre(sigma0=sigma0, sigma1=sigma1, sigma2=STRIBECK["f_v"], f_c=1.0, f_s=1.5, v_s=0.1)


def test_stribeck_reference_value():
    assert kl.stribeck_friction(0.05, **STRIBECK, delta=2.0) == pytest.approx(1.3919003915357, abs=1e-13)
    # the formula: f_v v + (f_c + (f_s - f_c) exp(-(v / v_s)^2)) sign(v)
    assert kl.stribeck_friction(0.05, **STRIBECK) == pytest.approx(0.0025 + 1.0 + 0.5 * np.exp(-0.25), abs=1e-15)


def test_stribeck_limits_and_symmetry():
    v = np.linspace(-2.0, 2.0, 41)
    tau = kl.stribeck_friction(v, **STRIBECK)
    assert np.allclose(tau, -kl.stribeck_friction(-v, **STRIBECK))  # odd
    assert kl.stribeck_friction(1e-9, **STRIBECK) == pytest.approx(1.5, abs=1e-6)  # breakaway level f_s
    fast = 5.0
    assert kl.stribeck_friction(fast, **STRIBECK) == pytest.approx(kl.coulomb_viscous_friction(fast, 1.0, 0.05), abs=1e-9)
    assert kl.stribeck_friction(0.0, **STRIBECK) == 0.0
    per_joint = kl.stribeck_friction(np.array([[0.05, -0.2]]), f_c=[1.0, 2.0], f_s=[1.5, 2.5], f_v=0.05, v_s=0.1)
    assert per_joint.shape == (1, 2) and per_joint[0, 0] == pytest.approx(1.3919003915357)


@pytest.mark.parametrize("v, expected", [(0.05, 1.3919003915), (0.2, 1.0191578194)])
def test_lugre_steady_state_is_stribeck_with_delta_2(v, expected):
    model = lugre()
    assert model.steady_state(v) == pytest.approx(expected, abs=1e-10)
    assert model.steady_state(v) == pytest.approx(kl.stribeck_friction(v, **STRIBECK, delta=2.0), abs=1e-14)
    z, tau = model.simulate(np.full(3000, v), dt=1e-4)  # the bristles settle at constant v
    assert tau[-1] == pytest.approx(expected, abs=1e-9)
    assert model.z_rate(z[-1], v) == pytest.approx(0.0, abs=1e-9)
    assert model.steady_state(-v) == pytest.approx(-expected, abs=1e-10)


def test_lugre_exact_step_matches_a_fine_integration():
    model = lugre(sigma0=1e3, sigma1=10.0)
    z_fine, v, dt = 0.0, 0.03, 1e-3
    for _ in range(10000):  # explicit Euler with 1/10000 of the step
        z_fine += model.z_rate(z_fine, v) * dt / 10000
    assert model.step(0.0, v, dt) == pytest.approx(z_fine, rel=1e-4)


def test_lugre_pre_sliding_is_a_spring_of_stiffness_sigma0():
    """A tiny back-and-forth motion (far below z_ss = f_s / sigma0) deflects the bristles like a
    spring: tau_f / x -> sigma0, with a narrow hysteresis loop; a large one slides at +-g."""
    model = lugre(sigma0=1e4, sigma1=0.0)
    dt, f = 1e-5, 1.0
    t = np.arange(0.0, 2.0, dt)
    small = 1e-6  # rad, vs f_s / sigma0 = 1.5e-4
    x = small * np.sin(2 * np.pi * f * t)
    z, tau = model.simulate(np.gradient(x, dt), dt)
    stiffness = np.polyfit(x, tau - model.sigma2 * np.gradient(x, dt), 1)[0]
    assert stiffness == pytest.approx(model.sigma0, rel=0.02)
    large = 1e-2
    x = large * np.sin(2 * np.pi * f * t)
    _, tau = model.simulate(np.gradient(x, dt), dt)
    assert np.abs(tau).max() < 1.5 + 0.05 * 2 * np.pi * large + 1e-6  # never above f_s + viscous


def test_coulomb_viscous():
    assert kl.coulomb_viscous_friction(0.5, 1.0, 0.2) == pytest.approx(1.1)
    assert kl.coulomb_viscous_friction(-0.5, 1.0, 0.2) == pytest.approx(-1.1)
    assert kl.coulomb_viscous_friction(0.0, 1.0, 0.2) == 0.0


def test_friction_regressor_is_linear_in_the_friction_parameters():
    rng = np.random.default_rng(0)
    V = rng.normal(size=(10, 3))
    f_v, f_c = rng.uniform(0, 1, 3), rng.uniform(0, 1, 3)
    theta = np.column_stack([f_v, f_c]).ravel()
    assert np.allclose(kl.friction_regressor(V) @ theta, kl.coulomb_viscous_friction(V, f_c, f_v))


def test_reflected_inertia_reference_values():
    r = kl.reflected_inertia(1e-4, 1e-2, 19)
    assert r.motor_side == pytest.approx(1.2770083102493e-4, rel=1e-12)
    assert r.load_side == pytest.approx(0.0461, rel=1e-12)


def test_reflected_inertia_conserves_kinetic_energy():
    J_m, J_l, n, w_l = 2e-4, 3e-2, kl.M3508_RATIO, 1.7
    energy = 0.5 * J_m * (n * w_l) ** 2 + 0.5 * J_l * w_l**2
    r = kl.reflected_inertia(J_m, J_l, n)
    assert 0.5 * r.motor_side * (n * w_l) ** 2 == pytest.approx(energy)
    assert 0.5 * r.load_side * w_l**2 == pytest.approx(energy)
    as_written = kl.doc002.reflected_inertia_energy(J_m, J_l, n)
    assert as_written == pytest.approx(n**2 * J_m) and as_written != pytest.approx(r.motor_side)
    assert kl.M3508_RATIO == pytest.approx(19.2032, abs=1e-4)


def test_gear_output_torque():
    assert kl.gear_output_torque(0.5, 19, 0.9) == pytest.approx(8.55)
    assert np.allclose(kl.gear_output_torque(np.array([1.0, -2.0]), 10), [10.0, -20.0])


def test_armature_matches_pinocchio():
    pin = pytest.importorskip("pinocchio")
    urdf = str(kl.anymal_b_urdf())
    ours, ref = kl.load_urdf(urdf), pin.buildModelFromUrdf(urdf)
    armature = kl.rotor_armature(np.full(12, 1e-4), np.full(12, 19.0))
    assert np.allclose(armature, 361e-4)
    ref.armature = armature
    data = ref.createData()
    rng = np.random.default_rng(0)
    for _ in range(3):
        q, v, tau = kl.random_configuration(ours, rng), rng.normal(size=12), rng.normal(size=12)
        M_ref = pin.crba(ref, data, q)
        M_ref = np.triu(M_ref) + np.triu(M_ref, 1).T
        assert np.allclose(kl.mass_matrix_with_armature(ours, q, armature), M_ref, atol=1e-12)
        assert np.allclose(kl.forward_dynamics_with_armature(ours, q, v, tau, armature),
                           pin.aba(ref, data, q, v, tau), atol=1e-10)


def test_lugre_as_written_is_only_the_state_equation():
    model = lugre()
    assert kl.doc001.lugre(1e-5, 0.05, model.sigma0, model.g) == pytest.approx(model.z_rate(1e-5, 0.05))
    with pytest.raises(ValueError, match="g must"):
        kl.doc001.lugre(0.0, 0.1, 1e4, None)


def test_bad_input_raises_value_error_naming_the_argument():
    with pytest.raises(ValueError, match="ratio"):
        kl.reflected_inertia(1e-4, 1e-2, 0.0)
    with pytest.raises(ValueError, match="ratio"):
        kl.reflected_inertia(1e-4, 1e-2, -19)
    with pytest.raises(ValueError, match="J_motor"):
        kl.reflected_inertia(-1e-4, 1e-2, 19)
    with pytest.raises(ValueError, match="f_c"):
        kl.coulomb_viscous_friction(0.1, -1.0, 0.1)
    with pytest.raises(ValueError, match="v_s"):
        kl.stribeck_friction(0.1, 1.0, 1.5, 0.05, 0.0)
    with pytest.raises(ValueError, match="f_s"):
        kl.stribeck_friction(0.1, 1.0, -1.5, 0.05, 0.1)
    with pytest.raises(ValueError, match="broadcast"):
        kl.stribeck_friction(np.zeros(3), [1.0, 2.0], 1.5, 0.05, 0.1)
    with pytest.raises(ValueError, match="sigma0"):
        kl.LuGre(sigma0=-1.0, sigma1=1.0, sigma2=0.0, f_c=1.0, f_s=1.5, v_s=0.1)
    with pytest.raises(ValueError, match="sigma1"):
        kl.LuGre(sigma0=1.0, sigma1=-1.0, sigma2=0.0, f_c=1.0, f_s=1.5, v_s=0.1)
    with pytest.raises(ValueError, match="dt"):
        lugre().step(0.0, 0.1, 0.0)
    with pytest.raises(ValueError, match="efficiency"):
        kl.gear_output_torque(1.0, 10, 1.5)
    with pytest.raises(ValueError, match="armature"):
        kl.mass_matrix_with_armature(kl.planar_chain_model([1.0], [1.0]), [0.0], [-1.0])
    with pytest.raises(ValueError, match="armature"):
        kl.mass_matrix_with_armature(kl.planar_chain_model([1.0], [1.0]), [0.0], [1.0, 2.0])
