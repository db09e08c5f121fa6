"""Lagrangian models: identities of M and C, energy, coordinate changes, independent references."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

import kinematics_lib as kl

PARAMS = dict(m1=2.0, m2=1.0, l1=1.0, l2=1.0, g=9.81)  # doc 004's worked example
MODELS = {
    "two_link_end": lambda: kl.two_link_lagrangian("end"),
    "two_link_middle": lambda: kl.two_link_lagrangian("middle"),
    "pendulum_absolute": lambda: kl.double_pendulum_lagrangian("absolute"),
    "pendulum_relative": lambda: kl.double_pendulum_lagrangian("relative"),
    "pendulum_source": kl.double_pendulum_source_lagrangian,
}


def random_params(rng) -> dict:
    return dict(m1=rng.uniform(0.5, 3.0), m2=rng.uniform(0.5, 3.0), l1=rng.uniform(0.3, 2.0),
                l2=rng.uniform(0.3, 2.0), g=9.81)


def random_states(rng, n_states=20):
    for _ in range(n_states):
        yield rng.uniform(-np.pi, np.pi, 2), rng.uniform(-3.0, 3.0, 2)


def mass_points(name, q, p):
    """Positions (2, 2) of the two point masses, written out independently of the library."""
    l1, l2 = p["l1"], p["l2"]
    if name.startswith("two_link"):
        s = 1.0 if name == "two_link_end" else 0.5
        elbow = l1 * np.array([np.cos(q[0]), np.sin(q[0])])
        return np.array([s * elbow, elbow + s * l2 * np.array([np.cos(q[0] + q[1]), np.sin(q[0] + q[1])])])
    th1, th2 = q[0], (q[1] if name in ("pendulum_absolute", "pendulum_source") else q[0] + q[1])
    p1 = l1 * np.array([np.sin(th1), -np.cos(th1)])
    return np.array([p1, p1 + l2 * np.array([np.sin(th2), -np.cos(th2)])])


@pytest.mark.parametrize("name", [n for n in MODELS if n != "pendulum_source"])
def test_kinetic_energy_matches_point_mass_velocities(name):
    """1/2 qd^T M qd = sum 1/2 m |v|^2 with v from central differences of the positions."""
    rng = np.random.default_rng(1)
    p = random_params(rng)
    num = kl.to_numeric(MODELS[name](), p)
    masses = np.array([p["m1"], p["m2"]])
    for q, qd in random_states(rng):
        eps = 1e-6
        v = (mass_points(name, q + eps * qd, p) - mass_points(name, q - eps * qd, p)) / (2 * eps)
        T_ref = 0.5 * masses @ np.sum(v * v, axis=1)
        assert 0.5 * qd @ num.M(q) @ qd == pytest.approx(T_ref, rel=1e-7, abs=1e-9)
        assert num.T(q, qd) == pytest.approx(T_ref, rel=1e-7, abs=1e-9)


@pytest.mark.parametrize("name", [n for n in MODELS if n != "pendulum_source"])
def test_gravity_is_gradient_of_potential(name):
    rng = np.random.default_rng(2)
    p = random_params(rng)
    num = kl.to_numeric(MODELS[name](), p)
    masses = np.array([p["m1"], p["m2"]])
    for q, _ in random_states(rng, 10):
        V = lambda qq: p["g"] * masses @ mass_points(name, qq, p)[:, 1]  # noqa: E731
        grad = [(V(q + 1e-6 * e) - V(q - 1e-6 * e)) / 2e-6 for e in np.eye(2)]
        np.testing.assert_allclose(num.G(q), grad, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", list(MODELS))
def test_mass_matrix_symmetric_positive_definite(name):
    rng = np.random.default_rng(3)
    num = kl.to_numeric(MODELS[name](), random_params(rng))
    for q, _ in random_states(rng):
        M = num.M(q)
        np.testing.assert_allclose(M, M.T, atol=1e-14)
        assert np.linalg.eigvalsh(M).min() > 0.0


@pytest.mark.parametrize("name", list(MODELS))
def test_christoffel_C_skew_property(name):
    """Mdot (finite differences of M along qd) = C + C^T, Mdot - 2C skew, qd^T (Mdot - 2C) qd = 0."""
    rng = np.random.default_rng(4)
    num = kl.to_numeric(MODELS[name](), random_params(rng))
    for q, qd in random_states(rng):
        eps = 1e-6
        Mdot = (num.M(q + eps * qd) - num.M(q - eps * qd)) / (2 * eps)
        C = num.C(q, qd)
        np.testing.assert_allclose(Mdot, C + C.T, atol=1e-7)
        N = Mdot - 2 * C
        np.testing.assert_allclose(N, -N.T, atol=1e-7)
        assert abs(qd @ N @ qd) < 1e-6


@pytest.mark.parametrize("name", list(MODELS))
def test_dM_and_numeric_christoffel_agree_with_symbolic(name):
    rng = np.random.default_rng(5)
    num = kl.to_numeric(MODELS[name](), random_params(rng))
    for q, qd in random_states(rng, 10):
        dM = num.dM(q)
        fd = np.array([(num.M(q + 1e-6 * e) - num.M(q - 1e-6 * e)) / 2e-6 for e in np.eye(2)])
        np.testing.assert_allclose(dM, fd, atol=1e-7)
        np.testing.assert_allclose(kl.christoffel_matrix(dM, qd), num.C(q, qd), atol=1e-12)
        np.testing.assert_allclose(num.bias(q, qd), num.C(q, qd) @ qd + num.G(q), atol=1e-12)


def test_doc004_worked_example_derived_independently():
    """Doc 004: m1 = 2 (elbow), m2 = 1 (tip), L1 = L2 = 1, q = (30°, 60°), qd = (1, -0.5), qdd = (2, 1.5).

    The model's numbers equal closed-form expressions written here, and the document's printed
    numbers agree with them only with g = 9.81 (not 9.8).
    """
    m1, m2, L1, L2, g = 2.0, 1.0, 1.0, 1.0, 9.81
    q, qd, qdd = np.radians([30.0, 60.0]), np.array([1.0, -0.5]), np.array([2.0, 1.5])
    num = kl.to_numeric(kl.two_link_lagrangian("end"), dict(m1=m1, m2=m2, l1=L1, l2=L2, g=g))
    c1, c2, c12, s2 = np.cos(q[0]), np.cos(q[1]), np.cos(q.sum()), np.sin(q[1])
    M_ref = np.array([[(m1 + m2) * L1**2 + m2 * L2**2 + 2 * m2 * L1 * L2 * c2, m2 * L2**2 + m2 * L1 * L2 * c2],
                      [m2 * L2**2 + m2 * L1 * L2 * c2, m2 * L2**2]])
    h = m2 * L1 * L2 * s2
    C_ref = np.array([[-h * qd[1], -h * (qd[0] + qd[1])], [h * qd[0], 0.0]])
    G_ref = np.array([(m1 + m2) * g * L1 * c1 + m2 * g * L2 * c12, m2 * g * L2 * c12])
    np.testing.assert_allclose(num.M(q), M_ref, atol=1e-12)
    np.testing.assert_allclose(num.C(q, qd), C_ref, atol=1e-12)
    np.testing.assert_allclose(num.G(q), G_ref, atol=1e-12)
    tau = kl.inverse_dynamics_lagrange(num, q, qd, qdd)
    # the document's printed values, to its printed precision
    np.testing.assert_allclose(num.M(q), [[5.0, 1.5], [1.5, 1.0]], atol=1e-12)
    np.testing.assert_allclose(num.C(q, qd), [[0.433013, -0.433013], [0.866025, 0.0]], atol=5e-7)
    np.testing.assert_allclose(num.G(q), [25.487128, 0.0], atol=5e-7)
    np.testing.assert_allclose(tau, [38.386647, 5.366025], atol=5e-7)
    np.testing.assert_allclose(np.linalg.eigvalsh(num.M(q)), [0.5, 5.5], atol=1e-12)
    G_98 = kl.to_numeric(kl.two_link_lagrangian("end"), dict(m1=m1, m2=m2, l1=L1, l2=L2, g=9.8)).G(q)
    assert abs(G_98[0] - 25.487128) > 0.02
    # forward dynamics recovers qdd (doc 004's qdd_back)
    np.testing.assert_allclose(kl.forward_dynamics_lagrange(num, q, qd, tau), qdd, atol=1e-12)


def test_non_christoffel_C_has_same_product_but_is_not_skew():
    """C' = [[-2h qd2, -h qd2], [h qd1, 0]] gives C' qd = C qd, yet Mdot - 2C' is not skew."""
    rng = np.random.default_rng(6)
    p = random_params(rng)
    num = kl.to_numeric(kl.two_link_lagrangian("end"), p)
    for q, qd in random_states(rng):
        h = p["m2"] * p["l1"] * p["l2"] * np.sin(q[1])
        C_alt = np.array([[-2 * h * qd[1], -h * qd[1]], [h * qd[0], 0.0]])
        Mdot = np.einsum("kij,k->ij", num.dM(q), qd)
        np.testing.assert_allclose(C_alt @ qd, num.C(q, qd) @ qd, atol=1e-12)
        N_alt = Mdot - 2 * C_alt
        assert abs(qd @ N_alt @ qd) < 1e-10
        if abs(h * qd[1]) > 1e-3:
            assert np.abs(N_alt + N_alt.T).max() > 1e-3


