"""PyInstaller runtime hook: a stand-in for PySide6.QtOpenGL, which the bundle leaves out (8.5 MB).

pyqtgraph 0.14 imports PySide6.QtOpenGL when it loads, but uses it only to draw curves with OpenGL
(useOpenGL / enableExperimental), which the app never turns on. The stand-in lets that import succeed; any
use of it raises ImportError with the reason, so a future use shows up in the frozen tests, not as a crash
on a user's machine. Runs before the app's own imports.
"""

import sys
import types


class _LeftOutQtOpenGL(types.ModuleType):
    def __getattr__(self, name: str):
        if name.startswith("__"):  # the import machinery's and copy's probes (__path__, __spec__, ...)
            raise AttributeError(name)
        raise ImportError(f"PySide6.QtOpenGL.{name}: OpenGL drawing is not part of this bundle")


sys.modules.setdefault("PySide6.QtOpenGL", _LeftOutQtOpenGL("PySide6.QtOpenGL"))
