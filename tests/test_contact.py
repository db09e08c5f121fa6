"""Chapter 7's contact layer: friction pyramids, KKT and projected dynamics, Lemke's LCP, force distribution.

Independent references: the exact cone sampled over directions, the Schur-complement form, a QP
solver (qpsolvers: ProxQP, Clarabel) for the LCP and the force distribution, brute-force
enumeration of the complementary bases.
"""

from __future__ import annotations

import numpy as np
import pytest
import qpsolvers
import scipy.sparse as sparse

import kinematics_lib as kl

SEED = 7


def random_spd(rng, n, cond=100.0):
    Q, _ = np.linalg.qr(rng.normal(size=(n, n)))
    return Q @ np.diag(np.geomspace(1.0, cond, n)) @ Q.T


# ---------------------------------------------------------------- friction pyramids


@pytest.mark.parametrize("k", [4, 8, 16])
@pytest.mark.parametrize("mu", [0.3, 0.5, 1.0])
def test_inscribed_pyramid_never_admits_more_than_the_cone(k, mu):
    A = kl.friction_pyramid(mu, k, inscribed=True)
    phi = np.linspace(0.0, 2.0 * np.pi, 3601)
    # the boundary of the exact cone at f_n = 1: every point must be outside or on the pyramid
    f = np.stack([mu * np.cos(phi), mu * np.sin(phi), np.ones_like(phi)], axis=1)
    assert ((f @ A.T).max(axis=1) >= -1e-12).all()
    # the tangential part a little beyond the cone: always rejected
    f_out = f * [1.0 + 1e-9, 1.0 + 1e-9, 1.0]
    assert (f_out @ A.T).max(axis=1).min() > 0.0


@pytest.mark.parametrize("k", [4, 8, 16])
@pytest.mark.parametrize("mu", [0.3, 0.5, 1.0])
def test_circumscribed_pyramid_contains_the_cone(k, mu):
    A = kl.friction_pyramid(mu, k, inscribed=False)
    phi = np.linspace(0.0, 2.0 * np.pi, 3601)
    r = np.random.default_rng(SEED).uniform(0.0, 1.0, phi.size)
    f = np.stack([r * mu * np.cos(phi), r * mu * np.sin(phi), np.ones_like(phi)], axis=1)
    assert ((f @ A.T) <= 1e-12).all()
    edge = np.stack([mu * np.cos(phi), mu * np.sin(phi), np.ones_like(phi)], axis=1)
    assert ((edge @ A.T) <= 1e-12).all()


@pytest.mark.parametrize("k", [4, 8, 16])
def test_worst_case_errors_measured_over_directions(k):
    mu = 0.5
    phi = np.linspace(0.0, 2.0 * np.pi, 20001)
    for inscribed in (True, False):
        A = kl.friction_pyramid(mu, k, inscribed)
        # largest |f_t| admitted along phi at f_n = 1: min over faces with positive projection
        d = np.stack([np.cos(phi), np.sin(phi)], axis=1) @ A[:k, :2].T
        limit = np.where(d > 1e-12, -A[:k, 2] / np.where(d > 1e-12, d, 1.0), np.inf).min(axis=1)
        np.testing.assert_allclose(limit, kl.pyramid_tangential_limit(mu, k, inscribed, phi), rtol=1e-12)
        if inscribed:
            assert 1.0 - limit.min() / mu == pytest.approx(1.0 - np.cos(np.pi / k), abs=1e-7)
            assert limit.max() == pytest.approx(mu, abs=1e-9)  # exact at the vertices
        else:
            assert limit.max() / mu - 1.0 == pytest.approx(1.0 / np.cos(np.pi / k) - 1.0, abs=1e-6)
            assert limit.min() == pytest.approx(mu, abs=1e-12)  # tangent on the faces
        assert kl.pyramid_worst_case_error(k, inscribed) == pytest.approx(
            1.0 - np.cos(np.pi / k) if inscribed else 1.0 / np.cos(np.pi / k) - 1.0, rel=1e-12)