def test_source_mass_matrix_is_inconsistent():
    """Doc 000 ex. 3.8: its M is the relative-angle M with cos(theta2 - theta1), used with absolute angles."""
    rng = np.random.default_rng(7)
    p = random_params(rng)
    true = kl.to_numeric(kl.double_pendulum_lagrangian("absolute"), p)
    rel = kl.to_numeric(kl.double_pendulum_lagrangian("relative"), p)
    src = kl.to_numeric(kl.double_pendulum_source_lagrangian(), p)
    for q, qd in random_states(rng, 10):
        np.testing.assert_allclose(src.M(q), rel.M(kl.absolute_to_relative(q)), atol=1e-12)
        E = np.array([[1.0, 0.0], [1.0, 1.0]])  # qd_abs = E qd_rel
        np.testing.assert_allclose(E.T @ true.M(q) @ E, rel.M(kl.absolute_to_relative(q)), atol=1e-12)
        assert np.abs(src.M(q) - true.M(q)).max() > 0.1
        np.testing.assert_allclose(src.G(q), true.G(q), atol=1e-12)
    # the source's T (printed, absolute angles) is the correct one
    m1, m2, l1, l2 = p["m1"], p["m2"], p["l1"], p["l2"]
    q, qd = np.array([0.4, -1.1]), np.array([0.7, 1.9])
    T_src = 0.5 * ((m1 + m2) * l1**2 * qd[0]**2 + m2 * l2**2 * qd[1]**2
                   + 2 * m2 * l1 * l2 * np.cos(q[0] - q[1]) * qd[0] * qd[1])
    assert true.T(q, qd) == pytest.approx(T_src, rel=1e-12)


