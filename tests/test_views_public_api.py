"""The views use matplotlib's public API only (issue 21 item 4).

A private attribute of a matplotlib object (``ax._children``, ``fig._suptitle``, ``leg._loc``,
``_process_plot_var_args`` ...) can change in any matplotlib release and break every slider at
once. These tests read the library's source: no ``obj._name`` whose name is a private attribute
of a matplotlib figure, axes (2-D or 3-D), axis, legend, text, line, collection, patch or canvas;
no import from a private matplotlib module; in ``kinematics_lib/notebook/`` no ``._x`` at all
except on the library's own objects (``self``, its validation module, its own ``View``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "kinematics_lib"
NOTEBOOK = LIBRARY / "notebook"


def _matplotlib_private_names() -> set[str]:
    """Single-underscore attribute names that matplotlib's main objects carry."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure()
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 2, 1)
    ax3 = fig.add_subplot(1, 2, 2, projection="3d")
    line, = ax.plot([0, 1], [0, 1], label="a")
    objects = [fig, fig.canvas, ax, ax3, ax.xaxis, ax3.zaxis, ax.legend(), ax.title, line,
               ax.scatter([0], [0]), ax.add_patch(matplotlib.patches.Circle((0, 0), 1)), ax3.plot([0], [0], [0])[0], ax3.scatter([0], [0], [0]),
               fig.canvas.get_renderer(), ax.imshow([[0.0]])]
    names = set()
    for obj in objects:
        names |= {n for n in dir(obj) if re.fullmatch(r"_[a-z]\w*", n)}
        names |= {n for n in vars(type(obj)) if re.fullmatch(r"_[a-z]\w*", n)}
    return names


def _library_files(root: Path):
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def _private_attributes(path: Path):
    """(line, receiver source, name) of every ``x._name`` in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        # ``_repr_mimebundle_`` and the like (IPython's display protocol) end with "_": public
        if isinstance(node, ast.Attribute) and re.fullmatch(r"_[a-z]\w*[^_]", node.attr):
            yield node.lineno, ast.unparse(node.value), node.attr


def test_the_scan_finds_the_old_private_uses():
    """The scan is able to fail: the attributes the old view layer used are in the set."""
    names = _matplotlib_private_names()
    for name in ("_children", "_suptitle", "_loc", "_update_title_position", "_get_lines", "_axis_map",
                 "_left_title", "_request_autoscale_view", "_offsets3d"):
        assert name in names, name
    source = "def f(ax, leg):\n    ax._children.clear()\n    return leg._loc\n"
    probe = ROOT / "tests" / "data" / "_probe_private.py"
    probe.write_text(source, encoding="utf-8")
    try:
        found = [(rec, name) for _, rec, name in _private_attributes(probe) if name in names]
    finally:
        probe.unlink()
    assert sorted(found) == [("ax", "_children"), ("leg", "_loc")]


def test_no_private_matplotlib_attribute_in_the_library():
    names = _matplotlib_private_names()
    bad = [f"{p.relative_to(ROOT)}:{line}: {rec}.{name}" for p in _library_files(LIBRARY)
           for line, rec, name in _private_attributes(p) if name in names]
    assert not bad, "private matplotlib attributes: " + "; ".join(bad)


def test_no_private_matplotlib_module_imported():
    pattern = re.compile(r"^\s*(from|import)\s+(matplotlib|mpl_toolkits)(\.\w+)*\._\w+", re.M)
    bad = [str(p.relative_to(ROOT)) for p in _library_files(LIBRARY) if pattern.search(p.read_text(encoding="utf-8"))]
    assert not bad, bad


#: receivers whose private attributes the notebook layer may use: its own objects
OWN = re.compile(r"^(self|cls|check|view|_RefusedValue)$")


def test_notebook_layer_touches_no_private_attribute_of_foreign_objects():
    """Stricter in ``kinematics_lib/notebook/``: any ``x._name`` on something not the library's own."""
    bad = [f"{p.relative_to(ROOT)}:{line}: {rec}.{name}" for p in _library_files(NOTEBOOK)
           for line, rec, name in _private_attributes(p) if not OWN.match(rec)]
    assert not bad, "; ".join(bad)


@pytest.mark.parametrize("word", ["set every axes property", "_empty_axes", "lru_cache(maxsize=1)"])
def test_the_old_view_rules_are_gone(word):
    hits = [str(p.relative_to(ROOT)) for p in _library_files(NOTEBOOK) if word in p.read_text(encoding="utf-8")]
    assert not hits, f"{word!r} still in {hits}"
