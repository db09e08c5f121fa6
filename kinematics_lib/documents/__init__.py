"""The source documents' formulas *as written*, errors included: one function per claim that a
chapter checks, whose docstring names the document, the section and what is wrong.

A chapter shows "the source says X" by calling the function here beside the correct one
from the maths layers. One module per document, grouped inside by chapter:

    doc000  floating-base tutorial (000_1cfbf0da5278ec3f.txt)
    doc001  dynamics and control basics (001_6ae5a536efd7a339.txt)
    doc002  kinematics and dynamics for RoboMaster (002_96f0a94aa5bb4fd0.txt)
    doc003  Newton-Euler, Lagrange, joint and task space (003_83f2e4c41dc44137.txt)
    doc004  Lagrange standard form (004_148b5dc45241b455.txt)
    line_errors  run an algorithm as written, fixed, and fixed but one line

Each document is a namespace, so that the call says where a formula comes from and the name
says what it computes: ``kl.doc000.rnea`` is document 000's RNEA as written, beside the correct
``kl.rnea``; ``kl.doc001.joint_pid_update``, ``kl.doc002.mecanum_matrix``, ... Only
``double_pendulum_source_lagrangian`` and the line-error tools are also flat names (``kl.*``).
This package may import any maths layer; no maths layer imports it.
"""

from . import doc000, doc001, doc002, doc003, doc004, line_errors
from .doc000 import double_pendulum_source_lagrangian
from .line_errors import *  # noqa: F401,F403

#: the namespaces of the documents' as-written functions (``kl.doc000.rnea``, ...)
NAMESPACES = ("doc000", "doc001", "doc002", "doc003", "doc004")

__all__ = ["double_pendulum_source_lagrangian", *line_errors.__all__]