def test_wrong_model_conserves_its_own_energy_but_not_the_true_one():
    p = dict(m1=1.0, m2=1.0, l1=1.0, l2=1.0, g=9.81)
    true = kl.to_numeric(kl.double_pendulum_lagrangian("absolute"), p)
    src = kl.to_numeric(kl.double_pendulum_source_lagrangian(), p)
    x0 = np.array([np.pi / 2, np.pi / 3, 0.0, 0.0])
    t, X = kl.integrate_adaptive(kl.lagrange_ode(src), x0, 5.0, 0.01, rtol=1e-10, atol=1e-12)
    E_own = kl.mechanical_energy(src, X[:, :2], X[:, 2:])
    E_true = kl.mechanical_energy(true, X[:, :2], X[:, 2:])
    assert np.ptp(E_own) < 1e-6 * E_own[0]
    assert np.ptp(E_true) > 0.1 * E_true[0]


def test_absolute_and_relative_models_give_the_same_motion():
    p = dict(m1=1.3, m2=0.7, l1=0.9, l2=1.2, g=9.81)
    ab = kl.to_numeric(kl.double_pendulum_lagrangian("absolute"), p)
    rel = kl.to_numeric(kl.double_pendulum_lagrangian("relative"), p)
    q0, qd0 = np.array([2.0, 1.0]), np.array([0.5, -1.0])
    _, Xa = kl.integrate_adaptive(kl.lagrange_ode(ab), np.r_[q0, qd0], 3.0, 0.01, rtol=1e-11, atol=1e-12)
    q0r, qd0r = kl.absolute_to_relative(q0, qd0)
    _, Xr = kl.integrate_adaptive(kl.lagrange_ode(rel), np.r_[q0r, qd0r], 3.0, 0.01, rtol=1e-11, atol=1e-12)
    qa, qda = kl.relative_to_absolute(Xr[:, :2], Xr[:, 2:])
    np.testing.assert_allclose(qa, Xa[:, :2], atol=1e-7)
    np.testing.assert_allclose(qda, Xa[:, 2:], atol=1e-6)
    # and the same tip positions
    np.testing.assert_allclose(kl.double_pendulum_positions(Xr[:, :2], 0.9, 1.2, "relative"),
                               kl.double_pendulum_positions(Xa[:, :2], 0.9, 1.2, "absolute"), atol=1e-6)


