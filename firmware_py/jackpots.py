"""Jackpot hands: the house's jackpots (`config/jackpots.toml`), a hand qualified as it ends, and its evidence packet.

The house file declares each jackpot: a bad beat (a hand at least `minimum` loses at the showdown) or a high hand
(the winning hand is at least `minimum`), whether both hole cards must play, the least players dealt in and pot,
and the games. `qualify` reads the table's snapshot at the showdown; the daemon (the `[jackpots]` extension) then
rules the hand, the house file's rule cited, and writes an evidence packet: the hand's journal rows with their
checksums and running checksum, the cards with the reader that saw each, the times, each line signed: HMAC-SHA256
under the house's secret key, or (`signing = "ed25519"`) Ed25519 under the house's private key, so that surveillance
verifies with the public key alone and cannot sign. `python -m firmware_py verify PACKET --key KEY` (or
`--public-key PUB`) checks it; a changed byte is named by the event (or the header) it is in. See docs/jackpots.md.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from pathlib import Path
from typing import Any

from firmware_py.config_toolkit import ConfigMistakes, Section, did_you_mean, read_toml, shown
from firmware_py.core import Ruling, RulingKind, TableSnapshot
from firmware_py.core.cards import parse_card
from firmware_py.core.evaluator import hand_name, strength
from firmware_py.core.game import GAMES, HandRule
from firmware_py.core.snapshot import IN_HAND, LIVE
from firmware_py.errors import ConfigError
from firmware_py.extensions import Extension, Where
from firmware_py.ports import TablePort

logger = logging.getLogger(__name__)
ruling_log = logging.getLogger("firmware_py.ruling")

KINDS = ("bad_beat", "high_hand")
PACKET = "pokertable-jackpot-evidence"
VERSION = 1
MIN_KEY_BYTES = 32
KEY_HINT = "make one with: head -c 32 /dev/urandom > jackpot.key && chmod 600 jackpot.key"
SIGNINGS = ("hmac", "ed25519")
ED25519_HINT = ("make the house's pair with: openssl genpkey -algorithm ed25519 -out jackpot.pem && chmod 600 "
                "jackpot.pem && openssl pkey -in jackpot.pem -pubout -out jackpot.pub (jackpot.pub to surveillance)")
CRYPTOGRAPHY_HINT = ("Ed25519 needs the cryptography package: apt-get install python3-cryptography, or pip install "
                     "'pokertable[ed25519]'; or use signing = \"hmac\"")


@dataclass(frozen=True, kw_only=True, slots=True)
class Jackpot:
    """One jackpot of the house file."""

    name: str
    kind: str  # bad_beat or high_hand
    rule: str  # the house's rule, as cited in the ruling
    minimum: tuple[str, ...]  # five cards: the weakest hand that qualifies
    both_hole_cards: bool = True
    min_players: int = 2
    min_pot: int = 0
    games: tuple[str, ...] = ("holdem",)
    source: str = "jackpots.toml"

    @property
    def minimum_rank(self) -> int:
        return strength(self.minimum)

    @property
    def cite(self) -> str:
        return f"house ({Path(self.source).name}): {self.rule}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Qualified:
    """A jackpot a hand qualified for: the ruling, and the seats and hands it names."""

    jackpot: Jackpot
    ruling: Ruling
    seat: int  # the beaten hand (bad beat) or the winning hand (high hand)
    winners: tuple[int, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class JackpotsConfig:
    """`[jackpots]` of the table file: the house file, the signing key, where packets go."""

    file: Path
    key_file: Path
    packets: Path
    jackpots: tuple[Jackpot, ...] = field(default_factory=tuple)
    signing: str = "hmac"  # hmac: the house's secret key signs and verifies; ed25519: a private key signs


# -- the house file ---------------------------------------------------------------------------------------

def load_jackpots(path: str | Path) -> tuple[Jackpot, ...]:
    """The house file's jackpots; every mistake in one ConfigError naming the file, the entry and key, and a fix."""
    path = Path(path)
    data = read_toml(path, what="jackpot file")
    mistakes = ConfigMistakes()
    top = Section(str(path), "", data, ("jackpot",), mistakes=mistakes)
    entries = top.get("jackpot", [])
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"{path}: jackpot: declare each jackpot as a [[jackpot]] table (name, kind, rule, "
                          f"minimum), not {shown(entries)}")
    out: list[Jackpot] = []
    for number, entry in enumerate(entries, start=1):
        section = mistakes.section(str(path), f"jackpot #{number}", entry,
                                   ("name", "kind", "rule", "minimum", "both_hole_cards", "min_players",
                                    "min_pot", "games"))
        if section is None:
            continue
        jackpot: Jackpot | None = mistakes.attempt(partial(_jackpot, section, str(path)), None)
        if jackpot is not None:
            out.append(jackpot)
    mistakes.raise_if_any()
    names = [j.name for j in out]
    if len(set(names)) != len(names):
        raise ConfigError(f"{path}: jackpot: two jackpots are named alike ({', '.join(names)}): name each once")
    return tuple(out)


