"""Player cards: the registry of RFID tags enrolled as players (id, name, tag), its enrollment, and the `[checkin]`
extension that turns a player card read at a seat antenna, or at the shoe's reader, into a `checkin` event.

The registry is a TOML file under config/ (docs/checkin.md), read through the config toolkit: every mistake in
one error naming the file, the player and the key, with a fix. A tag is a card or a player card, never both: a
tag a deck registry holds too is refused naming the deck, the card and the player.

>>> registry = PlayerRegistry(players=(Player(player="P0012", name="Ann Lee", uid="04A1B2C3D4E5F6"),))
>>> registry.translate(Read(t=3.0, antenna="seat4", uid="04A1B2C3D4E5F6"))
CheckIn(t=3.0, player='P0012', name='Ann Lee', seat=4, table=None)
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from firmware_py.config_toolkit import ConfigMistakes, Section, read_toml, shown, toml_value
from firmware_py.core import CheckIn, Deck, Gone, Read, normalise_uid
from firmware_py.core.events import NAME_MAX, PLAYER_ID_PATTERN, SEAT_ANTENNAS, SHOE
from firmware_py.errors import ConfigError
from firmware_py.extensions import Extension, Registry, Where

__all__ = ["EXTENSION", "CheckInConfig", "Player", "PlayerEnrollment", "PlayerRegistry", "load_players",
           "parse_checkin_config"]

DEFAULT_PATH = Path("config/players.toml")


@dataclass(frozen=True, kw_only=True, slots=True)
class Player:
    """One player card: the player's id (the director's), the name the screens show, and the card's tag."""

    player: str
    name: str
    uid: str


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayerRegistry:
    """The enrolled players, by id and by tag; `shoe`: a player card at the shoe's reader checks in (between hands)."""

    players: tuple[Player, ...] = ()
    source: str = ""
    shoe: bool = True
    by_uid: Mapping[str, Player] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_uid", {p.uid: p for p in self.players})

    def translate(self, event: Read | Gone) -> Read | Gone | CheckIn | None:
        """A reader's event as the core is to see it: a player card read at a seat antenna (or at the shoe, in the
        check-in mode) is a `checkin`; a player card's other sightings are nobody's card (None); a card is itself."""
        player = self.by_uid.get(event.uid)
        if player is None:
            return event
        if type(event) is not Read:
            return None
        if event.antenna in SEAT_ANTENNAS:
            return CheckIn(t=event.t, player=player.player, name=player.name, seat=int(event.antenna[4:]))
        if event.antenna == SHOE and self.shoe:
            return CheckIn(t=event.t, player=player.player, name=player.name)
        return None


def load_players(path: str | Path, *, decks: Iterable[Deck] = (), shoe: bool = True) -> PlayerRegistry:
    """The registry file, validated: each `[players.ID]` has a `name` and a `uid`; no tag twice, none a deck's."""
    path = Path(path)
    data = read_toml(path, what="player registry")
    mistakes = ConfigMistakes()
    top = Section(str(path), "", data, ("players",), mistakes=mistakes)
    entries = top.get("players", {})
    if not isinstance(entries, dict):
        raise ConfigError(f"{path}: players: declare each player as a [players.ID] table with name and uid, "
                          f"e.g. [players.P0012] name = \"Ann Lee\", uid = \"04A1B2C3D4E5F6\"; not {shown(entries)}")
    out: list[Player] = []
    for player_id, entry in entries.items():
        section = mistakes.section(str(path), f"players.{player_id}", entry, ("name", "uid"))
        if section is None:
            continue
        player = mistakes.attempt(partial(_player, section, player_id), None)
        if player is not None:
            out.append(player)
    mistakes.raise_if_any()
    seen: dict[str, str] = {}
    cards = {uid: (deck, card) for deck in decks for uid, card in deck.cards.items()}
    for player in out:
        if player.uid in seen:
            mistakes.note(ConfigError(f"{path}: players.{player.player}.uid: tag {player.uid} is also player "
                                      f"{seen[player.uid]}'s: one card per player (enroll another card)"))
        seen.setdefault(player.uid, player.player)
        if player.uid in cards:
            deck, card = cards[player.uid]
            mistakes.note(ConfigError(
                f"{path}: players.{player.player}.uid: tag {player.uid} is enrolled both as player "
                f"{player.player} ({player.name}) and as the {card} of deck {deck.name!r}: a tag is a card or a player "
                "card, not both; enroll another card for the player"))
    mistakes.raise_if_any()
    return PlayerRegistry(players=tuple(out), source=str(path), shoe=shoe)


