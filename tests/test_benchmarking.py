"""Timing helpers: the fits recover known exponents; the plumbing returns what it promises.

No assertion here depends on how fast the machine is (performance lives in benchmarks/).
"""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.notebook import benchmarking as bm


@pytest.mark.parametrize("k", [0.5, 1.0, 2.0, 3.0])
def test_fit_slope_recovers_known_exponents(k):
    n = np.array([2, 4, 8, 16, 32, 64, 128])
    assert np.isclose(bm.fit_slope(n, 3e-6 * n**k), k, atol=1e-12)
    noise = np.exp(np.random.default_rng(int(10 * k)).normal(0.0, 0.05, n.size))  # +-5 % scatter
    assert abs(bm.fit_slope(n, 3e-6 * n**k * noise) - k) < 0.05


def test_fit_power_law_prefactor_and_least_squares():
    n = np.array([1.0, 2.0, 4.0])
    k, c = bm.fit_power_law(n, 5.0 * n**2)
    assert np.isclose(k, 2.0) and np.isclose(c, 5.0)
    t = np.array([1.0, 3.0, 4.0])  # not a power law: the slope is the least-squares one
    x, y = np.log(n), np.log(t)
    assert np.isclose(bm.fit_slope(n, t), np.cov(x, y, bias=True)[0, 1] / np.var(x))


@pytest.mark.parametrize("n,t,word", [([1, 2], [1.0], "same length"), ([2, 2], [1.0, 2.0], "different"),
                                      ([1, 2], [0.0, 1.0], "positive"), ([3], [1.0], "same length")])
def test_fit_rejects_bad_data(n, t, word):
    with pytest.raises(ValueError, match=word):
        bm.fit_slope(n, t)


def test_time_call_calls_the_function_and_returns_seconds():
    calls = []
    t = bm.time_call(lambda x: calls.append(x), 7, min_time=1e-4, repeat=3)
    assert t > 0.0 and len(calls) >= 3 and set(calls) == {7}
    with pytest.raises(ValueError, match="repeat"):
        bm.time_call(len, [], repeat=0)


def test_chain_models_are_seeded_revolute_chains():
    a, b = bm.chain_models([3, 5], seed=4), bm.chain_models([3, 5], seed=4)
    for m, m2, n in zip(a, b, (3, 5)):
        assert m.nb == n and m.parent == tuple(range(-1, n - 1)) and set(m.joint_types) == {"revolute"}
        assert np.array_equal(m.inertia, m2.inertia)