def _jackpot(section: Section, source: str) -> Jackpot:
    name = section.string("name")
    kind = section.string("kind")
    if kind not in KINDS:
        raise section.error(f"must be one of {', '.join(KINDS)}, not {shown(kind)}{did_you_mean(kind, KINDS)}", "kind")
    rule = section.string("rule")
    minimum = _minimum(section)
    games = section.get("games", ["holdem"])
    if not isinstance(games, list) or not games or not all(isinstance(g, str) for g in games):
        raise section.error(f"must be a list of games, e.g. games = [\"holdem\"], not {shown(games)}", "games")
    for game in games:
        if game not in GAMES:
            raise section.error(f"{shown(game)} is not a game{did_you_mean(game, GAMES)}; the games are "
                                f"{', '.join(GAMES)}", "games")
    return Jackpot(name=name, kind=kind, rule=rule, minimum=minimum,
                   both_hole_cards=section.boolean("both_hole_cards", True),
                   min_players=section.integer("min_players", 2, low=2, high=10),
                   min_pot=section.integer("min_pot", 0, low=0, high=10**12),
                   games=tuple(games), source=source)


def _minimum(section: Section) -> tuple[str, ...]:
    text = section.string("minimum")
    example = ' (e.g. minimum = "As Ah Ad 2c 2d", aces full: the weakest hand that qualifies)'
    try:
        cards = tuple(parse_card(word) for word in text.replace(",", " ").split())
    except ValueError as exc:
        raise section.error(f"{exc}{example}", "minimum") from None
    if len(cards) != 5 or len(set(cards)) != 5:
        raise section.error(f"must be five different cards, not {shown(text)}{example}", "minimum")
    try:
        strength(cards)
    except ValueError as exc:
        raise section.error(f"{exc}{example}", "minimum") from None
    return cards


def parse_jackpots_config(raw: Any, where: Where) -> JackpotsConfig:
    """`[jackpots]`: file (the house file), key_file (the signing key), packets (a folder); paths relative to the
    table file. The house file and the key are read now: a mistake stops the table with its file and key named."""
    mistakes = ConfigMistakes()
    section = Section(where.source, "jackpots", raw, ("file", "key_file", "packets", "signing"), mistakes=mistakes)
    file = mistakes.attempt(lambda: where.base_dir / section.string("file", "jackpots.toml"), None)
    key_file = mistakes.attempt(lambda: where.base_dir / section.string("key_file"), None)
    packets = mistakes.attempt(lambda: where.base_dir / section.string("packets"), None)

    def signing() -> str:
        value = section.string("signing", "hmac")
        if value not in SIGNINGS:
            raise section.error(f"must be one of {', '.join(SIGNINGS)}, not {shown(value)}"
                                f"{did_you_mean(value, SIGNINGS)}", "signing")
        return value

    how = mistakes.attempt(signing, "hmac")
    mistakes.raise_if_any()
    assert file is not None and key_file is not None and packets is not None
    jackpots = load_jackpots(file)
    config = JackpotsConfig(file=file, key_file=key_file, packets=packets, jackpots=jackpots, signing=how)
    signer_for(config, where=f"{where.source}: [jackpots] key_file")  # read now: a bad key stops the table at start
    return config


