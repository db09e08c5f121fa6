"""Leg IK and contact Jacobians (chapter 8) on ANYmal B and on generated quadrupeds.

References: forward kinematics (round trips), Pinocchio's frame Jacobians, finite differences
of the foot positions along the configuration manifold.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import kinematics_lib as kl

FEET = ("LF_FOOT", "LH_FOOT", "RF_FOOT", "RH_FOOT")


@pytest.fixture(scope="module")
def anymal():
    return kl.load_urdf(kl.anymal_b_urdf(), floating_base=True)


# ---------------------------------------------------------------- generated quadrupeds


def _rpy(rng, rotated: bool) -> np.ndarray:
    return rng.uniform(-math.pi, math.pi, 3) if rotated else np.zeros(3)


def _fmt(x) -> str:
    return " ".join(f"{v:.17g}" for v in x)


def _link(name: str, mass: float) -> str:
    return (f'<link name="{name}"><inertial><origin xyz="0.01 0.0 -0.02"/><mass value="{mass}"/>'
            f'<inertia ixx="0.01" iyy="0.012" izz="0.015" ixy="0" ixz="0" iyz="0"/></inertial></link>')


def _joint(name, kind, parent, child, xyz, R, axis=None) -> str:
    rpy = kl.matrix_to_rpy(R)
    ax = f'<axis xyz="{_fmt(axis)}"/><limit lower="-3.14" upper="3.14" effort="80" velocity="10"/>' if axis is not None else ""
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/><child link="{child}"/>'
            f'<origin xyz="{_fmt(xyz)}" rpy="{_fmt(rpy)}"/>{ax}</joint>')


def quadruped_urdf(path, rng, rotated: bool = True, haa_axis=(1.0, 0.0, 0.0)) -> str:
    """A random quadruped of the ANYmal leg structure: HAA about +-x of the base, HFE and KFE about
    a common axis perpendicular to it (any direction in the y-z plane), random offsets, and (if
    ``rotated``) joint frames rotated at random -- each axis given in its own rotated frame."""
    parts = ['<robot name="generated">', _link("base", 20.0)]
    for leg, (sx, sy) in {"LF": (1, 1), "LH": (-1, 1), "RF": (1, -1), "RH": (-1, -1)}.items():
        beta = rng.uniform(-0.5, 0.5) + (0.0 if rng.uniform() < 0.5 else math.pi)
        n_B = np.array([0.0, math.cos(beta), math.sin(beta)])
        u_B = np.array(haa_axis) * (1 if rng.uniform() < 0.5 else -1)
        R1 = kl.rpy_to_matrix(_rpy(rng, rotated))
        R2 = kl.rpy_to_matrix(_rpy(rng, rotated))
        R3 = kl.rpy_to_matrix(_rpy(rng, rotated))
        R4 = kl.rpy_to_matrix(_rpy(rng, rotated))
        R12 = R1 @ R2
        p1 = [sx * rng.uniform(0.2, 0.35), sy * rng.uniform(0.05, 0.15), rng.uniform(-0.05, 0.05)]
        p2 = R1.T @ [sx * rng.uniform(0.0, 0.08), sy * rng.uniform(0.02, 0.1), rng.uniform(-0.03, 0.03)]
        p3 = R12.T @ [rng.uniform(-0.05, 0.05), sy * rng.uniform(0.0, 0.1), -rng.uniform(0.2, 0.3)]
        p4 = (R12 @ R3).T @ [rng.uniform(-0.1, 0.1), sy * rng.uniform(-0.03, 0.03), -rng.uniform(0.25, 0.35)]
        parts += [_link(f"{leg}_HIP", 2.0), _link(f"{leg}_THIGH", 1.5), _link(f"{leg}_SHANK", 0.5),
                  _link(f"{leg}_FOOT", 0.1),
                  _joint(f"{leg}_HAA", "revolute", "base", f"{leg}_HIP", p1, R1, R1.T @ u_B),
                  _joint(f"{leg}_HFE", "revolute", f"{leg}_HIP", f"{leg}_THIGH", p2, R2, R12.T @ n_B),
                  _joint(f"{leg}_KFE", "revolute", f"{leg}_THIGH", f"{leg}_SHANK", p3, R3,
                         (R12 @ R3).T @ n_B * (1 if rng.uniform() < 0.5 else -1)),
                  _joint(f"{leg}_SHANK_TO_FOOT", "fixed", f"{leg}_SHANK", f"{leg}_FOOT", p4, R4)]
    parts.append("</robot>")
    path.write_text("\n".join(parts))
    return str(path)


@pytest.fixture(scope="module", params=[0, 1, 2])
def generated(request, tmp_path_factory):
    rng = np.random.default_rng(100 + request.param)
    path = quadruped_urdf(tmp_path_factory.mktemp("urdf") / "quadruped.urdf", rng, rotated=request.param > 0)
    return kl.load_urdf(path, floating_base=request.param != 1)


# ---------------------------------------------------------------- leg IK


def _base_position(model, q, foot) -> np.ndarray:
    """The foot position in the base frame from the full forward kinematics."""
    T = kl.frame_placement(model, q, foot)
    if not model.floating_base:
        return T[:3, 3]
    T_WB = kl.forward_kinematics(model, q)[0]
    return T_WB[:3, :3].T @ (T[:3, 3] - T_WB[:3, 3])


def _round_trips(model, n, seed):
    rng = np.random.default_rng(seed)
    worst_p, worst_q = 0.0, 0.0
    for foot in FEET:
        idx = list(kl.leg_geometry(model, foot).q_index)
        for k in range(n):
            q = kl.random_configuration(model, rng)
            p = _base_position(model, q, foot) if k < 50 else kl.leg_foot_position(model, foot, q[idx])
            res = kl.leg_ik(model, foot, p)
            assert res.converged and res.status == "converged", (foot, q[idx], res)
            q2 = q.copy()
            q2[idx] = res.q
            worst_p = max(worst_p, np.linalg.norm(_base_position(model, q2, foot) - p) if k < 50
                          else res.position_error)
            same = kl.leg_ik(model, foot, p, q_ref=q[idx])
            worst_q = max(worst_q, np.abs(same.q - q[idx]).max())
    return worst_p, worst_q


def test_leg_ik_round_trip_on_the_four_anymal_legs(anymal):
    worst_p, worst_q = _round_trips(anymal, 1000, seed=1)
    assert worst_p < 1e-9
    assert worst_q < 1e-6  # q_ref = q returns q itself (acos near a straight knee costs ~1e-8 rad)


def test_leg_ik_round_trip_on_generated_quadrupeds(generated):
    worst_p, worst_q = _round_trips(generated, 300, seed=2)
    assert worst_p < 1e-9 and worst_q < 1e-6


def test_leg_foot_position_is_the_forward_kinematics(anymal):
    rng = np.random.default_rng(3)
    for _ in range(20):
        q = kl.random_configuration(anymal, rng)
        for foot in FEET:
            idx = list(kl.leg_geometry(anymal, foot).q_index)
            assert np.allclose(kl.leg_foot_position(anymal, foot, q[idx]), _base_position(anymal, q, foot), atol=1e-12)


def test_leg_ik_returns_four_branches_that_all_reach(anymal):
    p = kl.leg_foot_position(anymal, "LF_FOOT", [0.1, 0.6, -1.1])
    res = kl.leg_ik(anymal, "LF_FOOT", p)
    assert len(res.solutions) == 4
    for s in res.solutions:
        assert np.linalg.norm(kl.leg_foot_position(anymal, "LF_FOOT", s) - p) < 1e-12
    assert len({tuple(np.round(kl.wrap_angle(s), 6)) for s in res.solutions}) == 4
    ref = np.array([0.1, 0.6, -1.1])
    nearest = min(res.solutions, key=lambda s: np.linalg.norm(s - ref))
    assert np.allclose(kl.leg_ik(anymal, "LF_FOOT", p, q_ref=ref).q, nearest)


def test_leg_ik_default_reference_is_the_middle_of_the_limits(anymal):
    p = kl.leg_foot_position(anymal, "RH_FOOT", [-0.2, -0.5, 1.0])
    res = kl.leg_ik(anymal, "RH_FOOT", p)
    assert np.allclose(res.q, kl.leg_ik(anymal, "RH_FOOT", p, q_ref=np.zeros(3)).q)  # limits +-9.42


@pytest.mark.parametrize("target", [[0.3, 0.1, -5.0], [0.277, 0.116, 0.0], [1e300, 0.0, 0.0], [0.3, 0.16, -0.02]])
def test_unreachable_targets_are_reported_without_nan(anymal, target):
    res = kl.leg_ik(anymal, "LF_FOOT", target)
    assert res.status == "unreachable" and not res.converged
    assert np.all(np.isfinite(res.q)) and math.isfinite(res.position_error) and res.position_error > 1e-3


def test_unreachable_far_target_points_the_leg_at_it(anymal):
    g = kl.leg_geometry(anymal, "LF_FOOT")
    target = g.p_BH + np.array([0.0, 0.1, -2.0])
    res = kl.leg_ik(anymal, "LF_FOOT", target)
    p = kl.leg_foot_position(anymal, "LF_FOOT", res.q)
    stretched = max(np.linalg.norm(kl.leg_foot_position(anymal, "LF_FOOT", s) - target) for s in res.solutions)
    assert res.position_error <= stretched and np.linalg.norm(p - target) == pytest.approx(res.position_error)


def test_leg_of_another_structure_is_refused(tmp_path):
    path = quadruped_urdf(tmp_path / "bad.urdf", np.random.default_rng(5), rotated=True, haa_axis=(0.0, 1.0, 0.0))
    model = kl.load_urdf(path, floating_base=True)
    with pytest.raises(ValueError, match="HAA"):
        kl.leg_ik(model, "LF_FOOT", [0.3, 0.1, -0.4])
    arm = kl.planar_chain_model([1.0, 1.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="three revolute joints"):
        kl.leg_ik(arm, "tip", [1.0, 0.0, 0.0])


def test_bad_input_names_the_argument(anymal):
    with pytest.raises(ValueError, match="foot"):
        kl.leg_ik(anymal, "LF_PAW", [0.3, 0.1, -0.4])
    with pytest.raises(ValueError, match="p_base"):
        kl.leg_ik(anymal, "LF_FOOT", [0.3, 0.1])
    with pytest.raises(ValueError, match="q_ref"):
        kl.leg_ik(anymal, "LF_FOOT", [0.3, 0.1, -0.4], q_ref=[0.0, np.nan, 0.0])
    q = kl.neutral_configuration(anymal)
    q[6] = 2.0
    with pytest.raises(ValueError, match="quaternion"):
        kl.contact_jacobian(anymal, q, FEET)
    with pytest.raises(ValueError, match="feet"):
        kl.contact_jacobian(anymal, kl.neutral_configuration(anymal), ["LF_FOOT", "LF_PAW"])


# ---------------------------------------------------------------- contact Jacobians


def test_contact_jacobian_stacks_the_frame_jacobians(anymal, generated):
    rng = np.random.default_rng(6)
    for model in (anymal, generated):
        for _ in range(5):
            q = kl.random_configuration(model, rng)
            J = kl.contact_jacobian(model, q, FEET)
            assert J.shape == (12, model.nv)
            for i, foot in enumerate(FEET):
                assert np.allclose(J[3 * i:3 * i + 3], kl.frame_jacobian(model, q, foot)[:3], atol=1e-12)


def test_contact_jacobian_against_finite_differences(anymal):
    rng = np.random.default_rng(7)
    q = kl.random_configuration(anymal, rng)
    J = kl.contact_jacobian(anymal, q, FEET)
    h = 1e-6
    feet = lambda qq: np.concatenate([kl.frame_placement(anymal, qq, f)[:3, 3] for f in FEET])
    J_fd = np.zeros_like(J)
    for k in range(anymal.nv):
        dv = np.zeros(anymal.nv)
        dv[k] = h
        J_fd[:, k] = (feet(kl.integrate_configuration(anymal, q, dv)) -
                      feet(kl.integrate_configuration(anymal, q, -dv))) / (2 * h)
    assert np.abs(J - J_fd).max() < 1e-8


def test_contact_jacobian_block_structure(anymal):
    """J_foot = [J_base, J_leg, 0]; J_base = [R, -[r]x R], the identity only at the base origin."""
    rng = np.random.default_rng(8)
    q = kl.random_configuration(anymal, rng)
    T_WB = kl.forward_kinematics(anymal, q)[0]
    R = T_WB[:3, :3]
    for foot in FEET:
        J = kl.contact_jacobian(anymal, q, foot)
        r = kl.frame_placement(anymal, q, foot)[:3, 3] - T_WB[:3, 3]
        S = np.array([[0, -r[2], r[1]], [r[2], 0, -r[0]], [-r[1], r[0], 0]])
        assert np.allclose(J[:, :6], np.hstack([R, -S @ R]), atol=1e-12)
        legs = list(kl.leg_geometry(anymal, foot).v_index)
        others = [k for k in range(6, 18) if k not in legs]
        assert np.all(J[:, others] == 0.0)


def test_contact_jacobian_against_pinocchio(anymal):
    import pinocchio as pin  # pinned: a missing Pinocchio fails, never skips
    ref = pin.buildModelFromUrdf(str(kl.anymal_b_urdf()), pin.JointModelFreeFlyer())
    data = ref.createData()
    rng = np.random.default_rng(9)
    for _ in range(4):
        q = kl.random_configuration(anymal, rng)
        pin.computeJointJacobians(ref, data, q)
        pin.framesForwardKinematics(ref, data, q)
        J_ref = np.vstack([pin.getFrameJacobian(ref, data, ref.getFrameId(f), pin.LOCAL_WORLD_ALIGNED)[:3]
                           for f in FEET])
        assert np.abs(kl.contact_jacobian(anymal, q, FEET) - J_ref).max() < 1e-12
