"""Malformed URDF files (tests/data/urdf_malformed/, one file per case): each raises a ValueError
that names the file, the link or joint, and the problem. Unsupported features are refused.
(Files that load with a warning -- impossible inertias, mimic joints, all joints fixed -- are in
tests/data/urdf_loadable/, see test_urdf_loadable.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import kinematics_lib as kl

DATA = Path(__file__).parent / "data" / "urdf_malformed"

#: file -> what the message must say after "<file>: " (a regular expression)
EXPECTED = {
    "two_parents": r"link 'l2': it has two parents \(joints 'j2' and 'j3'\).*closed loops are not supported",
    "duplicate_link": r"link 'l2': two <link> elements have this name",
    "duplicate_joint": r"joint 'j1': two <joint> elements have this name",
    "negative_mass": r"link 'l2': <mass value=-2> must be >= 0",
    "mass_missing": r"link 'l2': <inertial> has no <mass value=...>",
    "mass_without_value": r"link 'l2': <mass> needs the attribute value",
    "mass_not_a_number": r"link 'l2': <mass value='heavy'> must be 1 number",
    "inertia_missing": r"link 'l2': <inertial> has no <inertia ",
    "inertia_attribute_missing": r"link 'l2': <inertia> needs the attribute izz",
    "inertia_nan": r"link 'l2': <inertia ixx='nan'> must be finite numbers",
    "closed_loop": r"links \['l2', 'l3'\]: not connected to the root link 'base': they form a closed loop",
    "loop_through_root": r"links: there is no root link .* closed loops are not supported",
    "parent_missing": r"joint 'j2': it has no <parent link=...>",
    "child_missing": r"joint 'j2': it has no <child link=...>",
    "parent_without_link": r"joint 'j2': it has no <parent link=...>",
    "unknown_parent_link": r"joint 'j2': its parent link 'l9' is not a <link> of the file",
    "unknown_child_link": r"joint 'j3': its child link 'l9' is not a <link> of the file",
    "self_loop": r"joint 'j3': its parent and child are the same link 'l2'",
    "malformed_xml": r"empty or malformed XML \(mismatched tag",
    "empty": r"empty or malformed XML \(no element found",
    "not_a_robot": r"the root element must be <robot>, got <model>",
    "no_links": r"<robot>: it has no <link>",
    "two_roots": r"links: expected exactly one root link .* found \['base', 'l2', 'l3'\]",
    "xacro_expression": r"joint 'j2': <origin xyz='\$\{upper_length\} 0 0'> is a xacro expression left over: run xacro",
    "xacro_argument": r"joint 'j2': <origin xyz='\$\(arg x\) 0 0'> is a xacro expression left over: run xacro",
    "xacro_element": r"xacro:property 'length': <xacro:property> is a xacro element: xacro is not supported",
    "nan_in_xyz": r"joint 'j2': <origin xyz='0 nan 0'> must be finite numbers",
    "xyz_two_numbers": r"joint 'j2': <origin xyz='0.1 0.2'> must be 3 number\(s\), got 2",
    "rpy_not_a_number": r"joint 'j2': <origin rpy='0 zero 0'> must be 3 number",
    "inf_in_rpy": r"joint 'j2': <origin rpy='0 inf 0'> must be finite numbers",
    "inertial_origin_nan": r"link 'l2': <origin xyz='nan 0 0'> must be finite numbers",
    "axis_zero": r"joint 'j2': <axis xyz='0 0 0'> is not a direction",
    "axis_nan": r"joint 'j2': <axis xyz='0 nan 1'> must be finite numbers",
    "limit_lower_above_upper": r"joint 'j2': <limit lower=1.0 upper=-1.0>: lower must be <= upper",
    "limit_not_a_number": r"joint 'j2': <limit upper='max'> must be 1 number",
    "planar_joint": r"joint 'j2': unsupported type 'planar': planar joints are not supported",
    "floating_joint": r"joint 'j2': unsupported type 'floating': floating joints are not supported",
    "unknown_joint_type": r"joint 'j2': unsupported type 'ball': not a URDF joint type",
    "joint_without_type": r"joint 'j2': it has no type",
    "link_without_name": r"<link> number 4: it has no name",
    "joint_without_name": r"<joint> number 2: it has no name",
}


def test_every_file_has_an_expectation():
    files = {p.stem for p in DATA.glob("*.urdf")}
    assert files == set(EXPECTED), f"files without expectation: {files - set(EXPECTED)}; " \
                                   f"expectations without file: {set(EXPECTED) - files}"


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_malformed_file_is_refused(case):
    path = DATA / f"{case}.urdf"
    with pytest.raises(ValueError) as info:
        kl.load_urdf(path)
    message = str(info.value)
    assert message.startswith(f"{path.name}: "), message
    assert re.search(EXPECTED[case], message), message
    with pytest.raises(ValueError):
        kl.load_urdf(path, floating_base=True)


def _chain_urdf(n: int, inertial: bool = True) -> str:
    body = '<inertial><origin xyz="0.1 0 0"/><mass value="1"/><inertia ixx="0.01" iyy="0.02" izz="0.02" ' \
           'ixy="0" ixz="0" iyz="0"/></inertial>' if inertial else ""
    links = "".join(f'<link name="l{i}">{body if i else ""}</link>' for i in range(n + 1))
    joints = "".join(f'<joint name="j{i:05d}" type="revolute"><parent link="l{i}"/><child link="l{i + 1}"/>'
                     f'<origin xyz="0.2 0 0"/><axis xyz="0 0 1"/></joint>' for i in range(n))
    return f'<?xml version="1.0"?><robot name="chain">{links}{joints}</robot>'


def test_links_without_inertial_are_allowed(tmp_path):
    path = tmp_path / "massless.urdf"
    path.write_text(_chain_urdf(3, inertial=False))
    model = kl.load_urdf(path)
    assert model.nb == 3 and model.total_mass == 0.0


def test_a_deep_chain_needs_no_recursion(tmp_path):
    path = tmp_path / "deep.urdf"
    path.write_text(_chain_urdf(1500))
    model = kl.load_urdf(path)
    assert model.nb == 1500 and model.parent[-1] == 1498


def test_a_negligible_placeholder_inertia_is_accepted():
    """ANYmal's base link carries a 1e-6 dummy inertia (rank 1) merged with the real base inertia."""
    import pinocchio as pin

    model = kl.load_urdf(kl.anymal_b_urdf(), floating_base=True)
    reference = pin.buildModelFromUrdf(str(kl.anymal_b_urdf()), pin.JointModelFreeFlyer())
    assert model.frames["base_inertia"][0] == 0  # merged into the base body
    assert np.isclose(model.inertia[0, 0, 0], reference.inertias[1].mass, rtol=1e-12)


def test_path_must_be_a_path():
    for bad in (None, 3, ["a.urdf"]):
        with pytest.raises(ValueError, match="^path must be"):
            kl.load_urdf(bad)
    with pytest.raises(ValueError, match="^path must be an existing URDF file"):
        kl.load_urdf(DATA)
