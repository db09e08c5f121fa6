"""Chapter 6: floating-base configuration space, centroidal quantities, balance points.

Independent reference: Pinocchio (ANYmal B and random floating trees rebuilt joint by joint,
matched by name); identities: integrate/difference round trips, q_dot = S(q) v against finite
differences of integrate, h_G = sum of body momenta about the CoM, M_bb = locked inertia,
momentum conservation in zero gravity, ZMP = CoP of the forces producing the same motion.
"""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl

import pinocchio as pin  # pinned: a missing Pinocchio fails, never skips

RTOL = 1e-9
SEEDS = (0, 1, 2)


def rel_err(x, y) -> float:
    x, y = np.asarray(x, float), np.asarray(y, float)
    return float(np.abs(x - y).max() / max(np.abs(y).max(), 1e-12))


def to_pinocchio(model: kl.Model) -> pin.Model:
    """The same tree in Pinocchio, joint by joint (unaligned axes; continuous = 1-coordinate revolute)."""
    ref = pin.Model()
    ids = []
    for i in range(model.nb):
        kind, axis = model.joint_types[i], np.array(model.axes[i])
        joint = {"free": pin.JointModelFreeFlyer, "prismatic": lambda: pin.JointModelPrismaticUnaligned(axis)}.get(
            kind, lambda: pin.JointModelRevoluteUnaligned(axis))()
        T = model.T_tree[i]
        parent = 0 if model.parent[i] < 0 else ids[model.parent[i]]
        jid = ref.addJoint(parent, joint, pin.SE3(T[:3, :3], T[:3, 3]), model.body_joint[i])
        m, c, I_c = kl.inertia_parts(model.inertia[i])
        ref.appendBodyToJoint(jid, pin.Inertia(m, c, I_c), pin.SE3.Identity())
        ids.append(jid)
    ref.gravity = pin.Motion(np.asarray(model.gravity), np.zeros(3))
    return ref


def pin_slices(model: kl.Model, ref: pin.Model):
    """(our q slice, pin q slice, our v slice, pin v slice) per joint, matched by name."""
    for i, name in enumerate(model.body_joint):
        jid = ref.getJointId(name)
        j = ref.joints[jid]
        yield (model.q_slice[i], slice(j.idx_q, j.idx_q + j.nq), model.v_slice[i], slice(j.idx_v, j.idx_v + j.nv))


def to_pin_vector(model, ref, x, which: str):
    out = np.empty(ref.nq if which == "q" else ref.nv)
    for qs, pqs, vs, pvs in pin_slices(model, ref):
        if which == "q":
            out[pqs] = x[qs]
        else:
            out[pvs] = x[vs]
    return out


@pytest.fixture(scope="module", params=["anymal"] + [f"tree{s}" for s in SEEDS])
def pair(request):
    if request.param == "anymal":
        ours = kl.load_urdf(str(kl.anymal_b_urdf()), floating_base=True)
        ref = pin.buildModelFromUrdf(str(kl.anymal_b_urdf()), pin.JointModelFreeFlyer())
    else:
        seed = int(request.param[4:])
        ours = kl.random_tree_model(6, np.random.default_rng(seed), floating_base=True,
                                    joint_types=("revolute", "prismatic", "continuous"))
        ref = to_pinocchio(ours)
    return ours, ref, ref.createData()


