#!/usr/bin/env python3
"""A whole class on a local JupyterHub: the end-to-end check and the harness of the capacity benchmark.

    python3 tasks.py classroom --check     (installs .venv-classroom and the proxy, then runs this)
    .venv-classroom/bin/python tools/classroom.py check [--keep]

The hub runs classroom/jupyterhub_config.py itself, with a small overrides file (dummy login with
one password, SimpleLocalProcessSpawner with a home folder per user under a temporary folder,
127.0.0.1 ports, a service token for this script). Everything goes through HTTP as a browser
would: the hub's login form and REST API, each user's own server (Contents API, kernels over
websockets; nbgrader's exchange commands run in a kernel on that user's server).

The check: one instructor and three students. The instructor uploads the solution of one
exercise, runs generate_assignment and release_assignment; each student logs in, fetches,
answers (correct / one answer wrong / untouched), runs the notebook on their own server and
submits; the instructor collects, autogrades and exports; the scores must be full automatic
points, the full points minus the wrong item's, and zero; requests with another user's token
must be refused. Whatever happens, the hub and every process it started are stopped (process
groups, then a sweep for the run's marker variable in /proc).
"""

from __future__ import annotations

import asyncio
import atexit
import copy
import csv
import io
import json
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote

from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "classroom" / "jupyterhub_config.py"
NBGRADER_SYSTEM_CONFIG = ROOT / "classroom" / "jupyter" / "nbgrader_config.py"
PROXY = ROOT / ".venv-classroom" / "proxy" / "node_modules" / ".bin" / "configurable-http-proxy"
EXERCISE = "09_mecanum_exercises.ipynb"     # small and fast: 7 automatic points, no manual ones
ASSIGNMENT = "kl09"
COURSE_ID = "kinematics"
INSTRUCTOR = "instructor"
STUDENTS = {"alice": "correct", "bob": "wrong", "carol": "untouched"}

AsyncHTTPClient.configure(None, max_clients=200)


