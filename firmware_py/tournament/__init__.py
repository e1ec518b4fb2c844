"""The tournament across the room (issue 20): structure, field and draw, eliminations and places,
balancing and breaking tables by the profile's book, the bubble, payouts. Pure: no I/O, no clock; the
draws come from a seed. The director's station (firmware_py/commands/tournament.py) is its adapter."""

from firmware_py.tournament.books import BOOKS, Book, Breaking, Cite, DealtIn, Mover, Target, book_for
from firmware_py.tournament.bubble import HOLD_RULE, Bubble
from firmware_py.tournament.payouts import prizes, shared_prizes
from firmware_py.tournament.room import (
    Broken,
    ButtonPlaced,
    Decision,
    Eliminated,
    Finished,
    Moved,
    NoSeat,
    Player,
    Raced,
    Redrawn,
    Seated,
    Table,
    TableView,
    Tournament,
    Withdrawn,
    decision_json,
)
from firmware_py.tournament.structure import (
    Break,
    Clock,
    ColorUp,
    Entries,
    Level,
    Step,
    Structure,
    StructureError,
    parse_structure,
    structure_from,
)

__all__ = [
    "BOOKS", "HOLD_RULE", "Book", "Break", "Breaking", "Broken", "Bubble", "ButtonPlaced", "Cite", "Clock",
    "ColorUp", "DealtIn", "Decision", "Eliminated", "Entries", "Finished", "Level", "Moved", "Mover", "NoSeat",
    "Player", "Raced", "Redrawn", "Seated", "Step", "Structure", "StructureError", "Table", "TableView", "Target",
    "Tournament", "Withdrawn", "book_for", "decision_json", "parse_structure", "prizes", "shared_prizes",
    "structure_from",
]
