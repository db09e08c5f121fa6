"""Chapter 11 views: friction models, pre-sliding hysteresis, excitation and conditioning, noisy
identification, friction compensation in a PID loop, and the rotor armature's effect on a joint.

Each view returns a :class:`~kinematics_lib.notebook.widgets.View` whose text holds its key numbers.
"""

from __future__ import annotations

import numpy as np

from ...control.pid import PID
from ...dynamics.algorithms import crba
from ...dynamics.model import Model
from ...identification.excitation import FourierTrajectory, random_excitation
from ...identification.experiment import (identification_data, measure_trajectory, process_measurements,
                                          true_identification_parameters)
from ...identification.friction import LuGre, coulomb_viscous_friction, friction_regressor, simulate_friction_loop, \
    stribeck_friction
from ...identification.identifiability import BaseParameters
from ...identification.least_squares import identify_parameters, torque_prediction_error
from ...identification.regressor import joint_torque_regressor
from ..plotting import curves_figure, new_figure, show_curves, steady_limits
from ..widgets import View, animate, figure_once, fmt, slider_labels

__all__ = ["friction_models_view", "presliding_view", "excitation_view", "noisy_identification_view",
           "friction_compensation_view", "armature_view"]


@slider_labels(f_c="f_c [N·m]", f_s="f_s [N·m]", f_v="f_v [N·m·s/rad]", v_s="v_s [rad/s]", delta="δ [-]")
def friction_models_view(f_c: float = 1.0, f_s: float = 1.5, f_v: float = 0.05, v_s: float = 0.1,
                         delta: float = 2.0) -> View:
    """The three models of document 001 over v in [-0.6, 0.6] rad/s: Coulomb + viscous, Stribeck
    with exponent delta, and the steady state of LuGre (sigma2 = f_v; its curve is Stribeck with
    delta = 2, whatever the slider says)."""
    v = np.linspace(-0.6, 0.6, 601)
    lugre = LuGre(sigma0=1e4, sigma1=100.0, sigma2=f_v, f_c=max(f_c, 1e-9), f_s=max(f_s, 1e-9), v_s=v_s)
    fig, art = figure_once(curves_figure, (6.5, 4.0), (
        dict(color="0.5", lw=1.5, label="Coulomb + viscous"), dict(color="tab:blue", lw=2.0, label="Stribeck, δ = 0.0"),
        dict(ls="--", color="tab:red", lw=1.5, label="LuGre steady state (δ = 2)")), 0.0, dict(loc="lower right"),
        zero_v=True, xlabel="joint velocity v [rad/s]", ylabel="friction torque τ_f [N·m]", xlim=(-0.6, 0.6))
    curves = [(v, coulomb_viscous_friction(v, f_c, f_v)), (v, stribeck_friction(v, f_c, f_s, f_v, v_s, delta)),
              (v, lugre.steady_state(v))]
    show_curves(art, curves, "friction models (document 001)",
                ["Coulomb + viscous", f"Stribeck, δ = {delta:.1f}", "LuGre steady state (δ = 2)"])
    art["ax"].set_ylim(steady_limits(np.concatenate([y for _, y in curves]), symmetric=True))
    lines = [f"f_c = {f_c:.2f} N·m, f_s = {f_s:.2f} N·m, f_v = {f_v:.3f} N·m·s/rad, v_s = {v_s:.3f} rad/s, "
             f"delta = {delta:.1f}"]
    for vk in (0.05, 0.2):
        lines.append(f"v = {vk:.2f} rad/s: Coulomb+viscous {fmt(coulomb_viscous_friction(vk, f_c, f_v), 4)}, "
                     f"Stribeck {fmt(stribeck_friction(vk, f_c, f_s, f_v, v_s, delta), 4)}, "
                     f"LuGre steady {fmt(lugre.steady_state(vk), 4)} N·m")
    return View(fig, "\n".join(lines))


