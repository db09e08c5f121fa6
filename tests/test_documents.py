"""The documents' formulas as written (kinematics_lib.documents): each disagrees with the correct
library function exactly as its docstring says, and each validates its input like the rest.

Independent references: the correct functions of the maths layers (themselves checked against
Pinocchio, finite differences and identities elsewhere), and closed-form facts (determinants,
units, norms).
"""

from __future__ import annotations

import inspect
import math

import numpy as np
import re

import pytest
import sympy as sp

import kinematics_lib as kl
from kinematics_lib import documents


def test_every_document_function_cites_its_document_and_says_what_is_wrong():
    for module in (documents.doc000, documents.doc001, documents.doc002, documents.doc003, documents.doc004):
        assert module.__doc__ and ".txt" in module.__doc__, f"{module.__name__} must name its document file"
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj):
                doc = inspect.getdoc(obj) or ""
                assert len(doc) > 80, f"{name}: the docstring must quote the claim and say what is wrong"


def test_every_fixed_function_is_registered():
    for ns in documents.NAMESPACES:
        for name in getattr(kl, ns).__all__:
            obj = getattr(getattr(kl, ns), name)
            if callable(obj) and "fixed" in inspect.signature(obj).parameters:
                assert f"{ns}.{name}" in kl.DOC_FIXES, f"{ns}.{name} takes fixed= but is not in its module's FIXES"


def test_the_documents_are_namespaces_not_flat_names():
    flat = [n for n in kl.__all__ if re.search(r"_doc\d{3}$|^DOC\d{3}_|_DOC\d{3}$", n)]
    assert not flat, f"document functions in kl.*: {flat} (they belong in kl.docNNN)"
    assert kl.doc000.rnea is not kl.rnea and kl.doc000.rnea.__module__ == "kinematics_lib.documents.doc000"
    assert kl.doc001.rnea is not kl.doc000.rnea


def test_doc_line_errors_refuses_other_functions():
    with pytest.raises(ValueError, match="doc_fn"):
        kl.doc_line_errors(kl.rnea, np.zeros(2))


# ---------------------------------------------------------------- chapter 1


def test_anymal_frame_is_left_handed_and_the_urdf_is_not():
    assert np.linalg.det(kl.doc000.anymal_frame()) == pytest.approx(-1.0)
    with pytest.raises(ValueError):
        kl.transform_from_xyz_rpy([0, 0, 0], [0, 0, 0]) @ kl.make_transform(kl.doc000.anymal_frame(), np.zeros(3))


def test_floating_base_dimensions_versus_the_quaternion_model():
    model = kl.load_urdf(kl.anymal_b_urdf(), floating_base=True)
    n = len(model.joint_names)
    assert kl.doc000.floating_base_dims(n) == (18, 18)
    assert (model.nq, model.nv) == (n + 7, n + 6)
    for bad in (-1, 2.5, float("nan"), "twelve", True):
        with pytest.raises(ValueError, match="n_joints"):
            kl.doc000.floating_base_dims(bad)


def test_zmp_formula_is_off_by_the_mass():
    z, m, xdd = 1.0, 50.0, 2.0
    assert kl.doc000.zmp_cmp_offset(z, m, xdd) * m == pytest.approx(-z / 9.81 * xdd)
    assert kl.doc000.zmp_cmp_offset(z, m, [xdd, 0.0]).shape == (2,)
    with pytest.raises(ValueError, match="mass"):
        kl.doc000.zmp_cmp_offset(z, -1.0, xdd)
    with pytest.raises(ValueError, match="pdd_com"):
        kl.doc000.zmp_cmp_offset(z, m, [1.0, 2.0, 3.0])


def test_friction_pyramid_contains_the_cone():
    mu, rng = 0.5, np.random.default_rng(0)
    A = kl.doc000.friction_pyramid(mu)
    for _ in range(200):  # every force inside the cone is inside the pyramid ...
        t = rng.normal(size=2)
        f = np.r_[rng.uniform(0, 1) * mu * t / np.linalg.norm(t), 1.0]
        assert np.all(A @ f <= 1e-12)
    corner = np.array([mu, mu, 1.0])  # ... but not the other way round
    assert np.all(A @ corner <= 1e-12) and np.linalg.norm(corner[:2]) == pytest.approx(math.sqrt(2) * mu)
    with pytest.raises(ValueError, match="mu"):
        kl.doc000.friction_pyramid(0.0)


# ---------------------------------------------------------------- chapter 2


