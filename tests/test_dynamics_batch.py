"""The batch axis of the dynamics core: q (N, nq), v and a (N, nv) give the N single results
(the same lines over a batch axis), and agree with Pinocchio on ANYmal B."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl

TREES = {
    "fixed tree": lambda: kl.random_tree_model(7, np.random.default_rng(0)),
    "floating tree": lambda: kl.random_tree_model(6, np.random.default_rng(1), floating_base=True),
    "chain": lambda: kl.random_tree_model(5, np.random.default_rng(2), chain=True, joint_types=("revolute",)),
}


@pytest.fixture(scope="module", params=sorted(TREES))
def tree(request):
    return TREES[request.param]()


def batch(model, n=5, seed=3):
    rng = np.random.default_rng(seed)
    q = np.array([kl.random_configuration(model, rng) for _ in range(n)])
    return q, rng.normal(size=(n, model.nv)), rng.normal(size=(n, model.nv))


def frame(model):
    return model.body_names[-1]


CALLS = {  # name: f(model, q, v, a) -- every public function with a batch axis
    "rnea": lambda m, q, v, a: kl.rnea(m, q, v, a),
    "crba": lambda m, q, v, a: kl.crba(m, q),
    "aba": lambda m, q, v, a: kl.aba(m, q, v, a),
    "nonlinear_effects": lambda m, q, v, a: kl.nonlinear_effects(m, q, v),
    "gravity_torque": lambda m, q, v, a: kl.gravity_torque(m, q),
    "body_transforms": lambda m, q, v, a: np.array(kl.body_transforms(m, q)),
    "forward_kinematics": lambda m, q, v, a: kl.forward_kinematics(m, q),
    "frame_placement": lambda m, q, v, a: kl.frame_placement(m, q, frame(m)),
    "frame_jacobian": lambda m, q, v, a: kl.frame_jacobian(m, q, frame(m)),
    "center_of_mass": lambda m, q, v, a: kl.center_of_mass(m, q),
    "centroidal_momentum_matrix": lambda m, q, v, a: kl.centroidal_momentum_matrix(m, q),
    "centroidal_momentum": lambda m, q, v, a: kl.centroidal_momentum(m, q, v),
    "joint_transforms": lambda m, q, v, a: kl.joint_transforms(m, q),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_batched_equals_a_loop_of_single_calls(tree, name):
    f = CALLS[name]
    q, v, a = batch(tree)
    out = f(tree, q, v, a)
    single = [f(tree, q[k], v[k], a[k]) for k in range(len(q))]
    if name == "body_transforms":  # a list over the bodies of (N, 6, 6) stacks
        single = np.moveaxis(np.array(single), 0, 1)
    assert out.shape == np.shape(single)
    assert np.allclose(out, single, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ["rnea", "crba", "aba", "centroidal_momentum_matrix", "centroidal_momentum"])
def test_a_batch_longer_than_a_block_is_the_loop_too(name):
    """A long batch runs block by block (kinematics_lib.dynamics._engine.BLOCK states): the results
    across the block boundaries are the single calls', in order."""
    from kinematics_lib.dynamics._engine import BLOCK

    model = TREES["floating tree"]()
    f = CALLS[name]
    q, v, a = batch(model, n=2 * BLOCK + 3, seed=5)
    out = f(model, q, v, a)
    picks = [0, BLOCK - 1, BLOCK, 2 * BLOCK, 2 * BLOCK + 2]
    assert out.shape[0] == len(q)
    assert np.allclose(out[picks], [f(model, q[k], v[k], a[k]) for k in picks], rtol=1e-12, atol=1e-12)


def test_a_batch_of_one_is_the_single_call(tree):
    q, v, a = batch(tree, n=1)
    assert np.allclose(kl.rnea(tree, q, v, a)[0], kl.rnea(tree, q[0], v[0], a[0]), rtol=1e-13, atol=1e-13)


def test_batch_shapes_must_agree(tree):
    q, v, a = batch(tree)
    with pytest.raises(ValueError, match="v must be a batch like q"):
        kl.rnea(tree, q, v[0], a)
    with pytest.raises(ValueError, match="q"):
        kl.crba(tree, q[:, :-1])


def test_batched_aba_inverts_batched_rnea(tree):
    q, v, a = batch(tree, n=8)
    assert np.allclose(kl.aba(tree, q, v, kl.rnea(tree, q, v, a)), a, rtol=1e-8, atol=1e-8)


pin = pytest.importorskip("pinocchio")


@pytest.fixture(scope="module", params=[False, True], ids=["fixed", "floating"])
def anymal(request):
    urdf = str(kl.anymal_b_urdf())
    ours = kl.load_urdf(urdf, floating_base=request.param)
    ref = pin.buildModelFromUrdf(urdf, pin.JointModelFreeFlyer()) if request.param else pin.buildModelFromUrdf(urdf)
    return ours, ref, ref.createData()


def rel_err(x, y) -> float:
    return float(np.abs(np.asarray(x) - np.asarray(y)).max() / max(np.abs(y).max(), 1e-12))


def test_batched_dynamics_agree_with_pinocchio(anymal):
    ours, ref, data = anymal
    q, v, a = batch(ours, n=6)
    tau, M, qdd = kl.rnea(ours, q, v, a), kl.crba(ours, q), kl.aba(ours, q, v, a)
    for k in range(len(q)):
        assert rel_err(tau[k], pin.rnea(ref, data, q[k], v[k], a[k])) < 1e-9
        Mp = pin.crba(ref, data, q[k])
        assert rel_err(M[k], np.triu(Mp) + np.triu(Mp, 1).T) < 1e-9
        assert rel_err(qdd[k], pin.aba(ref, data, q[k], v[k], a[k])) < 1e-9


def test_batched_kinematics_agree_with_pinocchio(anymal):
    ours, ref, data = anymal
    q, _, _ = batch(ours, n=4)
    fid = ref.getFrameId("LF_FOOT")
    T, J = kl.frame_placement(ours, q, "LF_FOOT"), kl.frame_jacobian(ours, q, "LF_FOOT")
    p_G, A_G = kl.center_of_mass(ours, q), kl.centroidal_momentum_matrix(ours, q)
    for k in range(len(q)):
        pin.framesForwardKinematics(ref, data, q[k])
        assert rel_err(T[k], data.oMf[fid].homogeneous) < 1e-9
        assert rel_err(J[k], pin.computeFrameJacobian(ref, data, q[k], fid, pin.LOCAL_WORLD_ALIGNED)) < 1e-9
        assert rel_err(p_G[k], pin.centerOfMass(ref, data, q[k])) < 1e-9
        assert rel_err(A_G[k], pin.computeCentroidalMap(ref, data, q[k])) < 1e-9
