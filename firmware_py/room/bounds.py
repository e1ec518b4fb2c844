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

# -- the production room's control (firmware_py/room/broadcast.py, docs/room.md "The producer's control") --
# The secure delay's floor: a producer's change (its control page, or the other instance's retained control over
# the broker) may not set the delay below it. Ten seconds, because a betting decision takes a few seconds: under
# that, someone watching the picture sees a player's cards while that player, or the next, is still to act, which
# is no delay at all (issue 34: a crafted message set 0.001 s). An instance started with a shorter --delay (a test,
# a demonstration) has that --delay as its floor; --allow-zero-delay (a private game) has none.
DELAY_FLOOR_S = 10.0
# The house may set its own floor and ceiling ([delay] in config/overlay/theme.toml, the file the broadcast reads),
# never the floor below this hard minimum: under five seconds the picture shows a player's cards while the very
# bet they are deciding is still to be made, whatever the house wants.
DELAY_FLOOR_MIN_S = 5.0
# The ceiling: half an hour, the longest delay live poker streams use (a whole level's hands held back). Every
# table's messages are held for the delay in the broadcast's memory (MAX_HELD below), so the ceiling bounds it.
DELAY_CEILING_S = 1800.0  # also the most a house's ceiling may be: MAX_HELD holds no longer a delay
# What the broadcast holds per table for the delay, at most: a table sends a few messages a second, so half an hour
# at 5 a second is 9,000 of them, of 1 to 3 kB each. Beyond either bound the oldest held are dropped (counted):
# a table that floods cannot grow the process without end, and what is dropped was not yet on air.
MAX_HELD = 10_000
MAX_HELD_BYTES = 32 * 1024 * 1024
# Win chances are worked out only for the table on air, at most this many deals waiting per table (more are
# shown without chances, counted); a message waits for its chances at most this long after its delay, so the
# picture is never more than this late (issue 34: a busy table off the air held the one on air 24 s late).
MAX_CHANCES_PENDING = 8
CHANCES_GRACE_S = 0.5
