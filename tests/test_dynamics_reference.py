"""The reference recursions (``kl.rbda``, written like RBDA's tables) against the fast engine
behind ``kl.rnea``/``kl.crba``/``kl.aba``, and the identities of the equations of motion.

The engine walks the tree one depth at a time in its own body order over batches; the
reference visits one body at a time in parent order. Equal to 1e-12 (relative to the size of
the result) on random trees of every joint type, with and without a floating base, with
external wrenches, on batches, and on ANYmal B (whose fixed joints the URDF reader merges):
the engine cannot drift from what chapter 5 prints.
"""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl

TOL = 1e-12
CASES = [(n, fb, types, chain) for n in (1, 2, 5, 12) for fb in (False, True)
         for types in (("revolute",), ("prismatic",), ("continuous",), ("revolute", "prismatic", "continuous"))
         for chain in (False, True)]


def _close(x, y):
    scale = max(1.0, float(np.abs(y).max(initial=0.0)))
    assert np.abs(np.asarray(x) - y).max(initial=0.0) <= TOL * scale


def _tree(n, fb, types, chain, seed):
    rng = np.random.default_rng(seed)
    model = kl.random_tree_model(n, rng, floating_base=fb, joint_types=types, chain=chain)
    return model, rng


@pytest.mark.parametrize("n, fb, types, chain", CASES)
def test_engine_equals_reference_on_random_trees(n, fb, types, chain):
    model, rng = _tree(n, fb, types, chain, seed=n * 7 + fb * 3 + len(types) + chain)
    for _ in range(3):
        q = kl.random_configuration(model, rng)
        v, a = rng.normal(size=(2, model.nv))
        f_ext = rng.normal(size=(model.nb, 6))
        _close(kl.rnea(model, q, v, a), kl.rbda.rnea(model, q, v, a))
        _close(kl.rnea(model, q, v, a, f_ext), kl.rbda.rnea(model, q, v, a, f_ext))
        _close(kl.crba(model, q), kl.rbda.crba(model, q))
        _close(kl.aba(model, q, v, a), kl.rbda.aba(model, q, v, a))
        zero = np.zeros(model.nv)
        _close(kl.gravity_torque(model, q), kl.rbda.rnea(model, q, zero, zero))
        _close(kl.nonlinear_effects(model, q, v), kl.rbda.rnea(model, q, v, zero))
        _close(kl.mass_matrix_by_rnea(model, q), kl.rbda.crba(model, q))


@pytest.mark.parametrize("fb", [False, True])
def test_engine_batches_equal_reference_state_by_state(fb):
    model, rng = _tree(9, fb, ("revolute", "prismatic", "continuous"), False, seed=11 + fb)
    N = 600  # longer than the engine's block of 512 states
    Q = np.array([kl.random_configuration(model, rng) for _ in range(N)])
    V, A = rng.normal(size=(2, N, model.nv))
    F = rng.normal(size=(N, model.nb, 6))
    tau, M, acc = kl.rnea(model, Q, V, A, F), kl.crba(model, Q), kl.aba(model, Q, V, A)
    for k in range(0, N, 37):
        _close(tau[k], kl.rbda.rnea(model, Q[k], V[k], A[k], F[k]))
        _close(M[k], kl.rbda.crba(model, Q[k]))
        _close(acc[k], kl.rbda.aba(model, Q[k], V[k], A[k]))


def test_engine_equals_reference_on_anymal_with_merged_fixed_joints():
    rng = np.random.default_rng(3)
    for fb in (False, True):
        model = kl.load_urdf(kl.anymal_b_urdf(), floating_base=fb)
        q = kl.random_configuration(model, rng)
        v, a = rng.normal(size=(2, model.nv))
        _close(kl.rnea(model, q, v, a), kl.rbda.rnea(model, q, v, a))
        _close(kl.crba(model, q), kl.rbda.crba(model, q))
        _close(kl.aba(model, q, v, a), kl.rbda.aba(model, q, v, a))


