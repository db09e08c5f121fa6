"""The dynamics core's input contract beyond the fuzz test: quaternion norm, massless subtrees."""

import numpy as np
import pytest

import kinematics_lib as kl


def _floating():
    return kl.random_tree_model(4, np.random.default_rng(0), floating_base=True)


def test_non_unit_quaternion_is_an_error_naming_q():
    model = _floating()
    q = kl.random_configuration(model, np.random.default_rng(1))
    q[3:7] *= 1.01
    v = np.zeros(model.nv)
    for call in (lambda: kl.rnea(model, q, v, v), lambda: kl.crba(model, q), lambda: kl.aba(model, q, v, v),
                 lambda: kl.center_of_mass(model, q), lambda: kl.frame_jacobian(model, q, "body3")):
        with pytest.raises(ValueError, match=r"q\[3:7\].*unit norm"):
            call()


def test_quaternion_within_tolerance_is_accepted():
    model = _floating()
    q = kl.random_configuration(model, np.random.default_rng(1))
    q2 = q.copy()
    q2[3:7] *= 1.0 + 1e-9
    assert np.allclose(kl.crba(model, q2), kl.crba(model, q), rtol=1e-7, atol=1e-12)


def test_aba_names_a_massless_moving_subtree():
    model = kl.random_tree_model(3, np.random.default_rng(2), chain=True, joint_types=("revolute",))
    inertia = np.array(model.inertia)
    inertia[1:] = 0.0  # bodies 1 and 2 massless: joint 2 (leaves first) moves nothing
    light = kl.Model(name="light", body_names=model.body_names, body_joint=model.body_joint, parent=model.parent,
                     joint_types=model.joint_types, axes=model.axes, T_tree=model.T_tree, inertia=inertia)
    z = np.zeros(3)
    for aba in (kl.aba, kl.rbda.aba):  # the engine and the reference chapter 5 prints: the same message
        with pytest.raises(ValueError, match=r"joint2.*body2") as error:
            aba(light, z, z, z)
        assert "articulated inertia D = S^T I^A S is singular" in str(error.value)


def test_overflow_is_reported_not_returned():
    model = kl.random_tree_model(3, np.random.default_rng(3), chain=True, joint_types=("prismatic",))
    v = np.full(3, 1e200)  # the velocity products v x* I v are ~1e400
    with pytest.raises(ValueError, match="overflowed"):
        kl.rnea(model, np.zeros(3), v, np.ones(3))
