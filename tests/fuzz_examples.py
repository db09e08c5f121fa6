"""Valid sample calls for the input-contract fuzz test (``tests/test_fuzz_contract.py``).

The fuzz test finds every public callable in ``kinematics_lib.__all__`` by itself and builds a
valid call from the parameter names: ``BUILDERS`` below maps a name (``model``, ``q``, ``v``,
``R``, ``T_target``, ``dt`` ...) to a value and a :class:`Kind` (what the argument is, which
decides how it is mutated). A parameter with a default and no builder keeps its default; a
string default is an option name, a bool a flag, an int a count, a float a number.

**When the fuzz test says it cannot build a valid call for your new function**: either name its
parameters like the existing ones (``model, q, v, a``; ``robot, q``; ``R``; ``T``; ``dt`` ...),
or add an entry to ``EXAMPLES``:  ``"my_function": [dict(param=value, ...)]`` -- a list of
valid calls (values, or ``Arg(value, Kind(...))`` to say what a value is, or a function
``ctx -> dict`` when the call depends on the model of the context). Parameters you leave out are
built from their names. Result records that are only ever built by the library go in
``NOT_CALLED`` with the reason.

Models used (small, fixed seeds): a floating-base tree (nq = 9, nv = 8), a fixed-base tree with
revolute, prismatic and continuous joints (nq = nv = 3) and a revolute chain (nq = nv = 3); a
planar 3R arm; a random 3-link DH arm with inertias; the double pendulum's numeric Lagrangian.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import sympy as sp

import kinematics_lib as kl

# ---------------------------------------------------------------- argument kinds


@dataclass(frozen=True)
class Kind:
    """What an argument is, for choosing its mutations.

    kind: 'array' (numbers of a fixed shape), 'free' (numbers whose first axis may have any
        length, e.g. a state vector), 'elementwise' (any shape at all), 'scalar', 'int', 'rotation',
        'transform', 'quaternion', 'option', 'text', 'flag', 'object', 'function', 'rng', 'path',
        'mapping', 'sequence', 'opaque' (not mutated).
    physical: negative values are impossible (masses, lengths, radii, step sizes): 'nonnegative'
        or 'positive'; 'inertia': a negated value is an impossible inertia.
    inf_ok: +-inf is a valid value (joint limits).
    quaternions: slices of the array that hold unit quaternions (floating-base q).
    size: the value sets the length of the result (dt, t_final, steps ...): no shape comparison.
    wrong: an object of the wrong type (for 'object').
    extra: more mutations, (label, value, must_raise).
    skip: labels of standard mutations that are valid values here (e.g. 'an array' for a damping
        that may be a scalar, a vector or a matrix).
    """

    kind: str
    physical: str | None = None
    inf_ok: bool = False
    quaternions: tuple = ()
    size: bool = False
    wrong: object = None
    extra: tuple = ()
    skip: tuple = ()


@dataclass(frozen=True)
class Arg:
    value: object
    kind: Kind = field(default_factory=lambda: Kind("opaque"))


def infer(name: str, value) -> Kind:
    """The kind of a plain value given in EXAMPLES (or a default), from its type and name."""
    physical = PHYSICAL.get(name)
    size = name in SIZE_NAMES
    if value is None:
        return Kind("opaque")
    if isinstance(value, (bool, np.bool_)):
        return Kind("flag")
    if isinstance(value, (int, np.integer)):
        return Kind("int", physical=physical, size=True)
    if isinstance(value, (float, np.floating)):
        return Kind("scalar", physical=physical, size=size)
    if isinstance(value, str):
        return Kind("text" if name in TEXT_NAMES else "option")
    if isinstance(value, np.random.Generator):
        return Kind("rng")
    if callable(value) and not isinstance(value, type):
        return Kind("function")
    if isinstance(value, dict):
        return Kind("mapping")
    if isinstance(value, np.ndarray) or (isinstance(value, (list, tuple)) and value
                                         and all(isinstance(x, (int, float, np.number)) for x in np.ravel(value))):
        a = np.asarray(value, dtype=float)
        if a.shape == (3, 3) and name.startswith("R") and np.allclose(a @ a.T, np.eye(3)):
            return Kind("rotation")
        if a.shape == (4, 4) and name.startswith("T") and np.allclose(a[3], [0, 0, 0, 1]):
            return Kind("transform")
        return Kind("array", physical=physical, inf_ok=name in INF_OK)
    if isinstance(value, (list, tuple)):
        return Kind("sequence")
    return Kind("object")


#: parameter names whose negative values are impossible
PHYSICAL = {n: "nonnegative" for n in ("mass", "masses", "m1", "m2", "inertias", "slip_std", "slip_bias_std",
                                        "gyro_noise", "tau_max", "damping")}
PHYSICAL.update({n: "nonnegative" for n in ("g", "kp", "ki", "kd")})
PHYSICAL.update({n: "positive" for n in ("lengths", "l1", "l2", "L1", "L2", "radius", "wheel_radius",
                                          "half_length", "half_width", "dt", "t_final", "slip_tau",
                                          "rtol", "atol", "tol", "h", "rcond", "max_step")})
PHYSICAL.update({n: "inertia" for n in ("I_com", "I", "I_B", "inertia")})
#: parameters that set the length of the result (its shape is not compared after a mutation)
SIZE_NAMES = {"dt", "t_final", "steps", "n", "n_bodies", "n_links", "max_iterations", "starts", "h"}
#: names that are free text (not option names)
TEXT_NAMES = {"name"}
#: +-inf is a valid value (unlimited joints)
INF_OK = {"lower", "upper", "q_min", "q_max"}

# ---------------------------------------------------------------- fixtures


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


@functools.lru_cache(maxsize=None)
def models() -> dict:
    return {
        "floating tree": kl.random_tree_model(3, rng(1), floating_base=True),
        "fixed tree": kl.random_tree_model(3, rng(2)),
        "revolute chain": kl.random_tree_model(3, rng(3), chain=True, joint_types=("revolute",)),
    }


@functools.lru_cache(maxsize=None)
def arm3() -> kl.DHRobot:
    return kl.planar_arm([1.0, 0.8, 0.5])


@functools.lru_cache(maxsize=None)
def dh_arm() -> kl.DHArm:
    return kl.random_dh_arm(3, rng(4))


@functools.lru_cache(maxsize=None)
def pendulum() -> kl.NumericLagrangian:
    return kl.to_numeric(kl.double_pendulum_lagrangian("absolute"), {"m1": 1.0, "m2": 0.5, "l1": 1.0, "l2": 0.7,
                                                                       "g": 9.81})


@functools.lru_cache(maxsize=None)
def wheels() -> tuple:
    return kl.mecanum_layout(0.2, 0.15, 0.05)


class Ctx:
    """What a call is about: a model, a DH robot, a DH arm, a numeric Lagrangian, or nothing."""

    def __init__(self, label: str, obj=None, kind: str | None = None):
        self.label, self.obj, self.kind = label, obj, kind
        if kind == "model":
            self.nq, self.nv = obj.nq, obj.nv
        elif kind in ("robot", "arm", "num"):
            self.nq = self.nv = obj.n
        else:
            self.nq = self.nv = None

    def __repr__(self) -> str:
        return self.label


def contexts(params) -> list:
    """The contexts to try, in order, for a callable with these parameter names."""
    if "model" in params and "num" not in params:
        return [Ctx(k, m, "model") for k, m in models().items()]
    if "robot" in params:
        return [Ctx("planar 3R arm", arm3(), "robot")]
    if "arm" in params:
        return [Ctx("random DH arm", dh_arm(), "arm")]
    if "num" in params:
        return [Ctx("double pendulum", pendulum(), "num")]
    return [Ctx("no model")]


WRONG_OBJECT = {"model": "a DHRobot", "robot": "a Model", "arm": "a DHRobot", "num": "a LagrangianModel"}


def _wrong(kind: str):
    return {"model": kl.puma560, "robot": lambda: models()["fixed tree"], "arm": kl.puma560,
            "num": lambda: kl.double_pendulum_lagrangian("absolute")}[kind]()


def _q(ctx: Ctx) -> Arg:
    if ctx.kind == "model":
        m = ctx.obj
        quats = tuple(slice(m.q_slice[i].start + 3, m.q_slice[i].start + 7)
                      for i, t in enumerate(m.joint_types) if t == "free")
        return Arg(kl.random_configuration(m, rng(5)), Kind("array", quaternions=quats))
    if ctx.nq is None:
        return None
    return Arg(rng(5).uniform(-1.0, 1.0, ctx.nq), Kind("array"))


def _nv(seed: int):
    def build(ctx: Ctx):
        if ctx.nv is None:
            return None
        return Arg(rng(seed).normal(size=ctx.nv), Kind("array"))
    return build


def _obj(kind: str):
    def build(ctx: Ctx):
        if ctx.kind != kind:
            return None
        return Arg(ctx.obj, Kind("object", wrong=_wrong(kind)))
    return build


def _frame_name(ctx: Ctx):
    if ctx.kind != "model":
        return None
    return Arg(ctx.obj.body_names[-1], Kind("option"))


def _rotation(seed: int) -> np.ndarray:
    return kl.so3_exp(rng(seed).normal(size=3))


def _transform(seed: int) -> np.ndarray:
    return kl.make_transform(_rotation(seed), rng(seed + 100).uniform(-1.0, 1.0, 3))


def _fixed(value, kind: str = "array", **kw):
    return lambda ctx: Arg(value, Kind(kind, **kw))


#: name -> ctx -> Arg (or None when the name means nothing in this context)
BUILDERS = {
    "model": _obj("model"),
    "robot": _obj("robot"),
    "arm": _obj("arm"),
    "num": _obj("num"),
    "q": _q,
    "q0": _q,
    "v": lambda ctx: _nv(6)(ctx) if ctx.nv is not None else Arg(rng(6).normal(size=6), Kind("array")),
    "qd": _nv(7),
    "a": _nv(8),
    "qdd": _nv(9),
    "tau": _nv(10),
    "frame": _frame_name,
    "rng": lambda ctx: Arg(rng(11), Kind("rng")),
    "f_ext": lambda ctx: Arg(rng(40).normal(size=(ctx.obj.nb, 6)), Kind("array")) if ctx.kind == "model" else None,
    "R": _fixed(_rotation(12), "rotation"),
    "R_AB": _fixed(_rotation(13), "rotation"),
    "T": _fixed(_transform(14), "transform"),
    "T_AB": _fixed(_transform(15), "transform"),
    "T_current": _fixed(_transform(16), "transform"),
    "T_target": _fixed(_transform(17), "transform"),
    "quat": _fixed(kl.matrix_to_quat(_rotation(18)), "quaternion"),
    "p": _fixed(np.array([0.3, -0.2, 1.0])),
    "p_AB": _fixed(np.array([0.3, -0.2, 0.5])),
    "com": _fixed(np.array([0.05, -0.02, 0.1])),
    "xyz": _fixed(np.array([0.1, 0.2, 0.3])),
    "rpy": _fixed(np.array([0.1, -0.2, 0.3])),
    "w": _fixed(np.array([0.3, -0.1, 0.2])),
    "phi": _fixed(np.array([0.3, -0.1, 0.2])),
    "axis": _fixed(np.array([0.0, 0.6, 0.8])),
    "twist": _fixed(np.array([0.1, 0.2, -0.3, 0.4, -0.5, 0.6])),
    "m": _fixed(np.array([0.3, -0.1, 0.2, 0.5, 0.1, -0.4])),
    "f": _fixed(np.array([1.0, -2.0, 0.5, 0.1, 0.3, -0.2])),
    "S": _fixed(kl.skew([0.3, -0.1, 0.2])),
    "angle": _fixed(0.7, "scalar"),
    "yaw": _fixed(0.4, "scalar"),
    "pitch": _fixed(-0.2, "scalar"),
    "psi": _fixed(0.6, "scalar"),
    "mass": _fixed(2.0, "scalar", physical="nonnegative"),
    "I_com": _fixed(np.diag([0.1, 0.2, 0.25]), physical="inertia"),
    "I": _fixed(kl.spatial_inertia(2.0, [0.1, -0.2, 0.3], np.diag([0.1, 0.2, 0.25])), physical="inertia"),
    "I_B": _fixed(kl.spatial_inertia(1.5, [0.0, 0.1, 0.2], np.diag([0.05, 0.06, 0.07])), physical="inertia"),
    "X_BA": _fixed(kl.motion_transform(_rotation(19), [0.2, 0.0, -0.1])),
    "J": _fixed(kl.geometric_jacobian(kl.planar_arm([1.0, 0.8, 0.5]), [0.3, 0.5, -0.4])[:2], "free"),
    "damping": _fixed(0.05, "scalar", physical="nonnegative", skip=("an array",)),
    "dt": _fixed(0.02, "scalar", physical="positive", size=True),
    "t_final": _fixed(0.1, "scalar", physical="positive", size=True),
    "state0": _fixed(np.array([1.0, 0.5]), "free"),
    "H": _fixed(kl.mecanum_matrix(0.2, 0.15, 0.05), "free"),
    "wheel_speeds": _fixed(np.array([10.0, 12.0, 9.0, 11.0])),
    "v_body": _fixed(np.array([0.3, 0.1, 0.5])),
    "v_world": _fixed(np.array([0.3, 0.1, 0.5])),
    "pose": _fixed(np.array([0.1, -0.2, 0.3])),
    "pose0": _fixed(np.array([0.1, -0.2, 0.3])),
    "pose1": _fixed(np.array([0.15, -0.18, 0.35])),
    "half_length": _fixed(0.2, "scalar", physical="positive"),
    "half_width": _fixed(0.15, "scalar", physical="positive"),
    "wheel_radius": _fixed(0.05, "scalar", physical="positive"),
    "wheel": lambda ctx: Arg(wheels()[0], Kind("object", wrong=kl.puma560())),
    "wheels": lambda ctx: Arg(wheels(), Kind("sequence", extra=(("a tuple of strings", ("a", "b", "c"), True),))),
    "target": _fixed(np.array([1.0, 0.9])),
    "L1": _fixed(1.0, "scalar", physical="positive"),
    "L2": _fixed(0.8, "scalar", physical="positive"),
}

# ---------------------------------------------------------------- sample calls for odd signatures


def _ode(t, x):
    return -x


def _pendulum_ode(t, x):
    return np.array([x[1], -9.81 * np.sin(x[0])])


def _fk_jac(q):
    return kl.dh_end_effector(arm3(), q), kl.geometric_jacobian(arm3(), q)


def _wheel(**kw):
    return dict(dict(x=0.2, y=0.15, radius=0.05, gamma=-np.pi / 4, theta=0.0, name="FL"), **kw)


def _model_fields(ctx: Ctx) -> dict:
    m = models()["fixed tree"]
    return dict(name=m.name, body_names=m.body_names, body_joint=m.body_joint, parent=m.parent,
                joint_types=m.joint_types, axes=np.array(m.axes), T_tree=np.array(m.T_tree),
                inertia=Arg(np.array(m.inertia), Kind("array", physical="inertia")), gravity=np.array(m.gravity),
                frames={"tip": (2, _transform(20))}, lower=np.array(m.lower), upper=np.array(m.upper))


def _free_q_i(i: int):
    def build(ctx: Ctx):
        m = ctx.obj
        s = m.q_slice[i]
        q = kl.random_configuration(m, rng(21))[s]
        quats = (slice(3, 7),) if m.joint_types[i] == "free" else ()
        return dict(i=Arg(i, Kind("int", extra=(("out of range", m.nb, True), ("negative", -1, True)))),
                    q_i=Arg(q, Kind("array", quaternions=quats)))
    return build


def _pendulum_state(t_final: float = 0.05):
    return dict(num=Arg(pendulum(), Kind("object", wrong=kl.double_pendulum_lagrangian("absolute"))),
                state0=Arg(np.array([0.3, -0.2, 0.1, 0.0]), Kind("array")), t_final=Arg(t_final, Kind(
                    "scalar", physical="positive", size=True)), dt=Arg(0.01, Kind("scalar", physical="positive", size=True)))


def _nonneg(value: float) -> Arg:
    return Arg(value, Kind("scalar", physical="nonnegative", skip=("an array",)))


@functools.lru_cache(maxsize=None)
def _regressors() -> tuple:
    """Y (8, 3, 30) and tau (8, 3) of the revolute chain at seeded random states."""
    m, g = models()["revolute chain"], rng(52)
    states = [(kl.random_configuration(m, g), g.normal(size=3), g.normal(size=3)) for _ in range(8)]
    Y = np.array([kl.joint_torque_regressor(m, *s) for s in states])
    return Y, np.array([kl.rnea(m, *s) for s in states])


@functools.lru_cache(maxsize=None)
def _base():
    return kl.base_parameters(_regressors()[0])


@functools.lru_cache(maxsize=None)
def _trajectory():
    return kl.fourier_trajectory(np.zeros(3), 0.2 * np.eye(3)[:, :2], 0.1 * np.ones((3, 2)), f0=0.5)


@functools.lru_cache(maxsize=None)
def _measurements():
    return kl.measure_trajectory(models()["revolute chain"], _trajectory(), 0.5, rate=200.0)


@functools.lru_cache(maxsize=None)
def _anymal() -> kl.Model:
    return kl.load_urdf(kl.anymal_b_urdf(), floating_base=True)


def _anymal_model_arg() -> Arg:
    return Arg(_anymal(), Kind("object", wrong=kl.puma560()))


def _anymal_feet() -> Arg:
    return Arg(list(kl.ANYMAL_FEET), Kind("sequence"))


@functools.lru_cache(maxsize=None)
def _anymal_stance() -> tuple:
    """(q, footholds): ANYmal's nominal stance standing on z = 0."""
    m = _anymal()
    q = kl.neutral_configuration(m)
    for f, a in kl.ANYMAL_STANCE.items():
        q[list(kl.leg_geometry(m, f).q_index)] = a
    P = np.array([kl.frame_placement(m, q, f)[:3, 3] for f in kl.ANYMAL_FEET])
    q[2] = -P[:, 2].mean()
    P[:, 2] = 0.0
    return q, P


