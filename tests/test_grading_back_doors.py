"""No self-check can be passed through the library: for each check of every solution notebook,
the routes a student could take to its reference -- a model builder plus a generic algorithm, a
sibling function computing the same quantity, a batch call, a private module, a source
document's function with its ``fixed=`` corrections, Pinocchio -- are written as answer
functions and each must be refused ("calls the reference" / "calls the library"), while the
honest solution still passes.

The checks are not restated here: the solution notebooks run in this process (KL_QUICK=1, about
10 s) with ``check_function`` recording each call (answer, reference, inputs, options). The
table ROUTES must name every recorded check, so a new self-check without routes fails the test.
Each route must first compute the right answer without the gate (on the check's first inputs),
so a route that is merely wrong cannot pass for a closed back door.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.dynamics import newton_euler_3d as ne
from kinematics_lib.notebook import benchmarking as bm
from kinematics_lib.notebook import checks

CHECK = checks.check_function   # the real one: the fixture below records the notebooks' calls
ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))
REFUSED = ("calls the reference", "calls the library")


@dataclass
class Check:
    key: str               # "<notebook number>:<checked name>"
    grade_id: str | None
    answer: object
    reference: object
    inputs: list
    options: dict
    result: object


@pytest.fixture(scope="module")
def recorded(monkeypatch_module):
    """{key: Check} of every check_function / check_value call of the solution notebooks."""
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch_module.setenv("KL_QUICK", "1")
    monkeypatch_module.delenv("NBGRADER_EXECUTION", raising=False)
    real = checks.check_function
    found: dict[str, Check] = {}
    where = {}

    def recording(answer, reference, inputs, **options):
        inputs = list(inputs)
        result = real(answer, reference, inputs, **options)
        key = f"{where['nb']}:{result.name}"
        assert key not in found, f"two checks named {key}"
        found[key] = Check(key, where["grade_id"], answer, reference, inputs, options, result)
        return result

    monkeypatch_module.setattr(checks, "check_function", recording)
    for path in SOLUTIONS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        namespace = {"__name__": "__main__"}
        where["nb"] = path.name[:2]
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "code":
                continue
            where["grade_id"] = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile("".join(cell["source"]), f"<{path.name} cell {i}>", "exec"), namespace)
    return found


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


# ---------------------------------------------------------------- the routes, chapter by chapter

# ch 2 -- DH link transforms, standard -> modified, gimbal
def dh_std_via_dispatcher(a, alpha, d, theta):
    return kl.dh_transform(a, alpha, d, theta, convention="standard")


def dh_std_via_one_row_robot(a, alpha, d, theta):
    return kl.dh_end_effector(kl.DHRobot(a=[a], alpha=[alpha], d=[d], theta=[0.0]), [theta])


def dh_std_via_sympy(a, alpha, d, theta):
    return np.array(kl.sym_dh_standard(a, alpha, d, theta), dtype=float)


def dh_std_via_modified_robot(a, alpha, d, theta):
    robot = kl.standard_to_modified(kl.DHRobot(a=[a], alpha=[alpha], d=[d], theta=[0.0]))
    return kl.dh_end_effector(robot, [theta])


def dh_mod_via_dispatcher(a, alpha, d, theta):
    return kl.dh_transform(a, alpha, d, theta, convention="modified")


def dh_mod_via_one_row_robot(a, alpha, d, theta):
    return kl.dh_end_effector(kl.DHRobot(a=[a], alpha=[alpha], d=[d], theta=[0.0], convention="modified"), [theta])


def dh_mod_via_sympy(a, alpha, d, theta):
    return np.array(kl.sym_dh_modified(a, alpha, d, theta), dtype=float)


def std_to_mod_reference(robot):
    return kl.standard_to_modified(robot)


def std_to_mod_via_module(robot):
    from kinematics_lib.arms import dh
    return dh.standard_to_modified(robot)


def gimbal_reference(p):
    return kl.gimbal_yaw_pitch(p)


def gimbal_via_module(p):
    from kinematics_lib.arms import gimbal
    return gimbal.gimbal_yaw_pitch(p)


# ch 3 -- Jacobian, singularity, DLS, Newton IK
def jac_via_dh_arm(q, L):
    return kl.geometric_jacobian(kl.planar_arm(L), q)[[0, 1, 5]]


def jac_via_chain_model(q, L):
    model = kl.planar_chain_model(L, [1.0, 1.0, 1.0])
    return kl.frame_jacobian(model, q, "tip")[[0, 1, 5]]


def jac_via_axes(q, L):
    arm = kl.planar_arm(L)
    z, p, T = kl.dh_joint_axes(arm, q)
    return kl.jacobian_from_axes(z, p, T[:3, 3], "RRR")[[0, 1, 5]]


def jac_via_finite_differences(q, L):
    arm = kl.planar_arm(L)

    return kl.numerical_jacobian(lambda x: kl.dh_end_effector(arm, x), q)[[0, 1, 5]]


def singular_via_report(q, L, task):
    rows = [0, 1, 5] if task == "pose" else [0, 1]
    return kl.singularity_report(kl.geometric_jacobian(kl.planar_arm(L), q)[rows]).singular


def singular_via_manipulability(q, L, task):
    rows = [0, 1, 5] if task == "pose" else [0, 1]
    model = kl.planar_chain_model(L, [1.0, 1.0, 1.0])
    return kl.manipulability(kl.frame_jacobian(model, q, "tip")[rows]) < 1e-9


def singular_via_document(q, L, task):
    J = kl.geometric_jacobian(kl.planar_arm(L), q)
    return kl.doc002.is_singular(J[[0, 1, 5]] if task == "pose" else J[:2] @ J[:2].T, tol=1e-12)


def dls_reference(q, target, L1, L2, damping):
    arm = kl.planar_arm([L1, L2])
    e = np.asarray(target) - kl.dh_end_effector(arm, q)[:2, 3]
    return np.asarray(q) + kl.dls_step(kl.geometric_jacobian(arm, q)[:2], e, damping)


def dls_via_own_formula_on_library_jacobian(q, target, L1, L2, damping):
    model = kl.planar_chain_model([L1, L2], [1.0, 1.0])
    J = kl.frame_jacobian(model, q, "tip")[:2]
    e = np.asarray(target) - kl.frame_placement(model, q, "tip")[:2, 3]
    return np.asarray(q) + J.T @ np.linalg.solve(J @ J.T + damping ** 2 * np.eye(2), e)


def newton_reference(target, q0, L1, L2):
    return kl.ik_two_link(target, L1, L2, q_current=q0).q


def newton_via_generic_ik(target, q0, L1, L2):
    arm = kl.planar_arm([L1, L2])
    T = np.eye(4)
    T[:2, 3] = target
    return kl.ik_newton(arm, T, q0, method="pinv", task="planar_position", tol_position=1e-12, max_step=10.0).q


def newton_via_closed_form(target, q0, L1, L2):
    sols = [kl.ik_two_link(target, L1, L2, elbow=e).q for e in ("up", "down")]
    return min(sols, key=lambda s: np.linalg.norm(kl.wrap_angle(s - q0)))


# ch 4 -- mass matrix, Christoffel symbols, RK4
E_INV = np.array([[1.0, 0.0], [-1.0, 1.0]])


def rods(m1, m2, l1, l2):
    return kl.planar_chain_model([l1, l2], [m1, m2], com=[l1 / 2, l2 / 2],
                                 inertias=[m1 * l1 ** 2 / 12, m2 * l2 ** 2 / 12])


def mass_via_crba(theta, m1, m2, l1, l2):
    return E_INV.T @ kl.crba(rods(m1, m2, l1, l2), E_INV @ theta) @ E_INV


def mass_via_rnea(theta, m1, m2, l1, l2):
    return E_INV.T @ kl.mass_matrix_by_rnea(rods(m1, m2, l1, l2), E_INV @ theta) @ E_INV


def mass_via_document(theta, m1, m2, l1, l2):
    return E_INV.T @ kl.doc000.crba(rods(m1, m2, l1, l2), E_INV @ theta, fixed=("max",)) @ E_INV


def mass_via_private_engine(theta, m1, m2, l1, l2):
    from kinematics_lib.dynamics import algorithms
    return E_INV.T @ algorithms._crba(rods(m1, m2, l1, l2), E_INV @ theta) @ E_INV


def christoffel_reference(dM, v):
    return kl.christoffel_matrix(dM, v)


def christoffel_via_module(dM, v):
    from kinematics_lib.dynamics import lagrange
    return lagrange.christoffel_matrix(dM, v)


def rk4_reference(t, x, h):
    return kl.rk4_step(_forced_pendulum, t, x, h)


def rk4_via_integrator(t, x, h):
    _, X = kl.integrate_rk4(lambda s, y: _forced_pendulum(s + t, y), x, h, h)
    return X[-1]


def rk4_via_fixed_step(t, x, h):
    _, X = kl.integrate_fixed_step(kl.rk4_step, lambda s, y: _forced_pendulum(s + t, y), x, h, h)
    return X[-1]


def _forced_pendulum(t, x):
    return np.array([x[1], -np.sin(x[0]) + np.cos(2.0 * t)])


# ch 5 -- operation counts, slopes, M^-1, inward pass
def flops_reference(n_links, costs):
    return ne.ne_flops(n_links, costs)


def flops_via_counts(n_links, costs):
    counts = ne.ne_operation_counts()
    return n_links * sum(counts[op] * costs[op] for op in costs)


def flops_via_table(n_links, costs):
    """The library's table of operations per line of the recursion, summed."""
    return n_links * sum(k * costs[op] for ops in kl.NE_LINE_OPS.values() for op, k in ops.items())


