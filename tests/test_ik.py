"""Inverse kinematics (kinematics_lib.arms.ik): round trips through the forward kinematics, joint
limits at every iterate, null-space objectives, the analytic 2R solution, singular and
unreachable cases, resolved-rate drift.
"""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.geometry.rotations import so3_log

PUMA = kl.DHRobot(a=[0.0, 0.4318, 0.0203, 0.0, 0.0, 0.0],
                  alpha=[np.pi / 2, 0.0, -np.pi / 2, np.pi / 2, -np.pi / 2, 0.0],
                  d=[0.0, 0.0, 0.15005, 0.4318, 0.0, 0.0], theta=np.zeros(6), name="PUMA-560-like")
ARM2 = kl.planar_arm([1.0, 0.7])
ARM3 = kl.planar_arm([1.0, 0.8, 0.5])
TOL_P, TOL_R = 1e-3, math.radians(0.1)


def errors(robot, q, T_target):
    """Position (m) and orientation (rad) error from the forward kinematics, independently."""
    T = kl.dh_end_effector(robot, q)
    return (float(np.linalg.norm(T[:3, 3] - T_target[:3, 3])),
            float(np.linalg.norm(so3_log(T_target[:3, :3] @ T[:3, :3].T))))


def well_conditioned(robot, rng, rows, kappa_max=200.0):
    while True:
        q = rng.uniform(-np.pi, np.pi, robot.n)
        if kl.condition_number(kl.geometric_jacobian(robot, q)[rows]) < kappa_max:
            return q


def test_default_tolerances_are_1_mm_and_a_tenth_of_a_degree():
    params = inspect.signature(kl.ik_newton).parameters
    assert params["tol_position"].default == pytest.approx(1e-3)
    assert params["tol_orientation"].default == pytest.approx(math.radians(0.1))


@pytest.mark.parametrize("method", ["pinv", "dls"])
def test_pose_round_trip_on_a_puma_like_arm(method):
    rng = np.random.default_rng(1)
    for _ in range(15):
        q_true = well_conditioned(PUMA, rng, list(range(6)))
        T_target = kl.dh_end_effector(PUMA, q_true)
        q0 = q_true + rng.normal(scale=0.15, size=6)
        res = kl.ik_newton(PUMA, T_target, q0, method=method)
        assert res.converged and res.status == "converged", res
        e_p, e_r = errors(PUMA, res.q, T_target)
        assert e_p <= TOL_P and e_r <= TOL_R
        assert math.isclose(res.position_error, e_p, abs_tol=1e-12)
        assert np.all(np.isfinite(res.q))


@pytest.mark.parametrize("method", ["pinv", "dls"])
@pytest.mark.parametrize("robot, task", [(ARM2, "planar_position"), (ARM3, "planar_pose"),
                                         (ARM3, "planar_position")])
def test_planar_round_trips(method, robot, task):
    rng = np.random.default_rng(2)
    rows = list(kl.arms.kinematics.task_rows(task))
    for _ in range(15):
        q_true = well_conditioned(robot, rng, rows)
        T_target = kl.dh_end_effector(robot, q_true)
        res = kl.ik_newton(robot, T_target, q_true + rng.normal(scale=0.3, size=robot.n),
                           method=method, task=task)
        assert res.converged, res
        e_p, e_r = errors(robot, res.q, T_target)
        assert e_p <= TOL_P
        if task == "planar_pose":
            assert e_r <= TOL_R


