"""The URDF reader: structure, fixed-joint merging, frames, conventions, errors."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl

ARM = """<?xml version="1.0"?>
<robot name="arm">
  <link name="base"><inertial><mass value="5"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="upper"><inertial><origin xyz="0.2 0 0" rpy="0 0 0.3"/><mass value="2"/>
    <inertia ixx="0.01" iyy="0.02" izz="0.03" ixy="0.001" ixz="0" iyz="0"/></inertial></link>
  <link name="lower"><inertial><origin xyz="0.1 0 0"/><mass value="1"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="tool"><inertial><origin xyz="0 0 0.05"/><mass value="0.5"/>
    <inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="slider"><inertial><mass value="0.2"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder" type="continuous"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.5" rpy="0.1 0 0"/><axis xyz="0 0 1"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="lower"/>
    <origin xyz="0.4 0 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="2" effort="10" velocity="3"/></joint>
  <joint name="wrist_fixed" type="fixed"><parent link="lower"/><child link="tool"/><origin xyz="0.3 0 0" rpy="0 0.2 0"/></joint>
  <joint name="a_slide" type="prismatic"><parent link="upper"/><child link="slider"/>
    <origin xyz="0 0.1 0"/><axis xyz="1 0 0"/><limit lower="0" upper="0.2" effort="10" velocity="1"/></joint>
</robot>
"""


@pytest.fixture
def arm_file(tmp_path):
    path = tmp_path / "arm.urdf"
    path.write_text(ARM)
    return path


def test_structure_and_order(arm_file):
    model = kl.load_urdf(arm_file)
    assert model.joint_names == ("shoulder", "a_slide", "elbow")  # children in joint-name order
    assert model.joint_types == ("continuous", "prismatic", "revolute")
    assert (model.nq, model.nv) == (3, 3)
    assert model.parent == (-1, 0, 0)
    assert np.allclose(model.lower, [-np.inf, 0.0, -1.0]) and np.allclose(model.upper, [np.inf, 0.2, 2.0])


def test_fixed_joint_is_merged_into_a_frame(arm_file):
    model = kl.load_urdf(arm_file)
    assert np.isclose(model.total_mass, 2 + 1 + 0.5 + 0.2)  # the world-fixed base carries no dynamics
    body, T = model.frames["tool"]
    assert model.body_names[body] == "lower"
    q = np.array([0.4, 0.1, -0.7])
    T_tool = kl.frame_placement(model, q, "tool")
    assert np.allclose(T_tool, kl.frame_placement(model, q, "lower") @ T)
    assert model.frames["base"][0] == -1


def test_merged_inertia_keeps_centre_of_mass(arm_file):
    """The CoM of 'lower + tool' computed from the merged body equals the two-link average."""
    model = kl.load_urdf(arm_file)
    q = np.array([0.4, 0.1, -0.7])
    T_lower = kl.frame_placement(model, q, "lower")
    T_tool = kl.frame_placement(model, q, "tool")
    c_lower = T_lower[:3, :3] @ [0.1, 0, 0] + T_lower[:3, 3]
    c_tool = T_tool[:3, :3] @ [0, 0, 0.05] + T_tool[:3, 3]
    m, c, _ = kl.inertia_parts(model.inertia[model.body_names.index("lower")])
    assert np.isclose(m, 1.5)
    assert np.allclose(T_lower[:3, :3] @ c + T_lower[:3, 3], (1.0 * c_lower + 0.5 * c_tool) / 1.5)


def test_floating_base_conventions(arm_file):
    model = kl.load_urdf(arm_file, floating_base=True)
    assert (model.nq, model.nv) == (10, 9)
    assert model.joint_names == ("shoulder", "a_slide", "elbow")  # the base is not an actuated joint
    q = kl.neutral_configuration(model)
    assert np.allclose(q[3:7], [0, 0, 0, 1])
    assert np.isclose(model.total_mass, 5 + 2 + 1 + 0.5 + 0.2)


def test_continuous_joint_has_one_coordinate(arm_file):
    model = kl.load_urdf(arm_file)
    assert model.q_slice[0] == slice(0, 1)


@pytest.mark.parametrize("text, message", [
    ("<robot name='x'><link name='a'/><link name='b'/>"
     "<joint name='j' type='planar'><parent link='a'/><child link='b'/></joint></robot>", "unsupported type"),
    ("<robot name='x'><link name='a'/><link name='b'/></robot>", "exactly one root"),
    ("<model/>", "<robot>"),
])
def test_bad_files(tmp_path, text, message):
    path = tmp_path / "bad.urdf"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        kl.load_urdf(path)


def test_missing_file():
    with pytest.raises(ValueError, match="path"):
        kl.load_urdf("/nonexistent/robot.urdf")


def test_unknown_frame(arm_file):
    model = kl.load_urdf(arm_file)
    with pytest.raises(ValueError, match="frame"):
        kl.frame_placement(model, np.zeros(3), "nose")


def test_anymal_b_is_shipped_with_its_licence():
    path = kl.anymal_b_urdf()
    assert path.is_file()
    assert (path.parent / "LICENSE").read_text().startswith("Copyright")
    model = kl.load_urdf(path, floating_base=True)
    assert (model.nq, model.nv) == (19, 18)
    assert model.joint_names[:3] == ("LF_HAA", "LF_HFE", "LF_KFE")
    assert {"LF_FOOT", "LH_FOOT", "RF_FOOT", "RH_FOOT"} <= set(model.frames)
