"""Which line of a document's algorithm is wrong: run it as written, fixed, and fixed but one line.

Every document function with a ``fixed=`` argument registers its replaceable lines in its
module's ``FIXES``; ``DOC_FIXES`` collects them all, keyed by the namespaced name
(``"doc000.rnea"``, ``"doc001.rnea"``: two documents may use one function name).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from .._validate import InputError
from . import doc000, doc001, doc002, doc003, doc004

__all__ = ["DOC_FIXES", "doc_line_errors"]

_MODULES = (doc000, doc001, doc002, doc003, doc004)


def _key(module, name: str) -> str:
    return f"{module.__name__.rsplit('.', 1)[-1]}.{name}"


#: "docNNN.function" -> the names of its lines that ``fixed=`` can replace by the correct line
DOC_FIXES = {_key(module, name): lines for module in _MODULES for name, lines in getattr(module, "FIXES", {}).items()}
_ALTERNATIVES = {_key(module, name) for module in _MODULES for name in getattr(module, "ALTERNATIVE_FIXES", ())}
_FUNCTIONS = {_key(module, name): getattr(module, name) for module in _MODULES for name in getattr(module, "FIXES", {})}


def doc_line_errors(doc_fn, reference, *args) -> dict:
    """How far a document version is from the correct result, line by line.

    doc_fn: a function of :mod:`kinematics_lib.documents` with ``fixed=`` (a key of DOC_FIXES);
    reference: the correct result (e.g. kl.rnea's torques); args: doc_fn's arguments.
    Returns {'as written': e, 'all fixed': e, 'only <line> wrong': e, ...} with e = max |result -
    reference| (in the result's units): 'only <line> wrong' fixes every other line, so a non-zero
    value convicts that line alone. For alternative fixes (document 003): {'as written', '<line>
    fixed', ...}, each line fixed alone.
    """
    name = f"{str(getattr(doc_fn, '__module__', '')).rsplit('.', 1)[-1]}.{getattr(doc_fn, '__name__', '')}"
    if name not in _FUNCTIONS or _FUNCTIONS[name] is not doc_fn:
        raise InputError(f"doc_fn must be one of the document functions {sorted(DOC_FIXES)}, got {doc_fn!r}")
    lines = DOC_FIXES[name]
    if name in _ALTERNATIVES:
        cases = {"as written": (), **{f"{k} fixed": (k,) for k in lines}}
    else:
        cases = {"as written": (), "all fixed": lines}
        cases.update({f"only {k} wrong": tuple(x for x in lines if x != k) for k in lines})
    ref = check.vector(np.ravel(check._array(reference, "reference")), None, "reference").reshape(np.shape(reference))
    errors = {}
    for label, fix in cases.items():
        result = np.asarray(doc_fn(*args, fixed=fix), dtype=float)
        if result.shape != ref.shape:
            raise InputError(f"reference must have the shape of {name}'s result {result.shape}, got {ref.shape}")
        errors[label] = float(np.abs(result - ref).max())
    return errors
