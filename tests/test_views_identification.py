"""Chapter 11 views: they return Views whose text follows the sliders and agrees with the library."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.notebook.views import identification as vi
from kinematics_lib.notebook.widgets import interactive_view

LIMITS = dict(lower=[-2.5, -2.5], upper=[2.5, 2.5], v_max=[2.0, 2.0])


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
    assert small.numbers["slope"] == pytest.approx(1e4, rel=0.05)  # sigma0
    assert large.numbers["slope"] < 0.05 * 1e4
    assert large.numbers["peak"] == pytest.approx(1.5, abs=0.015)  # the breakaway level f_s


def test_excitation_view_condition_number(arm_and_base):
    arm, base = arm_and_base
    one = vi.excitation_view(arm, base, **LIMITS, n_harmonics=1)
    five = vi.excitation_view(arm, base, **LIMITS, n_harmonics=5)
    assert one.numbers["cond"] > 100 * five.numbers["cond"]
    assert five.numbers["period"] == pytest.approx(10.0)
    assert "period 10.0 s, highest frequency 0.50 Hz" in five.text


def test_noisy_identification_view(arm_and_base):
    arm, base = arm_and_base
    traj = kl.random_excitation(**LIMITS, seed=1)
    view_fn = partial(vi.noisy_identification_view, arm, base, traj, kl.random_excitation(**LIMITS, seed=2),
                      [0.1, 0.08], [0.5, 0.3])
    quiet = view_fn(tau_noise=0.0, q_noise=0.0)
    noisy = view_fn(tau_noise=0.5, q_noise=0.5)
    rel = lambda view: view.numbers["relative_validation_error"]  # noqa: E731
    assert rel(quiet).max() < 0.002 and rel(noisy).max() > rel(quiet).max()


def test_friction_compensation_view_reduces_the_error():
    on, off = vi.friction_compensation_view(compensate=True), vi.friction_compensation_view(compensate=False)
    rms_on, rms_off = on.numbers["rms_error_mrad"], off.numbers["rms_error_mrad"]
    assert rms_on["PID + friction feed-forward"] < 0.2 * rms_on["PID only"]
    assert rms_off["PID + friction feed-forward"] == rms_off["PID only"]


def test_armature_view_makes_the_joint_more_uniform():
    leg = kl.subtree_model(kl.load_urdf(kl.anymal_b_urdf()), "LF_HIP")
    geared, direct = vi.armature_view(leg, ratio=50.0), vi.armature_view(leg, ratio=1.0)
    assert geared.numbers["ratio"] < direct.numbers["ratio"]
    assert geared.numbers["armature"] == pytest.approx(50.0**2 * 1e-4)  # n^2 J_m
    M = geared.numbers["M_jj"]
    assert direct.numbers["ratio"] == pytest.approx((M.max() + 1e-4) / (M.min() + 1e-4))