def test_relative_pendulum_is_the_two_link_arm_turned_by_90_degrees():
    rng = np.random.default_rng(8)
    p = random_params(rng)
    arm = kl.to_numeric(kl.two_link_lagrangian("end"), p)
    pend = kl.to_numeric(kl.double_pendulum_lagrangian("relative"), p)
    for q, qd in random_states(rng, 10):
        q_arm = q + np.array([-np.pi / 2, 0.0])  # theta1 from the downward vertical = q1 + 90°
        np.testing.assert_allclose(pend.M(q), arm.M(q_arm), atol=1e-12)
        np.testing.assert_allclose(pend.bias(q, qd), arm.bias(q_arm, qd), atol=1e-10)


def test_doc002_midpoint_M11():
    """Doc 002 prints M11 = m2 L1^2 + m2 L1 L2 cos(q2) + m1 L1^2/4 + m2 L2^2/4 (correct)."""
    model = kl.two_link_lagrangian("middle")
    s = {sym.name: sym for sym in model.params} | {sym.name: sym for sym in model.q}
    printed = (s["m2"] * s["l1"]**2 + s["m2"] * s["l1"] * s["l2"] * sp.cos(s["q2"])
               + s["m1"] * s["l1"]**2 / 4 + s["m2"] * s["l2"]**2 / 4)
    assert sp.simplify(model.M[0, 0] - printed) == 0


def test_energy_conserved_under_rk4_and_dissipated_with_damping():
    rng = np.random.default_rng(9)
    num = kl.to_numeric(kl.double_pendulum_lagrangian("absolute"), random_params(rng))
    x0 = np.array([2.0, -0.5, 0.3, 0.0])
    t, X = kl.integrate_rk4(kl.lagrange_ode(num), x0, 5.0, 1e-3)
    E = kl.mechanical_energy(num, X[:, :2], X[:, 2:])
    assert np.abs(E - E[0]).max() < 1e-7 * (1.0 + abs(E[0]))
    D = np.array([[0.3, 0.1], [0.1, 0.2]])
    t, X = kl.integrate_rk4(kl.lagrange_ode(num, damping=D), x0, 5.0, 1e-3)
    E = kl.mechanical_energy(num, X[:, :2], X[:, 2:])
    power = np.einsum("ni,ij,nj->n", X[:, 2:], D, X[:, 2:])  # dE/dt = -qd^T D qd
    W = np.concatenate([[0.0], np.cumsum(0.5 * (power[1:] + power[:-1]) * np.diff(t))])
    np.testing.assert_allclose(E, E[0] - W, atol=1e-5 * (1.0 + W[-1]))
    assert W[-1] > 0.1


def test_power_balance_with_torque():
    """dE/dt = qd^T tau for constant tau (no damping)."""
    num = kl.to_numeric(kl.two_link_lagrangian("end"), PARAMS)
    tau = np.array([3.0, -1.0])
    t, X = kl.integrate_rk4(kl.lagrange_ode(num, tau=tau), np.array([0.1, 0.2, 0.0, 0.0]), 2.0, 1e-3)
    E = kl.mechanical_energy(num, X[:, :2], X[:, 2:])
    work = X[:, :2] @ tau - X[0, :2] @ tau  # constant tau: W = tau . (q - q0)
    np.testing.assert_allclose(E - E[0], work, atol=1e-8)