def test_dh_a_is_the_standard_matrix():
    rng = np.random.default_rng(1)
    for a, alpha, d, theta in rng.normal(size=(20, 4)):
        A = kl.doc002.dh_a(a, alpha, d, theta)
        assert np.allclose(A, kl.dh_standard(a, alpha, d, theta), atol=1e-14)
        assert not np.allclose(A, kl.dh_modified(a, alpha, d, theta))
    s = sp.symbols("a alpha d theta", real=True)
    assert sp.simplify(kl.doc002.sym_dh_a(*s) - kl.sym_dh_standard(*s)) == sp.zeros(4, 4)
    with pytest.raises(ValueError, match="theta"):
        kl.doc002.dh_a(0.1, 0.2, 0.3, float("inf"))
    with pytest.raises(ValueError, match="alpha"):
        kl.doc002.sym_dh_a(1, sp.nan, 0, 0)


def test_sdh_table_read_as_mdh_is_far_off():
    puma = kl.puma560()
    misread = kl.doc002.sdh_table_read_as_mdh(puma)
    q = np.random.default_rng(2).uniform(-1, 1, (50, 6))
    errors = [np.linalg.norm(kl.dh_end_effector(puma, x)[:3, 3] - kl.dh_end_effector(misread, x)[:3, 3]) for x in q]
    assert min(errors) > 0.05  # never "just an offset" that one could ignore
    assert np.ptp(errors) > 0.2  # and not a constant one either
    with pytest.raises(ValueError, match="robot"):
        kl.doc002.sdh_table_read_as_mdh(misread)


# ---------------------------------------------------------------- chapter 3


def test_kappa_threshold_depends_on_the_unit():
    puma = kl.DHRobot(a=[0.0, 0.4318, 0.0203, 0.0, 0.0, 0.0], alpha=[np.pi / 2, 0.0, -np.pi / 2, np.pi / 2, -np.pi / 2, 0.0],
                      d=[0.0, 0.0, 0.15005, 0.4318, 0.0, 0.0], theta=np.zeros(6))
    J = kl.geometric_jacobian(puma, [0.3, -0.5, 0.4, 0.8, -0.6, 0.2])
    J_mm = J * np.array([[1e3]] * 3 + [[1.0]] * 3)
    assert not kl.doc000.near_singular(J) and kl.doc000.near_singular(J_mm)
    with pytest.raises(ValueError, match="kappa_threshold"):
        kl.doc000.near_singular(J, -1.0)


def test_det_test_needs_a_square_jacobian():
    arm2 = kl.planar_arm([1.0, 0.7])
    assert kl.doc002.is_singular(kl.geometric_jacobian(arm2, [0.3, 0.0])[:2])
    assert not kl.doc002.is_singular(kl.geometric_jacobian(arm2, [0.3, 1.0])[:2])
    with pytest.raises(ValueError, match="square"):
        kl.doc002.is_singular(np.ones((2, 3)))


def test_reference_answer_calls_every_planar_3r_pose_singular():
    arm3 = kl.planar_arm([1.0, 0.8, 0.5])
    rng = np.random.default_rng(3)
    for q in rng.uniform(-np.pi, np.pi, (30, 3)):
        doc = kl.doc000.planar_3r_singularities(q)
        assert doc["singular"] and doc["wrist"]
    q = [0.4, 1.0, 0.0]  # links 2, 3 collinear: the answer's elbow singularity, regular in truth
    assert kl.doc000.planar_3r_singularities(q)["elbow"]
    for rows in ([0, 1], [0, 1, 5]):
        assert not kl.singularity_report(kl.geometric_jacobian(arm3, q)[rows]).singular
    with pytest.raises(ValueError, match="q"):
        kl.doc000.planar_3r_singularities([0.0, 1.0])


def test_stop_test_depends_on_the_unit():
    e = np.array([0.5e-6, 0, 0, 0, 0, 0.5e-6])
    assert kl.doc002.ik_converged(e)
    assert not kl.doc002.ik_converged(e * [1e3, 1e3, 1e3, 1, 1, 1])
    with pytest.raises(ValueError, match="dx"):
        kl.doc002.ik_converged([])


def test_nullspace_term_leaks_with_the_damped_inverse():
    rng = np.random.default_rng(4)
    for _ in range(10):
        J, z, lam = rng.normal(size=(2, 3)), rng.normal(size=3), 0.1
        exact = kl.doc000.nullspace_step(J, np.zeros(2), z)
        assert np.allclose(exact, kl.nullspace_projector(J) @ z, atol=1e-12)
        assert np.linalg.norm(J @ exact) < 1e-12
        damped = kl.doc000.nullspace_step(J, np.zeros(2), z, damping=lam)
        leak = lam**2 * np.linalg.solve(J @ J.T + lam**2 * np.eye(2), J @ z)
        assert np.allclose(J @ damped, leak, atol=1e-12) and np.linalg.norm(leak) > 1e-5
        dx = rng.normal(size=2)  # the task part is the damped step of dls_step
        assert np.allclose(kl.doc000.nullspace_step(J, dx, np.zeros(3), lam), kl.dls_step(J, dx, lam))
    with pytest.raises(ValueError, match="damping"):
        kl.doc000.nullspace_step(J, np.zeros(2), z, damping=-1.0)


