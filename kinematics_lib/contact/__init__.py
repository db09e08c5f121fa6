"""Constraints and contact (chapter 7): friction cones, KKT and projected dynamics, Baumgarte
stabilisation, the LCP (Lemke) and contact-force distribution.

Imports ``geometry``, ``arms`` and ``dynamics``.
"""

__all__: list[str] = []
