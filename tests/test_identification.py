"""Identification: the regressor against Pinocchio and RNEA, base parameters, excitation, least squares.

Pinocchio is the independent reference for the regressor (``computeJointTorqueRegressor``) and
the parameter order (``Inertia.toDynamicParameters``), on ANYmal B (fixed and floating base)
and on random trees converted to Pinocchio models. Identification is checked on simulated
data: exact recovery without noise, and errors consistent with the predicted covariance with it.
"""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl

import pinocchio as pin  # pinned: a missing Pinocchio fails, never skips

URDF = str(kl.anymal_b_urdf())
RTOL = 1e-12


def rel_err(x, y) -> float:
    return float(np.abs(np.asarray(x) - y).max() / max(np.abs(y).max(), 1e-12))


def to_pinocchio(model: kl.Model):
    """The same tree as a Pinocchio model (continuous joints as plain revolute: one coordinate)."""
    ref = pin.Model()
    ref.gravity = pin.Motion(np.concatenate([model.gravity, np.zeros(3)]))
    ids = []
    for i in range(model.nb):
        kind, axis = model.joint_types[i], model.axes[i]
        joint = {"revolute": pin.JointModelRevoluteUnaligned, "continuous": pin.JointModelRevoluteUnaligned,
                 "prismatic": pin.JointModelPrismaticUnaligned}.get(kind)
        jm = pin.JointModelFreeFlyer() if kind == "free" else joint(*axis)
        parent = 0 if model.parent[i] < 0 else ids[model.parent[i]]
        T = model.T_tree[i]
        jid = ref.addJoint(parent, jm, pin.SE3(T[:3, :3], T[:3, 3]), f"j{i}")
        m, c, I_c = kl.inertia_parts(model.inertia[i])
        ref.appendBodyToJoint(jid, pin.Inertia(m, c, I_c), pin.SE3.Identity())
        ids.append(jid)
    return ref


def random_states(model, n, seed, scale=1.0):
    rng = np.random.default_rng(seed)
    Q = np.array([kl.random_configuration(model, rng) for _ in range(n)])
    return Q, scale * rng.normal(size=(n, model.nv)), scale * rng.normal(size=(n, model.nv))


@pytest.fixture(scope="module", params=[False, True], ids=["fixed", "floating"])
def anymal(request):
    ours = kl.load_urdf(URDF, floating_base=request.param)
    ref = pin.buildModelFromUrdf(URDF, pin.JointModelFreeFlyer()) if request.param else pin.buildModelFromUrdf(URDF)
    return ours, ref


def test_parameters_in_pinocchio_order(anymal):
    ours, ref = anymal
    pi_ref = np.concatenate([ref.inertias[j].toDynamicParameters() for j in range(1, ref.njoints)])
    assert rel_err(kl.inertial_parameters(ours), pi_ref) < RTOL
    for k in range(ours.nb):
        assert np.allclose(kl.inertia_from_parameters(kl.inertial_parameters(ours)[10 * k:10 * k + 10]),
                           ours.inertia[k], atol=1e-14)


def test_regressor_equals_pinocchio_on_anymal(anymal):
    ours, ref = anymal
    data = ref.createData()
    for q, v, a in zip(*random_states(ours, 5, seed=1)):
        Y_ref = pin.computeJointTorqueRegressor(ref, data, q, v, a)
        assert rel_err(kl.joint_torque_regressor(ours, q, v, a), Y_ref) < RTOL


@pytest.mark.parametrize("floating", [False, True], ids=["fixed", "floating"])
@pytest.mark.parametrize("seed", range(4))
def test_regressor_equals_pinocchio_on_random_trees(seed, floating):
    rng = np.random.default_rng(seed)
    model = kl.random_tree_model(7, rng, floating_base=floating)
    ref = to_pinocchio(model)
    data = ref.createData()
    pi_ref = np.concatenate([ref.inertias[j].toDynamicParameters() for j in range(1, ref.njoints)])
    assert rel_err(kl.inertial_parameters(model), pi_ref) < RTOL
    for q, v, a in zip(*random_states(model, 3, seed=seed + 10)):
        assert rel_err(kl.joint_torque_regressor(model, q, v, a), pin.computeJointTorqueRegressor(ref, data, q, v, a)) < 1e-11


