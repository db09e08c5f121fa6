"""Homogeneous transforms, inverse, adjoint and se(3) exp: identities, an independent matrix
exponential (scipy.linalg.expm of the 4x4 twist matrix) and, when installed, Pinocchio."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.linalg import expm

import kinematics_lib as kl

RNG_SEED = 314


def random_transform(rng):
    return kl.transform_from_xyz_rpy(rng.normal(size=3), rng.uniform(-np.pi, np.pi, 3))


def hat(xi):
    """4x4 matrix of a twist [v; w]."""
    M = np.zeros((4, 4))
    M[:3, :3] = kl.skew(xi[3:])
    M[:3, 3] = xi[:3]
    return M


def test_make_transform_maps_points_and_composes():
    rng = np.random.default_rng(RNG_SEED)
    T_AB, T_BC = random_transform(rng), random_transform(rng)
    p_C = rng.normal(size=3)
    p_B = T_BC[:3, :3] @ p_C + T_BC[:3, 3]
    p_A = T_AB[:3, :3] @ p_B + T_AB[:3, 3]
    assert np.allclose((T_AB @ T_BC @ np.append(p_C, 1.0))[:3], p_A)
    R, p = kl.rot_x(0.4), np.array([1.0, -2.0, 0.5])
    T = kl.make_transform(R, p)
    assert np.allclose(T[:3, :3], R) and np.allclose(T[:3, 3], p) and np.allclose(T[3], [0, 0, 0, 1])
    assert np.allclose(kl.translation(p)[:3, 3], p) and np.allclose(kl.translation(p)[:3, :3], np.eye(3))


def test_transform_from_xyz_rpy_is_translation_times_rotation():
    xyz, rpy = np.array([0.1, 0.2, 0.3]), np.array([0.4, -0.5, 0.6])
    T = kl.transform_from_xyz_rpy(xyz, rpy)
    assert np.allclose(T, kl.translation(xyz) @ kl.make_transform(kl.rpy_to_matrix(rpy), np.zeros(3)))


def test_inverse_is_exact_and_matches_the_general_inverse():
    rng = np.random.default_rng(RNG_SEED + 1)
    for _ in range(100):
        T = random_transform(rng)
        Ti = kl.transform_inverse(T)
        assert np.allclose(Ti @ T, np.eye(4)) and np.allclose(T @ Ti, np.eye(4))
        assert np.allclose(Ti, np.linalg.inv(T))
        assert np.array_equal(Ti[3], [0.0, 0.0, 0.0, 1.0])
        assert np.allclose(kl.transform_inverse(Ti), T)


def test_adjoint_is_a_homomorphism():
    rng = np.random.default_rng(RNG_SEED + 2)
    for _ in range(100):
        T1, T2 = random_transform(rng), random_transform(rng)
        assert np.allclose(kl.adjoint(T1) @ kl.adjoint(T2), kl.adjoint(T1 @ T2))
        assert np.allclose(kl.adjoint(kl.transform_inverse(T1)), np.linalg.inv(kl.adjoint(T1)))
    assert np.allclose(kl.adjoint(np.eye(4)), np.eye(6))


def test_adjoint_conjugates_the_twist_matrix():
    """[Ad(T) xi]^ = T [xi]^ T^-1: the same motion written in the other frame."""
    rng = np.random.default_rng(RNG_SEED + 3)
    for _ in range(100):
        T, xi = random_transform(rng), rng.normal(size=6)
        assert np.allclose(hat(kl.adjoint(T) @ xi), T @ hat(xi) @ kl.transform_inverse(T))


def test_twist_transport_gives_the_same_motion_in_both_frames():
    """T0 exp(t xi_B) == exp(t Ad(T0) xi_B) T0: a body twist and its world form move the body
    identically; and the velocity of a body point is the same computed in either frame."""
    rng = np.random.default_rng(RNG_SEED + 4)
    T0, xi_B = random_transform(rng), rng.normal(size=6)
    xi_A = kl.adjoint(T0) @ xi_B
    for t in (0.0, 0.1, 0.7, 2.0):
        assert np.allclose(T0 @ kl.se3_exp(t * xi_B), kl.se3_exp(t * xi_A) @ T0)
    # point velocity: r_B fixed in the body; v_point = v + w x r in each frame's coordinates
    r_B = rng.normal(size=3)
    v_in_B = xi_B[:3] + np.cross(xi_B[3:], r_B)
    r_A = T0[:3, :3] @ r_B + T0[:3, 3]
    v_in_A = xi_A[:3] + np.cross(xi_A[3:], r_A)
    assert np.allclose(v_in_A, T0[:3, :3] @ v_in_B)
    # finite difference of the moving point in A
    h = 1e-6
    p = lambda t: (T0 @ kl.se3_exp(t * xi_B) @ np.append(r_B, 1.0))[:3]
    assert np.allclose((p(h) - p(-h)) / (2 * h), v_in_A, atol=1e-8)


def test_se3_exp_matches_the_matrix_exponential():
    rng = np.random.default_rng(RNG_SEED + 5)
    for scale in (1e-9, 1e-7, 1e-3, 1.0, 3.0):
        for _ in range(20):
            xi = scale * rng.normal(size=6)
            assert np.allclose(kl.se3_exp(xi), expm(hat(xi)), rtol=1e-12, atol=1e-14)


def test_se3_exp_of_a_pure_translation_and_of_a_screw():
    assert np.allclose(kl.se3_exp([1.0, 2.0, 3.0, 0.0, 0.0, 0.0]), kl.translation([1.0, 2.0, 3.0]))
    # rotation by pi/2 about the z axis through the point c = (1, 0, 0): v = -w x c = c x w
    c, w = np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, np.pi / 2])
    T = kl.se3_exp(np.concatenate([np.cross(c, w), w]))
    assert np.allclose(T @ np.append(c, 1.0), np.append(c, 1.0))  # points on the axis stay
    assert np.allclose((T @ [0.0, 0.0, 0.0, 1.0])[:3], [1.0, -1.0, 0.0])


def test_pose_error_is_exact_for_a_world_aligned_perturbation():
    rng = np.random.default_rng(RNG_SEED + 6)
    for _ in range(50):
        T_c = random_transform(rng)
        v, w = rng.normal(size=3), 0.5 * rng.normal(size=3)
        T_t = kl.make_transform(kl.so3_exp(w) @ T_c[:3, :3], T_c[:3, 3] + v)
        assert np.allclose(kl.pose_error(T_c, T_t), np.concatenate([v, w]))
        assert np.allclose(kl.pose_error(T_t, T_t), 0.0)


def test_adjoint_matches_pinocchio():
    import pinocchio as pin  # pinned: a missing Pinocchio fails, never skips
    rng = np.random.default_rng(RNG_SEED + 7)
    for _ in range(10):
        T = random_transform(rng)
        M = pin.SE3(T[:3, :3], T[:3, 3])  # pinocchio motions are [linear; angular] too
        assert np.allclose(kl.adjoint(T), M.action)
        assert np.allclose(kl.se3_exp(np.arange(6) * 0.1), pin.exp6(pin.Motion(np.arange(6) * 0.1)).homogeneous)


@pytest.mark.parametrize("call, name", [
    (lambda: kl.make_transform(np.eye(3) * 1.1, [0, 0, 0]), "R"),
    (lambda: kl.make_transform(np.diag([1.0, -1.0, 1.0]), [0, 0, 0]), "R"),
    (lambda: kl.make_transform(np.eye(3), [0, 0]), "p"),
    (lambda: kl.make_transform(np.eye(3), [0, np.nan, 0]), "p"),
    (lambda: kl.translation([0.0, 1.0]), "p"),
    (lambda: kl.transform_from_xyz_rpy([0, 0, 0], [0, 0]), "rpy"),
    (lambda: kl.transform_inverse(np.eye(3)), "T_AB"),
    (lambda: kl.transform_inverse(np.ones((4, 4))), "T_AB"),
    (lambda: kl.transform_inverse(np.diag([1.0, 1.0, 2.0, 1.0])), r"T_AB\[:3, :3\]"),
    (lambda: kl.adjoint(np.full((4, 4), np.inf)), "T_AB"),
    (lambda: kl.se3_exp(np.zeros(5)), "twist"),
    (lambda: kl.se3_exp([0, 0, 0, 0, 0, np.nan]), "twist"),
    (lambda: kl.pose_error(np.eye(4), np.eye(3)), "T_target"),
    (lambda: kl.pose_error(2 * np.eye(4), np.eye(4)), "T_current"),
])
def test_bad_input_raises_value_error_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name}"):
        call()
