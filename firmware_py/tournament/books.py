"""What each tournament rulebook prescribes for a room of tables, as data with its citations.

Three of the five books are tournament rulebooks (shared/seeds/README.md): WFP (Section 2, WFP
Tournament Rules), UPT (Section 15, Tournaments) and RPL (Seating; Tournaments). wfp-dealer adds the
blind schedules and the bubble procedure ("All In / Bubble") to WFP's rules. Robert's general rules
have no tournament section: `book_for("robert")` says so.

Where a book is silent the choice made is named as such in `Cite.note`, never passed off as a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Mover(StrEnum):
    """Who moves from a table to balance tables."""

    DUE_FOR_BIG_BLIND = "due_for_big_blind"  # WFP 11, UPT 15
    SAME_POSITION = "same_position"  # RPL Tournaments 13: the position the eliminated player had


class Target(StrEnum):
    """Which open seat a moved player gets."""

    EARLIEST_DUE_FOR_BIG_BLIND = "earliest_due_for_big_blind"  # WFP 11, UPT 15
    VACATED_SEAT = "vacated_seat"  # RPL Blinds 2: the moved player takes the eliminated player's position


class DealtIn(StrEnum):
    """When a moved player is dealt in."""

    AT_ONCE = "at_once"  # WFP 12, RPL 16: at once, with the seat's obligations (blind or button)
    NOT_SMALL_BLIND_OR_BUTTON = "not_small_blind_or_button"  # UPT 16: waits in the small blind or button seat


class Breaking(StrEnum):
    """How a table is broken."""

    TO_EMPTY_SEATS = "to_empty_seats"  # WFP 9, UPT 14: pre-set order, its players drawn to empty seats
    REDRAW_ALL = "redraw_all"  # RPL Seating 2, Tournaments 14: every player draws a new table and seat


@dataclass(frozen=True, kw_only=True, slots=True)
class Cite:
    """A rule of a book: the profile, the section and rule number, and what it says (or the house's reading)."""

    profile: str
    section: str
    rule: str
    says: str
    note: str = ""  # set when the book is silent and this is the house's choice

    def __str__(self) -> str:
        return f"{self.profile} {self.section} {self.rule}".strip()

    def to_json(self) -> dict[str, str]:
        return {"profile": self.profile, "section": self.section, "rule": self.rule, "says": self.says,
                "note": self.note}


@dataclass(frozen=True, kw_only=True, slots=True)
class Book:
    """One book's tournament procedures."""

    profile: str
    title: str
    initial_seating: Cite
    button_draw: Cite
    button_at_seat_one: bool  # RPL Tournaments 7: the button starts at seat 1, not by a draw
    levels: Cite  # a new level applies from the next deal
    mover: Mover
    mover_rule: Cite
    target: Target
    target_rule: Cite
    dealt_in: DealtIn
    dealt_in_rule: Cite
    spread_rule: Cite
    spread_many_tables: int  # the largest allowed difference with more than six tables
    spread_few_tables: int  # ... with six tables or fewer
    breaking: Breaking
    breaking_rule: Cite
    thresholds: tuple[tuple[int, int], ...]  # (tables, players): at that many players go down to tables - 1
    thresholds_rule: Cite | None
    redraw_at: tuple[int, ...]  # table counts at which every player draws again
    redraw_rule: Cite | None
    redraw_three_optional_up_to: int  # redrawing at three tables is not mandatory with this many starting tables
    places_rule: Cite
    equal_stacks_rule: Cite
    out_rule: Cite  # a player eliminated alone on a hand: the place below those still in (the books are silent)
    winner_rule: Cite  # the last player with chips wins (the books take it as given)
    short_stack_rule: Cite
    bubble_rule: Cite
    race_rule: Cite  # the color-up's chip race (run by each table's core, core/race.py)
    odd_chip_rule: Cite  # a split pot's odd chip (Ties): a split bounty's odd amount follows it
    late_entry_rule: Cite  # a late entrant (a late registration, a re-entry, an alternate) gets a starting stack

    def spread(self, tables: int) -> int:
        """How many players the largest table may have more than the smallest."""
        return self.spread_many_tables if tables > 6 else self.spread_few_tables


OUT_ALONE = ("the book is silent on the place of a player out alone: the house reading is the order of elimination, "
             "the highest place not yet taken")
BOUNTY_SPLIT = ("the books are silent on bounties: two players splitting the "
                "pot that knocked a player out split its bounty as they split the pot, the odd amount as the odd chip")
WINNER = "the book takes it as given: the last player with chips wins the tournament"


def _wfp(profile: str, title: str) -> Book:
    def c(rule: str, says: str, note: str = "") -> Cite:
        return Cite(profile="wfp", section="Section 2 WFP Tournament Rules", rule=rule, says=says, note=note)

    return Book(
        profile=profile, title=title,
        initial_seating=c("1", "Initial seating is determined by WFP Management.",
                          "the director's station draws the seats at random"),
        button_draw=c("3", "The starting position of the button is determined by the players drawing for the "
                           "high card by suit."),
        button_at_seat_one=False,
        levels=c("5", "If there is a signal designating the end of a betting level, the new limits apply on the "
                      "next deal."),
        mover=Mover.DUE_FOR_BIG_BLIND,
        mover_rule=c("11", "The player due for the big blind will be automatically selected to move."),
        target=Target.EARLIEST_DUE_FOR_BIG_BLIND,
        target_rule=c("11", "... and will be given the earliest seat due for the big blind if more than one seat "
                            "is open."),
        dealt_in=DealtIn.AT_ONCE,
        dealt_in_rule=c("12", "New players or merged players are dealt in immediately and take over the "
                              "obligations of that position, including the small blind or button position."),
        spread_rule=c("13", "The number of players at each table will be kept reasonably balanced by the transfer "
                            "of a player as needed.", "'reasonably balanced' read as within one player"),
        spread_many_tables=1, spread_few_tables=1,
        breaking=Breaking.TO_EMPTY_SEATS,
        breaking_rule=c("9", "As players are eliminated, tables are broken in a pre-set order, with players from "
                             "the broken tables assigned to empty seats at other tables."),
        thresholds=(), thresholds_rule=None,
        redraw_at=(), redraw_rule=None, redraw_three_optional_up_to=0,
        places_rule=c("28", "If multiple players go broke on the same hand, the player starting the hand with the "
                            "larger chip stack finishes in the higher ranking position."),
        equal_stacks_rule=c("28", "(silent on equal stacks)", "equal starting stacks share the places and their "
                                  "prize money, as UPT Tournaments 35 rules"),
        out_rule=c("16", "All players must leave their seat immediately after being eliminated from an event.",
                   OUT_ALONE),
        winner_rule=c("28", "(silent)", WINNER),
        short_stack_rule=c("15", "If a player lacks sufficient chips for a blind or a forced bet, the player is "
                                 "entitled to get action on whatever amount of money is left in his stack."),
        odd_chip_rule=Cite(profile="wfp", section="Ties", rule="5(a)",
                           says="If two or more hands tie, an odd chip will be awarded as follows: (a) The first hand "
                                "clockwise from the button gets the odd chip.", note=BOUNTY_SPLIT),
        late_entry_rule=Cite(profile="wfp-dealer", section="Sit & Go", rule="",
                             says="The late or replacement player will start with a full stack.",
                             note="WFP's tournament rules are silent on late entries: the seat is drawn among the "
                                  "open seats of the tables with the fewest players (balancing applies); the "
                                  "entrant is dealt in as a moved player is (WFP 12)"),
        race_rule=c("6", "The method for removal of odd chips is to deal one card to a player for each odd chip "
                         "possessed. [...] A player may not be eliminated from the event by the chip-change process."),
        bubble_rule=Cite(profile="wfp-dealer", section="All In / Bubble", rule="",
                         says="When the tournament is on the bubble and an all in has been called, the dealer "
                              "should announce \"All in called\" and the other dealer should acknowledge it, and "
                              "not deal any new hands until the first dealer confirms that the all in player "
                              "survived."),
    )


def _upt() -> Book:
    def c(rule: str, says: str, note: str = "") -> Cite:
        return Cite(profile="upt", section="Section 15 - Tournaments", rule=rule, says=says, note=note)

    return Book(
        profile="upt", title="Ultimate Poker Tour",
        initial_seating=c("2", "Initial seating is determined by random draw or assignment."),
        button_draw=c("8", "The starting position of the button is determined by the players drawing for the high "
                           "card."),
        button_at_seat_one=False,
        levels=c("10", "If there is a signal designating the end of a betting level, the new limits apply on the "
                       "next deal."),
        mover=Mover.DUE_FOR_BIG_BLIND,
        mover_rule=c("15", "The player due for the big blind will be automatically selected to move."),
        target=Target.EARLIEST_DUE_FOR_BIG_BLIND,
        target_rule=c("15", "... and will be given the earliest seat due for the big blind if more than one seat "
                            "is open."),
        dealt_in=DealtIn.NOT_SMALL_BLIND_OR_BUTTON,
        dealt_in_rule=c("16", "New players to a table as a result of balancing tables are dealt in immediately "
                              "unless they are in the small blind or button position, where they must wait until "
                              "the button has passed to the player on their left."),
        spread_rule=c("17", "With more than six tables, table size will be kept within two players. With six "
                            "tables or less, table size will be kept within one player."),
        spread_many_tables=2, spread_few_tables=1,
        breaking=Breaking.TO_EMPTY_SEATS,
        breaking_rule=c("14", "As players are eliminated, tables are broken in a pre-set order, with players from "
                              "the broken tables assigned to empty seats at other tables."),
        thresholds=(), thresholds_rule=None,
        redraw_at=(3, 2, 1),
        redraw_rule=c("18", "There is a redraw for seating when the field is reduced to three tables, two tables, "
                            "and one table. (Redrawing at three tables is not mandatory in small tournaments with "
                            "only four or five starting tables.)"),
        redraw_three_optional_up_to=5,
        places_rule=c("35", "If multiple players go broke on the same hand, the player starting the hand with the "
                            "larger amount of chips finishes in the higher place for prize money and any other "
                            "award."),
        equal_stacks_rule=c("35", "Players eliminated on the same deal who start their final hand with an equal "
                                  "amount of chips receive equal prize money, with the best hand on that deal "
                                  "receiving any non-divisible award."),
        out_rule=c("21", "All players must leave their seat immediately after being eliminated from an event.",
                   OUT_ALONE),
        winner_rule=c("35", "(silent)", WINNER),
        short_stack_rule=c("19", "If a player lacks sufficient chips for a blind or a forced bet, the player is "
                                 "entitled to get action on whatever amount of money is left in his stack."),
        odd_chip_rule=Cite(profile="robert", section="Ties", rule="5(a)",
                           says="If two or more hands tie, an odd chip will be awarded as follows: (a) In a button "
                                "game, the first hand clockwise from the button gets the odd chip.",
                           note="UPT's abbreviated rules leave Ties to Robert's Rules, their source; " + BOUNTY_SPLIT),
        late_entry_rule=c("6", "A starting stack of chips may be placed in a seat to accommodate late entrants (so "
                               "all antes and blinds have been appropriately paid).",
                          "the seat is drawn among the open seats of the tables with the fewest players (balancing "
                          "applies); the entrant is dealt in as a moved player is"),
        race_rule=c("11", "The method for removal of odd chips is to deal one card to a player for each odd chip "
                          "possessed. [...] A player may not be eliminated from the event by the chip-change process."),
        bubble_rule=Cite(profile="upt", section="Section 15 - Tournaments", rule="",
                         says="(silent)", note="the hold of wfp-dealer \"All In / Bubble\" when the director starts "
                                               "hand-for-hand"),
    )


def _rpl() -> Book:
    def c(rule: str, says: str, note: str = "", section: str = "Tournaments") -> Cite:
        return Cite(profile="rpl", section=section, rule=rule, says=says, note=note)

    return Book(
        profile="rpl", title="RPL league",
        initial_seating=c("1", "Seating is determined by random draw when paying your entry fee into the "
                               "tournament.", section="Seating"),
        button_draw=c("7", "The starting position of the button is determined by seat #1."),
        button_at_seat_one=True,
        levels=c("9", "If there is a signal designating the end of a betting level, the new limits apply on the "
                      "next deal."),
        mover=Mover.SAME_POSITION,
        mover_rule=c("13", "The tournament director will take a player from a table in the same position as the "
                           "player eliminated."),
        target=Target.VACATED_SEAT,
        target_rule=c("2", "If a player is moved to the table to balance tables, they will take that position.",
                      section="Blinds"),
        dealt_in=DealtIn.AT_ONCE,
        dealt_in_rule=c("16", "New players are dealt in immediately and take over the obligations of that "
                              "position, including the small blind or button position."),
        spread_rule=c("13", "As players are eliminated, tables are kept balanced.", "read as within one player"),
        spread_many_tables=1, spread_few_tables=1,
        breaking=Breaking.REDRAW_ALL,
        breaking_rule=c("14", "As a complete table gets removed, all players will randomly select new seats and "
                              "tables just as the start of the game."),
        thresholds=((3, 20), (2, 9)),
        thresholds_rule=c("14", "From 3 tables to 2, when 20 players remain, From 2 tables to 1, when 9 players "
                                "remain."),
        redraw_at=(3, 2, 1),
        redraw_rule=c("17", "In all events, there is a redraw for seating when the field is reduced to three "
                            "tables, two tables, and one table."),
        redraw_three_optional_up_to=0,
        places_rule=c("31", "If multiple players go broke on the same hand, the player starting the hand with the "
                            "larger amount of chips finishes in the higher place for prize money and any other "
                            "award."),
        equal_stacks_rule=c("31", "(silent on equal stacks)", "equal starting stacks share the places and their "
                                  "prize money, as UPT Tournaments 35 rules"),
        out_rule=c("20", "All players must leave their seat immediately after being eliminated from an event.",
                   OUT_ALONE),
        winner_rule=c("31", "(silent)", WINNER),
        short_stack_rule=c("19", "You must have at least 1 chip after posting ante's to be considered a live person "
                                 "in tournament."),
        odd_chip_rule=c("4(a)", "If two or more hands tie, an odd chip will be awarded as follows: (a) In a button "
                                "game, the first hand clockwise from the button gets the odd chip.", BOUNTY_SPLIT,
                        section="Ties"),
        late_entry_rule=c("5", "A starting stack of chips may be placed in a seat to accommodate late entrants (so "
                               "all antes and blinds have been appropriately paid).",
                          "the seat is drawn among the open seats of the tables with the fewest players (balancing "
                          "applies); the entrant is dealt in as a moved player is"),
        race_rule=c("10", "Any odd amount chips will be chipped up to the next amount."),
        bubble_rule=Cite(profile="rpl", section="Tournaments", rule="", says="(silent)",
                         note="the hold of wfp-dealer \"All In / Bubble\" when the director starts hand-for-hand"),
    )


BOOKS: dict[str, Book] = {"wfp": _wfp("wfp", "World Free Poker"),
                          "wfp-dealer": _wfp("wfp-dealer", "World Free Poker (dealer guidelines)"),
                          "upt": _upt(), "rpl": _rpl()}


def book_for(profile: str) -> Book:
    """The tournament book of a profile (ValueError naming the ones there are)."""
    try:
        return BOOKS[profile]
    except KeyError:
        raise ValueError(f"profile {profile!r} has no tournament rules (Robert's general rules have no tournament "
                         f"section); tournament profiles: {', '.join(BOOKS)}") from None