@pytest.mark.parametrize("name", ["anymal fixed", "anymal floating", "random tree", "planar arm"])
def test_regressor_times_parameters_is_rnea_batched(name):
    model = {"anymal fixed": lambda: kl.load_urdf(URDF), "anymal floating": lambda: kl.load_urdf(URDF, floating_base=True),
             "random tree": lambda: kl.random_tree_model(9, np.random.default_rng(3)),
             "planar arm": lambda: kl.planar_chain_model([0.9, 0.7], [2.0, 1.5], com=[0.45, 0.35])}[name]()
    Q, V, A = random_states(model, 20, seed=4, scale=2.0)
    Y = kl.joint_torque_regressor(model, Q, V, A)
    assert Y.shape == (20, model.nv, 10 * model.nb)
    pi = kl.inertial_parameters(model)
    for k in range(20):
        tau = kl.rnea(model, Q[k], V[k], A[k])
        assert np.abs(Y[k] @ pi - tau).max() < 1e-11 * max(1.0, np.abs(tau).max())
        assert np.array_equal(Y[k], kl.joint_torque_regressor(model, Q[k], V[k], A[k]))


def test_regressor_is_independent_of_the_parameters():
    """Y depends on the motion only: the same Y serves a model with other inertias."""
    rng = np.random.default_rng(8)
    model = kl.random_tree_model(5, rng)
    other = kl.random_tree_model(5, np.random.default_rng(8))  # same geometry and joints ...
    other = kl.Model(**{**{k: getattr(model, k) for k in ("name", "body_names", "body_joint", "parent", "joint_types",
                                                          "axes", "T_tree", "gravity", "lower", "upper")},
                        "inertia": np.array([kl.spatial_inertia(1.0 + k, [0.1 * k, 0.0, 0.05], np.eye(3) * 0.1)
                                             for k in range(5)])})
    q, v, a = (x[0] for x in random_states(model, 1, seed=9))
    Y = kl.joint_torque_regressor(model, q, v, a)
    assert np.allclose(Y @ kl.inertial_parameters(other), kl.rnea(other, q, v, a), atol=1e-11)


def test_body_regressor_is_the_newton_euler_equation():
    rng = np.random.default_rng(2)
    for _ in range(5):
        I = kl.spatial_inertia(rng.uniform(0.5, 2.0), rng.normal(size=3) * 0.2, np.diag(rng.uniform(0.2, 0.3, 3)))
        a, v = rng.normal(size=6), rng.normal(size=6)
        pi = kl.inertial_parameters_of(I)
        assert np.allclose(kl.body_regressor(a, v) @ pi, I @ a + kl.crf(v) @ I @ v, atol=1e-12)


# ------------------------------------------------------------------------------- base parameters


def rich_regressor(model, n=200, seed=0):
    return kl.joint_torque_regressor(model, *random_states(model, n, seed, scale=2.0))


@pytest.mark.parametrize("method", ["qr", "svd"])
def test_base_parameters_reproduce_every_torque(method):
    model = kl.load_urdf(URDF, floating_base=True)
    W = rich_regressor(model)
    bp = kl.base_parameters(W, method=method)
    assert bp.rank == kl.regressor_rank(W) == np.linalg.matrix_rank(W.reshape(-1, W.shape[2]))
    Q, V, A = random_states(model, 10, seed=5)
    W_new = kl.joint_torque_regressor(model, Q, V, A)
    for pi in (kl.inertial_parameters(model), np.random.default_rng(1).normal(size=10 * model.nb)):
        assert np.allclose(bp.regressor(W_new) @ bp.base(pi), W_new @ pi, atol=1e-9)
    assert np.linalg.matrix_rank(bp.regressor(W).reshape(-1, bp.rank)) == bp.rank


def test_base_parameters_of_the_planar_two_link_arm():
    """The textbook regrouping: rank 6, m2 folds into link 1's first moment (L1) and I_zz (L1^2)."""
    L1 = 0.9
    arm = kl.planar_chain_model([L1, 0.7], [2.0, 1.5], com=[0.45, 0.35], inertias=[0.1, 0.05])
    bp = kl.base_parameters(rich_regressor(arm))
    labels = kl.parameter_labels(arm)
    assert bp.rank == 6
    lines = bp.describe(labels)
    assert f"mcx[link1] + {L1:.4g} m[link2]" in lines
    assert f"Izz[link1] + {L1**2:.4g} m[link2]" in lines
    assert "Izz[link2]" in lines


