#!/usr/bin/env python3
"""Contact benchmark (not a test): chapter 7's solvers on the chapter's examples.

    python3 tasks.py bench                                   # every benchmarks/bench_*.py
    .venv-dev/bin/python benchmarks/bench_contact.py [--quick]

Prints the machine, then microseconds per call of

* ``distribute_contact_forces`` with four contacts (a 30 kg body on four feet, CoM off centre,
  a horizontal push): the weighted-ℓ2 QP on the inscribed 8-face pyramid (ProxQP through
  qpsolvers), the exact-cone SOCP (Clarabel), the ℓ1 and ℓ∞ LPs (HiGHS);
* one time step of the box on an incline as an LCP (``contact_step``: building the LCP and
  Lemke's algorithm), its QP cross-check (``contact_step_qp``), and Lemke alone on LCPs of
  n = 4, 8, 16 unknowns (random positive-definite M);
* ``kkt_dynamics`` on an 18-coordinate system with 12 constraints (ANYmal-sized: four point feet);
* ``whole_body_qp`` on ANYmal B standing on four feet while moving (66 unknowns a, τ, f; 30
  equalities; URDF effort limits): the whole call (M, h, J_c, J̇_c v by differences, the QP) and the
  solver call alone (its wall-clock ``solve_time``, median of 50), against document 000's "< 1 ms";
* chapter 8's push slider: one push simulation (a new setting) and a move to a setting already
  seen (the cached run redrawn, with and without the PNG), against the 60 ms budget of a move.

CPU time of the calling thread, best of several repeats, single-threaded BLAS
(``kinematics_lib.notebook.benchmarking.time_call``). Python call overhead and argument
validation are included.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import kinematics_lib as kl
from kinematics_lib.notebook import benchmarking as bm


def spd(rng, n, cond=50.0):
    Q, _ = np.linalg.qr(rng.normal(size=(n, n)))
    return Q @ np.diag(np.geomspace(1.0, cond, n)) @ Q.T


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    args = parser.parse_args(argv)
    min_time, repeat = (0.005, 3) if args.quick else (0.05, 7)
    print("machine:", bm.machine_description())
    rows = []

    def measure(label, f, *a):
        rows.append((label, 1e6 * bm.time_call(f, *a, min_time=min_time, repeat=repeat)))

    points = np.array([[0.35, 0.2, 0.0], [0.35, -0.2, 0.0], [-0.35, 0.2, 0.0], [-0.35, -0.2, 0.0]])
    F = np.array([40.0, 0.0, 30 * 9.81])
    wrench = np.concatenate([F, np.cross([0.1, 0.05, 0.45], F)])
    with bm.single_threaded_blas():
        for label, n_faces, norm in (("QP  l2, 8-face pyramid (ProxQP)", 8, "l2"), ("SOCP l2, exact cone (Clarabel)", None, "l2"),
                                     ("LP  l1, 8-face pyramid (HiGHS)", 8, "l1"), ("LP  linf, 8-face pyramid (HiGHS)", 8, "linf")):
            measure(f"distribute_contact_forces, 4 contacts: {label}", kl.distribute_contact_forces, points, wrench, 0.6,
                    n_faces, norm)
        th = np.radians(30.0)
        t, n = np.array([np.cos(th), np.sin(th)]), np.array([-np.sin(th), np.cos(th)])
        box = (np.eye(2), np.array([0.0, 0.0]), np.array([0.0, -9.81]), n[None], np.array([t, -t]), 0.5, 0.01)
        measure("contact_step: box on a 30 deg incline, LCP by Lemke", kl.contact_step, *box)
        measure("contact_step_qp: the same step by two QPs (ProxQP)", kl.contact_step_qp, *box)
        rng = np.random.default_rng(0)
        for k in (4, 8, 16):
            M, q = spd(rng, k), rng.normal(size=k)
            measure(f"solve_lcp (Lemke), n = {k}", kl.solve_lcp, M, q)
            measure(f"lcp_by_qp (ProxQP), n = {k}", kl.lcp_by_qp, M, q)
        M18, J = spd(rng, 18, 100.0), rng.normal(size=(12, 18))
        measure("kkt_dynamics, n = 18, k = 12", kl.kkt_dynamics, M18, rng.normal(size=18), J, rng.normal(size=12),
                rng.normal(size=18))
        anymal = kl.load_urdf(kl.anymal_b_urdf(), floating_base=True)
        q = kl.neutral_configuration(anymal)
        for foot, angles in kl.ANYMAL_STANCE.items():
            q[list(kl.leg_geometry(anymal, foot).q_index)] = angles
        q[2] = -np.mean([kl.frame_placement(anymal, q, f)[2, 3] for f in kl.ANYMAL_FEET])
        v = 0.3 * rng.normal(size=18)
        tau_max = kl.urdf_effort_limits(anymal, kl.anymal_b_urdf())
        for label, n_faces in (("4-face pyramid (ProxQP)", 4), ("exact cone (Clarabel)", None)):
            call = (anymal, q, v, kl.ANYMAL_FEET)
            kw = dict(n_faces=n_faces, tau_max=tau_max, push=[40.0, 0.0, 0.0])
            measure(f"whole_body_qp, ANYmal 4 feet, {label}: whole call", lambda: kl.whole_body_qp(*call, **kw))
            solve = np.median([kl.whole_body_qp(*call, **kw).solve_time for _ in range(50)])
            rows.append((f"whole_body_qp, ANYmal 4 feet, {label}: solver alone (wall clock)", 1e6 * solve))
        from kinematics_lib.notebook.views import push as vp
        from kinematics_lib.notebook.widgets import interactive_view

        run = vp.push_run(200.0, 45.0)  # chapter 8's push slider: a new setting runs simulate_push once
        rows.append(("simulate_push (0.3 s at 5 ms, QP + LCP per step): solver alone, median step (wall clock)",
                     1e6 * float(np.median(run.solve_time))))
        measure("simulate_push, a new push setting (61 steps; uncached)", lambda: vp._push_run.__wrapped__(200.0, 45.0))
        measure("push_view, a setting already seen (cached run): compute", vp.push_view, 200.0, 45.0)
        iv = interactive_view(vp.push_view, **vp.PUSH_SETTINGS)
        seen = [dict(force=200.0, direction=45.0), dict(force=vp.PUSH_SETTINGS["force"][3], direction=90.0)]
        for s in seen:
            iv._render(s)
        moves = iter(seen * 10_000)
        measure("push slider move to a setting already seen: compute + PNG (as the widget renders it)",
                lambda: iv._render(next(moves), compress_level=1))
    width = max(len(r[0]) for r in rows)
    print("microseconds per call:")
    for label, us in rows:
        print(f"  {label:<{width}}  {us:9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