def slope_reference(n, t):
    return bm.fit_slope(n, t)


def slope_via_power_law(n, t):
    return bm.fit_power_law(n, t)[0]


def predicted_via_fit_slope(n, t):
    b, a = np.polyfit(n, t, 1, w=1.0 / t)
    return bm.fit_slope(n, a + b * n)


def predicted_via_power_law(n, t):
    b, a = np.polyfit(n, t, 1, w=1.0 / t)
    return bm.fit_power_law(n, a + b * n)[0]


def minv_via_crba(model, q):
    return np.linalg.inv(kl.crba(model, q))


def minv_via_rnea_columns(model, q):
    return np.linalg.inv(kl.mass_matrix_by_rnea(model, q))


def minv_via_batch_aba_of_crba(model, q):
    zero = np.zeros(model.nv)
    return np.linalg.solve(kl.crba(model, q[None])[0], np.eye(model.nv)) + 0 * kl.aba(model, q, zero, zero)[0]


def minv_via_document(model, q):
    """Document 000's ABA with its error fixed, column by column."""
    zero = np.zeros(model.nv)
    a0 = kl.doc000.aba(model, q, zero, zero, fixed=("p",))
    return np.column_stack([kl.doc000.aba(model, q, zero, e, fixed=("p",)) - a0 for e in np.eye(model.nv)])


def minv_via_private_engine(model, q):
    from kinematics_lib.dynamics import algorithms
    return np.linalg.inv(algorithms._crba(model, q))


def minv_via_pinocchio(model, q):
    import pinocchio as pin
    pmodel = bm.pinocchio_model(model)
    M = pin.crba(pmodel, pmodel.createData(), q)
    return np.linalg.inv(np.triu(M) + np.triu(M, 1).T)


