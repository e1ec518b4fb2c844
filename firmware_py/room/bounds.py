"""The bounds of the room's message fields, shared by every schema (`messages`, and the broadcast `feed`).

Every number, string and list has a bound, so a message that passes cannot overflow a database
column (BIGINT, no NUL in PostgreSQL text), exhaust memory or nest without end.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from firmware_py.core.events import MAX_SEATS

Id = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
Session = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
MAX_SEQ = 2**53 - 1  # exact in every JSON reader, and in a BIGINT
Seq = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEQ)]
Count = Annotated[int, msgspec.Meta(ge=0, le=10**9)]
Chips = Annotated[int, msgspec.Meta(ge=0, le=10**15)]
SeatNo = Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS)]
Seconds = Annotated[float, msgspec.Meta(ge=0.0, le=1e9)]  # session time
Wall = Annotated[float, msgspec.Meta(ge=0.0, le=1e11)]  # Unix time
Name = Annotated[str, msgspec.Meta(max_length=200, pattern=r"^[^\x00-\x1f\x7f]*$")]
Text = Annotated[str, msgspec.Meta(max_length=4000, pattern=r"^[^\x00]*$")]
Phh = Annotated[str, msgspec.Meta(max_length=200_000, pattern=r"^[^\x00]*$")]
Card = Annotated[str, msgspec.Meta(max_length=32, pattern=r"^[^\x00-\x1f\x7f]*$")]
Digest = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{1,64}$")]