def read_key(path: Path, *, where: str = "key") -> bytes:
    try:
        key = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{where}: cannot read the signing key {path} ({exc.strerror or exc}); {KEY_HINT}") from None
    if len(key) < MIN_KEY_BYTES:
        raise ConfigError(f"{where}: the signing key {path} is {len(key)} bytes, fewer than {MIN_KEY_BYTES}; "
                          f"{KEY_HINT}")
    return key


# -- signing: HMAC-SHA256 (a secret the house and surveillance share) or Ed25519 (a house key pair) ------------

@dataclass(frozen=True, slots=True)
class HmacKey:
    """The house's secret: it signs, and whoever verifies holds it too (and so could sign)."""

    key: bytes
    alg = "hmac-sha256"

    @property
    def key_id(self) -> str:
        return key_id(self.key)

    def sign(self, data: bytes) -> str:
        return _mac(self.key, data)

    def check(self, data: bytes, signature: object) -> bool:
        return hmac.compare_digest(str(signature), _mac(self.key, data))


@dataclass(frozen=True, slots=True)
class Ed25519Key:
    """The house's Ed25519 pair: the table signs with the private key; `verify` needs only the public key, with which
    nobody can sign. `private` is None for a verifier."""

    public: Any  # cryptography's Ed25519PublicKey
    private: Any = None
    alg = "ed25519"

    @property
    def key_id(self) -> str:
        from cryptography.hazmat.primitives import serialization  # noqa: PLC0415

        raw = self.public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return hashlib.sha256(b"pokertable jackpot ed25519 " + raw).hexdigest()[:16]

    def sign(self, data: bytes) -> str:
        return str(self.private.sign(data).hex())

    def check(self, data: bytes, signature: object) -> bool:
        from cryptography.exceptions import InvalidSignature  # noqa: PLC0415

        try:
            self.public.verify(bytes.fromhex(str(signature)), data)
        except (InvalidSignature, ValueError):
            return False
        return True


def _ed25519(path: Path, *, where: str, private: bool) -> Ed25519Key:
    try:
        from cryptography.hazmat.primitives import serialization  # noqa: PLC0415
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey  # noqa: PLC0415
    except ImportError:
        raise ConfigError(f"{where}: {CRYPTOGRAPHY_HINT}") from None
    what = "private" if private else "public"
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{where}: cannot read the house's Ed25519 {what} key {path} ({exc.strerror or exc}); "
                          f"{ED25519_HINT}") from None
    try:
        key = (serialization.load_pem_private_key(data, password=None) if private
               else serialization.load_pem_public_key(data))
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"{where}: {path} is not an Ed25519 {what} key in PEM ({str(exc)[:200]}); "
                          f"{ED25519_HINT}") from None
    if private and isinstance(key, Ed25519PrivateKey):
        return Ed25519Key(public=key.public_key(), private=key)
    if not private and isinstance(key, Ed25519PublicKey):
        return Ed25519Key(public=key)
    raise ConfigError(f"{where}: {path} is a {type(key).__name__.removeprefix('_')}, not an Ed25519 {what} key; "
                      f"{ED25519_HINT}")


def signer_for(config: JackpotsConfig, *, where: str = "[jackpots] key_file") -> HmacKey | Ed25519Key:
    """The table's signing key as the table file says (`signing`): ConfigError naming the file and a fix."""
    if config.signing == "ed25519":
        return _ed25519(config.key_file, where=where, private=True)
    return HmacKey(read_key(config.key_file, where=where))


def public_key(path: Path, *, where: str = "--public-key") -> Ed25519Key:
    """The house's Ed25519 public key (PEM), which verifies and cannot sign."""
    return _ed25519(path, where=where, private=False)


