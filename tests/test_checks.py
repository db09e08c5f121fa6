"""Exercise self-checks: friendly messages for students, failures where a grade is decided, and no
way to pass by calling the reference."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib import dh_standard as aliased_reference
from kinematics_lib.notebook.checks import (NOT_ANSWERED, ReferenceCalled, check_function, check_value,
                                            forbidden, notebook_language, random_inputs)

INPUTS = random_inputs(lambda rng: dict(zip(("a", "alpha", "d", "theta"), rng.uniform(-3, 3, 4))), 20, seed=3)
BLOCKS = [kl.translation, kl.rot_z, kl.rot_x]  # the building blocks `honest` uses


def honest(a, alpha, d, theta):
    return kl.translation([0, 0, d]) @ _rx_after(a, alpha, theta)


def _rx_after(a, alpha, theta):
    T = np.eye(4)
    T[:3, :3] = kl.rot_z(theta)
    S = np.eye(4)
    S[0, 3] = a
    X = np.eye(4)
    X[:3, :3] = kl.rot_x(alpha)
    return T @ S @ X


def untouched(a, alpha, d, theta):
    raise NotImplementedError()


def wrong(a, alpha, d, theta):
    return honest(a, alpha, d, theta + 1e-3)


def cheat_flat(a, alpha, d, theta):
    return kl.dh_standard(a, alpha, d, theta)


def cheat_alias(a, alpha, d, theta):
    return aliased_reference(a, alpha, d, theta)


@pytest.fixture
def student_kernel(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)


@pytest.fixture
def grading_kernel(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")


def test_messages_in_a_student_kernel(student_kernel):
    assert check_function(honest, kl.dh_standard, INPUTS, allow=BLOCKS).message.startswith("✔")
    r = check_function(untouched, kl.dh_standard, INPUTS)
    assert not r.passed and not r.answered and NOT_ANSWERED in r.message
    r = check_function(wrong, kl.dh_standard, INPUTS, allow=BLOCKS)
    assert not r.passed and r.answered and r.message.startswith("✘") and "expected" in r.message


@pytest.mark.parametrize("session, forced, language", [
    ("work/zh/06_floating_base_exercises.ipynb", "", "zh"), ("exercises/zh/02_rigid_motions_dh_exercises.ipynb", "", "zh"),
    ("work/06_floating_base_exercises.ipynb", "", "en"), ("", "", "en"), ("zh.ipynb", "", "en"),
    ("work/zh/06.ipynb", "en", "en"), ("work/06.ipynb", "zh", "zh")])
def test_the_notebook_language_is_its_folder(monkeypatch, session, forced, language):
    """jupyter_server gives a kernel its notebook's path (JPY_SESSION_NAME); KL_LANG overrides it."""
    monkeypatch.setenv("JPY_SESSION_NAME", session)
    monkeypatch.setenv("KL_LANG", forced)
    assert notebook_language() == language


def test_messages_in_a_chinese_notebook(student_kernel, monkeypatch):
    """In a notebook of the Chinese edition each message reads in Chinese, the English below it;
    elsewhere (nbval, nbgrader, the English notebooks) only the English."""
    monkeypatch.delenv("KL_LANG", raising=False)
    results = {"passed": check_function(honest, kl.dh_standard, INPUTS, allow=BLOCKS),
               "unanswered": check_function(untouched, kl.dh_standard, INPUTS),
               "wrong": check_function(wrong, kl.dh_standard, INPUTS, allow=BLOCKS),
               "refused": check_function(cheat_flat, kl.dh_standard, INPUTS)}
    chinese = {"passed": "✔ honest：在 20 个输入上与参考实现一致", "unanswered": "尚未作答",
               "wrong": "结果与参考实现不一致", "refused": "调用了参考实现"}
    monkeypatch.setenv("JPY_SESSION_NAME", "work/zh/02_rigid_motions_dh_exercises.ipynb")
    for key, result in results.items():
        shown = repr(result)
        assert chinese[key] in shown and result.message in shown, (key, shown)
    monkeypatch.setenv("JPY_SESSION_NAME", "work/02_rigid_motions_dh_exercises.ipynb")
    assert all(repr(r) == r.message for r in results.values())


@pytest.mark.parametrize("answer", [untouched, wrong, cheat_flat, cheat_alias])
def test_grading_fails_what_did_not_pass(grading_kernel, answer):
    with pytest.raises(AssertionError):
        check_function(answer, kl.dh_standard, INPUTS, allow=BLOCKS)


