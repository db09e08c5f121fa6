"""URDF files that real robots contain and Pinocchio loads (issue 22, item 1), one small file per
case in tests/data/urdf_loadable/: an impossible vendor inertia (loaded as given with one
kl.PhysicsWarning; refused with strict=True), a mimic joint (an independent joint, one warning),
a robot whose joints are all fixed (nq = nv = 0, or one free body). Each is compared with Pinocchio.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import kinematics_lib as kl

DATA = Path(__file__).parent / "data" / "urdf_loadable"
INERTIA = {
    "inertia_not_psd": r"link 'l2': .*not positive semi-definite",
    "inertia_off_diagonal_not_psd": r"link 'l2': .*not positive semi-definite",
    "inertia_triangle": r"link 'l2': .*violate the triangle inequality",
}


def load(path, **kw):
    """(model, [PhysicsWarning messages])."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = kl.load_urdf(path, **kw)
    return model, [str(w.message) for w in caught if issubclass(w.category, kl.PhysicsWarning)]


def test_physics_warning_is_a_user_warning():
    assert issubclass(kl.PhysicsWarning, UserWarning) and "PhysicsWarning" in kl.__all__


@pytest.mark.parametrize("case", sorted(INERTIA))
def test_impossible_inertia_loads_with_one_warning(case):
    path = DATA / f"{case}.urdf"
    model, messages = load(path)
    assert len(messages) == 1
    assert messages[0].startswith(f"{path.name}: physically impossible inertias kept as given")
    assert re.search(INERTIA[case], messages[0]), messages[0]
    assert model.nv == 2


@pytest.mark.parametrize("case", sorted(INERTIA))
def test_impossible_inertia_is_refused_when_strict(case):
    path = DATA / f"{case}.urdf"
    for floating in (False, True):
        with pytest.raises(kl.InputError, match=rf"^{path.name}: link 'l2': <inertia> is not a physical inertia"):
            kl.load_urdf(path, floating_base=floating, strict=True)


@pytest.mark.parametrize("case", sorted(INERTIA))
def test_a_model_built_in_code_is_still_held_to_physics(case):
    """The loaded inertia, given to kl.Model by a user, is refused as before."""
    model, _ = load(DATA / f"{case}.urdf")
    fields = dict(name="copy", body_names=model.body_names, body_joint=model.body_joint, parent=model.parent,
                  joint_types=model.joint_types, axes=model.axes, T_tree=model.T_tree, inertia=model.inertia)
    with pytest.raises(kl.InputError, match=r"inertia\[1\] must be a rigid body's spatial inertia"):
        kl.Model(**fields)


def test_warnings_can_be_made_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error", kl.PhysicsWarning)
        with pytest.raises(kl.PhysicsWarning, match="inertia_triangle.urdf"):
            kl.load_urdf(DATA / "inertia_triangle.urdf")


def test_mimic_joint_is_an_independent_joint():
    path = DATA / "mimic.urdf"
    model, messages = load(path)
    assert model.joint_names == ("j1", "j2") and (model.nq, model.nv) == (2, 2)
    assert len(messages) == 1
    assert messages[0].startswith(f"{path.name}: mimic joints 'j2' (mimics 'j1') are loaded as independent joints")
    model, _ = load(path, strict=True)  # strict is about physics; a mimic joint is still loaded
    assert model.nv == 2


def test_all_fixed_robot_loads():
    path = DATA / "all_joints_fixed.urdf"
    model, messages = load(path)
    assert (model.nb, model.nq, model.nv) == (0, 0, 0) and not messages
    q = np.zeros(0)
    assert kl.rnea(model, q, q, q).shape == (0,) and kl.crba(model, q).shape == (0, 0)
    assert kl.aba(model, q, q, q).shape == (0,)
    assert np.allclose(kl.frame_placement(model, q, "l2")[:3, 3], [0.4, 0.0, 0.0])
    assert kl.frame_jacobian(model, q, "l2").shape == (6, 0)
    assert kl.rnea(model, np.zeros((3, 0)), np.zeros((3, 0)), np.zeros((3, 0))).shape == (3, 0)
    free = kl.load_urdf(path, floating_base=True)
    assert (free.nb, free.nq, free.nv) == (1, 7, 6) and np.isclose(free.total_mass, 2.0)
    # one free rigid body: M is its spatial inertia about the base origin
    q = kl.neutral_configuration(free)
    assert np.allclose(kl.crba(free, q), free.inertia[0])


@pytest.mark.parametrize("case", [*sorted(INERTIA), "mimic", "all_joints_fixed"])
@pytest.mark.parametrize("floating", [False, True], ids=["fixed", "floating"])
def test_agrees_with_pinocchio(case, floating):
    import pinocchio as pin  # pinned: fails, never skips, when missing
    path = str(DATA / f"{case}.urdf")
    ours, _ = load(path, floating_base=floating)
    ref = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()) if floating else pin.buildModelFromUrdf(path)
    assert (ours.nq, ours.nv) == (ref.nq, ref.nv)
    assert ours.joint_names == tuple(ref.names[2 if floating else 1:])
    data, rng = ref.createData(), np.random.default_rng(5)
    for _ in range(3):
        q = kl.random_configuration(ours, rng)
        v, a = rng.normal(size=ours.nv), rng.normal(size=ours.nv)
        tau = pin.rnea(ref, data, q, v, a)
        assert np.allclose(kl.rnea(ours, q, v, a), tau, rtol=1e-10, atol=1e-12 * max(1.0, np.abs(tau).max(initial=0)))
        M = pin.crba(ref, data, q)
        M = np.triu(M) + np.triu(M, 1).T
        assert np.allclose(kl.crba(ours, q), M, rtol=1e-10, atol=1e-14)