def test_exercise_3_3_matrix_is_the_circumscribed_pyramid_and_admits_the_diagonal():
    A = kl.friction_pyramid(0.5, 4, inscribed=False)
    A_doc = kl.doc000.friction_pyramid(0.5)
    assert {tuple(r) for r in A} == {tuple(r) for r in A_doc}
    f = np.array([0.5, 0.5, 1.0])
    assert (A_doc @ f <= 0.0).all() and not kl.in_friction_cone(f, 0.5)
    assert np.hypot(0.5, 0.5) == pytest.approx(np.sqrt(2.0) * 0.5)
    assert not (kl.friction_pyramid(0.5, 4, inscribed=True) @ f <= 0.0).all()
    assert kl.pyramid_worst_case_error(4, True) == pytest.approx(1.0 - np.sqrt(0.5))    # 29.3 % lost on the axes
    assert kl.pyramid_worst_case_error(4, False) == pytest.approx(np.sqrt(2.0) - 1.0)   # 41.4 % admitted on the diagonal


def test_pyramid_last_row_and_zero_friction():
    A = kl.friction_pyramid(0.0, 6)
    np.testing.assert_array_equal(A[-1], [0.0, 0.0, -1.0])
    assert (A @ [0.0, 0.0, 2.0] <= 0).all() and not (A @ [1e-6, 0.0, 2.0] <= 0).all()


@pytest.mark.parametrize("bad", [dict(mu=-0.1), dict(mu=0.5, n_faces=2), dict(mu=np.nan), dict(mu=0.5, n_faces=3.5)])
def test_pyramid_rejects_bad_input(bad):
    with pytest.raises(ValueError, match="mu|n_faces"):
        kl.friction_pyramid(**bad)


# ---------------------------------------------------------------- KKT, Schur complement, projection


def random_constrained(rng, n, k):
    M = random_spd(rng, n)
    return M, rng.normal(size=n), rng.normal(size=(k, n)), rng.normal(size=k), rng.normal(size=n)


def test_minimal_kkt_case():
    a, lam = kl.kkt_dynamics(np.diag([2.0, 1.0]), [0.0, 9.81], [[1.0, 1.0]], [0.0], [0.0, 0.0])
    np.testing.assert_allclose(a, [3.27, -3.27], atol=1e-12)
    np.testing.assert_allclose(lam, [6.54], atol=1e-12)


@pytest.mark.parametrize("n,k", [(3, 1), (6, 2), (12, 5), (18, 12)])
def test_kkt_residuals_and_schur_complement(n, k):
    rng = np.random.default_rng(SEED + n)
    for _ in range(5):
        M, h, J, Jdv, tau = random_constrained(rng, n, k)
        a, lam = kl.kkt_dynamics(M, h, J, Jdv, tau)
        scale = np.abs(M).max() * np.abs(a).max() + np.abs(h).max() + np.abs(tau).max()
        assert np.abs(M @ a + h - tau - J.T @ lam).max() <= 1e-12 * scale * n
        assert np.abs(J @ a + Jdv).max() <= 1e-12 * (np.abs(J).max() * np.abs(a).max() + 1) * n
        Minv = np.linalg.inv(M)
        lam_schur = -np.linalg.solve(J @ Minv @ J.T, J @ Minv @ (tau - h) + Jdv)
        np.testing.assert_allclose(lam, lam_schur, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("n,k", [(3, 1), (6, 2), (12, 5)])
def test_projector_properties_and_projected_dynamics(n, k):
    rng = np.random.default_rng(SEED + 100 + n)
    M, h, J, Jdv, tau = random_constrained(rng, n, k)
    P = kl.constraint_projector(M, J)
    np.testing.assert_allclose(P @ J.T, 0.0, atol=1e-10)
    np.testing.assert_allclose(P @ P, P, atol=1e-10)
    assert np.linalg.matrix_rank(P, tol=1e-9) == n - k
    a_kkt, _ = kl.kkt_dynamics(M, h, J, Jdv, tau)
    np.testing.assert_allclose(kl.projected_dynamics(M, h, J, Jdv, tau), a_kkt, rtol=1e-8, atol=1e-10)
    # P M a = P (tau - h) alone is rank n - k: it does not determine a
    assert np.linalg.matrix_rank(P @ M, tol=1e-9) == n - k


def test_redundant_constraints_raise_and_regularisation_solves_them():
    M = np.diag([2.0, 1.0, 3.0])
    J = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0]])  # the same contact twice
    with pytest.raises(ValueError, match="dependent rows"):
        kl.kkt_dynamics(M, [0, 9.81, 0], J, [0.0, 0.0], [0, 0, 0])
    a, lam = kl.regularized_kkt_dynamics(M, [0, 9.81, 0], J, [0.0, 0.0], [0, 0, 0], damping=1e-9)
    a1, lam1 = kl.kkt_dynamics(M, [0, 9.81, 0], J[:1], [0.0], [0, 0, 0])
    np.testing.assert_allclose(a, a1, atol=1e-6)
    np.testing.assert_allclose(lam.sum(), lam1[0], rtol=1e-6)  # the load is split, its sum is unique
    np.testing.assert_allclose(lam[0], lam[1], rtol=1e-9)      # and the minimum-norm split is even


