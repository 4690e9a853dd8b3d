"""`attn-desktop export` under hostile input, run as a user runs it: every failure is one line and exit 2.

Nothing is replaced that should not be: the scene itself (by any name), a
read-only file; standard output that fails is reported, not a traceback.
"""

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from attn_desktop.paths import DEFAULT_SCENE, scene_path

from tests.support.project_root import ROOT

pytestmark = pytest.mark.slow  # every test runs the app in a child process

PREFIX = "attn-desktop: error: "


def run(*args, stdin=None, stdout=subprocess.PIPE, timeout=60):
    return subprocess.run(
        [sys.executable, "-m", "attn_desktop", *map(str, args)], check=False, cwd=ROOT, stdin=stdin, stdout=stdout,
        stderr=subprocess.PIPE, timeout=timeout,
    )


def error_line(done, *expected: str) -> str:
    stderr = done.stderr.decode("utf-8", "replace")
    lines = stderr.splitlines()
    assert done.returncode == 2, stderr
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    assert lines[0].startswith(PREFIX) and all(text in lines[0] for text in expected), lines[0]
    return lines[0]


@pytest.fixture
def scene(tmp_path):
    path = tmp_path / "scene.json"
    shutil.copyfile(scene_path(DEFAULT_SCENE), path)
    return path


# ----- the output is the input --------------------------------------------------------------

SAME_FILE_WAYS = [
    *((how, ".json") for how in ("same name", "dot slash", "absolute", "symlink", "hard link", "through a linked folder")),
    # the same file under another format's name: only a link can do that
    *((how, extension) for how in ("symlink", "hard link") for extension in (".csv", ".png", ".svg")),
]


@pytest.mark.parametrize("how, extension", SAME_FILE_WAYS)
def test_an_output_that_is_the_scene_itself_is_refused(tmp_path, scene, how, extension):
    before = scene.read_bytes()
    name = f"out{extension}"
    if how == "same name":
        output = "scene.json"
    elif how == "dot slash":
        output = "./scene.json"
    elif how == "absolute":
        output = str(scene)
    elif how == "symlink":
        (tmp_path / name).symlink_to(scene)
        output = name
    elif how == "hard link":
        os.link(scene, tmp_path / name)
        output = name
    else:
        (tmp_path / "linked").symlink_to(tmp_path)
        output = "linked/scene.json"
    done = subprocess.run(
        [sys.executable, "-m", "attn_desktop", "export", "scene.json", "-o", output],
        check=False, cwd=tmp_path, capture_output=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    error_line(done, output, "that is the scene file itself")
    assert scene.read_bytes() == before
    assert not [p for p in os.listdir(tmp_path) if ".attn-tmp-" in p]


# ----- read-only outputs and outputs that are not files -------------------------------------

@pytest.mark.parametrize("extension", [".json", ".csv", ".png", ".svg"])
@pytest.mark.parametrize("mode", [0o444, 0o400])
@pytest.mark.timing
def test_a_read_only_output_is_left_as_it_was(tmp_path, scene, extension, mode):
    output = tmp_path / f"handout{extension}"
    output.write_bytes(b"the teacher's copy")
    output.chmod(mode)
    started = time.monotonic()
    error_line(run("export", scene, "-o", output), "handout", "read-only")
    assert time.monotonic() - started < 20  # refused before a window is built for a picture
    output.chmod(0o600)
    assert output.read_bytes() == b"the teacher's copy"


def test_a_read_only_output_behind_a_symlink_is_left_as_it_was(tmp_path, scene):
    target = tmp_path / "real.csv"
    target.write_bytes(b"keep")
    target.chmod(0o444)
    (tmp_path / "link.csv").symlink_to(target)
    error_line(run("export", scene, "-o", tmp_path / "link.csv"), "read-only")
    assert target.read_bytes() == b"keep"


@pytest.mark.parametrize("kind", ["folder", "fifo", "missing folder"])
def test_an_output_that_cannot_be_a_file_is_refused(tmp_path, scene, kind):
    output = tmp_path / "out.json"
    if kind == "folder":
        output.mkdir()
        expected = "a folder"
    elif kind == "fifo":
        os.mkfifo(output)
        expected = "a pipe"
    else:
        output = tmp_path / "nowhere" / "out.json"
        expected = "no such folder"
    error_line(run("export", scene, "-o", output), expected)


def test_exporting_through_a_symlink_writes_the_target_and_keeps_the_link(tmp_path, scene):
    (tmp_path / "real.csv").write_text("old", encoding="utf-8")
    (tmp_path / "link.csv").symlink_to("real.csv")
    done = run("export", scene, "-o", tmp_path / "link.csv")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "link.csv").is_symlink() and (tmp_path / "real.csv").read_text().startswith("query \\ key,The")


# ----- standard output that fails -----------------------------------------------------------

def test_standard_output_on_a_full_disk_is_one_line(scene):
    with open("/dev/full", "wb") as full:
        done = run("export", scene, "-o", "-", stdout=full)
    error_line(done, "cannot write to standard output", "No space left on device")


def test_standard_output_closed_is_one_line(scene):
    done = subprocess.run(
        [sys.executable, "-m", "attn_desktop", "export", str(scene), "-o", "-"],
        check=False, cwd=ROOT, stdout=None, stderr=subprocess.PIPE, timeout=60,
        preexec_fn=lambda: os.close(1),
    )
    error_line(done, "cannot write to standard output (it is closed)")


