"""The Chinese edition (tools/translate.py): catalogs current, generated notebooks current and
identical in code and outputs to the English ones, the chapter-1 glossary used consistently, and
no student's edit overwritten."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import translate as tr  # noqa: E402
from nbclean import pre_save_hook  # noqa: E402

PAIRS = tr.pairs()
IDS = [p.source.name for p in PAIRS]


def test_the_edition_has_notebooks():
    assert PAIRS, "no catalog in translations/zh/"


@pytest.mark.parametrize("pair", PAIRS, ids=IDS)
def test_catalog_translates_the_english_as_it_is_now(pair):
    state = tr.status(pair)
    assert state.complete, "\n".join(state.problems())


@pytest.mark.parametrize("pair", PAIRS, ids=IDS)
def test_generated_notebook_is_what_translate_writes(pair):
    assert pair.target.exists(), f"{tr.rel(pair.target)} missing: run python3 tasks.py translate"
    assert pair.target.read_text(encoding="utf-8") == tr.generated_text(pair), (
        f"{tr.rel(pair.target)} is out of date: run python3 tasks.py translate")


def _without_translation_stamp(meta):
    meta = copy.deepcopy(meta)
    own = meta.get("kinematics_lib", {})
    own.pop("translation", None)
    if not own:
        meta.pop("kinematics_lib", None)
    return meta


@pytest.mark.parametrize("pair", PAIRS, ids=IDS)
def test_code_cells_outputs_and_metadata_are_the_english_ones(pair):
    """Running a Chinese notebook would add nothing to nbval: its code and outputs are the English ones."""
    english_path = (tr.ROOT / "exercises" / pair.target.name) if pair.is_exercise else pair.source
    english, chinese = (json.loads(p.read_text(encoding="utf-8")) for p in (english_path, pair.target))
    assert len(english["cells"]) == len(chinese["cells"])
    for en, zh in zip(english["cells"], chinese["cells"]):
        assert (en["id"], en["cell_type"]) == (zh["id"], zh["cell_type"])
        if en["cell_type"] == "code":
            assert zh == en, f"code cell {en['id']} differs"
        else:
            grade_en = {k: v for k, v in en["metadata"].get("nbgrader", {}).items() if k != "checksum"}
            grade_zh = {k: v for k, v in zh["metadata"].get("nbgrader", {}).items() if k != "checksum"}
            assert grade_en == grade_zh, f"nbgrader metadata of markdown cell {en['id']} differs"
            answer = en["metadata"].get("nbgrader", {}).get("solution")   # nbgrader's stub, the student's to fill
            assert zh["source"] != en["source"] or answer or not "".join(en["source"]).strip(), (
                f"markdown cell {en['id']} is not translated")
    en_meta = _without_translation_stamp(english["metadata"])
    zh_meta = _without_translation_stamp(chinese["metadata"])
    if pair.is_exercise:   # each release has the fingerprint of its own cells
        en_meta["kinematics_lib"]["generated"].pop("cells_sha256")
        zh_meta["kinematics_lib"]["generated"].pop("cells_sha256")
    assert en_meta == zh_meta


@pytest.mark.parametrize("pair", PAIRS, ids=IDS)
def test_glossary_terms_have_their_chinese_form(pair):
    assert not tr.glossary_problems(pair)


# --- the machinery, on small notebooks --------------------------------------------------------

def _notebook(*markdown):
    return {"cells": [{"cell_type": "markdown", "id": f"c{i}", "metadata": {}, "source": text}
                      for i, text in enumerate(markdown)],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _pair(tmp_path, *markdown):
    source = tmp_path / "chapters" / "99_test.ipynb"
    source.parent.mkdir()
    source.write_text(json.dumps(_notebook(*markdown)), encoding="utf-8")
    return tr.Pair(source, tmp_path / "catalog.md", tmp_path / "chapters" / "zh" / "99_test.ipynb")


def test_a_changed_english_cell_is_named_with_its_new_text(tmp_path):
    pair = _pair(tmp_path, "A rotation matrix.", "The adjoint.")
    catalog = tr.Catalog({"c0": tr.Entry("c0", tr.english_hash("A rotation matrix."), "旋转矩阵。"),
                          "c1": tr.Entry("c1", tr.english_hash("The adjoint."), "伴随变换。")})
    pair.catalog.write_text(catalog.text(pair, ["c0", "c1"]), encoding="utf-8")
    assert tr.status(pair).complete
    pair.source.write_text(json.dumps(_notebook("A rotation matrix.", "The adjoint, again.")), encoding="utf-8")
    state = tr.status(pair)
    assert state.stale == [("c1", "The adjoint, again.")] and state.translated == ["c0"]
    assert "99_test.ipynb, cell c1" in state.problems()[0] and "The adjoint, again." in state.problems()[0]
    with pytest.raises(ValueError, match="stale"):
        tr.translated_notebook(pair)
    tr.mark_done(pair, ["c1"])        # the translator checked the entry against the new English
    assert tr.status(pair).complete


def test_new_and_removed_cells_are_reported(tmp_path):
    pair = _pair(tmp_path, "One.")
    pair.catalog.write_text(tr.Catalog({"gone": tr.Entry("gone", "0" * 16, "旧")}).text(pair, []), encoding="utf-8")
    state = tr.status(pair)
    assert state.missing == [("c0", "One.")] and state.orphans == ["gone"] and not state.complete


def test_catalog_round_trips_multiline_text(tmp_path):
    pair = _pair(tmp_path, "x")
    text = "## 标题\n\n第一段。\n\n$$a = b$$\n\n> **文档原文** …"
    pair.catalog.write_text(tr.Catalog({"c0": tr.Entry("c0", "0123456789abcdef", text)}).text(pair, ["c0"]),
                            encoding="utf-8")
    assert tr.Catalog.read(pair.catalog).entries["c0"].text == text


def test_glossary_rows_are_split_like_the_table_reads():
    nb = _notebook("| English | 中文 |\n| --- | --- |\n"
                   "| kinetic / potential energy | 动能 / 势能 |\n"
                   "| generalised velocity / force | 广义速度 / 广义力 |\n"
                   "| centre of mass (CoM) | 质心 |\n"
                   "| forward kinematics | 正运动学（正解） |\n"
                   "| revolute / prismatic joint | 转动关节（旋转副）/ 移动关节 |\n")
    terms = dict(tr.glossary_terms(nb))
    assert terms["kinetic energy"] == {"动能"} and terms["potential energy"] == {"势能"}
    assert terms["generalised force"] == {"广义力"}
    assert terms["centre of mass"] == {"质心"}
    assert terms["forward kinematics"] == {"正运动学", "正解"}
    assert terms["prismatic joint"] == {"移动关节", "旋转副"}


def test_glossary_check_finds_a_wrong_term(tmp_path):
    pair = _pair(tmp_path, "The adjoint maps twists; gimbal lock is a singularity.")
    english = "The adjoint maps twists; gimbal lock is a singularity."
    terms = [("adjoint", {"伴随变换"}), ("gimbal lock", {"万向锁"}), ("gimbal", {"云台"}),
             ("twist", {"运动旋量"}), ("singularity", {"奇异位形"})]
    for text, bad in (("伴随变换变换运动旋量；万向锁是一种奇异位形。", set()),
                      ("伴随矩阵变换运动旋量；万向锁是一种奇异位形。", {"adjoint"})):
        pair.catalog.write_text(tr.Catalog({"c0": tr.Entry("c0", tr.english_hash(english), text)}).text(pair, ["c0"]),
                                encoding="utf-8")
        found = {line.split('says "')[1].split('"')[0] for line in tr.glossary_problems(pair, terms)}
        assert found == bad   # "gimbal lock" does not also demand 云台


def test_links_are_repointed_from_the_new_folder():
    chapters, zh = tr.ROOT / "chapters", tr.ROOT / "chapters" / "zh"
    text = tr.repoint_links("[notation](../docs/notation.md), [web](https://x.org/a), [here](#top)", chapters, zh)
    assert text == "[notation](../../docs/notation.md), [web](https://x.org/a), [here](#top)"
    untranslated = "99_no_such_chapter.ipynb"
    assert tr.repoint_links(f"[c]({untranslated}#s)", chapters, zh) == f"[c](../{untranslated}#s)"
    if PAIRS:
        done = next(p for p in PAIRS if not p.is_exercise).source.name
        assert tr.repoint_links(f"[c]({done})", chapters, zh) == f"[c]({done})"


def test_an_edited_chinese_notebook_is_never_overwritten(tmp_path):
    pair = next(p for p in PAIRS if not p.is_exercise)
    generated = tr.generated_text(pair)
    target = tmp_path / pair.target.name          # not in git: only the fingerprint can vouch for it
    nb = json.loads(generated)
    code = next(c for c in nb["cells"] if c["cell_type"] == "code")
    code["outputs"] = []                           # a run (outputs differ): not an edit
    target.write_text(json.dumps(nb), encoding="utf-8")
    assert not tr._edited_by_someone(target, generated)
    code["source"] = "my own answer = 42"          # the student's writing
    target.write_text(json.dumps(nb), encoding="utf-8")
    assert tr._edited_by_someone(target, generated)


def test_saving_a_chinese_chapter_that_was_only_run_keeps_the_committed_file():
    pair = next(p for p in PAIRS if not p.is_exercise)
    committed = tr.rel(pair.target)
    nb = json.loads(pair.target.read_text(encoding="utf-8"))
    nb["metadata"]["widgets"] = {"state": "random"}
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["execution_count"] = 99

    class Manager:
        root_dir = str(tr.ROOT)
    model = {"type": "notebook", "content": nb}
    pre_save_hook(model, committed, Manager())
    if model["content"] is nb:
        pytest.fail(f"the save hook does not cover {committed}")
    assert model["content"] == json.loads(pair.target.read_text(encoding="utf-8"))


def test_chinese_readme_lists_exactly_the_translated_chapters():
    readme = (ROOT / "README.zh.md").read_text(encoding="utf-8")
    english = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "[中文](README.zh.md)" in english.split("\n## ", 1)[0], "README.md must link README.zh.md at the top"
    for chapter in sorted((ROOT / "chapters").glob("*.ipynb")):
        translated = (ROOT / "chapters" / "zh" / chapter.name).exists()
        assert (f"`chapters/zh/{chapter.name}`" in readme) == translated, (
            f"README.zh.md's table and chapters/zh/ disagree about {chapter.name}")


def test_work_lang_zh_copies_the_chinese_exercise_and_never_replaces_it(tmp_path, monkeypatch):
    import importlib.util
    spec = importlib.util.spec_from_file_location("kl_tasks", ROOT / "tasks.py")
    tasks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tasks)
    monkeypatch.setattr(tasks, "WORK", tmp_path / "work")
    chinese = sorted((ROOT / "exercises" / "zh").glob("*.ipynb"))
    assert chinese, "no Chinese exercise yet"
    number = chinese[0].name[:2]
    assert tasks.cmd_work([number, "--lang", "zh"]) == 0
    copy = tmp_path / "work" / "zh" / chinese[0].name
    assert copy.read_bytes() == chinese[0].read_bytes()
    copy.write_text("my answers", encoding="utf-8")
    assert tasks.cmd_work([number, "--lang", "zh"]) == 0
    assert copy.read_text(encoding="utf-8") == "my answers"
    assert tasks.cmd_work([number, "--lang", "fr"]) == 2
    assert not (tmp_path / "work" / chinese[0].name).exists()   # the English copy is a separate choice