# -- qualifying a hand -------------------------------------------------------------------------------------

def qualify(jackpots: Iterable[Jackpot], snapshot: TableSnapshot, showdown: Ruling) -> list[Qualified]:
    """The jackpots the hand that just reached its showdown qualifies for, each with its ruling."""
    if showdown.ruling is not RulingKind.SHOWDOWN or not showdown.winners or len(snapshot.board) != 5:
        return []
    game = GAMES[snapshot.game]
    board = snapshot.board
    hands = {v.seat: v.cards for v in snapshot.seats
             if v.state in LIVE and len(v.cards) == game.hole_cards and all(c[0] != "?" for c in v.cards)}
    if len(hands) < 2 or any(c[0] == "?" for c in board):
        return []
    ranks = {seat: _rank(cards, board, game.hand_rule) for seat, cards in hands.items()}
    dealt = sum(1 for v in snapshot.seats if v.state in IN_HAND)
    pot = sum(p.amount for p in showdown.pots) if showdown.pots else None
    winners = tuple(showdown.winners)
    out: list[Qualified] = []
    for jackpot in jackpots:
        if snapshot.game not in jackpot.games or dealt < jackpot.min_players:
            continue
        if jackpot.min_pot and (pot is None or pot < jackpot.min_pot):
            continue

        def good(seat: int, jackpot: Jackpot = jackpot) -> bool:
            return ranks[seat] <= jackpot.minimum_rank and (
                not jackpot.both_hole_cards or _both_play(hands[seat], board, game.hand_rule, ranks[seat]))

        both = " (both hole cards play)" if jackpot.both_hole_cards else ""
        pot_text = f", a pot of {pot:,}" if pot is not None else ""
        if jackpot.kind == "high_hand":
            for seat in winners:
                if seat in ranks and good(seat):
                    remedy = (f"{jackpot.name}: seat {seat}'s {hand_name(ranks[seat])} ({' '.join(hands[seat])} on "
                              f"{' '.join(board)}) qualifies{both}; {dealt} players dealt in{pot_text}. Hold the "
                              "cards where they lie and call the floor; the evidence packet goes to surveillance.")
                    out.append(_qualified(jackpot, snapshot, seat, winners, remedy=remedy, hand=hand_name(ranks[seat])))
        else:
            if not all(good(seat) or not jackpot.both_hole_cards for seat in winners):
                continue
            beaten = [seat for seat in ranks if seat not in winners and good(seat)]
            for seat in beaten:
                remedy = (f"{jackpot.name}: seat {seat}'s {hand_name(ranks[seat])} ({' '.join(hands[seat])}) lost to "
                          f"seat {winners[0]}'s {hand_name(ranks[winners[0]])} ({' '.join(hands[winners[0]])}) on "
                          f"{' '.join(board)}{both}; {dealt} players dealt in{pot_text}. Hold the cards where they "
                          "lie and call the floor; the evidence packet goes to surveillance.")
                out.append(_qualified(jackpot, snapshot, seat, winners, remedy=remedy, hand=hand_name(ranks[seat])))
    return out


def _qualified(jackpot: Jackpot, snapshot: TableSnapshot, seat: int, winners: tuple[int, ...], *, remedy: str,
               hand: str) -> Qualified:
    ruling = Ruling(t=snapshot.t, ruling=RulingKind.SHOWDOWN, rule=jackpot.cite, remedy=remedy, seat=seat,
                    winners=winners, hand=hand)
    return Qualified(jackpot=jackpot, ruling=ruling, seat=seat, winners=winners)


def jackpot_json(qualified: Qualified) -> dict[str, Any]:
    """The jackpot ruling as a ruling line: `ruling` "jackpot", the house file's rule cited."""
    line = qualified.ruling.to_json()
    line["ruling"] = "jackpot"
    line["jackpot"] = qualified.jackpot.name
    return line


