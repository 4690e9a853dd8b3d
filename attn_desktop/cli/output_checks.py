"""Whether a command's output file can be written, checked before any work starts, so a long job
never ends in "cannot write", and no command replaces a file it reads: an export or a snapshot its scene,
heads or induction its model, a snapshot's audit its picture (output_is_an_input, used by every command that
reads a file; train reads none)."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

from attn_desktop.cli.errors import fail
from attn_desktop.language import N_, tr

# A process started with its standard output closed (`>&-`) has sys.stdout None.
STANDARD_OUTPUT_CLOSED = N_("cannot write to standard output (it is closed)")  # shown with tr()
# What each command says when its output is one of its inputs (shown with tr()).
SCENE_REPLACED_BY_EXPORT = N_("that is the scene file itself; the export would replace the scene. Choose another name")
SCENE_REPLACED_BY_SNAPSHOT = N_(
    "that is the scene file itself; the snapshot would replace the scene. Choose another name")
MODEL_REPLACED_BY_JSON = N_("that is the model file itself; the JSON would replace the model. Choose another name")
PICTURE_REPLACED_BY_AUDIT = N_("that is the picture too; the audit would replace it. Choose another name")
CACHE_REPLACED_BY_JSON = N_(
    "that is the model's weights cache, which this command reads; the JSON would replace it. Choose another name")


def separator_ending_problem(output: str) -> str | None:
    """A name ending in a separator ("x.json/") names a folder: refused, never written as the file x.json."""
    if output.endswith(os.sep) or (os.altsep and output.endswith(os.altsep)):
        return tr("the name ends in {separator}, as a folder's does; give a file's name").format(
            separator=output[-1])
    return None


def json_output_problem(output: str) -> str | None:
    """Why OUTPUT cannot take the JSON a long job writes (a trained head, a model's heads), checked before it starts."""
    from attn_desktop.model.files.safe_write import file_kind, is_read_only

    if separator_ending_problem(output):
        return separator_ending_problem(output)
    target = Path(os.path.realpath(output))
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        return tr("cannot write there ({reason})").format(reason=error.strerror or error)
    if info is not None and not stat.S_ISREG(info.st_mode):
        return tr("it is {kind}, not a file").format(kind=file_kind(info.st_mode))
    if info is not None and is_read_only(target, info):
        return tr("the file is marked read-only; it was left as it was")
    if not target.parent.is_dir():
        return tr("cannot write there (no such folder)")
    if not os.access(target.parent, os.W_OK | os.X_OK):  # the new file is made beside it, then renamed
        return tr("cannot write there (the folder is not writable)")
    return None


def export_output_problem(scene: str, output: str) -> str | None:
    """Why OUTPUT cannot take the export, checked before any work: the scene itself
    (by any name: a symlink or a hard link to it), a read-only file, a folder or device, no folder."""
    if output == "-":
        return None
    from attn_desktop.model.files.safe_write import file_kind, is_read_only

    problem = separator_ending_problem(output) or output_is_an_input(output, [(scene, SCENE_REPLACED_BY_EXPORT)])
    if problem:
        return problem
    target = Path(os.path.realpath(output))
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return None if target.parent.is_dir() else tr("cannot write there (no such folder)")
    except OSError as error:
        return tr("cannot write there ({reason})").format(reason=error.strerror or error)
    if not stat.S_ISREG(info.st_mode):
        return tr("it is {kind}, not a file (use - for standard output)").format(kind=file_kind(info.st_mode))
    if is_read_only(target, info):
        return tr("the file is marked read-only; it was left as it was")
    return None


def output_is_an_input(output: str, inputs: Iterable[tuple[str | os.PathLike[str] | None, str]]) -> str | None:
    """The refusal (translated) of the first of INPUTS, (path, refusal) pairs, that OUTPUT would replace, or None.

    The same file by any name: the same path, a symlink to it, or a hard link (os.path.samefile when both
    exist; the resolved paths otherwise). A path of None (no such input this time) and "-" (standard output)
    are never the same file."""
    if output == "-":
        return None
    for path, refusal in inputs:
        if path is not None and os.fspath(path) != "-" and _same_file(os.fspath(path), output):
            return tr(refusal)
    return None


def _same_file(first: str, second: str) -> bool:
    try:
        return os.path.samefile(first, second)  # also through symlinks and hard links
    except (OSError, ValueError):  # one of them does not exist (yet), or holds a NUL
        try:
            return os.path.realpath(first) == os.path.realpath(second)
        except (OSError, ValueError):
            return False


def model_read(model_path: str | None) -> str | None:
    """The model file heads or induction will read: --model, else the installed pack's (None if there is none)."""
    if model_path is not None:
        return model_path
    from attn_desktop.model.pretrained.pack import ModelUnavailable, find_pack_model

    try:
        return str(find_pack_model())
    except ModelUnavailable:  # the command says so itself, after checking its output
        return None


def model_inputs(model_path: str | None) -> list[tuple[str | Path | None, str]]:
    """What heads or induction reads, with the refusal of each as an output: the model file (--model, else the
    installed pack's) and its weights cache in the app's cache folder (a JSON over it costs a rebuild)."""
    from attn_desktop.model.pretrained.weights_cache import cache_path

    model = model_read(model_path)
    cache = cache_path(Path(model)) if model is not None else None
    return [(model, MODEL_REPLACED_BY_JSON), (cache, CACHE_REPLACED_BY_JSON)]


def write_standard_output(pieces: Iterable[str]) -> int:
    """Write PIECES to standard output (`-o -`): 0, or 2 and one line when it cannot be written."""
    try:
        for piece in pieces:
            sys.stdout.write(piece)
        sys.stdout.flush()
    except BrokenPipeError:  # a reader that stopped early (| head): not an error of ours
        sys.stdout = None  # type: ignore[assignment]  # nothing more is written at exit
        return 0
    except (OSError, ValueError, AttributeError) as error:  # closed or missing stdout, full disk
        return fail(tr(STANDARD_OUTPUT_CLOSED) if sys.stdout is None
                    else tr("cannot write to standard output ({reason})").format(reason=error))
    return 0
