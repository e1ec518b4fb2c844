"""Checking one ConfigError that reports several mistakes: a line each, in order, each naming the file,
then the section and key, and holding its suggestion."""

from __future__ import annotations


def assert_mistakes(error: BaseException, source: str, expected: list[tuple[str, str]]) -> None:
    """`expected` is (section and key, words of the suggestion) per mistake, in the order they are reported."""
    lines = str(error).splitlines()
    wheres = [line.removeprefix(f"{source}: ").split(": ")[0] for line in lines]
    assert wheres == [where for where, _ in expected], lines
    for line, (where, suggestion) in zip(lines, expected, strict=True):
        assert line.startswith(f"{source}: {where}: ") and suggestion in line, (line, suggestion)