def test_reference_transforms_equal_the_engine_joint_transforms():
    model, rng = _tree(8, True, ("revolute", "prismatic", "continuous"), False, seed=5)
    q = kl.random_configuration(model, rng)
    Xup = kl.joint_transforms(model, q)
    for i in range(model.nb):
        X_i, S_i = kl.jcalc(model, i, q[model.q_slice[i]])
        _close(X_i, Xup[i])
        XJ, S_ref = kl.dynamics.joints.joint_motion(model.joint_types[i], model.axes[i], q[model.q_slice[i]])
        _close(XJ @ model.X_tree[i], Xup[i])
        _close(S_ref, S_i)


@pytest.mark.parametrize("fb", [False, True])
def test_reference_identities(fb):
    """ABA inverts RNEA, RNEA = M a + h, M symmetric positive definite -- on the reference alone."""
    model, rng = _tree(10, fb, ("revolute", "prismatic", "continuous"), False, seed=21 + fb)
    for _ in range(3):
        q = kl.random_configuration(model, rng)
        v, a = rng.normal(size=(2, model.nv))
        tau = kl.rbda.rnea(model, q, v, a)
        M, h = kl.rbda.crba(model, q), kl.rbda.rnea(model, q, v, np.zeros(model.nv))
        np.testing.assert_allclose(kl.rbda.aba(model, q, v, tau), a, rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(M @ a + h, tau, rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(M, M.T, rtol=0, atol=1e-12)
        assert np.linalg.eigvalsh(M).min() > 0.0


def test_reference_rnea_with_zero_velocity_and_acceleration_is_gravity_only():
    """A single free body at rest: the base wrench is its weight's opposite, in the body frame."""
    model, rng = _tree(1, True, ("revolute",), False, seed=2)
    q = kl.random_configuration(model, rng)
    w = kl.rbda.rnea(model, q, np.zeros(6), np.zeros(6))
    m, c, _ = kl.inertia_parts(model.inertia[0])
    R = kl.quat_to_matrix(q[3:7])
    weight_body = R.T @ (-m * model.gravity)
    np.testing.assert_allclose(w[:3], weight_body, atol=1e-12)
    np.testing.assert_allclose(w[3:], np.cross(c, weight_body), atol=1e-12)


@pytest.mark.parametrize("fn, args, name", [
    ("rnea", ("q_bad", "v", "a"), "q"), ("rnea", ("q", "v_short", "a"), "v"), ("rnea", ("q", "v", "a_nan"), "a"),
    ("crba", ("q_bad",), "q"), ("aba", ("q", "v", "a_short"), "tau"), ("rnea", ("q", "v", "a", "f_short"), "f_ext")])
def test_reference_checks_its_inputs_once_at_the_boundary(fn, args, name):
    model, rng = _tree(4, True, ("revolute",), False, seed=8)
    q = kl.random_configuration(model, rng)
    values = {"q": q, "v": np.zeros(model.nv), "a": np.zeros(model.nv), "q_bad": q * 2.0,
              "v_short": np.zeros(model.nv - 1), "a_nan": np.full(model.nv, np.nan), "a_short": np.zeros(2),
              "f_short": np.zeros((model.nb, 5))}
    with pytest.raises(ValueError, match=name):
        getattr(kl.rbda, fn)(model, *(values[k] for k in args))


def test_virtual_joint_velocity_map_is_the_base_body_jacobian():
    """v_free = J v: J's base block is the base body's velocity in its own frame (from the
    virtual model's frame Jacobian, world-aligned, rotated into the base)."""
    rng = np.random.default_rng(12)
    model = kl.random_tree_model(4, rng, floating_base=True)
    virtual = kl.virtual_joints_model(model)
    q_v = np.concatenate([rng.normal(size=6), rng.normal(size=virtual.nq - 6)])
    _, _, J = kl.virtual_to_free(virtual, q_v, np.zeros(virtual.nv))
    T = kl.frame_placement(virtual, q_v, model.body_names[0])
    R = T[:3, :3]
    J_world = kl.frame_jacobian(virtual, q_v, model.body_names[0])[:, :6]
    np.testing.assert_allclose(np.block([[R.T, np.zeros((3, 3))], [np.zeros((3, 3)), R.T]]) @ J_world, J[:6, :6],
                               atol=1e-12)


def test_virtual_joints_are_singular_at_pitch_90_degrees_and_the_free_joint_is_not():
    rng = np.random.default_rng(13)
    model = kl.random_tree_model(3, rng, floating_base=True)
    virtual = kl.virtual_joints_model(model)
    q_v = np.concatenate([[0.1, 0.2, 0.3, 0.4, np.pi / 2, -0.3], rng.normal(size=virtual.nq - 6)])
    q_free, _, J = kl.virtual_to_free(virtual, q_v, np.zeros(virtual.nv))
    assert abs(np.linalg.det(J[3:6, 3:6])) < 1e-15
    assert np.linalg.eigvalsh(kl.rbda.crba(virtual, q_v)).min() < 1e-12
    assert np.linalg.eigvalsh(kl.rbda.crba(model, q_free)).min() > 1e-3
    for aba in (kl.aba, kl.rbda.aba):  # D of a virtual rotation joint vanishes: a named ValueError
        with pytest.raises(ValueError, match="model: joint .* singular"):
            aba(virtual, q_v, np.zeros(virtual.nv), np.zeros(virtual.nv))


def test_virtual_joints_model_refuses_a_fixed_base():
    with pytest.raises(ValueError, match="model"):
        kl.virtual_joints_model(kl.random_tree_model(3, np.random.default_rng(0)))


def test_chapter5_table_quotes_lines_of_the_printed_reference():
    """Chapter 5's table maps the book's lines to code: every entry of its last column is a line
    of ``kl.rbda.rnea`` -- the function the chapter prints (and whose listing nbval compares)."""
    import inspect
    import json
    import re
    from pathlib import Path

    nb = json.loads((Path(__file__).parents[1] / "chapters" / "05_newton_euler_recursive.ipynb").read_text())
    cells = ["".join(c["source"]) for c in nb["cells"]]
    assert "print(inspect.getsource(kl.rbda.rnea))" in cells
    table = next(c for c in cells if "| in `kl.rbda.rnea` |" in c)
    rows = [r for r in table.splitlines() if r.startswith("|") and "---" not in r][1:]
    quoted = [re.findall(r"`([^`]+)`", r.rsplit("|", 2)[1]) for r in rows]
    lines = {line.strip() for line in inspect.getsource(kl.rbda.rnea).splitlines()}
    assert len(rows) >= 6 and all(quoted)
    for code in (q for qs in quoted for q in qs):
        assert code in lines, f"chapter 5's table quotes {code!r}, which is not a line of kl.rbda.rnea"


def test_the_engine_plan_is_built_lazily_and_every_entry_is_read():
    """model._plan (a frozen dataclass) appears on the first dynamics call, and each of its
    fields is read by the engine, frames, centroidal or joints code (no dead entries)."""
    import dataclasses
    import inspect
    import re

    from kinematics_lib.dynamics import _engine, centroidal, floating_base, frames, joints, model as model_module
    from kinematics_lib.dynamics.plan import Plan

    model = kl.random_tree_model(5, np.random.default_rng(0), floating_base=True)
    assert "_plan" not in vars(model)
    kl.rnea(model, kl.neutral_configuration(model), np.zeros(model.nv), np.zeros(model.nv))
    assert isinstance(vars(model)["_plan"], Plan)
    with pytest.raises(dataclasses.FrozenInstanceError):
        model._plan.order = None
    readers = "".join(inspect.getsource(m) for m in (_engine, centroidal, floating_base, frames, joints, model_module))
    unread = [f.name for f in dataclasses.fields(Plan) if not re.search(rf"\.{f.name}\b", readers)]
    assert not unread, f"Plan entries nobody reads: {unread}"
