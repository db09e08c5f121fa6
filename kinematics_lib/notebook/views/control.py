"""Chapter 10 views: the document's PID sign bug, integral windup, a fixed-gain PID on the two-link
arm, computed torque with a wrong model, the task-space inertia ellipse, and impedance or
admittance against a spring-damper wall with a loop delay.

Each view returns a :class:`~kinematics_lib.notebook.widgets.View` whose text holds its key numbers.

Speed: every slider move re-runs the closed loops (1 000 - 2 000 control periods each) with the
library's ``simulate_sampled`` and controllers, whose loop runs their unchecked float kernels;
the document's PID law (ki = 0) is linear in its inputs, so three calls of
``doc001.joint_pid_update`` give its coefficients.
"""

from __future__ import annotations

import numpy as np

from ...contact.compliant import Wall
from ...control.interaction import admittance_controller, impedance_controller, wall_sensor
from ...scenarios.wall import simulate_wall_contact
from ...control.model_based import computed_torque_controller, pd_gains
from ...control.pid import PID, pid_controller, pid_poles
from ...control.plants import JointInertia, TwoLinkArm
from ...control.simulation import constant_reference, simulate_sampled, sine_reference
from ...control.task_space import task_space_inertia
from ...documents import doc001
from ..plotting import curves_figure, draw_chain, ellipse_points, show_curves, new_figure, planar_axes, steady_limits, update_chain
from ..widgets import View, animate, figure_once, fmt

__all__ = ["pid_sign_view", "pid_windup_view", "pid_arm_view", "computed_torque_view", "task_inertia_view",
           "wall_contact_view", "doc_pid_run"]


def _poles(p) -> str:
    return ", ".join(f"{fmt(s.real, 3)}{'+' if s.imag >= 0 else '-'}{abs(s.imag):.3f}j" for s in p)


def doc_pid_run(kp: float, kd: float, fixed=(), q_d: float = 1.0, t_final: float = 2.0, dt: float = 1e-3,
                prev_err: float | None = None):
    """Document 001's ``JointPID`` (ki = 0) on J = 1 regulating to q_d from rest: a SimulationResult.
    ``prev_err`` None starts it at the first error (no first-sample kick); 0.0 is the C++ default."""
    state = {"i": 0.0, "prev": q_d if prev_err is None else prev_err}

    def law(t, q, v):
        tau, state["i"], state["prev"] = doc001.joint_pid_update(q_d - q[0], dt, 0.0, state["i"], state["prev"],
                                                                 kp, 0.0, kd, fixed=fixed)
        return [tau]

    return simulate_sampled(JointInertia(1.0), law, [0.0], [0.0], t_final, dt)


def _doc_pid_response(kp: float, kd: float, fixed=(), q_d: float = 1.0, t_final: float = 2.0, dt: float = 1e-3):
    """:func:`doc_pid_run` (prev_err starting at the first error) on floats. With ki = 0 the
    document's ``JointPID::update`` is linear in (err, prev_err) -- its integral stays 0 -- so
    tau = a err + b prev_err with a, b read off two calls of the document's function."""
    def doc(err, prev):
        return doc001.joint_pid_update(err, dt, 0.0, 0.0, prev, kp, 0.0, kd, fixed=fixed)[0]

    c = doc(0.0, 0.0)
    a, b = doc(1.0, 0.0) - c, doc(0.0, 1.0) - c
    state = [q_d]

    def law(t, q, v):
        err = q_d - q[0]
        tau = a * err + b * state[0] + c
        state[0] = err
        return (tau,)

    return simulate_sampled(JointInertia(1.0), law, (0.0,), (0.0,), t_final, dt)


