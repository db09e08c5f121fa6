#!/usr/bin/env python3
"""Capacity of one machine as a classroom: N students, each on their own JupyterHub server.

    python3 tasks.py classroom --bench 5 10 20      (installs .venv-classroom, then runs this)
    .venv-classroom/bin/python benchmarks/bench_classroom.py 5 10

For each N: a fresh local hub (the same set-up as `tasks.py classroom --check`: the shipped
classroom/jupyterhub_config.py, dummy login, one home per user, 127.0.0.1), N users whose
servers are started at once through the REST API; then every student, at the same time, opens
chapter 5 and runs all its cells on their own server (a session and its kernel, over the
websocket, as JupyterLab's Run All does), then opens chapter 8 and runs it too, the first
notebook staying open. Measured:

* memory per user (the server and its kernels, found by JUPYTERHUB_USER in /proc): RSS, and
  USS (memory no other process shares: what one more student adds), idle and after each chapter;
* the time until every server is ready and until every student has finished both chapters;
* failures: cells that raised, servers or kernels that did not answer.

This is a measurement, not a test: nothing is asserted. Under `tasks.py bench` (the development
environment, --quick) it says how to run it and exits.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
CHAPTERS = ["05_newton_euler_recursive.ipynb", "08_anymal_case_study.ipynb"]

try:
    import jupyterhub  # noqa: F401
    import psutil
    from classroom import Client, Hub, run_notebook, say, start_server, user_token
except ImportError:
    print("bench_classroom: needs the classroom environment; run `python3 tasks.py classroom --bench 5 10 20`")
    sys.exit(0)


def memory_by_user(hub: Hub) -> dict[str, tuple[float, float, float]]:
    """user -> (RSS MB, USS MB, CPU seconds so far) summed over that user's server and kernels."""
    out: dict[str, list[float]] = {}
    for proc in psutil.process_iter(["pid"]):
        try:
            env = proc.environ()
            if env.get("KL_CLASSROOM_RUN") != hub.marker or "JUPYTERHUB_USER" not in env:
                continue
            mem = proc.memory_full_info()
            cpu = proc.cpu_times()
        except (psutil.Error, OSError):
            continue
        acc = out.setdefault(env["JUPYTERHUB_USER"], [0.0, 0.0, 0.0])
        acc[0] += mem.rss / 2**20
        acc[1] += mem.uss / 2**20
        acc[2] += cpu.user + cpu.system
    return {u: tuple(v) for u, v in out.items()}


def summary(mem: dict[str, tuple[float, float, float]], users: list[str]) -> str:
    rss = [mem.get(u, (0, 0, 0))[0] for u in users]
    uss = [mem.get(u, (0, 0, 0))[1] for u in users]
    return f"{statistics.median(uss):.0f} / {statistics.median(rss):.0f}"


def cpu_seconds(mem: dict[str, tuple[float, float, float]], users: list[str]) -> float:
    """Median over students of the CPU seconds their server and kernels have used so far."""
    return statistics.median(mem.get(u, (0, 0, 0))[2] for u in users)


async def one_class(hub: Hub, n: int) -> dict:
    admin = Client(hub, hub.token)
    users = [f"student{i:02d}" for i in range(1, n + 1)]
    await admin.hub_api("POST", "/users", {"usernames": users}, ok=(201,))
    t0 = time.monotonic()
    ready = await asyncio.gather(*(start_server(admin, u) for u in users), return_exceptions=True)
    t_ready = time.monotonic() - t0
    failures = [f"{u}: {r}" for u, r in zip(users, ready) if isinstance(r, Exception)]
    up = [u for u, r in zip(users, ready) if not isinstance(r, Exception)]
    clients = {u: Client(hub, await user_token(admin, u), u) for u in up}
    await asyncio.sleep(5)
    result = {"n": n, "ready_s": t_ready, "idle": memory_by_user(hub)}
    say(f"N={n}: {len(up)} servers ready in {t_ready:.0f} s; idle USS/RSS MB {summary(result['idle'], up)}")

    async def student(user: str, chapter: str) -> float:
        t = time.monotonic()
        _, errors = await run_notebook(clients[user], f"chapters/{chapter}", keep_kernel=True)
        if errors:
            failures.append(f"{user}: {errors} cells of {chapter} raised")
        return time.monotonic() - t

    t1 = time.monotonic()
    for chapter in CHAPTERS:
        times = await asyncio.gather(*(student(u, chapter) for u in up), return_exceptions=True)
        for u, t in zip(up, times):
            if isinstance(t, Exception):
                failures.append(f"{u} {chapter}: {type(t).__name__}: {t}")
        ok = [t for t in times if not isinstance(t, Exception)]
        result[chapter] = memory_by_user(hub)
        result[chapter + " s"] = (statistics.median(ok) if ok else float("nan"), max(ok) if ok else float("nan"))
        say(f"N={n}: {chapter} done by {len(ok)} students, median {result[chapter + ' s'][0]:.0f} s, "
            f"last {result[chapter + ' s'][1]:.0f} s; USS/RSS MB {summary(result[chapter], up)}; "
            f"CPU s per student so far {cpu_seconds(result[chapter], up):.0f}")
    result["all_s"] = time.monotonic() - t1
    result["users"] = up
    result["failures"] = failures
    mem = psutil.virtual_memory()
    result["machine_used_gb"] = (mem.total - mem.available) / 2**30
    return result


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv if a.isdigit()] or ([2] if "--quick" in argv else [5, 10, 20])
    rows = []
    for n in sizes:
        work = Path(tempfile.mkdtemp(prefix=f"kl-capacity-{n}-"))
        hub = Hub(work, start_timeout=900)
        try:
            hub.start()
            rows.append(asyncio.run(one_class(hub, n)))
        except Exception as exc:
            say(f"N={n}: {type(exc).__name__}: {exc}")
            rows.append({"n": n, "error": f"{type(exc).__name__}: {exc}"})
        finally:
            hub.stop()
            import shutil
            shutil.rmtree(work, ignore_errors=True)
    print()
    print(f"{psutil.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GB; "
          "memory per student = median over students of (server + kernels), USS / RSS in MB")
    print("| N | all servers ready | idle | after ch. 5 | after ch. 8 (both open) | ch. 5 median / last | "
          "ch. 8 median / last | both chapters, all students | CPU s per student (idle, +ch. 5, +ch. 8) | "
          "machine memory in use | failures |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        if "error" in r:
            print(f"| {r['n']} | {r['error']} |")
            continue
        u = r["users"]
        c5, c8 = (r[c + " s"] for c in CHAPTERS)
        print(f"| {r['n']} | {r['ready_s']:.0f} s | {summary(r['idle'], u)} | {summary(r[CHAPTERS[0]], u)} | "
              f"{summary(r[CHAPTERS[1]], u)} | {c5[0]:.0f} / {c5[1]:.0f} s | {c8[0]:.0f} / {c8[1]:.0f} s | "
              f"{r['all_s']:.0f} s | {cpu_seconds(r['idle'], u):.0f}, "
              f"+{cpu_seconds(r[CHAPTERS[0]], u) - cpu_seconds(r['idle'], u):.0f}, "
              f"+{cpu_seconds(r[CHAPTERS[1]], u) - cpu_seconds(r[CHAPTERS[0]], u):.0f} | "
              f"{r['machine_used_gb']:.1f} GB | {len(r['failures'])} |")
        for f in r["failures"][:10]:
            print(f"  failure: {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