def test_grading_passes_a_right_answer(grading_kernel):
    assert check_function(honest, kl.dh_standard, INPUTS, allow=BLOCKS).passed
    assert check_value(lambda: 2.0, 2.0).passed
    with pytest.raises(AssertionError):
        check_value(lambda: 2.1, 2.0)


@pytest.mark.parametrize("answer", [cheat_flat, cheat_alias])
def test_calling_the_reference_is_refused(student_kernel, answer):
    r = check_function(answer, kl.dh_standard, INPUTS, allow=BLOCKS)
    assert not r.passed and "reference" in r.message
    # and the reference works again afterwards
    assert np.allclose(kl.dh_standard(1, 0.2, 0.3, 0.4), honest(1, 0.2, 0.3, 0.4))


def test_forbidden_restores_after_errors():
    with pytest.raises(ZeroDivisionError):
        with forbidden([kl.rot_x]):
            with pytest.raises(ReferenceCalled):
                kl.rot_x(0.1)
            1 / 0
    assert np.allclose(kl.rot_x(0.0), np.eye(3))


def test_forbid_rejects_what_it_cannot_swap():
    with pytest.raises(ValueError, match="forbid"):
        with forbidden([lambda x: x]):
            pass


def test_passed_remembers_the_last_check_in_both_kernels(monkeypatch):
    from kinematics_lib.notebook.checks import passed

    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    check_function(untouched, kl.dh_standard, INPUTS)
    assert not passed(untouched) and not passed("untouched")
    check_function(honest, kl.dh_standard, INPUTS, allow=BLOCKS)
    assert passed(honest)
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(AssertionError):
        check_function(wrong, kl.dh_standard, INPUTS, allow=BLOCKS)
    assert not passed(wrong)          # the cell failed, but later cells can still ask
    assert not passed("never_checked")


