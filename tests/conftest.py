"""Fixtures every test gets, and the `slow` marker.

`slow` (registered in pyproject.toml) marks each test that builds the real main window or starts the app,
python or a frozen build in a child process; `pytest -m "not slow"` leaves them out for a quick run. A test
gets the mark in one of two ways:

- it uses the `window` fixture of tests/ui/conftest.py, directly or through a fixture of its own: the hook
  pytest_collection_modifyitems below marks it;
- otherwise it says so where it is written: `pytestmark = pytest.mark.slow` at the top of a file whose every
  test does one of these things, `@pytest.mark.slow` on a single test. (A fixture cannot carry a mark, so a
  test that uses a file's own window fixture, or a fixture or helper that starts a process, is marked itself.)

A test not marked slow that starts python in a child process (the interpreter, or the app from source or
frozen) fails with a message saying to mark it: tests/support/slow_rule.py checks it, around each test.

A conftest holds fixtures and hooks only and is never imported: what tests import lives in the tests.support
package (project_root, seed_numbers, tiny_llama, random_model_run, in_the_window, crash, ...).
"""

import os
import shutil
import subprocess
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The tests read the app's English; a machine set to another language would otherwise make the app (and the
# apps the tests start) speak it. A test of another language asks for it with the `speaking` fixture.
os.environ["LANGUAGE"] = "en"

import pytest

from tests.support.slow_rule import python_children_refused


def pytest_collection_modifyitems(items):
    """Marks slow every test that uses the real main window of the `window` fixture (see above)."""
    for item in items:
        if "window" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A test not marked slow fails if it, or a fixture set up for it, starts python in a child process."""
    if item.get_closest_marker("slow") is not None:
        return (yield)
    with python_children_refused(item.nodeid):
        return (yield)


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A test that switches the language leaves the next test in English."""
    yield
    from attn_desktop.language import current_language, set_language

    if current_language() != "en":
        set_language("en")


@pytest.fixture
def speaking():
    """speaking("es"): the app speaks that language for the rest of the test (English again after it)."""
    from attn_desktop.language import set_language

    return set_language


@pytest.fixture(scope="session", autouse=True)
def private_cache_dir(tmp_path_factory):
    """The model weights cache goes to a temporary folder, never the user's real one: set for the whole
    session, before the module-wide fixtures that load models (their tests may set another)."""
    with pytest.MonkeyPatch.context() as patch:
        folder = tmp_path_factory.mktemp("user-cache")
        patch.setenv("ATTN_DESKTOP_CACHE_DIR", str(folder))
        yield folder


@pytest.fixture(autouse=True)
def cache_writes_finished():
    """A test's weights caches, written in the background after a first load, are whole before the next test
    starts: none writes into a folder another test reads, or one already removed."""
    yield
    loading = sys.modules.get("attn_desktop.model.pretrained.loading")
    if loading is not None:
        loading.finish_cache_writes()


@pytest.fixture(scope="module")
def smollm2():
    """The model pack's SmolLM2, loaded once per test module (its 540 MB let go with the module) from a weights
    cache of its own, written by the first module that loads it; the test is skipped, saying why, without the pack
    or its readers."""
    pytest.importorskip("gguf")
    pytest.importorskip("tokenizers")
    from attn_desktop.model.pretrained.llama import LlamaModel
    from attn_desktop.model.pretrained.pack import ModelUnavailable, find_pack_model
    from attn_desktop.model.pretrained.weights_cache import CACHE_DIR_VARIABLE

    from tests.support.real_model_cache import real_model_cache_dir

    try:
        path = find_pack_model()
    except ModelUnavailable as missing:
        pytest.skip(str(missing))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_DIR_VARIABLE, str(real_model_cache_dir()))
        return LlamaModel.load(path)


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path, monkeypatch):
    """Progress, autosave and settings go to a temporary folder, never the user's real ones."""
    folder = tmp_path / "user-data"
    monkeypatch.setenv("ATTN_DESKTOP_DATA_DIR", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # the settings of any app a test starts
    from PySide6.QtCore import QSettings

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    return folder


@pytest.fixture
def writes(monkeypatch):
    """Every write of a progress file, by its path (the progress store still writes for real)."""
    import attn_desktop.model.teaching.progress

    written = []
    real = attn_desktop.model.teaching.progress.write_json_atomically

    def write(path, document, *args, **kwargs):
        written.append(path)
        real(path, document, *args, **kwargs)

    monkeypatch.setattr(attn_desktop.model.teaching.progress, "write_json_atomically", write)
    return written


@pytest.fixture
def plugin_missing_a_library(tmp_path):
    """A folder with a "libqxcb.so" that needs a library the system does not have: built against a stub,
    which is then deleted, as a library missing from a minimal machine."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not sys.platform.startswith("linux") or shutil.which("ldd") is None:
        pytest.skip("needs Linux, ldd and a C compiler")
    stub, plugins = tmp_path / "stub", tmp_path / "platforms"
    stub.mkdir()
    plugins.mkdir()
    (tmp_path / "x.c").write_text("int attn_desktop_test(void) { return 0; }\n")
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(stub / "libattnmissing.so"),
                    "-Wl,-soname,libattn-desktop-missing.so.1", str(tmp_path / "x.c")], check=True)
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(plugins / "libqxcb.so"), str(tmp_path / "x.c"),
                    "-Wl,--no-as-needed", f"-L{stub}", "-lattnmissing"], check=True)
    shutil.rmtree(stub)
    return plugins
