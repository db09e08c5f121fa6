"""Every example-robot-data URDF that Pinocchio loads, kl loads too (issue 22, item 1).

example-robot-data (the robots of Pinocchio's tutorials) is a development-only dependency
(requirements/dev.txt); without it ``test_example_robot_data_is_installed`` fails. Nothing is downloaded at run time:
the files are read from the installed package (``cmeel.prefix/share/example-robot-data``), or
from the folder named by ``KL_EXAMPLE_ROBOT_DATA``.

For each file and for a fixed and a floating base: the same nv, the same joints in the same
order, nq equal up to Pinocchio's two coordinates (cos, sin) per continuous joint, and RNEA, CRBA
and ABA equal to Pinocchio's within 1e-10 relative on random states. ``python
tests/test_urdf_example_robot_data.py`` prints the table of the issue's closing note.
"""

from __future__ import annotations

import os
import site
import sys
import sysconfig
import warnings
from pathlib import Path

import numpy as np
import pytest

import kinematics_lib as kl

RTOL = 1e-10


def robots_folder() -> Path | None:
    """The 'robots' folder of an installed example-robot-data, or None."""
    if os.environ.get("KL_EXAMPLE_ROBOT_DATA"):
        return Path(os.environ["KL_EXAMPLE_ROBOT_DATA"])
    roots = {sysconfig.get_paths()["purelib"], *site.getsitepackages(), *sys.path}
    for root in roots:
        path = Path(root) / "cmeel.prefix" / "share" / "example-robot-data" / "robots"
        if path.is_dir():
            return path
    return None


ROBOTS = robots_folder()
FILES = sorted(ROBOTS.rglob("*.urdf")) if ROBOTS else []


def _pin():
    import pinocchio

    return pinocchio  # pinned: fails, never skips, when missing


def pinocchio_model(path: Path, floating: bool):
    """Pinocchio's model, or None when Pinocchio refuses the file."""
    pin = _pin()
    try:
        with open(os.devnull, "w") as null:  # urdfdom prints its errors on stderr
            old, sys.stderr = sys.stderr, null
            try:
                return pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer()) if floating \
                    else pin.buildModelFromUrdf(str(path))
            finally:
                sys.stderr = old
    except (ValueError, RuntimeError):
        return None


def to_pinocchio_q(ours: kl.Model, ref, q: np.ndarray) -> np.ndarray:
    """kl's q -> Pinocchio's: a continuous joint's angle theta becomes (cos theta, sin theta)."""
    out = np.zeros(ref.nq)
    for i, (joint, kind) in enumerate(zip(ours.body_joint, ours.joint_types)):
        k = ref.getJointId(joint)
        qi = q[ours.q_slice[i]]
        j = ref.joints[k]
        if kind == "continuous":
            out[j.idx_q:j.idx_q + 2] = np.cos(qi[0]), np.sin(qi[0])
        else:
            out[j.idx_q:j.idx_q + j.nq] = qi
    return out


def compare(path: Path, floating: bool) -> dict:
    """Load with both libraries and compare; a dict of what was found (for the tests and the table)."""
    pin = _pin()
    ref = pinocchio_model(path, floating)
    out = {"pinocchio": ref is not None, "warnings": [], "error": None}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            ours = kl.load_urdf(path, floating_base=floating)
        except ValueError as err:
            out["error"] = str(err)
            return out
    out["warnings"] = [str(w.message) for w in caught if issubclass(w.category, kl.PhysicsWarning)]
    if ref is None:
        return out
    first = 2 if floating else 1  # Pinocchio's 'universe' (and 'root_joint')
    n_continuous = ours.joint_types.count("continuous")
    out["structure"] = (ours.nv == ref.nv and ours.nq + n_continuous == ref.nq
                        and ours.joint_names == tuple(ref.names[first:]))
    data = ref.createData()
    rng = np.random.default_rng(22)
    worst = {"rnea": 0.0, "crba": 0.0, "aba": 0.0}
    for _ in range(3):
        q = kl.random_configuration(ours, rng)
        v, a = rng.normal(size=ours.nv), rng.normal(size=ours.nv)
        qp = to_pinocchio_q(ours, ref, q)
        M_ref = pin.crba(ref, data, qp)
        M_ref = np.triu(M_ref) + np.triu(M_ref, 1).T
        worst["rnea"] = max(worst["rnea"], rel_err(kl.rnea(ours, q, v, a), pin.rnea(ref, data, qp, v, a)))
        worst["crba"] = max(worst["crba"], rel_err(kl.crba(ours, q), M_ref))
        if ours.nv and np.linalg.cond(M_ref) < 1e8:  # ABA = M^-1 (tau - h): compare where M is invertible
            worst["aba"] = max(worst["aba"], rel_err(kl.aba(ours, q, v, a), pin.aba(ref, data, qp, v, a)))
    out.update(worst)
    return out


def rel_err(x, y) -> float:
    x, y = np.asarray(x, float), np.asarray(y, float)
    if x.shape != y.shape:
        return np.inf
    if x.size == 0:
        return 0.0
    return float(np.abs(x - y).max() / max(np.abs(y).max(), 1e-12))


MISSING = ("example-robot-data is pinned in requirements/dev.txt but not installed "
           "(python3 tasks.py test installs the development environment)")


def test_example_robot_data_is_installed():
    """The robots below come from the pinned package: without it this fails (the parametrized
    test would otherwise be an empty set)."""
    assert ROBOTS is not None and FILES, MISSING
    assert len(FILES) >= 60, f"only {len(FILES)} URDF files in {ROBOTS}"


@pytest.mark.parametrize("floating", [False, True], ids=["fixed", "floating"])
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_loads_what_pinocchio_loads(path, floating):
    found = compare(path, floating)
    if not found["pinocchio"]:
        assert found["error"], f"{path.name}: Pinocchio refuses it, kl should name the problem"
        return
    assert found["error"] is None, found["error"]
    assert found["structure"], f"{path.name}: nq, nv or joint order differ from Pinocchio's"
    for name in ("rnea", "crba", "aba"):
        assert found[name] < RTOL, f"{path.name}: {name} differs from Pinocchio's by {found[name]:.2e}"
    for message in found["warnings"]:
        assert message.startswith(f"{path.name}: "), message


def test_every_impossible_inertia_is_refused_when_strict():
    """Each file that loads with an inertia warning is refused by strict=True, naming the link."""
    warned = 0
    for path in FILES:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                kl.load_urdf(path)
            except ValueError:
                continue
        if any("impossible inertias" in str(w.message) for w in caught):
            warned += 1
            with pytest.raises(kl.InputError, match=rf"^{path.name}: link '.*': <inertia> is not a physical"):
                kl.load_urdf(path, strict=True)
    assert warned >= 1


def table() -> str:
    rows = ["| file | Pinocchio | kl (fixed base) | warnings | max rel. error RNEA / CRBA / ABA |",
            "| --- | --- | --- | --- | --- |"]
    for path in FILES:
        f = compare(path, False)
        status = "refused" if f["error"] else "loaded"
        kinds = ", ".join(sorted({"mimic" if "mimic" in w else "inertia" for w in f["warnings"]})) or "-"
        errs = "-" if f["error"] or not f["pinocchio"] else f"{f['rnea']:.1e} / {f['crba']:.1e} / {f['aba']:.1e}"
        rows.append(f"| {path.relative_to(ROBOTS)} | {'loaded' if f['pinocchio'] else 'refused'} | {status} | "
                    f"{kinds} | {errs} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