def packet_name(qualified: Qualified, *, hand: int, first_seq: int) -> str:
    """The evidence packet's file name: `jackpot-hand{N}-seq{first}-{name}-seat{S}.jsonl` (`first_seq`: the journal
    event of the hand's `new_hand` press). The table's room publisher names the same file in its jackpot message.

    >>> q = Qualified(jackpot=Jackpot(name="Bad beat", kind="bad_beat", rule="r", minimum=("As",) * 5),
    ...               ruling=Ruling(t=0.0, ruling=RulingKind.SHOWDOWN, rule="r", remedy="r"), seat=2, winners=(3,))
    >>> packet_name(q, hand=7, first_seq=120)
    'jackpot-hand7-seq120-bad-beat-seat2.jsonl'
    """
    slug = "".join(c if c.isalnum() else "-" for c in qualified.jackpot.name.lower())
    return f"jackpot-hand{hand}-seq{first_seq}-{slug}-seat{qualified.seat}.jsonl"


def room_message(qualified: Qualified, *, n: int, hand: int, packet: str) -> dict[str, Any]:
    """The fields of the room's `jackpot` message (messages.JackpotMessage) past the envelope: what the floor's tile
    and the director's page say of it."""
    ruling = qualified.ruling
    return {"n": n, "hand": hand, "t": ruling.t, "jackpot": qualified.jackpot.name[:200],
            "kind": qualified.jackpot.kind, "seat": qualified.seat, "winners": list(qualified.winners),
            "held": (ruling.hand or "")[:200], "rule": qualified.jackpot.cite[:4000], "remedy": ruling.remedy[:4000],
            "packet": packet[:200]}


def _rank(hole: Sequence[str], board: Sequence[str], rule: HandRule) -> int:
    from firmware_py.core.evaluator import omaha_strength  # noqa: PLC0415

    return omaha_strength(hole, board) if rule is HandRule.TWO_FROM_HAND else strength([*hole, *board])


def _both_play(hole: Sequence[str], board: Sequence[str], rule: HandRule, rank: int) -> bool:
    """Whether the best hand can be made with both hole cards (Omaha: always exactly two)."""
    if rule is HandRule.TWO_FROM_HAND or len(hole) != 2:
        return True
    return any(strength([*hole, *three]) == rank for three in combinations(board, 3))


# -- the evidence packet -----------------------------------------------------------------------------------

def chain_of(previous: int, seq: int, line: str) -> int:
    """As the journal's (daemon/journal.py): CRC-32 of "seq line\\n", running."""
    return zlib.crc32(f"{seq} {line}\n".encode(), previous)


def _mac(key: bytes, data: bytes) -> str:
    return hmac.new(key, data, hashlib.sha256).hexdigest()


def key_id(key: bytes) -> str:
    return hashlib.sha256(b"pokertable jackpot key " + key).hexdigest()[:16]


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def build_packet(*, qualified: Qualified, rows: Sequence[tuple[int, str, int, int]], chain_before: int,
                 cards: Sequence[dict[str, Any]], snapshot: TableSnapshot, showdown: Ruling,
                 key: bytes | HmacKey | Ed25519Key, table: str, journal: str, written_utc: str) -> bytes:
    """The packet's bytes: a header line, one line per journal row (seq, line, crc, chain), a signature line
    with a signature (HMAC-SHA256, or Ed25519) of each line before it and of all of them."""
    signer = HmacKey(key) if isinstance(key, bytes) else key
    jackpot = qualified.jackpot
    header = {
        "packet": PACKET, "v": VERSION, "table": table, "journal": journal, "written_utc": written_utc,
        "jackpot": {"name": jackpot.name, "kind": jackpot.kind, "rule": jackpot.cite,
                    "minimum": " ".join(jackpot.minimum), "both_hole_cards": jackpot.both_hole_cards,
                    "min_players": jackpot.min_players, "min_pot": jackpot.min_pot},
        "ruling": jackpot_json(qualified), "showdown": showdown.to_json(),
        "hand": snapshot.hand_number, "game": snapshot.game, "profile": snapshot.profile, "session_t": snapshot.t,
        "board": list(snapshot.board),
        "holdings": {str(v.seat): list(v.cards) for v in snapshot.seats if v.state in IN_HAND},
        "cards": list(cards), "first_seq": rows[0][0], "events": len(rows), "chain_before": chain_before,
    }
    lines = [_dumps(header)] + [_dumps({"seq": seq, "line": line, "crc": crc, "chain": chain})
                                for seq, line, crc, chain in rows]
    body = "".join(line + "\n" for line in lines).encode()
    signature = {"signature": {"alg": signer.alg, "key_id": signer.key_id, "first_seq": rows[0][0],
                               "lines": [signer.sign(line.encode()) for line in lines], "all": signer.sign(body)}}
    return body + (_dumps(signature) + "\n").encode()