def test_newton_converges_quadratically_dls_linearly():
    q_true = np.array([0.3, -0.5, 0.4, 0.8, -0.9, 0.2])
    T_target = kl.dh_end_effector(PUMA, q_true)
    q0 = q_true + np.array([0.2, -0.2, 0.25, -0.3, 0.2, 0.3])
    tight = dict(tol_position=1e-11, tol_orientation=1e-11, max_iterations=80)
    newton = np.array(kl.ik_newton(PUMA, T_target, q0, method="pinv", **tight).error_history)
    dls = np.array(kl.ik_newton(PUMA, T_target, q0, method="dls", damping=0.2, **tight).error_history)
    k = int(np.argmax(newton < 1e-2))  # once close, e_{k+1} <= C e_k^2
    assert newton[k + 1] < 10.0 * newton[k] ** 2
    ratios = dls[10:20] / dls[9:19]  # linear: a constant ratio well below 1
    assert np.all(ratios < 0.8) and np.ptp(ratios) < 0.1
    assert len(newton) < len(dls)


def test_joint_limits_respected_at_every_iterate():
    visited = []

    def fk_jac(q):
        visited.append(np.array(q))
        return kl.dh_end_effector(ARM3, q), kl.geometric_jacobian(ARM3, q)

    q_min, q_max = np.array([-0.5, 0.2, 0.1]), np.array([1.5, 1.6, 1.2])
    rng = np.random.default_rng(3)
    for _ in range(10):
        q_true = rng.uniform(q_min, q_max)
        T_target = kl.dh_end_effector(ARM3, q_true)
        for method in ("pinv", "dls"):
            res = kl.ik_newton(fk_jac, T_target, rng.uniform(-3, 3, 3), method=method, task="planar_position",
                               q_min=q_min, q_max=q_max)
            assert np.all(res.q >= q_min) and np.all(res.q <= q_max)
    V = np.array(visited)
    assert np.all(V >= q_min - 1e-15) and np.all(V <= q_max + 1e-15)


def test_robot_limits_are_used_and_a_blocked_target_is_not_converged():
    limited = kl.planar_arm([1.0, 0.7], q_min=[-1.0, 0.3], q_max=[1.0, 2.5])
    T_target = kl.dh_end_effector(ARM2, [0.0, 0.1])  # needs |q2| = 0.1, outside [0.3, 2.5]
    res = kl.ik_newton(limited, T_target, [0.0, 1.0], task="planar_position")
    assert not res.converged and res.status in ("stalled", "max_iterations")
    assert np.all(res.q >= limited.q_min) and np.all(res.q <= limited.q_max)


def test_nullspace_projector_leaves_the_task_velocity_unchanged():
    rng = np.random.default_rng(4)
    for shape in ((2, 3), (3, 5), (6, 7)):
        J = rng.normal(size=shape)
        N = kl.nullspace_projector(J)
        np.testing.assert_allclose(J @ N @ rng.normal(size=shape[1]), 0.0, atol=1e-12)
        np.testing.assert_allclose(N @ N, N, atol=1e-12)


def test_nullspace_objective_reduces_the_cost_without_changing_the_task_error():
    def cost(q):  # keep joints 2 and 3 near zero
        return 0.5 * (q[1] ** 2 + q[2] ** 2)

    def minus_grad(q):
        return -np.array([0.0, q[1], q[2]])

    rng = np.random.default_rng(5)
    for _ in range(8):
        q_true = well_conditioned(ARM3, rng, [0, 1])
        T_target = kl.dh_end_effector(ARM3, q_true)
        q0 = q_true + rng.normal(scale=0.2, size=3)
        plain = kl.ik_newton(ARM3, T_target, q0, method="pinv", task="planar_position")
        shaped = kl.ik_newton(ARM3, T_target, q0, method="pinv", task="planar_position",
                              nullspace_gradient=minus_grad)
        assert plain.converged and shaped.converged
        assert errors(ARM3, shaped.q, T_target)[0] <= TOL_P
        assert cost(shaped.q) < cost(plain.q) - 1e-3