def say(msg: str) -> None:
    print(f"[classroom {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RequestFailed(RuntimeError):
    pass


# --------------------------------------------------------------------------------------------
# The hub and its processes
# --------------------------------------------------------------------------------------------
class Hub:
    """A JupyterHub on 127.0.0.1 with classroom/jupyterhub_config.py and test overrides."""

    def __init__(self, workdir: Path, start_timeout: int = 600):
        self.dir = workdir
        self.port, self.hub_port, self.api_port = free_port(), free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.token = secrets.token_hex(24)          # the check's service token
        self.password = secrets.token_urlsafe(12)   # the dummy authenticator's one password
        self.marker = uuid.uuid4().hex              # every process of this run carries it
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen | None = None
        self.homes = workdir / "home"
        self.exchange = workdir / "exchange"
        self.state = workdir / "hub"
        self.etc = workdir / "etc-jupyter"

    # -- configuration -----------------------------------------------------------------------
    def write_config(self) -> Path:
        for d in (self.homes, self.state, self.etc):
            d.mkdir(parents=True, exist_ok=True)
        # nbgrader for every user: the shipped system config, plus what a shared Unix account
        # needs (the student id from the hub, since every server runs as the same Unix user;
        # the owner cross-check of collect would otherwise warn for every submission).
        (self.etc / "nbgrader_config.py").write_text(
            "import os\n"
            f"load_subconfig({str(NBGRADER_SYSTEM_CONFIG)!r})\n"
            "c = get_config()\n"
            f"if os.environ.get('JUPYTERHUB_USER') != {INSTRUCTOR!r}:\n"
            "    c.CourseDirectory.student_id = os.environ['JUPYTERHUB_USER']\n"
            "c.ExchangeCollect.check_owner = False\n")
        overrides = self.state / "overrides.py"
        root = hasattr(os, "geteuid") and os.geteuid() == 0
        overrides.write_text(f"""# Written by tools/classroom.py for one test run; loaded by classroom/jupyterhub_config.py.
c = get_config()
c.JupyterHub.bind_url = "{self.url}"
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {self.hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{self.api_port}"
c.ConfigurableHTTPProxy.command = [{str(PROXY)!r}]
c.JupyterHub.db_url = "sqlite:///{self.state}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{self.state}/jupyterhub_cookie_secret"
c.JupyterHub.pid_file = "{self.state}/jupyterhub.pid"
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {self.password!r}
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{self.homes}/{{username}}"
c.Spawner.args = {["--allow-root"] if root else []!r}
c.Spawner.start_timeout = {self.start_timeout}
c.Spawner.http_timeout = {self.start_timeout}
c.Spawner.default_url = "/lab"
c.Spawner.environment.update({{"KL_CLASSROOM_RUN": "{self.marker}",
                               "JUPYTER_CONFIG_PATH": "{self.etc}"}})
c.JupyterHub.services.append({{"name": "classroom-check", "api_token": "{self.token}"}})
c.JupyterHub.load_roles.append({{"name": "classroom-check", "services": ["classroom-check"],
                                "scopes": ["admin:users", "admin:servers", "tokens", "list:users"]}})
""")
        return overrides

    def env(self) -> dict:
        venv_bin = str(Path(sys.executable).parent)
        env = dict(os.environ)
        env.update(PATH=venv_bin + os.pathsep + env.get("PATH", ""),
                   KL_HUB_OVERRIDES=str(self.write_config()),
                   KL_COLLECTION=str(ROOT), KL_NBGRADER_EXCHANGE=str(self.exchange),
                   KL_COURSE_ID=COURSE_ID, KL_INSTRUCTORS=INSTRUCTOR,
                   KL_CLASSROOM_RUN=self.marker, PYTHONUNBUFFERED="1")
        env.pop("KL_HUB_URL", None)
        return env

    # -- life cycle ------------------------------------------------------------------------------
    def start(self) -> None:
        if not PROXY.exists():
            raise SystemExit(f"configurable-http-proxy missing at {PROXY}: run python3 tasks.py classroom --check")
        env = self.env()
        self.log = open(self.dir / "hub.log", "w")
        say(f"starting JupyterHub on {self.url} (log: {self.dir / 'hub.log'})")
        self.proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(CONFIG)],
                                     cwd=self.state, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        atexit.register(self.stop)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the hub exited with {self.proc.returncode}; see {self.dir / 'hub.log'}:\n"
                                   + (self.dir / "hub.log").read_text()[-3000:])
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    pass
                status = asyncio.run(_probe(f"{self.url}/hub/api/"))
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.5)
        raise RuntimeError("the hub did not answer within 120 s")

    def stop(self) -> None:
        """Stop the hub (it stops the proxy, the culler and every server), then kill whatever is
        left: the process groups of the servers recorded in the hub's database and any process
        carrying this run's marker. Safe to call twice."""
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        for pid in self._server_pids():
            _kill_group(pid)
        for pid in _marked_pids(self.marker):
            _kill_group(pid)
        left = _marked_pids(self.marker)
        if left:
            time.sleep(2)
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        if getattr(self, "log", None):
            self.log.close()
        say(f"hub stopped; processes of this run still alive: {len(_marked_pids(self.marker))}")

    def _server_pids(self) -> list[int]:
        db = self.state / "jupyterhub.sqlite"
        if not db.exists():
            return []
        try:
            with sqlite3.connect(db) as con:
                rows = con.execute("select state from spawners").fetchall()
        except sqlite3.Error:
            return []
        pids = []
        for (state,) in rows:
            try:
                pid = json.loads(state or "{}").get("pid")
            except (TypeError, ValueError):
                pid = None
            if pid:
                pids.append(int(pid))
        return pids

    def alive_processes(self) -> int:
        return len(_marked_pids(self.marker))

    def home(self, user: str) -> Path:
        return self.homes / user


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        try:
            os.kill(pid, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            pass


def _marked_pids(marker: str) -> list[int]:
    """Processes whose environment carries KL_CLASSROOM_RUN=<marker> (the hub, its proxy and
    culler, the servers and their kernels)."""
    needle = f"KL_CLASSROOM_RUN={marker}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


async def _probe(url: str) -> int:
    resp = await AsyncHTTPClient().fetch(url, raise_error=False, request_timeout=5)
    return resp.code


# --------------------------------------------------------------------------------------------
# HTTP as a browser or a script would
# --------------------------------------------------------------------------------------------
class Client:
    """Requests with one token: the hub's REST API and one user's server."""

    def __init__(self, hub: Hub, token: str, user: str | None = None):
        self.hub, self.token, self.user = hub, token, user

    async def request(self, method: str, url: str, body=None, ok=(200, 201, 202, 204), timeout=600):
        headers = {"Authorization": f"token {self.token}"}
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        elif method in ("POST", "PUT", "PATCH"):
            data = ""
        resp = await AsyncHTTPClient().fetch(HTTPRequest(
            url, method=method, headers=headers, body=data, follow_redirects=False,
            request_timeout=timeout, connect_timeout=60), raise_error=False)
        if ok and resp.code not in ok:
            text = resp.body.decode(errors="replace")[:500] if resp.body else ""
            raise RequestFailed(f"{method} {url} -> {resp.code} {text}")
        return resp

    async def hub_api(self, method: str, path: str, body=None, ok=(200, 201, 202, 204)):
        resp = await self.request(method, f"{self.hub.url}/hub/api{path}", body, ok)
        return json.loads(resp.body) if resp.body else None

    def server(self, path: str, user: str | None = None) -> str:
        return f"{self.hub.url}/user/{user or self.user}{path}"

    async def contents_get(self, path: str, user: str | None = None, ok=(200,)):
        resp = await self.request("GET", self.server(f"/api/contents/{quote(path)}", user), ok=ok)
        return json.loads(resp.body) if resp.code == 200 else resp.code

    async def contents_put(self, path: str, model: dict):
        await self.request("PUT", self.server(f"/api/contents/{quote(path)}"), model)

    async def makedirs(self, path: str):
        parts = Path(path).parts
        for i in range(1, len(parts) + 1):
            await self.contents_put("/".join(parts[:i]), {"type": "directory"})

    async def upload_notebook(self, path: str, nb: dict):
        await self.contents_put(path, {"type": "notebook", "format": "json", "content": nb})


async def start_server(admin: Client, user: str) -> float:
    """Start `user`'s server through the REST API; seconds until it is ready."""
    t0 = time.monotonic()
    await admin.hub_api("POST", f"/users/{user}/server", ok=(201, 202, 400))
    while True:
        model = await admin.hub_api("GET", f"/users/{user}")
        server = model.get("servers", {}).get("")
        if server and server.get("ready"):
            return time.monotonic() - t0
        if server is None and time.monotonic() - t0 > 5:
            raise RuntimeError(f"{user}'s server is gone (failed to start): see hub.log")
        if time.monotonic() - t0 > admin.hub.start_timeout:
            raise RuntimeError(f"{user}'s server not ready after {admin.hub.start_timeout} s")
        await asyncio.sleep(0.5)


async def user_token(admin: Client, user: str) -> str:
    model = await admin.hub_api("POST", f"/users/{user}/tokens",
                                {"note": "classroom check", "expires_in": 7200})
    return model["token"]


async def login(hub: Hub, user: str, password: str) -> int:
    """The hub's login form as a browser posts it: GET it for the _xsrf cookie, POST the
    credentials; returns the status (302 = logged in, 403 = refused)."""
    client = AsyncHTTPClient()
    first = await client.fetch(f"{hub.url}/hub/login", raise_error=False)
    cookies = {}
    for header in first.headers.get_list("Set-Cookie"):
        name, _, rest = header.partition("=")
        cookies[name] = rest.split(";", 1)[0]
    xsrf = cookies.get("_xsrf", "")
    body = f"username={quote(user)}&password={quote(password)}&_xsrf={quote(xsrf)}"
    resp = await client.fetch(HTTPRequest(
        f"{hub.url}/hub/login", method="POST", body=body, follow_redirects=False,
        headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
                 "Content-Type": "application/x-www-form-urlencoded"}), raise_error=False)
    return resp.code


