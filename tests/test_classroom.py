"""The classroom set-up (classroom/), checked without a hub: the safety check of the hub
configuration, the no-overwrite hand-out, the image and the Kubernetes values read statically
(there is no Docker or Kubernetes here), the pinned requirements, and the README's nbgrader
recipe run from the repository root. The end-to-end hub run is `python3 tasks.py classroom
--check` (CI runs it after this suite, see .ci/run)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

ROOT = Path(__file__).resolve().parents[1]
CLASSROOM = ROOT / "classroom"
sys.path.insert(0, str(CLASSROOM))

from hand_out import HANDED_OUT, hand_out  # noqa: E402


def load_hub_config(tmp_path, monkeypatch, overrides: str) -> Config:
    """Load classroom/jupyterhub_config.py as JupyterHub does, with an overrides file."""
    extra = tmp_path / "overrides.py"
    extra.write_text("c = get_config()\n" + overrides)
    monkeypatch.setenv("KL_HUB_OVERRIDES", str(extra))
    monkeypatch.delenv("KL_HUB_URL", raising=False)
    return PyFileConfigLoader("jupyterhub_config.py", path=str(CLASSROOM)).load_config()


@pytest.mark.parametrize("overrides", [
    'c.JupyterHub.authenticator_class = "dummy"\nc.JupyterHub.bind_url = "http://0.0.0.0:8000"',
    'c.JupyterHub.authenticator_class = "dummy"\nc.JupyterHub.bind_url = "https://hub.example.org/"',
    'c.JupyterHub.authenticator_class = "jupyterhub.auth.DummyAuthenticator"\nc.JupyterHub.bind_url = ""\n'
    'c.JupyterHub.ip = ""',
    'c.JupyterHub.spawner_class = "simple"\nc.JupyterHub.bind_url = "http://10.1.2.3:8000"',
    'c.JupyterHub.authenticator_class = "null"\nc.JupyterHub.bind_url = "http://[::]:8000"',
])
def test_test_login_on_a_public_address_is_refused(tmp_path, monkeypatch, overrides):
    with pytest.raises(SystemExit, match="REFUSING TO START"):
        load_hub_config(tmp_path, monkeypatch, overrides)


@pytest.mark.parametrize("overrides", [
    "",                                                        # the shipped defaults: PAM on loopback
    'c.JupyterHub.authenticator_class = "dummy"\nc.JupyterHub.spawner_class = "simple"\n'
    'c.JupyterHub.bind_url = "http://127.0.0.1:8123"',        # the check's set-up
    'c.JupyterHub.bind_url = "https://0.0.0.0:443"',           # real login and spawner, public
])
def test_safe_set_ups_load(tmp_path, monkeypatch, overrides):
    c = load_hub_config(tmp_path, monkeypatch, overrides)
    assert callable(c.Spawner.pre_spawn_hook)
    assert c.JupyterHub.services[0]["name"] == "idle-culler"


def test_shipped_hub_config_uses_real_accounts_and_culls(tmp_path, monkeypatch):
    c = load_hub_config(tmp_path, monkeypatch, "")
    assert c.JupyterHub.authenticator_class == "pam"
    assert c.JupyterHub.spawner_class == "localprocess"
    assert c.JupyterHub.bind_url.startswith("http://127.0.0.1")
    culler = c.JupyterHub.services[0]["command"]
    assert "jupyterhub_idle_culler" in culler
    role = c.JupyterHub.load_roles[0]
    assert role["services"] == ["idle-culler"] and "delete:servers" in role["scopes"]


def test_hand_out_copies_what_is_missing_and_never_replaces(tmp_path):
    collection = tmp_path / "repo"
    for folder in (*HANDED_OUT, "solutions"):
        (collection / folder / "sub").mkdir(parents=True)
        (collection / folder / "a.ipynb").write_text("new a")
        (collection / folder / "sub" / "b.ipynb").write_text("new b")
    home = tmp_path / "home" / "alice"
    (home / "exercises").mkdir(parents=True)
    (home / "exercises" / "a.ipynb").write_text("the student's answers")
    copied = hand_out(collection, home)
    assert (home / "exercises" / "a.ipynb").read_text() == "the student's answers"
    assert (home / "exercises" / "sub" / "b.ipynb").read_text() == "new b"
    assert (home / "chapters" / "a.ipynb").read_text() == "new a"
    assert not (home / "solutions").exists()
    assert len(copied) == 3
    (home / "chapters" / "a.ipynb").write_text("edited")
    assert hand_out(collection, home) == []
    assert (home / "chapters" / "a.ipynb").read_text() == "edited"


def dockerfile_instructions() -> list[tuple[str, str]]:
    text = (CLASSROOM / "Dockerfile").read_text().replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def test_image_is_built_from_pinned_files_and_never_holds_solutions():
    ins = dockerfile_instructions()
    base = [rest for word, rest in ins if word == "FROM"]
    assert len(base) == 1 and re.fullmatch(r"python:3\.11\.\d+-slim-\w+", base[0]), base
    assert not [rest for word, rest in ins if word == "ADD"], "ADD can fetch URLs: use COPY"
    for word, rest in ins:
        if word == "RUN":
            for tool in ("curl", "wget", "git ", "apt-get", "conda", "npm"):
                assert tool not in rest, f"the build downloads with {tool}: {rest}"
            for cmd in rest.split("&&"):
                argv = shlex.split(cmd)
                if "pip" in argv and "install" in argv:
                    reqs = [a for a in argv if a.startswith("requirements/") or a == "."]
                    assert reqs, f"pip installs something that is not a pinned file: {cmd}"
                    if "." not in reqs:
                        assert "requirements/constraints.txt" in argv and "requirements/classroom.txt" in argv
                    else:
                        assert "--no-deps" in argv
    copied = []
    for word, rest in ins:
        if word == "COPY":
            *sources, _dest = shlex.split(rest)
            copied += sources
    for src in copied:
        assert (ROOT / src).exists(), f"COPY {src}: no such file in the repository"
        assert not src.startswith(("solutions", "tests", ".")), f"the image must not contain {src}"
    assert {"chapters/", "exercises/", "kinematics_lib/", "requirements/"} <= set(copied)
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert "solutions/" in ignored and "tests/" in ignored
    user = [rest for word, rest in ins if word == "USER"]
    assert user and user[-1] != "root"
    assert [rest for word, rest in ins if word == "CMD"][-1] == '["jupyterhub-singleuser"]'


def _requirement_pins(path: Path) -> dict[str, str]:
    pins = {}
    for line in path.read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.\-]+)==([^;\s]+)(\s*;\s*(.*))?$", line.strip())
        if m and (not m.group(4) or '>= "3.11"' in m.group(4)):
            pins[m.group(1).lower()] = m.group(2)
    return pins


def test_classroom_requirements_agree_with_the_tested_set():
    classroom = _requirement_pins(ROOT / "requirements" / "classroom.txt")
    locked = _requirement_pins(ROOT / "requirements" / "constraints.txt")
    dev = _requirement_pins(ROOT / "requirements" / "dev.txt")
    assert classroom["nbgrader"] == dev["nbgrader"]
    assert {"jupyterhub", "jupyterhub-idle-culler"} <= set(classroom)
    for name, version in classroom.items():       # no second opinion on a locked package
        assert locked.get(name, version) == version, f"{name}: classroom {version}, constraints {locked[name]}"
    lock = (CLASSROOM / "proxy" / "package-lock.json").read_text()
    assert '"node_modules/configurable-http-proxy"' in lock


def test_kubernetes_values_use_the_image_exchange_and_culler():
    values = yaml.safe_load((CLASSROOM / "z2jh-values.yaml").read_text())
    single = values["singleuser"]
    assert single["image"]["tag"] not in ("latest", "")
    units = {"M": 1e6, "G": 1e9}
    mem = {k: float(v[:-1]) * units[v[-1]] for k, v in single["memory"].items()}
    assert 0 < mem["guarantee"] <= mem["limit"]
    assert 0 < single["cpu"]["guarantee"] <= single["cpu"]["limit"]
    mount = single["storage"]["extraVolumeMounts"][0]
    claim = single["storage"]["extraVolumes"][0]["persistentVolumeClaim"]["claimName"]
    pvc = yaml.safe_load((CLASSROOM / "z2jh-exchange-pvc.yaml").read_text())
    assert pvc["metadata"]["name"] == claim and pvc["spec"]["accessModes"] == ["ReadWriteMany"]
    system = PyFileConfigLoader("nbgrader_config.py", path=str(CLASSROOM / "jupyter")).load_config()
    assert mount["mountPath"] == system.Exchange.root
    assert re.fullmatch(r"[a-z0-9_-]+", system.CourseDirectory.course_id)
    hook = single["lifecycleHooks"]["postStart"]["exec"]["command"]
    assert "/usr/local/bin/kl-hand-out" in hook and "COPY classroom/hand_out.py /usr/local/bin/kl-hand-out" in \
        (CLASSROOM / "Dockerfile").read_text()
    assert values["cull"]["enabled"] and values["cull"]["timeout"] > 0
    assert values["proxy"]["https"]["enabled"]


@pytest.mark.parametrize("auth, refused", [("dummy", True), ("jupyterhub.auth.NullAuthenticator", True),
                                           ("ltiauthenticator.lti13.auth.LTI13Authenticator", False)])
def test_kubernetes_values_refuse_a_test_login(auth, refused):
    values = yaml.safe_load((CLASSROOM / "z2jh-values.yaml").read_text())
    c = Config()
    c.JupyterHub.authenticator_class = auth
    code = values["hub"]["extraConfig"]["00-refuse-test-login"]
    if refused:
        with pytest.raises(SystemExit, match="REFUSING"):
            exec(code, {"c": c})
    else:
        exec(code, {"c": c})


def readme_recipe() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("### Running a course with nbgrader"):]
    block = section[section.index("```bash\n") + 8:]
    return block[:block.index("```")].splitlines()


def git_state() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout


def test_readme_recipe_releases_through_the_exchange_and_leaves_the_repository_clean(tmp_path):
    lines = []
    for line in readme_recipe():
        if line.startswith(("python3 tasks.py", "source ")):
            continue                                  # the environment: this test's own
        if line.startswith("EXCHANGE="):
            line = f"EXCHANGE={tmp_path / 'exchange'}"
        lines.append(line)
        if line.startswith("nbgrader release_assignment"):
            break
    script = "set -euo pipefail\nmkdir -p \"$EXCHANGE_DIR\"\n" + "\n".join(lines) + "\n"
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, HOME=str(home), EXCHANGE_DIR=str(tmp_path / "exchange"),
               PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    env.pop("JUPYTER_CONFIG_DIR", None)
    before = git_state()
    run = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    released = sorted(p.name for p in (tmp_path / "exchange" / "kinematics" / "outbound" / "kl").glob("*.ipynb"))
    assert released == sorted(p.name for p in (ROOT / "exercises").glob("*.ipynb"))
    assert (home / "kinematics-course" / "gradebook.db").exists()
    assert not (ROOT / "gradebook.db").exists()
    assert git_state() == before