def pid_sign_view(kp: float = 100.0, kd: float = 5.0) -> View:
    """The document's d-term −kd (err − prev_err)/dt beside the corrected law, on J q̈ = τ, J = 1."""
    doc = _doc_pid_response(kp, kd, dt=2e-3)
    fixed = _doc_pid_response(kp, kd, fixed=("sign",), dt=2e-3)
    fig, art = figure_once(curves_figure, (6.5, 3.6), (
        dict(color="tab:blue", lw=2.0, label="sign fixed: +kd Δerr/dt"),
        dict(color="tab:red", lw=1.5, label="as written: −kd Δerr/dt (leaves the axes: unstable)")),
        1.0, dict(loc="upper left"), xlabel="t [s]", ylabel="q [rad]", xlim=(0.0, 2.0), ylim=(-3.0, 5.0))
    # not clipped to the axes (a flat line at the limit read as torque saturation): the curve
    # leaves the axes and comes back; +-1e3 rad only keeps a diverged run's numbers drawable
    q_doc = np.clip(doc.q[:, 0], -1e3, 1e3)
    out = " (leaves the axes: unstable)" if np.nanmax(np.abs(q_doc - 1.0)) > 4.0 else ""
    show_curves(art, [(fixed.t, fixed.q[:, 0]), (doc.t, q_doc)], f"JointPID on J = 1: kp = {kp:g}, kd = {kd:g}",
          ["sign fixed: +kd Δerr/dt", "as written: −kd Δerr/dt" + out])
    p_doc, p_fix = doc001.joint_pid_poles(1.0, kp, kd), pid_poles(1.0, kp, kd=kd)
    end = "diverged" if doc.status != "ok" else f"|q - q_d| at 2 s = {fmt(abs(doc.q[-1, 0] - 1.0), 3)} rad"
    text = (f"as written: poles {_poles(p_doc)} 1/s -> {end}\n"
            f"fixed sign: poles {_poles(p_fix)} 1/s -> |q - q_d| at 2 s = {fmt(abs(fixed.q[-1, 0] - 1.0), 4)} rad")
    return View(fig, text)


def pid_windup_view(ki: float = 200.0, i_limit: float = 2.0, tau_max: float = 20.0) -> View:
    """A 1 rad step on J = 1 with the motor saturated at ±tau_max: the integral winds up while the
    torque is saturated unless it is clamped at ±i_limit (N·m)."""
    runs = {}
    for label, limit in (("no clamp", np.inf), (f"clamp ±{i_limit:g} N·m", i_limit)):
        law = pid_controller(PID(100.0, float(ki), 20.0, float(limit)), constant_reference([1.0]), 2e-3)
        runs[label] = simulate_sampled(JointInertia(1.0), law, (0.0,), (0.0,), 3.0, 2e-3, tau_limit=float(tau_max))
    fig, art = figure_once(curves_figure, (6.5, 3.6), (
        dict(color="tab:red", lw=1.8, label="no clamp"), dict(color="tab:blue", lw=1.8, label="clamp ±00.0 N·m")),
        1.0, dict(loc="upper right"), xlabel="t [s]", ylabel="q [rad]", xlim=(0.0, 3.0))
    # the legend above the settled response (the limits start at 1.5 rad)
    show_curves(art, [(run.t, run.q[:, 0]) for run in runs.values()],
          f"windup: kp = 100, ki = {ki:g}, kd = 20, |τ| ≤ {tau_max:g} N·m", list(runs))
    art["ax"].set_ylim(steady_limits(np.concatenate([[0.0, 1.2]] + [run.q[:, 0] for run in runs.values()])))
    overshoot = {label: 100 * max(run.q[:, 0].max() - 1.0, 0.0) for label, run in runs.items()}
    text = "\n".join(f"{label}: overshoot {fmt(overshoot[label], 1)} %, "
                     f"|e| at 3 s = {fmt(abs(1.0 - run.q[-1, 0]), 4)} rad" for label, run in runs.items())
    return View(fig, text, {"overshoot_percent": list(overshoot.values())})