def _anymal_stance_q(lift: float = 0.0) -> Arg:
    q = _anymal_stance()[0].copy()
    q[2] += lift
    return Arg(q, Kind("array", quaternions=(slice(3, 7),)))


@functools.lru_cache(maxsize=None)
def _anymal_forces() -> np.ndarray:
    return kl.static_equilibrium_forces(_anymal(), _anymal_stance()[0], kl.ANYMAL_FEET, 0.7)


def _anymal_q() -> Arg:
    q = kl.neutral_configuration(_anymal())
    q[7:] = np.tile([0.1, 0.5, -0.9], 4)
    return Arg(q, Kind("array", quaternions=(slice(3, 7),)))


_CONTACT_M = np.array([[2.0, 0.3, 0.0], [0.3, 1.0, 0.1], [0.0, 0.1, 1.5]])
_CONTACT_POINTS = np.array([[0.3, 0.2, 0.0], [0.3, -0.2, 0.0], [-0.3, 0.2, 0.0], [-0.3, -0.2, 0.0]])
_CONTACT_D = Arg(np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0]]), Kind("free"))
_CONTACT_WRENCH = np.concatenate([[1.0, -0.5, 196.2], np.cross([0.05, 0.02, 0.4], [1.0, -0.5, 196.2])])


EXAMPLES = {
    # geometry
    "quat_multiply": [dict(q1=np.array([0.1, 0.2, 0.3, 0.927]), q2=np.array([-0.3, 0.1, 0.0, 0.949]))],
    "vee": [dict(S=kl.skew([0.3, -0.1, 0.2]))],
    "skew": [dict(w=np.array([0.3, -0.1, 0.2]))],
    "rpy_rate_matrix": [dict(rpy=np.array([0.3, 0.5, -1.0])), dict(rpy=np.array([0.0, np.pi / 2, 0.2]))],
    "crf_bar": [dict(h=Arg(np.array([1.0, -2.0, 0.5, 0.1, 0.3, -0.2]), Kind("array")))],
    "crm": [dict(v=np.array([0.1, 0.2, -0.3, 0.4, -0.5, 0.6])), dict(v=Arg(rng(22).normal(size=(3, 6)), Kind("free")))],
    "crf": [dict(v=np.array([0.1, 0.2, -0.3, 0.4, -0.5, 0.6]))],
    "cross_motion": [dict(v=Arg(rng(23).normal(size=(3, 6)), Kind("free")), m=Arg(rng(24).normal(size=(3, 6)), Kind("free")))],
    "se3_vee": [dict(X=Arg(kl.se3_hat([0.1, -0.2, 0.3, 0.4, 0.5, -0.6]), Kind("array")))],
    "slerp": [dict(q0=Arg(np.array([0.1, 0.2, 0.3, 0.927]) / np.linalg.norm([0.1, 0.2, 0.3, 0.927]), Kind("quaternion")),
                   q1=Arg(np.array([-0.3, 0.1, 0.0, 0.949]) / np.linalg.norm([-0.3, 0.1, 0.0, 0.949]), Kind("quaternion")),
                   s=Arg(0.3, Kind("scalar", skip=("an array",)))),
              dict(q0=Arg(np.array([0.0, 0.0, 0.0, 1.0]), Kind("quaternion")),
                   q1=Arg(np.array([0.0, 0.0, 1.0, 0.0]), Kind("quaternion")), s=Arg(np.linspace(0, 1, 5), Kind("free")))],
    "apply_each": [dict(M=Arg(rng(25).normal(size=(3, 6, 6)), Kind("free")), x=Arg(rng(26).normal(size=(3, 6)), Kind("free")))],
    # arms
    "fk_poe": [dict(M=_transform(62), screws=Arg(np.array([[0, 0, 1, 0, 0, 0], [0, -0.3, 0, 0, 1, 0],
                                                             [0.2, 0, 0, 0, 0, 0]], float).T, Kind("array")),
                    q=Arg(np.array([0.3, -0.2, 0.1]), Kind("array")))],
    "jacobian_poe": [dict(screws=Arg(np.array([[0, 0, 1, 0, 0, 0], [0, -0.3, 0, 0, 1, 0],
                                               [0.2, 0, 0, 0, 0, 0]], float).T, Kind("array")),
                          q=Arg(np.array([0.3, -0.2, 0.1]), Kind("array")))],
    "point_to_point_reference": [dict(q_start=Arg(np.array([0.0, 0.3]), Kind("free")), q_goal=np.array([0.8, 0.9]),
                                      duration=Arg(1.5, Kind("scalar", physical="positive")), method="cubic")],
    "cubic_time_scaling": [dict(duration=Arg(2.0, Kind("scalar", physical="positive")),
                                t=Arg(0.6, Kind("scalar", skip=("an array",)))),
                           dict(duration=Arg(2.0, Kind("scalar", physical="positive")),
                                t=Arg(np.linspace(0.0, 2.0, 5), Kind("free")))],
    "quintic_time_scaling": [dict(duration=Arg(2.0, Kind("scalar", physical="positive")),
                                  t=Arg(0.6, Kind("scalar", skip=("an array",))))],
    "joint_trajectory": [dict(q0=Arg(np.array([0.1, -0.2, 0.3]), Kind("free")), q1=np.array([0.5, 0.4, -0.3]),
                              duration=Arg(2.0, Kind("scalar", physical="positive")), n=Arg(5, Kind("int", size=True)),
                              method="cubic")],
    "cartesian_trajectory": [dict(T_start=_transform(60), T_end=_transform(61),
                                  duration=Arg(2.0, Kind("scalar", physical="positive")), n=Arg(5, Kind("int", size=True)))],
    "DHRobot": [dict(a=np.array([0.0, 0.4, 0.1]), alpha=np.array([np.pi / 2, 0.0, -np.pi / 2]),
                     d=np.array([0.3, 0.0, 0.1]), theta=np.array([0.0, 0.1, 0.0]), joint_types="RRP",
                     convention="standard", name="arm", q_min=np.array([-1.0, -2.0, 0.0]),
                     q_max=np.array([1.0, 2.0, 0.5]), T_base=_transform(27), T_tool=_transform(28))],
    "dh_standard": [dict(a=0.4, alpha=0.3, d=0.1, theta=-0.5)],
    "dh_modified": [dict(a=0.4, alpha=0.3, d=0.1, theta=-0.5)],
    "dh_transform": [dict(a=0.4, alpha=0.3, d=0.1, theta=-0.5, convention="modified")],
    "planar_arm": [dict(lengths=Arg(np.array([1.0, 0.8]), Kind("free", physical="positive")),
                        q_min=np.array([-1.0, -2.0]), q_max=np.array([1.0, 2.0]))],
    "standard_to_modified": [dict(robot=Arg(kl.puma560(), Kind("object", wrong=_wrong("robot"))))],
    "modified_to_standard": [dict(robot=Arg(kl.standard_to_modified(kl.puma560()),
                                            Kind("object", wrong=_wrong("robot"))))],
    "fit_dh": [dict(T=kl.dh_standard(0.4, 0.3, 0.1, -0.5), starts=2)],
    "sym_rot_x": [dict(angle=0.5)],
    "sym_rot_z": [dict(angle=sp.Symbol("q"))],
    "sym_trans_x": [dict(distance=0.5)],
    "sym_trans_z": [dict(distance=sp.Symbol("d"))],
    "sym_dh_standard": [dict(a=Arg(1, Kind("scalar")), alpha=Arg(0, Kind("scalar")), d=0.5, theta=sp.Symbol("q"))],
    "sym_dh_modified": [dict(a=Arg(1, Kind("scalar")), alpha=Arg(0, Kind("scalar")), d=0.5, theta=sp.Symbol("q"))],
    "sym_dh_transform": [dict(a=Arg(1, Kind("scalar")), alpha=Arg(0, Kind("scalar")), d=0.5, theta=sp.Symbol("q"),
                              convention="modified")],
    "sym_forward_kinematics": [dict(rows=Arg([(1, 0, 0, sp.Symbol("q1"))], Kind("sequence", extra=(
        ("a row with NaN", [(float("nan"), 0, 0, 0)], True), ("a row of 3", [(1, 0, 0)], True)))),
        simplify=False)],
    "sym_robot_fk": [dict(robot=Arg(kl.planar_arm([1.0, 0.5]), Kind("object", wrong=_wrong("robot"))),
                          q=Arg(list(sp.symbols("q1 q2")), Kind("sequence")))],
    "jacobian_from_axes": [dict(z=np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]), p=np.array([[0.0, 0, 0], [0.5, 0, 0]]),
                                p_E=np.array([1.0, 0.2, 0.1]), joint_types="RP")],
    "numerical_jacobian": [dict(fk=Arg(kl.planar_arm([1.0, 0.8]), Kind("object", wrong=3)),
                                q=np.array([0.3, -0.4])),
                           dict(fk=lambda q: kl.dh_end_effector(arm3(), q), q=np.array([0.3, -0.4, 0.2]))],
    "manipulability_gradient": [dict(task="planar_position")],
    "manipulability": [dict(J=Arg(kl.geometric_jacobian(arm3(), [0.3, 0.5, -0.4])[:2], Kind("free")))],
    "condition_number": [dict(J=Arg(kl.geometric_jacobian(arm3(), [0.3, 0.5, -0.4])[:2], Kind("free")))],
    "singularity_report": [dict(J=Arg(kl.geometric_jacobian(arm3(), [0.3, 0.5, -0.4])[:2], Kind("free")))],
    "task_rows": [dict(task="planar_pose"), dict(task=Arg((0, 1, 5), Kind("sequence", extra=(
        ("row 6", (0, 6), True), ("repeated rows", (1, 1), True)))))],
    "ik_newton": [dict(robot=Arg(arm3(), Kind("object", wrong=_wrong("robot"))),
                       T_target=kl.dh_end_effector(arm3(), [0.4, 0.5, -0.3]), q0=np.array([0.3, 0.4, -0.2]),
                       task="planar_pose", max_iterations=30),
                  dict(robot=_fk_jac, T_target=kl.dh_end_effector(arm3(), [0.4, 0.5, -0.3]),
                       q0=Arg(np.array([0.3, 0.4, -0.2]), Kind("free")), task="planar_position", method="pinv",
                       max_iterations=30, nullspace_gradient=lambda q: -q)],
    "dls_step": [dict(J=Arg(kl.geometric_jacobian(arm3(), [0.3, 0.5, -0.4])[:2], Kind("free")),
                      e=np.array([0.01, -0.02]), damping=Arg(0.1, Kind("scalar", physical="nonnegative")))],
    "pinv_step": [dict(J=Arg(kl.geometric_jacobian(arm3(), [0.3, 0.5, -0.4])[:2], Kind("free")),
                       e=np.array([0.01, -0.02]))],
    "nullspace_projector": [dict(J=Arg(kl.geometric_jacobian(arm3(), [0.3, 0.5, -0.4])[:2], Kind("free")))],
    "nullspace_motion": [dict(gradient=lambda q: -q, steps=5)],
    "ik_two_link": [dict(q_current=np.array([0.1, 0.5]), elbow="up")],
    "wrap_angle": [dict(angle=Arg(np.array([3.5, -4.0, 0.2]), Kind("elementwise"))),
                   dict(angle=Arg(7.0, Kind("elementwise")))],
    "resolved_rate": [dict(x_des=lambda t: np.array([1.2 + 0.1 * t, 0.8]), xdot_des=lambda t: np.array([0.1, 0.0]),
                           q0=np.array([0.3, 0.9, -0.4]), t_final=Arg(0.1, Kind("scalar", physical="positive",
                                                                                 size=True)),
                           dt=Arg(0.02, Kind("scalar", physical="positive", size=True)), Kp=1.0, integrator="rk4")],
    "gimbal_yaw_pitch": [dict(p=np.array([0.3, -0.2, 1.0]))],
    "aim_error": [dict(p=np.array([0.3, -0.2, 1.0]), yaw=0.2, pitch=0.1)],
    # dynamics: model and builders
    "Model": [_model_fields],
    "jcalc": [_free_q_i(0), _free_q_i(1)],
    "virtual_joints_model": [lambda ctx: None if ctx.kind != "model" or not ctx.obj.floating_base else {}],
    "virtual_to_free": [lambda ctx: None if ctx.kind != "model" or not ctx.obj.floating_base else dict(
        model=Arg(kl.virtual_joints_model(ctx.obj), Kind("object", wrong=kl.puma560())),
        q=Arg(np.concatenate([[0.1, -0.2, 0.3, 0.4, -0.5, 0.6], np.full(ctx.nv - 6, 0.2)]), Kind("array")),
        v=Arg(rng(40).normal(size=ctx.nv), Kind("array")))],
    "joint_transform": [_free_q_i(0), _free_q_i(1)],
    "planar_chain_model": [dict(lengths=Arg(np.array([1.0, 0.8]), Kind("free", physical="positive")),
                                masses=np.array([1.0, 0.5]), com=np.array([0.5, 0.4]), inertias=np.array([0.08, 0.03]),
                                gravity=np.array([0.0, -9.81, 0.0]), base_rotation=-0.5, name="chain")],
    "double_pendulum_model": [dict(l1=1.0, l2=0.7, m1=1.0, m2=0.5, g=9.81)],
    "random_tree_model": [dict(n_bodies=Arg(4, Kind("int", size=True)), floating_base=True, chain=False,
                               joint_types=("revolute", "prismatic"), gravity=np.array([0.0, 0.0, -9.81]))],
    "load_urdf": [dict(path=Arg(kl.anymal_b_urdf(), Kind("path")), floating_base=True,
                       gravity=np.array([0.0, 0.0, -9.81]))],
    "integrate_configuration": [dict(dt=Arg(0.1, Kind("scalar")))],
    # dynamics: floating base and balance (chapter 6)
    "integrate_configuration": [dict(dt=Arg(0.1, Kind("scalar")))],
    "difference": [lambda ctx: None if ctx.kind != "model" else dict(
        q1=Arg(kl.random_configuration(ctx.obj, rng(31)), _q(ctx).kind))],
    "quaternion_integration_error": [dict(omega=np.array([1.0, 2.0, 0.5]), dt=Arg(0.01, Kind(
        "scalar", physical="positive", size=True)), steps=Arg(20, Kind("int", size=True)), method="naive")],
    "simulate_free_floating": [lambda ctx: None if ctx.kind != "model" or not ctx.obj.floating_base else dict(
        v0=Arg(rng(32).normal(size=ctx.nv), Kind("array")), torque=lambda t, q, v: np.ones(ctx.nv - 6),
        t_final=Arg(0.02, Kind("scalar", physical="positive", size=True)),
        dt=Arg(0.01, Kind("scalar", physical="positive", size=True)), rtol=1e-8, atol=1e-10)],
    "satellite_joint_torque": [dict(model=Arg(kl.satellite_arm_model(), Kind("object", wrong=kl.puma560())),
                                    amplitude=0.5, period=2.0, kp=25.0, kd=10.0)],
    "satellite_joint_loop": [dict(n_joints=Arg(3, Kind("int")), amplitude=0.8, period=Arg(4.0, Kind(
        "scalar", physical="positive")), t=Arg(np.linspace(0.0, 4.0, 5), Kind("free")))],
    "zero_momentum_base_path": [lambda ctx: None if ctx.kind != "model" or not ctx.obj.floating_base else dict(
        qj=Arg(np.linspace(0.0, 0.2, 3 * (ctx.nv - 6)).reshape(3, ctx.nv - 6), Kind("array")),
        vj=Arg(np.ones((3, ctx.nv - 6)), Kind("array")),
        dt=Arg(0.1, Kind("scalar", physical="positive")))],
    "center_of_pressure": [dict(points=np.array([[0.1, 0.1, 0.0], [0.1, -0.1, 0.0], [-0.1, 0.0, 0.0]]),
                                forces=np.array([[1.0, 2.0, 100.0], [0.0, -1.0, 120.0], [3.0, 0.0, 80.0]]))],
    "zmp": [dict(p_com=np.array([0.02, -0.01, 0.9]), a_com=np.array([1.0, -0.5, 0.3]), mass=60.0,
                 dL=np.array([0.5, -5.0, 1.0]), g=9.81)],
    "cmp": [dict(p_com=np.array([0.02, -0.01, 0.9]), a_com=np.array([1.0, -0.5, 0.3]), g=9.81)],
    "capture_point": [dict(com=np.array([0.02, -0.01]), com_velocity=np.array([0.4, 0.1]), height=0.9, g=9.81)],
    "lipm_trajectory": [dict(com=np.array([0.02, -0.01]), com_velocity=np.array([0.4, 0.1]),
                             foot=np.array([0.1, 0.0]), height=0.9, t=Arg(np.linspace(0.0, 1.0, 5), Kind("free")),
                             g=9.81)],
    "doc000.momentum_constraints": [dict(n_joints=Arg(3, Kind("int")))],
    "doc000.zmp_stability_exercise_3_2": [dict(h=Arg(1.0, Kind("scalar", physical="positive")), xdd=2.0,
                                               width=Arg(0.2, Kind("scalar", physical="positive")), g=9.8)],
    # dynamics: Lagrange
    "derive_lagrangian": [dict(T=sp.Symbol("m") * sp.Symbol("l") ** 2 * sp.Symbol("dth") ** 2 / 2,
                               V=-sp.Symbol("m") * sp.Symbol("g") * sp.Symbol("l") * sp.cos(sp.Symbol("th")),
                               q=Arg([sp.Symbol("th")], Kind("sequence")), v=Arg([sp.Symbol("dth")], Kind("sequence")))],
    "christoffel_C": [dict(M=sp.Matrix([[sp.Symbol("a") + sp.cos(sp.Symbol("q2")), 1], [1, 1]]),
                           q=Arg(list(sp.symbols("q1 q2")), Kind("sequence")),
                           v=Arg(list(sp.symbols("dq1 dq2")), Kind("sequence")))],
    "christoffel_matrix": [dict(dM=np.array([np.zeros((2, 2)), -0.5 * np.array([[2.0, 1.0], [1.0, 0.0]])]),
                                v=np.array([1.0, 2.0]))],
    "to_numeric": [dict(model=Arg(kl.double_pendulum_lagrangian("absolute"), Kind("object", wrong=pendulum())),
                        params=Arg({"m1": 1.0, "m2": 0.5, "l1": 1.0, "l2": 0.7, "g": 9.81}, Kind(
                            "mapping", extra=(("negative mass", {"m1": -1.0, "m2": 0.5, "l1": 1.0, "l2": 0.7,
                                                                  "g": 9.81}, True),))))],
    "double_pendulum_positions": [dict(q=Arg(np.array([0.3, -0.2]), Kind("array")), l1=1.0, l2=0.7)],
    "absolute_to_relative": [dict(q=np.array([0.3, -0.2]), v=np.array([0.1, 0.4]))],
    "relative_to_absolute": [dict(q=np.array([0.3, -0.2]), v=np.array([0.1, 0.4]))],
    "mechanical_energy": [dict(q=np.array([0.3, -0.2]), v=np.array([0.1, 0.4]))],
    "lagrange_ode": [dict(tau=np.array([0.1, -0.2]))],
    "forward_dynamics_lagrange": [dict(tau=np.array([0.1, -0.2]))],
    "symplectic_euler_lagrange": [dict(**_pendulum_state(), tau=np.array([0.1, -0.2]))],
    "trajectory_separation": [dict(ode=_pendulum_ode, x0=np.array([0.3, 0.0]), t_final=Arg(0.05, Kind(
        "scalar", physical="positive", size=True)), dt=Arg(0.01, Kind("scalar", physical="positive", size=True)),
        dx=1e-6)],
    # dynamics: Newton-Euler
    "DHArm": [dict(robot=Arg(kl.planar_arm([1.0, 0.8]), Kind("object", wrong=_wrong("arm"))),
                   masses=np.array([1.0, 0.5]), coms=np.array([[-0.5, 0, 0], [-0.4, 0, 0]]),
                   inertias=Arg(np.array([np.diag([0.0, 0.08, 0.08]), np.diag([0.0, 0.03, 0.03])]),
                                Kind("array", physical="inertia")), gravity=np.array([0.0, -9.81, 0.0]))],
    "random_dh_arm": [dict(n=Arg(3, Kind("int", size=True)), joint_types="RPR", convention="modified")],
    "dh_model": [dict(name="arm")],
    "panda_arm": [dict(gravity=np.array([0.0, 0.0, -9.81]))],
    "ne_inward": [dict(F=rng(30).normal(size=(2, 3)), N=rng(31).normal(size=(2, 3)), r=rng(32).normal(size=(2, 3)),
                       rc=rng(33).normal(size=(2, 3)), z=np.array([[0.0, 0, 1], [0, 1.0, 0]]), joint_types="RP")],
    "newton_euler_local": [dict(count=None)],
    "ne_flops": [dict(n_links=Arg(6, Kind("int", size=True)))],
    "doc_line_errors": [lambda ctx: dict(
        doc_fn=Arg(kl.doc000.rnea, Kind("function")),
        reference=Arg(np.zeros(3), Kind("array")),
        args=Arg((models()["revolute chain"], np.zeros(3), np.ones(3), np.ones(3)), Kind("opaque")))],
    # dynamics: integrators
    "euler_step": [dict(f=_ode, t=0.0, x=Arg(np.array([1.0, 0.5]), Kind("free")), dt=Arg(0.01, Kind("scalar")))],
    "rk4_step": [dict(f=_ode, t=0.0, x=Arg(np.array([1.0, 0.5]), Kind("free")), dt=Arg(0.01, Kind("scalar")))],
    "semi_implicit_euler_step": [dict(f=_ode, t=0.0, x=Arg(np.array([1.0, 0.5]), Kind("free")),
                                      dt=Arg(0.01, Kind("scalar")))],
    "integrate_euler": [dict(f=_ode)],
    "integrate_rk4": [dict(f=_ode)],
    "integrate_semi_implicit_euler": [dict(f=_ode)],
    "integrate_adaptive": [dict(f=_ode, method="DOP853")],
    "integrate_fixed_step": [dict(step=kl.rk4_step, f=_ode)],
    "count_calls": [dict(f=_ode)],
    # mobile
    "RollerWheel": [_wheel()],
    "wheel_jacobian": [dict(require_full_rank=True)],
    "mecanum_layout": [dict(mirrored=True)],
    "mecanum_wheel_speeds": [dict(v_body=np.array([0.3, 0.1, 0.5]))],
    "integrate_odometry": [dict(twists=Arg(np.array([[0.3, 0.1, 0.5], [0.2, 0.0, -0.3]]), Kind("free")), dt=0.1,
                                pose0=np.array([0.1, 0.2, 0.3]), yaw=np.array([0.3, 0.35, 0.32]))],
    "single_wheel_check": [dict(H=Arg(kl.mecanum_matrix(0.2, 0.15, 0.05), Kind("array")), order=Arg(("FL", "FR", "RL", "RR"), Kind(
        "sequence", extra=(("a repeated wheel", ("FL", "FL", "RL", "RR"), True),))))],
    "identify_flipped_wheel": [dict(poses=Arg(kl.integrate_odometry(np.tile([0.3, 0.0, 0.1], (4, 1)), 0.1),
                                              Kind("free")), dt=0.1, v_cmd=np.array([0.3, 0.0, 0.1]))],
    "wheel_ground_forces": [dict(tau=np.array([0.5, -0.2, 0.3, 0.1]))],
    "max_chassis_force": [dict(tau_max=Arg(np.array([1.0, 1.0, 1.0, 1.0]), Kind("array", physical="nonnegative")),
                               direction=np.array([1.0, 0.5, 0.0]))],
    "no_slip_row": [dict(x=0.2, y=-0.1, theta=0.3)],
    "degree_of_mobility": [dict(C=Arg(np.array([[0.0, 1.0, 0.2], [0.0, 1.0, -0.2]]), Kind("free")))],
    "simulate_odometry": [dict(v_cmd=Arg(np.tile([0.3, 0.1, 0.2], (20, 1)), Kind("free")), dt=Arg(0.05, Kind(
        "scalar", physical="positive")), seed=3)],
    "odometry_error_rms": [dict(v_cmd=Arg(np.tile([0.3, 0.1, 0.2], (10, 1)), Kind("free")), dt=Arg(0.05, Kind(
        "scalar", physical="positive")), seeds=Arg([1, 2], Kind("sequence")), noise=Arg({"slip_std": 0.02},
                                                                                         Kind("opaque")))],
    # control (chapter 10)
    "PID": [dict(kp=Arg(10.0, Kind("scalar", physical="nonnegative", skip=("an array",))),
                 ki=Arg(2.0, Kind("scalar", physical="nonnegative", skip=("an array",))),
                 kd=Arg(1.0, Kind("scalar", physical="nonnegative", skip=("an array",))),
                 i_limit=Arg(5.0, Kind("scalar", physical="nonnegative", inf_ok=True, skip=("an array", "inf"))))],
    "pid_poles": [dict(inertia=Arg(1.0, Kind("scalar", physical="positive", skip=("an array",))),
                       kp=Arg(100.0, Kind("scalar", physical="nonnegative", skip=("an array",))),
                       ki=Arg(10.0, Kind("scalar", physical="nonnegative", skip=("an array",))),
                       kd=Arg(20.0, Kind("scalar", physical="nonnegative", skip=("an array",))))],
    "pid_controller": [lambda ctx: dict(pid=Arg(kl.PID(10.0, 1.0, 2.0), Kind("object", wrong=kl.puma560())),
                                        reference=kl.constant_reference([0.5, 0.2]),
                                        dt=Arg(0.01, Kind("scalar", physical="positive")))],
    "JointInertia": [dict(inertia=Arg((1.0, 2.0), Kind("free", physical="positive")), friction=lambda v: 0.1 * v)],
    "simulate_sampled": [lambda ctx: dict(plant=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())),
                                          law=lambda t, q, v: -20.0 * q - 5.0 * v, q0=np.array([0.1, 0.2]),
                                          v0=np.array([0.0, 0.1]), delay_steps=1,
                                          tau_limit=Arg(50.0, Kind("scalar", physical="nonnegative", skip=("an array",))),
                                          substeps=2)],
    "simulate_continuous": [lambda ctx: dict(plant=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())),
                                             law=lambda t, q, v: -20.0 * q - 5.0 * v, q0=np.array([0.1, 0.2]),
                                             v0=np.array([0.0, 0.1]), t_final=Arg(0.05, Kind(
                                                 "scalar", physical="positive", size=True)), rtol=1e-8, atol=1e-10)],
    "constant_reference": [dict(q_d=Arg(np.array([0.5, 0.2]), Kind("free")))],
    "sine_reference": [dict(offset=np.array([0.0, 0.1]), amplitude=np.array([0.1, 0.2]), omega=np.array([1.0, 2.0]))],
    # contact (chapter 7)
    "friction_pyramid": [dict(mu=Arg(0.5, Kind("scalar", physical="nonnegative")), n_faces=4, inscribed=False)],
    "pyramid_worst_case_error": [dict(n_faces=8, inscribed=True)],
    "pyramid_tangential_limit": [dict(mu=Arg(0.5, Kind("scalar", physical="nonnegative")), n_faces=4, inscribed=True,
                                      phi=Arg(np.linspace(0.0, 1.5, 5), Kind("free")))],
    "in_friction_cone": [dict(f=np.array([0.1, 0.2, 1.0]), mu=Arg(0.5, Kind("scalar", physical="nonnegative")))],
    "kkt_dynamics": [dict(M=_CONTACT_M, h=Arg(np.array([0.1, 9.81, -0.3]), Kind("array")), J=Arg(np.array([[1.0, 1.0, 0.0]]), Kind("free")),
                          Jdot_v=np.array([0.2]), tau=np.array([0.5, 0.0, -0.1]))],
    "regularized_kkt_dynamics": [dict(M=_CONTACT_M, h=Arg(np.array([0.1, 9.81, -0.3]), Kind("array")),
                                      J=Arg(np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0]]), Kind("free")),
                                      Jdot_v=np.array([0.2, 0.2]), tau=np.array([0.5, 0.0, -0.1]),
                                      damping=Arg(1e-6, Kind("scalar", physical="positive")))],
    "projected_dynamics": [dict(M=_CONTACT_M, h=Arg(np.array([0.1, 9.81, -0.3]), Kind("array")), J=Arg(np.array([[1.0, 1.0, 0.0]]), Kind(
        "array")), Jdot_v=np.array([0.2]), tau=np.array([0.5, 0.0, -0.1]))],
    "constraint_projector": [dict(M=_CONTACT_M, J=Arg(np.array([[1.0, 1.0, 0.0]]), Kind("free")))],
    "delassus_matrix": [dict(M=_CONTACT_M, J=Arg(np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 2.0]]), Kind("free")))],
    "baumgarte_bias": [dict(Jdot_v=Arg(np.array([0.2, -0.1]), Kind("free")), Jv=np.array([0.01, 0.0]), c=np.array([1e-3, -2e-3]),
                            alpha=_nonneg(5.0), beta=_nonneg(5.0))],
    "solve_lcp": [dict(M=Arg(_CONTACT_M, Kind("array")), q=np.array([-1.0, 0.5, -0.2]))],
    "solve_lcp_enumeration": [dict(M=Arg(_CONTACT_M, Kind("array")), q=np.array([-1.0, 0.5, -0.2]))],
    "lcp_matrix_check": [dict(M=Arg(_CONTACT_M, Kind("array")), q=np.array([-1.0, 0.5, -0.2]))],
    "grasp_matrix": [dict(points=Arg(_CONTACT_POINTS, Kind("free")))],
    "contact_wrench": [dict(points=Arg(_CONTACT_POINTS, Kind("free")), forces=np.tile([0.5, -0.2, 10.0], (4, 1)))],
    "distribute_contact_forces": [dict(points=Arg(_CONTACT_POINTS, Kind("free")), wrench=_CONTACT_WRENCH,
                                       mu=Arg(0.6, Kind("scalar", physical="nonnegative")), n_faces=None, norm="l2"),
                                  dict(points=Arg(_CONTACT_POINTS, Kind("free")), wrench=_CONTACT_WRENCH,
                                       mu=Arg(0.6, Kind("scalar", physical="nonnegative")), n_faces=8, norm="l1",
                                       weights=Arg(np.array([1.0, 2.0, 1.0, 1.0]), Kind("array", physical="positive"))),
                                  dict(points=Arg(_CONTACT_POINTS, Kind("free")), wrench=_CONTACT_WRENCH,
                                       mu=Arg(0.6, Kind("scalar", physical="nonnegative")), n_faces=4, norm="linf")],
    "lcp_by_qp": [dict(M=Arg(_CONTACT_M, Kind("array")), q=np.array([-1.0, 0.5, -0.2]))],
    "FourBar": [dict(l1=Arg(0.5, Kind("scalar", physical="positive")), l2=Arg(1.0, Kind("scalar", physical="positive")),
                     l3=Arg(0.8, Kind("scalar", physical="positive")), d=Arg(1.0, Kind("scalar", physical="positive")),
                     m1=Arg(1.0, Kind("scalar", physical="positive")), m2=Arg(1.0, Kind("scalar", physical="positive")),
                     g=Arg(9.81, Kind("scalar", physical="nonnegative")))],
    "four_bar_constraint": [lambda ctx: dict(fourbar=Arg(kl.FourBar(), Kind("object", wrong=kl.puma560())),
                                             q=Arg(kl.four_bar_configuration(kl.FourBar(), 1.0, 1.0)[0], Kind("array")),
                                             v=Arg(kl.four_bar_configuration(kl.FourBar(), 1.0, 1.0)[1], Kind("array")))],
    "four_bar_configuration": [lambda ctx: dict(fourbar=Arg(kl.FourBar(), Kind("object", wrong=kl.puma560())),
                                                theta=1.0, speed=0.5)],
    "simulate_four_bar": [lambda ctx: dict(fourbar=Arg(kl.FourBar(), Kind("object", wrong=kl.puma560())),
                                           q0=Arg(kl.four_bar_configuration(kl.FourBar(), 1.0, 1.0)[0], Kind("array")),
                                           v0=Arg(kl.four_bar_configuration(kl.FourBar(), 1.0, 1.0)[1], Kind("array")),
                                           t_final=Arg(0.05, Kind("scalar", physical="positive", size=True)),
                                           dt=Arg(0.01, Kind("scalar", physical="positive", size=True)),
                                           alpha=Arg(2.0, Kind("scalar", physical="nonnegative", skip=("an array",))),
                                           beta=Arg(3.0, Kind("scalar", physical="nonnegative", skip=("an array",))),
                                           project=True)],
    "unicycle_path": [dict(pose0=np.array([0.1, -0.2, 0.3]), controls=Arg(np.array([[0.5, 1.0], [0.5, 0.0], [-0.2, -1.0]]),
                                                                          Kind("free")), dt=0.05)],
    "parallel_parking_controls": [dict(speed=Arg(0.5, Kind("scalar", physical="positive")),
                                       turn=Arg(1.0, Kind("scalar", physical="positive")),
                                       duration=Arg(1.0, Kind("scalar", physical="positive")), n=Arg(5, Kind("int", size=True)))],
    "contact_lcp": [dict(M=Arg(2.0 * np.eye(3), Kind("array")), v=np.array([0.1, 0.0, -0.2]), f_ext=np.array([1.0, 0.5, -19.62]),
                         N=Arg(np.array([[0.0, 0.0, 1.0]]), Kind("free")), D=_CONTACT_D,
                         mu=Arg(0.5, Kind("scalar", physical="nonnegative")), dt=0.01,
                         gap=np.array([0.001]), restitution=Arg(0.2, Kind("scalar", physical="nonnegative")))],
    "contact_step": [dict(M=Arg(2.0 * np.eye(3), Kind("array")), v=np.array([0.1, 0.0, -0.2]), f_ext=np.array([1.0, 0.5, -19.62]),
                          N=Arg(np.array([[0.0, 0.0, 1.0]]), Kind("free")), D=_CONTACT_D,
                          mu=Arg(0.5, Kind("scalar", physical="nonnegative")), dt=0.01,
                          restitution=Arg(0.2, Kind("scalar", physical="nonnegative")))],
    "contact_step_qp": [dict(M=Arg(2.0 * np.eye(3), Kind("array")), v=np.array([0.1, 0.0, -0.2]),
                             f_ext=np.array([1.0, 0.5, -19.62]), N=Arg(np.array([[0.0, 0.0, 1.0]]), Kind("free")), D=_CONTACT_D,
                             mu=Arg(0.5, Kind("scalar", physical="nonnegative")), dt=0.01)],
    "incline_box_run": [dict(theta=0.6, mu=Arg(0.5, Kind("scalar", physical="nonnegative")),
                             t_final=Arg(0.05, Kind("scalar", physical="positive", size=True)), v0=0.1)],
    "ball_drop_run": [dict(height=Arg(0.01, Kind("scalar", physical="nonnegative")),
                           t_final=Arg(0.1, Kind("scalar", physical="positive", size=True)),
                           restitution=Arg(0.3, Kind("scalar", physical="nonnegative")), v_x=0.2,
                           mu=Arg(0.5, Kind("scalar", physical="nonnegative")))],
    "computed_torque": [lambda ctx: dict(model=Arg(models()["revolute chain"], Kind("object", wrong=kl.puma560())),
                                         q=np.array([0.1, -0.3, 0.5]), v=np.array([0.2, 0.1, -0.4]),
                                         q_d=np.array([0.3, 0.0, 0.4]), v_d=np.array([0.0, 0.1, 0.0]),
                                         a_d=np.array([1.0, -0.5, 0.2]),
                                         Kp=Arg(np.array([100.0, 200.0, 150.0]), Kind("array", physical="nonnegative")),
                                         Kd=Arg(20.0, Kind("scalar", physical="nonnegative", skip=("an array",))))],
    "computed_torque_controller": [lambda ctx: dict(model=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())),
                                                    reference=kl.constant_reference([0.5, 0.2]),
                                                    Kp=Arg(100.0, Kind("scalar", physical="nonnegative",
                                                                       skip=("an array",))),
                                                    Kd=Arg(np.array([20.0, 10.0]), Kind("array", physical="nonnegative")))],
    "pd_gains": [dict(omega_n=Arg(30.0, Kind("scalar", physical="positive")),
                      zeta=Arg(1.0, Kind("scalar", physical="nonnegative")))],
    "error_dynamics_solution": [dict(e0=np.array([0.1, -0.2]), de0=np.array([0.0, 0.5]),
                                     Kp=Arg(np.array([100.0, 400.0]), Kind("array", physical="nonnegative")),
                                     Kd=Arg(20.0, Kind("scalar", physical="nonnegative", skip=("an array",))),
                                     t=Arg(np.linspace(0.0, 1.0, 11), Kind("free")))],
    "task_space_inertia": [dict(M=np.array([[5.0, 1.5], [1.5, 1.0]]), J=np.array([[-1.5, -1.0], [0.866, 0.0]])),
                           dict(M=np.array([[3.0, 1.0, 0.2], [1.0, 2.0, 0.3], [0.2, 0.3, 1.0]]),
                                J=np.array([[-1.0, -0.5, -0.2], [1.2, 0.8, 0.3]]))],
    "operational_space_terms": [dict(M=np.array([[5.0, 1.5], [1.5, 1.0]]), J=np.array([[-1.5, -1.0], [0.866, 0.0]]),
                                     Jdot_v=np.array([-0.43, -1.5]), c=np.array([0.65, 0.87]),
                                     g=Arg(np.array([16.99, 0.0]), Kind("array")))],
    "dynamically_consistent_inverse": [dict(M=np.array([[3.0, 1.0, 0.2], [1.0, 2.0, 0.3], [0.2, 0.3, 1.0]]),
                                            J=np.array([[-1.0, -0.5, -0.2], [1.2, 0.8, 0.3]]))],
    "pd_gravity_controller": [dict(plant=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())), q_d=np.array([0.8, 0.4]),
                                   Kp=Arg(50.0, Kind("scalar", physical="positive", skip=("an array",))),
                                   Kd=Arg(np.array([8.0, 5.0]), Kind("array", physical="positive")))],
    "pd_gravity_lyapunov": [dict(plant=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())), q=np.array([0.1, 0.2]),
                                 v=np.array([0.3, -0.1]), q_d=np.array([0.8, 0.4]),
                                 Kp=Arg(50.0, Kind("scalar", physical="positive", skip=("an array",))))],
    "tip_task": [dict(plant=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())))],
    "operational_space_controller": [dict(plant=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())),
                                          reference=kl.sine_reference([1.2, 0.8], [0.1, 0.05], [2.0, 3.0]),
                                          Kp=Arg(100.0, Kind("scalar", physical="positive", skip=("an array",))),
                                          Kd=Arg(np.array([20.0, 20.0]), Kind("array", physical="positive")),
                                          posture=np.array([0.1, 0.2]), Kp_null=_nonneg(10.0), Kd_null=_nonneg(5.0))],
    "orientation_error": [dict(R=Arg(kl.rot_z(0.3), Kind("rotation")), R_d=Arg(kl.rot_x(0.2), Kind("rotation")))],
    "pose_reference": [dict(trajectory=Arg(kl.cartesian_trajectory(np.eye(4), _transform(61), 0.5, 6),
                                          Kind("object", wrong=kl.TwoLinkArm())))],
    "pose_operational_space_controller": [dict(model=Arg(kl.dh_model(kl.panda_arm()), Kind("object", wrong=kl.TwoLinkArm())),
                                               frame=Arg("tool", Kind("text")),
                                               reference=lambda t: (np.eye(4), np.zeros(6), np.zeros(6)),
                                               Kp=Arg(100.0, Kind("scalar", physical="positive", skip=("an array",))),
                                               Kd=Arg(np.full(6, 20.0), Kind("array", physical="positive")),
                                               posture=np.zeros(7), Kp_null=_nonneg(10.0), Kd_null=_nonneg(5.0))],
    "pd_loop_bandwidths": [dict(omega_n=Arg(20.0, Kind("scalar", physical="positive")),
                                zeta=Arg(0.7, Kind("scalar", physical="nonnegative")))],
    "delay_bandwidth_limits": [dict(delay=Arg(0.01, Kind("scalar", physical="positive")),
                                    zeta=Arg(0.7, Kind("scalar", physical="positive")))],
    "hybrid_force_motion_controller": [dict(arm=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())),
                                            wall=Arg(kl.Wall(), Kind("object", wrong=kl.TwoLinkArm())),
                                            f_d=Arg(20.0, Kind("scalar", physical="positive")),
                                            reference=kl.sine_reference([0.5], [0.2], [1.5]),
                                            Kp=Arg(400.0, Kind("scalar", physical="positive")),
                                            Kd=Arg(40.0, Kind("scalar", physical="positive")),
                                            k_f=Arg(0.2, Kind("scalar", physical="positive")), d_f=_nonneg(10.0))],
    "InteractionStateMachine": [dict(arm=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())),
                                     wall=Arg(kl.Wall(), Kind("object", wrong=kl.TwoLinkArm())), x_d=np.array([1.52, 0.6]),
                                     K=Arg(500.0, Kind("scalar", physical="positive")), D=_nonneg(60.0),
                                     v_a=Arg(0.1, Kind("scalar", physical="positive")),
                                     K_pos=Arg(3000.0, Kind("scalar", physical="positive")), D_pos=_nonneg(150.0),
                                     f_detect=Arg(0.5, Kind("scalar", physical="positive")),
                                     T_ramp=Arg(0.3, Kind("scalar", physical="positive")),
                                     f_max=Arg(200.0, Kind("scalar", physical="positive")), start=_nonneg(0.0))],
    "naive_switch_controller": [dict(arm=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())),
                                     wall=Arg(kl.Wall(), Kind("object", wrong=kl.TwoLinkArm())), x_d=np.array([1.52, 0.6]),
                                     K=_nonneg(500.0), D=_nonneg(60.0), K_pos=_nonneg(3000.0), D_pos=_nonneg(150.0),
                                     f_detect=Arg(0.5, Kind("scalar", physical="positive")))],
    "Wall": [dict(position=1.5, stiffness=Arg(1e4, Kind("scalar", physical="positive")),
                  damping=Arg(10.0, Kind("scalar", physical="nonnegative")))],
    "impedance_controller": [dict(arm=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())), x_d=np.array([1.6, 0.6]),
                                  K=Arg(1000.0, Kind("scalar", physical="nonnegative", skip=("an array",))),
                                  D=Arg(np.array([60.0, 50.0]), Kind("array", physical="nonnegative"))),
                             dict(arm=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())), x_d=np.array([1.6, 0.6]),
                                  K=Arg(1000.0, Kind("scalar", physical="nonnegative", skip=("an array",))),
                                  D=Arg(60.0, Kind("scalar", physical="nonnegative", skip=("an array",))),
                                  inertia=Arg(2.0, Kind("scalar", physical="positive", skip=("an array",))),
                                  force=lambda q, v: np.zeros(2))],
    "admittance_controller": [dict(arm=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())), x_d=np.array([1.6, 0.6]),
                                   M=Arg(2.0, Kind("scalar", physical="positive", skip=("an array",))),
                                   D=Arg(80.0, Kind("scalar", physical="nonnegative", skip=("an array",))),
                                   K=Arg(np.array([800.0, 500.0]), Kind("array", physical="nonnegative")),
                                   dt=Arg(1e-3, Kind("scalar", physical="positive")), force=lambda q, v: np.zeros(2),
                                   Kp=Arg(2e4, Kind("scalar", physical="nonnegative", skip=("an array",))),
                                   Kd=Arg(300.0, Kind("scalar", physical="nonnegative", skip=("an array",))))],
    "wall_sensor": [dict(arm=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())),
                         wall=Arg(kl.Wall(1.5, 1e4, 10.0), Kind("object", wrong=kl.TwoLinkArm())))],
    "wall_torque": [dict(arm=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())),
                         wall=Arg(kl.Wall(1.5, 1e4, 10.0), Kind("object", wrong=kl.TwoLinkArm())))],
    "critical_delay": [dict(omega_n=Arg(20.0, Kind("scalar", physical="positive")),
                            zeta=Arg(0.7, Kind("scalar", physical="nonnegative")))],
    "simulate_wall_contact": [dict(arm=Arg(kl.TwoLinkArm(), Kind("object", wrong=kl.puma560())),
                                   law=lambda t, q, v: -20.0 * q - 5.0 * v,
                                   wall=Arg(kl.Wall(1.5, 1e4, 10.0), Kind("object", wrong=kl.puma560())),
                                   q0=np.array([0.2, 1.2]), v0=np.array([0.0, 0.1]),
                                   t_final=Arg(0.02, Kind("scalar", physical="positive", size=True)),
                                   dt=Arg(1e-3, Kind("scalar", physical="positive", size=True)),
                                   delay_steps=1, substeps=2)],
    # documents/ (the source documents' formulas as written)
    "doc000.floating_base_dims": [dict(n_joints=Arg(12, Kind("int", size=True)))],
    "doc000.zmp_cmp_offset": [dict(z_com=1.0, mass=50.0, pdd_com=np.array([2.0, 0.5]))],
    "doc000.friction_pyramid": [dict(mu=Arg(0.6, Kind("scalar", physical="nonnegative")))],
    "doc000.planar_3r_singularities": [dict(q=np.array([0.3, 0.5, -0.4]))],
    "doc000.nullspace_step": [dict(J=kl.geometric_jacobian(arm3(), [0.3, 0.5, -0.4])[:2], dx=np.array([0.01, -0.02]),
                                   z=np.array([0.1, -0.1, 0.2]), damping=0.1)],
    "doc000.skew_check": [dict(M_dot=np.array([[0.0, -0.3], [-0.3, 0.0]]), C=np.array([[-0.15, -0.3], [0.15, 0.0]]))],
    "doc000.rnea_operations": [dict(n_links=Arg(6, Kind("int", size=True)))],
    "doc001.joint_pid_update": [dict(err=0.1, dt=0.01, gravity_ff=0.5, i_term=0.0, prev_err=0.05, kp=100.0, ki=10.0,
                                     kd=5.0)],
    "doc001.delay_bandwidth": [dict(delay=Arg(0.01, Kind("scalar", physical="positive")))],
    "doc003.task_force": [dict(J=np.array([[-1.5, -1.0], [0.866, 0.0]]), tau=np.array([1.0, 2.0]))],
    "doc001.joint_pid_poles": [dict(inertia=Arg(1.0, Kind("scalar", physical="positive")), kp=100.0, kd=5.0)],
    "doc001.cartesian_impedance": [dict(J_local=rng(40).normal(size=(6, 3)), x_err=rng(41).normal(size=6) * 0.01,
                                        dx_err=rng(42).normal(size=6) * 0.1, K=np.full(6, 100.0), D=np.full(6, 10.0),
                                        gravity=np.array([0.0, 4.9, 1.2]))],
    "doc002.dh_a": [dict(a=0.3, alpha=0.7, d=0.2, theta=-0.4)],
    "doc002.sym_dh_a": [dict(a=Arg(1, Kind("scalar")), alpha=Arg(0, Kind("scalar")), d=0.5, theta=sp.Symbol("q"))],
    "doc002.is_singular": [dict(J=np.array([[1.0, 0.5], [0.2, 0.9]]))],
    "doc002.ik_converged": [dict(dx=Arg(np.array([1e-3, 2e-3, 0.0, 0.01, 0.0, 0.0]), Kind("free")))],
    "doc002.mecanum_efficiency": [dict(gamma=np.pi / 4)],
    "doc000.acceleration_constraint": [dict(J=Arg(np.array([[1.0, 0.5, 0.0], [0.0, 1.0, 2.0]]), Kind("free")),
                                            Jdot=Arg(np.array([[0.1, 0.0, 0.2], [0.0, -0.3, 0.1]]), Kind("free")),
                                            v=np.array([0.2, -0.1, 0.4]))],
    "doc000.projected_dynamics": [dict(M=_CONTACT_M, h=Arg(np.array([0.1, 9.81, -0.3]), Kind("array")),
                                       J=Arg(np.array([[1.0, 1.0, 0.0]]), Kind("free")), tau=np.array([0.5, 0.0, -0.1]))],
    "doc000.impact_velocity": [dict(v_before=Arg(np.array([0.1, 0.0, -4.4]), Kind("free")), normal=np.array([0.0, 0.0, 1.0]))],
    "doc000.sliding_condition": [dict(f_t=np.array([-3.0, 0.5]), v_t=np.array([0.6, -0.1]))],
    # identification (chapter 11)
    "coulomb_viscous_friction": [dict(v=Arg(np.array([0.3, -0.2, 0.0]), Kind("elementwise")), f_c=_nonneg(0.2),
                                      f_v=_nonneg(0.05))],
    "stribeck_friction": [dict(v=Arg(np.array([0.3, -0.2, 0.01]), Kind("elementwise")), f_c=_nonneg(0.2),
                               f_s=_nonneg(0.3), f_v=_nonneg(0.05), v_s=Arg(0.02, Kind("scalar", physical="positive")),
                               delta=Arg(2.0, Kind("scalar", physical="positive")))],
    "LuGre": [dict(sigma0=Arg(1e4, Kind("scalar", physical="positive")), sigma1=_nonneg(30.0), sigma2=_nonneg(0.05),
                   f_c=_nonneg(0.2), f_s=_nonneg(0.3), v_s=Arg(0.02, Kind("scalar", physical="positive")))],
    "friction_regressor": [dict(v=Arg(np.array([0.3, -0.2, 0.1]), Kind("free", skip=("an extra axis",))))],
    "simulate_friction_loop": [lambda ctx: dict(
        inertia=Arg(0.02, Kind("scalar", physical="positive")),
        friction=Arg(kl.LuGre(1e3, 5.0, 0.05, 0.2, 0.3, 0.02), Kind("object", wrong=kl.puma560())),
        pid=Arg(kl.PID(20.0, 1.0, 1.0), Kind("object", wrong=kl.puma560())), amplitude=0.5, frequency=0.5,
        t_final=Arg(0.02, Kind("scalar", physical="positive", size=True)),
        dt=Arg(0.002, Kind("scalar", physical="positive", size=True)), substeps=Arg(2, Kind("int", size=True)))],
    "reflected_inertia": [dict(J_motor=_nonneg(1.5e-5), J_load=_nonneg(0.02), ratio=Arg(19.2, Kind(
        "scalar", physical="positive")))],
    "gear_output_torque": [dict(tau_motor=Arg(np.array([0.5, -0.2]), Kind("elementwise")), ratio=Arg(19.2, Kind(
        "scalar", physical="positive")), efficiency=Arg(0.9, Kind("scalar", physical="positive")))],
    "rotor_armature": [dict(J_rotor=Arg(np.array([1.5e-5, 1.5e-5, 1.0e-5]), Kind("array", physical="nonnegative")),
                            ratio=Arg(np.array([19.2, 19.2, 36.0]), Kind("array", physical="positive")))],
    "mass_matrix_with_armature": [lambda ctx: dict(armature=Arg(np.full(ctx.nv, 0.01), Kind(
        "array", physical="nonnegative")))],
    "forward_dynamics_with_armature": [lambda ctx: dict(armature=Arg(np.full(ctx.nv, 0.01), Kind(
        "array", physical="nonnegative")))],
    "body_regressor": [dict(a=np.array([0.1, -0.2, 9.81, 0.3, 0.1, -0.2]), v=np.array([0.2, 0.1, 0.0, -0.3, 0.5, 0.1]))],
    "inertia_from_parameters": [dict(pi=kl.inertial_parameters_of(
        kl.spatial_inertia(2.0, [0.1, -0.2, 0.3], np.diag([0.1, 0.2, 0.25]))))],
    "subtree_model": [lambda ctx: dict(root=Arg(ctx.obj.body_names[0], Kind("option")))],
    "pseudo_inertia": [dict(pi=kl.inertial_parameters_of(kl.spatial_inertia(2.0, [0.1, -0.2, 0.3], np.diag([0.1, 0.2, 0.25]))))],
    "pseudo_inertia_eigenvalues": [lambda ctx: dict(params=Arg(kl.inertial_parameters(models()["revolute chain"]), Kind("free")),
                                                    n_extra=Arg(0, Kind("int")))],
    "identify_physical_parameters": [lambda ctx: dict(W=Arg(_regressors()[0], Kind("free")), tau=Arg(_regressors()[1], Kind("free")),
                                                      n_extra=Arg(0, Kind("int")), prior_weight=_nonneg(1e-6),
                                                      tol=_nonneg(1e-9))],
    "random_regressor_data": [lambda ctx: dict(model=Arg(models()["revolute chain"], Kind("object", wrong=kl.puma560())),
                                               n_samples=Arg(5, Kind("int")), amplitude=_nonneg(0.5), noise=_nonneg(0.01),
                                               seed=Arg(3, Kind("int")))],
    "fit_stribeck": [dict(v=Arg(np.linspace(-1.0, 1.0, 20), Kind("free")),
                          tau_f=Arg(np.sign(np.linspace(-1.0, 1.0, 20)) * 0.8 + 0.3 * np.linspace(-1.0, 1.0, 20), Kind("free")),
                          delta=Arg(2.0, Kind("scalar", physical="positive")))],
    "fit_lugre": [dict(v=Arg(3e-4 * np.cos(np.linspace(0.0, 12.0, 200)), Kind("free")),
                       tau_f=Arg(kl.LuGre(1e4, 100.0, 0.05, 1.0, 1.5, 0.1).simulate(
                           3e-4 * np.cos(np.linspace(0.0, 12.0, 200)), 5e-3)[1], Kind("free")),
                       dt=Arg(5e-3, Kind("scalar", physical="positive")), static=(1.0, 1.5, 0.05, 0.1))],
    "stack_regressor": [lambda ctx: dict(Y=Arg(_regressors()[0], Kind("free")), tau=Arg(_regressors()[1], Kind("free")))],
    "base_parameters": [lambda ctx: dict(W=Arg(_regressors()[0], Kind("free")), method="svd")],
    "regressor_rank": [lambda ctx: dict(W=Arg(_regressors()[0], Kind("free")))],
    "FourierTrajectory": [dict(q0=np.array([0.1, -0.2]), a=np.array([[0.1, 0.05], [0.0, 0.2]]),
                               b=np.array([[0.0, 0.1], [0.1, -0.05]]), f0=Arg(0.2, Kind("scalar", physical="positive")))],
    "fourier_trajectory": [dict(q0=np.array([0.1, -0.2]), a=np.array([[0.1, 0.05], [0.0, 0.2]]),
                                b=np.array([[0.0, 0.1], [0.1, -0.05]]), f0=Arg(0.2, Kind("scalar", physical="positive")))],
    "random_excitation": [dict(lower=np.array([-1.0, -2.0]), upper=np.array([1.0, 1.5]), v_max=Arg(np.array(
        [2.0, 3.0]), Kind("array", physical="positive")), n_harmonics=Arg(3, Kind("int", size=True)))],
    "optimize_excitation": [lambda ctx: dict(
        model=Arg(models()["revolute chain"], Kind("object", wrong=kl.puma560())),
        columns=Arg(_base().independent, Kind("sequence")), lower=np.full(3, -1.5), upper=np.full(3, 1.5),
        v_max=Arg(np.full(3, 3.0), Kind("array", physical="positive")), n_harmonics=Arg(2, Kind("int", size=True)),
        n_samples=Arg(12, Kind("int", size=True)), maxiter=Arg(1, Kind("int", size=True)))],
    "lowpass_zero_phase": [dict(x=Arg(np.sin(np.linspace(0.0, 3.0, 120))[:, None] * [1.0, 2.0], Kind("free")),
                                sample_rate=Arg(100.0, Kind("scalar", physical="positive")),
                                cutoff=Arg(10.0, Kind("scalar", physical="positive")))],
    "central_difference": [dict(x=Arg(np.sin(np.linspace(0.0, 1.0, 20)), Kind("free", skip=("an extra axis",))),
                                dt=Arg(0.05, Kind("scalar", physical="positive")))],
    "add_noise": [dict(x=Arg(np.ones((5, 2)), Kind("free")), std=Arg(np.array([0.1, 0.2]), Kind(
        "array", physical="nonnegative")))],
    "identify_parameters": [lambda ctx: dict(W=Arg(_regressors()[0][:, :, list(_base().independent)], Kind("free")),
                                             tau=Arg(_regressors()[1], Kind("free")))],
    "torque_prediction_error": [lambda ctx: dict(
        W=Arg(_regressors()[0][:, :, list(_base().independent)], Kind("free")), tau=Arg(_regressors()[1], Kind("free")),
        params=np.linalg.lstsq(_regressors()[0][:, :, list(_base().independent)].reshape(-1, _base().rank),
                               _regressors()[1].ravel(), rcond=None)[0])],
    "joint_noise_weights": [dict(residual=Arg(rng(50).normal(size=(20, 3)) * [0.1, 0.2, 0.3], Kind("free")))],
    "measure_trajectory": [lambda ctx: dict(model=Arg(models()["revolute chain"], Kind("object", wrong=kl.puma560())),
                                            trajectory=Arg(_trajectory(), Kind("object", wrong=kl.puma560())),
                                            duration=Arg(0.05, Kind("scalar", physical="positive", size=True)),
                                            rate=Arg(200.0, Kind("scalar", physical="positive", size=True)),
                                            q_noise=_nonneg(1e-4), tau_noise=_nonneg(1e-3), rng=rng(51))],
    "process_measurements": [lambda ctx: dict(raw=Arg(_measurements(), Kind("object", wrong=kl.puma560())),
                                              cutoff=Arg(15.0, Kind("scalar", physical="positive")))],
    "identification_regressor": [lambda ctx: dict(
        model=Arg(models()["revolute chain"], Kind("object", wrong=kl.puma560())),
        base=Arg(_base(), Kind("object", wrong=kl.puma560())), q=Arg(_measurements().q[:10], Kind("free")),
        v=Arg(_measurements().v[:10], Kind("free")), a=Arg(_measurements().a[:10], Kind("free")))],
    "identification_data": [lambda ctx: dict(
        model=Arg(models()["revolute chain"], Kind("object", wrong=kl.puma560())),
        base=Arg(_base(), Kind("object", wrong=kl.puma560())), data=Arg(_measurements(), Kind("object", wrong=3)),
        decimate=Arg(5, Kind("int", size=True)), trim=Arg(0.1, Kind("scalar", size=True)))],
    "true_identification_parameters": [lambda ctx: dict(
        model=Arg(models()["revolute chain"], Kind("object", wrong=kl.puma560())),
        base=Arg(_base(), Kind("object", wrong=kl.puma560())), f_v=_nonneg(0.05), f_c=_nonneg(0.1))],
    "doc001.identify": [lambda ctx: dict(Y_list=Arg(list(_regressors()[0]), Kind("sequence")),
                                         tau_list=Arg(list(_regressors()[1]), Kind("sequence")))],
    "doc001.lugre": [dict(z=0.001, v=0.2, sigma0=Arg(1e4, Kind("scalar", physical="positive")),
                          g=lambda v: 0.2 + 0.1 * np.exp(-(v / 0.02) ** 2))],
    "doc002.reflected_inertia_energy": [dict(J_motor=_nonneg(1.5e-5), J_load=_nonneg(0.02), ratio=Arg(19.2, Kind(
        "scalar", physical="positive")))],
    # legged (chapter 8): ANYmal B
    "leg_geometry": [lambda ctx: dict(model=Arg(_anymal(), Kind("object", wrong=kl.puma560())),
                                      foot=Arg("LF_FOOT", Kind("option")))],
    "leg_foot_position": [lambda ctx: dict(model=Arg(_anymal(), Kind("object", wrong=kl.puma560())),
                                           foot=Arg("RH_FOOT", Kind("option")),
                                           q_leg=Arg(np.array([0.1, -0.6, 1.1]), Kind("array")))],
    "leg_ik": [lambda ctx: dict(model=Arg(_anymal(), Kind("object", wrong=kl.puma560())),
                                foot=Arg("LF_FOOT", Kind("option")),
                                p_base=Arg(np.array([0.34, 0.2, -0.45]), Kind("array")),
                                q_ref=Arg(np.array([0.0, 0.4, -0.8]), Kind("array")))],
    "contact_constraint_dynamics": [lambda ctx: dict(model=_anymal_model_arg(), q=_anymal_stance_q(), v=np.zeros(18),
                                                     tau=Arg(np.linspace(-5.0, 5.0, 12), Kind("array")), feet=_anymal_feet())],
    "selection_matrix": [lambda ctx: dict(model=_anymal_model_arg())],
    # stiff systems (chapter 4): the damped test oscillator
    "oscillator_step_matrix": [dict(omega=Arg(100.0, Kind("scalar", physical="positive")), zeta=_nonneg(0.1),
                                    dt=Arg(1e-3, Kind("scalar", physical="positive")), method="semi-implicit")],
    "oscillator_stability_limit": [dict(omega=Arg(100.0, Kind("scalar", physical="positive")), zeta=_nonneg(0.1),
                                        method="explicit")],
    "simulate_oscillator": [dict(omega=Arg(100.0, Kind("scalar", physical="positive")), zeta=_nonneg(0.1),
                                 x0=Arg(0.01, Kind("scalar")), v0=Arg(0.0, Kind("scalar")),
                                 dt=Arg(1e-3, Kind("scalar", physical="positive", size=True)),
                                 t_final=Arg(0.05, Kind("scalar", physical="positive", size=True)), method="implicit",
                                 blowup=Arg(1e6, Kind("scalar", physical="positive")))],
    "contact_jacobian": [lambda ctx: dict(model=Arg(_anymal(), Kind("object", wrong=kl.puma560())),
                                          q=_anymal_q(), feet=Arg(["LF_FOOT", "RH_FOOT"], Kind("sequence")))],
    "simple_leg_model": [dict(l_thigh=Arg(0.25, Kind("scalar", physical="positive")),
                              l_shank=Arg(0.33, Kind("scalar", physical="positive")),
                              hip_offset=np.array([0.05, 0.04, 0.0]), axis_sign=Arg(1.0, Kind("opaque")))],
    "stance_configuration": [lambda ctx: dict(model=_anymal_model_arg(), feet=_anymal_feet(),
                                              p_feet=Arg(_anymal_stance()[1], Kind("array")),
                                              p_base=np.array([0.02, 0.0, 0.47]), R_base=Arg(np.eye(3), Kind("rotation")),
                                              q_ref=_anymal_stance_q())],
    "urdf_boxes": [dict(path=Arg(kl.anymal_b_urdf(), Kind("path")), link=Arg("base", Kind("option")))],
    "add_payload": [lambda ctx: dict(model=_anymal_model_arg(), mass=_nonneg(5.0), p_base=np.array([0.1, 0.0, 0.0]))],
    "static_equilibrium_forces": [lambda ctx: dict(model=_anymal_model_arg(), q=_anymal_stance_q(), feet=_anymal_feet(),
                                                   mu=_nonneg(0.7)),
                                  lambda ctx: dict(model=_anymal_model_arg(), q=_anymal_stance_q(), feet=_anymal_feet(),
                                                   mu=_nonneg(0.7), n_faces=Arg(4, Kind("int")))],
    "external_wrenches": [lambda ctx: dict(model=Arg(_anymal(), Kind("object", wrong=kl.puma560())), q=_anymal_q(),
                                           frames=Arg(["LF_FOOT", "RH_FOOT"], Kind("sequence")),
                                           forces=Arg(np.array([[1.0, -2.0, 150.0], [0.5, 0.0, 140.0]]), Kind("array")))],
    "frame_bias_accelerations": [lambda ctx: dict(model=Arg(_anymal(), Kind("object", wrong=kl.puma560())), q=_anymal_q(),
                                                  v=np.linspace(-1.0, 1.0, 18),
                                                  frames=Arg(["LF_FOOT", "RH_SHANK", "base"], Kind("sequence")))],
    "static_joint_torques": [lambda ctx: dict(model=_anymal_model_arg(), q=_anymal_stance_q(), feet=_anymal_feet(),
                                              forces=Arg(_anymal_forces(), Kind("array")))],
    "contact_force_estimate": [lambda ctx: dict(model=_anymal_model_arg(), q=_anymal_stance_q(), feet=_anymal_feet(),
                                                tau_measured=np.linspace(-10.0, 10.0, 12), v=np.zeros(18),
                                                a=np.zeros(18))],
    "foot_contact_step": [lambda ctx: dict(model=_anymal_model_arg(), q=_anymal_stance_q(), v=np.zeros(18), tau=np.zeros(12),
                                      feet=_anymal_feet(), dt=Arg(1e-3, Kind("scalar", physical="positive")),
                                      mu=_nonneg(0.7), n_faces=Arg(4, Kind("int")), margin=_nonneg(0.01))],
    "simulate_landing": [lambda ctx: dict(model=_anymal_model_arg(), q0=_anymal_stance_q(0.005), feet=_anymal_feet(),
                                          duration=Arg(0.004, Kind("scalar", physical="positive", size=True)),
                                          dt=Arg(2e-3, Kind("scalar", physical="positive", size=True)),
                                          mu=_nonneg(0.8), Kp=_nonneg(300.0), Kd=_nonneg(8.0),
                                          every=Arg(1, Kind("int", size=True)))],
    "whole_body_qp": [lambda ctx: dict(model=_anymal_model_arg(), q=_anymal_stance_q(), v=np.zeros(18),
                                       contact_frames=_anymal_feet(), mu=_nonneg(0.7), n_faces=Arg(4, Kind("int", skip=("None",))),
                                       tau_max=Arg(np.full(12, 80.0), Kind("array", physical="positive", inf_ok=True)),
                                       com_acceleration=np.array([0.1, 0.0, 0.0]),
                                       base_angular_acceleration=np.array([0.0, 0.1, 0.0]),
                                       push=np.array([10.0, 0.0, 0.0]), w_task=Arg(1.0, Kind("scalar", physical="positive")),
                                       w_force=_nonneg(1e-4), w_torque=_nonneg(1e-4), w_acc=_nonneg(1e-6))],
    "urdf_effort_limits": [lambda ctx: dict(model=_anymal_model_arg(), path=Arg(kl.anymal_b_urdf(), Kind("path")))],
    "largest_push": [lambda ctx: dict(model=_anymal_model_arg(), q=_anymal_stance_q(), feet=_anymal_feet(),
                                      direction=np.array([1.0, 0.0, 0.0]), mu=_nonneg(0.7), n_faces=Arg(4, Kind("int", skip=("None",))),
                                      upper=Arg(400.0, Kind("scalar", physical="positive")),
                                      tol=Arg(50.0, Kind("scalar", physical="positive")))],
    "simulate_push": [lambda ctx: dict(model=_anymal_model_arg(), q0=_anymal_stance_q(), feet=_anymal_feet(),
                                       push=np.array([0.0, 30.0, 0.0]), push_start=_nonneg(0.0),
                                       push_duration=_nonneg(0.01),
                                       duration=Arg(0.01, Kind("scalar", physical="positive", size=True)),
                                       dt=Arg(5e-3, Kind("scalar", physical="positive", size=True)),
                                       mu=_nonneg(0.7), Kp=_nonneg(100.0), Kd=_nonneg(20.0),
                                       n_faces=Arg(4, Kind("int", skip=("None",))))],
    "doc000.leg_ik": [dict(p_hip=np.array([0.1, 0.02, -0.4]), l_hip=_nonneg(0.0),
                           l_thigh=Arg(0.25, Kind("scalar", physical="positive")),
                           l_shank=Arg(0.25, Kind("scalar", physical="positive")))],
    "doc000.contact_force_estimate": [dict(J=Arg(np.eye(6)[:, :4] + 0.1, Kind("free")), tau_measured=np.arange(4.0),
                                           tau_model=np.ones(4))],
}