class PacketError(ValueError):
    """A packet that does not verify: the message names the event (or the part) that was changed."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Verified:
    jackpot: str
    hand: int
    first_seq: int
    last_seq: int
    cards: int


def verify_packet(data: bytes, key: bytes | HmacKey | Ed25519Key, *, source: str = "packet") -> Verified:
    """Check every line's signature, each event's checksum and the running checksum, and each card against the event
    that read it; PacketError naming the first line changed (an event by its number, or the header). `key`: the
    house's HMAC secret (bytes), or its Ed25519 public key (`public_key`) for a packet signed with Ed25519."""
    checker = HmacKey(key) if isinstance(key, bytes) else key
    at = data.rfind(b'{"signature":')  # the last line: found by its start, so a newline changed before it is named
    if at < 0:
        raise PacketError(f"{source}: not an evidence packet, or its signature line was changed: no signature found")
    lines = data[:at].split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    lines.append(data[at:].rstrip(b"\n"))
    if len(lines) < 3:
        raise PacketError(f"{source}: not an evidence packet: {len(lines)} lines (a header, the events and a "
                          "signature are needed)")
    try:
        signature = json.loads(lines[-1])["signature"]
        macs, first_seq, whole = signature["lines"], int(signature["first_seq"]), signature["all"]
        if not isinstance(macs, list) or not isinstance(whole, str):
            raise TypeError("lines")
    except (ValueError, KeyError, TypeError):
        raise PacketError(f"{source}: the signature line (line {len(lines)}) was changed: it is not the "
                          "signature the table wrote") from None
    alg = signature.get("alg", "hmac-sha256")
    if alg != checker.alg:
        give = "the house's public key with --public-key" if alg == "ed25519" else "the house's key with --key"
        raise PacketError(f"{source}: signed with {shown(alg)}, not {checker.alg}: give {give}")
    if signature.get("key_id") != checker.key_id:
        give = "--public-key" if checker.alg == "ed25519" else "--key"
        raise PacketError(f"{source}: signed with another key (key id {shown(signature.get('key_id'))}, this key's "
                          f"is {checker.key_id!r}): give the house's key with {give}")

    def what(index: int) -> str:
        return "the header (line 1)" if index == 0 else f"event #{first_seq + index - 1} (line {index + 1})"

    body = lines[:-1]
    for index, line in enumerate(body):
        if index >= len(macs) or not checker.check(line, macs[index]):
            raise PacketError(f"{source}: {what(index)} was changed: its signature does not match"
                              f"{_detail(index, line, first_seq)}")
    if len(macs) != len(body):
        raise PacketError(f"{source}: lines were removed after line {len(body)}: the signature covers "
                          f"{len(macs)} lines, the packet has {len(body)}")
    if not checker.check(b"".join(line + b"\n" for line in body), whole):
        raise PacketError(f"{source}: the packet's lines were reordered or joined: the whole signature does not match")
    header = json.loads(body[0])
    events = [json.loads(line) for line in body[1:]]
    chain = int(header["chain_before"])
    for index, event in enumerate(events, start=1):  # signed, so these hold unless the table wrote it wrong
        seq, line = event["seq"], event["line"]
        if seq != first_seq + index - 1 or zlib.crc32(line.encode()) != event["crc"]:
            raise PacketError(f"{source}: {what(index)}: its checksum does not match its line")
        chain = chain_of(chain, seq, line)
        if chain != event["chain"]:
            raise PacketError(f"{source}: {what(index)}: the running checksum does not follow from the event before")
    by_seq = {e["seq"]: json.loads(e["line"]) for e in events}
    for card in header["cards"]:
        read = by_seq.get(card["seq"])
        if read is None or (read.get("uid"), read.get("antenna"), read.get("t")) != (card["uid"], card["reader"],
                                                                                    card["t"]):
            raise PacketError(f"{source}: the card entry {card.get('card')} does not match event #{card.get('seq')}")
    return Verified(jackpot=header["jackpot"]["name"], hand=header["hand"], first_seq=first_seq,
                    last_seq=first_seq + len(events) - 1, cards=len(header["cards"]))


