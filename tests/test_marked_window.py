"""The window's, the files' and the command line's texts come from the catalog: in the pseudo-language
every one of them reads "⟦Åççéñţéd···⟧", so a text left out of the catalog shows at a glance."""

import pytest

from attn_desktop.cli import main


def pseudo(text: str) -> bool:
    return "⟦" in text


def test_a_broken_scene_files_problem_is_translated(speaking, tmp_path):
    from attn_desktop.model import SceneFileError
    from attn_desktop.model.scene_files import open_scene

    broken = tmp_path / "broken.json"
    broken.write_text('{"tokens": ["a", "b"]', encoding="utf-8")
    speaking("en_XA")
    with pytest.raises(SceneFileError) as refused:
        open_scene(broken)
    assert pseudo(str(refused.value))
    assert "broken.json" in str(refused.value)  # the file's name stays as it is


def test_an_unknown_language_is_one_error_line_naming_the_languages(tmp_path, capsys):
    output = tmp_path / "out.png"
    assert main(["snapshot", "--lang", "xx", "-o", str(output), "--size", "1024x768"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("attn-desktop: error: --lang:")
    for code in ("en", "es", "zh_CN", "ar"):
        assert code in lines[0]
    assert not output.exists()


def test_export_refuses_an_unknown_language_too(tmp_path, capsys):
    output = tmp_path / "out.json"
    assert main(["export", "scene.json", "-o", str(output), "--lang=klingon"]) == 2
    assert "klingon" in capsys.readouterr().err
    assert not output.exists()


def test_the_command_lines_errors_speak_the_language_asked_for(tmp_path, capsys):
    assert main(["snapshot", "--lang", "en_XA", "-o", str(tmp_path / "out.png"), "--size", "12x12"]) == 2
    line = capsys.readouterr().err.strip()
    assert line.startswith("attn-desktop: error: ")
    assert pseudo(line)


def test_help_says_what_is_spoken_without_lang(capsys):
    with pytest.raises(SystemExit):
        main(["snapshot", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--lang CODE" in help_text
    assert "default: the system's language" in help_text


def test_the_window_remembers_a_chosen_language_and_lang_comes_first(monkeypatch):
    from attn_desktop.cli.language_option import speak_chosen_language
    from attn_desktop.language import current_language

    monkeypatch.setenv("LANGUAGE", "en")
    assert speak_chosen_language([], remembered=lambda: "es") is None
    assert current_language() == "es"
    assert speak_chosen_language(["--lang", "en_XA"], remembered=lambda: "es") is None
    assert current_language() == "en_XA"
    assert speak_chosen_language([], remembered=lambda: None) is None
    assert current_language() == "en"


def test_the_saved_language_setting_reads_back():
    from attn_desktop.ui.settings import remember_language, saved_language

    assert saved_language() is None
    remember_language("zh_CN")
    assert saved_language() == "zh_CN"


def test_a_menu_and_its_tooltip_and_a_dock_title_are_translated(speaking, qtbot):
    from PySide6.QtWidgets import QMainWindow

    from attn_desktop.ui.window.actions.table import ACTIONS, build_actions, shown_text

    speaking("en_XA")
    scale = next(spec for spec in ACTIONS if spec.id == "scale_action")
    grid = next(spec for spec in ACTIONS if spec.id == "snap_2_action")
    assert pseudo(shown_text(scale))
    parent = QMainWindow()
    qtbot.addWidget(parent)
    built = build_actions(object(), parent, [scale, grid])  # type: ignore[arg-type]
    assert pseudo(built["scale_action"].toolTip())
    assert pseudo(built["snap_2_action"].text())


def test_a_grid_step_has_a_decimal_comma_in_spanish(speaking):
    from attn_desktop.ui.window.actions.table import ACTIONS, shown_text

    speaking("es")
    assert [shown_text(spec) for spec in ACTIONS if spec.id.startswith("snap_") and spec.id != "snap_action"] == [
        "Cuadrícula de 0,1", "Cuadrícula de 0,5", "Cuadrícula de 1"]


def test_a_file_problem_shown_in_the_window_is_translated(speaking):
    from attn_desktop.ui.document.file_problems import failure_text

    speaking("en_XA")
    assert pseudo(failure_text(RecursionError()))


@pytest.mark.slow
def test_snapshot_accepts_the_pseudo_language(tmp_path):
    from tests.support.snapshot_run import run_snapshot

    done = run_snapshot(tmp_path, "--size", "1024x768", "--lang", "en_XA")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.png").stat().st_size > 0


def test_a_tie_of_many_keys_is_counted_in_the_languages_plural(speaking):
    from attn_desktop.model.explain import attends_most_to

    tokens = ["a", "b", "c", "d", "e"]
    assert attends_most_to([0.25, 0.25, 0.25, 0.25, 0.0], tokens) == "4 keys, 25% each (a tie)"
    speaking("en_XA")
    tie = attends_most_to([0.25, 0.25, 0.25, 0.25, 0.0], tokens)
    assert pseudo(tie) and "4" in tie


def test_an_undo_steps_name_is_translated(speaking):
    from attn_desktop.model.commands import AddToken

    speaking("en_XA")
    assert pseudo(AddToken("dog").text)
    assert "dog" in AddToken("dog").text
