"""dJ/dt of a frame Jacobian (issue 22, item 6): kl.frame_jacobian_time_variation against a
central finite difference of kl.frame_jacobian along q(t) = integrate(q, v t), and against
Pinocchio's getFrameJacobianTimeVariation(LOCAL_WORLD_ALIGNED) on ANYmal B; Jdot v is the
frame's classical acceleration at a = 0 (Pinocchio's getFrameClassicalAcceleration)."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl

FRAMES = ("LF_FOOT", "RH_SHANK", "base")


@pytest.fixture(scope="module", params=[False, True], ids=["fixed", "floating"])
def anymal(request):
    return kl.load_urdf(kl.anymal_b_urdf(), floating_base=request.param)


def states(model, n, seed):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        yield kl.random_configuration(model, rng), rng.normal(size=model.nv)


@pytest.mark.parametrize("frame", FRAMES)
def test_equals_a_finite_difference(anymal, frame):
    h = 1e-6
    for q, v in states(anymal, 3, 1):
        fd = (kl.frame_jacobian(anymal, kl.integrate_configuration(anymal, q, v, h), frame)
              - kl.frame_jacobian(anymal, kl.integrate_configuration(anymal, q, v, -h), frame)) / (2 * h)
        dJ = kl.frame_jacobian_time_variation(anymal, q, v, frame)
        assert np.abs(dJ - fd).max() < 1e-7 * max(1.0, np.abs(fd).max())


@pytest.mark.parametrize("frame", FRAMES)
def test_equals_pinocchio(anymal, frame):
    import pinocchio as pin  # pinned: fails, never skips, when missing
    path = str(kl.anymal_b_urdf())
    ref = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()) if anymal.floating_base else pin.buildModelFromUrdf(path)
    data, fid = ref.createData(), ref.getFrameId(frame)
    worst = 0.0
    for q, v in states(anymal, 5, 2):
        pin.computeJointJacobiansTimeVariation(ref, data, q, v)
        pin.updateFramePlacements(ref, data)
        expected = pin.getFrameJacobianTimeVariation(ref, data, fid, pin.LOCAL_WORLD_ALIGNED)
        dJ = kl.frame_jacobian_time_variation(anymal, q, v, frame)
        worst = max(worst, np.abs(dJ - expected).max() / max(np.abs(expected).max(), 1e-12))
        # the bias acceleration: Jdot v = classical acceleration of the frame origin at a = 0
        pin.forwardKinematics(ref, data, q, v, np.zeros(ref.nv))
        acc = pin.getFrameClassicalAcceleration(ref, data, fid, pin.LOCAL_WORLD_ALIGNED).vector
        assert np.allclose(dJ @ v, acc, rtol=1e-10, atol=1e-10)
    assert worst < 1e-12, worst


def test_world_fixed_frame_and_bad_input():
    model = kl.load_urdf(kl.anymal_b_urdf())
    q, v = kl.neutral_configuration(model), np.ones(model.nv)
    assert not kl.frame_jacobian_time_variation(model, q, v, "base").any()  # fixed to the world
    with pytest.raises(kl.InputError, match="v must"):
        kl.frame_jacobian_time_variation(model, q, np.ones(3), "LF_FOOT")


# kl.frame_bias_accelerations: J̇ v of several frames from one outward pass (the whole-body QP's J̇_c v)

def test_bias_accelerations_equal_jdot_times_v(anymal):
    frames = (*FRAMES, *kl.ANYMAL_FEET)
    for q, v in states(anymal, 4, 3):
        got = kl.frame_bias_accelerations(anymal, q, v, frames)
        assert got.shape == (len(frames), 6)
        expected = np.array([kl.frame_jacobian_time_variation(anymal, q, v, f) @ v for f in frames])
        assert np.abs(got - expected).max() < 1e-12 * max(1.0, np.abs(expected).max())


def test_bias_accelerations_equal_a_finite_difference(anymal):
    """At a = 0 (v constant along q(t) = integrate(q, v t)), [p̈; ω̇] = d/dt (J(q(t)) v)."""
    h = 1e-6
    for q, v in states(anymal, 3, 4):
        fd = np.array([(kl.frame_jacobian(anymal, kl.integrate_configuration(anymal, q, v, h), f)
                        - kl.frame_jacobian(anymal, kl.integrate_configuration(anymal, q, v, -h), f)) @ v / (2 * h)
                       for f in FRAMES])
        got = kl.frame_bias_accelerations(anymal, q, v, FRAMES)
        assert np.abs(got - fd).max() < 1e-7 * max(1.0, np.abs(fd).max())


def test_bias_accelerations_single_name_world_frame_and_bad_input():
    model = kl.load_urdf(kl.anymal_b_urdf())
    q, v = kl.neutral_configuration(model), np.ones(model.nv)
    one = kl.frame_bias_accelerations(model, q, v, "LF_FOOT")
    assert one.shape == (1, 6) and np.allclose(one[0], kl.frame_jacobian_time_variation(model, q, v, "LF_FOOT") @ v)
    assert not kl.frame_bias_accelerations(model, q, v, ["base"]).any()  # fixed to the world
    for frames in ([], ["LF_FOOT", "NO_SUCH_FRAME"], [3], None):
        with pytest.raises(kl.InputError, match="frames must"):
            kl.frame_bias_accelerations(model, q, v, frames)
    with pytest.raises(kl.InputError, match="v must"):
        kl.frame_bias_accelerations(model, q, np.ones(3), ["LF_FOOT"])