def test_symplectic_euler_lagrange_energy_error_stays_bounded():
    num = kl.to_numeric(kl.double_pendulum_lagrangian("absolute"), dict(m1=1.0, m2=1.0, l1=1.0, l2=1.0, g=9.81))
    x0 = np.array([np.radians(120.0), np.radians(-10.0), 0.0, 0.0])
    E0 = kl.mechanical_energy(num, x0[:2], x0[2:])
    t, X = kl.symplectic_euler_lagrange(num, x0, 40.0, 0.002)
    dE = np.abs(kl.mechanical_energy(num, X[:, :2], X[:, 2:]) - E0)
    half = len(t) // 2
    assert dE.max() < 0.02 * E0  # about 1 % of E0 over 40 s
    assert dE[half:].max() < 1.5 * dE[:half].max()  # no drift: the second half is no worse
    # the naive semi-implicit Euler in (q, qd) is not symplectic here (M depends on q): it drifts
    t, Y = kl.integrate_semi_implicit_euler(kl.lagrange_ode(num), x0, 40.0, 0.002)
    dE_naive = np.abs(kl.mechanical_energy(num, Y[:, :2], Y[:, 2:]) - E0)
    assert dE_naive.max() > 5 * dE.max()


def test_symplectic_euler_lagrange_is_first_order_with_damping():
    """Against an RK4 reference, the error halves with dt (order 1); the damped energy decays."""
    num = kl.to_numeric(kl.double_pendulum_lagrangian("relative"), dict(m1=1.0, m2=1.0, l1=1.0, l2=1.0, g=9.81))
    x0 = np.array([1.0, 0.5, 0.0, 0.0])
    _, ref = kl.integrate_rk4(kl.lagrange_ode(num, damping=0.5), x0, 2.0, 0.001)
    errors = []
    for dt in (0.004, 0.002):
        _, X = kl.symplectic_euler_lagrange(num, x0, 2.0, dt, damping=0.5)
        errors.append(np.abs(X[-1] - ref[-1]).max())
    assert 1.7 < errors[0] / errors[1] < 2.3
    E = kl.mechanical_energy(num, X[:, :2], X[:, 2:])
    assert E[-1] < 0.9 * E[0]