def test_a_leg_of_the_fixed_base_anymal_has_17_base_parameters():
    full = kl.load_urdf(URDF)
    leg = kl.subtree_model(full, "LF_HIP")
    assert leg.nb == 3 and kl.base_parameters(rich_regressor(leg)).rank == 17
    assert kl.base_parameters(rich_regressor(full)).rank == 4 * 17
    q = kl.random_configuration(full, np.random.default_rng(0))
    assert np.allclose(kl.crba(leg, q[:3]), kl.crba(full, q)[:3, :3], atol=1e-14)


def test_a_static_experiment_sees_fewer_parameters():
    """Gravity alone (v = a = 0) shows only first moments and masses: a lower rank than dynamics."""
    leg = kl.subtree_model(kl.load_urdf(URDF), "LF_HIP")
    Q, _, _ = random_states(leg, 200, seed=1)
    static = kl.joint_torque_regressor(leg, Q, 0 * Q, 0 * Q)
    assert kl.regressor_rank(static) < kl.base_parameters(rich_regressor(leg)).rank


# ------------------------------------------------------------------------------- excitation


def test_fourier_derivatives_match_finite_differences():
    rng = np.random.default_rng(0)
    traj = kl.fourier_trajectory(rng.normal(size=3), rng.normal(size=(3, 5)) * 0.1, rng.normal(size=(3, 5)) * 0.1, 0.1)
    t, h = np.linspace(0.0, 10.0, 7), 1e-5
    q, qd, qdd = traj(t)
    assert np.allclose((traj(t + h)[0] - traj(t - h)[0]) / (2 * h), qd, atol=1e-8)
    assert np.allclose((traj(t + h)[1] - traj(t - h)[1]) / (2 * h), qdd, atol=1e-7)
    assert np.allclose(traj(t + traj.period)[0], q, atol=1e-12)  # periodic


def test_optimised_excitation_is_better_conditioned_and_within_limits():
    arm = kl.planar_chain_model([0.9, 0.7], [2.0, 1.5], com=[0.45, 0.35], inertias=[0.1, 0.05])
    bp = kl.base_parameters(rich_regressor(arm))
    lo, hi, vmax = np.array([-2.0, -2.0]), np.array([2.0, 2.0]), np.array([2.0, 2.0])
    res = kl.optimize_excitation(arm, bp.independent, lo, hi, vmax, n_harmonics=5, f0=0.1, maxiter=40)
    assert res.cond < res.cond_start
    assert res.max_limit_violation < 1e-6
    q, qd, _ = res.trajectory(np.linspace(0.0, 10.0, 1001))
    assert np.all(q >= lo - 1e-6) and np.all(q <= hi + 1e-6) and np.all(np.abs(qd) <= vmax * 1.05)


# ------------------------------------------------------------------------------- least squares


@pytest.fixture(scope="module")
def two_link_data():
    """Exact states of an excitation trajectory, torques with Coulomb + viscous friction."""
    arm = kl.planar_chain_model([0.9, 0.7], [2.0, 1.5], com=[0.45, 0.35], inertias=[0.1, 0.05])
    bp = kl.base_parameters(rich_regressor(arm))
    rng = np.random.default_rng(3)
    traj = kl.fourier_trajectory([0.3, -0.2], rng.normal(size=(2, 5)) * 0.3, rng.normal(size=(2, 5)) * 0.3, 0.1)
    q, qd, qdd = traj(np.arange(0.0, 20.0, 0.01))
    f_v, f_c = np.array([0.1, 0.08]), np.array([0.5, 0.3])
    Y = kl.joint_torque_regressor(arm, q, qd, qdd)
    tau = Y @ kl.inertial_parameters(arm) + kl.coulomb_viscous_friction(qd, f_c, f_v)
    W = np.concatenate([bp.regressor(Y), kl.friction_regressor(qd)], axis=-1)
    theta = np.concatenate([bp.base(kl.inertial_parameters(arm)), np.column_stack([f_v, f_c]).ravel()])
    return W, tau, theta


