"""Bot protocol version 1 (docs: ``arena/bot-protocol.md``, also the site's protocol page):
the messages the referee writes and the checking of what a bot answers. Pure functions, no I/O.

The hot path (one ``act`` out, one answer in, per decision) uses orjson, several times faster
than the standard library, and stays byte-for-byte what ``json.dumps(message,
separators=(",", ":"))`` writes: compact, ASCII only. Whatever orjson would write differently
(a non-ASCII character, which ``json`` escapes; a non-string key; a float between 1e-10 and
1e-4) or cannot write, and whatever it refuses to read that ``json`` reads (``NaN``, huge
integers), goes through ``json``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from arena import json_bounds

PROTOCOL_VERSION = 1
#: The protocol's documentation, shipped in the package so that an installed site shows it.
DOC = Path(__file__).with_name("bot-protocol.md")

#: A bot's ``log`` text is kept in the replay; longer ones are cut to this many characters.
MAX_LOG_CHARS = 2000
#: A line a bot writes that nests arrays and objects deeper than this is not read (the fault
#: of a line that is not JSON): measured before any decoder runs, which would recurse once per
#: level. The referee's own messages nest fewer than 10. (Lines are capped in length by the
#: sandbox: ``sandbox.base.Limits.max_line_bytes``, 1 MiB.)
MAX_DEPTH = json_bounds.MAX_DEPTH

# Fault kinds, as recorded in the replay (``faults[].kind``).
TIMEOUT = "timeout"
CRASH = "crash"
INVALID_JSON = "invalid_json"
BAD_ANSWER = "bad_answer"
ILLEGAL_ACTION = "illegal_action"
INDEX_OUT_OF_RANGE = "index_out_of_range"
LINE_TOO_LONG = "line_too_long"
NO_READY = "no_ready"
UNSOLICITED = "unsolicited"

FAULT_KINDS = (
    TIMEOUT,
    CRASH,
    INVALID_JSON,
    BAD_ANSWER,
    ILLEGAL_ACTION,
    INDEX_OUT_OF_RANGE,
    LINE_TOO_LONG,
    NO_READY,
    UNSOLICITED,
)


#: a one-digit negative exponent, as orjson writes 1e-7 (json: 1e-07)
_ORJSON_EXPONENT = re.compile(rb"e-[1-9][,\]}]").search


def encode_bytes(message: dict[str, Any]) -> bytes:
    """One protocol line as bytes (without the newline): what :func:`encode` returns, encoded."""
    try:
        data = orjson.dumps(message)
    except TypeError:  # a non-string key, an integer past 64 bits: the slow, general path
        data = b""
    # orjson writes floats in [1e-10, 1e-4) its own way ("0.00001", "1e-7" where json writes
    # "1e-05", "1e-07"): text that looks like either (also inside a string) takes the slow path.
    if data and data.isascii() and b"0.0000" not in data and not _ORJSON_EXPONENT(data):
        return data
    return json.dumps(message, separators=(",", ":")).encode("ascii")


def encode(message: dict[str, Any]) -> str:
    """One protocol line (without the newline). Compact and ASCII-safe."""
    return encode_bytes(message).decode("ascii")


def start_message(
    game: str,
    match_id: str,
    seat: int,
    players: int,
    options: dict[str, Any],
    time: dict[str, int],
) -> dict[str, Any]:
    return {
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "game": game,
        "match_id": match_id,
        "seat": seat,
        "players": players,
        "options": options,
        "time": time,
    }


def act_message(
    turn: int, seat: int, observation: dict[str, Any], legal: list[Any], time_left_ms: int
) -> dict[str, Any]:
    return {
        "type": "act",
        "turn": turn,
        "seat": seat,
        "observation": observation,
        "legal_actions": legal,
        "time_left_ms": time_left_ms,
    }


def end_message(result: dict[str, Any]) -> dict[str, Any]:
    return {"type": "end", "result": result}


def _decode_object(line: str) -> dict[str, Any] | str:
    """The JSON object ``line`` holds, or why it holds none (a fault's detail). Never raises:
    whatever a bot writes is at worst its own fault, never the platform's error."""
    try:
        value = json_bounds.loads(line, max_depth=MAX_DEPTH)
    except json_bounds.JSONBoundsError as e:
        return f'{e} (bot-protocol.md, "Limits")'
    except Exception:  # any other refusal of either decoder, whatever its class
        return "not one JSON object"
    return value if isinstance(value, dict) else "not one JSON object"


def printable(text: str) -> str:
    """``text`` with what cannot be stored as text made U+FFFD: NUL (PostgreSQL refuses it in
    text and in ``jsonb``) and lone surrogates (not encodable as UTF-8), both of which a bot can
    write, the second as a JSON escape (``"\\ud800"``)."""
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _short(line: str, limit: int = 120) -> str:
    return line if len(line) <= limit else line[:limit] + f"... ({len(line)} chars)"


@dataclass(frozen=True)
class Ready:
    """The checked answer to ``start``: ``fault`` is None when the bot said ready."""

    name: str | None = None
    fault: str | None = None
    detail: str = ""


def parse_ready(line: str) -> Ready:
    msg = _decode_object(line)
    expected = 'expected {"type": "ready"}'
    if isinstance(msg, str):
        return Ready(fault=NO_READY, detail=f"{expected}, got {_short(line)!r} ({msg})")
    if msg.get("type") != "ready":
        return Ready(fault=NO_READY, detail=f"{expected}, got {_short(line)!r}")
    name = msg.get("name")
    return Ready(name=printable(name[:100]) if isinstance(name, str) else None)


@dataclass(frozen=True)
class Answer:
    """The checked answer to ``act``.

    ``stale`` answers (wrong ``turn`` echo) are discarded without a fault; otherwise either
    ``index`` is the chosen legal action or ``fault`` names what was wrong."""

    index: int | None = None
    fault: str | None = None
    detail: str = ""
    log: str | None = None
    stale: bool = False


def canonical(value: Any) -> str:
    """JSON values compare by their canonical text: ``true`` is not ``1``, key order is free."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _match_key(value: Any) -> bytes:
    """Equal exactly when :func:`canonical` texts are equal (``true`` is not ``1``, key order
    is free), several times faster: matching an ``action`` answer compares it with every legal
    action."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return b"\0" + canonical(value).encode()


def _index_of(value: Any, legal: list[Any]) -> int | None:
    """The index of the legal action equal to ``value`` as a JSON value, or None."""
    wanted = _match_key(value)
    if b"null" in wanted:
        # orjson writes NaN and the infinities (which json reads from a bot) as null, where
        # canonical texts differ: compare those (an equal legal action shows null too).
        text = canonical(value)
        return next((i for i, a in enumerate(legal) if canonical(a) == text), None)
    return next((i for i, a in enumerate(legal) if _match_key(a) == wanted), None)


def parse_answer(line: str, legal: list[Any], turn: int) -> Answer:
    """Check one line against the pending decision ``turn`` with its ``legal`` actions."""
    msg = _decode_object(line)
    if isinstance(msg, str):
        return Answer(fault=INVALID_JSON, detail=f"{msg}: {_short(line)!r}")
    echoed = msg.get("turn", turn)
    if echoed != turn or isinstance(echoed, bool):
        return Answer(stale=True, detail=f"answer for turn {echoed!r}, pending turn {turn}")
    log = msg.get("log")
    log = printable(log[:MAX_LOG_CHARS]) if isinstance(log, str) else None
    if "action_index" in msg:
        index = msg["action_index"]
        if isinstance(index, bool) or not isinstance(index, int):
            return Answer(
                fault=INDEX_OUT_OF_RANGE,
                log=log,
                detail=f"action_index must be an integer, got {_short(canonical(index))}",
            )
        if not 0 <= index < len(legal):
            return Answer(
                fault=INDEX_OUT_OF_RANGE,
                log=log,
                detail=f"action_index {_short(str(index))} not in 0..{len(legal) - 1}",
            )
        return Answer(index=index, log=log)
    if "action" in msg:
        index = _index_of(msg["action"], legal)
        if index is not None:
            return Answer(index=index, log=log)
        return Answer(
            fault=ILLEGAL_ACTION,
            log=log,
            detail=f"action {_short(canonical(msg['action']))} is not in legal_actions",
        )
    return Answer(
        fault=BAD_ANSWER,
        log=log,
        detail=f'expected "action" or "action_index", got {_short(line)!r}',
    )