def test_nullspace_motion_keeps_the_tip_and_raises_manipulability():
    path = kl.nullspace_motion(ARM3, [0.3, 0.15, 2.9],
                               lambda q: kl.manipulability_gradient(ARM3, q, "planar_position"),
                               steps=100, gain=0.1)
    tips = np.array([kl.dh_end_effector(ARM3, q)[:2, 3] for q in path])
    w = [kl.manipulability(kl.geometric_jacobian(ARM3, q)[:2]) for q in path]
    assert np.max(np.linalg.norm(tips - tips[0], axis=1)) < 1e-3
    assert np.linalg.norm(path[-1] - path[0]) > 1.0
    assert w[-1] > 3 * w[0]


# --- analytic 2R ---------------------------------------------------------------------------------

def tip2(q, L1, L2):
    return np.array([L1 * math.cos(q[0]) + L2 * math.cos(q[0] + q[1]),
                     L1 * math.sin(q[0]) + L2 * math.sin(q[0] + q[1])])


@pytest.mark.parametrize("L1, L2", [(1.0, 0.7), (0.6, 1.1), (1.0, 1.0)])
def test_two_link_both_branches_reach_the_target(L1, L2):
    rng = np.random.default_rng(6)
    for _ in range(20):
        target = tip2(rng.uniform(-np.pi, np.pi, 2), L1, L2)
        res = kl.ik_two_link(target, L1, L2)
        assert res.converged and res.status == "converged" and len(res.solutions) == 2
        for q in res.solutions:
            np.testing.assert_allclose(tip2(q, L1, L2), target, atol=1e-9)
        assert res.solutions[0][1] >= 0.0 >= res.solutions[1][1]  # elbow down, elbow up
        assert res.position_error < 1e-9


def test_two_link_selects_the_nearest_branch_with_wrapped_angles():
    L1, L2 = 1.0, 0.7
    res = kl.ik_two_link(tip2([2.9, -1.0], L1, L2), L1, L2)
    down, up = res.solutions
    for branch in (down, up):
        q_now = branch + np.array([2 * np.pi, -2 * np.pi]) + 0.05  # same pose, angles unwrapped
        chosen = kl.ik_two_link(tip2([2.9, -1.0], L1, L2), L1, L2, q_current=q_now).q
        np.testing.assert_allclose(chosen, branch, atol=1e-12)
    assert np.allclose(kl.ik_two_link(tip2([2.9, -1.0], L1, L2), L1, L2, elbow="up").q, up)


@pytest.mark.parametrize("L1, L2", [(1.0, 0.7), (0.6, 1.1)])
@pytest.mark.parametrize("r", [2.5, 1.9, 0.2, 0.0])
def test_two_link_unreachable_reports_distance_to_the_boundary(L1, L2, r):
    if r == 1.9 and L1 + L2 > 1.9:
        r = L1 + L2 + 0.3
    heading = 0.7
    target = r * np.array([math.cos(heading), math.sin(heading)])
    res = kl.ik_two_link(target, L1, L2)
    boundary = L1 + L2 if r > L1 + L2 else abs(L1 - L2)
    assert res.status == "unreachable" and not res.converged
    assert np.all(np.isfinite(res.q))
    assert math.isclose(res.position_error, abs(r - boundary), abs_tol=1e-12)
    assert math.isclose(float(np.linalg.norm(tip2(res.q, L1, L2) - target)), abs(r - boundary), abs_tol=1e-12)


def test_two_link_target_at_the_base_with_equal_links():
    res = kl.ik_two_link([0.0, 0.0], 1.0, 1.0)
    assert res.converged and np.all(np.isfinite(res.q)) and res.position_error < 1e-12


# --- singular and unreachable numerical cases ----------------------------------------------------

def test_pinv_at_an_exact_singularity_reports_singular_without_nan():
    T_target = kl.dh_end_effector(ARM2, [0.5, 1.2])
    res = kl.ik_newton(ARM2, T_target, [0.3, 0.0], method="pinv", task="planar_position")
    assert res.status == "singular" and not res.converged
    assert np.all(np.isfinite(res.q)) and math.isfinite(res.position_error)
    dls = kl.ik_newton(ARM2, T_target, [0.3, 0.0], method="dls", task="planar_position")
    assert dls.converged  # damping steps through the singular start


