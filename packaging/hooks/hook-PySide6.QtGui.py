# Overrides PyInstaller's hook for PySide6.QtGui (user hooks take precedence): the same collection,
# minus the Qt plugins that bundle_files.keep_qt_plugin leaves out. Filtering here, before PyInstaller
# analyses the binaries' own dependencies, also keeps out the libraries only those plugins need
# (libQt6EglFSDeviceIntegration, the GTK/cairo/pango stack, ...).
from pathlib import PurePath

from bundle_files import keep_qt_plugin  # on sys.path: the spec puts packaging/ there
from PyInstaller.utils.hooks.qt import add_qt6_dependencies

hiddenimports, binaries, datas = add_qt6_dependencies(__file__)


def _plugin_relative(destination: str, source: str) -> str | None:
    parts = PurePath(destination).parts
    if "plugins" not in parts:
        return None
    after = parts[parts.index("plugins") + 1:]
    return "/".join((*after, PurePath(source).name))


binaries = [
    (source, destination)
    for source, destination in binaries
    if (relative := _plugin_relative(destination, source)) is None or keep_qt_plugin(relative)
]