def inward_reference(F, N, r, rc, z):
    return ne.ne_inward(F, N, r, rc, z)[2]


def inward_via_module_alias(F, N, r, rc, z):
    from kinematics_lib.dynamics.newton_euler_3d import ne_inward
    return ne_inward(F, N, r, rc, z, joint_types="R" * len(F))[2]


# ch 6 -- dimensions, momentum drift, ZMP, A_G, quaternion step
def dims_via_models(n_joints):
    rng = np.random.default_rng(n_joints)
    fixed = kl.random_tree_model(n_joints, rng)
    floating = kl.random_tree_model(n_joints + 1, rng, floating_base=True)
    return fixed.nv, floating.nv, floating.nq, kl.crba(floating, kl.neutral_configuration(floating)).shape[0]


def dims_via_chain(n_joints):
    fixed = kl.planar_chain_model([1.0] * n_joints, [1.0] * n_joints)
    floating = kl.random_tree_model(n_joints + 1, np.random.default_rng(0), floating_base=True)
    return fixed.nv, floating.nv, floating.nq, floating.nv


def drift_via_momentum(model, Q, V):
    h = kl.centroidal_momentum(model, Q, V)      # the batch call
    dh = h - h[0]
    return float(np.linalg.norm(dh[:, :3], axis=1).max()), float(np.linalg.norm(dh[:, 3:], axis=1).max())


def drift_via_private_engine(model, Q, V):
    from kinematics_lib.dynamics import centroidal
    h = np.array([centroidal._centroidal_momentum(model, q[None], v[None])[0] for q, v in zip(Q, V)])
    dh = h - h[0]
    return float(np.linalg.norm(dh[:, :3], axis=1).max()), float(np.linalg.norm(dh[:, 3:], axis=1).max())


def zmp_via_zmp(h, xdd, g):
    return float(kl.zmp([0.0, 0.0, h], [xdd, 0.0, 0.0], 50.0, g=g)[0])


def zmp_via_cmp(h, xdd, g):
    return float(kl.cmp([0.0, 0.0, h], [xdd, 0.0, 0.0], g=g)[0])


def zmp_via_document(h, xdd, g):
    return kl.doc000.zmp_stability_exercise_3_2(h, xdd, 1.0, g=g)[0]


def derived_zmp_via_zmp(p_com, a_com, mass, dL, g0):
    return kl.zmp(p_com, a_com, mass, dL, g=g0)


def derived_zmp_via_cmp(p_com, a_com, mass, dL, g0):
    # CMP plus the angular-momentum term: ZMP = CMP + (-dL_y, dL_x) / (m (g0 + z_ddot))
    return kl.cmp(p_com, a_com, g=g0) + np.array([-dL[1], dL[0]]) / (mass * (g0 + a_com[2]))


def derived_zmp_via_private(p_com, a_com, mass, dL, g0):
    # the module's private helper checks the state and returns g0 + z_ddot; the rest is the formula
    from kinematics_lib.dynamics import balance
    p, a, _, gz = balance._com_motion(p_com, a_com, g0)
    return p[:2] - p[2] * a[:2] / gz + np.array([-dL[1], dL[0]]) / (mass * gz)


def ag_reference(model, q):
    return kl.centroidal_momentum_matrix(model, q)


def ag_via_jacobians(model, q):
    return kl.centroidal_momentum_matrix_from_jacobians(model, q)


def ag_via_momentum_columns(model, q):
    return np.column_stack([kl.centroidal_momentum(model, q, e) for e in np.eye(model.nv)])


def ag_via_batch(model, q):
    return kl.centroidal_momentum_matrix(model, q[None])[0]


def ag_via_private_engine(model, q):
    from kinematics_lib.dynamics import centroidal
    return centroidal._centroidal_momentum_matrix(model, q[None])[0]


def quat_via_integrate(quat, omega, dt):
    free = kl.random_tree_model(1, np.random.default_rng(0), floating_base=True)
    return kl.integrate_configuration(free, np.r_[0.0, 0.0, 0.0, quat], np.r_[0.0, 0.0, 0.0, omega], dt)[3:]


def quat_via_exp_and_product(quat, omega, dt):
    out = kl.quat_multiply(quat, kl.matrix_to_quat(kl.so3_exp(np.asarray(omega) * dt)))
    out = out / np.linalg.norm(out)
    return out if out @ quat >= 0 else -out


def quat_via_pinocchio(quat, omega, dt):
    import pinocchio as pin
    model = pin.Model()
    model.addJoint(0, pin.JointModelFreeFlyer(), pin.SE3.Identity(), "base")
    out = pin.integrate(model, np.r_[0.0, 0.0, 0.0, quat], np.r_[0.0, 0.0, 0.0, omega] * dt)[3:]
    return out if out @ quat >= 0 else -out


# ch 7 -- friction pyramid, its error, KKT, LCP, force distribution
def pyramid_reference(mu, n_faces, inscribed):
    return kl.friction_pyramid(mu, n_faces, inscribed)


def pyramid_via_module(mu, n_faces, inscribed):
    from kinematics_lib.contact import cones
    return cones.friction_pyramid(mu, n_faces, inscribed)


def error_reference(n_faces, inscribed):
    return kl.pyramid_worst_case_error(n_faces, inscribed)


def error_via_tangential_limit(n_faces, inscribed):
    phi = np.linspace(0.0, 2.0 * np.pi, 20001)
    limit = kl.pyramid_tangential_limit(1.0, n_faces, inscribed, phi)
    return float(1.0 - limit.min()) if inscribed else float(limit.max() - 1.0)