def test_unreachable_target_stalls_with_a_finite_closest_configuration():
    T_target = kl.translation([2.5, 0.4, 0.0])
    res = kl.ik_newton(ARM2, T_target, [0.2, 0.5], method="dls", task="planar_position")
    assert not res.converged and res.status == "stalled"
    assert np.all(np.isfinite(res.q))
    closest = math.hypot(2.5, 0.4) - 1.7  # distance to the outer boundary
    assert closest - 1e-12 <= res.position_error <= closest + 5e-3


@pytest.mark.parametrize("seed", range(3))
def test_dls_step_is_bounded_by_e_over_two_lambda(seed):
    rng = np.random.default_rng(7 + seed)
    J = rng.normal(size=(3, 4))
    J[2] = J[0]  # rank deficient
    e = rng.normal(size=3)
    for lam in (1e-3, 0.05, 1.0):
        assert np.linalg.norm(kl.dls_step(J, e, lam)) <= np.linalg.norm(e) / (2 * lam) + 1e-12
    np.testing.assert_allclose(kl.dls_step(J[:2], e[:2], 0.0), kl.pinv_step(J[:2], e[:2]), atol=1e-10)


# --- velocity-level IK ---------------------------------------------------------------------------

def circle(center=(1.0, 0.5), radius=0.3, omega=1.0):
    c = np.array(center)
    return (lambda t: c + radius * np.array([math.cos(omega * t), math.sin(omega * t)]),
            lambda t: radius * omega * np.array([-math.sin(omega * t), math.cos(omega * t)]))


def test_resolved_rate_drifts_open_loop_proportionally_to_dt():
    x_des, xdot_des = circle()
    q0 = kl.ik_two_link(x_des(0.0), 1.0, 0.7).q
    period = 2 * np.pi
    worst = []
    for dt in (0.04, 0.02):
        res = kl.resolved_rate(ARM2, q0, x_des, xdot_des, 3 * period, dt)
        per_lap = [res.error[(res.t >= k * period) & (res.t < (k + 1) * period)].mean() for k in range(3)]
        assert per_lap[0] < per_lap[1] < per_lap[2]  # the drift grows lap after lap
        worst.append(res.error.max())
    assert 1.8 < worst[0] / worst[1] < 2.2  # first-order integration error, not round-off
    rk4 = kl.resolved_rate(ARM2, q0, x_des, xdot_des, 3 * period, 0.04, integrator="rk4")
    assert rk4.error.max() < 1e-3 * worst[0]


def test_resolved_rate_with_feedback_keeps_the_error_bounded():
    x_des, xdot_des = circle()
    q0 = kl.ik_two_link(x_des(0.0), 1.0, 0.7).q
    open_loop = kl.resolved_rate(ARM2, q0, x_des, xdot_des, 16.0, 0.04)
    closed = kl.resolved_rate(ARM2, q0, x_des, xdot_des, 16.0, 0.04, Kp=5.0)
    half = len(closed.error) // 2
    assert closed.error[half:].max() <= 1.1 * closed.error[:half].max()  # does not grow
    assert closed.error.max() < 0.2 * open_loop.error[-1]
    # a start offset is pulled in at the rate Kp
    offset = kl.resolved_rate(ARM2, q0 + [0.05, 0.0], x_des, xdot_des, 2.0, 0.01, Kp=5.0)
    assert offset.error[-1] < 0.01 * offset.error[0]
    assert np.all(np.isfinite(offset.q))


# --- bad input -----------------------------------------------------------------------------------

T_OK = kl.translation([1.0, 0.5, 0.0])


