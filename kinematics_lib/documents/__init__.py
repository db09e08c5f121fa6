"""The source documents' formulas *as written*, errors included: one function per claim that a
chapter checks, whose docstring names the document, the section and what is wrong.

A chapter shows "the source says X" by calling the function here beside the correct one
from the maths layers. This package may import any maths layer; no maths layer imports it.
"""

from . import doc001, doc002
from .doc001 import *  # noqa: F401,F403
from .doc002 import *  # noqa: F401,F403

__all__ = [*doc001.__all__, *doc002.__all__]