def _detail(index: int, line: bytes, first_seq: int) -> str:
    """What else is wrong with a changed line, said plainly (its JSON, its checksum)."""
    try:
        value = json.loads(line)
    except ValueError:
        return " and it is not valid JSON any more"
    if index == 0 or not isinstance(value, dict):
        return ""
    text = value.get("line")
    if isinstance(text, str) and zlib.crc32(text.encode()) != value.get("crc"):
        return "; its checksum does not match its line either"
    if value.get("seq") != first_seq + index - 1:
        return f"; its number reads {shown(value.get('seq'))}"
    return ""


# -- the daemon's side: the [jackpots] extension -----------------------------------------------------------

class JackpotWatch:
    """On each showdown ruling: qualify the hand, rule each jackpot it qualifies for, write its evidence packet."""

    def __init__(self, port: TablePort, config: JackpotsConfig) -> None:
        self.port = port
        self.journal = port.journal
        self.config = config
        self.written: list[Path] = []
        self.rulings: list[dict[str, Any]] = []

    def __call__(self, ruling: Ruling) -> None:
        if ruling.ruling is not RulingKind.SHOWDOWN or ruling.rule.startswith("house ("):
            return
        snapshot = self.port.snapshot()
        for qualified in qualify(self.config.jackpots, snapshot, ruling):
            path = self.write(qualified, snapshot, ruling)
            line = jackpot_json(qualified)
            self.rulings.append(line)
            ruling_log.info("%8.2fs JACKPOT %s seat %s | %s | %s [evidence %s]", qualified.ruling.t,
                            qualified.jackpot.name, qualified.seat, qualified.jackpot.cite, qualified.ruling.remedy,
                            path)

    def write(self, qualified: Qualified, snapshot: TableSnapshot, showdown: Ruling) -> Path:
        rows = list(self.journal.chained_rows())
        start = max((i for i, row in enumerate(rows) if '"name": "new_hand"' in row[1]), default=0)
        hand_rows = rows[start:]
        chain_before = rows[start - 1][3] if start > 0 else 0
        cards = []
        for seq, line, _crc, _chain in hand_rows:
            event = json.loads(line)
            if event.get("kind") == "read":
                card = self.port.card(event["uid"])
                cards.append({"seq": seq, "t": event["t"], "reader": event["antenna"], "uid": event["uid"],
                              "card": card})
        key = signer_for(self.config)
        data = build_packet(qualified=qualified, rows=hand_rows, chain_before=chain_before, cards=cards,
                            snapshot=snapshot, showdown=showdown, key=key, table=self.port.config.source,
                            journal=str(self.journal.path),
                            written_utc=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        self.config.packets.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = self.config.packets / packet_name(qualified, hand=snapshot.hand_number, first_seq=hand_rows[0][0])
        if not path.exists():
            path.write_bytes(data)
            path.chmod(0o600)
        self.written.append(path)
        return path


def _attach(port: TablePort, config: JackpotsConfig) -> JackpotWatch:
    watch = JackpotWatch(port, config)
    port.on_ruling(watch)
    return watch


EXTENSION = Extension(name="jackpots", section="jackpots", parse=parse_jackpots_config, setup=_attach)
