"""Bots for the per-decision log tests (``make_bot`` behaviours), and what each decision of
theirs writes to stderr, so a test can say exactly what each ``log_marks`` slice must hold.
The functions are defined once, here, and copied into the bots' source."""

from __future__ import annotations

import inspect

#: The template's first line: every test bot writes ``pid=N`` to stderr as it starts.


def chatty_text(turn: int, n: int) -> str:
    """What the chatty bot prints at its ``n``-th decision (1-based): nothing every third one;
    multi-byte text; a NUL (kept as U+FFFD) over two lines."""
    if n % 3 == 0:
        return ""
    if n % 3 == 1:
        return f"turn {turn}: 思考中 ☃ 🎲\n"
    return f"turn {turn}: two\x00lines\nsecond ünï\n"


def split_text(n: int) -> str:
    """What the split bot's ``n``-th decision holds once decoded: the 4-byte character it began
    at the decision before, then its number."""
    return ("😀" if n > 1 else "") + f"[{n}]"


def cap_bytes(turn: int) -> bytes:
    """70 bytes per decision: 7 of ASCII, then 21 three-byte characters."""
    return b"[%04d] " % turn + "€".encode() * 21


CHATTY_BOT = (
    inspect.getsource(chatty_text)
    + """
import atexit
atexit.register(lambda: (sys.stderr.write("bye 👋\\n"), sys.stderr.flush()))

def on_start(msg):
    sys.stderr.write("starting: Grüße ☃\\n"); sys.stderr.flush()
    say({"type": "ready", "name": "chatty"})

def on_act(msg):
    sys.stderr.write(chatty_text(msg["turn"], acts)); sys.stderr.flush()
    say({"action_index": 0, "turn": msg["turn"]})
"""
)

SPLIT_BOT = """
import atexit
SMILE = "😀".encode()
atexit.register(lambda: (sys.stderr.buffer.write(SMILE[2:] + b"bye\\n"), sys.stderr.flush()))

def on_act(msg):
    out = (SMILE[2:] if acts > 1 else b"") + b"[%d]" % acts + SMILE[:2]
    if acts == 1:
        out = b"a" + out
    sys.stderr.buffer.write(out); sys.stderr.flush()
    say({"action_index": 0, "turn": msg["turn"]})
"""

CAP_BOT = (
    inspect.getsource(cap_bytes)
    + """
def on_act(msg):
    sys.stderr.buffer.write(cap_bytes(msg["turn"])); sys.stderr.flush()
    say({"action_index": 0, "turn": msg["turn"]})
"""
)

#: Prints, then crashes at its third decision: the traceback is that decision's.
CRASH_BOT = """
def on_act(msg):
    sys.stderr.write("deciding %d ✓\\n" % msg["turn"]); sys.stderr.flush()
    if acts == 3:
        1 / 0
    say({"action_index": 0, "turn": msg["turn"]})
"""

#: Prints, then thinks past its time at its second decision.
SLOW_BOT = """
def on_act(msg):
    sys.stderr.write("deciding %d ✓\\n" % msg["turn"]); sys.stderr.flush()
    if acts == 2:
        time.sleep(30)
    say({"action_index": 0, "turn": msg["turn"]})
"""
