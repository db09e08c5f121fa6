"""Chapter 3 views: each returns a View whose figure and text follow the slider values, and
whose drawn geometry agrees with the maths (ellipse semi-axes = singular values, etc.)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.notebook.views import jacobians as vj
from kinematics_lib.notebook.widgets import View, interactive_view


def test_ellipse_view_text_and_figure_follow_the_first_slider():
    """What the browser test does: 5 steps right on the first slider change figure and text."""
    iv = interactive_view(vj.manipulability_ellipse_view, q2=(-3.1, 3.1, 0.05, 1.0), q1=(-3.1, 3.1, 0.05, 0.4))
    moved = vj.manipulability_ellipse_view(q2=1.0 + 5 * 0.05, q1=0.4)
    assert iv.initial.text != moved.text
    assert iv.initial.png() != moved.png()
    for word in ("sigma_1", "sigma_2", "w =", "kappa"):
        assert word in iv.initial.text


def test_ellipse_semi_axes_are_the_singular_values():
    L1, L2, q, scale = 1.0, 0.7, np.array([0.4, 1.0]), 0.5
    view = vj.manipulability_ellipse_view(q2=q[1], q1=q[0], L1=L1, L2=L2, scale=scale)
    ax = view.figure.axes[0]
    ellipse = next(line for line in ax.get_lines() if "rad/s" in str(line.get_label()))
    tip = kl.dh_end_effector(kl.planar_arm([L1, L2]), q)[:2, 3]
    r = np.hypot(ellipse.get_xdata() - tip[0], ellipse.get_ydata() - tip[1])
    s = np.linalg.svd(kl.geometric_jacobian(kl.planar_arm([L1, L2]), q)[:2], compute_uv=False)
    assert math.isclose(r.max(), scale * s[0], rel_tol=1e-3)
    assert math.isclose(r.min(), scale * s[1], rel_tol=1e-3)
    assert f"{s[0] * s[1]:.4f}" in view.text and f"{L1 * L2 * math.sin(q[1]):.4f}" in view.text


def test_ellipse_view_at_the_singularity_says_inf_not_nan():
    view = vj.manipulability_ellipse_view(q2=0.0)
    assert "inf" in view.text and "SINGULAR" in view.text and "nan" not in view.text.lower()


def test_singularity_map_finds_exactly_the_analytic_sets():
    grid, _, pose = vj.singularity_map((1.0, 0.8, 0.5), "planar_pose", n=37)
    assert {round(a, 12) for a, _ in pose} == {round(-np.pi, 12), 0.0, round(np.pi, 12)}
    assert len(pose) == 3 * len(grid)  # every q3
    _, _, position = vj.singularity_map((1.0, 0.8, 0.5), "planar_position", n=37)
    special = {-np.pi, 0.0, np.pi}
    assert len(position) == 9 and all(a in special and b in special for a, b in position)


def test_singularity_map_view_text():
    view = vj.singularity_map_view(n=25)
    assert isinstance(view, View)
    assert "any q3" in view.text and "q3 in {-pi, 0, pi}" in view.text


def test_pinv_blows_up_like_one_over_distance_and_dls_stays_bounded():
    q2s = np.array([1e-2, 1e-3, 1e-4])
    data = vj.pinv_vs_dls(q2s, dampings=(0.05,), speed=0.1)
    qdot = data["pinv"][0]
    np.testing.assert_allclose(qdot[1:] / qdot[:-1], 10.0, rtol=1e-2)
    np.testing.assert_allclose(data["pinv"][1], 0.0, atol=1e-9)  # pinv delivers the velocity
    assert np.all(data["dls 0.05"][0] <= 0.1 / (2 * 0.05) + 1e-12)
    assert np.all(data["dls 0.05"][1] > 0.09)  # ... DLS does not, along the lost direction
    assert "pinv" in vj.pinv_vs_dls_view().text


def test_ik_convergence_view_lists_every_run():
    arm = kl.planar_arm([1.0, 0.7])
    T = kl.dh_end_effector(arm, [0.5, 1.2])
    runs = {m: kl.ik_newton(arm, T, [0.1, 0.6], method=m, task="planar_position") for m in ("pinv", "dls")}
    view = vj.ik_convergence_view(runs)
    assert view.text.count("converged after") == 2


def test_nullspace_view_reports_tip_deviation_and_values():
    arm = kl.planar_arm([1.0, 0.8, 0.5])
    path = kl.nullspace_motion(arm, [0.3, 0.4, 0.5], lambda q: -q, steps=20)
    w = [kl.manipulability(kl.geometric_jacobian(arm, q)[:2]) for q in path]
    view = vj.nullspace_view(arm, path, w, value_label="w")
    assert "tip deviation" in view.text and f"{w[-1]:.4f}" in view.text


def test_drift_view_and_two_link_view():
    arm = kl.planar_arm([1.0, 0.7])
    c = np.array([1.0, 0.5])
    x = lambda t: c + 0.3 * np.array([np.cos(t), np.sin(t)])  # noqa: E731
    xd = lambda t: 0.3 * np.array([-np.sin(t), np.cos(t)])  # noqa: E731
    q0 = kl.ik_two_link(x(0.0), 1.0, 0.7).q
    runs = {f"Kp = {k:g}": kl.resolved_rate(arm, q0, x, xd, 2.0, 0.05, Kp=k) for k in (0.0, 5.0)}
    assert vj.drift_view(runs).text.count("max") == 2
    assert "unreachable" in vj.two_link_ik_view(x=2.0, y=0.5).text
    assert "converged" in vj.two_link_ik_view(x=1.2, y=0.6).text


@pytest.mark.parametrize("call, name", [
    (lambda: vj.manipulability_ellipse_view(q2=float("nan")), "q2"),
    (lambda: vj.manipulability_ellipse_view(scale=0.0), "scale"),
    (lambda: vj.singularity_map((1.0, 1.0, 1.0), "pose"), "task"),
])
def test_views_reject_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_planar_jacobians_match_the_geometric_jacobian():
    rng = np.random.default_rng(3)
    lengths = (1.0, 0.8, 0.5)
    Q = rng.uniform(-np.pi, np.pi, (5, 3))
    batch = vj.planar_jacobians(lengths, Q)
    for q, J in zip(Q, batch):
        assert np.allclose(J, kl.geometric_jacobian(kl.planar_arm(lengths), q)[[0, 1, 5]], atol=1e-12)
