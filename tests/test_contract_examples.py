"""The examples of issue 7 ("what was measured on main"), one test each: every one now raises a
ValueError naming the argument, or returns an honest finite result. (The dynamics core's own
examples -- rnea/crba/aba with a zero quaternion, overflow, a massless chain -- belong to the
speed branch, issue 13; the malformed URDF files are in test_urdf_malformed.py.)"""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl


def test_integrate_adaptive_stops_on_a_nan_derivative():
    with pytest.raises(ValueError, match=r"f\(t, x\) returned a non-finite value"):
        kl.integrate_adaptive(lambda t, x: np.full(2, np.nan), [1.0, 2.0], 1.0, 0.1)


@pytest.mark.parametrize("n", [1e300, 10**12, 2.5, "3", None, True])
def test_random_tree_model_refuses_absurd_sizes(n):
    with pytest.raises(ValueError, match="^n_bodies must be an integer"):
        kl.random_tree_model(n, np.random.default_rng(0))


@pytest.mark.parametrize("fn", [kl.crm, kl.crf, kl.crf_bar])
def test_cross_product_matrices_refuse_nan(fn):
    with pytest.raises(ValueError, match="must contain only finite numbers"):
        fn([np.nan, 0, 0, 0, 0, 0])


def test_crf_bar_refuses_a_7_vector():
    with pytest.raises(ValueError, match=r"h must have shape \(6,\)"):
        kl.crf_bar(np.zeros(7))


@pytest.mark.parametrize("call", [lambda: kl.cross_motion(np.full(6, np.nan), np.zeros(6)),
                                  lambda: kl.cross_force(np.zeros(6), [np.inf, 0, 0, 0, 0, 0]),
                                  lambda: kl.apply_each(np.full((2, 6, 6), np.nan), np.zeros((2, 6))),
                                  lambda: kl.transform_inertia(np.full((6, 6), np.nan), np.eye(6))])
def test_spatial_algebra_refuses_nan(call):
    with pytest.raises(ValueError, match="finite"):
        call()


def test_semi_implicit_euler_step_checks_the_derivative_shape():
    with pytest.raises(ValueError, match=r"f\(t, x\) must return shape \(2,\)"):
        kl.semi_implicit_euler_step(lambda t, x: np.zeros(7), 0.0, np.array([1.0, 2.0]), 0.1)


def test_manipulability_of_an_empty_jacobian():
    with pytest.raises(ValueError, match="J must have at least one row"):
        kl.manipulability(np.zeros((0, 3)))


def test_degree_of_mobility_refuses_inf_but_allows_no_constraint():
    with pytest.raises(ValueError, match="C must contain only finite numbers"):
        kl.degree_of_mobility(np.full((2, 3), np.inf))
    assert kl.degree_of_mobility(np.zeros((0, 3))) == 3  # documented: an omnidirectional chassis


def test_wrap_angle_refuses_none_and_nan():
    for bad in (None, np.nan, [0.0, np.inf]):
        with pytest.raises(ValueError, match="^angle must"):
            kl.wrap_angle(bad)


def test_spatial_inertia_refuses_impossible_bodies():
    with pytest.raises(ValueError, match="I_com must be a physical rotational inertia"):
        kl.spatial_inertia(1, [0, 0, 0], -np.eye(3))
    with pytest.raises(ValueError, match="I_com must contain only finite numbers"):
        kl.spatial_inertia(1, [0, 0, 0], np.diag([1.0, np.inf, 1.0]))
    with pytest.raises(ValueError, match="R_AB must be a rotation matrix"):
        kl.motion_transform(2 * np.eye(3), [0, 0, 0])


def test_a_model_with_negative_mass_is_refused():
    m = kl.planar_chain_model([1.0, 1.0], [1.0, 1.0])
    inertia = m.inertia.copy()
    inertia[1] = -inertia[1]
    with pytest.raises(ValueError, match=r"inertia\[1\] must be a rigid body's spatial inertia: its mass"):
        kl.Model(name="bad", body_names=m.body_names, body_joint=m.body_joint, parent=m.parent,
                 joint_types=m.joint_types, axes=m.axes, T_tree=m.T_tree, inertia=inertia)
    with pytest.raises(ValueError, match="masses and inertias must be non-negative"):
        kl.planar_chain_model([1.0, 1.0], [1.0, -0.5])


def test_ik_two_link_status_is_honest_for_huge_inputs():
    res = kl.ik_two_link([1.0, 1.0], 1e300, 1e300)
    assert np.isfinite(res.position_error) and np.all(np.isfinite(res.q))
    assert res.converged == (res.position_error <= max(1e-3, 1e-9 * 2e300))
    far = kl.ik_two_link([1e300, 1e300], 1.0, 1.0)
    assert far.status == "unreachable" and not far.converged and np.isfinite(far.position_error)
    assert np.isclose(far.position_error, np.hypot(1e300, 1e300) - 2.0, rtol=1e-12)


@pytest.mark.parametrize("bad", [None, "anymal", kl.puma560()])
def test_model_given_as_none_or_a_string(bad):
    with pytest.raises(ValueError, match="^model must be a kinematics_lib Model"):
        kl.neutral_configuration(bad)
    with pytest.raises(ValueError, match="^model must be a kinematics_lib Model"):
        kl.random_configuration(bad, np.random.default_rng(0))


@pytest.mark.parametrize("bad", [None, "puma", kl.planar_chain_model([1.0], [1.0])])
def test_robot_given_as_none_or_a_string(bad):
    for fn in (kl.dh_frames, kl.dh_end_effector, kl.geometric_jacobian):
        with pytest.raises(ValueError, match="^robot must be a DHRobot"):
            fn(bad, [0.0, 0.0])


def test_huge_angles_stay_finite():
    R = kl.so3_exp([1e300, 0.0, 0.0])
    assert np.allclose(R.T @ R, np.eye(3)) and np.isclose(np.linalg.det(R), 1.0)
    T = kl.se3_exp([1.0, 0.0, 0.0, 0.0, 0.0, 1e300])
    assert np.all(np.isfinite(T))


def test_every_loop_is_bounded():
    f = lambda t, x: -x  # noqa: E731
    with pytest.raises(ValueError, match="t_final / dt must be at most"):
        kl.integrate_rk4(f, [1.0], 1e300, 0.1)
    with pytest.raises(ValueError, match="steps must be an integer in"):
        kl.nullspace_motion(kl.planar_arm([1.0, 0.8, 0.5]), [0.1, 0.2, 0.3], lambda q: -q, steps=10**12)
    with pytest.raises(ValueError, match="max_iterations must be an integer in"):
        kl.ik_newton(kl.planar_arm([1.0, 1.0]), kl.translation([1.0, 1.0, 0.0]), [0.1, 0.2],
                     task="planar_position", max_iterations=10**9)
    with pytest.raises(ValueError, match="starts must be an integer in"):
        kl.fit_dh(np.eye(4), starts=10**12)


def test_strings_are_not_symbols():
    with pytest.raises(ValueError, match="^angle must be a number or a sympy expression"):
        kl.sym_rot_x("abc")


def test_to_numeric_refuses_a_negative_mass():
    with pytest.raises(ValueError, match=r"params\['m1'\] must be positive"):
        kl.to_numeric(kl.double_pendulum_lagrangian(), {"m1": -1.0, "m2": 1.0, "l1": 1.0, "l2": 1.0, "g": 9.81})