def pid_arm_view(kp: float = 200.0, kd: float = 20.0, payload: float = 0.0, gravity_ff: bool = True) -> View:
    """One fixed-gain PD (+ g(q) feed-forward) on the two-link arm: a 0.3 rad step of both joints
    from a folded and from a stretched configuration. M(q) differs, so the responses differ."""
    arm = TwoLinkArm(payload=payload)
    fig, art = figure_once(curves_figure, (6.5, 3.6), (
        dict(color="tab:blue", lw=1.8, label="folded: joint 1"), dict(color="tab:blue", lw=1.0, ls="--", label="folded: joint 2"),
        dict(color="tab:orange", lw=1.8, label="stretched: joint 1"),
        dict(color="tab:orange", lw=1.0, ls="--", label="stretched: joint 2")),
        0.3, dict(ncol=2, loc="lower right"),  # the legend below the settled steps
        xlabel="t [s]", ylabel="q − q₀ [rad]", xlim=(0.0, 1.5), ylim=(-0.4, 0.6))
    lines, curves, numbers = [], [], {"sag": {}, "M11": {}}
    for (name, q0), color in zip((("folded", (0.5, 2.2)), ("stretched", (0.5, 0.3))), ("tab:blue", "tab:orange")):
        q0 = np.array(q0)
        q_d = q0 + 0.3
        law = pid_controller(PID(float(kp), 0.0, float(kd)), constant_reference(q_d), 2e-3,
                             gravity=arm.gravity if gravity_ff else None)
        run = simulate_sampled(arm, law, q0, (0.0, 0.0), 1.5, 2e-3)
        curves += [(run.t, run.q[:, 0] - q0[0]), (run.t, run.q[:, 1] - q0[1])]
        M11 = arm.mass_matrix(q_d)[0, 0]
        zeta = kd / (2.0 * np.sqrt(kp * M11))
        sag = np.zeros(2)
        for _ in range(50 if not gravity_ff else 0):  # equilibrium of PD alone: kp e = g(q_d - e)
            sag = arm.gravity(q_d - sag) / kp
        err = q_d - run.q[-1]
        numbers["sag"][name], numbers["M11"][name] = sag, M11
        lines.append(f"{name}: M11(q_d) = {fmt(M11, 3)} kg·m², zeta_1 = kd/(2 sqrt(kp M11)) = {fmt(zeta, 3)}, "
                     f"e(1.5 s) = ({fmt(err[0], 3)}, {fmt(err[1], 3)}), static sag = ({fmt(sag[0], 4)}, "
                     f"{fmt(sag[1], 4)}) rad" if run.status == "ok" else f"{name}: diverged")
    show_curves(art, curves, f"fixed gains kp = {kp:g}, kd = {kd:g}, payload {payload:g} kg, g-FF {'on' if gravity_ff else 'off'}")
    return View(fig, "\n".join(lines), numbers)