def states(model, n=4, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        yield kl.random_configuration(model, rng), rng.normal(size=model.nv)


def test_structure_matches(pair):
    ours, ref, _ = pair
    assert (ours.nq, ours.nv) == (ref.nq, ref.nv) and ours.nq == ours.nv + 1


def test_integrate_and_difference_match_pinocchio(pair):
    ours, ref, _ = pair
    worst = 0.0
    for q, v in states(ours):
        for dt in (0.3, 1.0, -0.7):
            q1 = kl.integrate_configuration(ours, q, v, dt)
            q1_ref = pin.integrate(ref, to_pin_vector(ours, ref, q, "q"), to_pin_vector(ours, ref, v * dt, "v"))
            worst = max(worst, rel_err(to_pin_vector(ours, ref, q1, "q"), q1_ref))
            d = kl.difference(ours, q, q1)
            d_ref = pin.difference(ref, to_pin_vector(ours, ref, q, "q"), q1_ref)
            worst = max(worst, rel_err(to_pin_vector(ours, ref, d, "v"), d_ref))
    print(f"integrate/difference vs Pinocchio: max relative error {worst:.1e}")
    assert worst < RTOL


def test_difference_inverts_integrate(pair):
    ours, _, _ = pair
    rng = np.random.default_rng(7)
    for q0, _ in states(ours, seed=3):
        q1 = kl.random_configuration(ours, rng)
        q = kl.integrate_configuration(ours, q0, kl.difference(ours, q0, q1))
        # the same configuration: a quaternion and its negative are the same rotation
        sign = np.sign(q[3:7] @ q1[3:7])
        assert np.allclose(np.r_[q[:3], sign * q[3:7], q[7:]], q1, atol=1e-10)
        assert np.allclose(kl.difference(ours, q0, q0), 0.0, atol=1e-12)


def test_quaternion_stays_unit(pair):
    ours, _, _ = pair
    for q, v in states(ours, seed=4):
        for _ in range(50):
            q = kl.integrate_configuration(ours, q, 10.0 * v, 0.1)
        assert abs(np.linalg.norm(q[3:7]) - 1.0) < 1e-14


def test_rate_map_is_the_derivative_of_integrate(pair):
    ours, _, _ = pair
    h = 1e-6
    for q, v in states(ours, seed=5):
        S = kl.configuration_rate_map(ours, q)
        assert S.shape == (ours.nq, ours.nv)
        fd = (kl.integrate_configuration(ours, q, v, h) - kl.integrate_configuration(ours, q, v, -h)) / (2 * h)
        assert np.allclose(S @ v, fd, atol=1e-7 * max(1.0, np.abs(fd).max()))


def test_centroidal_quantities_match_pinocchio(pair):
    ours, ref, data = pair
    worst = 0.0
    for q, v in states(ours, seed=6):
        qp, vp = to_pin_vector(ours, ref, q, "q"), to_pin_vector(ours, ref, v, "v")
        pin.computeCentroidalMomentum(ref, data, qp, vp)
        worst = max(worst, rel_err(kl.centroidal_momentum(ours, q, v), data.hg.vector))
        J_ref = pin.jacobianCenterOfMass(ref, data, qp)
        worst = max(worst, rel_err(_cols(ours, ref, kl.com_jacobian(ours, q)), J_ref))
        pin.ccrba(ref, data, qp, vp)
        worst = max(worst, rel_err(kl.centroidal_inertia(ours, q), data.Ig.matrix()))
        A_ref = pin.computeCentroidalMap(ref, data, qp)
        worst = max(worst, rel_err(_cols(ours, ref, kl.centroidal_momentum_matrix_from_jacobians(ours, q)), A_ref))
    print(f"centroidal momentum, CoM Jacobian, I_G, A_G (link Jacobians) vs Pinocchio: max relative error {worst:.1e}")
    assert worst < RTOL


def _cols(model, ref, J) -> np.ndarray:
    """Our (k, nv) matrix with its columns in Pinocchio's joint order."""
    out = np.empty((J.shape[0], ref.nv))
    for _, _, vs, pvs in pin_slices(model, ref):
        out[:, pvs] = J[:, vs]
    return out


def test_momentum_is_the_sum_of_body_momenta(pair):
    ours, _, _ = pair
    for q, v in states(ours, seed=8):
        T = kl.forward_kinematics(ours, q)
        p_G = kl.center_of_mass(ours, q)
        h = np.zeros(6)
        for i, name in enumerate(ours.body_names):
            m, c, I_c = kl.inertia_parts(ours.inertia[i])
            R = T[i, :3, :3]
            c_w = R @ c + T[i, :3, 3]
            Vc = kl.frame_jacobian(ours, q, name) @ v  # at the body origin
            w = Vc[3:]
            v_c = Vc[:3] + np.cross(w, c_w - T[i, :3, 3])
            h[:3] += m * v_c
            h[3:] += R @ I_c @ R.T @ w + m * np.cross(c_w - p_G, v_c)
        assert np.allclose(kl.centroidal_momentum(ours, q, v), h, atol=1e-10 * max(1.0, np.abs(h).max()))


def test_base_block_is_the_locked_inertia(pair):
    """M_bb (base rows and columns of CRBA) = the whole robot's composite inertia in base coordinates."""
    ours, _, _ = pair
    for q, _ in states(ours, n=2, seed=9):
        M = kl.crba(ours, q)
        R_WB, p_WB = kl.quat_to_matrix(q[3:7]), q[:3]
        p_G = kl.center_of_mass(ours, q)
        X_GB = np.linalg.inv(kl.motion_transform(R_WB, p_WB - p_G))  # base coordinates -> G (world axes)
        I_B = X_GB.T @ kl.centroidal_inertia(ours, q) @ X_GB
        assert np.allclose(M[:6, :6], I_B, atol=1e-10 * np.abs(I_B).max())
        assert np.isclose(M[0, 0], ours.total_mass)


def test_average_velocity_from_centroidal_inertia():
    """A rigid robot (joints at rest) moving with base twist: I_G^-1 h_G is that twist at G."""
    model = kl.random_tree_model(5, np.random.default_rng(4), floating_base=True)
    rng = np.random.default_rng(1)
    q = kl.random_configuration(model, rng)
    v = np.concatenate([rng.normal(size=6), np.zeros(model.nv - 6)])
    h = kl.centroidal_momentum(model, q, v)
    V_G = np.linalg.solve(kl.centroidal_inertia(model, q), h)
    R = kl.quat_to_matrix(q[3:7])
    w = R @ v[3:6]
    p_G = kl.center_of_mass(model, q)
    assert np.allclose(V_G[3:], w) and np.allclose(V_G[:3], R @ v[:3] + np.cross(w, p_G - q[:3]))


def test_com_jacobian_finite_differences():
    model = kl.random_tree_model(5, np.random.default_rng(3), floating_base=True)
    q, v = next(states(model, seed=10))
    h = 1e-6
    fd = (kl.center_of_mass(model, kl.integrate_configuration(model, q, v, h)) - kl.center_of_mass(model, kl.integrate_configuration(model, q, v, -h))) / (2 * h)
    assert np.allclose(kl.com_jacobian(model, q) @ v, fd, atol=1e-7)


# ---------------------------------------------------------------- free floating


def test_satellite_momentum_is_conserved():
    model = kl.satellite_arm_model(0.3)
    assert (model.nq, model.nv) == (10, 9)
    v0 = np.zeros(model.nv)
    v0[[0, 5]] = 0.05, 0.1  # drifting and spinning
    run = kl.simulate_free_floating(model, kl.neutral_configuration(model), v0, 4.0, 0.1,
                                    kl.satellite_joint_torque(model))
    print(f"satellite momentum drift (linear, angular): {run.drift[0]:.1e}, {run.drift[1]:.1e}")
    assert run.drift.max() <= 1e-9
    assert np.abs(run.q[-1, 7:]).max() < 1e-6  # the joint loop closed
    yaw = 2 * np.arctan2(run.q[:, 5], run.q[:, 6])
    assert np.ptp(yaw - 0.1 * run.t) > 0.05  # ... and the arm turned the base


def test_free_floating_from_rest_turns_the_base_back():
    model = kl.satellite_arm_model(0.3)
    run = kl.simulate_free_floating(model, kl.neutral_configuration(model), np.zeros(model.nv), 1.0, 0.25,
                                    kl.satellite_joint_torque(model, period=2.0))
    assert np.abs(run.h).max() < 1e-9
    # joint 1 turns positive (counter-clockwise) at the start: the base turns negative
    k = 1
    assert run.q[k, 7] > 0 and 2 * np.arctan2(run.q[k, 5], run.q[k, 6]) < 0


def test_random_torques_conserve_momentum_on_a_random_tree():
    model = kl.random_tree_model(4, np.random.default_rng(5), floating_base=True, gravity=np.zeros(3))
    rng = np.random.default_rng(2)
    q0, v0 = kl.random_configuration(model, rng), rng.normal(size=model.nv)
    amp = rng.normal(size=(model.nv - 6, 2))
    torque = lambda t, q, v: amp[:, 0] * np.sin(3 * t) + amp[:, 1] * np.cos(2 * t)  # noqa: E731
    run = kl.simulate_free_floating(model, q0, v0, 1.0, 0.1, torque)
    assert run.drift.max() <= 1e-9


def test_with_gravity_linear_momentum_rate_is_m_g():
    model = kl.random_tree_model(4, np.random.default_rng(6), floating_base=True)
    rng = np.random.default_rng(3)
    q0, v0 = kl.random_configuration(model, rng), rng.normal(size=model.nv)
    run = kl.simulate_free_floating(model, q0, v0, 0.5, 0.05, lambda t, q, v: np.ones(model.nv - 6))
    slope = (run.h[-1, :3] - run.h[0, :3]) / run.t[-1]
    assert np.allclose(slope, model.total_mass * model.gravity, rtol=1e-8, atol=1e-8)
    assert np.allclose(np.diff(run.h[:, :3], axis=0), model.total_mass * model.gravity * 0.05, atol=1e-8)


def test_bad_quaternion_is_refused():
    model = kl.satellite_arm_model(0.3)
    q = kl.neutral_configuration(model)
    q[6] = 0.9
    for fn in (lambda: kl.integrate_configuration(model, q, np.zeros(model.nv)), lambda: kl.configuration_rate_map(model, q),
               lambda: kl.com_jacobian(model, q), lambda: kl.centroidal_inertia(model, q)):
        with pytest.raises(ValueError, match=r"q\[3:7\].*unit quaternion"):
            fn()
    with pytest.raises(ValueError, match="q1"):
        kl.difference(model, kl.neutral_configuration(model), q)


# ---------------------------------------------------------------- attitude parametrisations


def test_rpy_velocity_map_and_its_singularity():
    rng = np.random.default_rng(0)
    for _ in range(5):
        rpy, rate = rng.uniform(-1.2, 1.2, 3), rng.normal(size=3)
        h = 1e-6
        R = kl.rpy_to_matrix(rpy)
        dR = (kl.rpy_to_matrix(rpy + h * rate) - kl.rpy_to_matrix(rpy - h * rate)) / (2 * h)
        w_body = kl.vee(R.T @ dR)
        assert np.allclose(kl.rpy_velocity_map(rpy) @ rate, w_body, atol=1e-8)
        assert np.allclose(kl.rpy_rate_map(rpy) @ kl.rpy_velocity_map(rpy), np.eye(3))
    conds = [np.linalg.cond(kl.rpy_velocity_map([0.2, p, 0.1])) for p in (0.0, 1.0, 1.5, 1.57)]
    assert conds[0] < conds[1] < conds[2] < conds[3] and conds[-1] > 1e3
    with pytest.raises(ValueError, match="rpy"):
        kl.rpy_rate_map([0.0, np.pi / 2, 0.0])


def test_quaternion_integration_methods():
    omega, dt, n = np.array([1.0, 2.0, 0.5]), 0.01, 500
    norm_n, err_n = kl.quaternion_integration_error(omega, dt, n, "naive")
    norm_r, err_r = kl.quaternion_integration_error(omega, dt, n, "renormalised")
    norm_e, err_e = kl.quaternion_integration_error(omega, dt, n, "exponential")
    # naive Euler grows the norm by sqrt(1 + |omega|^2 dt^2 / 4) per step, exactly
    assert np.isclose(norm_n[-1], (1 + (omega @ omega) * dt * dt / 4) ** (n / 2))
    assert np.allclose(norm_r, 1.0) and np.allclose(norm_e, 1.0)
    assert err_e.max() < 1e-12 < err_r[-1]
    assert np.allclose(err_n, err_r, atol=1e-12)  # renormalising fixes the norm, not the orientation


# ---------------------------------------------------------------- balance points


FEET = np.array([[0.1, 0.1, 0.0], [0.1, -0.1, 0.0], [-0.1, 0.1, 0.0], [-0.1, -0.1, 0.0]])


def test_issue_numbers():
    F = np.zeros((4, 3))
    F[:, 2] = 100.0, 120.0, 80.0, 90.0
    assert np.allclose(kl.center_of_pressure(FEET, F), [5.0 / 390.0, -3.0 / 390.0])
    x_zmp = kl.zmp([0.0, 0.0, 0.9], [1.0, 0.0, 0.0], 60.0, [0.0, -5.0, 0.0])[0]
    x_cmp = kl.cmp([0.0, 0.0, 0.9], [1.0, 0.0, 0.0])[0]
    assert np.isclose(x_zmp, -0.9 / 9.81 + 5.0 / (60.0 * 9.81)) and np.isclose(x_cmp, -0.9 / 9.81)


def test_zmp_is_the_cop_of_the_forces_that_produce_the_motion():
    rng = np.random.default_rng(0)
    for _ in range(20):
        pts = np.column_stack([rng.uniform(-0.3, 0.3, (4, 2)), np.zeros(4)])
        f = np.column_stack([rng.uniform(-20, 20, (4, 2)), rng.uniform(50, 300, 4)])
        m, p_G = rng.uniform(20, 80), np.array([*rng.uniform(-0.1, 0.1, 2), rng.uniform(0.5, 1.2)])
        g = np.array([0.0, 0.0, -9.81])
        a_G = f.sum(axis=0) / m + g  # m p_G_ddot = sum f + m g
        dL = np.cross(pts - p_G, f).sum(axis=0)
        assert np.allclose(kl.zmp(p_G, a_G, m, dL), kl.center_of_pressure(pts, f))
        assert np.allclose(kl.zmp(p_G, a_G, m), kl.cmp(p_G, a_G))
        # the CMP lies on the line through the CoM along the total force
        F = f.sum(axis=0)
        s = p_G[2] / F[2]
        assert np.allclose(kl.cmp(p_G, a_G), (p_G - s * F)[:2])


def test_balance_input_errors():
    F = np.zeros((4, 3))
    with pytest.raises(ValueError, match="forces"):
        kl.center_of_pressure(FEET, F)
    with pytest.raises(ValueError, match="points"):
        kl.center_of_pressure(FEET + np.array([0, 0, 1e-3]) * np.arange(4)[:, None], F + [0, 0, 1])
    with pytest.raises(ValueError, match="mass"):
        kl.zmp([0, 0, 1], [0, 0, 0], -1.0)
    with pytest.raises(ValueError, match="g"):
        kl.cmp([0, 0, 1], [0, 0, 0], g=0.0)
    with pytest.raises(ValueError, match="a_com"):
        kl.cmp([0, 0, 1], [0, 0, -9.81])


def test_zero_momentum_path_is_what_the_dynamics_does():
    """From rest, whatever torques make the joints follow the loop, the base follows the kinematic path."""
    model = kl.satellite_arm_model(0.3)
    q0 = kl.neutral_configuration(model)
    run = kl.simulate_free_floating(model, q0, np.zeros(model.nv), 4.0, 0.2, kl.satellite_joint_torque(model))
    qj, vj = kl.satellite_joint_loop(3, 0.8, 4.0, run.t)
    assert np.allclose(run.q[:, 7:], qj, atol=1e-7)  # computed torque tracks the loop exactly
    coarse = kl.zero_momentum_base_path(model, q0, qj, vj, 0.2)
    t4 = np.linspace(0.0, 4.0, 81)
    path = kl.zero_momentum_base_path(model, q0, *kl.satellite_joint_loop(3, 0.8, 4.0, t4), 0.05)
    e1, e4 = np.abs(coarse - run.q).max(), np.abs(path[::4] - run.q).max()
    assert e4 < 1e-3 and e1 / e4 > 10  # the trapezoidal rule converges (second order) to the dynamics
    assert np.allclose(coarse[-1], run.q[-1], atol=1e-6)  # over a whole (periodic) loop it is exact
    yaw = 2 * np.arctan2(path[-1, 5], path[-1, 6])
    assert abs(yaw) > 0.05 and np.allclose(qj[-1], 0.0, atol=1e-12)  # joints back, base turned
    centres = [kl.center_of_mass(model, q) for q in path]
    assert np.allclose(centres, centres[0], atol=1e-12)