def test_forward_dynamics_by_crba_equals_aba():
    rng = np.random.default_rng(2)
    model = kl.random_tree_model(6, rng, floating_base=True)
    q, v, tau = kl.random_configuration(model, rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
    assert np.allclose(bm.forward_dynamics_crba(model, q, v, tau), kl.aba(model, q, v, tau), atol=1e-9)


def test_scaling_table_shapes_and_slopes():
    algorithms = {"noop": lambda m, q, v, u: None}
    table = bm.scaling_table([2, 4, 8], algorithms=algorithms, min_time=1e-4, repeat=1)
    assert list(table.ns) == [2, 4, 8] and table.times["noop"].shape == (3,)
    assert np.all(table.times["noop"] > 0)
    synthetic = bm.ScalingTable(np.array([2, 4, 8, 16]), {"cubic": 1e-9 * np.array([2, 4, 8, 16]) ** 3.0})
    assert np.isclose(synthetic.slope("cubic"), 3.0) and np.isclose(synthetic.slope("cubic", n_min=4), 3.0)
    assert len(synthetic.rows()) == 5


def test_relative_error():
    assert bm.relative_error([1.0, 2.0], [1.0, 2.0]) == 0.0
    assert np.isclose(bm.relative_error([1.0, 2.2], [1.0, 2.0]), 0.1)


def test_pinocchio_comparison_agrees_on_anymal():
    cmp = bm.compare_with_pinocchio(kl.anymal_b_urdf(), n_states=2, min_time=1e-4, repeat=1)
    assert set(cmp.errors) == {"RNEA", "CRBA", "ABA", "foot Jacobian"}
    assert max(cmp.errors.values()) < 1e-9
    assert set(cmp.times) == {"RNEA", "CRBA", "ABA", "foot Jacobian"}
    assert len(cmp.rows()) == 1 + len(cmp.times) + len(cmp.pin_only)


def test_machine_description_names_the_cores():
    """The line printed above every benchmark table states this machine's facts."""
    import os

    import pinocchio as pin

    text = bm.machine_description()
    assert f"logical cores (nproc): {os.cpu_count()};" in text
    assert f"numpy {np.__version__}" in text and f"pinocchio {pin.__version__}" in text


def test_pinocchio_model_is_the_same_robot():
    """pinocchio_model: RNEA, CRBA and gravity agree with kinematics_lib (planar arm, ANYmal B)."""
    import pinocchio as pin  # pinned: a missing Pinocchio fails, never skips
    rng = np.random.default_rng(3)
    for model in (kl.planar_chain_model([1.0, 0.7], [2.0, 1.0], inertias=[0.1, 0.05]),
                  kl.load_urdf(kl.anymal_b_urdf(), floating_base=True)):
        ref = bm.pinocchio_model(model)
        data = ref.createData()
        assert (ref.nq, ref.nv) == (model.nq, model.nv)
        q, v, a = kl.random_configuration(model, rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
        assert np.allclose(pin.rnea(ref, data, q, v, a), kl.rnea(model, q, v, a), atol=1e-9)
        assert np.allclose(pin.crba(ref, data, q), kl.crba(model, q), atol=1e-9)
        assert np.allclose(pin.computeGeneralizedGravity(ref, data, q), kl.gravity_torque(model, q), atol=1e-9)


def test_stored_sweeps_cover_every_sweep_and_round_trip(tmp_path):
    """Chapter 5 shows the stored sweeps (issue 19: Run All took 45-77 s timing them): every sweep
    of SWEEPS with its sizes and algorithms, positive times; save_sweeps/stored_sweeps round-trip
    what measure_sweeps returns (quick: a few small sizes)."""
    stored = bm.stored_sweeps()
    assert stored.machine and stored.date
    for name, (ns, _, names) in bm.SWEEPS.items():
        table = stored[name]
        assert list(table.ns) == list(ns) and set(table.times) == set(names)
        assert all(np.all(t > 0) and t.shape == (len(ns),) for t in table.times.values())
    measured = bm.measure_sweeps(quick=True)
    back = bm.stored_sweeps(bm.save_sweeps(measured, tmp_path / "t.json"))
    for name, table in measured.tables.items():
        assert list(back[name].ns) == list(table.ns)
        for k, t in table.times.items():
            assert np.allclose(back[name].times[k], t, rtol=1e-5)


def test_timed_terms_are_the_terms_of_the_equation_of_motion():
    """What chapter 5, section 10 times is what its names say: g(q) = RNEA(q, 0, 0),
    C(q,v) v = RNEA(q, v, 0) - g(q) = the Coriolis matrix times v, M(q) by CRBA (the
    RNEA columns M e_j = RNEA(q, 0, e_j) - g); and the timed dense solve solves its system."""
    rng = np.random.default_rng(11)
    model = kl.random_tree_model(5, rng, chain=True, joint_types=("revolute",))
    q, v = kl.random_configuration(model, rng), rng.normal(size=model.nv)
    zero = np.zeros(model.nv)
    g = bm.TERMS["g(q)"](model, q, v, None)
    assert np.allclose(g, kl.rnea(model, q, zero, zero), atol=1e-12)
    Cv = bm.TERMS["C(q,v) v"](model, q, v, None)
    assert np.allclose(Cv, kl.rnea(model, q, v, zero) - g, atol=1e-12)
    assert np.allclose(bm.TERMS["C(q,v)"](model, q, v, None) @ v, Cv, atol=1e-10)
    M_cols = np.column_stack([kl.rnea(model, q, zero, e) - g for e in np.eye(model.nv)])
    assert np.allclose(bm.TERMS["M(q)"](model, q, v, None), M_cols, atol=1e-10)
    n = 7
    x = bm._dense_solve(n, None, None, None)
    assert np.allclose((n * np.eye(n) + 1.0) @ x, np.ones(n), atol=1e-13)