def kkt_reference(M, h, J, Jdot_v, tau):
    return kl.kkt_dynamics(M, h, J, Jdot_v, tau)


def kkt_via_regularized(M, h, J, Jdot_v, tau):
    return kl.regularized_kkt_dynamics(M, h, J, Jdot_v, tau, damping=1e-12)


def kkt_via_projected(M, h, J, Jdot_v, tau):
    a = kl.projected_dynamics(M, h, J, Jdot_v, tau)
    lam = np.linalg.lstsq(J.T, M @ a + h - tau, rcond=None)[0]
    return a, lam


def lcp_reference(M, q):
    return kl.solve_lcp(M, q).z


def lcp_via_enumeration(M, q):
    return kl.solve_lcp_enumeration(M, q)[0]


def lcp_via_qp(M, q):
    return kl.lcp_by_qp(M, q)


def _slope(theta):
    n, t = np.array([-np.sin(theta), np.cos(theta)]), np.array([np.cos(theta), np.sin(theta)])
    return n[None, :], np.array([t, -t])


def box_lcp_via_contact_lcp(mass, theta, mu, v, dt):
    N, D = _slope(theta)
    return kl.contact_lcp(mass * np.eye(2), v, [0.0, -mass * 9.81], N, D, mu, dt)


def box_lcp_via_private_build(mass, theta, mu, v, dt):
    from kinematics_lib.contact import time_stepping

    N, D = _slope(theta)
    A, q, *_ = time_stepping._build(mass * np.eye(2), np.asarray(v, float), np.array([0.0, -mass * 9.81]), N, D,
                                    mu, dt, None, 0.0)
    return A, q


def box_step_via_contact_step(mass, theta, mu, v, dt):
    N, D = _slope(theta)
    return kl.contact_step(mass * np.eye(2), v, [0.0, -mass * 9.81], N, D, mu, dt).v_next


def box_step_via_qps(mass, theta, mu, v, dt):
    N, D = _slope(theta)
    return kl.contact_step_qp(mass * np.eye(2), v, [0.0, -mass * 9.81], N, D, mu, dt)[0]


def box_step_via_library_lcp(mass, theta, mu, v, dt):
    N, D = _slope(theta)
    A, q = kl.contact_lcp(mass * np.eye(2), v, [0.0, -mass * 9.81], N, D, mu, dt)
    z = kl.solve_lcp(A, q).z
    v_star = np.asarray(v, float) + dt * np.array([0.0, -9.81])
    return v_star + (N.T @ z[:1] + D.T @ z[1:3]) / mass


def l2_reference(points, wrench, weights):
    return kl.distribute_contact_forces(points, wrench, 10.0, None, "l2", weights)


def l2_via_module(points, wrench, weights):
    from kinematics_lib.contact import distribution
    return distribution.distribute_contact_forces(points, wrench, 10.0, None, "l2", weights)


def linf_reference(points, wrench, mu):
    return np.abs(kl.distribute_contact_forces(points, wrench, mu, 4, "linf")).max()


def linf_via_module(points, wrench, mu):
    from kinematics_lib.contact import distribution
    return np.abs(distribution.distribute_contact_forces(points, wrench, mu, 4, "linf")).max()


# ch 8 -- leg IK, three feet, zeros of M, force estimate
def leg_ik_reference(model, foot, p_base, q_ref):
    return kl.leg_ik(model, foot, p_base, q_ref).q


def leg_ik_via_module(model, foot, p_base, q_ref):
    from kinematics_lib.legged import leg_kinematics
    return leg_kinematics.leg_ik(model, foot, p_base, q_ref).q


def three_feet_reference(model, q, feet):
    return kl.static_equilibrium_forces(model, q, feet, mu=0.5)


def three_feet_via_pyramid(model, q, feet):
    return kl.static_equilibrium_forces(model, q, feet, mu=0.5, n_faces=4)


def three_feet_via_distribution(model, q, feet):
    P = np.array([kl.frame_placement(model, q, f)[:3, 3] for f in feet])
    weight = -model.total_mass * model.gravity[2]
    F = np.array([0.0, 0.0, weight])
    wrench = np.concatenate([F, np.cross(kl.center_of_mass(model, q), F)])
    return kl.distribute_contact_forces(P, wrench, 10.0, None, "l2")


def zeros_via_crba(model):
    q = kl.random_configuration(model, np.random.default_rng(0))
    return kl.crba(model, q) == 0.0


def zeros_via_private_engine(model):
    from kinematics_lib.dynamics import algorithms
    q = kl.random_configuration(model, np.random.default_rng(0))
    return algorithms._crba(model, q) == 0.0


def estimate_reference(model, q, feet, tau_measured):
    return kl.contact_force_estimate(model, q, feet, tau_measured)


def estimate_via_document(model, q, feet, tau_measured):
    J = kl.contact_jacobian(model, q, feet)[:, 6:]
    return -kl.doc000.contact_force_estimate(J, tau_measured, kl.gravity_torque(model, q)[6:]).reshape(len(feet), 3)


# ch 9 -- wheel row, chassis matrix, flipped wheel
def row_reference(x, y, theta, gamma, radius):
    return kl.wheel_row(kl.RollerWheel(x, y, radius, gamma, theta=theta))


def row_via_jacobian(x, y, theta, gamma, radius):
    return kl.wheel_jacobian([kl.RollerWheel(x, y, radius, gamma, theta=theta)] * 3, require_full_rank=False)[0]


def ccw_reference(a, b, R):
    return kl.mecanum_matrix(a, b, R)[[1, 0, 2, 3]]


def ccw_via_wheel_speeds(a, b, R):
    return np.column_stack([kl.mecanum_wheel_speeds(e, a, b, R) for e in np.eye(3)])[[1, 0, 2, 3]]


