"""Sphinx configuration of the book site (``python3 tasks.py site``; see tools/site.py).

The source folder is staged by tools/site.py in build/site-src/; this folder holds the
configuration, the extension ``klsite`` (callouts as admonitions, search of Chinese terms) and
the style sheet. Notebooks are rendered as committed: nothing is executed.
"""

import importlib.util
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

project = "Robot kinematics and dynamics"
author = "the kinematics-notebooks authors"
copyright = "the kinematics-notebooks authors, MIT licence"
language = "en"

extensions = ["myst_nb", "klsite"]
nb_execution_mode = "off"            # the chapters are committed executed: render, never run
nb_merge_streams = True               # one block per cell's printed output, as JupyterLab shows it
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
suppress_warnings = ["mystnb.unknown_mime_type", "myst.header", "misc.highlighting_failure"]
exclude_patterns = ["_build", "**.ipynb_checkpoints", "_notebooks"]  # _notebooks: the originals, for download

# --- math from a local MathJax 3 copy (PyPI package sphinx-mathjax-offline ships MathJax 3.2.2 with
# its woff fonts); copied into _static/mathjax/, so no page asks a CDN.
_mathjax = importlib.util.find_spec("sphinx-mathjax-offline")
if _mathjax is None or not _mathjax.submodule_search_locations:
    raise RuntimeError("the docs environment lacks sphinx-mathjax-offline (python3 tasks.py site installs it)")
MATHJAX_STATIC = Path(list(_mathjax.submodule_search_locations)[0]) / "static"
mathjax_path = "mathjax/tex-chtml.js"
mathjax3_config = {"tex": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]]},
                   "options": {"processHtmlClass": "tex2jax_process|mathjax_process|math|output_area"}}

# --- the book theme, everything local
html_theme = "sphinx_book_theme"
html_title = "Robot kinematics and dynamics"
html_static_path = ["_static", str(MATHJAX_STATIC)]
html_css_files = ["kl-site.css"]
html_favicon = "_static/favicon.svg"   # else the browser asks for /favicon.ico (a 404)
html_copy_source = True              # klsite puts the committed notebooks there (the staged copies have the boxes)
html_sourcelink_suffix = ""           # so the theme's download button offers the .ipynb itself
html_last_updated_fmt = None
html_context = {"default_mode": "light"}   # without it the theme logs "Got invalid theme mode"
html_theme_options = {
    "use_download_button": True,       # the browser's print-to-PDF (and the .ipynb)
    "use_fullscreen_button": False,
    "show_toc_level": 2,
    "show_navbar_depth": 1,
    "home_page_in_toc": True,
    "navigation_with_keys": False,
    "article_header_start": ["toggle-primary-sidebar.html"],
    "article_header_end": ["kl-lang-switch.html", "article-header-buttons.html"],   # English / 中文
}
templates_path = ["_templates"]
# The Chinese edition is a second build of the same configuration (tools/site.py, KL_SITE_LANG=zh)
# into site/zh/: the theme's own words in Chinese, the same search (English words plus Chinese
# character runs and their pieces, klsite.SearchEnglishCJK).
KL_SITE_LANG = os.environ.get("KL_SITE_LANG", "en")
if KL_SITE_LANG == "zh":
    language = "zh_CN"
    project = html_title = "机器人运动学与动力学"
_repo = os.environ.get("KL_SITE_REPOSITORY_RESOLVED")   # set by tools/site.py when a repository URL is known
if _repo:
    html_theme_options.update({"repository_url": _repo, "use_repository_button": True,
                               "repository_branch": os.environ.get("KL_SITE_BRANCH", "main") or "main"})
html_search_language = "en"
