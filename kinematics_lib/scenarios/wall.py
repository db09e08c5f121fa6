"""Chapter 10's scenario: a planar two-link arm pressing its tip on a spring-damper wall.

The wall is the contact layer's compliant model (``kl.Wall``), the laws (impedance, admittance,
hybrid force/motion, the contact state machine) and the one sampled loop (``kl.simulate_sampled``)
are the control layer's; this module puts them together and records what the chapter plots.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..contact.compliant import Wall
from ..control.interaction import wall_torque
from ..control.plants import TwoLinkArm
from ..control.simulation import simulate_sampled

__all__ = ["simulate_wall_contact", "WallContactRun"]


@dataclass(frozen=True)
class WallContactRun:
    """t (N,) s; q (N, 2) rad; x (N, 2) m tip position; force (N, 2) N the wall's force on the tip;
    status "ok" or "diverged" (from ``kl.simulate_sampled``), message."""

    t: np.ndarray
    q: np.ndarray
    x: np.ndarray
    force: np.ndarray
    status: str
    message: str

    def settled(self, window: float = 0.2, tol: float = 1e-3) -> bool:
        """True when the run stayed bounded and the tip moved less than ``tol`` m (peak to peak)
        during the last ``window`` s: a stable contact (or free motion) that has come to rest."""
        if self.status != "ok":
            return False
        last = self.t >= self.t[-1] - window
        return bool(np.ptp(self.x[last], axis=0).max() < tol)


def simulate_wall_contact(arm: TwoLinkArm, law: Callable, wall: Wall, q0, v0, t_final: float, dt: float, *,
                          delay_steps: int = 0, substeps: int = 4) -> WallContactRun:
    """The arm under ``law`` (sampled every dt s, output delayed by ``delay_steps`` periods) with the
    wall's force acting on its tip as the external torque Jᵀ F_ext (:func:`~kinematics_lib.wall_torque`)
    at every integration substep; q0, v0 (2,) rad, rad/s; t_final, dt in s."""
    run = simulate_sampled(arm, law, q0, v0, t_final, dt, delay_steps=delay_steps,
                           external=wall_torque(arm, wall), substeps=substeps)
    q1, q12 = run.q[:, 0], run.q[:, 0] + run.q[:, 1]  # the tip at every sample, at once
    x = np.stack([arm.l1 * np.cos(q1) + arm.l2 * np.cos(q12), arm.l1 * np.sin(q1) + arm.l2 * np.sin(q12)], axis=1)
    xdot = (-arm.l1 * np.sin(q1) - arm.l2 * np.sin(q12)) * run.v[:, 0] - arm.l2 * np.sin(q12) * run.v[:, 1]
    fx = [wall.force_x(x_k, xdot_k) for x_k, xdot_k in zip(x[:, 0].tolist(), xdot.tolist())]
    F = np.stack([fx, np.zeros(len(fx))], axis=1)
    return WallContactRun(run.t, run.q, x, F, run.status, run.message)