def test_noise_free_identification_recovers_the_base_parameters(two_link_data):
    W, tau, theta = two_link_data
    res = kl.identify_parameters(W, tau)
    assert np.abs(res.params - theta).max() < 1e-9
    assert res.fit.worst < 1e-9 and np.isfinite(res.cond) and res.cond_normal == pytest.approx(res.cond**2, rel=1e-6)


def test_noisy_identification_is_within_the_predicted_covariance(two_link_data):
    """Over many noise draws, (theta_hat - theta)^T Sigma^-1 (theta_hat - theta) averages the number
    of parameters (chi-square), and the sample covariance matches the prediction."""
    W, tau, theta = two_link_data
    sigma = np.array([0.2, 0.05])
    rng = np.random.default_rng(11)
    chi2, errors = [], []
    for _ in range(300):
        res = kl.identify_parameters(W, tau + rng.normal(size=tau.shape) * sigma, weights=1.0 / sigma**2)
        e = res.params - theta
        chi2.append(e @ np.linalg.solve(res.covariance, e))
        errors.append(e)
        cov = res.covariance
    r = theta.size
    assert abs(np.mean(chi2) - r) < 4 * np.sqrt(2 * r / 300)  # mean of chi2(r) over 300 draws
    z = np.array(errors) / np.sqrt(np.diag(cov))
    assert np.all(np.abs(z.std(axis=0) - 1.0) < 0.15)


def test_weighting_helps_when_joints_have_different_noise(two_link_data):
    """Joint 1 noisy, joint 2 precise: ordinary LS lets joint 1's noise leak into the parameters that
    joint 2 measures well; two-step weighted LS (weights from the first fit's residual) does not."""
    W, tau, theta = two_link_data
    sigma = np.array([1.0, 0.02])
    rng = np.random.default_rng(12)
    err_ols, err_wls = [], []
    for _ in range(60):
        noisy = tau + rng.normal(size=tau.shape) * sigma
        ols = kl.identify_parameters(W, noisy)
        wls = kl.identify_parameters(W, noisy, weights=kl.joint_noise_weights(ols.residual))
        err_ols.append((ols.params - theta) ** 2)
        err_wls.append((wls.params - theta) ** 2)
    ratio = np.mean(err_wls, axis=0) / np.mean(err_ols, axis=0)
    assert np.all(ratio < 1.2)  # never (noticeably) worse
    assert np.sum(ratio < 0.1) >= 4  # link 2's base parameters and joint 2's friction: far better


def test_ridge_shrinks_and_handles_rank_deficiency(two_link_data):
    W, tau, theta = two_link_data
    full = kl.identify_parameters(W, tau)
    ridged = kl.identify_parameters(W, tau, ridge=10.0)
    assert np.linalg.norm(ridged.params) < np.linalg.norm(full.params)
    assert ridged.cond_normal < full.cond_normal
    duplicated = np.concatenate([W, W[..., :1]], axis=-1)  # two identical columns: not identifiable
    with pytest.raises(ValueError, match="full column rank"):
        kl.identify_parameters(duplicated, tau)
    assert np.all(np.isfinite(kl.identify_parameters(duplicated, tau, ridge=1e-6).params))


def test_document_identify_is_unweighted_absolute_and_pooled(two_link_data):
    W, tau, theta = two_link_data
    Y_list, tau_list = list(W), list(tau)
    pi, rms = kl.doc001.identify(Y_list, tau_list, lam=0.0)
    res = kl.identify_parameters(W, tau)
    assert np.allclose(pi, res.params, atol=1e-8)  # unweighted: the same as ordinary LS
    noisy = tau + np.random.default_rng(0).normal(size=tau.shape) * np.array([0.5, 0.01])
    _, rms_doc = kl.doc001.identify(Y_list, list(noisy), lam=0.0)
    fit = kl.identify_parameters(W, noisy).fit
    assert rms_doc == pytest.approx(np.sqrt(np.mean(fit.rms**2)))  # one pooled absolute number
    assert fit.relative[0] != pytest.approx(fit.relative[1], rel=0.5)  # per joint they differ


