"""JupyterHub for a course on ONE server (up to about 60 students, see README "Running a course").

    sudo jupyterhub -f classroom/jupyterhub_config.py          # plain JupyterHub
    # The Littlest JupyterHub: copy this file to /opt/tljh/config/jupyterhub_config.d/

What it sets up:
* students and the instructor are hub users; each is a separate Unix account (PAM login,
  LocalProcessSpawner), so Unix permissions keep one student's files from another's and from the
  instructor's course folder (homes are 0700);
* nbgrader's exchange: one shared folder (KL_NBGRADER_EXCHANGE, default /srv/nbgrader/exchange)
  with the permissions nbgrader needs (world-writable so that every student can submit; nbgrader
  itself makes `<course>/inbound` write-only and `<course>/outbound` read-only for students);
* the collection (chapters/ and exercises/ of KL_COLLECTION) copied into each user's home at every
  start WITHOUT overwriting: a file a student already has is never replaced;
* jupyterhub-idle-culler stops servers idle for an hour (memory comes back, see the capacity table);
* a safety check, last: the test authenticator (dummy) or the shared-account spawner (simple) on a
  non-loopback address stops the hub with an error instead of serving a class without passwords.

Settings come from environment variables so that this one file serves the real course and the
end-to-end test (`python3 tasks.py classroom --check`, which also loads a small overrides file named
by KL_HUB_OVERRIDES: dummy login, shared-account spawner, temporary folders, 127.0.0.1 ports):

    KL_COURSE_ID          nbgrader course id, a plain name (default "kinematics")
    KL_NBGRADER_EXCHANGE  nbgrader's exchange folder (default /srv/nbgrader/exchange)
    KL_COLLECTION         folder holding chapters/ and exercises/ to hand out (default
                          /opt/kinematics-notebooks; never the instructor's clone: solutions/ must
                          not be readable by students)
    KL_INSTRUCTORS        comma-separated hub admins who grade (default "instructor")
    KL_HUB_URL            where the hub listens (default http://127.0.0.1:8000: put HTTPS in front,
                          e.g. TLJH's Traefik or nginx, or give https://… with c.JupyterHub.ssl_cert/key)
    KL_HUB_OVERRIDES      an extra config file loaded before the safety check
"""

import os
import sys
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hand_out import hand_out  # noqa: E402  (classroom/hand_out.py: copies chapters/ and exercises/, never replaces)

c = get_config()  # noqa: F821  (JupyterHub provides it)

COURSE_ID = os.environ.get("KL_COURSE_ID", "kinematics")
EXCHANGE = Path(os.environ.get("KL_NBGRADER_EXCHANGE", "/srv/nbgrader/exchange"))
COLLECTION = Path(os.environ.get("KL_COLLECTION", "/opt/kinematics-notebooks"))
INSTRUCTORS = {n.strip() for n in os.environ.get("KL_INSTRUCTORS", "instructor").split(",") if n.strip()}

# --- who logs in -----------------------------------------------------------------------------
# PAM: the server's Unix accounts. Add students as hub users (admin panel or REST API); with
# create_system_users the hub creates their Unix accounts (adduser) on first use. For a
# learning-management system use jupyterhub-ltiauthenticator (LTI 1.3), for a university login
# an OAuthenticator; keep one Unix account per student either way.
c.JupyterHub.authenticator_class = "pam"
c.LocalAuthenticator.create_system_users = True
c.Authenticator.admin_users = INSTRUCTORS
c.Authenticator.allowed_users = set(INSTRUCTORS)   # add the students (admin panel / API / a list)

# --- where it listens -------------------------------------------------------------------------
c.JupyterHub.bind_url = os.environ.get("KL_HUB_URL", "http://127.0.0.1:8000")

# --- the students' servers --------------------------------------------------------------------
# LocalProcessSpawner: one process per student, running as that student's Unix account.
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.default_url = "/lab/tree/chapters/01_introduction.ipynb"
c.Spawner.environment = {"KL_COURSE_ID": COURSE_ID, "KL_NBGRADER_EXCHANGE": str(EXCHANGE)}


def user_home(spawner) -> Path:
    """The home folder the server starts in: the spawner's own (shared-account spawner) or the
    Unix account's."""
    home = getattr(spawner, "home_dir", None)
    if home:
        return Path(home)
    import pwd
    return Path(pwd.getpwnam(spawner.user.name).pw_dir)


def owner_of(spawner):
    """(uid, gid) to give copied files, or None when every user is the hub's own account."""
    if type(spawner).__name__ == "SimpleLocalProcessSpawner" or os.geteuid() != 0:
        return None
    import pwd
    entry = pwd.getpwnam(spawner.user.name)
    return entry.pw_uid, entry.pw_gid


def ensure_exchange() -> None:
    """nbgrader's exchange root: every user must be able to create entries (mode 0777, as
    nbgrader's documentation asks); nbgrader sets the course folders' own modes."""
    if not EXCHANGE.is_dir():
        EXCHANGE.mkdir(parents=True)
        os.chmod(EXCHANGE, 0o777)


def pre_spawn(spawner) -> None:
    ensure_exchange()
    hand_out(COLLECTION, user_home(spawner), owner_of(spawner))


c.Spawner.pre_spawn_hook = pre_spawn

# --- idle culling -------------------------------------------------------------------------------
# A server unused for an hour is stopped (its files stay); the capacity table measures what an
# idle one still costs. The culler is a hub-managed service with only the scopes it needs.
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler", "--timeout=3600", "--cull-every=300"],
}]
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]

# --- local overrides (the end-to-end test's temporary set-up) -------------------------------
if os.environ.get("KL_HUB_OVERRIDES"):
    load_subconfig(os.environ["KL_HUB_OVERRIDES"])  # noqa: F821  (JupyterHub provides it)


# --- safety check: last, so that it sees every override -------------------------------------
LOOPBACK = ("127.", "::1", "localhost")
TEST_ONLY = {"authenticator": ("dummy", "dummyauthenticator", "null", "nullauthenticator"),
             "spawner": ("simple", "simplelocalprocessspawner")}


def _short(value) -> str:
    name = value if isinstance(value, str) else getattr(value, "__name__", str(value))
    return name.rsplit(".", 1)[-1].lower()


def listens_publicly(config) -> bool:
    """True unless the hub's public address is loopback (JupyterHub's default ip '' is every
    interface)."""
    hub = config.JupyterHub
    if hub.get("bind_url"):
        host = urlparse(hub.bind_url).hostname or ""
    else:
        host = hub.get("ip", "")
    return not host.startswith(LOOPBACK)


def check_safe(config) -> None:
    """Refuse to start a test set-up on a public address: the dummy authenticator lets anyone in
    under any name, the shared-account spawner gives every student the same Unix account."""
    if not listens_publicly(config):
        return
    auth = _short(config.JupyterHub.get("authenticator_class", "pam"))
    spawner = _short(config.JupyterHub.get("spawner_class", "localprocess"))
    problems = []
    if auth in TEST_ONLY["authenticator"]:
        problems.append(f"authenticator_class={auth!r} accepts anyone")
    if spawner in TEST_ONLY["spawner"]:
        problems.append(f"spawner_class={spawner!r} runs every student as one Unix account")
    if problems:
        raise SystemExit("REFUSING TO START: this hub listens on a public address with a test-only "
                         "set-up (" + "; ".join(problems) + "). Bind it to 127.0.0.1 or configure a "
                         "real authenticator and spawner (see classroom/jupyterhub_config.py).")


check_safe(c)