def computed_torque_view(omega_n: float = 20.0, zeta: float = 1.0, mass_scale: float = 1.0) -> View:
    """Computed torque (model masses × mass_scale) and a PD + g(q) with the same gains scaled by the
    true M(q₀) tracking a sine on the two-link arm with a 1 kg payload, both sampled at 500 Hz."""
    arm = TwoLinkArm(payload=1.0)
    model = arm.with_masses(mass_scale)
    Kp, Kd = pd_gains(omega_n, zeta)
    offset, amplitude, omega = np.array([0.4, 1.0]), np.array([0.5, 0.4]), np.array([3.0, 4.0])
    ref = sine_reference(offset, amplitude, omega)
    q0, v0 = np.array([0.5, 0.9]), np.zeros(2)
    ct = simulate_sampled(arm, computed_torque_controller(model, ref, Kp, Kd), q0, v0, 2.0, 2e-3)
    Mq0 = np.diag(arm.mass_matrix(q0))
    pid = pid_controller(PID(Kp * Mq0, 0.0, Kd * Mq0), ref, 2e-3, gravity=model.gravity)
    pd = simulate_sampled(arm, pid, q0, v0, 2.0, 2e-3)
    fig, art = figure_once(curves_figure, (6.5, 3.6), (
        dict(color="tab:blue", lw=1.8, label="computed torque: joint 1"),
        dict(color="tab:blue", lw=1.0, ls="--", label="computed torque: joint 2"),
        dict(color="tab:red", lw=1.8, label="PD + g(q), kp = Kp M_ii(q0): joint 1"),
        dict(color="tab:red", lw=1.0, ls="--", label="PD + g(q), kp = Kp M_ii(q0): joint 2")),
        0.0, dict(ncol=2, loc="upper right"),  # the legend above the errors after the transient
        xlabel="t [s]", ylabel="e = q_d − q [deg]", xlim=(0.0, 2.0))
    curves, numbers = [], {"Kp": Kp, "Kd": Kd, "max_error_deg": {}}
    lines = [f"Kp = omega_n^2 = {fmt(Kp, 1)} 1/s², Kd = 2 zeta omega_n = {fmt(Kd, 2)} 1/s, model masses × {mass_scale:.2f}"]
    for run, name, color in ((ct, "computed torque", "tab:blue"), (pd, "PD + g(q), kp = Kp M_ii(q0)", "tab:red")):
        e = offset + amplitude * np.sin(np.outer(run.t, omega)) - run.q  # q_d(t) - q, all samples at once
        curves += [(run.t, np.degrees(e[:, 0])), (run.t, np.degrees(e[:, 1]))]
        late = run.t >= 1.0
        numbers["max_error_deg"][name] = float(np.degrees(np.abs(e[late]).max()))
        lines.append(f"{name}: max |e| after 1 s = {fmt(numbers['max_error_deg'][name], 3)} deg")
    show_curves(art, curves, f"tracking error, ω_n = {omega_n:g} rad/s, ζ = {zeta:g}")
    art["ax"].set_ylim(steady_limits(np.concatenate([[0.0]] + [y for _, y in curves]), symmetric=True))
    return View(fig, "\n".join(lines), numbers)


def _task_inertia_figure():
    fig, ax = new_figure(size=(5.0, 5.0))
    planar_axes(ax, 2.2)
    art = {"chain": draw_chain(ax, np.zeros((3, 2)), animated=True), "title": animate(ax.set_title(" ", fontsize=9)),
           "ellipse": ax.plot([], [], color="tab:purple", lw=1.8, label="√Λ (scaled)", animated=True)[0]}
    return fig, art


def task_inertia_view(q1: float = 30.0, q2: float = 60.0) -> View:
    """Document 004's arm at (q1, q2) in degrees with the ellipse x ᵀ Λ⁻¹ x = 1 of its task-space
    inertia Λ = (J M⁻¹ Jᵀ)⁻¹ at the tip: the axes are the directions of the extreme "felt" masses."""
    arm = TwoLinkArm()
    q = np.radians([q1, q2])
    q1, q2 = q
    elbow = np.array([np.cos(q1), np.sin(q1)])
    tip = arm.tip(q)
    fig, art = figure_once(_task_inertia_figure)
    art["title"].set_text(f"Λ at q = ({np.degrees(q1):.0f}°, {np.degrees(q2):.0f}°)")  # the sliders are in degrees
    update_chain(art["chain"], np.array([[0.0, 0.0], elbow, tip]))
    try:
        Lam = task_space_inertia(arm.mass_matrix(q), arm.jacobian(q))
    except ValueError:
        art["ellipse"].set_visible(False)
        return View(fig, f"q = ({q1:.3f}, {q2:.3f}) rad: J is singular (arm stretched or folded): Λ does not exist")
    ev, V = np.linalg.eigh(Lam)
    scale = 0.6 / np.sqrt(ev.max())
    art["ellipse"].set_visible(True)
    art["ellipse"].set_data(*ellipse_points(tip, scale ** 2 * Lam))
    numbers = {"Lambda": Lam, "masses": ev}
    text = (f"q = ({q1:.3f}, {q2:.3f}) rad, tip = ({fmt(tip[0], 3)}, {fmt(tip[1], 3)}) m\n"
            f"Lambda = [[{fmt(Lam[0, 0], 4)}, {fmt(Lam[0, 1], 4)}], [{fmt(Lam[1, 0], 4)}, {fmt(Lam[1, 1], 4)}]] kg\n"
            f"extreme masses {fmt(ev[0], 3)} and {fmt(ev[1], 3)} kg")
    return View(fig, text, numbers)