def test_validation_error_is_relative_to_the_peak_torque():
    W = np.random.default_rng(0).normal(size=(50, 2, 3))
    params = np.array([1.0, -2.0, 0.5])
    tau = W @ params
    err = kl.torque_prediction_error(W, tau + 0.1, params)
    assert np.allclose(err.rms, 0.1) and np.allclose(err.relative, 0.1 / np.abs(tau + 0.1).max(axis=0))


def test_zero_phase_filter_and_differences():
    t = np.arange(0.0, 10.0, 1e-3)
    x = np.column_stack([np.sin(2 * np.pi * 0.3 * t), np.cos(2 * np.pi * 0.5 * t)])
    noisy = kl.add_noise(x, 1e-3, np.random.default_rng(0))
    filtered = kl.lowpass_zero_phase(noisy, 1000.0, 15.0)
    inner = slice(500, -500)
    assert np.abs(filtered - x)[inner].max() < 1e-3  # no lag, less noise
    xd = kl.central_difference(x, 1e-3)
    assert np.abs(xd[:, 0] - 2 * np.pi * 0.3 * np.cos(2 * np.pi * 0.3 * t)).max() < 1e-5


# ------------------------------------------------------------------------------- bad input


def test_bad_input_raises_value_error_naming_the_argument():
    arm = kl.planar_chain_model([0.9, 0.7], [2.0, 1.5])
    with pytest.raises(ValueError, match="q must"):
        kl.joint_torque_regressor(arm, np.zeros(3), np.zeros(2), np.zeros(2))
    with pytest.raises(ValueError, match="same length"):
        kl.joint_torque_regressor(arm, np.zeros((4, 2)), np.zeros((3, 2)), np.zeros((4, 2)))
    with pytest.raises(ValueError, match="finite"):
        kl.joint_torque_regressor(arm, [np.nan, 0.0], np.zeros(2), np.zeros(2))
    with pytest.raises(ValueError, match="model"):
        kl.inertial_parameters("arm")
    with pytest.raises(ValueError, match="method"):
        kl.base_parameters(np.ones((4, 2)), method="lu")
    with pytest.raises(ValueError, match="W must"):
        kl.base_parameters(np.ones(4))
    with pytest.raises(ValueError, match="tau must"):
        kl.identify_parameters(np.ones((5, 2, 3)), np.ones((5, 3)))
    with pytest.raises(ValueError, match="weights"):
        kl.identify_parameters(np.eye(3), np.ones(3), weights=[1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match="ridge"):
        kl.identify_parameters(np.eye(3), np.ones(3), ridge=-1.0)
    with pytest.raises(ValueError, match="cutoff"):
        kl.lowpass_zero_phase(np.zeros(100), 1000.0, 600.0)
    with pytest.raises(ValueError, match="f0"):
        kl.fourier_trajectory([0.0], [[0.1]], [[0.1]], f0=0.0)
    with pytest.raises(ValueError, match="root"):
        kl.subtree_model(kl.load_urdf(URDF), "LF_THIGH")
    with pytest.raises(ValueError, match="lower < upper"):
        kl.optimize_excitation(arm, [0], [1.0, 1.0], [0.0, 2.0], [1.0, 1.0])


# ------------------------------------------------------------------------------- the experiment pipeline


@pytest.fixture(scope="module")
def experiment():
    arm = kl.planar_chain_model([0.9, 0.7], [2.0, 1.5], com=[0.45, 0.35], inertias=[0.135, 0.06125])
    bp = kl.base_parameters(rich_regressor(arm))
    traj = kl.random_excitation([-2.0, -2.0], [2.0, 2.0], [2.0, 2.0], n_harmonics=5, seed=4)
    friction = dict(f_v=[0.1, 0.08], f_c=[0.5, 0.3])
    return arm, bp, traj, friction, kl.true_identification_parameters(arm, bp, **friction)


def test_measured_torques_are_rnea_plus_friction(experiment):
    arm, _, traj, friction, _ = experiment
    raw = kl.measure_trajectory(arm, traj, 2.0, rate=50.0, **friction)
    for k in range(0, 100, 17):
        tau = kl.rnea(arm, raw.q[k], raw.v[k], raw.a[k]) + kl.coulomb_viscous_friction(raw.v[k], [0.5, 0.3], [0.1, 0.08])
        assert np.allclose(raw.tau[k], tau, atol=1e-12)


def test_parallel_filtering_removes_the_friction_bias(experiment):
    """Noise-free but filtered: filtering tau alone smooths the Coulomb jumps that sign(qd) in W keeps."""
    arm, bp, traj, friction, theta = experiment
    processed = kl.process_measurements(kl.measure_trajectory(arm, traj, 20.0, **friction), cutoff=15.0)
    errors = {}
    for parallel in (False, True):
        W, tau = kl.identification_data(arm, bp, processed, parallel=parallel)
        errors[parallel] = np.abs(kl.identify_parameters(W, tau).params - theta)[6:].max()
    assert errors[True] < 2e-3 < 0.2 * errors[False]


def test_noisy_pipeline_validates_within_five_percent(experiment):
    arm, bp, traj, friction, theta = experiment
    rng = np.random.default_rng(0)
    raw = kl.measure_trajectory(arm, traj, 20.0, **friction, q_noise=1e-4, tau_noise=0.1, rng=rng)
    fit = kl.identify_parameters(*kl.identification_data(arm, bp, kl.process_measurements(raw)))
    other = kl.random_excitation([-2.0, -2.0], [2.0, 2.0], [2.0, 2.0], seed=9)
    val = kl.measure_trajectory(arm, other, 20.0, **friction, q_noise=1e-4, tau_noise=0.1, rng=rng)
    check = kl.torque_prediction_error(*kl.identification_data(arm, bp, kl.process_measurements(val)), fit.params)
    assert check.worst < 0.05
    assert np.all(np.abs(fit.params - theta) < 6 * fit.std)


def test_random_excitation_stays_inside_the_limits():
    lo, hi, vmax = np.array([-0.5, -1.0, -2.2]), np.array([0.5, 1.0, -0.4]), np.array([3.0, 3.0, 3.0])
    for seed in range(5):
        traj = kl.random_excitation(lo, hi, vmax, n_harmonics=5, f0=0.1, seed=seed)
        q, qd, _ = traj(np.linspace(0.0, traj.period, 4001))
        assert np.all(q > lo) and np.all(q < hi) and np.all(np.abs(qd) < vmax)


def test_friction_compensation_reduces_the_tracking_error():
    plant = kl.LuGre(sigma0=1e3, sigma1=10.0, sigma2=0.05, f_c=1.0, f_s=1.5, v_s=0.1)
    rms = {}
    for comp in (None, plant):
        run = kl.simulate_friction_loop(0.05, plant, kl.PID(kp=200.0, ki=500.0, kd=5.0, i_limit=2.0), 0.5, 0.5, 3.0,
                                        compensation=comp)
        rms[comp is None] = np.sqrt(np.mean(run.error[run.t >= 1.0] ** 2))
        assert np.allclose(run.q_d, 0.5 * np.sin(np.pi * run.t))
    assert rms[False] < 0.1 * rms[True]
    with pytest.raises(ValueError, match="pid"):
        kl.simulate_friction_loop(0.05, plant, "pid", 0.5, 0.5, 1.0)


def test_friction_loop_applies_the_pid_law_at_every_sample():
    """The loop steps the PID on floats: its torques are kl.PID.step's on the recorded signals."""
    plant = kl.LuGre(sigma0=1e3, sigma1=10.0, sigma2=0.05, f_c=1.0, f_s=1.5, v_s=0.1)
    pid = kl.PID(kp=200.0, ki=500.0, kd=5.0, i_limit=0.3)
    run = kl.simulate_friction_loop(0.05, plant, pid, 0.5, 0.5, 1.0, dt=1e-3, substeps=3)
    ref, w = kl.PID(kp=200.0, ki=500.0, kd=5.0, i_limit=0.3), 2.0 * np.pi * 0.5
    for k in range(run.t.size):
        a_d = -0.5 * w * w * np.sin(w * run.t[k])
        tau = ref.step(run.q_d[k] - run.q[k], run.v[k], 1e-3, velocity_ref=run.v_d[k], feedforward=0.05 * a_d)
        assert abs(tau - run.tau[k]) <= 1e-9 * max(1.0, abs(tau))
    assert abs(pid.i_term - ref.i_term) < 1e-12 and abs(pid.i_term) == pytest.approx(0.3)  # the clamp was hit
