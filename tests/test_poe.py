"""Screw axes and products of exponentials (issue 22, item 5).

Modern Robotics' documented examples of FKinSpace, FKinBody, JacobianSpace and JacobianBody
(MR's [w; v] axes and Jacobian rows reordered to [v; w]), and the defining properties on kl
models: fk_poe equals frame_placement, the body Jacobian turned to world axes equals
frame_jacobian, J_b = Ad(T^-1) J_s, and the Jacobian is the derivative of fk_poe.
"""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl


def mr_to_kl(cols):
    """MR's screws/Jacobian rows [w; v] -> kl's [v; w]."""
    cols = np.asarray(cols, float)
    return np.vstack([cols[3:], cols[:3]])


M_MR = np.array([[-1, 0, 0, 0], [0, 1, 0, 6], [0, 0, -1, 2], [0, 0, 0, 1.0]])
T_MR = np.array([[0, 1, 0, -5], [1, 0, 0, 4], [0, 0, -1, 1.68584073], [0, 0, 0, 1]])
Q_MR = np.array([np.pi / 2, 3.0, np.pi])


def test_modern_robotics_fkin_examples():
    S = mr_to_kl(np.array([[0, 0, 1, 4, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, -1, -6, 0, -0.1]]).T)
    B = mr_to_kl(np.array([[0, 0, -1, 2, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 1, 0, 0, 0.1]]).T)
    assert np.allclose(kl.fk_poe(M_MR, S, Q_MR), T_MR, atol=1e-8)
    assert np.allclose(kl.fk_poe(M_MR, B, Q_MR, space=False), T_MR, atol=1e-8)


def test_modern_robotics_jacobian_examples():
    screws = mr_to_kl(np.array([[0, 0, 1, 0, 0.2, 0.2], [1, 0, 0, 2, 0, 3], [0, 1, 0, 0, 2, 1],
                                [1, 0, 0, 0.2, 0.3, 0.4]]).T)
    q = np.array([0.2, 1.1, 0.1, 1.2])
    J_body = mr_to_kl([[-0.04528405, 0.99500417, 0, 1], [0.74359313, 0.09304865, 0.36235775, 0],
                       [-0.66709716, 0.03617541, -0.93203909, 0], [2.32586047, 1.66809, 0.56410831, 0.2],
                       [-1.44321167, 2.94561275, 1.43306521, 0.3], [-2.06639565, 1.82881722, -1.58868628, 0.4]])
    J_space = mr_to_kl([[0, 0.98006658, -0.09011564, 0.95749426], [0, 0.19866933, 0.4445544, 0.28487557],
                        [1, 0, 0.89120736, -0.04528405], [0, 1.95218638, -2.21635216, -0.51161537],
                        [0.2, 0.43654132, -2.43712573, 2.77535713], [0.2, 2.96026613, 3.23573065, 2.22512443]])
    assert np.allclose(kl.jacobian_poe(screws, q, space=False), J_body, atol=1e-8)
    assert np.allclose(kl.jacobian_poe(screws, q, space=True), J_space, atol=1e-8)


@pytest.fixture(scope="module", params=["puma", "anymal"])
def chain(request):
    if request.param == "puma":
        model = kl.dh_model(kl.random_dh_arm(6, np.random.default_rng(0)))
        return model, "tool"
    return kl.load_urdf(kl.anymal_b_urdf()), "RF_FOOT"


def test_poe_equals_the_tree_kinematics(chain):
    model, frame = chain
    M, S = kl.screw_axes(model, frame)
    M_b, B = kl.screw_axes(model, frame, space=False)
    assert np.array_equal(M, M_b)
    rng = np.random.default_rng(1)
    for _ in range(5):
        q = kl.random_configuration(model, rng)
        T = kl.frame_placement(model, q, frame)
        assert np.allclose(kl.fk_poe(M, S, q), T, atol=1e-12)
        assert np.allclose(kl.fk_poe(M, B, q, space=False), T, atol=1e-12)
        Jb = kl.jacobian_poe(B, q, space=False)
        Js = kl.jacobian_poe(S, q)
        R = T[:3, :3]
        assert np.allclose(np.vstack([R @ Jb[:3], R @ Jb[3:]]), kl.frame_jacobian(model, q, frame), atol=1e-12)
        Ad_inv = np.linalg.inv(kl.adjoint(T))
        assert np.allclose(Ad_inv @ Js, Jb, atol=1e-12)


def test_space_jacobian_is_the_derivative_of_fk_poe():
    model = kl.dh_model(kl.random_dh_arm(5, np.random.default_rng(3)))
    M, S = kl.screw_axes(model, "tool")
    q, h = np.random.default_rng(4).normal(size=5), 1e-6
    T = kl.fk_poe(M, S, q)
    Js = kl.jacobian_poe(S, q)
    for k in range(5):
        dq = np.zeros(5)
        dq[k] = h
        dT = (kl.fk_poe(M, S, q + dq) - kl.fk_poe(M, S, q - dq)) / (2 * h)
        assert np.allclose(kl.se3_vee(dT @ kl.transform_inverse(T)), Js[:, k], atol=1e-8)


def test_screw_axes_refuse_a_floating_base():
    with pytest.raises(kl.InputError, match="fixed base"):
        kl.screw_axes(kl.load_urdf(kl.anymal_b_urdf(), floating_base=True), "LF_FOOT")
