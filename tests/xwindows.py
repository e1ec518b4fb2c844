"""A real X server for the window tests: Xvfb on a free display, and what a user does to a window there
(find it, read its size, press a key into it, click its close button) through python-xlib.

Close button: a window manager asks the application to close by a WM_DELETE_WINDOW client message,
which is what `close` sends (Xvfb runs no window manager).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

XVFB_SIZE = (1280, 800)


def why_no_x() -> str | None:
    """None when Xvfb and python-xlib are here, else why the real-window tests skip."""
    if shutil.which("Xvfb") is None:
        return "no Xvfb (apt-get install xvfb)"
    try:
        import Xlib.display  # noqa: F401, PLC0415
    except ImportError:
        return "no python-xlib (pip install -e '.[test]')"
    return None


@contextmanager
def xvfb() -> Iterator[str]:
    """Start Xvfb on a display number it picks itself; yields ':N'."""
    read, write = os.pipe()
    process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{XVFB_SIZE[0]}x{XVFB_SIZE[1]}x24",
                                "-nolisten", "tcp"], pass_fds=(write,), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        yield f":{number}"
    finally:
        process.terminate()
        process.wait(10)


@dataclass
class Window:
    display: Any
    window: Any

    @property
    def size(self) -> tuple[int, int]:
        geometry = self.window.get_geometry()
        return geometry.width, geometry.height

    def press(self, key: str) -> None:
        """A real key press and release (XTEST) with the window focused, as from the keyboard."""
        from Xlib import XK, X  # noqa: PLC0415
        from Xlib.ext import xtest  # noqa: PLC0415

        self.window.set_input_focus(X.RevertToParent, X.CurrentTime)
        self.display.sync()
        time.sleep(0.2)
        code = self.display.keysym_to_keycode(XK.string_to_keysym(key))
        xtest.fake_input(self.display, X.KeyPress, code)
        xtest.fake_input(self.display, X.KeyRelease, code)
        self.display.sync()

    def close(self) -> None:
        """What a window manager's close button sends: WM_DELETE_WINDOW."""
        from Xlib import X  # noqa: PLC0415
        from Xlib.protocol import event  # noqa: PLC0415

        protocols = self.display.intern_atom("WM_PROTOCOLS")
        delete = self.display.intern_atom("WM_DELETE_WINDOW")
        assert delete in (self.window.get_wm_protocols() or []), "the window does not take WM_DELETE_WINDOW"
        message = event.ClientMessage(window=self.window, client_type=protocols,
                                      data=(32, [delete, X.CurrentTime, 0, 0, 0]))
        self.window.send_event(message, event_mask=X.NoEventMask)
        self.display.sync()


def find_window(name: str, display_name: str, timeout: float = 30.0) -> Window:
    """The top-level window whose title starts with `name` (waits for it to be mapped)."""
    import Xlib.display  # noqa: PLC0415
    import Xlib.error  # noqa: PLC0415
    from Xlib import X  # noqa: PLC0415

    display = Xlib.display.Display(display_name)
    net_wm_name, utf8 = display.intern_atom("_NET_WM_NAME"), display.intern_atom("UTF8_STRING")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for child in display.screen().root.query_tree().children:
            try:
                title = child.get_full_text_property(net_wm_name, utf8) or child.get_wm_name()  # SDL sets the first
                viewable = child.get_attributes().map_state == X.IsViewable
            except Xlib.error.BadWindow:  # destroyed since the listing (SDL's short-lived windows at start-up)
                continue
            if isinstance(title, str) and title.startswith(name) and viewable:
                return Window(display, child)
        time.sleep(0.2)
    display.close()
    raise AssertionError(f"no window {name!r} on {display_name} within {timeout:g} s")


def screenshot(display_name: str, path: str) -> None:
    """The whole X screen as a PNG (ImageMagick's `import`, when installed)."""
    if shutil.which("import"):
        subprocess.run(["import", "-display", display_name, "-window", "root", path], check=False, timeout=30)