def test_standard_output_whose_reader_has_gone_is_one_line(scene):
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will ever read: the first write meets a broken pipe
    try:
        done = run("export", scene, "-o", "-", stdout=write_end)
    finally:
        os.close(write_end)
    error_line(done, "cannot write to standard output", "the reader closed it")


def test_standard_output_is_utf8_whatever_the_locale(tmp_path):
    path = tmp_path / "cats.json"
    document = json.loads(scene_path(DEFAULT_SCENE).read_text(encoding="utf-8"))
    document["tokens"][1] = "猫😀"
    path.write_text(json.dumps(document), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "attn_desktop", "export", str(path), "-o", "-"], check=False, cwd=ROOT, capture_output=True,
        timeout=60, env=dict(os.environ, LC_ALL="C", LANG="C", PYTHONIOENCODING="ascii", PYTHONUTF8="0"),
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.decode("utf-8"))["tokens"][1] == "猫😀"


# ----- long names -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["a" * 250 + ".json", "b" * 251 + ".csv", "é" * 125 + ".json", "c" * 251 + ".svg"])
def test_long_but_legal_output_names_work(tmp_path, scene, name):
    done = run("export", scene, "-o", tmp_path / name, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / name).stat().st_size > 100
    assert sorted(os.listdir(tmp_path)) == sorted([name, "scene.json"])


def test_a_name_over_the_limit_is_one_line(tmp_path, scene):
    error_line(run("export", scene, "-o", tmp_path / ("d" * 300 + ".json")), "cannot write", "File name too long")


# ----- hostile scenes --------------------------------------------------------------------------

def hostile_scene(tmp_path, kind):
    path = tmp_path / "hostile.json"
    good = scene_path(DEFAULT_SCENE).read_text(encoding="utf-8")
    if kind == "fifo":
        os.mkfifo(path)
    elif kind in ("/dev/zero", "/dev/urandom"):
        path.symlink_to(kind)
    elif kind == "broken token":
        document = json.loads(good)
        document["tokens"][2] = "s\ud800t"
        path.write_text(json.dumps(document), encoding="ascii")
    elif kind == "broken title":
        path.write_text(json.dumps(dict(json.loads(good), title="\udc00")), encoding="ascii")
    elif kind == "400 digits":
        path.write_text(good.replace("[", "[" + "9" * 400 + ", ", 1), encoding="utf-8")
    elif kind == "5000 digits":
        path.write_text(good.replace("{", '{"note": ' + "1" * 5000 + ",", 1), encoding="utf-8")
    elif kind == "huge selected":
        document = json.loads(good)
        path.write_text(json.dumps(document).replace('"selected": 2', '"selected": ' + "7" * 400), encoding="utf-8")
    elif kind == "deep":
        path.write_text('{"a":' * 100_000 + "1" + "}" * 100_000, encoding="utf-8")
    elif kind == "garbage":
        path.write_bytes(bytes(range(256)) * 64)
    return path


@pytest.mark.parametrize(
    "kind, expected",
    [
        ("fifo", "a pipe (FIFO), not a scene file"),
        ("/dev/zero", "a device, not a scene file"),
        ("/dev/urandom", "a device, not a scene file"),
        ("broken token", "tokens[2]: not valid text (a broken character, like half an emoji"),
        ("broken title", "title: not valid text"),
        ("400 digits", "a whole number with 400 digits is far too large"),
        ("5000 digits", "a whole number with 5,000 digits is far too large"),
        ("huge selected", "a whole number with 400 digits"),
        ("deep", "nested too deeply"),
        ("garbage", "not UTF-8 text"),
    ],
)
@pytest.mark.parametrize("extension", [".json", ".csv", "-"])
def test_a_hostile_scene_is_one_line_and_writes_nothing(tmp_path, kind, expected, extension):
    path = hostile_scene(tmp_path, kind)
    output = "-" if extension == "-" else tmp_path / f"out{extension}"
    done = run("export", path, "-o", output, timeout=30)
    error_line(done, "hostile.json: ", expected)
    assert done.stdout == b"" and not (tmp_path / f"out{extension}").exists()


def test_standard_input_fed_forever_is_refused_at_once(tmp_path):
    yes = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
    try:
        done = run("export", "/dev/stdin", "-o", tmp_path / "out.json", stdin=yes.stdout, timeout=30)
    finally:
        yes.kill()
        yes.wait()
    error_line(done, "/dev/stdin: a pipe (FIFO), not a scene file")


def test_a_command_line_mistake_is_one_line(scene):
    error_line(run("export", scene), "the following arguments are required: -o/--output")
    error_line(run("export", scene, "-o", "x.json", "--bogus"), "unrecognized arguments: --bogus")


def test_an_export_cleans_what_a_killed_export_left(tmp_path, scene):
    from attn_desktop.model.files.safe_write import temporary_name

    output = tmp_path / "out.json"
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    litter = tmp_path / (temporary_name(output).rsplit(".attn-tmp-", 1)[0] + f".attn-tmp-{child.pid}-abcdef")
    litter.write_bytes(b'{"tokens": [')
    done = run("export", scene, "-o", output)
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(tmp_path)) == ["out.json", "scene.json"]