def test_grading_survives_an_answer_that_deletes_the_variable():
    """Under nbgrader the kernel starts with NBGRADER_EXECUTION; deleting it from os.environ does
    not turn a failing check into a printed one (Linux: the start environment is read back)."""
    import os
    import subprocess
    import sys

    if not os.path.exists("/proc/self/environ"):
        pytest.skip("needs /proc/self/environ")
    code = ("import os; del os.environ['NBGRADER_EXECUTION']\n"
            "from kinematics_lib.notebook.checks import grading; print(grading())")
    env = dict(os.environ, NBGRADER_EXECUTION="autograde")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    env.pop("NBGRADER_EXECUTION")
    out = subprocess.run([sys.executable, "-c", code.split("\n", 1)[1]], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_forbid_explains_cached_functions():
    import functools

    cached = functools.lru_cache(maxsize=None)(kl.rot_x)
    with pytest.raises(ValueError, match="cached"):
        with forbidden([cached]):
            pass


def test_a_library_function_that_is_not_a_building_block_is_refused(student_kernel):
    """honest without its building blocks: kl.translation is refused, named in the message."""
    r = check_function(honest, kl.dh_standard, INPUTS)
    assert not r.passed and r.answered and "calls the library" in r.message and "kl.translation" in r.message
    assert "no library function" in r.message
    r = check_function(honest, kl.dh_standard, INPUTS, allow=[kl.translation, kl.rot_z])
    assert not r.passed and "kl.rot_x" in r.message and "kl.rot_z, kl.translation" in r.message


def sibling_route(a, alpha, d, theta):
    """The same link through a one-row DH robot and a generic routine (not the reference)."""
    robot = kl.DHRobot(a=[a], alpha=[alpha], d=[d], theta=[0.0])
    return kl.dh_end_effector(robot, [theta])


def private_route(a, alpha, d, theta):
    from kinematics_lib.arms import dh        # a module path instead of kl., a sibling function
    return dh.dh_transform(a, alpha, d, theta, convention="standard")


def catches_the_refusal(a, alpha, d, theta):
    """Catches the refusal (which removes the profile hook) and calls the reference again."""
    try:
        return kl.dh_end_effector(kl.DHRobot(a=[a], alpha=[alpha], d=[d], theta=[0.0]), [theta])
    except Exception:
        return sibling_route(a, alpha, d, theta)


@pytest.mark.parametrize("answer", [sibling_route, private_route, catches_the_refusal])
def test_routes_around_the_reference_are_refused(student_kernel, answer):
    assert np.allclose(answer(**INPUTS[0]), kl.dh_standard(**INPUTS[0]))   # a real route to the answer
    r = check_function(answer, kl.dh_standard, INPUTS, allow=BLOCKS)
    assert not r.passed and r.answered and "calls the library" in r.message, r.message
    assert np.allclose(answer(**INPUTS[0]), kl.dh_standard(**INPUTS[0]))   # everything restored
    import sys
    assert sys.getprofile() is None


def test_objects_attributes_and_the_library_inside_a_building_block_are_allowed(student_kernel):
    """Constructing library objects (dataclass __init__ and __post_init__), reading their
    properties, and a building block that calls other library functions internally."""
    def answer(a, alpha, d, theta):
        robot = kl.DHRobot(a=[a], alpha=[alpha], d=[d], theta=[0.0])
        assert robot.n == 1                                     # a property
        return kl.dh_end_effector(robot, [theta])               # calls dh_standard inside

    assert check_function(answer, honest, INPUTS, allow=[kl.dh_end_effector]).passed
    # unless what it calls is forbidden: forbidden functions are refused however they are reached
    r = check_function(answer, honest, INPUTS, allow=[kl.dh_end_effector], forbid=[kl.dh_standard])
    assert not r.passed and "calls the reference" in r.message


def test_a_callback_into_the_library_is_refused(student_kernel):
    """A library function passed to map or numpy is still called from outside the library."""
    def answer(a, alpha, d, theta):
        return np.array(list(map(kl.dh_standard, [a], [alpha], [d], [theta]))[0])

    r = check_function(answer, honest, INPUTS, allow=BLOCKS)
    assert not r.passed and "calls the library" in r.message


def test_a_reference_defined_in_the_notebook_is_refused(student_kernel):
    def reference(a, alpha, d, theta):
        return honest(a, alpha, d, theta)

    def answer(a, alpha, d, theta):
        return reference(a, alpha, d, theta)

    r = check_function(answer, reference, INPUTS, allow=BLOCKS)
    assert not r.passed and "calls the reference" in r.message


def test_pinocchio_is_refused(student_kernel):
    pin = pytest.importorskip("pinocchio")
    from pinocchio import exp3 as aliased

    def answer(a, alpha, d, theta):
        T = np.eye(4)
        T[:3, :3] = pin.exp3(np.array([0.0, 0.0, theta])) @ aliased(np.array([alpha, 0.0, 0.0]))
        T[:3, 3] = T[:3, :3] @ [a, 0.0, 0.0] + [0.0, 0.0, d]
        return T

    assert np.allclose(answer(**INPUTS[0]), kl.dh_standard(**INPUTS[0]))
    r = check_function(answer, kl.dh_standard, INPUTS)
    assert not r.passed and "calls the library" in r.message and "exp3" in r.message
    assert np.allclose(answer(**INPUTS[0]), kl.dh_standard(**INPUTS[0]))   # restored


def test_allow_rejects_what_is_not_a_function():
    with pytest.raises(ValueError, match="allow"):
        check_function(honest, kl.dh_standard, INPUTS, allow=[np.sin])


def test_the_refusal_names_the_forbidden_function(student_kernel):
    def answer(a, alpha, d, theta):
        return kl.dh_end_effector(kl.DHRobot(a=[a], alpha=[alpha], d=[d], theta=[0.0]), [theta])

    r = check_function(answer, honest, INPUTS, allow=[kl.dh_end_effector], forbid=[kl.dh_standard, kl.dh_standard])
    assert r.message.endswith("calls the reference: kl.dh_standard is the reference of this exercise: "
                              "write it yourself")
    assert np.allclose(kl.dh_standard(1, 0.2, 0.3, 0.4), honest(1, 0.2, 0.3, 0.4))   # listed twice, restored


def test_a_table_that_holds_the_answer_can_be_forbidden(student_kernel):
    from kinematics_lib.dynamics import newton_euler_3d as ne

    table = dict(ne.NE_LINE_OPS)

    def answer(n_links, costs):
        return n_links * sum(k * costs[op] for ops in ne.NE_LINE_OPS.values() for op, k in ops.items())

    inputs = [dict(n_links=3, costs=dict(add=1, scale=2, cross=3, matvec=4, dot=5))]
    assert check_function(answer, ne.ne_flops, inputs, forbid=[ne.ne_flops]).passed
    r = check_function(answer, ne.ne_flops, inputs, forbid=[ne.ne_flops, ne.NE_LINE_OPS])
    assert not r.passed and "kl.NE_LINE_OPS" in r.message and "holds this exercise's answer" in r.message
    assert ne.NE_LINE_OPS == table


def test_a_thread_started_by_the_answer_is_gated_too(student_kernel):
    from concurrent.futures import ThreadPoolExecutor

    def answer(a, alpha, d, theta):
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(kl.dh_transform, a, alpha, d, theta).result()

    r = check_function(answer, honest, INPUTS, allow=BLOCKS)
    assert not r.passed and "calls the library" in r.message and "kl.dh_transform" in r.message
