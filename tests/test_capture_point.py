"""The linear inverted pendulum (LIPM) and its capture point (chapter 6, issue 23 item 15).

The dynamics are integrated here independently (scipy's adaptive RK45 on x_ddot = omega^2 (x - p))
and compared with the library's closed form; the capture point is checked by what it means: a
foot at xi brings the CoM to rest above it, a foot anywhere else lets it run away.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import kinematics_lib as kl
from kinematics_lib.notebook.views import capture_point as vcp
from kinematics_lib.notebook.widgets import View, interactive_view

G0 = 9.81


def simulate_lipm(com, com_velocity, foot, height, t_end):
    """Numerical LIPM: state (x, y, x_dot, y_dot), ZMP fixed at foot, CoM height constant."""
    w2 = G0 / height
    rhs = lambda t, s: np.concatenate([s[2:], w2 * (s[:2] - np.asarray(foot))])  # noqa: E731
    sol = solve_ivp(rhs, (0.0, t_end), np.concatenate([com, com_velocity]), rtol=1e-11, atol=1e-12,
                    dense_output=True)
    return sol


@pytest.mark.parametrize("seed", range(5))
def test_foot_at_the_capture_point_brings_the_com_to_rest_above_it(seed):
    rng = np.random.default_rng(seed)
    com, vel, z = rng.uniform(-0.1, 0.1, 2), rng.uniform(-0.8, 0.8, 2), rng.uniform(0.5, 1.2)
    xi = kl.capture_point(com, vel, z)
    omega = np.sqrt(G0 / z)
    assert np.allclose(xi, com + vel / omega)
    t_end = 8.0 / omega                       # the convergent mode has decayed by e^-8
    s = simulate_lipm(com, vel, xi, z, t_end).y[:, -1]
    assert np.linalg.norm(s[:2] - xi) < 1e-3 * np.linalg.norm(vel / omega)
    assert np.linalg.norm(s[2:]) < 1e-3 * np.linalg.norm(vel)
    for miss in (np.array([0.02, 0.0]), np.array([0.0, -0.02]), np.array([-0.01, 0.01])):
        s_miss = simulate_lipm(com, vel, xi + miss, z, t_end).y[:, -1]
        # the divergent component starts at -miss and grows by e^8: the CoM runs away from the foot
        assert np.linalg.norm(s_miss[:2] - (xi + miss)) > 100 * np.linalg.norm(miss)
        assert np.dot(s_miss[:2] - (xi + miss), -miss) > 0


def test_closed_form_matches_the_simulation():
    com, vel, foot, z = np.array([0.03, -0.02]), np.array([0.5, 0.2]), np.array([0.1, 0.05]), 0.8
    t = np.linspace(0.0, 1.5, 16)
    sol = simulate_lipm(com, vel, foot, z, 1.5)
    pos, v = kl.lipm_trajectory(com, vel, foot, z, t)
    assert np.allclose(pos, sol.sol(t)[:2].T, atol=1e-8) and np.allclose(v, sol.sol(t)[2:].T, atol=1e-8)


def test_capture_point_is_the_divergent_component_it_keeps_where_the_foot_is():
    # xi_dot = omega (xi - p): with the foot at xi, xi stays put for all t
    com, vel, z = np.array([0.0, 0.0]), np.array([0.6, -0.1]), 1.0
    xi = kl.capture_point(com, vel, z)
    pos, v = kl.lipm_trajectory(com, vel, xi, z, np.linspace(0.0, 3.0, 7))
    xi_t = np.array([kl.capture_point(p, w, z) for p, w in zip(pos, v)])
    assert np.allclose(xi_t, xi, atol=1e-9)


def test_capture_point_inputs():
    with pytest.raises(ValueError, match="height"):
        kl.capture_point([0, 0], [1, 0], 0.0)
    with pytest.raises(ValueError, match="com_velocity"):
        kl.capture_point([0, 0], [1, 0, 0], 0.9)
    with pytest.raises(ValueError, match="g"):
        kl.capture_point([0, 0], [1, 0], 0.9, g=-9.81)
    with pytest.raises(ValueError, match="t must hold times >= 0"):
        kl.lipm_trajectory([0, 0], [1, 0], [0, 0], 0.9, [-1.0, 0.0])
    with pytest.raises(ValueError, match="overflows"):
        kl.lipm_trajectory([0, 0], [1, 0], [0, 0], 0.9, [1e4])
    assert "capture_point" in kl.__all__ and "lipm_trajectory" in kl.__all__


def test_capture_point_view_shows_where_to_step():
    iv = interactive_view(vcp.capture_point_view, push=(-1.0, 1.0, 0.05, 0.4), height=(0.5, 1.2, 0.05, 0.9))
    xi = kl.capture_point([0, 0], [0.4, 0], 0.9)[0]
    numbers = iv.initial.numbers
    assert numbers["xi"] == pytest.approx(xi, abs=1e-12) and numbers["omega"] == pytest.approx(np.sqrt(9.81 / 0.9))
    final = numbers["final_x"]                        # at t = 2 s: settling onto ξ, the misses run away
    assert final["step to ξ"] == pytest.approx(xi * (1.0 - np.exp(-2.0 * numbers["omega"])), abs=1e-9)
    assert final["step 5 cm short"] > xi + 1.0 and final["step 5 cm long"] < xi - 1.0
    text = iv.initial.text
    assert f"capture point xi = {xi:+.4f} m" in text and f"step to ξ {xi:+.3f} m" in text
    assert "step to x =" in text                      # 0.121 m is beyond the 0.1 m toe
    small = vcp.capture_point_view(push=0.2, height=0.9)
    assert "no step needed" in small.text and small.png() != iv.initial.png()
    for push in (-1.0, 1.0):
        for z in (0.5, 1.2):
            ends = vcp.capture_point_view(push, z).numbers
            assert ends["xi"] == pytest.approx(push / np.sqrt(9.81 / z)) and ends["omega"] == pytest.approx(np.sqrt(9.81 / z))
    # higher CoM: slower pendulum, the same push needs a longer step
    assert kl.capture_point([0, 0], [0.4, 0], 1.2)[0] > xi
