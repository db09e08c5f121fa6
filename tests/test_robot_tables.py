"""Robot tables (issue 22, item 8): kl.panda() and kl.ur5(), the PUMA shoulder height, and IK
restarts.

Panda: the Robotics Toolbox's test value of its ETS Panda (fkine at q = (1.4, 0.2, 1.8, 0.7, 0.1,
3.1, 2.9), hand at Tz(0.103) Rz(-pi/4) from the flange), restated; and, where example-robot-data
is installed, its panda.urdf (panda_link8 = the flange) at random q. UR5: the zero pose from UR's
published lengths, the Robotics Toolbox's poses qz and qr (its tests give no fkine value, so the
expected poses are worked by hand from UR's table), and ur5_robot.urdf's tool0 (the same frame
turned by Rz(pi) about the base). Panda dynamics: kl.panda_arm() (Franka's URDF inertias) against
Pinocchio on example-robot-data's panda.urdf with the hand removed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import kinematics_lib as kl

sys.path.insert(0, str(Path(__file__).parent))
from test_urdf_example_robot_data import MISSING, ROBOTS  # noqa: E402


def test_panda_reproduces_the_robotics_toolbox_fkine_test():
    q = np.array([1.4, 0.2, 1.8, 0.7, 0.1, 3.1, 2.9])
    hand = kl.translation([0.0, 0.0, 0.103]) @ kl.make_transform(kl.rot_z(-np.pi / 4), np.zeros(3))
    expected = np.array([[-0.50827907, -0.57904589, 0.63746234, 0.44682295],
                         [0.83014553, -0.52639462, 0.18375824, 0.16168396],
                         [0.22915229, 0.62258699, 0.74824773, 0.96798113],
                         [0.0, 0.0, 0.0, 1.0]])
    assert np.allclose(kl.dh_end_effector(kl.panda(), q) @ hand, expected, atol=1e-8)


def test_panda_zero_pose_and_limits():
    robot = kl.panda()
    T = kl.dh_end_effector(robot, np.zeros(7))
    # stretched up: x = a4 - a5 + a7 ... = 0.088, z = 0.333 + 0.316 + 0.384 - 0.107 (flange pointing down)
    assert np.allclose(T[:3, 3], [0.088, 0.0, 0.333 + 0.316 + 0.384 - 0.107])
    assert robot.n == 7 and robot.convention == "modified" and np.all(robot.q_min < robot.q_max)


def _arm_only_panda_urdf(tmp_path: Path) -> Path:
    """example-robot-data's panda.urdf without the Franka Hand (hand, TCP and finger links/joints)."""
    import xml.etree.ElementTree as ET

    assert ROBOTS is not None, MISSING
    tree = ET.parse(ROBOTS / "panda_description/urdf/panda.urdf")
    root = tree.getroot()
    hand = {"panda_hand", "panda_hand_tcp", "panda_leftfinger", "panda_rightfinger"}
    for link in [e for e in root.findall("link") if e.get("name") in hand]:
        root.remove(link)
    for joint in [e for e in root.findall("joint") if e.find("child").get("link") in hand]:
        root.remove(joint)
    path = tmp_path / "panda_arm.urdf"
    tree.write(path)
    return path


def test_panda_dynamics_equal_pinocchio_on_franka_urdf(tmp_path):
    import pinocchio as pin  # pinned: fails, never skips, when missing
    ref = pin.buildModelFromUrdf(str(_arm_only_panda_urdf(tmp_path)))
    assert ref.nq == 7
    data = ref.createData()
    model = kl.dh_model(kl.panda_arm())
    rng = np.random.default_rng(22)
    for _ in range(10):
        q = rng.uniform(model.lower, model.upper)
        v, a = rng.normal(size=7), rng.normal(size=7)
        tau_ref = pin.rnea(ref, data, q, v, a)
        assert np.allclose(kl.rnea(model, q, v, a), tau_ref, rtol=0, atol=1e-10 * max(1.0, np.abs(tau_ref).max()))
        M_ref = pin.crba(ref, data, q)
        M_ref = np.triu(M_ref) + np.triu(M_ref, 1).T
        M = kl.crba(model, q)
        assert np.allclose(M, M_ref, rtol=0, atol=1e-10 * np.abs(M_ref).max())
        assert np.allclose(M, M.T, atol=1e-14) and np.linalg.eigvalsh(M).min() > 0  # SPD


def test_panda_arm_dynamics_identities():
    arm = kl.panda_arm()
    model = kl.dh_model(arm)
    assert arm.robot.convention == "modified" and arm.n == 7
    assert arm.masses.sum() == pytest.approx(16.062132, abs=1e-9)  # Franka's URDF, links 1..7
    rng = np.random.default_rng(7)
    q = rng.uniform(model.lower, model.upper)
    v, a = rng.normal(size=7), rng.normal(size=7)
    M = kl.crba(model, q)
    assert np.linalg.eigvalsh(M).min() > 0
    # RNEA is M(q) a + h(q, v)
    h = kl.rnea(model, q, v, np.zeros(7))
    assert np.allclose(kl.rnea(model, q, v, a), M @ a + h, atol=1e-10)
    # the model's tool frame is the DH table's flange
    assert np.allclose(kl.frame_placement(model, q, "tool"), kl.dh_end_effector(kl.panda(), q), atol=1e-12)


def test_ur5_zero_pose():
    T = kl.dh_end_effector(kl.ur5(), np.zeros(6))
    assert np.allclose(T[:3, 3], [-0.425 - 0.39225, -(0.10915 + 0.0823), 0.089159 - 0.09465])


