"""The SE(3) toolkit (issue 22, item 4): se3_hat/se3_vee, se3_exp/se3_log, so3_log near pi, slerp.

Defining properties (exp o log = id, log o exp = id on the principal branch, hat/vee inverse,
the matrix exponential of the hat) and agreement with Pinocchio's exp6, log6, log3 and Eigen's
quaternion slerp on random and near-pi inputs. Modern Robotics' documented MatrixExp6/MatrixLog6
example is restated in [v; w] order.
"""

from __future__ import annotations

import numpy as np
import pinocchio as pin  # pinned in requirements/: missing is a failure, never a skip
import pytest
from scipy.linalg import expm

import kinematics_lib as kl


def random_twists(n, seed, angle=None):
    rng = np.random.default_rng(seed)
    xi = rng.normal(size=(n, 6))
    if angle is not None:  # rotation angles as given
        xi[:, 3:] *= (np.asarray(angle) / np.linalg.norm(xi[:, 3:], axis=1))[:, None]
    return xi


def test_hat_vee_are_inverse_and_hat_exponentiates_to_se3_exp():
    for xi in random_twists(20, 1):
        X = kl.se3_hat(xi)
        assert np.array_equal(kl.se3_vee(X), xi)
        assert np.allclose(expm(X), kl.se3_exp(xi), atol=1e-12)
        assert np.allclose(X[:3, :3] @ [1.0, 2.0, 3.0], np.cross(xi[3:], [1.0, 2.0, 3.0]))


def test_vee_refuses_a_matrix_that_is_not_in_se3():
    with pytest.raises(kl.InputError, match="X must be an se"):
        kl.se3_vee(np.eye(4))


def test_exp_log_round_trips_and_pinocchio():
    worst = 0.0
    for xi in random_twists(200, 2, angle=np.random.default_rng(3).uniform(0, np.pi - 1e-6, 200)):
        T = kl.se3_exp(xi)
        assert np.abs(T - pin.exp6(xi).homogeneous).max() < 1e-13
        log = kl.se3_log(T)
        worst = max(worst, np.abs(log - pin.log6(T).vector).max())
        assert np.allclose(log, xi, rtol=1e-9, atol=1e-10)
        assert np.allclose(kl.se3_exp(log), T, atol=1e-13)
    assert worst < 1e-12, worst


@pytest.mark.parametrize("delta", [0.0, 1e-15, 1e-12, 1e-9, 1e-7, 1e-4])
def test_so3_log_near_pi(delta):
    """Within 1e-9 of pi the angle and axis are exact to 1e-12 (and equal Pinocchio's log3)."""
    rng = np.random.default_rng(int(delta * 1e15) % 1000)
    for _ in range(50):
        n = rng.normal(size=3)
        n /= np.linalg.norm(n)
        phi = n * (np.pi - delta)
        R = kl.so3_exp(phi)
        got = kl.so3_log(R)
        assert np.allclose(kl.so3_exp(got), R, atol=1e-14)
        if delta > 0.0:  # at pi exactly, phi and -phi are the same rotation
            assert np.abs(got - phi).max() < 1e-12, (delta, got - phi)
            assert np.abs(got - pin.log3(R)).max() < 1e-12
        else:
            assert min(np.abs(got - phi).max(), np.abs(got + phi).max()) < 1e-12
        T = kl.make_transform(R, rng.normal(size=3))
        assert np.allclose(kl.se3_exp(kl.se3_log(T)), T, atol=1e-12)


def test_modern_robotics_matrix_log6_example():
    """MR's MatrixLog6 docstring: T = [[1,0,0,0],[0,0,-1,0],[0,1,0,3],[0,0,0,1]] has the log
    [w] = [[0,0,0],[0,0,-1.5708],[0,1.5708,0]], v = (0, 2.3562, 2.3562) (w = (pi/2, 0, 0))."""
    T = np.array([[1.0, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 3], [0, 0, 0, 1]])
    xi = kl.se3_log(T)
    assert np.allclose(xi, [0.0, 3 * np.pi / 4, 3 * np.pi / 4, np.pi / 2, 0.0, 0.0], atol=1e-12)
    assert np.allclose(np.round(xi, 4), [0, 2.3562, 2.3562, 1.5708, 0, 0])
    # MR's MatrixExp6 example is the inverse: exp of that se(3) matrix gives T back
    assert np.allclose(kl.se3_exp(kl.se3_vee(kl.se3_hat(xi))), T, atol=1e-12)


def test_slerp_is_the_geodesic_and_equals_eigen():
    rng = np.random.default_rng(7)
    s = np.linspace(0.0, 1.0, 11)
    for _ in range(20):
        q0, q1 = (x / np.linalg.norm(x) for x in rng.normal(size=(2, 4)))
        R0, R1 = kl.quat_to_matrix(q0), kl.quat_to_matrix(q1)
        path = kl.slerp(q0, q1, s)
        assert path.shape == (11, 4)
        assert np.allclose(kl.quat_to_matrix(path[0]), R0) and np.allclose(kl.quat_to_matrix(path[-1]), R1)
        log = kl.so3_log(R0.T @ R1)
        for sk, qk in zip(s, path):
            assert np.allclose(kl.quat_to_matrix(qk), R0 @ kl.so3_exp(sk * log), atol=1e-12)
            ref = pin.Quaternion(q0[3], *q0[:3]).slerp(sk, pin.Quaternion(q1[3], *q1[:3]))
            assert np.allclose(kl.quat_to_matrix(qk), ref.toRotationMatrix(), atol=1e-12)
        assert kl.slerp(q0, q1, 0.25).shape == (4,)


def test_slerp_of_equal_quaternions_stays():
    q = np.array([0.0, 0.0, 0.0, 1.0])
    assert np.allclose(kl.slerp(q, q, [0.0, 0.5, 1.0]), [q, q, q])