@pytest.mark.parametrize("bad,match", [
    (dict(M=np.array([[1.0, 2.0], [0.0, 1.0]])), "M must be symmetric"),
    (dict(M=np.ones((2, 3))), "M must be"),
    (dict(M=-np.eye(2)), "positive definite"),
    (dict(J=np.ones((1, 3))), "J must have shape"),
    (dict(tau=np.array([np.inf, 0.0])), "tau"),
])
def test_kkt_rejects_bad_input(bad, match):
    args = dict(M=np.eye(2), h=np.zeros(2), J=np.array([[1.0, 1.0]]), Jdot_v=np.zeros(1), tau=np.zeros(2))
    args.update(bad)
    with pytest.raises(ValueError, match=match):
        kl.kkt_dynamics(**args)


def test_baumgarte_bias_gives_a_damped_constraint():
    # c'' = -(Jdot_v_bias - Jdot_v) for a scalar constraint: c'' + 2 alpha c' + beta^2 c = 0
    b = kl.baumgarte_bias([0.3], [0.2], [0.1], 2.0, 3.0)
    assert b[0] == pytest.approx(0.3 + 2 * 2.0 * 0.2 + 9.0 * 0.1)


# ---------------------------------------------------------------- the LCP


def qp_lcp(M, q):
    """The LCP with SPD M as the QP  min 1/2 z^T M z + q^T z, z >= 0 (ProxQP through qpsolvers)."""
    n = q.size
    return qpsolvers.solve_qp(M, q, lb=np.zeros(n), solver="proxqp", eps_abs=1e-11, eps_rel=0.0)


@pytest.mark.parametrize("n", [2, 3, 5, 8, 13, 20])
def test_lemke_on_random_positive_definite_lcps(n):
    rng = np.random.default_rng(SEED + n)
    for _ in range(10):
        M, q = random_spd(rng, n, cond=50.0), rng.normal(size=n)
        res = kl.solve_lcp(M, q)
        assert res.status == "solved"
        z, w = res.z, res.w
        np.testing.assert_allclose(w, M @ z + q, atol=1e-12)
        assert z.min() >= -1e-9 and w.min() >= -1e-9 and abs(z @ w) <= 1e-9
        np.testing.assert_allclose(z, qp_lcp(M, q), atol=1e-6)


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_lemke_matches_enumeration_of_complementary_bases(n):
    rng = np.random.default_rng(SEED + 50 + n)
    for _ in range(10):
        M, q = random_spd(rng, n, cond=20.0), rng.normal(size=n)
        sols = kl.solve_lcp_enumeration(M, q)
        assert len(sols) == 1  # SPD M: a unique solution
        np.testing.assert_allclose(kl.solve_lcp(M, q).z, sols[0], atol=1e-9)


