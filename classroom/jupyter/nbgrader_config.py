"""nbgrader's settings for every user of the classroom hub: copy to /etc/jupyter/nbgrader_config.py
(the Dockerfile does). Students' `nbgrader fetch_assignment`/`submit` and the instructor's
`release_assignment`/`collect` then meet in the same exchange folder under one plain course id.

The course id must be a plain name: nbgrader files releases under `<exchange>/<course_id>/outbound`,
and a path as course id (what `nbgrader quickstart ~/x` leaves) sends them elsewhere.
The instructor's own course folder (source/, release/, submitted/, gradebook.db) has its own
nbgrader_config.py, see README "Running a course".
"""
import os

c = get_config()  # noqa: F821  (nbgrader provides it)
c.CourseDirectory.course_id = os.environ.get("KL_COURSE_ID", "kinematics")
c.Exchange.root = os.environ.get("KL_NBGRADER_EXCHANGE", "/srv/nbgrader/exchange")
# Students fetch into their home, e.g. ~/kl09/; nbgrader never replaces a fetched folder.