# --------------------------------------------------------------------------------------------
# Kernels on a user's server (what JupyterLab does over its websocket)
# --------------------------------------------------------------------------------------------
class Kernel:
    def __init__(self, client: Client, kernel_id: str):
        self.client, self.id, self.ws = client, kernel_id, None

    @classmethod
    async def start(cls, client: Client, notebook: str | None = None) -> "Kernel":
        if notebook:   # open a notebook as JupyterLab does: a session names its kernel
            resp = await client.request("POST", client.server("/api/sessions"),
                                        {"path": notebook, "type": "notebook", "name": Path(notebook).name,
                                         "kernel": {"name": "python3"}})
            kid = json.loads(resp.body)["kernel"]["id"]
        else:
            resp = await client.request("POST", client.server("/api/kernels"), {"name": "python3"})
            kid = json.loads(resp.body)["id"]
        kernel = cls(client, kid)
        url = client.server(f"/api/kernels/{kid}/channels").replace("http://", "ws://")
        kernel.ws = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {client.token}"},
                                                        connect_timeout=120, request_timeout=120),
                                            max_message_size=256 * 1024 * 1024)
        return kernel

    async def execute(self, code: str, timeout: float = 900) -> tuple[list[dict], int | None]:
        """Run code; returns (nbformat outputs, execution count)."""
        msg_id = uuid.uuid4().hex
        self.ws.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": self.client.user or "",
                       "session": self.id, "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": False}}))
        outputs, count, idle, replied = [], None, False, False
        deadline = time.monotonic() + timeout
        while not (idle and replied):
            raw = await asyncio.wait_for(self.ws.read_message(), max(1.0, deadline - time.monotonic()))
            if raw is None:
                raise RuntimeError("kernel websocket closed")
            if isinstance(raw, bytes):
                continue
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "execute_reply":
                replied, count = True, content.get("execution_count")
            elif kind == "status" and content.get("execution_state") == "idle":
                idle = True
            elif kind == "stream":
                outputs.append({"output_type": "stream", "name": content["name"], "text": content["text"]})
            elif kind in ("display_data", "execute_result"):
                out = {"output_type": kind, "data": content["data"], "metadata": content.get("metadata", {})}
                if kind == "execute_result":
                    out["execution_count"] = content.get("execution_count")
                outputs.append(out)
            elif kind == "error":
                outputs.append({"output_type": "error", "ename": content["ename"],
                                "evalue": content["evalue"], "traceback": content["traceback"]})
        return outputs, count

    async def shell(self, argv: list[str], cwd: str = "~") -> tuple[int, str]:
        """Run a command on the user's server from the kernel (as a `!nbgrader …` cell would)."""
        code = ("import os, subprocess\n"
                f"_r = subprocess.run({argv!r}, cwd=os.path.expanduser({cwd!r}), capture_output=True, text=True)\n"
                "print('EXIT', _r.returncode)\nprint(_r.stdout[-4000:])\nprint(_r.stderr[-4000:])\n")
        outputs, _ = await self.execute(code)
        text = "".join(o.get("text", "") for o in outputs if o["output_type"] == "stream")
        first = text.split("\n", 1)[0]
        rc = int(first.split()[1]) if first.startswith("EXIT ") else -1
        return rc, text

    async def close(self):
        if self.ws is not None:
            self.ws.close()
        await self.client.request("DELETE", self.client.server(f"/api/kernels/{self.id}"), ok=None)


