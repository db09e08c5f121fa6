#!/usr/bin/env python3
"""Dynamics benchmark (not a test): kinematics_lib against Pinocchio on ANYmal B, and scaling slopes.

    python3 tasks.py bench                                    # the usual way
    .venv-dev/bin/python benchmarks/bench_dynamics.py [--quick]

Prints (1) the machine; (2) for ANYmal B with a floating base (the shipped URDF), single-call
RNEA / CRBA / ABA (and foot-Jacobian) times of kinematics_lib and Pinocchio measured in the same
run, their ratio and their agreement, beside document 000's claims; (3) the times of RNEA, ABA,
CRBA and "build M then solve" on random revolute chains of n = 2 ... 128 bodies and the fitted
log-log slopes. Times are CPU time of the calling thread per call, best of several repeats,
single-threaded BLAS (kinematics_lib.notebook.benchmarking.time_call). The timing code is shared with
chapter 5; see benchmarks/README.md for measured figures.
"""

from __future__ import annotations

import argparse
import sys

import kinematics_lib as kl
from kinematics_lib.notebook import benchmarking as bm

TARGET_RNEA_RATIO = 40.0  # kinematics_lib's RNEA within 40x of Pinocchio's (performance goal)


def anymal_section(min_time: float, repeat: int) -> None:
    try:
        cmp = bm.compare_with_pinocchio(kl.anymal_b_urdf(), n_states=5, min_time=min_time, repeat=repeat)
    except ImportError:
        print("Pinocchio is not installed: skipping the comparison (pip install pin)")
        return
    print("ANYmal B, floating base (nq = 19, nv = 18), microseconds per call:")
    print("\n".join("  " + row for row in cmp.rows()))
    worst = max(cmp.errors.values())
    print(f"  max relative difference kinematics_lib vs Pinocchio (RNEA, CRBA, ABA, Jacobian): {worst:.1e}")
    ratio = cmp.ratio("RNEA")
    verdict = "met" if ratio <= TARGET_RNEA_RATIO else "NOT met"
    print(f"  RNEA ratio {ratio:.0f}x; target <= {TARGET_RNEA_RATIO:.0f}x: {verdict}")


def scaling_section(quick: bool, min_time: float, repeat: int) -> None:
    ns = [2, 4, 8, 16, 32, 64] if quick else [2, 4, 8, 16, 32, 64, 128]
    table = bm.scaling_table(ns, seed=0, min_time=min_time, repeat=repeat)
    print(f"random revolute chains, n = {ns[0]} ... {ns[-1]} bodies, microseconds per call:")
    print("\n".join("  " + row for row in table.rows()))
    for n_min in (ns[0], 8):
        slopes = ", ".join(f"{name} {table.slope(name, n_min):.2f}" for name in table.times)
        print(f"  fitted log-log slopes over n >= {n_min}: {slopes}")
    print("  (textbook exponents 1, 1, 2, 3; see chapter 5 section 7 for why the measured ones differ)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs and chains up to n = 64")
    args = parser.parse_args(argv)
    min_time, repeat = (0.005, 3) if args.quick else (0.05, 7)
    print("machine:", bm.machine_description())
    print()
    anymal_section(min_time, repeat)
    print()
    scaling_section(args.quick, min_time, repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