@pytest.mark.parametrize("call, name", [
    (lambda: kl.ik_newton(ARM2, T_OK, [0.1, 0.2], method="newton"), "method"),
    (lambda: kl.ik_newton(ARM2, T_OK, [0.1, 0.2], damping=-0.1), "damping"),
    (lambda: kl.ik_newton(ARM2, T_OK, [0.1, 0.2, 0.3]), "q0"),
    (lambda: kl.ik_newton(ARM2, np.eye(3), [0.1, 0.2]), "T_target"),
    (lambda: kl.ik_newton(ARM2, T_OK, [0.1, 0.2], task="orbit"), "task"),
    (lambda: kl.ik_newton(ARM2, T_OK, [0.1, 0.2], max_iterations=0), "max_iterations"),
    (lambda: kl.ik_newton(ARM2, T_OK, [0.1, 0.2], tol_position=0.0), "tol_position"),
    (lambda: kl.ik_newton(ARM2, T_OK, [0.1, 0.2], q_min=[0.0]), "q_min"),
    (lambda: kl.ik_newton("arm", T_OK, [0.1, 0.2]), "robot"),
    (lambda: kl.ik_newton(ARM2, T_OK, [0.1, 0.2], nullspace_gradient=3.0), "nullspace_gradient"),
    (lambda: kl.ik_two_link([1.0], 1.0, 1.0), "target"),
    (lambda: kl.ik_two_link([1.0, 0.0], -1.0, 1.0), "L1"),
    (lambda: kl.ik_two_link([1.0, 0.0], 1.0, 1.0, elbow="left"), "elbow"),
    (lambda: kl.ik_two_link([1.0, 0.0], 1.0, 1.0, q_current=[np.nan, 0.0]), "q_current"),
    (lambda: kl.dls_step(np.eye(2), [1.0, 2.0, 3.0], 0.1), "e"),
    (lambda: kl.pinv_step(np.ones(3), [1.0], 0.1), "J"),
    (lambda: kl.nullspace_motion(ARM3, [0.1, 0.2, 0.3], lambda q: q, steps=-1), "steps"),
    (lambda: kl.resolved_rate(ARM2, [0.1, 0.2], *circle(), 1.0, 0.0), "dt"),
    (lambda: kl.resolved_rate(ARM2, [0.1, 0.2], *circle(), 1.0, 0.01, Kp=-1.0), "Kp"),
    (lambda: kl.resolved_rate(ARM2, [0.1, 0.2], *circle(), 1.0, 0.01, task="planar_pose"), "task"),
    (lambda: kl.resolved_rate(ARM2, [0.1, 0.2], None, circle()[1], 1.0, 0.01), "x_des"),
    (lambda: kl.resolved_rate(ARM2, [0.1, 0.2], *circle(), 1.0, 0.01, integrator="rk45"), "integrator"),
])
def test_bad_input_raises_value_error_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        call()


def test_wrap_angle_range():
    a = np.linspace(-10, 10, 101)
    w = kl.wrap_angle(a)
    assert np.all(w > -np.pi) and np.all(w <= np.pi)
    np.testing.assert_allclose(np.cos(w), np.cos(a), atol=1e-12)
    np.testing.assert_allclose(np.sin(w), np.sin(a), atol=1e-12)


def test_random_ik_starts_lie_within_the_joint_limits():
    """Restart boxes: inside both limits; one finite limit (even beyond ±pi) gives a 2 pi window
    on its side of the limit; no limit gives [-pi, pi]."""
    from kinematics_lib.arms.ik import _start_box

    q_min = np.array([-1.0, 4.0, -np.inf, -np.inf])
    q_max = np.array([2.0, np.inf, -5.0, np.inf])
    lo, hi = _start_box(4, q_min, q_max)
    assert np.all(lo <= hi)
    assert np.all(lo >= np.where(np.isfinite(q_min), q_min, -np.inf))
    assert np.all(hi <= np.where(np.isfinite(q_max), q_max, np.inf))
    assert np.allclose(hi - lo, [3.0, 2 * np.pi, 2 * np.pi, 2 * np.pi])