# ---------------------------------------------------------------- chapter 4


def test_two_link_m11_of_document_002_is_right():
    assert sp.simplify(kl.two_link_lagrangian("middle").M[0, 0] - kl.doc002.two_link_m11()) == 0


def test_skew_check_of_document_000_fails_a_correct_model():
    num = kl.to_numeric(kl.two_link_lagrangian("end"), dict(m1=2.0, m2=1.0, l1=1.0, l2=1.0, g=9.81))
    ex = kl.doc004.two_link_example()
    Mdot = np.einsum("kij,k->ij", num.dM(ex["q"]), ex["qd"])
    C = num.C(ex["q"], ex["qd"])
    assert np.abs((Mdot - 2 * C) + (Mdot - 2 * C).T).max() < 1e-12  # skew: the model is right
    assert not kl.doc000.skew_check(Mdot, C)
    with pytest.raises(ValueError, match="C"):
        kl.doc000.skew_check(Mdot, np.ones((3, 3)))


def test_example_of_document_004_needs_g_981():
    ex = kl.doc004.two_link_example()
    for g, agrees in ((9.81, True), (9.8, False)):
        num = kl.to_numeric(kl.two_link_lagrangian("end"), dict(m1=ex["m1"], m2=ex["m2"], l1=ex["l1"], l2=ex["l2"], g=g))
        tau = kl.inverse_dynamics_lagrange(num, ex["q"], ex["qd"], ex["qdd"])
        assert np.allclose(tau, ex["tau"], atol=5e-7) == agrees
    ex["M"][0, 0] = -1.0  # a fresh dict every call
    assert kl.doc004.two_link_example()["M"][0, 0] == 5.0


# ---------------------------------------------------------------- chapter 5


def test_operation_count_of_document_000():
    assert kl.doc000.rnea_operations(10) == 870 < kl.ne_flops(10, kl.doc000.COSTS) < kl.ne_flops(10)
    with pytest.raises(ValueError, match="n_links"):
        kl.doc000.rnea_operations(-3)


def test_document_functions_refuse_a_model_that_is_not_one():
    for fn in (kl.doc000.rnea, kl.doc001.ne, kl.doc001.rnea, kl.doc000.aba):
        with pytest.raises(ValueError, match="model"):
            fn(None, [0.0], [0.0], [0.0])
    with pytest.raises(ValueError, match="arm"):
        kl.doc003.ne("arm", [0.0], [0.0], [0.0])
    with pytest.raises(ValueError, match="fixed"):
        kl.doc000.crba(kl.planar_chain_model([1.0, 1.0], [1.0, 1.0]), [0.0, 0.0], fixed="max")


# ---------------------------------------------------------------- chapter 9


def test_single_wheel_equation_of_document_002():
    layout = kl.mecanum_layout(0.2, 0.15, 0.076)
    rows = np.array([kl.doc002.wheel_row(w) for w in layout])
    H = kl.wheel_jacobian(layout)
    assert np.allclose(np.abs(rows[:, :2]) * math.sqrt(2), np.abs(H[:, :2]))  # cos(gamma) dropped
    assert np.allclose(rows[:, 2], math.hypot(0.2, 0.15) / 0.076)            # +L omega for every wheel
    assert np.allclose(np.sign(H[:, 2]), [-1, 1, -1, 1])                      # the true signs alternate
    with pytest.raises(ValueError, match="wheel"):
        kl.doc002.wheel_row((0.2, 0.15))


def test_matrix_of_document_002_needs_its_numbering():
    H_doc = kl.doc002.mecanum_matrix(0.2, 0.15, 0.076)
    assert np.allclose(H_doc, kl.mecanum_matrix(0.2, 0.15, 0.076))
    assert kl.single_wheel_check(H_doc).ok.all()
    assert not kl.single_wheel_check(H_doc, order=("FL", "FR", "RR", "RL")).ok.all()


def test_rollers_lose_traction_not_power():
    layout = kl.mecanum_layout(0.2, 0.15, 0.076)
    H, rng = kl.wheel_jacobian(layout), np.random.default_rng(5)
    tau, v = rng.normal(size=4), rng.normal(size=3)
    assert tau @ (H @ v) == pytest.approx((H.T @ tau) @ v)  # power in == power out
    assert kl.doc002.mecanum_efficiency(math.pi / 4) == pytest.approx(1 / math.sqrt(2))
    with pytest.raises(ValueError, match="gamma"):
        kl.doc002.mecanum_efficiency(math.pi / 2)