def test_lemke_on_a_p_matrix_that_is_not_symmetric():
    rng = np.random.default_rng(SEED)
    for _ in range(10):
        M = random_spd(rng, 4) + 0.5 * (lambda S: S - S.T)(rng.normal(size=(4, 4)))  # positive definite, not symmetric
        q = rng.normal(size=4)
        res = kl.solve_lcp(M, q)
        assert res.solved
        np.testing.assert_allclose(res.z, kl.solve_lcp_enumeration(M, q)[0], atol=1e-9)


def test_lcp_without_solution_ends_in_ray_termination():
    # w = -z - 1 >= 0 is impossible for z >= 0
    res = kl.solve_lcp(np.array([[-1.0]]), np.array([-1.0]))
    assert res.status == "ray termination" and not res.solved
    assert kl.solve_lcp_enumeration(np.array([[-1.0]]), np.array([-1.0])) == []
    M = np.array([[0.0, -1.0], [1.0, 0.0]]) - np.eye(2) * 0.0
    q = np.array([-1.0, -1.0])  # z2 > 0 needs w1 = -z2 - 1 < 0: infeasible
    assert kl.solve_lcp(M, q).status == "ray termination"
    assert kl.solve_lcp_enumeration(M, q) == []


def test_lcp_trivial_and_iteration_limit():
    res = kl.solve_lcp(np.eye(3), [1.0, 0.0, 2.0])
    assert res.solved and res.iterations == 0 and (res.z == 0).all()
    rng = np.random.default_rng(SEED)
    M, q = random_spd(rng, 10), -np.ones(10)
    assert kl.solve_lcp(M, q, max_iter=1).status == "max iterations"


# ---------------------------------------------------------------- force distribution

POINTS = np.array([[0.3, 0.2, 0.0], [0.3, -0.2, 0.0], [-0.3, 0.2, 0.0], [-0.3, -0.2, 0.0]])


def standing_wrench(com, mass=20.0, extra=(0.0, 0.0, 0.0)):
    F = np.array(extra) + [0.0, 0.0, mass * 9.81]
    return np.concatenate([F, np.cross(com, F)])


def cone_violation(f, mu, n_faces):
    if n_faces is None:
        return max(np.max(np.hypot(f[:, 0], f[:, 1]) - mu * f[:, 2]), np.max(-f[:, 2]))
    return np.max(f @ kl.friction_pyramid(mu, n_faces, True).T)


@pytest.mark.parametrize("n_faces", [None, 4, 8])
@pytest.mark.parametrize("norm", ["l2", "l1", "linf"])
def test_distribution_balances_the_wrench_inside_the_cones(norm, n_faces):
    rng = np.random.default_rng(SEED)
    for _ in range(5):
        com = np.array([rng.uniform(-0.2, 0.2), rng.uniform(-0.12, 0.12), 0.4])
        w = standing_wrench(com, extra=(rng.uniform(-20, 20), rng.uniform(-20, 20), 0.0))
        f = kl.distribute_contact_forces(POINTS, w, 0.6, n_faces, norm)
        assert np.abs(kl.contact_wrench(POINTS, f) - w).max() <= 1e-8 * np.abs(w).max()
        assert cone_violation(f, 0.6, n_faces) <= 1e-8 * np.abs(w).max()


