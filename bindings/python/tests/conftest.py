"""Paths the tests read: the repository's examples and conformance data."""

import pathlib

REPO = pathlib.Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"


def example(name: str) -> str:
    return (EXAMPLES / name).read_text()