WALL = dict(position=1.5, damping=10.0)
X_TARGET = np.array([1.6, 0.6])
Q_START = np.array([0.2, 1.2])  # tip at x = 1.34 m: 0.16 m in front of the wall


def _wall_figure():
    fig, (ax1, ax2) = new_figure(2, 1, size=(6.5, 4.6))
    ax1.axhline(0.0, color="k", lw=0.8)
    ax1.set(ylabel="x − x_wall [mm]", xlim=(0.0, 1.0), ylim=(-170.0, 60.0))
    ax2.set(xlabel="t [s]", ylabel="wall force [N]", xlim=(0.0, 1.0), ylim=(-5.0, 400.0))
    for ax in (ax1, ax2):
        ax.grid(True, alpha=0.3)
    return fig, {"x": ax1.plot([], [], color="tab:blue", lw=1.6, animated=True)[0],
                 "force": ax2.plot([], [], color="tab:red", lw=1.6, animated=True)[0],
                 "title": animate(ax1.set_title(" "))}


def wall_contact_view(wall_stiffness: float = 1e4, delay_ms: int = 0, controller: str = "impedance",
                      K: float = 1000.0) -> View:
    """The two-link arm approaching a spring-damper wall at x = 1.5 m with a target 0.1 m inside it.
    impedance: F = K e − D ẋ (D for ζ = 1 with 1 kg); admittance: M = 2 kg, D for ζ = 1, with a
    stiff inner position loop (2·10⁴ N/m). The loop output is delayed by delay_ms."""
    arm = TwoLinkArm()
    wall = Wall(WALL["position"], wall_stiffness, WALL["damping"])
    dt = 1e-3
    K = float(K)
    if controller == "impedance":
        law = impedance_controller(arm, X_TARGET, K, 2.0 * np.sqrt(K))
    else:
        law = admittance_controller(arm, X_TARGET, 2.0, 2.0 * np.sqrt(2.0 * K), K, dt, wall_sensor(arm, wall))
    run = simulate_wall_contact(arm, law, wall, Q_START, (0.0, 0.0), 1.0, dt, delay_steps=int(delay_ms), substeps=2)
    fig, art = figure_once(_wall_figure)
    art["x"].set_data(run.t, 1e3 * (run.x[:, 0] - wall.position))
    art["force"].set_data(run.t, -run.force[:, 0])
    art["title"].set_text(f"{controller}, K = {K:g} N/m, wall {wall_stiffness:.3g} N/m, delay {delay_ms} ms")
    if run.status != "ok":
        verdict = "diverged"
    else:
        verdict = "settled" if run.settled() else "still oscillating at 1 s"
    late = -run.force[run.t >= run.t[-1] - 0.2, 0]
    span = "" if run.status != "ok" else f"; contact force over the last 0.2 s: {fmt(late.min(), 1)} .. {fmt(late.max(), 1)} N"
    text = f"{controller}: {verdict}{span}"
    numbers = {"settled": verdict == "settled", "late_force": (float(late.min()), float(late.max()))}
    if controller == "impedance":
        k = K * wall_stiffness / (K + wall_stiffness)
        numbers["series_spring_force"] = 0.1 * k
        text += f"\nseries-spring prediction K k_w/(K + k_w) · 0.1 m = {fmt(0.1 * k, 1)} N"
    return View(fig, text, numbers)