def ccw_via_layout(a, b, R):
    return kl.wheel_jacobian(kl.mecanum_layout(a, b, R))[[1, 0, 2, 3]]


def flipped_reference(poses, dt, v_cmd, half_length, half_width, wheel_radius):
    return kl.identify_flipped_wheel(poses, dt, v_cmd, half_length, half_width, wheel_radius)


def flipped_via_module(poses, dt, v_cmd, half_length, half_width, wheel_radius):
    from kinematics_lib.mobile import sign_check
    return sign_check.identify_flipped_wheel(poses, dt, v_cmd, half_length, half_width, wheel_radius)


# ch 10 -- JointPID update, PD gains, task-space inertia
def pid_via_document(err, dt, gravity_ff, i_term, prev_err, kp, ki, kd, i_limit):
    return kl.doc001.joint_pid_update(err, dt, gravity_ff, i_term, prev_err, kp, ki, kd, i_limit, fixed=("sign",))


def gains_reference(omega_n, zeta):
    return kl.pd_gains(omega_n, zeta)


def gains_via_module(omega_n, zeta):
    from kinematics_lib.control import model_based
    return model_based.pd_gains(omega_n, zeta)


def _arm(l1, l2, m1, m2):
    return kl.TwoLinkArm(l1=l1, l2=l2, m1=m1, m2=m2)


def lambda_via_arm_methods(q1, q2, l1, l2, m1, m2):
    arm, q = _arm(l1, l2, m1, m2), np.array([q1, q2])
    return kl.task_space_inertia(arm.mass_matrix(q), arm.jacobian(q))


def lambda_via_model_and_crba(q1, q2, l1, l2, m1, m2):
    """The issue's route: the arm's model builder and the generic CRBA, Λ written by hand."""
    arm, q = _arm(l1, l2, m1, m2), np.array([q1, q2])
    model = arm.model()
    J = kl.frame_jacobian(model, q, model.body_names[-1])
    T = kl.frame_placement(model, q, model.body_names[-1])
    J_tip = J[:3] - kl.skew(np.r_[arm.tip(q), 0.0] - T[:3, 3]) @ J[3:]
    J_tip = J_tip[:2]
    return np.linalg.inv(J_tip @ np.linalg.solve(kl.crba(model, q), J_tip.T))


def lambda_via_model_and_aba(q1, q2, l1, l2, m1, m2):
    """M^-1 from ABA columns (chapter 5's exercise) on the arm's model, J from the arm."""
    arm, q = _arm(l1, l2, m1, m2), np.array([q1, q2])
    model, zero = arm.model(), np.zeros(2)
    a0 = kl.aba(model, q, zero, zero)
    M_inv = np.column_stack([kl.aba(model, q, zero, e) - a0 for e in np.eye(2)])
    J = arm.jacobian(q)
    return np.linalg.inv(J @ M_inv @ J.T)


def lambda_via_operational_space_terms(q1, q2, l1, l2, m1, m2):
    arm, q = _arm(l1, l2, m1, m2), np.array([q1, q2])
    return kl.operational_space_terms(arm.mass_matrix(q), arm.jacobian(q), np.zeros(2), np.zeros(2), np.zeros(2)).Lambda


def lambda_via_chain_model(q1, q2, l1, l2, m1, m2):
    model = kl.planar_chain_model([l1, l2], [m1, m2])
    q = np.array([q1, q2])
    J = kl.frame_jacobian(model, q, "tip")[:2]
    return np.linalg.inv(J @ np.linalg.solve(kl.crba(model, q), J.T))


def lambda_via_pinocchio(q1, q2, l1, l2, m1, m2):
    """Pinocchio only: the arm built joint by joint, its CRBA and the tip frame's Jacobian."""
    import pinocchio as pin
    model = pin.Model()
    j1 = model.addJoint(0, pin.JointModelRZ(), pin.SE3.Identity(), "j1")
    model.appendBodyToJoint(j1, pin.Inertia(m1, np.array([l1, 0.0, 0.0]), np.zeros((3, 3))), pin.SE3.Identity())
    j2 = model.addJoint(j1, pin.JointModelRZ(), pin.SE3(np.eye(3), np.array([l1, 0.0, 0.0])), "j2")
    model.appendBodyToJoint(j2, pin.Inertia(m2, np.array([l2, 0.0, 0.0]), np.zeros((3, 3))), pin.SE3.Identity())
    tip = model.addFrame(pin.Frame("tip", j2, pin.SE3(np.eye(3), np.array([l2, 0.0, 0.0])), pin.FrameType.OP_FRAME))
    data, q = model.createData(), np.array([q1, q2])
    M = pin.crba(model, data, q)
    M = np.triu(M) + np.triu(M, 1).T
    pin.computeJointJacobians(model, data, q)
    pin.updateFramePlacements(model, data)
    J = pin.getFrameJacobian(model, data, tip, pin.LOCAL_WORLD_ALIGNED)[:2]
    return np.linalg.inv(J @ np.linalg.solve(M, J.T))


def lambda_point_via_arm():
    arm, q = _arm(1.0, 1.0, 2.0, 1.0), np.radians([30.0, 60.0])
    return kl.task_space_inertia(arm.mass_matrix(q), arm.jacobian(q))


# ch 10 -- impedance law, -3 dB bandwidth, critical delay
def impedance_via_controller(q, v, x_d, K, D):
    return kl.impedance_controller(kl.TwoLinkArm(), x_d, K, D)(0.0, q, v)


def impedance_via_module(q, v, x_d, K, D):
    from kinematics_lib.control import interaction
    return interaction.impedance_controller(kl.TwoLinkArm(), x_d, K, D)(0.0, q, v)


