"""Document 001's interaction strategy as a state machine (issue 24, item 4)."""

from __future__ import annotations

import numpy as np
from scipy.optimize import fsolve

import kinematics_lib as kl

ARM, WALL = kl.TwoLinkArm(), kl.Wall(1.5, 5000.0, 20.0)
X_D = np.array([1.52, 0.6])


def _q0():
    return fsolve(lambda q: ARM.tip(q) - [1.40, 0.6], [0.0, 1.0])  # 10 cm before the wall


def test_state_machine_contacts_without_the_impact_spike():
    fsm = kl.InteractionStateMachine(ARM, WALL, X_D, v_a=0.1)
    smooth = kl.simulate_wall_contact(ARM, fsm, WALL, _q0(), [0.0, 0.0], 3.0, 1e-3)
    naive = kl.simulate_wall_contact(ARM, kl.naive_switch_controller(ARM, WALL, X_D), WALL, _q0(), [0.0, 0.0], 3.0, 1e-3)
    k, K = WALL.stiffness, 500.0
    f_ss = K * k / (K + k) * (X_D[0] - WALL.position)  # two springs in series: the impedance and the wall
    for run in (smooth, naive):
        assert run.status == "ok" and abs(-run.force[-1, 0] - f_ss) < 1e-3 * f_ss
    assert -smooth.force[:, 0].min() >= 0.0
    assert (-smooth.force[:, 0]).max() <= 1.05 * f_ss  # no spike ...
    assert (-naive.force[:, 0]).max() >= 2.0 * f_ss  # ... where the naive switch hits at several times f_ss
    assert [m for _, m in fsm.modes] == ["approach", "ramp", "impedance"]


def test_default_is_zero_torque():
    q, v = _q0(), np.zeros(2)
    fsm = kl.InteractionStateMachine(ARM, WALL, X_D, start=0.5)
    assert np.all(fsm(0.1, q, v) == 0.0) and fsm.mode is None  # before start
    assert np.any(fsm(0.6, q, v) != 0.0) and fsm.mode == "approach"
    fsm.mode = "corrupted"
    assert np.all(fsm(0.7, q, v) == 0.0)  # an unknown state: zero torque, not the last command
    # a force above f_max (the goal deep in a stiff wall) trips the fault state, which stays at zero torque
    fault = kl.InteractionStateMachine(ARM, WALL, [1.9, 0.6], K=5000.0, v_a=0.2, f_max=50.0)
    run = kl.simulate_wall_contact(ARM, fault, WALL, _q0(), [0.0, 0.0], 2.0, 1e-3)
    assert "fault" in [m for _, m in fault.modes]
    t_fault = [t for t, m in fault.modes if m == "fault"][0]
    assert np.all(fault(run.t[-1], run.q[-1], np.zeros(2)) == 0.0) and t_fault < run.t[-1]
