"""No command writes over a file it reads, by any name (issue 44): induction and heads over their model, export
over its scene (a picture too), snapshot over its scene or its own picture; and a snapshot's picture and audit
are written together, so an audit that cannot be written leaves the user's old picture as it was.

Every refusal comes before any work, in one line, and leaves the file's bytes as they were."""

import os

import pytest

from attn_desktop.cli import main
from attn_desktop.paths import DEFAULT_SCENE, scene_path

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from tests.support.tiny_llama import write_tiny_llama


@pytest.fixture
def model(tmp_path):
    path = tmp_path / "m.gguf"
    write_tiny_llama(path, layer_count=1)
    return path


@pytest.fixture
def scene(tmp_path):
    path = tmp_path / "scene.json"
    path.write_bytes(scene_path(DEFAULT_SCENE).read_bytes())
    return path


def _other_name(kind, original, tmp_path, name):
    """ORIGINAL by another name: the same path, a symlink to it, a hard link, or a path through '..'."""
    if kind == "same":
        return original
    other = tmp_path / name
    if kind == "symlink":
        other.symlink_to(original)
    elif kind == "hard link":
        os.link(original, other)
    else:
        (tmp_path / "sub").mkdir()
        other = tmp_path / "sub" / ".." / original.name
    return other


NAMES = ["same", "symlink", "hard link", "dotdot"]


def _refused_in_one_line(capsys, code, *words):
    said = capsys.readouterr()
    assert code == 2, said
    lines = said.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("attn-desktop: error: "), said.err
    for word in words:
        assert word in lines[0], lines[0]


@pytest.mark.parametrize("kind", NAMES)
def test_induction_refuses_to_write_over_its_model(model, tmp_path, capsys, kind):
    before = model.read_bytes()
    output = _other_name(kind, model, tmp_path, "out.json")
    code = main(["induction", "--model", str(model), "--length", "4", "-o", str(output)])
    _refused_in_one_line(capsys, code, "that is the model file itself")
    assert model.read_bytes() == before


@pytest.mark.parametrize("kind", NAMES)
def test_heads_refuses_to_write_over_its_model(model, tmp_path, capsys, kind):
    before = model.read_bytes()
    output = _other_name(kind, model, tmp_path, "out.json")
    code = main(["heads", "The cat sat", "--model", str(model), "--logit-lens", "-o", str(output)])
    _refused_in_one_line(capsys, code, "that is the model file itself")
    assert model.read_bytes() == before


def test_heads_and_induction_still_write_beside_their_model(model, tmp_path, capsys):
    assert main(["heads", "The cat sat", "--model", str(model), "-o", str(tmp_path / "heads.json")]) == 0
    assert main(["induction", "--model", str(model), "--length", "4", "-o", str(tmp_path / "ind.json")]) == 0
    assert (tmp_path / "heads.json").stat().st_size > 0 and (tmp_path / "ind.json").stat().st_size > 0


@pytest.mark.parametrize("kind", ["symlink", "hard link"])
@pytest.mark.parametrize("suffix", [".png", ".svg", ".csv"])
def test_export_refuses_a_picture_or_table_that_is_its_scene(scene, tmp_path, capsys, kind, suffix):
    before = scene.read_bytes()
    output = _other_name(kind, scene, tmp_path, f"picture{suffix}")
    code = main(["export", str(scene), "-o", str(output)])
    _refused_in_one_line(capsys, code, "that is the scene file itself")
    assert scene.read_bytes() == before


@pytest.mark.parametrize("kind", NAMES)
def test_snapshot_refuses_an_audit_that_is_its_scene(scene, tmp_path, capsys, kind):
    before = scene.read_bytes()
    audit = _other_name(kind, scene, tmp_path, "audit.json")
    code = main(["snapshot", str(scene), "-o", str(tmp_path / "out.png"), "--size", "1024x768", "--audit", str(audit)])
    _refused_in_one_line(capsys, code, "that is the scene file itself")
    assert scene.read_bytes() == before and not (tmp_path / "out.png").exists()