#: public classes that are result records, built only by the library (reason)
NOT_CALLED = {
    "LegGeometry": "result record of leg_geometry",
    "LandingResult": "result record of simulate_landing",
    "WholeBodyQPResult": "result record of whole_body_qp",
    "PushRun": "result record of simulate_push",
    "InputError": "the exception class of the contract itself",
    "PhysicsWarning": "a warning class (raised by load_urdf, never called)",
    "LCPResult": "result record of solve_lcp",
    "FourBarRun": "result record of simulate_four_bar",
    "ContactStep": "result record of contact_step",
    "IKResult": "result record of ik_newton / ik_two_link",
    "SingularityReport": "result record of singularity_report",
    "ResolvedRateResult": "result record of resolved_rate",
    "SignCheck": "result record of single_wheel_check",
    "OdometryRun": "result record of simulate_odometry",
    "NewtonEulerTerms": "result record of newton_euler_terms",
    "SimulationResult": "result record of simulate_sampled / simulate_continuous",
    "FreeFloatingRun": "result record of simulate_free_floating",
    "FrictionLoop": "result record of simulate_friction_loop",
    "OperationalSpaceTerms": "result record of operational_space_terms",
    "WallContactRun": "result record of simulate_wall_contact",
    "TipTask": "record of functions built by tip_task",
    "ReflectedInertia": "result record of reflected_inertia",
    "BaseParameters": "result record of base_parameters (functions taking it check its type)",
    "ExcitationResult": "result record of optimize_excitation",
    "Identification": "result record of identify_parameters",
    "PhysicalIdentification": "result record of identify_physical_parameters",
    "StribeckFit": "result record of fit_stribeck",
    "LuGreFit": "result record of fit_lugre",
    "TorqueError": "result record of torque_prediction_error",
    "Measurements": "result record of measure_trajectory / process_measurements",
    "LagrangianModel": "symbolic record built by derive_lagrangian (functions taking it check its type)",
    "NumericLagrangian": "record of compiled functions built by to_numeric (functions taking it check its type)",
}

#: results that may legitimately be infinite (reason)
MAY_RETURN_INF = {
    "condition_number": "kappa = inf is the documented value at a singular J",
    "singularity_report": "kappa = inf is the documented value at a singular J",
}

#: (function, argument, mutation label) whose finite result is accepted although the mutation is
#: normally refused (reason)
ACCEPTED = {
    ("degree_of_mobility", "C", "empty"): "no sliding constraint at all: an omnidirectional chassis (delta_m = 3)",
    ("wrap_angle", "angle", "empty"): "elementwise: an empty array wraps to an empty array",
}
