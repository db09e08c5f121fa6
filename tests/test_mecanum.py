"""Mecanum chassis kinematics: roller geometry, chassis matrix, sign checks, yaw, odometry."""

from __future__ import annotations

import math

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.mobile.wheels import MECANUM_ORDER, RollerWheel

RNG_SEED = 7


def random_chassis(rng):
    return rng.uniform(0.1, 0.4), rng.uniform(0.1, 0.4), rng.uniform(0.03, 0.1)


def random_wheel(rng) -> RollerWheel:
    return RollerWheel(rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(0.03, 0.1),
                       rng.uniform(-1.2, 1.2), theta=rng.uniform(-np.pi, np.pi))


# --- the roller constraint and the chassis matrix -------------------------------------------

def test_wheel_row_satisfies_roller_constraint_from_3d_cross_product():
    """v_c · e = R ω (d · e), with v_c = v + ω_z ẑ × r computed independently in 3-D."""
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(50):
        w, v = random_wheel(rng), rng.normal(size=3)
        omega_i = kl.wheel_row(w) @ v
        v_c = np.array([v[0], v[1], 0.0]) + np.cross([0.0, 0.0, v[2]], [w.x, w.y, 0.0])
        d = np.array([math.cos(w.theta), math.sin(w.theta)])
        e = kl.roller_axis(w)
        assert v_c[:2] @ e == pytest.approx(w.radius * omega_i * (d @ e), abs=1e-12)


def test_free_roller_direction_carries_the_rest_of_the_contact_velocity():
    """v_c − R ω d is perpendicular to the roller axle: the roller rolls across its axle."""
    rng = np.random.default_rng(1)
    for _ in range(20):
        w, v = random_wheel(rng), rng.normal(size=3)
        v_c = v[:2] + v[2] * np.array([-w.y, w.x])
        d = np.array([math.cos(w.theta), math.sin(w.theta)])
        rest = v_c - w.radius * (kl.wheel_row(w) @ v) * d
        assert rest @ kl.roller_axis(w) == pytest.approx(0.0, abs=1e-12)


def test_standard_matrix_equals_roller_geometry_construction():
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(20):
        a, b, R = random_chassis(rng)
        H_geo = kl.wheel_jacobian(kl.mecanum_layout(a, b, R))
        np.testing.assert_allclose(kl.mecanum_matrix(a, b, R), H_geo, atol=1e-12)
        assert [w.name for w in kl.mecanum_layout(a, b, R)] == list(MECANUM_ORDER)