@slider_labels(amplitude="A [mrad]", sigma0="σ₀ [N·m/rad]", sigma1="σ₁ [N·m·s/rad]")
def presliding_view(amplitude: float = 0.05, sigma0: float = 1e4, sigma1: float = 100.0) -> View:
    """LuGre's friction torque against the displacement x for x(t) = A sin(2 pi t) (A in mrad,
    two periods): below the bristle deflection z_max ~ f_s / sigma0 the joint does not slide --
    the torque follows a spring of stiffness sigma0 with a thin hysteresis loop (pre-sliding,
    预滑移); far above it the loop becomes the rectangle of Coulomb friction."""
    model = LuGre(sigma0=sigma0, sigma1=sigma1, sigma2=0.05, f_c=1.0, f_s=1.5, v_s=0.1)
    A = amplitude * 1e-3
    t = np.linspace(0.0, 2.0, 4001)
    dt = t[1] - t[0]
    x, v = A * np.sin(2 * np.pi * t), A * 2 * np.pi * np.cos(2 * np.pi * t)
    _, tau = model.simulate(v, dt)
    second = t >= 1.0  # the second period: the bristles have forgotten the start
    fig, art = figure_once(curves_figure, (6.5, 4.0), (
        dict(color="tab:red", lw=1.8, label="LuGre"), dict(color="0.5", lw=1.0, label="Coulomb + viscous"),
        dict(ls=":", color="k", lw=1.0, label="spring σ0 x")), legend=dict(loc="upper left"),
        xlabel="displacement x [mrad]", ylabel="friction torque τ_f [N·m]", ylim=(-1.8, 1.8))
    xm = 1e3 * x[second]
    show_curves(art, [(xm, tau[second]), (xm, coulomb_viscous_friction(v[second], 1.0, 0.05)),
                      (xm, np.clip(model.sigma0 * x[second], -1.6, 1.6))],
                f"pre-sliding: A = {amplitude:.3f} mrad, f_s/σ0 = {1e3 * model.f_s / sigma0:.3f} mrad")
    art["ax"].set_xlim(steady_limits(xm, symmetric=True))
    xs, ts = x[second], tau[second]
    near0 = np.abs(xs) < 0.05 * A
    width = float(ts[near0].max() - ts[near0].min()) if near0.any() else 0.0
    slope = float(np.polyfit(xs, ts, 1)[0])
    text = (f"A = {amplitude:.3f} mrad, sigma0 = {sigma0:.0f} N·m/rad, f_s / sigma0 = {1e3 * 1.5 / sigma0:.3f} mrad\n"
            f"peak |tau_f| = {np.abs(ts).max():.3f} N·m, loop width at x = 0: {width:.3f} N·m, "
            f"fitted slope tau_f / x = {slope:.0f} N·m/rad")
    return View(fig, text, {"slope": slope, "peak": float(np.abs(ts).max()), "loop_width": width})


def _condition(model: Model, base: BaseParameters, traj: FourierTrajectory, n: int = 200) -> tuple:
    t = np.linspace(0.0, traj.period, n, endpoint=False)
    q, v, a = traj(t)
    W = np.concatenate([base.regressor(joint_torque_regressor(model, q, v, a)), friction_regressor(v)], axis=-1)
    s = np.linalg.svd(W.reshape(-1, W.shape[-1]), compute_uv=False)
    return s[0] / s[-1], s


def _excitation_figure(lower, upper, n_sv: int):
    fig, (ax, bx) = new_figure(1, 2, size=(9.0, 3.8))
    art = {"axes": (ax, bx), "q": []}
    for j in range(len(lower)):
        art["q"].append(ax.plot([], [], label=f"q{j + 1}", animated=True)[0])
        ax.axhline(lower[j], color=f"C{j}", lw=0.6, ls=":")
        ax.axhline(upper[j], color=f"C{j}", lw=0.6, ls=":")
    ax.set(xlabel="t [s]", ylabel="q [rad]")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    art["title"] = animate(ax.set_title(" "))
    art["sv"], = bx.semilogy(np.arange(1, n_sv + 1), np.ones(n_sv), "o-", animated=True)
    bx.set(xlabel="index", ylabel="σ_k / σ_1", ylim=(1e-4, 2.0), xlim=(1 - 0.05 * (n_sv - 1), n_sv + 0.05 * (n_sv - 1)))
    bx.grid(True, which="both", alpha=0.3)
    art["sv_title"] = animate(bx.set_title(" "))
    return fig, art