def impedance_via_arm_methods(q, v, x_d, K, D):
    arm = kl.TwoLinkArm()
    J = arm.jacobian(q)
    return J.T @ (K * (x_d - arm.tip(q)) - D * (J @ v)) + arm.gravity(q)


def impedance_via_model(q, v, x_d, K, D):
    """The arm's kl.Model: the tip frame's Jacobian and placement, gravity by RNEA."""
    model = kl.TwoLinkArm().model()
    J = kl.frame_jacobian(model, q, "tip")[:2]
    x = kl.frame_placement(model, q, "tip")[:2, 3]
    return J.T @ (K * (x_d - x) - D * (J @ v)) + kl.gravity_torque(model, q)


def impedance_via_document(q, v, x_d, K, D):
    """Document 001's snippet with a world-aligned J written by hand and the arm's gravity."""
    arm = kl.TwoLinkArm()
    J = arm.jacobian(q)
    return kl.doc001.cartesian_impedance(J, x_d - arm.tip(q), -(J @ v), np.full(2, K), np.full(2, D), arm.gravity(q))


def bandwidth_reference(omega_n, zeta):
    return kl.pd_loop_bandwidths(omega_n, zeta).minus_3db


def bandwidth_via_module(omega_n, zeta):
    from kinematics_lib.control import bandwidth
    return bandwidth.pd_loop_bandwidths(omega_n, zeta)[1]


def bandwidth_via_limits(omega_n, zeta):
    lim = kl.delay_bandwidth_limits(1.0, max(zeta, 1e-3))
    return omega_n * lim.minus_3db_hz / lim.natural_hz


def delay_reference(omega_n, zeta):
    return kl.critical_delay(omega_n, zeta)


def delay_via_module(omega_n, zeta):
    from kinematics_lib.control import interaction
    return interaction.critical_delay(omega_n, zeta)


def delay_via_limits(omega_n, zeta):
    return 2 * np.pi * kl.delay_bandwidth_limits(1.0, zeta).natural_hz / omega_n


def delay_via_crossover(omega_n, zeta):
    wc = kl.pd_loop_bandwidths(omega_n, zeta).crossover
    return np.arctan2(2 * zeta * wc, omega_n) / wc


def admittance_reference(F, M, D, K, t):
    return F / K * (1.0 + kl.error_dynamics_solution(-1.0, 0.0, K / M, D / M, t))


def admittance_via_module(F, M, D, K, t):
    from kinematics_lib.control import model_based
    return F / K * (1.0 + model_based.error_dynamics_solution(-1.0, 0.0, K / M, D / M, t))


def admittance_via_simulation(F, M, D, K, t):
    """The filter as a plant: a mass M under F - D v - K x, integrated by the library's ODE loop."""
    run = kl.simulate_continuous(kl.JointInertia(M), lambda tt, q, v: F - D * v - K * q, [0.0], [0.0], t[-1],
                                 t[1] - t[0])
    return run.q[:, 0]


# ch 11 -- Stribeck, LuGre, regressor, identification
def stribeck_reference(v, f_c, f_s, f_v, v_s, delta):
    return kl.stribeck_friction(v, f_c, f_s, f_v, v_s, delta)


def stribeck_via_module(v, f_c, f_s, f_v, v_s, delta):
    from kinematics_lib.identification import friction
    return friction.stribeck_friction(v, f_c, f_s, f_v, v_s, delta)


def lugre_force_via_class(z, v, sigma0, sigma1, sigma2, f_c, f_s, v_s):
    return kl.LuGre(sigma0, sigma1, sigma2, f_c, f_s, v_s).force(z, v)


def lugre_force_via_rate(z, v, sigma0, sigma1, sigma2, f_c, f_s, v_s):
    model = kl.LuGre(sigma0, sigma1, sigma2, f_c, f_s, v_s)
    return sigma0 * z + sigma1 * model.z_rate(z, v) + sigma2 * v


def lugre_force_via_document(z, v, sigma0, sigma1, sigma2, f_c, f_s, v_s):
    g = lambda u: f_c + (f_s - f_c) * np.exp(-(u / v_s) ** 2)   # noqa: E731 (the document needs g)
    return sigma0 * z + sigma1 * kl.doc001.lugre(z, v, sigma0, g) + sigma2 * v


def lugre_steady_via_class(v, sigma2, f_c, f_s, v_s):
    return kl.LuGre(1e4, 0.0, sigma2, f_c, f_s, v_s).steady_state(v)


def lugre_steady_via_stribeck(v, sigma2, f_c, f_s, v_s):
    return kl.stribeck_friction(v, f_c, f_s, sigma2, v_s, 2.0)


def _unit_masses(l1, l2, g):
    return kl.planar_chain_model([l1, l2], [1.0, 1.0], gravity=(0.0, -g, 0.0))


def regressor_via_library_regressor(q, v, a, l1, l2, g):
    model = _unit_masses(l1, l2, g)
    Y, unit = kl.joint_torque_regressor(model, q, v, a), kl.inertial_parameters(model)
    return np.column_stack([Y[:, 10 * i:10 * i + 10] @ unit[10 * i:10 * i + 10] for i in range(2)])


def regressor_via_rnea(q, v, a, l1, l2, g):
    """tau is linear in the masses: a column is the change of RNEA's torque per kilogram."""
    def tau(m1, m2):
        return kl.rnea(kl.planar_chain_model([l1, l2], [m1, m2], gravity=(0.0, -g, 0.0)), q, v, a)
    return np.column_stack([tau(2.0, 1.0) - tau(1.0, 1.0), tau(1.0, 2.0) - tau(1.0, 1.0)])


