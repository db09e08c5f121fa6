"""The classic Newton-Euler recursion against the spatial algorithms, and the documents' versions.

Independent references: kl.rnea / kl.crba / kl.aba on the same arm (built by dh_model), the
kinetic and potential energy computed from DH frames alone by finite differences, and the
operation counts of an instrumented run against the NE_LINE_OPS table.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.dynamics import newton_euler_3d as ne
from kinematics_lib.geometry.rotations import so3_log

ARMS = [  # (seed, joint types, convention)
    (1, "R", "standard"),
    (2, "RRRRRR", "standard"),
    (3, "RPRRPR", "standard"),
    (4, "PPR", "standard"),
    (5, "RRRRRR", "modified"),
    (6, "RPRPR", "modified"),
]


def _arm(seed, types, convention, gravity=kl.GRAVITY):
    rng = np.random.default_rng(seed)
    arm = ne.random_dh_arm(len(types), rng, joint_types=types, convention=convention, gravity=gravity)
    q, qd, qdd = rng.normal(size=(3, arm.n))
    return arm, q, qd, qdd


def _scale(tau) -> float:
    return max(1.0, float(np.abs(tau).max()))


@pytest.mark.parametrize("seed,types,convention", ARMS)
def test_dh_model_frames_are_the_dh_frames(seed, types, convention):
    arm, q, _, _ = _arm(seed, types, convention)
    model = ne.dh_model(arm)
    T = kl.forward_kinematics(model, q)
    F = kl.dh_frames(arm.robot, q)
    for i in range(arm.n):
        assert np.allclose(T[i] @ model.frames[f"dh{i + 1}"][1], F[i + 1], atol=1e-12)
    assert np.allclose(kl.frame_placement(model, q, "tool"), kl.dh_end_effector(arm.robot, q), atol=1e-12)


@pytest.mark.parametrize("seed,types,convention", [a for a in ARMS if a[2] == "standard"])
def test_classic_newton_euler_equals_spatial_rnea(seed, types, convention):
    tilted = np.array([1.0, -2.0, -9.0])  # gravity need not be along -z
    for gravity in (kl.GRAVITY, tilted):
        arm, q, qd, qdd = _arm(seed, types, convention, gravity)
        tau = kl.rnea(ne.dh_model(arm), q, qd, qdd)
        assert np.abs(ne.newton_euler(arm, q, qd, qdd) - tau).max() < 1e-12 * _scale(tau)


def test_newton_euler_with_a_moved_base():
    arm, q, qd, qdd = _arm(7, "RRPR", "standard")
    T_base = kl.transform_from_xyz_rpy([0.3, -0.2, 0.5], [0.4, -0.7, 1.1])
    robot = kl.DHRobot(a=arm.robot.a, alpha=arm.robot.alpha, d=arm.robot.d, theta=arm.robot.theta,
                       joint_types=arm.robot.joint_types, T_base=T_base)
    moved = ne.DHArm(robot, arm.masses, arm.coms, arm.inertias)
    tau = kl.rnea(ne.dh_model(moved), q, qd, qdd)
    assert np.abs(ne.newton_euler(moved, q, qd, qdd) - tau).max() < 1e-12 * _scale(tau)


def _energies_from_dh_frames(arm, q, qd, h=1e-6):
    """Kinetic energy (finite differences of CoM positions and orientations) and potential energy."""
    def coms_and_R(qq):
        F = kl.dh_frames(arm.robot, qq)[1:]
        return np.einsum("nij,nj->ni", F[:, :3, :3], arm.coms) + F[:, :3, 3], F[:, :3, :3]

    (cp, Rp), (cm, Rm), (c0, R0) = coms_and_R(q + h * qd), coms_and_R(q - h * qd), coms_and_R(q)
    T = 0.0
    for i in range(arm.n):
        v = (cp[i] - cm[i]) / (2 * h)
        w = so3_log(Rp[i] @ Rm[i].T) / (2 * h)
        T += 0.5 * arm.masses[i] * v @ v + 0.5 * w @ (R0[i] @ arm.inertias[i] @ R0[i].T) @ w
    V = -float(sum(arm.masses[i] * arm.gravity @ c0[i] for i in range(arm.n)))
    return T, V


@pytest.mark.parametrize("seed,types,convention", ARMS)
def test_dh_model_inertias_give_the_arms_energy(seed, types, convention):
    arm, q, qd, _ = _arm(seed, types, convention)
    model = ne.dh_model(arm)
    T, V = _energies_from_dh_frames(arm, q, qd)
    assert np.isclose(kl.kinetic_energy(model, q, qd), T, rtol=1e-7)
    assert np.isclose(kl.potential_energy(model, q), V, rtol=1e-12, atol=1e-12)


def test_newton_euler_gravity_is_gradient_of_potential():
    arm, q, _, _ = _arm(3, "RPRRPR", "standard")
    h, zero = 1e-6, np.zeros(arm.n)
    grad = [(_energies_from_dh_frames(arm, q + h * e, zero)[1] - _energies_from_dh_frames(arm, q - h * e, zero)[1])
            / (2 * h) for e in np.eye(arm.n)]
    assert np.allclose(ne.newton_euler(arm, q, zero, zero), grad, atol=1e-6)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_local_frame_newton_euler_equals_rnea(seed):
    rng = np.random.default_rng(seed)
    chain = kl.random_tree_model(6, rng, chain=True, joint_types=("revolute",))
    arm, q, qd, qdd = _arm(seed, "RRRRR", "modified" if seed % 2 else "standard")
    for model in (chain, ne.dh_model(arm)):
        q, qd, qdd = rng.normal(size=(3, model.nv))
        tau = kl.rnea(model, q, qd, qdd)
        assert np.abs(ne.newton_euler_local(model, q, qd, qdd) - tau).max() < 1e-12 * _scale(tau)


def test_operation_counts_of_a_run_match_the_table():
    rng = np.random.default_rng(0)
    for n in (1, 4, 9):
        model = kl.random_tree_model(n, rng, chain=True, joint_types=("revolute",))
        count = Counter()
        ne.newton_euler_local(model, *rng.normal(size=(3, n)), count=count)
        assert dict(count) == {op: n * k for op, k in ne.ne_operation_counts().items()}
    costs = {"add": 1, "scale": 10, "cross": 100, "matvec": 1000, "dot": 10000}
    counts = ne.ne_operation_counts()
    assert ne.ne_flops(1, costs) == sum(counts[op] * c for op, c in costs.items())
    assert ne.ne_flops(7) == 7 * ne.ne_flops(1)


def test_inward_pass_handles_prismatic_joints_like_the_full_recursion():
    arm, q, qd, qdd = _arm(3, "RPRRPR", "standard")
    t = ne.newton_euler_terms(arm, q, qd, qdd)
    r = t.origins[1:] - t.origins[:-1]
    f, n, tau = ne.ne_inward(t.F, t.N, r, t.coms - t.origins[1:], t.z, arm.robot.joint_types)
    assert np.allclose(tau, t.tau) and np.allclose(f, t.f) and np.allclose(n, t.n)
    assert np.allclose(f[0], t.F.sum(axis=0))  # the base carries every link's inertial force


# ---------------------------------------------------------------- the documents' versions


def _chain_case(seed):
    rng = np.random.default_rng(seed)
    model = kl.random_tree_model(6, rng, chain=True, joint_types=("revolute",))
    return model, *rng.normal(size=(3, 6))


@pytest.mark.parametrize("seed", [21, 22])
@pytest.mark.parametrize("name", ["doc000.rnea", "doc001.ne", "doc001.rnea"])
def test_document_versions_are_wrong_line_by_line_and_right_when_fixed(name, seed):
    model, q, qd, qdd = _chain_case(seed)
    tau = kl.rnea(model, q, qd, qdd)
    errors = kl.doc_line_errors(getattr(getattr(kl, name.split('.')[0]), name.split('.')[1]), tau, model, q, qd, qdd)
    scale = _scale(tau)
    assert errors["all fixed"] < 1e-12 * scale
    assert errors["as written"] > 1e-2 * scale  # a real difference, not rounding
    for line in kl.DOC_FIXES[name]:
        assert errors[f"only {line} wrong"] > 1e-3 * scale, line


@pytest.mark.parametrize("seed", [31, 32])
def test_document_003_n_and_tau_lines_disagree_either_fix_works(seed):
    arm, q, qd, qdd = _arm(seed, "RRRRR", "standard")
    tau = ne.newton_euler(arm, q, qd, qdd)
    errors = kl.doc_line_errors(kl.doc003.ne, tau, arm, q, qd, qdd)
    assert errors["as written"] > 1e-2 * _scale(tau)
    assert errors["n fixed"] < 1e-12 * _scale(tau) and errors["tau fixed"] < 1e-12 * _scale(tau)
    with pytest.raises(ValueError, match="not both"):
        kl.doc003.ne(arm, q, qd, qdd, fixed=("n", "tau"))


def test_document_aba_bias_force_line():
    rng = np.random.default_rng(41)
    model = kl.random_tree_model(7, rng, floating_base=True, joint_types=("revolute", "prismatic"))
    q, v, tau = kl.random_configuration(model, rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
    a = kl.aba(model, q, v, tau)
    errors = kl.doc_line_errors(kl.doc000.aba, a, model, q, v, tau)
    assert errors["all fixed"] < 1e-10 * _scale(a) and errors["as written"] > 1e-2 * _scale(a)


def test_document_crba_formula_is_right_only_on_and_above_the_diagonal():
    model, q, _, _ = _chain_case(51)
    M = kl.crba(model, q)
    doc = kl.doc000.crba(model, q)
    assert np.allclose(np.triu(doc), np.triu(M), atol=1e-12)
    assert np.abs(np.tril(doc, -1) - np.tril(M, -1)).max() > 1e-2 * np.abs(M).max()
    assert np.allclose(kl.doc000.crba(model, q, fixed=("max",)), M, atol=1e-12)


def test_bad_input_is_reported():
    arm, q, qd, qdd = _arm(1, "RR", "modified")
    with pytest.raises(ValueError, match="convention"):
        ne.newton_euler(arm, q, qd, qdd)
    with pytest.raises(ValueError, match="masses"):
        ne.DHArm(arm.robot, [-1.0, 1.0], arm.coms, arm.inertias)
    with pytest.raises(ValueError, match="inertias"):
        ne.DHArm(arm.robot, arm.masses, arm.coms, np.ones((2, 3, 3)) + np.arange(3))
    with pytest.raises(ValueError, match=r"\bv\b"):
        ne.newton_euler(_arm(1, "RR", "standard")[0], q, [0.0], qdd)
    tree = kl.load_urdf(kl.anymal_b_urdf())  # four legs: not a serial chain
    with pytest.raises(ValueError, match="serial chain"):
        kl.doc000.rnea(tree, np.zeros(tree.nq), np.zeros(tree.nv), np.zeros(tree.nv))
    model, q, qd, qdd = _chain_case(1)
    with pytest.raises(ValueError, match="fixed"):
        kl.doc001.rnea(model, q, qd, qdd, fixed=("typo",))
    with pytest.raises(ValueError, match="costs"):
        ne.ne_flops(3, {"add": 1})
