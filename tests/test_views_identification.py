"""Chapter 11 views: they return Views whose text follows the sliders and agrees with the library."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.notebook.views import identification as vi
from kinematics_lib.notebook.widgets import View, interactive_view

LIMITS = dict(lower=[-2.5, -2.5], upper=[2.5, 2.5], qd_max=[2.0, 2.0])


@pytest.fixture(scope="module")
def arm_and_base():
    arm = kl.planar_chain_model([0.9, 0.7], [2.0, 1.5], com=[0.45, 0.35], inertias=[0.135, 0.06125])
    rng = np.random.default_rng(1)
    Q = np.array([kl.random_configuration(arm, rng) for _ in range(200)])
    base = kl.base_parameters(kl.joint_torque_regressor(arm, Q, rng.normal(size=(200, 2)), rng.normal(size=(200, 2))))
    return arm, base


def test_friction_view_prints_the_reference_values_and_follows_the_sliders():
    iv = interactive_view(vi.friction_models_view, f_s=(0.0, 3.0, 0.05, 1.5))
    assert "Stribeck 1.3919, LuGre steady 1.3919" in iv.initial.text
    assert "Stribeck 1.0192, LuGre steady 1.0192" in iv.initial.text
    moved = vi.friction_models_view(f_s=1.5 + 5 * 0.05)
    assert moved.text != iv.initial.text and moved.png() != iv.initial.png()
    assert f"Stribeck {kl.stribeck_friction(0.05, 1.0, 1.75, 0.05, 0.1):.4f}" in moved.text


def test_presliding_is_a_spring_for_small_and_a_coulomb_loop_for_large_motions():
    small, large = vi.presliding_view(amplitude=0.01), vi.presliding_view(amplitude=2.0)
    slope = lambda text: float(text.split("tau_f / x = ")[1].split()[0])  # noqa: E731
    assert slope(small.text) == pytest.approx(1e4, rel=0.05)  # sigma0
    assert slope(large.text) < 0.05 * 1e4
    assert "peak |tau_f| = 1.49" in large.text or "peak |tau_f| = 1.50" in large.text


def test_excitation_view_condition_number(arm_and_base):
    arm, base = arm_and_base
    one = vi.excitation_view(arm, base, **LIMITS, n_harmonics=1)
    five = vi.excitation_view(arm, base, **LIMITS, n_harmonics=5)
    cond = lambda text: float(text.split("cond(W) = ")[1])  # noqa: E731
    assert cond(one.text) > 100 * cond(five.text)
    assert "period 10.0 s, highest frequency 0.50 Hz" in five.text


def test_noisy_identification_view(arm_and_base):
    arm, base = arm_and_base
    traj = kl.random_excitation(**LIMITS, seed=1)
    view_fn = partial(vi.noisy_identification_view, arm, base, traj, kl.random_excitation(**LIMITS, seed=2),
                      [0.1, 0.08], [0.5, 0.3])
    quiet = view_fn(tau_noise=0.0, q_noise=0.0)
    noisy = view_fn(tau_noise=0.5, q_noise=0.5)
    assert isinstance(noisy, View) and quiet.text != noisy.text
    rel = lambda text: [float(x.split()[0]) for x in text.split("per joint: ")[1].split(", ")]  # noqa: E731
    assert max(rel(quiet.text)) < 0.2 and max(rel(noisy.text)) > max(rel(quiet.text))


def test_friction_compensation_view_reduces_the_error():
    on, off = vi.friction_compensation_view(compensate=True), vi.friction_compensation_view(compensate=False)
    rms = lambda text, label: float(text.split(label + ": RMS error ")[1].split()[0])  # noqa: E731
    assert rms(on.text, "PID + friction feed-forward") < 0.2 * rms(on.text, "PID only")
    assert rms(off.text, "PID + friction feed-forward") == rms(off.text, "PID only")


def test_armature_view_makes_the_joint_more_uniform():
    leg = kl.subtree_model(kl.load_urdf(kl.anymal_b_urdf()), "LF_HIP")
    geared, direct = vi.armature_view(leg, ratio=50.0), vi.armature_view(leg, ratio=1.0)
    ratio = lambda text: float(text.split("with the armature ratio ")[1].split()[0])  # noqa: E731
    assert ratio(geared.text) < ratio(direct.text)
    assert "armature n^2 J_m = 0.2500 kg·m²" in geared.text
    assert len(geared.png()) > 1000