def test_hint_formula_tan_gamma():
    """R ω_i = v_x − ω y_i + tan γ_i (v_y + ω x_i) for wheels driving along x."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        w = RollerWheel(rng.uniform(-1, 1), rng.uniform(-1, 1), 0.05, rng.uniform(-1.2, 1.2))
        v = rng.normal(size=3)
        expected = (v[0] - v[2] * w.y + math.tan(w.gamma) * (v[1] + v[2] * w.x)) / w.radius
        assert kl.wheel_row(w) @ v == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_rank_3_and_forward_after_inverse_is_identity():
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(20):
        a, b, R = random_chassis(rng)
        H = kl.mecanum_matrix(a, b, R)
        assert np.linalg.matrix_rank(H) == 3
        np.testing.assert_allclose(np.linalg.pinv(H) @ H, np.eye(3), atol=1e-12)
        v = rng.normal(size=3)
        v_back, r = kl.chassis_twist(H, kl.mecanum_wheel_speeds(v, a, b, R))
        np.testing.assert_allclose(v_back, v, atol=1e-12)
        np.testing.assert_allclose(r, 0.0, atol=1e-10)


def test_chassis_twist_batch_matches_single_and_residual_is_orthogonal():
    rng = np.random.default_rng(4)
    H = kl.mecanum_matrix(0.2, 0.15, 0.05)
    W = rng.normal(size=(6, 4))
    V, Rs = kl.chassis_twist(H, W)
    for w, v, r in zip(W, V, Rs):
        v1, r1 = kl.chassis_twist(H, w)
        np.testing.assert_allclose(v, v1, atol=1e-12)
        np.testing.assert_allclose(H.T @ r1, 0.0, atol=1e-10)   # least squares: r ⟂ columns of H
        np.testing.assert_allclose(r, r1, atol=1e-12)


def test_residual_space_is_front_minus_rear():
    """The consistency condition of the standard layout: ω_FL + ω_FR − ω_RL − ω_RR = 0."""
    H = kl.mecanum_matrix(0.25, 0.2, 0.06)
    n = np.array([1.0, 1.0, -1.0, -1.0])
    np.testing.assert_allclose(n @ H, 0.0, atol=1e-12)
    _, r = kl.chassis_twist(H, [1.0, 0.0, 0.0, 0.0])
    np.testing.assert_allclose(r, n / 4, atol=1e-12)


def test_general_layout_any_number_of_wheels():
    """A 3-wheel omni (kiwi) and a 6-wheel mecanum layout both give rank 3 and round trips."""
    R = 0.05
    kiwi = [RollerWheel(0.2 * math.cos(t), 0.2 * math.sin(t), R, 0.0, theta=t + math.pi / 2)
            for t in np.deg2rad([90, 210, 330])]
    six = list(kl.mecanum_layout(0.3, 0.2, R)) + [RollerWheel(0.0, 0.2, R, math.pi / 4),
                                                  RollerWheel(0.0, -0.2, R, -math.pi / 4)]
    v = np.array([0.3, -0.1, 0.7])
    for wheels in (kiwi, six):
        H = kl.wheel_jacobian(wheels)
        assert H.shape == (len(wheels), 3)
        np.testing.assert_allclose(kl.chassis_twist(H, H @ v)[0], v, atol=1e-12)


# --- the sign checks -------------------------------------------------------------------------

def test_issue_sign_pattern():
    a, b, R = 0.2, 0.15, 0.05
    fwd = kl.mecanum_wheel_speeds([1.0, 0.0, 0.0], a, b, R)
    strafe = kl.mecanum_wheel_speeds([0.0, 1.0, 0.0], a, b, R)
    spin = kl.mecanum_wheel_speeds([0.0, 0.0, 1.0], a, b, R)
    np.testing.assert_array_equal(np.sign(fwd), [1, 1, 1, 1])
    np.testing.assert_array_equal(np.sign(strafe), [-1, 1, 1, -1])     # FL, RR backwards
    np.testing.assert_array_equal(np.sign(spin), [-1, 1, -1, 1])       # left wheels backwards
    np.testing.assert_allclose(fwd, 1.0 / R)
    np.testing.assert_allclose(np.abs(spin), (a + b) / R)


def test_mecanum_wheel_speeds_is_importable_from_package_with_signature():
    import inspect

    assert "mecanum_wheel_speeds" in kl.__all__
    params = list(inspect.signature(kl.mecanum_wheel_speeds).parameters)
    assert params == ["v_body", "half_length", "half_width", "wheel_radius"]


def test_single_wheel_check_passes_standard_and_names_each_reversed_wheel():
    H = kl.mecanum_matrix(0.2, 0.15, 0.05)
    assert kl.single_wheel_check(H).passed
    for k, name in enumerate(MECANUM_ORDER):
        bad = H.copy()
        bad[k] *= -1.0
        res = kl.single_wheel_check(bad)
        assert not res.passed and res.wrong == (name,)
        assert "reversed" in res.message


def test_source_matrix_right_for_row_numbering_wrong_for_circular_numbering():
    a, b, R = 0.2, 0.15, 0.05
    src = np.array([[1, -1, -(a + b)], [1, 1, a + b], [1, 1, -(a + b)], [1, -1, a + b]]) / R
    assert kl.single_wheel_check(src, order=("FL", "FR", "RL", "RR")).passed
    res = kl.single_wheel_check(src, order=("FL", "FR", "RR", "RL"))
    assert not res.passed and set(res.wrong) == {"RR", "RL"}
    assert "swapped" in res.message
    assert res.ok[:, 0].all()          # the forward test alone cannot see the numbering error


def test_numbering_error_turns_strafe_into_pure_spin():
    a, b, R = 0.2, 0.15, 0.05
    H = kl.mecanum_matrix(a, b, R)
    w_cmd = H @ [0.0, 0.5, 0.0]
    v, r = kl.chassis_twist(H, w_cmd[[0, 1, 3, 2]])     # rows for RL/RR drive RR/RL
    np.testing.assert_allclose(v[:2], 0.0, atol=1e-12)
    assert v[2] > 0.0
    np.testing.assert_allclose(r, 0.0, atol=1e-10)      # consistent speeds: the residual is blind


def test_mirrored_rollers_on_square_chassis_lose_rank():
    with pytest.raises(ValueError, match="rank 2"):
        kl.wheel_jacobian(kl.mecanum_layout(0.2, 0.2, 0.05, mirrored=True))
    H = kl.wheel_jacobian(kl.mecanum_layout(0.2, 0.2, 0.05, mirrored=True), require_full_rank=False)
    with pytest.raises(ValueError, match="rank"):
        kl.chassis_twist(H, np.zeros(4))
    H_rect = kl.wheel_jacobian(kl.mecanum_layout(0.25, 0.15, 0.05, mirrored=True))
    res = kl.single_wheel_check(H_rect)
    assert res.wrong == MECANUM_ORDER and "mirrored" in res.message
    np.testing.assert_allclose(np.abs(H_rect[:, 2]), 0.10 / 0.05)   # |a − b| / R instead of (a + b) / R


@pytest.mark.parametrize("flipped", ("none",) + MECANUM_ORDER)
def test_identify_flipped_wheel_from_path(flipped):
    rng = np.random.default_rng(11)
    a, b, R = random_chassis(rng)
    H = kl.mecanum_matrix(a, b, R)
    v_cmd = np.array([0.5, 0.2, 0.3])
    w = H @ v_cmd
    if flipped != "none":
        w[MECANUM_ORDER.index(flipped)] *= -1
    v, _ = kl.chassis_twist(H, w)
    poses = kl.integrate_odometry(np.tile(v, (50, 1)), 0.02)
    assert kl.identify_flipped_wheel(poses, 0.02, v_cmd, a, b, R) == flipped


# --- yaw compensation and odometry -------------------------------------------------------------

def test_world_body_round_trip_and_source_matrix():
    rng = np.random.default_rng(5)
    for _ in range(20):
        psi, v = rng.uniform(-np.pi, np.pi), rng.normal(size=3)
        np.testing.assert_allclose(kl.chassis_body_to_world(kl.chassis_world_to_body(v, psi), psi), v, atol=1e-12)
        c, s = math.cos(psi), math.sin(psi)
        np.testing.assert_allclose(kl.chassis_world_to_body(v, psi)[:2], np.array([[c, s], [-s, c]]) @ v[:2])


def test_body_velocity_matches_finite_difference_of_world_path():
    v_body = np.array([0.4, -0.2, 0.9])
    P = kl.integrate_odometry(np.tile(v_body, (2000, 1)), 1e-3, pose0=(0.3, -0.1, 0.5))
    k, h = 1000, 1e-3
    v_world = (P[k + 1] - P[k - 1]) / (2 * h)
    np.testing.assert_allclose(kl.chassis_world_to_body(v_world, P[k, 2]), v_body, atol=1e-6)


def test_odometry_step_matches_fine_euler_integration():
    pose0, v, T = np.array([0.2, -0.3, 0.7]), np.array([0.5, 0.3, -1.3]), 0.8
    p = pose0.copy()
    n = 20000
    for _ in range(n):
        p = p + np.r_[kl.chassis_body_to_world(v, p[2])[:2], v[2]] * (T / n)
    np.testing.assert_allclose(kl.odometry_step(pose0, v, T), p, atol=1e-4)
    np.testing.assert_allclose(kl.odometry_step(pose0, [0.5, 0.3, 0.0], T),
                               pose0 + np.r_[kl.chassis_body_to_world([0.5, 0.3, 0.0], 0.7)[:2] * T, 0.0])


def test_odometry_twist_inverts_step_and_integrate_matches_steps():
    rng = np.random.default_rng(6)
    V = rng.normal(size=(30, 3))
    P = kl.integrate_odometry(V, 0.05, pose0=(1.0, 2.0, -0.4))
    p = np.array([1.0, 2.0, -0.4])
    for k, v in enumerate(V):
        p = kl.odometry_step(p, v, 0.05)
        np.testing.assert_allclose(P[k + 1], p, atol=1e-12)
        np.testing.assert_allclose(kl.odometry_twist(P[k], P[k + 1], 0.05), v, atol=1e-9)


def test_imu_yaw_equal_to_wheel_yaw_changes_nothing():
    rng = np.random.default_rng(8)
    V = rng.normal(size=(40, 3))
    P = kl.integrate_odometry(V, 0.05)
    np.testing.assert_allclose(kl.integrate_odometry(V, 0.05, yaw=P[:, 2]), P, atol=1e-12)


def test_simulate_odometry_is_seeded_and_exact_without_errors():
    H = kl.mecanum_matrix(0.2, 0.15, 0.076)
    t = np.arange(500) * 0.01
    V = np.column_stack([0.6 + 0 * t, 0.2 * np.sin(t), 0.4 * np.cos(0.5 * t)])
    r1, r2 = kl.simulate_odometry(H, V, dt=0.01, seed=3), kl.simulate_odometry(H, V, dt=0.01, seed=3)
    np.testing.assert_array_equal(r1.true, r2.true)
    exact = kl.simulate_odometry(H, V, dt=0.01, slip_std=0.0, slip_bias_std=0.0, gyro_bias=0.0, gyro_noise=0.0)
    np.testing.assert_allclose(exact.wheel, exact.true, atol=1e-12)
    np.testing.assert_allclose(exact.fused, exact.true, atol=1e-9)


def test_imu_yaw_fusion_beats_wheel_odometry_on_most_seeds():
    H = kl.mecanum_matrix(0.2, 0.15, 0.076)
    t = np.arange(2000) * 0.01
    V = np.column_stack([0.6 + 0 * t, 0.3 * np.sin(0.4 * t), 0.3 * np.cos(0.2 * t)])
    wins = sum(r.position_error("fused").max() < r.position_error("wheel").max()
               for r in (kl.simulate_odometry(H, V, dt=0.01, seed=s) for s in range(10)))
    assert wins >= 8


# --- forces, power, mobility ---------------------------------------------------------------------

def test_power_balance_of_ideal_rollers():
    """Σ τ_i ω_i = F · v with F = H^T τ: no power leaks through ideal rollers."""
    rng = np.random.default_rng(9)
    wheels = kl.mecanum_layout(0.2, 0.15, 0.05)
    H = kl.wheel_jacobian(wheels)
    for _ in range(20):
        tau, v = rng.normal(size=4), rng.normal(size=3)
        f = kl.wheel_ground_forces(wheels, tau)
        wrench = np.array([f[:, 0].sum(), f[:, 1].sum(),
                           sum(w.x * fi[1] - w.y * fi[0] for w, fi in zip(wheels, f))])
        np.testing.assert_allclose(wrench, H.T @ tau, atol=1e-12)
        assert tau @ (H @ v) == pytest.approx(wrench @ v, rel=1e-12, abs=1e-12)
        for w, fi, t in zip(wheels, f, tau):      # per wheel: ground force power = τ_i ω_i
            v_c = v[:2] + v[2] * np.array([-w.y, w.x])
            assert fi @ v_c == pytest.approx(t * (kl.wheel_row(w) @ v), rel=1e-10, abs=1e-12)


def test_traction_limit_is_cos_45_of_friction():
    mu_n, R = 10.0, 0.05
    wheels = kl.mecanum_layout(0.2, 0.15, R)
    tau_max = [mu_n * R * math.cos(w.gamma) for w in wheels]
    F = kl.max_chassis_force(kl.wheel_jacobian(wheels), tau_max, [1.0, 0.0, 0.0])
    assert F == pytest.approx(4 * mu_n * math.cos(math.pi / 4), rel=1e-9)


def test_degree_of_mobility():
    diff = [kl.no_slip_row(0.0, y, 0.0) for y in (0.2, -0.2)]
    track = [kl.no_slip_row(x, y, 0.0) for x in (-0.3, 0.0, 0.3) for y in (0.2, -0.2)]
    assert kl.degree_of_mobility(diff) == 2
    assert kl.degree_of_mobility(track) == 1
    assert kl.degree_of_mobility(np.zeros((0, 3))) == 3


# --- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("call, word", [
    (lambda: kl.mecanum_wheel_speeds([1.0, 0.0], 0.2, 0.15, 0.05), "v_body"),
    (lambda: kl.mecanum_wheel_speeds([1.0, 0.0, 0.0], 0.2, 0.15, 0.0), "wheel_radius"),
    (lambda: kl.mecanum_wheel_speeds([1.0, 0.0, 0.0], -0.2, 0.15, 0.05), "half_length"),
    (lambda: kl.mecanum_wheel_speeds([1.0, 0.0, 0.0], 0.2, 0.0, 0.05), "half_width"),
    (lambda: kl.mecanum_wheel_speeds([1.0, np.nan, 0.0], 0.2, 0.15, 0.05), "v_body"),
    (lambda: RollerWheel(0.0, 0.0, -0.05, 0.0), "radius"),
    (lambda: RollerWheel(0.0, 0.0, 0.05, math.pi / 2), "gamma"),
    (lambda: kl.wheel_jacobian(kl.mecanum_layout(0.2, 0.15, 0.05)[:2]), "wheels"),
    (lambda: kl.chassis_twist(np.ones((4, 2)), np.zeros(4)), "H"),
    (lambda: kl.chassis_twist(kl.mecanum_matrix(0.2, 0.15, 0.05), np.zeros(3)), "wheel_speeds"),
    (lambda: kl.single_wheel_check(kl.mecanum_matrix(0.2, 0.15, 0.05), order=("FL", "FR", "RL", "XX")), "order"),
    (lambda: kl.chassis_world_to_body([1.0, 0.0], 0.3), "v_world"),
    (lambda: kl.integrate_odometry(np.zeros((5, 3)), 0.0), "dt"),
    (lambda: kl.integrate_odometry(np.zeros((5, 3)), 0.1, yaw=np.zeros(5)), "yaw"),
    (lambda: kl.odometry_error_rms(np.eye(3), np.zeros((5, 3)), dt=0.1, seeds=[]), "seeds"),
])
def test_bad_input_raises_value_error_naming_the_argument(call, word):
    with pytest.raises(ValueError, match=word):
        call()
