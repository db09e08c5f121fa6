"""The notebook layer: drawing primitives (``plotting``), slider plumbing (``widgets``), one module
of chapter figures per chapter (``views``), exercise self-checks (``checks``), timing helpers
(``benchmarking``) and Pinocchio's constraint dynamics as chapter 7's reference (``contact_reference``).

The only layer that imports matplotlib or ipywidgets. It is not star-imported into
``kinematics_lib`` (``import kinematics_lib`` stays headless and fast); import what a notebook
needs, e.g. ``from kinematics_lib.notebook.widgets import interactive_view``.
"""