async def run_notebook(client: Client, path: str, keep_kernel: bool = False) -> tuple[dict, int]:
    """Open a notebook on the user's server, run every code cell in its kernel (as Run All
    does, going on past errors), save it with the outputs; returns (notebook, cells that raised).
    keep_kernel: leave the kernel running, as a notebook left open in JupyterLab."""
    model = await client.contents_get(path)
    nb = model["content"]
    kernel = await Kernel.start(client, path)
    errors = 0
    try:
        for cell in nb["cells"]:
            if cell["cell_type"] != "code":
                continue
            source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            outputs, count = await kernel.execute(source)
            cell["outputs"], cell["execution_count"] = outputs, count
            errors += any(o["output_type"] == "error" for o in outputs)
    finally:
        if keep_kernel:
            kernel.ws.close()
        else:
            await kernel.close()
    await client.upload_notebook(path, nb)
    return nb, errors


# --------------------------------------------------------------------------------------------
# The exercise's answers
# --------------------------------------------------------------------------------------------
def _source(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def solution_answers(solution: dict) -> dict[str, str]:
    """grade_id -> the solution's code without nbgrader's markers, for every answer cell."""
    answers = {}
    for cell in solution["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if cell["cell_type"] == "code" and meta.get("solution"):
            lines = [ln for ln in _source(cell).splitlines()
                     if ln.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")]
            answers[meta["grade_id"]] = "\n".join(lines)
    return answers


def wrong_answer(code: str) -> str:
    """The same function answering None: its lines up to the docstring, then `return None`."""
    lines = code.splitlines()
    end = next((i for i, ln in enumerate(lines) if i > 0 and ln.strip().endswith('"""')), None)
    if end is None:
        end = next(i for i, ln in enumerate(lines) if ln.rstrip().endswith(":"))
    return "\n".join(lines[:end + 1] + ["    return None"])


def points(solution: dict) -> tuple[int, dict[str, int]]:
    """(automatic points, points of the check cell that follows each answer cell)."""
    total, per_answer, last_answer = 0, {}, None
    for cell in solution["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("solution") and cell["cell_type"] == "code":
            last_answer = meta["grade_id"]
        if meta.get("grade") and cell["cell_type"] == "code":
            total += meta["points"]
            if last_answer and last_answer not in per_answer:
                per_answer[last_answer] = meta["points"]
    return total, per_answer


def answer(released: dict, solution: dict, kind: str) -> tuple[dict, int]:
    """The student's notebook for `kind` (correct / wrong / untouched) and the expected score."""
    total, per_answer = points(solution)
    answers = solution_answers(solution)
    nb = copy.deepcopy(released)
    if kind == "untouched":
        return nb, 0
    wrong_id = list(answers)[-1] if kind == "wrong" else None
    for cell in nb["cells"]:
        gid = cell["metadata"].get("nbgrader", {}).get("grade_id")
        if gid in answers:
            cell["source"] = wrong_answer(answers[gid]) if gid == wrong_id else answers[gid]
    return nb, total - (per_answer[wrong_id] if wrong_id else 0)


# --------------------------------------------------------------------------------------------
# The end-to-end check
# --------------------------------------------------------------------------------------------
async def classroom_cycle(hub: Hub) -> list[str]:
    """Release → fetch → answer → submit → collect → autograde → export; returns failures."""
    failures: list[str] = []

    def expect(ok: bool, what: str):
        say(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            failures.append(what)

    admin = Client(hub, hub.token)
    users = [INSTRUCTOR, *STUDENTS]
    await admin.hub_api("POST", "/users", {"usernames": list(STUDENTS)}, ok=(201, 409))

    # Each student logs in through the form (and a wrong password is refused).
    for user in STUDENTS:
        expect(await login(hub, user, hub.password) == 302, f"{user} logs in with the password")
    expect(await login(hub, "alice", "not-the-password") == 403, "a wrong password is refused")

    # A student who already has a file of the collection keeps it (the hub copies the rest).
    mine = hub.home("carol") / "chapters" / "01_introduction.ipynb"
    mine.parent.mkdir(parents=True)
    mine.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    started = await asyncio.gather(*(start_server(admin, u) for u in users))
    handed_out = sorted(p.name for p in (hub.home("alice") / "exercises").glob("*.ipynb"))
    expect(handed_out == sorted(p.name for p in (ROOT / "exercises").glob("*.ipynb")),
           f"each new home gets the collection ({len(handed_out)} exercises in alice's)")
    expect(mine.read_text().startswith('{"cells": []') and (mine.parent / "05_newton_euler_recursive.ipynb").exists(),
           "a file the student already had is not overwritten; the missing ones are copied")
    say("servers ready in " + ", ".join(f"{u} {t:.1f} s" for u, t in zip(users, started)))
    tokens = {u: await user_token(admin, u) for u in users}
    client = {u: Client(hub, tokens[u], u) for u in users}

    # The instructor: upload the solution as the assignment's source, generate and release.
    solution = json.loads((ROOT / "solutions" / EXERCISE).read_text())
    teacher = client[INSTRUCTOR]
    await teacher.makedirs(f"kinematics-course/source/{ASSIGNMENT}")
    await teacher.upload_notebook(f"kinematics-course/source/{ASSIGNMENT}/{EXERCISE}", solution)
    tk = await Kernel.start(teacher)
    try:
        for step in ("generate_assignment", "release_assignment"):
            rc, out = await tk.shell(["nbgrader", step, ASSIGNMENT], cwd="~/kinematics-course")
            expect(rc == 0, f"instructor: nbgrader {step} {ASSIGNMENT}" + ("" if rc == 0 else "\n" + out))
        outbound = hub.exchange / COURSE_ID / "outbound" / ASSIGNMENT / EXERCISE
        expect(outbound.exists(), f"the release is in the exchange ({outbound.relative_to(hub.dir)})")

        # Each student, on their own server: fetch, answer, run, submit.
        async def student(user: str, kind: str) -> int:
            c = client[user]
            k = await Kernel.start(c)
            try:
                rc, out = await k.shell(["nbgrader", "fetch_assignment", ASSIGNMENT])
                expect(rc == 0, f"{user}: nbgrader fetch_assignment" + ("" if rc == 0 else "\n" + out))
                path = f"{ASSIGNMENT}/{EXERCISE}"
                released = (await c.contents_get(path))["content"]
                nb, expected = answer(released, solution, kind)
                if kind != "untouched":
                    await c.upload_notebook(path, nb)
                _, errors = await run_notebook(c, path)
                expect(errors == 0, f"{user}: the {kind} notebook runs to the end on the student's server")
                rc, out = await k.shell(["nbgrader", "submit", ASSIGNMENT])
                expect(rc == 0, f"{user}: nbgrader submit" + ("" if rc == 0 else "\n" + out))
            finally:
                await k.close()
            return expected

        expected = dict(zip(STUDENTS, await asyncio.gather(*(student(u, k) for u, k in STUDENTS.items()))))

        # The instructor: collect, autograde, export.
        for step in ("collect", "autograde", "export"):
            argv = ["nbgrader", step] + ([] if step == "export" else [ASSIGNMENT])
            rc, out = await tk.shell(argv, cwd="~/kinematics-course")
            expect(rc == 0, f"instructor: nbgrader {' '.join(argv[1:])}" + ("" if rc == 0 else "\n" + out))
    finally:
        await tk.close()
    grades = await teacher.contents_get("kinematics-course/grades.csv", ok=(200, 404))
    scores = {}
    if isinstance(grades, dict):
        for row in csv.DictReader(io.StringIO(grades["content"])):
            if row["assignment"] == ASSIGNMENT:
                scores[row["student_id"]] = (float(row["score"]), float(row["max_score"]))
    total, _ = points(solution)
    for user, kind in STUDENTS.items():
        got = scores.get(user)
        expect(got == (expected[user], total),
               f"{user} ({kind}): {expected[user]} of {total} automatic points expected, grades.csv says {got}")
    expect(0 < expected["bob"] < total, "the wrong answer costs some points but not all")

    # Isolation at the HTTP level: another user's token is refused.
    probes = [("alice", "bob", "kl09/" + EXERCISE), ("bob", "alice", ""),
              ("carol", INSTRUCTOR, f"kinematics-course/source/{ASSIGNMENT}/{EXERCISE}"),
              ("alice", INSTRUCTOR, "kinematics-course/gradebook.db")]
    for reader, owner, path in probes:
        own = await client[owner].contents_get(path, ok=None)
        code = await client[reader].contents_get(path, user=owner, ok=None)
        expect(isinstance(own, dict) and code in (403, 404),
               f"{reader}'s token cannot read {owner}'s {path or 'home'} (HTTP {code}; "
               f"{owner}'s own token: {'200' if isinstance(own, dict) else own})")
    resp = await Client(hub, "not-a-token").request("GET", client["alice"].server("/api/contents/"), ok=None)
    expect(resp.code in (302, 403), f"no valid token: refused (HTTP {resp.code})")
    code = (await client["bob"].request("GET", f"{hub.url}/hub/api/users/alice", ok=None)).code
    expect(code in (403, 404), f"bob's token cannot read alice's hub record (HTTP {code})")
    code = (await client["bob"].request("POST", f"{hub.url}/hub/api/users/alice/tokens", {}, ok=None)).code
    expect(code in (403, 404), f"bob's token cannot make a token for alice (HTTP {code})")
    return failures


def check(keep: bool = False) -> int:
    t0 = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="kl-classroom-"))
    hub = Hub(work)
    failures = ["the check did not finish"]

    def on_signal(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)
    try:
        hub.start()
        failures = asyncio.run(classroom_cycle(hub))
    except (Exception, KeyboardInterrupt) as exc:   # report (SIGTERM/SIGINT too), then stop everything
        failures.append(f"{type(exc).__name__}: {exc}")
        say(f"ERROR {type(exc).__name__}: {exc}")
    finally:
        hub.stop()
        left = hub.alive_processes()
        if left:
            failures.append(f"{left} processes of the run still alive after stop")
        log = work / "hub.log"
        if failures and log.exists():   # the hub's side of the story, before the folder goes
            say("last lines of hub.log:\n" + "\n".join(log.read_text(errors="replace").splitlines()[-40:]))
        if not keep:
            subprocess.run(["rm", "-rf", str(work)], check=False)
        else:
            say(f"kept {work}")
    status = "PASSED" if not failures else "FAILED"
    say(f"classroom check {status} in {time.monotonic() - t0:.0f} s" +
        "".join(f"\n  - {f}" for f in failures))
    return 0 if not failures else 1


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args or args[0] != "check":
        print(__doc__)
        sys.exit(2)
    sys.exit(check(keep="--keep" in args))