def test_snapshot_refuses_a_picture_that_is_its_scene(tmp_path, capsys):
    scene = tmp_path / "scene.png"  # a scene file may have any name
    scene.write_bytes(scene_path(DEFAULT_SCENE).read_bytes())
    before = scene.read_bytes()
    code = main(["snapshot", str(scene), "-o", str(scene), "--size", "1024x768"])
    _refused_in_one_line(capsys, code, "that is the scene file itself")
    assert scene.read_bytes() == before


@pytest.mark.parametrize("kind", ["same", "symlink"])
def test_snapshot_refuses_an_audit_that_is_its_own_picture(tmp_path, capsys, kind):
    picture = tmp_path / "out.png"
    picture.write_bytes(b"the user's picture")
    audit = _other_name(kind, picture, tmp_path, "audit.json")
    code = main(["snapshot", "-o", str(picture), "--size", "1024x768", "--audit", str(audit)])
    _refused_in_one_line(capsys, code, "that is the picture too")
    assert picture.read_bytes() == b"the user's picture"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_snapshot_with_an_audit_it_cannot_write_leaves_the_old_picture(tmp_path, capsys):
    picture = tmp_path / "out.png"
    picture.write_bytes(b"the user's picture")
    code = main(["snapshot", "-o", str(picture), "--size", "1024x768", "--audit", "/dev/full"])
    _refused_in_one_line(capsys, code, "/dev/full", "not a file")
    assert picture.read_bytes() == b"the user's picture"
    assert os.listdir(tmp_path) == ["out.png"]


@pytest.mark.parametrize("name", [DEFAULT_SCENE, "lessons/1_soft_lookup.json"])
def test_snapshot_refuses_an_audit_that_is_one_of_the_apps_own_scenes(tmp_path, capsys, name):
    built_in = scene_path(name)
    before = built_in.read_bytes()
    (tmp_path / "audit.json").symlink_to(built_in)
    code = main(["snapshot", "-o", str(tmp_path / "out.png"), "--size", "1024x768", "--steps", "lesson:soft-lookup",
                 "--audit", str(tmp_path / "audit.json")])
    _refused_in_one_line(capsys, code, "that is the scene file itself")
    assert built_in.read_bytes() == before


def test_heads_refuses_to_write_over_the_model_packs_file(model, tmp_path, capsys, monkeypatch):
    from attn_desktop.model.pretrained import pack

    monkeypatch.setattr(pack, "find_pack_model", lambda: model)  # the installed pack's model, without --model
    before = model.read_bytes()
    code = main(["heads", "The cat sat", "-o", str(model)])
    _refused_in_one_line(capsys, code, "that is the model file itself")
    code = main(["induction", "-o", str(model)])
    _refused_in_one_line(capsys, code, "that is the model file itself")
    assert model.read_bytes() == before


def test_heads_and_induction_refuse_to_write_over_the_weights_cache_they_read(model, tmp_path, capsys, monkeypatch):
    from pathlib import Path

    from attn_desktop.model.pretrained.weights_cache import CACHE_DIR_VARIABLE, cache_path

    monkeypatch.setenv(CACHE_DIR_VARIABLE, str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    cache = cache_path(Path(model))
    code = main(["heads", "The cat sat", "--model", str(model), "-o", str(cache)])
    _refused_in_one_line(capsys, code, "the model's weights cache")
    code = main(["induction", "--model", str(model), "-o", str(cache)])
    _refused_in_one_line(capsys, code, "the model's weights cache")
    assert not cache.exists()


@pytest.mark.parametrize("command", [["export", "SCENE"], ["train", "reverse", "--steps", "2"],
                                     ["heads", "The cat sat", "--model", "MODEL"],
                                     ["induction", "--model", "MODEL"]])
@pytest.mark.parametrize("name", ["x.json/", "x.png/"])
def test_an_output_name_ending_in_a_separator_is_refused(command, name, scene, model, tmp_path, capsys):
    if name.endswith(".png/") and command[0] != "export":
        name = "x.json" + os.sep
    command = [str(scene) if part == "SCENE" else str(model) if part == "MODEL" else part for part in command]
    code = main([*command, "-o", f"{tmp_path}{os.sep}{name}"])  # as typed: a Path would drop the separator
    _refused_in_one_line(capsys, code, "ends in")
    assert not (tmp_path / name.rstrip(os.sep)).exists()
