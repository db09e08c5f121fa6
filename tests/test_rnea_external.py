"""External wrenches in inverse dynamics (issue 22, item 3): kl.rnea(model, q, v, a, f_ext).

Against Pinocchio's rnea(model, data, q, v, a, fext) on ANYmal B (fixed and floating base), and
the defining property tau(f_ext) = tau(0) - sum_i J_i^T f_i, with J_i the frame Jacobian of body i
and f_i its wrench turned to world-aligned axes (both at the body origin).
"""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl


@pytest.fixture(scope="module", params=[False, True], ids=["fixed", "floating"])
def anymal(request):
    return kl.load_urdf(kl.anymal_b_urdf(), floating_base=request.param)


def random_state(model, rng):
    q = kl.random_configuration(model, rng)
    return q, rng.normal(size=model.nv), rng.normal(size=model.nv), rng.normal(size=(model.nb, 6)) * 20.0


def test_equals_pinocchio(anymal):
    import pinocchio as pin  # pinned: fails, never skips, when missing
    path = str(kl.anymal_b_urdf())
    ref = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()) if anymal.floating_base else pin.buildModelFromUrdf(path)
    data = ref.createData()
    assert tuple(ref.names[1:]) == anymal.body_joint  # body i <-> Pinocchio joint i + 1
    rng = np.random.default_rng(3)
    worst = 0.0
    for _ in range(5):
        q, v, a, f = random_state(anymal, rng)
        fext = [pin.Force.Zero()] + [pin.Force(fi[:3], fi[3:]) for fi in f]
        expected = pin.rnea(ref, data, q, v, a, fext)
        got = kl.rnea(anymal, q, v, a, f_ext=f)
        worst = max(worst, np.abs(got - expected).max() / np.abs(expected).max())
        assert not np.allclose(got, kl.rnea(anymal, q, v, a))  # the wrenches matter
    assert worst < 1e-12, worst


def test_is_minus_jacobian_transpose_times_wrench(anymal):
    rng = np.random.default_rng(4)
    q, v, a, f = random_state(anymal, rng)
    expected = kl.rnea(anymal, q, v, a)
    for i, body in enumerate(anymal.body_names):
        R = kl.frame_placement(anymal, q, body)[:3, :3]
        f_world = np.concatenate([R @ f[i, :3], R @ f[i, 3:]])
        expected = expected - kl.frame_jacobian(anymal, q, body).T @ f_world
    assert np.allclose(kl.rnea(anymal, q, v, a, f_ext=f), expected, rtol=1e-12, atol=1e-10)


def test_batch_equals_single_calls(anymal):
    rng = np.random.default_rng(5)
    states = [random_state(anymal, rng) for _ in range(4)]
    Q, V, A, F = (np.array(x) for x in zip(*states))
    batch = kl.rnea(anymal, Q, V, A, f_ext=F)
    for k, (q, v, a, f) in enumerate(states):
        assert np.allclose(batch[k], kl.rnea(anymal, q, v, a, f_ext=f), rtol=1e-13, atol=1e-11)
    shared = kl.rnea(anymal, Q, V, A, f_ext=F[0])  # one (nb, 6) for every state
    assert np.allclose(shared[2], kl.rnea(anymal, Q[2], V[2], A[2], f_ext=F[0]))


def test_zero_wrenches_change_nothing(anymal):
    q, v, a, _ = random_state(anymal, np.random.default_rng(6))
    assert np.array_equal(kl.rnea(anymal, q, v, a, f_ext=np.zeros((anymal.nb, 6))), kl.rnea(anymal, q, v, a))


@pytest.mark.parametrize("bad, message", [
    (np.zeros((3, 6)), r"f_ext must have shape \((12|13), 6\)"),
    (np.full((13, 6), np.nan), "f_ext must contain only finite numbers"),
    ("wrench", "f_ext must be numeric"),
])
def test_bad_wrenches_are_refused(bad, message):
    model = kl.load_urdf(kl.anymal_b_urdf(), floating_base=True)
    q = kl.neutral_configuration(model)
    with pytest.raises(kl.InputError, match=message):
        kl.rnea(model, q, np.zeros(model.nv), np.zeros(model.nv), f_ext=bad)


def test_external_wrenches_of_foot_forces_give_the_static_torques():
    """Ground forces on the feet as f_ext: RNEA at rest gives zero base wrench and the joint torques
    of kl.static_joint_torques (g - J_c^T f)."""
    model = kl.load_urdf(kl.anymal_b_urdf(), floating_base=True)
    q = kl.neutral_configuration(model)
    q[2] = 0.5
    feet = kl.ANYMAL_FEET
    F = kl.static_equilibrium_forces(model, q, feet, 0.7)
    W = kl.external_wrenches(model, q, feet, F)
    assert W.shape == (model.nb, 6) and np.count_nonzero(np.abs(W).sum(axis=1)) == 4
    zero = np.zeros(model.nv)
    tau = kl.rnea(model, q, zero, zero, f_ext=W)
    assert np.allclose(tau[:6], 0.0, atol=1e-8)
    assert np.allclose(tau[6:], kl.static_joint_torques(model, q, feet, F), atol=1e-9)
    expected = kl.gravity_torque(model, q) - kl.contact_jacobian(model, q, feet).T @ F.ravel()
    assert np.allclose(tau, expected, atol=1e-9)
