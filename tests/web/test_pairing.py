"""The pairing throttle and the sessions, on a clock the test moves: wrong codes slow one address down
(doubling waits), many addresses together hit the page's limit, the code never changes under guessing,
an address that has guessed nothing is still heard, and sessions end by age, idleness or revocation."""

from __future__ import annotations

from firmware_py.web.pairing import FREE_WRONG, GLOBAL_WINDOW_S, GLOBAL_WRONG, MAX_WAIT_S, Pairing


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def pairing(clock: Clock, **kwargs: float) -> Pairing:
    codes = iter(f"{n:06d}" for n in range(123456, 999999, 1111))
    return Pairing(new_code=lambda: next(codes), clock=clock, **kwargs)  # type: ignore[arg-type]


def test_wrong_codes_from_one_address_wait_longer_and_longer_and_never_change_the_code() -> None:
    clock = Clock()
    made = pairing(clock)
    code = made.code
    for _ in range(FREE_WRONG):
        assert made.attempt("000000", client="10.0.0.9").refused == "that is not the code"
    waits = []
    for _ in range(12):
        tried = made.attempt("000000", client="10.0.0.9")
        assert tried.throttled  # refused unchecked while it waits
        waits.append(tried.retry_after_s)
        clock.now += tried.retry_after_s
        assert not made.attempt("000000", client="10.0.0.9").throttled  # looked at (and wrong) once waited
    assert waits[:4] == [1.0, 2.0, 4.0, 8.0] and waits[-1] == MAX_WAIT_S
    assert made.code == code  # guessing never changes the operator's code
    assert made.attempt(code, client="10.0.0.9").throttled  # even the right code waits its turn there
    assert made.attempt(code, client="10.0.0.20").token is not None  # another device pairs at once


def test_many_addresses_together_hit_the_pages_limit_but_a_device_that_guessed_nothing_pairs() -> None:
    clock = Clock()
    made = pairing(clock)
    code = made.code
    checked = 0
    for round_ in range(3):
        for host in range(1, 200):
            tried = made.attempt(f"{100000 + host + round_ * 1000}", client=f"10.1.{round_}.{host}")
            checked += not tried.throttled
            again = made.attempt("999999", client=f"10.1.{round_}.{host}")
            checked += not again.throttled
    # Past the limit, each address is heard once: 2 tries each of 597 addresses gave far fewer checks
    assert checked <= GLOBAL_WRONG + 3 * 199
    assert made.code == code
    assert made.attempt(code, client="10.9.9.9").token is not None
    mistyped = made.attempt("111111", client="10.9.9.10")  # an operator who mistypes during the attack
    assert mistyped.refused == "that is not the code"
    waiting = made.attempt(made.code, client="10.9.9.10")
    assert waiting.throttled and 1 <= waiting.retry_after_s <= GLOBAL_WINDOW_S
    for host in range(1, 42):  # the attack goes on from fresh addresses: the page stays over its limit
        made.attempt("222222", client=f"10.2.0.{host}")
        clock.now += GLOBAL_WINDOW_S / 40
    assert made.attempt(made.code, client="10.9.9.10").token is not None  # a minute later: heard, paired


def test_an_address_is_forgotten_after_an_hour_without_a_wrong_try() -> None:
    clock = Clock()
    made = pairing(clock)
    for _ in range(FREE_WRONG + 1):
        made.attempt("000000", client="10.0.0.9")
        clock.now += 1.0
    clock.now += 3601
    assert made.attempt("000000", client="10.0.0.9").refused == "that is not the code"


def test_a_session_ends_at_its_lifetime_after_idleness_and_on_revocation() -> None:
    clock = Clock()
    made = pairing(clock, lifetime_s=100.0, idle_s=30.0)
    token = made.attempt(made.code, client="a").token
    assert token is not None and made.session(token) is not None
    for _ in range(4):  # used every 20 s: never idle 30 s
        clock.now += 20
        assert made.session(token) is not None
    clock.now += 20  # 100 s after pairing: its lifetime is over
    assert made.session(token) is None
    other = made.attempt(made.code, client="b").token
    clock.now += 31  # idle
    assert made.session(other) is None
    kept = made.attempt(made.code, client="c").token
    gone = made.attempt(made.code, client="d").token
    code = made.code
    found = made.session(kept)
    assert found is not None and made.revoke_all(keep=found) == 1
    assert made.session(gone) is None and made.session(kept) is not None and made.code != code
    made.revoke_all()
    assert made.session(kept) is None and made.paired_count == 0