def test_bad_input_raises_value_error():
    model = kl.two_link_lagrangian("end")
    with pytest.raises(ValueError, match="params"):
        kl.to_numeric(model, dict(m1=1.0, m2=1.0, l1=1.0, l2=1.0))
    with pytest.raises(ValueError, match="params"):
        kl.to_numeric(model, dict(PARAMS, mass=1.0))
    with pytest.raises(ValueError, match="params"):
        kl.to_numeric(model, dict(PARAMS, g=np.nan))
    num = kl.to_numeric(model, PARAMS)
    with pytest.raises(ValueError, match="q"):
        kl.forward_dynamics_lagrange(num, [0.0, 0.0, 0.0], [0.0, 0.0])
    with pytest.raises(ValueError, match=r"\bv\b"):
        kl.forward_dynamics_lagrange(num, [0.0, 0.0], [np.nan, 0.0])
    with pytest.raises(ValueError, match="damping"):
        kl.forward_dynamics_lagrange(num, [0.0, 0.0], [0.0, 0.0], damping=-1.0)
    with pytest.raises(ValueError, match="damping"):
        kl.lagrange_ode(num, damping=[[0.0, 1.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match="mass_position"):
        kl.two_link_lagrangian("tip")
    with pytest.raises(ValueError, match="angles"):
        kl.double_pendulum_lagrangian("joint")
    with pytest.raises(ValueError, match="dM"):
        kl.christoffel_matrix(np.zeros((2, 2)), [1.0, 2.0])
    x, xd = sp.symbols("x xd")
    with pytest.raises(ValueError, match="quadratic"):
        kl.derive_lagrangian(xd**2 / 2 + xd, 0, [x], [xd])
    with pytest.raises(ValueError, match="V"):
        kl.derive_lagrangian(xd**2 / 2, xd * x, [x], [xd])
    with pytest.raises(ValueError, match="q"):
        kl.mechanical_energy(num, [0.0, 0.0], [0.0])


def test_derive_lagrangian_on_a_cart_pendulum():
    """A model not built by the library: cart (mass mc, position x) with a pendulum (m, l, angle th)."""
    x, th, xd, thd = sp.symbols("x th xd thd", real=True)
    mc, m, l, g = sp.symbols("mc m l g", positive=True)
    vx, vy = xd + l * sp.cos(th) * thd, l * sp.sin(th) * thd
    T = mc * xd**2 / 2 + m * (vx**2 + vy**2) / 2
    V = -m * g * l * sp.cos(th)
    model = kl.derive_lagrangian(sp.expand(T), V, [x, th], [xd, thd])
    assert sp.simplify(model.M - sp.Matrix([[mc + m, m * l * sp.cos(th)], [m * l * sp.cos(th), m * l**2]])) == sp.zeros(2, 2)
    assert sp.simplify(model.C * sp.Matrix([xd, thd]) - sp.Matrix([-m * l * sp.sin(th) * thd**2, 0])) == sp.zeros(2, 1)
    assert [s.name for s in model.params] == ["g", "l", "m", "mc"]


def _planar_pinocchio(lengths, masses):
    import pinocchio as pin  # pinned: a missing Pinocchio fails, never skips
    model = pin.Model()
    model.gravity.linear = np.array([0.0, -9.81, 0.0])
    parent, placement = 0, pin.SE3.Identity()
    for L, m in zip(lengths, masses):
        parent = model.addJoint(parent, pin.JointModelRZ(), placement, f"j{parent}")
        model.appendBodyToJoint(parent, pin.Inertia(m, np.array([L, 0.0, 0.0]), np.zeros((3, 3))), pin.SE3.Identity())
        placement = pin.SE3(np.eye(3), np.array([L, 0.0, 0.0]))
    return pin, model, model.createData()


def test_two_link_matches_pinocchio_crba_and_rnea():
    """Independent reference (optional dependency): Pinocchio's CRBA and RNEA on the same arm."""
    pin, model, data = _planar_pinocchio([0.8, 0.6], [2.0, 1.5])
    num = kl.to_numeric(kl.two_link_lagrangian("end"), dict(m1=2.0, m2=1.5, l1=0.8, l2=0.6, g=9.81))
    rng = np.random.default_rng(10)
    for q, qd in random_states(rng, 10):
        qdd = rng.uniform(-2, 2, 2)
        M = pin.crba(model, data, q)
        np.testing.assert_allclose(np.triu(M) + np.triu(M, 1).T, num.M(q), atol=1e-10)
        np.testing.assert_allclose(pin.rnea(model, data, q, qd, qdd),
                                   kl.inverse_dynamics_lagrange(num, q, qd, qdd), atol=1e-10)


def test_two_link_matches_library_crba_and_rnea():
    chain = kl.planar_chain_model([0.8, 0.6], [2.0, 1.5])
    num = kl.to_numeric(kl.two_link_lagrangian("end"), dict(m1=2.0, m2=1.5, l1=0.8, l2=0.6, g=9.81))
    rng = np.random.default_rng(11)
    for q, qd in random_states(rng, 10):
        qdd = rng.uniform(-2, 2, 2)
        np.testing.assert_allclose(kl.crba(chain, q), num.M(q), atol=1e-10)
        np.testing.assert_allclose(kl.rnea(chain, q, qd, qdd), kl.inverse_dynamics_lagrange(num, q, qd, qdd),
                                   atol=1e-10)


def test_trajectory_separation():
    """Zero perturbation gives zero gap; a small release stays close; a large one diverges."""
    num = kl.to_numeric(kl.double_pendulum_lagrangian("absolute"), dict(m1=1.0, m2=1.0, l1=1.0, l2=1.0, g=9.81))
    f = kl.lagrange_ode(num)
    t, gap = kl.trajectory_separation(f, np.radians([120.0, -10.0, 0.0, 0.0]), t_final=2.0, dx=0.0)
    assert t[0] == 0.0 and np.all(gap == 0.0)
    _, small = kl.trajectory_separation(f, np.radians([10.0, 10.0, 0.0, 0.0]), t_final=5.0)
    assert small.max() < 1e-7
    _, large = kl.trajectory_separation(f, np.radians([120.0, -10.0, 0.0, 0.0]), t_final=25.0, dx=1e-6)
    assert large.max() > 1e3 * large[0] + 1e-3
