"""The one body parser of the pages: a JSON body read under a size cap and a short deadline, decoded
into a msgspec schema, every failure a `BodyError` with its status and words.

A client that sends its body slowly (or never finishes it) holds a request for `BODY_DEADLINE_S` at
most, then gets 408: it cannot keep the page's bound full and starve the paired device.

>>> import msgspec
>>> class Code(msgspec.Struct, forbid_unknown_fields=True):
...     code: str
>>> decode_body(b'{"code": "123 456"}', Code)
Code(code='123 456')
>>> decode_body(b'{"code": 5}', Code)
Traceback (most recent call last):
firmware_py.web.body.BodyError: the body does not fit: Expected `str`, got `int` - at `$.code`
"""

from __future__ import annotations

import asyncio
from typing import TypeVar

import msgspec
from starlette.requests import ClientDisconnect, Request

T = TypeVar("T")

MAX_BODY = 2048
BODY_DEADLINE_S = 2.0


class BodyError(ValueError):
    """A body refused: `status` (400, 408, 413) and the words the page shows."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


async def read_body(request: Request, *, limit: int = MAX_BODY, deadline_s: float = BODY_DEADLINE_S) -> bytes:
    """The raw body, at most `limit` bytes, all of it within `deadline_s` of asking."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise BodyError(f"the body is too long: at most {limit} bytes", 413)
    body = bytearray()

    async def gather() -> None:
        async for chunk in request.stream():
            body.extend(chunk)
            if len(body) > limit:
                raise BodyError(f"the body is too long: at most {limit} bytes", 413)

    try:
        await asyncio.wait_for(gather(), deadline_s)
    except TimeoutError:
        raise BodyError(f"the body did not arrive within {deadline_s:g} s", 408) from None
    except ClientDisconnect:
        raise BodyError("the client went away before sending its body", 400) from None
    return bytes(body)


def decode_body(raw: bytes, schema: type[T]) -> T:
    """`raw` decoded into `schema` (a msgspec Struct), or a BodyError saying what does not fit and where."""
    try:
        return msgspec.json.decode(raw, type=schema)
    except msgspec.ValidationError as exc:
        raise BodyError(f"the body does not fit: {exc}") from None
    except msgspec.DecodeError:
        raise BodyError("the body is not JSON") from None


async def parse_body(request: Request, schema: type[T], *, limit: int = MAX_BODY,
                     deadline_s: float = BODY_DEADLINE_S) -> T:
    """Read (under the cap and the deadline) and decode a request's body into `schema`."""
    return decode_body(await read_body(request, limit=limit, deadline_s=deadline_s), schema)
