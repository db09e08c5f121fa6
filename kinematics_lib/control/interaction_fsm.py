"""Document 001's interaction strategy as a small state machine (状态机), corrected (issue 24, item 4).

Document 001 approaches an object in position control and switches to impedance control once
contact is detected. Switched naively -- the stiff position loop driving the tip towards a goal
inside the surface, then the impedance law with the same goal -- the arm arrives fast and with a
large stored error, and the contact force overshoots (the impact spike). The machine here:

    "approach"  position control towards the wall along its normal at a limited speed v_a
                (a moving reference x_ref = x_0 + n v_a t, stiff gains), gravity compensated;
    "ramp"      on contact (measured normal force > f_detect): the reference is reset to where
                the tip is, the stiffness ramps from 0 to K over T_ramp towards the goal x_d while
                the damper brakes the remaining approach speed;
    "impedance" F = K (x_d − x) − D ẋ (+ g) once the ramp is over;
    "fault"     a measured force above f_max: zero torque from then on.

Its **default is zero torque**: before ``start`` and in any state it does not know (a corrupted
mode), the law returns τ = 0 -- never the last command. ``modes`` records (t, mode) at each
transition. Use with ``kl.simulate_wall_contact`` (one call per control period).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from .. import _validate as check
from ..contact.compliant import Wall
from .interaction import _arm, _wall
from .plants import TwoLinkArm

__all__ = ["InteractionStateMachine", "naive_switch_controller"]

MODES = ("approach", "ramp", "impedance", "fault")


class InteractionStateMachine:
    """law(t, q, v) -> τ for a :class:`TwoLinkArm` approaching and pressing on a :class:`Wall`.

    x_d (2,) m: the impedance goal (inside the wall: the tip then presses with ≈ K δ);
    K, D (N/m, N·s/m): the impedance; v_a (m/s): approach speed; K_pos, D_pos: the stiff
    approach loop; f_detect (N): contact threshold; T_ramp (s); f_max (N): fault threshold;
    start (s): before it, zero torque.
    """

    def __init__(self, arm: TwoLinkArm, wall: Wall, x_d, *, K=500.0, D=60.0, v_a=0.05, K_pos=3000.0, D_pos=150.0,
                 f_detect=0.5, T_ramp=0.3, f_max=200.0, start=0.0):
        self.arm = _arm(arm)
        _wall(wall)
        self.wall = wall
        self.x_d = check.vector(x_d, 2, "x_d")
        self.K, self.D = check.positive(K, "K"), check.nonnegative(D, "D")
        self.v_a = check.positive(v_a, "v_a")
        self.K_pos, self.D_pos = check.positive(K_pos, "K_pos"), check.nonnegative(D_pos, "D_pos")
        self.f_detect, self.T_ramp = check.positive(f_detect, "f_detect"), check.positive(T_ramp, "T_ramp")
        self.f_max, self.start = check.positive(f_max, "f_max"), check.nonnegative(start, "start")
        if self.f_max <= self.f_detect:
            raise check.InputError(f"f_max must exceed f_detect, got f_max = {f_max}, f_detect = {f_detect}")
        self.mode, self.modes = None, []
        self._x0 = self._t0 = None

    def _switch(self, t: float, mode: str) -> None:
        self.mode, self._t0 = mode, t
        self.modes.append((t, mode))

    def __call__(self, t, q, v):
        arm = self.arm
        x, J = arm.tip(q), arm.jacobian(q)
        xd = J @ v
        f = -self.wall.force_x(float(x[0]), float(xd[0]))  # the measured normal force the tip exerts on the wall
        if t < self.start:
            return np.zeros(2)
        if self.mode is None:
            self._x0 = x.copy()
            self._switch(t, "approach")
        if self.mode != "fault" and f > self.f_max:
            self._switch(t, "fault")
        if self.mode == "approach" and f > self.f_detect:
            self._switch(t, "ramp")
        if self.mode == "ramp" and t - self._t0 >= self.T_ramp:
            self._switch(t, "impedance")
        if self.mode == "approach":
            n = np.array([1.0, 0.0])  # towards the wall
            x_ref = self._x0 + n * self.v_a * (t - self._t0)
            F = self.K_pos * (x_ref - x) + self.D_pos * (n * self.v_a - xd)
        elif self.mode in ("ramp", "impedance"):
            s = min(1.0, (t - self._t0) / self.T_ramp) if self.mode == "ramp" else 1.0
            F = s * self.K * (self.x_d - x) - self.D * xd
        else:  # "fault" or any unknown mode: the safe default
            return np.zeros(2)
        return J.T @ F + arm.gravity(q)


def naive_switch_controller(arm: TwoLinkArm, wall: Wall, x_d, *, K=500.0, D=60.0, K_pos=3000.0, D_pos=150.0,
                            f_detect=0.5) -> Callable:
    """The document's switch: stiff position control straight to x_d (inside the wall), switched to
    the impedance F = K (x_d − x) − D ẋ once the force exceeds f_detect -- with the speed and the
    stored error it had. Gravity compensated. For comparison with :class:`InteractionStateMachine`."""
    arm = _arm(arm)
    wall = _wall(wall)
    x_d = check.vector(x_d, 2, "x_d")
    K, D, K_pos, D_pos = (check.nonnegative(g, name) for g, name in ((K, "K"), (D, "D"), (K_pos, "K_pos"),
                                                                     (D_pos, "D_pos")))
    f_detect = check.positive(f_detect, "f_detect")
    state = {"contact": False}

    def law(t, q, v):
        x, J = arm.tip(q), arm.jacobian(q)
        xd = J @ v
        if -wall.force_x(float(x[0]), float(xd[0])) > f_detect:
            state["contact"] = True
        k, d = (K, D) if state["contact"] else (K_pos, D_pos)
        return J.T @ (k * (x_d - x) - d * xd) + arm.gravity(q)

    return law