@slider_labels(n_harmonics="K (harmonics) [-]", f0="f₀ [Hz]", seed="random seed [-]")
def excitation_view(model: Model, base: BaseParameters, lower, upper, v_max, n_harmonics: int = 5,
                    f0: float = 0.1, seed: int = 0) -> View:
    """A random (seeded) Fourier excitation with K harmonics at base frequency f0, scaled into the
    limits: the joint angles over one period and the singular values of the stacked base +
    friction regressor (their spread is the condition number)."""
    traj = random_excitation(lower, upper, v_max, n_harmonics, f0, seed)
    cond, s = _condition(model, base, traj)
    t = np.linspace(0.0, traj.period, 400)
    q = traj(t)[0]
    fig, art = figure_once(_excitation_figure, tuple(lower), tuple(upper), s.size)
    ax, bx = art["axes"]
    for j, line in enumerate(art["q"]):
        line.set_data(t, q[:, j])
    ax.set(xlim=steady_limits([0.0, traj.period]), ylim=steady_limits(np.concatenate([lower, upper, q.ravel()])))
    art["title"].set_text(f"K = {n_harmonics} harmonics of {f0:.2f} Hz")
    art["sv"].set_ydata(s / s[0])
    art["sv_title"].set_text(f"singular values, cond = {cond:.1f}")
    text = (f"K = {n_harmonics}, f0 = {f0:.2f} Hz: period {traj.period:.1f} s, highest frequency "
            f"{n_harmonics * f0:.2f} Hz; cond(W) = {cond:.1f}")
    return View(fig, text, {"cond": cond, "period": traj.period})


_VALIDATION: list = []  # [(arguments, (theta, W_val))]: what no slider of the view changes


def _validation_data(model: Model, base: BaseParameters, validation: FourierTrajectory, f_v, f_c):
    """(true theta, validation regressor W_val), computed once per (model, base, validation, f_v, f_c)
    -- the same objects, by identity -- since no slider changes them."""
    args = (model, base, validation, np.array(f_v, float), np.array(f_c, float))
    for key, value in _VALIDATION:
        if all(a is b for a, b in zip(key[:3], args[:3])) and all(np.array_equal(a, b) for a, b in zip(key[3:], args[3:])):
            return value
    theta = true_identification_parameters(model, base, f_v, f_c)
    q, v, a = validation(np.arange(0.0, validation.period, 0.02))
    W_val = np.concatenate([base.regressor(joint_torque_regressor(model, q, v, a)), friction_regressor(v)],
                           axis=-1)
    for a in (theta, W_val):
        a.setflags(write=False)
    _VALIDATION[:] = [(args, (theta, W_val))] + _VALIDATION[:3]
    return theta, W_val


@slider_labels(tau_noise="σ_τ [N·m]", q_noise="σ_q [mrad]", cutoff="f_cutoff [Hz]", rate="sample rate [Hz]")
def noisy_identification_view(model: Model, base: BaseParameters, trajectory: FourierTrajectory,
                              validation: FourierTrajectory, f_v, f_c, tau_noise: float = 0.1,
                              q_noise: float = 0.1, cutoff: float = 15.0, rate: float = 500.0,
                              duration: float = 10.0, seed: int = 0) -> View:
    """One simulated experiment (one period at ``rate`` Hz, noise on tau in N·m and on q in mrad,
    zero-phase low-pass at ``cutoff`` Hz, parallel filtering, least squares): each parameter's
    error in units of its predicted standard deviation, and the validation error on ``validation``."""
    rng = np.random.default_rng(seed)
    raw = measure_trajectory(model, trajectory, duration, rate, f_v, f_c, 1e-3 * q_noise, tau_noise, rng)
    W, tau = identification_data(model, base, process_measurements(raw, cutoff), cutoff, decimate=5)
    fit = identify_parameters(W, tau)
    theta, W_val = _validation_data(model, base, validation, f_v, f_c)
    z = (fit.params - theta) / fit.std
    val = torque_prediction_error(W_val, W_val @ theta, fit.params)
    fig, art = figure_once(_noisy_figure, base.rank, model.nv)
    for bar, zk in zip(art["bars"], z):
        bar.set_height(zk)
        bar.set_color("tab:blue" if abs(zk) <= 2.0 else "tab:red")
    art["ax"].set_ylim(steady_limits(np.concatenate([[-3.0, 3.0], z])))
    text = (f"tau noise {tau_noise:.2f} N·m, q noise {q_noise:.2f} mrad, cutoff {cutoff:.1f} Hz: "
            f"|error| / sigma max {np.abs(z).max():.1f}, mean square {np.mean(z**2):.1f}\n"
            f"cond(W) = {fit.cond:.1f}; validation RMS / peak per joint: "
            + ", ".join(f"{100 * r:.2f} %" for r in val.relative))
    return View(fig, text, {"z": z, "relative_validation_error": np.asarray(val.relative), "cond": fit.cond})


def _noisy_figure(rank: int, nv: int):
    """One bar per identified parameter (base parameters, then viscous and Coulomb friction per joint)."""
    fig, ax = new_figure(size=(7.0, 3.8))
    k = np.arange(rank + 2 * nv)
    bars = ax.bar(k, np.zeros(k.size))
    animate(*bars)
    art = {"ax": ax, "bars": list(bars)}
    ax.axhspan(-2.0, 2.0, color="0.9", zorder=0)
    ax.set(xticks=k, xticklabels=[f"β{i + 1}" for i in range(rank)] + [f"{p}{j + 1}" for j in range(nv) for p in ("fv", "fc")],
           ylabel="(estimate − true) / predicted σ", title="errors against the predicted standard deviation",
           xlim=(-0.6, k.size - 0.4))
    ax.grid(True, axis="y", alpha=0.3)
    return fig, art


