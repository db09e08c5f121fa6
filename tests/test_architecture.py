"""The package layout: layers import one way, the maths stays headless, the flat API stays.

``kinematics_lib.LAYERS`` lists the layers bottom to top; a module may import its own layer and
the layers before it (and ``kinematics_lib._validate``), never a later one. Only the notebook
layer may import matplotlib, ipywidgets or IPython. Imports inside functions count too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import kinematics_lib as kl

PACKAGE = Path(kl.__file__).parent
FRONTEND = ("matplotlib", "ipywidgets", "IPython", "ipykernel")

#: every public name of ``kl.__all__`` before the re-layout (issue 7): they must keep working
NAMES_BEFORE_LAYOUT = """
DHRobot GRAVITY IKResult LagrangianModel MECANUM_ORDER Model NumericLagrangian OdometryRun PUMA_SHOULDER_HEIGHT
ResolvedRateResult RollerWheel SignCheck SingularityReport aba absolute_to_relative adjoint aim_error anymal_b_urdf
apply_each axis_angle_to_matrix barrel_direction body_transforms center_of_mass centroidal_momentum
centroidal_momentum_matrix chassis_body_to_world chassis_twist chassis_world_to_body christoffel_C christoffel_matrix
condition_number coriolis_matrix count_calls crba crf crf_bar crm cross_force cross_motion degree_of_mobility
derive_lagrangian dh_end_effector dh_frames dh_joint_axes dh_modified dh_rule_residuals dh_standard dh_transform
dls_step double_pendulum_lagrangian double_pendulum_model double_pendulum_positions double_pendulum_source_lagrangian
euler_step fit_dh forward_dynamics_lagrange forward_kinematics frame_jacobian frame_names frame_placement
geometric_jacobian gimbal_rotation gimbal_yaw_pitch gravity_torque identify_flipped_wheel ik_newton ik_two_link
inertia_parts integrate_adaptive integrate_configuration integrate_euler integrate_fixed_step integrate_odometry
integrate_rk4 integrate_semi_implicit_euler inverse_dynamics_lagrange jacobian_from_axes jcalc joint_transform
joint_transforms kinetic_energy lagrange_ode load_urdf make_transform manipulability manipulability_gradient
mass_matrix_by_rnea matrix_to_axis_angle matrix_to_quat matrix_to_rpy max_chassis_force mecanum_layout
mecanum_matrix mecanum_wheel_speeds mechanical_energy modified_to_standard motion_transform neutral_configuration
no_slip_row nonlinear_effects nullspace_motion nullspace_projector numerical_jacobian odometry_error_rms
odometry_step odometry_twist pinv_step planar_arm planar_chain_model pose_error potential_energy puma560
quat_multiply quat_to_matrix random_configuration random_tree_model relative_to_absolute resolved_rate rk4_step
rnea roller_axis rot_x rot_y rot_z rpy_to_matrix se3_exp semi_implicit_euler_step simulate_odometry
single_wheel_check singularity_report skew so3_exp so3_log spatial_inertia standard_to_modified
symplectic_euler_lagrange task_rows to_numeric trajectory_separation transform_from_xyz_rpy transform_inertia
transform_inverse translation two_link_lagrangian vee wheel_ground_forces wheel_jacobian wheel_row wrap_angle
""".split()


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        yield path, ("kinematics_lib", *rel.with_suffix("").parts)


def _imports(path: Path, dotted: tuple) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file, relative ones resolved."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = dotted[:-1] if dotted[-1] != "__init__" else dotted[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                mod = ".".join(base + ((node.module,) if node.module else ()))
                if not node.module:  # from . import a, b: each name may be a module
                    found += [(node.lineno, f"{mod}.{alias.name}") for alias in node.names]
                    continue
            else:
                mod = node.module
            found.append((node.lineno, mod))
    return found


def _layer(dotted_name: str) -> str | None:
    parts = dotted_name.split(".")
    if parts[0] != "kinematics_lib" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in kl.LAYERS else None


def test_every_subpackage_is_a_layer():
    packages = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
    assert set(packages) == set(kl.LAYERS), f"sub-packages {packages} vs LAYERS {kl.LAYERS}"


@pytest.mark.parametrize("path,dotted", list(_modules()), ids=lambda x: str(x) if isinstance(x, tuple) else x.name)
def test_imports_point_down(path, dotted):
    own = _layer(".".join(dotted))
    rank = {name: k for k, name in enumerate(kl.LAYERS)}
    for line, target in _imports(path, dotted):
        if own != "notebook":
            assert target.split(".")[0] not in FRONTEND, \
                f"{path.relative_to(PACKAGE)}:{line} imports {target}: only the notebook layer may"
        if own is None:  # the top-level __init__ and _validate
            if dotted[-1] == "_validate":
                assert not target.startswith("kinematics_lib"), f"_validate must not import {target}"
            continue
        other = _layer(target)
        if other is not None:
            assert rank[other] <= rank[own], \
                f"{path.relative_to(PACKAGE)}:{line} ({own}) imports {target} ({other}), a higher layer"


def test_importing_the_library_stays_headless():
    code = ("import sys, kinematics_lib; bad = [m for m in sys.modules if m.split('.')[0] in "
            f"{FRONTEND!r}]; print(bad); sys.exit(1 if bad else 0)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, f"`import kinematics_lib` loaded {run.stdout.strip()} {run.stderr[-300:]}"


def test_flat_api_has_every_layer_name_and_no_duplicates():
    assert len(kl.__all__) == len(set(kl.__all__)), "a public name is exported by two modules"
    for layer in kl.LAYERS[:-1]:
        package = getattr(kl, layer)
        for name in package.__all__:
            assert getattr(kl, name) is getattr(package, name), f"kl.{name} is not {layer}.{name}"
            assert name in kl.__all__, f"{layer}.{name} is missing from kl.__all__"


def test_names_from_before_the_layout_keep_working():
    missing = [n for n in NAMES_BEFORE_LAYOUT if n not in kl.__all__]
    assert not missing, f"public names lost: {missing}"


def _private_reaches(path: Path, dotted: tuple) -> list[str]:
    """Every place the module reaches a private name of another package: ``from pkg.mod import _x``,
    ``from pkg import _mod``, ``import kinematics_lib.pkg._mod``, or ``mod._x`` on a module of another
    package bound by an import (``_validate`` is the library's shared checking module: allowed)."""
    own = _layer(".".join(dotted))
    tree = ast.parse(path.read_text(), filename=str(path))
    package = dotted[:-1]
    found, modules = [], {}

    def private(parts) -> bool:
        return any(p.startswith("_") and not p.startswith("__") for p in parts[2:])

    def other(target: str) -> bool:
        layer = _layer(target)
        return layer is not None and layer != own

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                mod = ".".join(base + ((node.module,) if node.module else ()))
            else:
                mod = node.module or ""
            for alias in node.names:
                target = f"{mod}.{alias.name}"
                if not other(target) or target == "kinematics_lib._validate":
                    continue
                if private(target.split(".")):
                    found.append(f"{node.lineno}: from {mod} import {alias.name}")
                else:
                    modules[alias.asname or alias.name] = target
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if other(alias.name) and private(alias.name.split(".")):
                    found.append(f"{node.lineno}: import {alias.name}")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
                and node.attr.startswith("_") and not node.attr.startswith("__")):
            found.append(f"{node.lineno}: {node.value.id}.{node.attr} ({modules[node.value.id]})")
    return found


@pytest.mark.parametrize("path,dotted", list(_modules()), ids=lambda x: str(x) if isinstance(x, tuple) else x.name)
def test_no_private_helper_is_imported_across_packages(path, dotted):
    """What two packages share is a public name of the lower layer (``geometry.kernels``,
    ``<package>.shared``, or a public function), never another package's private helper."""
    bad = _private_reaches(path, dotted)
    assert not bad, f"{path.relative_to(PACKAGE)} reaches private helpers of other packages: {bad}"


def test_the_private_import_check_can_fail(tmp_path):
    layer_dir = tmp_path / "kinematics_lib" / "control"
    layer_dir.mkdir(parents=True)
    bad = layer_dir / "x.py"
    bad.write_text("from ..geometry.spatial import _crm, crm\nfrom ..geometry import spatial\ny = spatial._crf\n"
                   "from ..control import _kernel\n")
    found = _private_reaches(bad, ("kinematics_lib", "control", "x"))
    assert [f.split(":")[0] for f in found] == ["1", "3"], found