def _player(section: Section, player_id: str) -> Player:
    if re.match(PLAYER_ID_PATTERN, player_id) is None:
        raise section.error(f"the player id {shown(player_id)} must be 1 to 64 letters, digits, '_', '.' or '-' "
                            "(e.g. [players.P0012])")
    name = section.string("name").strip()
    if not name or len(name) > NAME_MAX:
        raise section.error(f"must be 1 to {NAME_MAX} characters, not {shown(name)}", "name")
    raw = section.string("uid")
    try:
        uid = normalise_uid(raw)
    except ValueError as exc:
        raise section.error(f"{exc} (e.g. uid = \"04A1B2C3D4E5F6\")", "uid") from None
    section.finish()
    return Player(player=player_id, name=name, uid=uid)


def write_players(path: Path, players: Iterable[Player]) -> None:
    """Rewrite the registry atomically (a crash leaves the old file or the new one)."""
    lines = ["# Player cards (docs/checkin.md): `python -m firmware_py enroll --player ID --name NAME` adds one.", ""]
    for p in sorted(players, key=lambda p: p.player):
        lines += [f"[players.{p.player}]", f"name = {toml_value(p.name)}", f"uid = {toml_value(p.uid)}", ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".partial")
    temporary.write_text("\n".join(lines), encoding="utf-8")
    os.replace(temporary, path)


@dataclass(frozen=True, slots=True)
class Outcome:
    accepted: bool
    message: str


class PlayerEnrollment:
    """One player card being enrolled into the registry at `path` (created if absent): the first tag read that is
    neither a deck's card nor another player's becomes the player's card; enrolling a player again replaces it."""

    def __init__(self, *, player: str, name: str, path: Path, decks: Iterable[Deck] = ()) -> None:
        if re.match(PLAYER_ID_PATTERN, player) is None:
            raise ConfigError(f"--player {shown(player)}: a player id is 1 to 64 letters, digits, '_', '.' or '-'")
        if not name.strip() or len(name.strip()) > NAME_MAX:
            raise ConfigError(f"--name {shown(name)}: a name is 1 to {NAME_MAX} characters")
        self.player, self.name, self.path = player, name.strip(), path
        self.decks = tuple(decks)
        existing = load_players(path, decks=self.decks) if path.exists() else PlayerRegistry()
        self.others = {p.uid: p for p in existing.players if p.player != player}
        self.kept = [p for p in existing.players if p.player != player]
        self.cards = {uid: (deck, card) for deck in self.decks for uid, card in deck.cards.items()}
        self.done: Player | None = None

    def offer(self, uid: str) -> Outcome:
        uid = normalise_uid(uid)
        if uid in self.cards:
            deck, card = self.cards[uid]
            return Outcome(False, f"tag {uid} is the {card} of deck {deck.name!r}: a card cannot be player "
                                  f"{self.player}'s card too; scan another card")
        if uid in self.others:
            other = self.others[uid]
            return Outcome(False, f"tag {uid} is already player {other.player}'s ({other.name}); scan another card")
        self.done = Player(player=self.player, name=self.name, uid=uid)
        write_players(self.path, [*self.kept, self.done])
        return Outcome(True, f"player {self.player} ({self.name}) enrolled as {uid} in {self.path}")


# -- the [checkin] extension -------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True, slots=True)
class CheckInConfig:
    """`[checkin]`: the player registry (`players`, relative to the table file) and whether a player card at the
    shoe's reader checks the player in (`shoe`, the check-in mode: between hands, at the seat the draw gives)."""

    players: Path
    shoe: bool = True


def parse_checkin_config(raw: Any, where: Where) -> CheckInConfig:
    mistakes = ConfigMistakes()
    section = Section(where.source, "checkin", raw, ("players", "shoe"), mistakes=mistakes)
    players = mistakes.attempt(lambda: where.base_dir / section.string("players", "players.toml"), None)
    shoe = mistakes.attempt(lambda: section.boolean("shoe", True), True)
    mistakes.raise_if_any()
    assert players is not None
    if not players.exists():
        raise ConfigError(f"{where.source}: [checkin] players: no player registry at {players}; enroll a player "
                          f"(`python -m firmware_py enroll --player ID --name NAME --out {players}`) or fix the path")
    load_players(players, shoe=shoe)  # read now: a mistake stops the table naming the file and key
    return CheckInConfig(players=players, shoe=bool(shoe))


def _attach(registry: Registry, config: CheckInConfig) -> PlayerRegistry:
    decks = registry.config.game.decks
    players = load_players(config.players, decks=decks, shoe=config.shoe)  # against the table's decks
    registry.add_read_filter(players.translate)
    return players


EXTENSION = Extension(name="player check-in", section="checkin", parse=parse_checkin_config, setup=_attach)