def regressor_via_crba_and_nonlinear_effects(q, v, a, l1, l2, g):
    def tau(m1, m2):
        model = kl.planar_chain_model([l1, l2], [m1, m2], gravity=(0.0, -g, 0.0))
        return kl.crba(model, q) @ a + kl.nonlinear_effects(model, q, v)
    return np.column_stack([tau(2.0, 1.0) - tau(1.0, 1.0), tau(1.0, 2.0) - tau(1.0, 1.0)])


def regressor_via_documents(q, v, a, l1, l2, g):
    """Documents 000 and 001's RNEA with every error fixed (one per column, to use both)."""
    def model(m1, m2):
        return kl.planar_chain_model([l1, l2], [m1, m2], gravity=(0.0, -g, 0.0))
    tau0 = [kl.doc000.rnea(model(1.0, 1.0), q, v, a, fixed=("z", "F", "n")),
            kl.doc001.rnea(model(1.0, 1.0), q, v, a, fixed=("R", "omega", "alpha", "a_c", "f", "n"))]
    return np.column_stack([kl.doc000.rnea(model(2.0, 1.0), q, v, a, fixed=("z", "F", "n")) - tau0[0],
                            kl.doc001.rnea(model(1.0, 2.0), q, v, a,
                                           fixed=("R", "omega", "alpha", "a_c", "f", "n")) - tau0[1]])


def regressor_via_two_link_arm(q, v, a, l1, l2, g):
    def tau(m1, m2):
        return kl.TwoLinkArm(l1=l1, l2=l2, m1=m1, m2=m2, g=g).inverse_dynamics(q, v, a)
    return np.column_stack([tau(2.0, 1.0) - tau(1.0, 1.0), tau(1.0, 2.0) - tau(1.0, 1.0)])


def _W(q, v, a, l1, l2, g):
    return np.array([regressor_via_library_regressor(q[k], v[k], a[k], l1, l2, g) for k in range(len(q))])


def identify_via_library(q, v, a, tau, sigma, l1, l2, g):
    return kl.identify_parameters(_W(q, v, a, l1, l2, g), tau, weights=1.0 / np.asarray(sigma) ** 2).params


def identify_via_own_lstsq_on_library_regressor(q, v, a, tau, sigma, l1, l2, g):
    W = _W(q, v, a, l1, l2, g) / np.asarray(sigma)[None, :, None]
    return np.linalg.lstsq(W.reshape(-1, 2), (np.asarray(tau) / sigma).reshape(-1), rcond=None)[0]


def identify_via_document(q, v, a, tau, sigma, l1, l2, g):
    s = np.asarray(sigma)
    W = _W(q, v, a, l1, l2, g) / s[None, :, None]
    return np.asarray(kl.doc001.identify(list(W), list(np.asarray(tau) / s), lam=0.0)[0], dtype=float)


def catch_and_retry(route):
    """The same route, but catching the refusal and calling it again (the gate is gone then)."""
    def answer(*args, **kwargs):
        try:
            return route(*args, **kwargs)
        except Exception:
            return route(*args, **kwargs)
    answer.__name__ = f"catch_and_retry({route.__name__})"
    return answer