def _compensation_figure():
    fig, (ax, bx) = new_figure(2, 1, size=(7.5, 4.6))
    errors = [ax.plot([], [], label=label, animated=True)[0] for label in ("PID only", "PID + friction feed-forward")]
    ax.set(ylabel="error q_d − q [mrad]", title="tracking a 0.5 Hz sine: errors at the velocity reversals",
           xlim=(0.0, 2.0))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="lower left")
    v_d, = bx.plot([], [], color="0.5", label="v_d [rad/s]", animated=True)
    tau_f, = bx.plot([], [], color="tab:red", label="τ_f (PID only) [N·m]", animated=True)
    bx.set(xlabel="t [s]", ylabel="v_d [rad/s]\nτ_f [N·m]", xlim=(0.0, 2.0))  # two quantities, one scale: both named
    bx.grid(True, alpha=0.3)
    bx.legend(fontsize=8, loc="upper right")
    return fig, {"ax": ax, "bx": bx, "errors": errors, "v_d": v_d, "tau_f": tau_f}


@slider_labels(f_c="f_c [N·m]", f_s="f_s [N·m]", model_scale="model / true [-]",
               compensate="friction feed-forward")
def friction_compensation_view(f_c: float = 1.0, f_s: float = 1.5, model_scale: float = 1.0,
                               compensate: bool = True) -> View:
    """A joint (J = 0.05 kg·m²) whose friction is the LuGre model (the plant: bristles, sigma0 = 1e3
    N·m/rad, sigma1 = 10 N·m·s/rad) tracks q_d = 0.5 sin(2 pi 0.5 t) under a PID (kp = 200, ki = 500,
    kd = 5, i_limit = 2); with ``compensate`` the feed-forward adds a LuGre estimate's steady state
    at the desired velocity (its Stribeck curve, delta = 2), its levels scaled by ``model_scale``
    (1 = exact). A 2 s run (1 ms control step, 5 plant steps each), RMS errors from t = 0.5 s --
    shorter than the chapter's 4 s cell (RMS from 1 s, 10 plant steps), so its numbers differ."""
    plant = LuGre(sigma0=1e3, sigma1=10.0, sigma2=0.05, f_c=f_c, f_s=f_s, v_s=0.1)
    estimate = LuGre(sigma0=1e3, sigma1=10.0, sigma2=0.05 * model_scale, f_c=f_c * model_scale,
                     f_s=f_s * model_scale, v_s=0.1)
    runs = {}
    for label, comp in (("PID only", None), ("PID + friction feed-forward", estimate if compensate else None)):
        pid = PID(kp=200.0, ki=500.0, kd=5.0, i_limit=2.0)
        runs[label] = simulate_friction_loop(0.05, plant, pid, 0.5, 0.5, 2.0, dt=1e-3, compensation=comp,
                                             substeps=5)
    fig, art = figure_once(_compensation_figure)
    for line, (label, r) in zip(art["errors"], runs.items()):
        line.set_data(r.t, 1e3 * r.error)
    art["ax"].set_ylim(steady_limits(np.concatenate([1e3 * r.error for r in runs.values()]), symmetric=True))
    r = runs["PID only"]
    art["v_d"].set_data(r.t, r.v_d)
    art["tau_f"].set_data(r.t, r.tau_f)
    art["bx"].set_ylim(steady_limits(np.concatenate([r.v_d, r.tau_f])))
    steady = r.t >= 0.5
    lines = [f"f_c = {f_c:.2f} N·m, f_s = {f_s:.2f} N·m, model scale {model_scale:.2f}, compensation "
             f"{'on' if compensate else 'off'}; a 2 s run, errors over t >= 0.5 s"]
    rms = {}
    for label, run in runs.items():
        e = run.error[steady]
        rms[label] = 1e3 * np.sqrt(np.mean(e**2))
        lines.append(f"{label}: RMS error {rms[label]:.3f} mrad, max {1e3 * np.abs(e).max():.3f} mrad")
    return View(fig, "\n".join(lines), {"rms_error_mrad": rms})