def test_l2_pyramid_matches_an_independent_qp():
    rng = np.random.default_rng(SEED + 1)
    G = kl.grasp_matrix(POINTS)
    for _ in range(5):
        weights = rng.uniform(0.5, 2.0, 4)
        w = standing_wrench([rng.uniform(-0.2, 0.2), rng.uniform(-0.1, 0.1), 0.5], extra=(5.0, -8.0, 0.0))
        f = kl.distribute_contact_forces(POINTS, w, 0.5, 8, "l2", weights)
        C = np.kron(np.eye(4), kl.friction_pyramid(0.5, 8, True))
        ref = qpsolvers.solve_qp(sparse.csc_matrix(np.diag(np.repeat(weights, 3))), np.zeros(12), sparse.csc_matrix(C),
                                 np.zeros(C.shape[0]), sparse.csc_matrix(G), w,
                                 solver="clarabel", tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
        np.testing.assert_allclose(f.ravel(), ref, atol=1e-6 * np.abs(w).max())


def test_equality_only_l2_is_the_weighted_pseudo_inverse():
    # a load well inside the cones: the constraints are inactive, f = W^-1 G^T (G W^-1 G^T)^-1 w
    w = standing_wrench([0.05, -0.03, 0.4], extra=(2.0, 1.0, 0.0))
    weights = np.array([1.0, 2.0, 1.5, 1.0])
    G = kl.grasp_matrix(POINTS)
    Winv = np.diag(1.0 / np.repeat(weights, 3))
    closed = Winv @ G.T @ np.linalg.solve(G @ Winv @ G.T, w)
    for n_faces in (None, 4):
        f = kl.distribute_contact_forces(POINTS, w, 0.8, n_faces, "l2", weights)
        np.testing.assert_allclose(f.ravel(), closed, atol=1e-6)


def test_exact_cone_optimum_is_bracketed_by_the_pyramids():
    w = standing_wrench([0.1, 0.05, 0.4], extra=(25.0, 15.0, 0.0))  # large tangential load: cones active
    f_exact = kl.distribute_contact_forces(POINTS, w, 0.5, None, "l2")
    f_in = kl.distribute_contact_forces(POINTS, w, 0.5, 64, "l2")
    G = kl.grasp_matrix(POINTS)
    C = np.kron(np.eye(4), kl.friction_pyramid(0.5, 64, inscribed=False))
    f_out = qpsolvers.solve_qp(sparse.eye(12, format="csc"), np.zeros(12), sparse.csc_matrix(C), np.zeros(C.shape[0]),
                               sparse.csc_matrix(G), w, solver="clarabel")
    e = [np.sum(f ** 2) for f in (f_out, f_exact, f_in)]
    assert e[0] <= e[1] + 1e-6 and e[1] <= e[2] + 1e-6
    assert (e[2] - e[0]) / e[1] < 1e-2  # 64 faces: within 1 %


def test_l1_and_linf_are_optimal_against_each_other():
    w = standing_wrench([0.12, 0.04, 0.4], extra=(10.0, 0.0, 0.0))
    f = {n: kl.distribute_contact_forces(POINTS, w, 0.6, 8, n) for n in ("l2", "l1", "linf")}
    l1 = {n: np.abs(x).sum() for n, x in f.items()}
    linf = {n: np.abs(x).max() for n, x in f.items()}
    l2 = {n: np.sum(x ** 2) for n, x in f.items()}
    assert l1["l1"] <= min(l1.values()) + 1e-6
    assert linf["linf"] <= min(linf.values()) + 1e-6
    assert l2["l2"] <= min(l2.values()) + 1e-6


@pytest.mark.parametrize("n_faces", [None, 4])
@pytest.mark.parametrize("norm", ["l2", "l1", "linf"])
def test_infeasible_wrenches_raise(norm, n_faces):
    with pytest.raises(ValueError, match="infeasible"):  # CoM outside the support polygon
        kl.distribute_contact_forces(POINTS, standing_wrench([0.5, 0.0, 0.4]), 0.6, n_faces, norm)
    with pytest.raises(ValueError, match="infeasible"):  # a pull away from the ground
        kl.distribute_contact_forces(POINTS, np.concatenate([[0, 0, -10.0], np.zeros(3)]), 0.6, n_faces, norm)
    with pytest.raises(ValueError, match="infeasible"):  # tangential load beyond mu
        kl.distribute_contact_forces(POINTS, standing_wrench([0.0, 0.0, 0.4], extra=(150.0, 0, 0)), 0.6, n_faces,
                                     norm)


def test_distribution_rejects_bad_input():
    w = standing_wrench([0.0, 0.0, 0.4])
    for kwargs, match in [(dict(mu=-1.0), "mu"), (dict(mu=0.5, n_faces=2), "n_faces"),
                          (dict(mu=0.5, norm="l3"), "norm"), (dict(mu=0.5, weights=[1, 1, 1, -1]), "weights")]:
        with pytest.raises(ValueError, match=match):
            kl.distribute_contact_forces(POINTS, w, **kwargs)
