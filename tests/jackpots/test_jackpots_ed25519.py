"""Evidence packets signed with the house's Ed25519 key pair (`[jackpots] signing = "ed25519"`): the table signs with
the private key; `verify --public-key` checks with the public key alone (which cannot sign), names any changed event,
and refuses another house's key, the HMAC secret, and a packet re-signed by whoever holds only the public key."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from firmware_py.cli import main
from firmware_py.errors import ConfigError
from firmware_py.extensions import Where
from firmware_py.jackpots import parse_jackpots_config
from tests.jackpots.bad_beat import HOUSE, play_bad_beat
from tests.jackpots.test_jackpots import _changed

pytest.importorskip("cryptography", reason="Ed25519 needs the cryptography package")


def key_pair(folder: Path, name: str = "jackpot") -> tuple[Path, Path]:
    """The house's pair made as docs/jackpots.md says, with openssl."""
    private, public = folder / f"{name}.pem", folder / f"{name}.pub"
    subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(private)], check=True,
                   capture_output=True, timeout=30)
    subprocess.run(["openssl", "pkey", "-in", str(private), "-pubout", "-out", str(public)], check=True,
                   capture_output=True, timeout=30)
    return private, public


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """The bad-beat session through the real daemon with `signing = "ed25519"`: the packet, the pair."""
    tmp = tmp_path_factory.mktemp("ed25519")
    private, public = key_pair(tmp)
    config = parse_jackpots_config({"file": str(HOUSE), "key_file": "jackpot.pem", "packets": "packets",
                                    "signing": "ed25519"}, Where(source="table.toml", base_dir=tmp))
    watch = play_bad_beat(tmp / "journal.sqlite3", config)
    assert len(watch.written) == 2
    return next(p for p in watch.written if "bad-beat" in p.name), private, public


def test_an_ed25519_packet_verifies_with_the_public_key_alone(signed, capsys: pytest.CaptureFixture[str]) -> None:
    path, _private, public = signed
    assert json.loads(path.read_bytes().splitlines()[-1])["signature"]["alg"] == "ed25519"
    assert main(["verify", str(path), "--public-key", str(public)]) == 0
    assert "verified: Bad beat" in capsys.readouterr().out


def test_an_ed25519_packet_with_one_byte_changed_names_the_event(signed, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path, _private, public = signed
    lines = path.read_bytes().splitlines(keepends=True)
    starts = [sum(len(line) for line in lines[:i]) for i in range(len(lines))]
    for index in range(1, len(lines) - 1):
        seq = json.loads(lines[index])["seq"]
        copy = _changed(path, tmp_path, starts[index] + len(lines[index]) // 2)
        assert main(["verify", str(copy), "--public-key", str(public)]) == 1
        assert f"event #{seq} (line {index + 1}) was changed" in capsys.readouterr().err
    copy = _changed(path, tmp_path, 40)
    assert main(["verify", str(copy), "--public-key", str(public)]) == 1
    assert "the header (line 1) was changed" in capsys.readouterr().err


def test_the_public_key_cannot_sign_a_forged_packet(signed, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Whoever holds the public key (surveillance) cannot make a changed packet verify: the signatures it could
    make are another key's. With HMAC, the key that verifies is the key that signs."""
    path, _private, public = signed
    forger, _forger_public = key_pair(tmp_path, "forger")
    from cryptography.hazmat.primitives import serialization  # noqa: PLC0415

    signer = serialization.load_pem_private_key(forger.read_bytes(), password=None)
    lines = path.read_bytes().splitlines()
    event = json.loads(lines[3])
    event["line"] = event["line"].replace('"t": ', '"t": 1', 1)
    lines[3] = json.dumps(event, sort_keys=True, separators=(",", ":")).encode()
    signature = json.loads(lines[-1])
    signature["signature"]["lines"] = [signer.sign(line).hex() for line in lines[:-1]]  # type: ignore[union-attr]
    lines[-1] = json.dumps(signature).encode()
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["verify", str(forged), "--public-key", str(public)]) == 1  # the house's key id, not its signatures
    assert "was changed: its signature does not match" in capsys.readouterr().err


def test_the_hmac_secret_or_another_houses_key_is_named_as_such(signed, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    path, private, _public = signed
    secret = tmp_path / "jackpot.key"
    secret.write_bytes(b"k" * 32)
    assert main(["verify", str(path), "--key", str(secret)]) == 1
    assert "signed with 'ed25519', not hmac-sha256: give the house's public key with --public-key" in \
        capsys.readouterr().err
    _other_private, other_public = key_pair(tmp_path, "other")
    assert main(["verify", str(path), "--public-key", str(other_public)]) == 1
    assert "signed with another key" in capsys.readouterr().err
    assert main(["verify", str(path), "--public-key", str(private)]) == 2  # the private key is not a public one
    assert "not an Ed25519 public key in PEM" in capsys.readouterr().err


def test_a_wrong_signing_or_key_file_is_named_with_a_fix(tmp_path: Path) -> None:
    where = Where(source="table.toml", base_dir=tmp_path)
    (tmp_path / "jackpot.key").write_bytes(b"k" * 32)
    with pytest.raises(ConfigError, match=r"table.toml: \[jackpots\] signing: must be one of hmac, ed25519, not "
                                          r"'ed2559' \(did you mean 'ed25519'\?\)"):
        parse_jackpots_config({"file": str(HOUSE), "key_file": "jackpot.key", "packets": "p", "signing": "ed2559"},
                              where)
    with pytest.raises(ConfigError, match=r"table.toml: \[jackpots\] key_file: .*jackpot.key is not an Ed25519 "
                                          r"private key in PEM .*openssl genpkey -algorithm ed25519"):
        parse_jackpots_config({"file": str(HOUSE), "key_file": "jackpot.key", "packets": "p", "signing": "ed25519"},
                              where)