def _armature_figure(joint: int):
    fig, (ax, bx) = new_figure(1, 2, size=(9.0, 3.8))
    art = {"axes": (ax, bx), "links": ax.plot([], [], color="0.4", label="M_jj (links only)", animated=True)[0],
           "total": ax.plot([], [], color="tab:blue", label="M_jj + n² J_m", animated=True)[0]}
    ax.set(xlabel=f"q{joint + 2} [rad]", ylabel="inertia [kg·m²]", title=f"inertia seen by joint {joint + 1}",
           xlim=(-2.75, 2.75))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    art["steps"] = [bx.plot([], [], style, color="tab:blue", label="J = 0.000 kg·m²", animated=True)[0]
                    for style in ("-", "--")]
    bx.set(xlabel="t [s]", ylabel="q / q_step", xlim=(-0.05, 1.05))
    bx.grid(True, alpha=0.3)
    art["legend"] = animate(bx.legend(fontsize=8, loc="lower right"))
    art["step_title"] = animate(bx.set_title(" "))
    return fig, art


@slider_labels(ratio="gear ratio n [-]", J_motor="J_m [10⁻⁴ kg·m²]", kp="k_p [N·m/rad]",
               kd="k_d [N·m·s/rad]")
def armature_view(model: Model, ratio: float = 19.0, J_motor: float = 1.0, kp: float = 100.0, kd: float = 4.0,
                  joint: int = 1) -> View:
    """Rotor inertia n^2 J_m (J_m in 10^-4 kg·m²) on the diagonal of M(q) of a fixed-base leg: the
    inertia M_jj seen by ``joint`` over the range of the next joint, and the PD step response
    (kp N·m/rad, kd N·m·s/rad, J_eff = M_jj + n^2 J_m) at its lightest and heaviest configuration."""
    arm = ratio**2 * J_motor * 1e-4
    angles = np.linspace(-2.5, 2.5, 51)
    M_jj = np.array([crba(model, np.eye(model.nv)[joint + 1] * a if joint + 1 < model.nv else np.zeros(model.nv))
                     [joint, joint] for a in angles])
    t = np.linspace(0.0, 1.0, 400)
    fig, art = figure_once(_armature_figure, joint)
    ax, bx = art["axes"]
    art["links"].set_data(angles, M_jj)
    art["total"].set_data(angles, M_jj + arm)
    ax.set_ylim(0.0, steady_limits([0.0, (M_jj + arm).max()])[1])
    lines = [f"n = {ratio:.1f}, J_m = {J_motor:.2f}e-4 kg·m², armature n^2 J_m = {arm:.4f} kg·m²",
             f"M_jj from {M_jj.min():.4f} to {M_jj.max():.4f} kg·m² (ratio {M_jj.max() / M_jj.min():.2f}); "
             f"with the armature ratio {(M_jj.max() + arm) / (M_jj.min() + arm):.2f}"]
    steps = []
    for k, J in enumerate((M_jj.min() + arm, M_jj.max() + arm)):
        wn, zeta = np.sqrt(kp / J), kd / (2.0 * np.sqrt(kp * J))
        steps.append(_step_response(t, wn, zeta))
        art["steps"][k].set_data(t, steps[-1])
        art["legend"].get_texts()[k].set_text(f"J = {J:.3f} kg·m²")
        lines.append(f"J_eff = {J:.4f} kg·m²: omega_n = {wn:.2f} rad/s, zeta = {zeta:.3f}")
    art["step_title"].set_text(f"PD step response (kp = {kp:.0f}, kd = {kd:.1f})")
    bx.set_ylim(steady_limits(np.concatenate([[0.0, 1.0]] + steps)))
    return View(fig, "\n".join(lines), {"armature": arm, "M_jj": M_jj,
                                        "ratio": (M_jj.max() + arm) / (M_jj.min() + arm)})


def _step_response(t: np.ndarray, wn: float, zeta: float) -> np.ndarray:
    """Unit step response of s^2 + 2 zeta wn s + wn^2 (PD on J a = tau, set-point 1)."""
    if zeta < 1.0:
        wd = wn * np.sqrt(1.0 - zeta**2)
        return 1.0 - np.exp(-zeta * wn * t) * (np.cos(wd * t) + zeta * wn / wd * np.sin(wd * t))
    if zeta == 1.0:
        return 1.0 - np.exp(-wn * t) * (1.0 + wn * t)
    r1, r2 = -wn * (zeta - np.sqrt(zeta**2 - 1)), -wn * (zeta + np.sqrt(zeta**2 - 1))
    return 1.0 + (r2 * np.exp(r1 * t) - r1 * np.exp(r2 * t)) / (r1 - r2)
