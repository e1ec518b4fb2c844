"""The action tracker's one page: static files in `firmware_py/daemon/static/` (tracker.html, .css,
.js), served by the pages' one web layer (`firmware_py.web.page`) under its strict CSP (no inline
script or style), with the amount grammar's script (`/static/amounts.js`) generated from
`firmware_py.web.amounts.AMOUNT_JS`.

Large touch targets, one column on a phone (390 px), the seat map beside the controls on a tablet
(1280 px). The state comes pushed (server-sent events); every press waits for the table's verdict.
An unpaired browser gets the shared pairing page (firmware_py/web/static/pair.html) instead.
"""

from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