# The Robotics Toolbox's UR5 poses qz and qr (models/DH/UR5.py; its tests assert no fkine value).
# Expected flange poses worked by hand from UR's table (a2 = -0.425, a3 = -0.39225, d1 = 0.089159,
# d4 = 0.10915, d5 = 0.09465, d6 = 0.0823): qz = Rx(pi/2) at (a2 + a3, -(d4 + d6), d1 - d5); qr =
# Rz(pi) * (the chain with q5 = 90 deg), the wrist turned so the flange axis points along +x.
UR5_RTB_POSES = [
    ("qz", np.zeros(6), np.array([[1.0, 0.0, 0.0, -0.81725],
                                  [0.0, 0.0, -1.0, -0.19145],
                                  [0.0, 1.0, 0.0, -0.005491],
                                  [0.0, 0.0, 0.0, 1.0]])),
    ("qr", np.radians([180.0, 0.0, 0.0, 0.0, 90.0, 0.0]), np.array([[0.0, 0.0, 1.0, 0.89955],
                                                                  [1.0, 0.0, 0.0, 0.10915],
                                                                  [0.0, 1.0, 0.0, -0.005491],
                                                                  [0.0, 0.0, 0.0, 1.0]])),
]


@pytest.mark.parametrize("name, q, expected", UR5_RTB_POSES, ids=[p[0] for p in UR5_RTB_POSES])
def test_ur5_at_the_robotics_toolbox_poses(name, q, expected):
    assert np.allclose(kl.dh_end_effector(kl.ur5(), q), expected, rtol=0, atol=1e-12)


def test_ur5_differs_from_the_toolbox_dh_model_only_in_d1():
    # the toolbox's DH UR5 writes d1 = 0.089459 m; kl follows UR (0.089159): the flange drops 0.3 mm
    robot = kl.ur5()
    assert robot.d[0] == 0.089159 and robot.convention == "standard"
    assert np.array_equal(robot.d[1:], [0.0, 0.0, 0.10915, 0.09465, 0.0823])
    assert np.array_equal(robot.a, [0.0, -0.425, -0.39225, 0.0, 0.0, 0.0])


def test_puma_shoulder_is_26_45_inches():
    assert kl.PUMA_SHOULDER_HEIGHT == pytest.approx(0.67183, abs=1e-6)
    assert kl.puma560().T_base[2, 3] == kl.PUMA_SHOULDER_HEIGHT


@pytest.mark.parametrize("name, path, frame, base", [
    ("panda", "panda_description/urdf/panda.urdf", "panda_link8", np.eye(4)),
    ("ur5", "ur_description/urdf/ur5_robot.urdf", "tool0", kl.make_transform(kl.rot_z(np.pi), np.zeros(3))),
])
def test_tables_match_the_urdfs(name, path, frame, base):
    import warnings

    assert ROBOTS is not None, MISSING
    robot = getattr(kl, name)()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kl.PhysicsWarning)  # the Panda's mimic finger
        model = kl.load_urdf(ROBOTS / path)
    rng = np.random.default_rng(0)
    for _ in range(5):
        q = rng.uniform(robot.q_min, robot.q_max)
        full = np.zeros(model.nq)
        full[:robot.n] = q
        assert np.allclose(kl.frame_placement(model, full, frame), base @ kl.dh_end_effector(robot, q), atol=1e-9)


def test_ik_restarts_find_a_solution_q0_misses_and_report_the_start():
    robot = kl.ur5()
    target = kl.dh_end_effector(robot, np.array([0.4, -1.2, 1.5, -0.6, 1.1, 0.3]))
    q0 = np.array([1.81, 2.54, -1.4, 0.23, -0.34, 2.59])  # far away: 15 steps from here are not enough
    alone = kl.ik_newton(robot, target, q0, max_iterations=15)
    assert not alone.converged and alone.start == 0
    res = kl.ik_newton(robot, target, q0, max_iterations=15, restarts=20, seed=3)
    assert res.converged and res.start > 0 and "random start" in res.message
    assert np.allclose(kl.dh_end_effector(robot, res.q)[:3, 3], target[:3, 3], atol=1e-3)
    again = kl.ik_newton(robot, target, q0, max_iterations=15, restarts=20, seed=3)
    assert again.start == res.start and np.array_equal(again.q, res.q)  # seeded: reproducible
    # the start it reports is the one it converged from
    direct = kl.ik_newton(robot, target, res.q_start, max_iterations=15)
    assert direct.converged and np.array_equal(direct.q, res.q)


def test_ik_restarts_report_the_best_when_none_converges():
    robot = kl.planar_arm([1.0, 1.0])
    res = kl.ik_newton(robot, kl.translation([5.0, 0.0, 0.0]), [0.3, 0.2], task="planar_position",
                       restarts=3, seed=1, max_iterations=30)
    assert not res.converged and "none of q0 and 3 random starts" in res.message
    # "the best": no start (q0 or a random one) ends nearer the target than the one returned,
    # and that start, solved alone, gives the same result
    rng = np.random.default_rng(1)
    starts = [np.array([0.3, 0.2])] + [rng.uniform(-np.pi, np.pi, 2) for _ in range(3)]
    finals = [kl.ik_newton(robot, kl.translation([5.0, 0.0, 0.0]), s, task="planar_position",
                           max_iterations=30).error_history[-1] for s in starts]
    assert res.error_history[-1] == min(finals)
    assert np.array_equal(res.q_start, starts[res.start])
