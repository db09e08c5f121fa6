"""The single-wheel sign check: which wheel of a chassis is mounted or wired backwards, from
the twist each wheel alone produces or from a recorded run.

Units and frames: see :mod:`kinematics_lib.mobile` (chapter 9).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from .odometry import odometry_twist
from .wheels import MECANUM_ORDER, chassis_twist, mecanum_matrix

__all__ = ["SignCheck", "single_wheel_check", "identify_flipped_wheel"]


#: The three single-wheel tests (body twists): drive forward, strafe left, spin counter-clockwise.
SIGN_TESTS = {"forward": (1.0, 0.0, 0.0), "strafe left": (0.0, 1.0, 0.0), "spin ccw": (0.0, 0.0, 1.0)}


@dataclass(frozen=True)
class SignCheck:
    """Outcome of :func:`single_wheel_check`.

    ok (4, 3) bool: wheel (rows of H, in ``order``) x test (forward, strafe left, spin ccw);
    wrong: names of the wheels failing a test; message: one line per finding.
    """

    passed: bool
    ok: np.ndarray
    wrong: tuple
    message: str

    def __str__(self) -> str:
        return self.message

    __repr__ = __str__


_DIAGNOSIS = {
    (False, False, False): "every test reversed: motor direction (or encoder sign) flipped",
    (True, False, False): "strafe and spin wrong: row of the wheel on the other side, or a mirror-image wheel",
    (True, True, False): "spin wrong: row of the diagonally opposite wheel",
    (True, False, True): "strafe wrong: mirror-image (left/right-hand) wheel at this corner",
}


def _sign_ok(H: np.ndarray, order: tuple) -> np.ndarray:
    """(4, 3) bool: sign of each wheel speed in each test equals the standard layout's sign."""
    tests = np.array(list(SIGN_TESTS.values())).T                      # one test per column
    expected = np.sign(mecanum_matrix(1.0, 1.0, 1.0) @ tests)[[MECANUM_ORDER.index(n) for n in order]]
    return np.sign(H @ tests) == expected


def single_wheel_check(H, order=MECANUM_ORDER) -> SignCheck:
    """The single-wheel verification (单轮验证) of a 4-wheel chassis matrix H (4, 3).

    ``order`` names the physical wheel each row of H drives. For each of the tests forward
    (1, 0, 0), strafe left (0, 1, 0) and spin ccw (0, 0, 1) the sign of every wheel speed must be
    the standard one: forward all +; strafe left FL −, FR +, RL +, RR −; spin left wheels −,
    right wheels +. A zero speed counts as wrong. Names the wrong wheels, the likely cause, and
    two rows whose exchange passes every test.
    """
    H = check.matrix(H, (4, 3), "H")
    if isinstance(order, str) or not isinstance(order, (tuple, list)) or sorted(map(str, order)) != sorted(MECANUM_ORDER):
        raise check.InputError(f"order must be a permutation of {MECANUM_ORDER}, got {check.describe(order)}")
    order = tuple(order)
    ok = _sign_ok(H, order)
    wrong = tuple(n for n, row in zip(order, ok) if not row.all())
    lines = [f"{n}: " + _DIAGNOSIS.get(tuple(row), "failing " + ", ".join(
        t for t, good in zip(SIGN_TESTS, row) if not good)) for n, row in zip(order, ok) if not row.all()]
    if ok[:, 0].all() and not ok[:, 1].any():
        lines.append("every wheel fails strafe: the whole roller arrangement is mirrored (X and O swapped)")
    for i in range(4):
        for j in range(i + 1, 4):
            swapped = H[[j if k == i else i if k == j else k for k in range(4)]]
            if not ok.all() and _sign_ok(swapped, order).all():
                lines.append(f"rows {order[i]} and {order[j]} look swapped (wheel numbering)")
    return SignCheck(not wrong, ok, wrong, "\n".join(lines) or "all single-wheel tests pass")


def identify_flipped_wheel(poses, dt: float, v_cmd, half_length: float, half_width: float,
                           wheel_radius: float) -> str:
    """Which wheel of a standard chassis turns the wrong way, from a recorded path.

    poses (N+1, 3): path recorded while the controller commanded the constant body twist v_cmd
    through H (4 wheels, MECANUM_ORDER); dt: sample time [s]. The chassis moves with the
    least-squares twist of its actual wheel speeds (:func:`chassis_twist`). Returns the name of
    the wheel whose sign flip best explains the measured twist, or 'none'.
    """
    P = check.matrix(poses, (None, 3), "poses")
    if len(P) < 2:
        raise check.InputError("poses must hold at least 2 poses")
    dt = check.positive(dt, "dt")
    v_meas = np.mean([odometry_twist(P[k], P[k + 1], dt) for k in range(len(P) - 1)], axis=0)
    H = mecanum_matrix(half_length, half_width, wheel_radius)
    if np.linalg.matrix_rank(H) < 3:
        raise check.InputError(f"half_length + half_width = {half_length + half_width:.3g} m is too large next to "
                               f"wheel_radius = {wheel_radius:.3g} m: H is numerically of rank < 3")
    w = H @ check.vector(v_cmd, 3, "v_cmd")
    names = ("none",) + MECANUM_ORDER
    flips = [np.ones(4)] + [np.where(np.arange(4) == k, -1.0, 1.0) for k in range(4)]
    errors = [np.linalg.norm(chassis_twist(H, f * w)[0] - v_meas) for f in flips]
    return names[int(np.argmin(errors))]