ROUTES = {
    "02:dh_standard_mine": [dh_std_via_dispatcher, dh_std_via_one_row_robot, dh_std_via_sympy,
                            dh_std_via_modified_robot],
    "02:dh_modified_mine": [dh_mod_via_dispatcher, dh_mod_via_one_row_robot, dh_mod_via_sympy],
    "02:standard_to_modified_mine": [std_to_mod_reference, std_to_mod_via_module],
    "02:gimbal_angles_mine": [gimbal_reference, gimbal_via_module],
    "03:planar_3r_jacobian": [jac_via_dh_arm, jac_via_chain_model, jac_via_axes, jac_via_finite_differences],
    "03:is_singular_3r": [singular_via_report, singular_via_manipulability, singular_via_document],
    "03:dls_step_2r": [dls_reference, dls_via_own_formula_on_library_jacobian],
    "03:ik_2r_newton": [newton_reference, newton_via_generic_ik, newton_via_closed_form],
    "04:mass_matrix_absolute": [mass_via_crba, mass_via_rnea, mass_via_document,
                                mass_via_private_engine],
    "04:christoffel": [christoffel_reference, christoffel_via_module],
    "04:rk4_step_mine": [rk4_reference, rk4_via_integrator, rk4_via_fixed_step],
    "05:ne_flops_mine": [flops_reference, flops_via_counts, flops_via_table],
    "05:loglog_slope": [slope_reference, slope_via_power_law],
    "05:predicted_slope": [predicted_via_fit_slope, predicted_via_power_law],
    "05:inverse_mass_matrix": [minv_via_crba, minv_via_rnea_columns, minv_via_document, minv_via_batch_aba_of_crba,
                               minv_via_private_engine, minv_via_pinocchio],
    "05:inward_pass": [inward_reference, inward_via_module_alias],
    "06:dims_mine": [dims_via_models, dims_via_chain],
    "06:momentum_drift_mine": [drift_via_momentum, drift_via_private_engine],
    "06:zmp_shift_mine": [zmp_via_zmp, zmp_via_cmp, zmp_via_document],
    "06:zmp_mine": [derived_zmp_via_zmp, derived_zmp_via_cmp, derived_zmp_via_private],
    "06:centroidal_matrix_mine": [ag_reference, ag_via_jacobians, ag_via_momentum_columns, ag_via_batch,
                                  ag_via_private_engine],
    "06:quat_step_mine": [quat_via_integrate, quat_via_exp_and_product, quat_via_pinocchio],
    "07:friction_pyramid_mine": [pyramid_reference, pyramid_via_module],
    "07:pyramid_error_mine": [error_reference, error_via_tangential_limit],
    "07:kkt_mine": [kkt_reference, kkt_via_regularized, kkt_via_projected],
    "07:lcp2_mine": [lcp_reference, lcp_via_enumeration, lcp_via_qp],
    "07:box_lcp_mine": [box_lcp_via_contact_lcp, box_lcp_via_private_build],
    "07:box_step_mine": [box_step_via_contact_step, box_step_via_qps, box_step_via_library_lcp],
    "07:l2_equality_mine": [l2_reference, l2_via_module],
    "07:linf_value_mine": [linf_reference, linf_via_module],
    "08:leg_ik_mine": [leg_ik_reference, leg_ik_via_module],
    "08:three_feet_forces_mine": [three_feet_reference, three_feet_via_pyramid, three_feet_via_distribution],
    "08:mass_matrix_zeros_mine": [zeros_via_crba, zeros_via_private_engine],
    "08:force_estimate_mine": [estimate_reference, estimate_via_document],
    "09:wheel_row_mine": [row_reference, row_via_jacobian],
    "09:chassis_matrix_ccw": [ccw_reference, ccw_via_wheel_speeds, ccw_via_layout],
    "09:find_flipped_wheel": [flipped_reference, flipped_via_module],
    "10:joint_pid_update_mine": [pid_via_document],
    "10:pd_gains_mine": [gains_reference, gains_via_module],
    "10:task_inertia_mine": [lambda_via_arm_methods, lambda_via_model_and_crba, lambda_via_model_and_aba,
                             lambda_via_operational_space_terms,
                             lambda_via_chain_model, lambda_via_pinocchio],
    "10:Lambda at document 004's point": [lambda_point_via_arm],
    "10:impedance_torque_mine": [impedance_via_controller, impedance_via_module, impedance_via_arm_methods,
                                 impedance_via_model, impedance_via_document],
    "10:bandwidth_3db_mine": [bandwidth_reference, bandwidth_via_module, bandwidth_via_limits],
    "10:critical_delay_mine": [delay_reference, delay_via_module, delay_via_limits, delay_via_crossover],
    "10:admittance_step_mine": [admittance_reference, admittance_via_module, admittance_via_simulation],
    "11:stribeck_mine": [stribeck_reference, stribeck_via_module],
    "11:lugre_force_mine": [lugre_force_via_class, lugre_force_via_rate, lugre_force_via_document],
    "11:lugre_steady_state_mine": [lugre_steady_via_class, lugre_steady_via_stribeck],
    "11:mass_regressor_mine": [regressor_via_library_regressor, regressor_via_rnea,
                                regressor_via_crba_and_nonlinear_effects, regressor_via_documents,
                                regressor_via_two_link_arm],
    "11:identify_masses_mine": [identify_via_library, identify_via_own_lstsq_on_library_regressor,
                                identify_via_document],
}
CASES = [(key, route) for key, routes in ROUTES.items() for route in routes]


def test_every_self_check_has_routes_and_every_route_a_check(recorded):
    """A new self-check needs its routes here; a route whose check is gone must go too."""
    assert len(recorded) >= 40
    assert not set(recorded) - set(ROUTES), f"self-checks without routes in ROUTES: {set(recorded) - set(ROUTES)}"
    assert not set(ROUTES) - set(recorded), f"routes for checks that no longer exist: {set(ROUTES) - set(recorded)}"
    assert all(len(routes) >= 1 for routes in ROUTES.values())


@pytest.mark.parametrize("key", sorted(ROUTES))
def test_the_honest_solution_passes(recorded, key):
    check = recorded[key]
    assert check.result.passed, f"{key}: the solution does not pass its own check: {check.result.message}"


def _agrees(check: Check, route, n: int = 1) -> str | None:
    """None if the route gives the reference's answer (outside the gate) on the first inputs."""
    compare, rtol, atol = check.options.get("compare"), check.options.get("rtol", 1e-7), check.options.get("atol", 1e-9)
    for inp in check.inputs[:n]:
        args, kwargs = checks._split(inp)
        got, expected = route(*args, **kwargs), check.reference(*args, **kwargs)
        why = compare(got, expected) if compare else checks._compare(got, expected, max(rtol, 1e-6), max(atol, 1e-6))
        if why:
            return why
    return None


@pytest.mark.parametrize("key, route", CASES, ids=[f"{k}-{r.__name__}" for k, r in CASES])
def test_each_library_route_is_refused(recorded, key, route):
    check = recorded[key]
    why = _agrees(check, route)
    assert why is None, f"{key}: the route {route.__name__} is not a route to the answer ({why}): fix the route"
    for answer in (route, catch_and_retry(route)):
        # a refusal comes at the first input; two keep the slow checks (chapter 11) fast
        result = CHECK(answer, check.reference, check.inputs[:2], **check.options)
        assert not result.passed and result.answered, f"{key}: {answer.__name__} passes: {result.message}"
        assert any(r in result.message for r in REFUSED), f"{key}: {answer.__name__}: {result.message}"
    assert sys.getprofile() is None


@pytest.mark.parametrize("key", sorted(ROUTES))
def test_an_answer_that_calls_the_reference_is_refused(recorded, key):
    """What the nbgrader round trip's "library" student submits (tests/test_nbgrader_course.py,
    on a few notebooks there): an answer function that returns the check's own reference, for
    every self-check of every solution notebook."""
    check = recorded[key]

    def calls_the_reference(*args, **kwargs):
        return check.reference(*args, **kwargs)

    result = CHECK(calls_the_reference, check.reference, check.inputs[:2], **check.options)
    assert not result.passed and result.answered, f"{key}: {result.message}"
    assert REFUSED[0] in result.message, f"{key}: {result.message}"
