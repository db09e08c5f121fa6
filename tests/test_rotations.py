"""Rotations: elementary rotations, rpy, quaternions, exp/log -- identities and round trips.

Independent references: the geometric definition of each elementary rotation, scipy's
``Rotation`` (quaternions also stored (x, y, z, w)), and finite differences.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import kinematics_lib as kl

RNG_SEED = 20240602


def random_unit(rng, n=3):
    v = rng.normal(size=n)
    return v / np.linalg.norm(v)


def is_rotation(R, tol=1e-12):
    return np.allclose(R.T @ R, np.eye(3), atol=tol) and abs(np.linalg.det(R) - 1.0) < tol


# --- skew / vee -------------------------------------------------------------------------------


def test_skew_is_the_cross_product_and_vee_inverts_it():
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(50):
        w, u = rng.normal(size=3), rng.normal(size=3)
        S = kl.skew(w)
        assert np.allclose(S @ u, np.cross(w, u))
        assert np.allclose(S, -S.T)
        assert np.allclose(kl.vee(S), w)


def test_vee_takes_the_skew_part():
    rng = np.random.default_rng(RNG_SEED + 1)
    w, sym = rng.normal(size=3), rng.normal(size=(3, 3))
    assert np.allclose(kl.vee(kl.skew(w) + sym + sym.T), w)


# --- elementary rotations ---------------------------------------------------------------------


@pytest.mark.parametrize("rot, axis", [(kl.rot_x, 0), (kl.rot_y, 1), (kl.rot_z, 2)])
def test_elementary_rotation_fixes_its_axis_and_turns_the_next_by_the_right_hand_rule(rot, axis):
    e = np.eye(3)
    nxt, prev = e[(axis + 1) % 3], e[(axis + 2) % 3]
    for angle in np.linspace(-3.0, 3.0, 13):
        R = rot(angle)
        assert is_rotation(R)
        assert np.allclose(R @ e[axis], e[axis])
        # right-hand rule: the next axis turns towards the one after it
        assert np.allclose(R @ nxt, math.cos(angle) * nxt + math.sin(angle) * prev)


@pytest.mark.parametrize("rot, axis", [(kl.rot_x, 0), (kl.rot_y, 1), (kl.rot_z, 2)])
def test_elementary_rotation_is_exp_of_its_generator(rot, axis):
    angle = 0.7
    assert np.allclose(rot(angle), kl.so3_exp(angle * np.eye(3)[axis]))
    assert np.allclose(rot(angle), Rotation.from_rotvec(angle * np.eye(3)[axis]).as_matrix())
    assert np.allclose(rot(0.3) @ rot(0.4), rot(0.7))
    assert np.allclose(rot(-angle), rot(angle).T)


def test_rotations_do_not_commute():
    assert not np.allclose(kl.rot_x(0.5) @ kl.rot_z(0.5), kl.rot_z(0.5) @ kl.rot_x(0.5))


def test_derivative_of_rot_z_is_skew_z_times_rot_z():
    h, angle = 1e-6, 0.4
    dR = (kl.rot_z(angle + h) - kl.rot_z(angle - h)) / (2 * h)
    assert np.allclose(dR, kl.skew([0.0, 0.0, 1.0]) @ kl.rot_z(angle), atol=1e-9)


# --- roll-pitch-yaw ---------------------------------------------------------------------------


def test_rpy_is_fixed_axis_x_then_y_then_z():
    rpy = np.array([0.3, -0.5, 1.2])
    assert np.allclose(kl.rpy_to_matrix(rpy), kl.rot_z(1.2) @ kl.rot_y(-0.5) @ kl.rot_x(0.3))
    assert np.allclose(kl.rpy_to_matrix(rpy), Rotation.from_euler("xyz", rpy).as_matrix())  # extrinsic


def test_rpy_round_trip_on_random_angles():
    rng = np.random.default_rng(RNG_SEED + 2)
    for _ in range(500):
        rpy = rng.uniform([-np.pi, -np.pi / 2, -np.pi], [np.pi, np.pi / 2, np.pi])
        R = kl.rpy_to_matrix(rpy)
        back = kl.matrix_to_rpy(R)
        assert np.allclose(back, rpy, atol=1e-9)
        assert np.allclose(kl.rpy_to_matrix(back), R, atol=1e-12)


@pytest.mark.parametrize("pitch", [np.pi / 2, -np.pi / 2, np.pi / 2 - 1e-12, -np.pi / 2 + 1e-7])
def test_rpy_at_and_near_gimbal_lock_reproduces_the_matrix(pitch):
    rng = np.random.default_rng(RNG_SEED + 3)
    for _ in range(50):
        R = kl.rpy_to_matrix([rng.uniform(-3, 3), pitch, rng.uniform(-3, 3)])
        rpy = kl.matrix_to_rpy(R)
        assert np.all(np.isfinite(rpy))
        assert abs(rpy[1]) <= np.pi / 2 + 1e-15
        assert np.allclose(kl.rpy_to_matrix(rpy), R, atol=1e-8)


def test_gimbal_lock_roll_and_yaw_are_not_unique():
    a = kl.rpy_to_matrix([0.2, np.pi / 2, 0.5])
    b = kl.rpy_to_matrix([0.0, np.pi / 2, 0.3])  # only yaw - roll matters at pitch = +pi/2
    assert np.allclose(a, b)


# --- quaternions (x, y, z, w) -----------------------------------------------------------------


def test_quaternion_matches_scipy_and_round_trips():
    rng = np.random.default_rng(RNG_SEED + 4)
    for _ in range(500):
        q = random_unit(rng, 4)
        R = kl.quat_to_matrix(q)
        assert is_rotation(R)
        assert np.allclose(R, Rotation.from_quat(q).as_matrix())  # scipy: scalar-last too
        back = kl.matrix_to_quat(R)
        assert back[3] >= 0.0
        assert np.allclose(back, q if q[3] >= 0 else -q, atol=1e-12)


def test_matrix_to_quat_near_pi_rotations_uses_a_stable_branch():
    rng = np.random.default_rng(RNG_SEED + 5)
    for _ in range(200):
        n = random_unit(rng)
        for angle in (np.pi, np.pi - 1e-9, 1e-9, 0.0):
            R = kl.axis_angle_to_matrix(n, angle)
            assert np.allclose(kl.quat_to_matrix(kl.matrix_to_quat(R)), R, atol=1e-12)


def test_quaternion_product_is_the_matrix_product_and_q_minus_q_agree():
    rng = np.random.default_rng(RNG_SEED + 6)
    for _ in range(100):
        q1, q2 = random_unit(rng, 4), random_unit(rng, 4)
        q12 = kl.quat_multiply(q1, q2)
        assert np.allclose(kl.quat_to_matrix(q12), kl.quat_to_matrix(q1) @ kl.quat_to_matrix(q2))
        assert np.allclose(kl.quat_to_matrix(-q1), kl.quat_to_matrix(q1))


def test_quaternion_of_a_rotation_about_z():
    angle = 0.8
    q = kl.matrix_to_quat(kl.rot_z(angle))
    assert np.allclose(q, [0.0, 0.0, math.sin(angle / 2), math.cos(angle / 2)])


# --- axis-angle: exp / log --------------------------------------------------------------------

ANGLES = [0.0, 1e-12, 1e-9, 1e-7, 1e-6, 1e-5, 1e-3, 0.5, 2.0, 3.0, np.pi - 0.1, np.pi - 1e-3, np.pi - 2e-4, np.pi - 1e-4,
          np.pi - 1e-5, np.pi - 1e-7, np.pi - 1e-9, np.pi]


@pytest.mark.parametrize("angle", ANGLES)
def test_exp_log_round_trip_on_random_axes(angle):
    rng = np.random.default_rng(RNG_SEED + 7)
    for _ in range(200):
        phi = angle * random_unit(rng)
        R = kl.so3_exp(phi)
        assert is_rotation(R)
        back = kl.so3_log(R)
        assert np.linalg.norm(back) <= np.pi + 1e-15
        if angle > np.pi - 1e-6 and back @ phi < 0:  # at pi, phi and -phi are the same rotation
            back = -back
        assert np.allclose(back, phi, rtol=0, atol=1e-13), (angle, back, phi)
        assert np.allclose(kl.so3_exp(back), R, atol=1e-14)


def test_exp_matches_rodrigues_and_scipy():
    rng = np.random.default_rng(RNG_SEED + 8)
    for _ in range(100):
        phi = rng.normal(size=3)
        t, n = np.linalg.norm(phi), phi / np.linalg.norm(phi)
        K = kl.skew(n)
        rodrigues = np.eye(3) + math.sin(t) * K + (1 - math.cos(t)) * K @ K
        assert np.allclose(kl.so3_exp(phi), rodrigues)
        assert np.allclose(kl.so3_exp(phi), Rotation.from_rotvec(phi).as_matrix())


def test_log_keeps_relative_precision_at_tiny_angles():
    for angle in (1e-9, 1e-5):
        phi = kl.so3_log(kl.rot_y(angle))
        assert abs(np.linalg.norm(phi) - angle) <= 1e-15 * angle + 1e-300


def test_log_at_exactly_pi_has_norm_pi_and_the_right_axis():
    for n in np.eye(3).tolist() + [[1 / math.sqrt(2), 1 / math.sqrt(2), 0.0]]:
        phi = kl.so3_log(kl.axis_angle_to_matrix(n, np.pi))
        assert math.isclose(np.linalg.norm(phi), np.pi, rel_tol=1e-15)
        assert np.allclose(np.abs(phi / np.pi), np.abs(n))


def test_exp_derivative_at_zero_is_the_generator():
    h = 1e-7
    for k in range(3):
        e = np.eye(3)[k]
        dR = (kl.so3_exp(h * e) - kl.so3_exp(-h * e)) / (2 * h)
        assert np.allclose(dR, kl.skew(e), atol=1e-9)


def test_axis_angle_round_trip():
    rng = np.random.default_rng(RNG_SEED + 9)
    for _ in range(100):
        axis, angle = random_unit(rng), rng.uniform(1e-3, np.pi - 1e-3)
        a2, t2 = kl.matrix_to_axis_angle(kl.axis_angle_to_matrix(3.0 * axis, angle))  # axis normalised
        assert np.allclose(a2, axis) and math.isclose(t2, angle)
    axis, angle = kl.matrix_to_axis_angle(np.eye(3))
    assert angle == 0.0 and np.allclose(axis, [0, 0, 1])


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("call, name", [
    (lambda: kl.skew([1.0, 2.0]), "w"),
    (lambda: kl.skew([1.0, np.nan, 2.0]), "w"),
    (lambda: kl.vee(np.eye(4)), "S"),
    (lambda: kl.rot_x([0.1, 0.2]), "angle"),
    (lambda: kl.rot_y(np.inf), "angle"),
    (lambda: kl.rot_z("a quarter turn"), "angle"),
    (lambda: kl.rpy_to_matrix([0.1, 0.2]), "rpy"),
    (lambda: kl.rpy_to_matrix([0.1, np.nan, 0.2]), "rpy"),
    (lambda: kl.matrix_to_rpy(2.0 * np.eye(3)), "R"),
    (lambda: kl.matrix_to_rpy(np.diag([1.0, 1.0, -1.0])), "R"),  # a reflection: det = -1
    (lambda: kl.matrix_to_quat(np.ones((3, 3))), "R"),
    (lambda: kl.quat_to_matrix([0.0, 0.0, 0.0, 2.0]), "quat"),
    (lambda: kl.quat_to_matrix([0.0, 0.0, 1.0]), "quat"),
    (lambda: kl.quat_multiply([0, 0, 0, 1], [0, 0, 1]), "q2"),
    (lambda: kl.so3_exp([np.inf, 0.0, 0.0]), "phi"),
    (lambda: kl.so3_exp(np.zeros((3, 1))), "phi"),
    (lambda: kl.so3_log(np.eye(3) + 1e-3), "R"),
    (lambda: kl.so3_log([[1.0, 0.0], [0.0, 1.0]]), "R"),
    (lambda: kl.axis_angle_to_matrix([0.0, 0.0, 0.0], 1.0), "axis"),
    (lambda: kl.axis_angle_to_matrix([0.0, 0.0, 1.0], np.nan), "angle"),
])
def test_bad_input_raises_value_error_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()
