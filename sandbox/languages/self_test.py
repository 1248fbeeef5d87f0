"""A language tests itself with its own program: its ``hello`` bot, started in a backend,
answers ``start`` with ready and an ``act`` with its first legal action (as DMOJ's executors
run their own test program). The tests run it for every language in every backend; an
operator can run it on a worker: ``python -m sandbox.languages.self_test [--sandbox NAME]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from sandbox import get_sandbox
from sandbox.base import BotProcess, Limits, Sandbox
from sandbox.code import prepare_bot, release_bot
from sandbox.languages import LANGUAGES
from sandbox.languages.base import Language

#: What the self-test asks, and what the language's ``hello`` answers.
START = {"type": "start", "players": 2, "seat": 0}
ACT = {"type": "act", "turn": 1, "legal_actions": [{"x": 1}, {"x": 2}]}


class SelfTestFailed(AssertionError):
    """The language's own program did not play as it should: ``str()`` says what it did."""


def self_test(lang: Language, sandbox: Sandbox, *, start_timeout_s: float = 60.0) -> None:
    """Build (if compiled) and play ``lang``'s ``hello`` in ``sandbox``; raises
    :class:`SelfTestFailed`, or the backend's ``SandboxError``/``BuildFailed``."""
    with tempfile.TemporaryDirectory(prefix=f"self-test-{lang.key}-") as folder:
        path = Path(folder) / lang.source
        path.write_bytes(lang.hello)
        code = prepare_bot(path, labels={"self-test": lang.key}, language=lang.key)
        try:
            bot = sandbox.start(code, labels={"self-test": lang.key}, limits=Limits())
            try:
                bot.send_line(json.dumps(START))
                _expect(bot.read_line(timeout_s=start_timeout_s), {"type": "ready"}, bot)
                bot.send_line(json.dumps(ACT))
                answer = _answer(bot.read_line(timeout_s=10), bot)
                if answer.get("action_index") != 0:
                    raise SelfTestFailed(f"{lang.key}: answered {answer} to an act")
                bot.send_line(json.dumps({"type": "end"}))
            finally:
                bot.close()
        finally:
            release_bot(code)


def _answer(line: str | None, bot: BotProcess) -> dict[str, object]:
    if line is None:
        stderr = bot.stderr_text()
        raise SelfTestFailed(f"no answer in time; its stderr: {stderr[:500]!r}")
    value = json.loads(line)
    if not isinstance(value, dict):
        raise SelfTestFailed(f"answered {line!r}")
    return value


def _expect(line: str | None, want: dict[str, object], bot: BotProcess) -> None:
    got = _answer(line, bot)
    if got != want:
        raise SelfTestFailed(f"answered {got} where {want} was due")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sandbox", default=None, help="a backend name (default: ARENA_SANDBOX)")
    parser.add_argument("languages", nargs="*", default=list(LANGUAGES))
    args = parser.parse_args(argv)
    sandbox = get_sandbox(args.sandbox)
    failed = 0
    for key in args.languages:
        try:
            self_test(LANGUAGES[key], sandbox)
        except Exception as exc:  # every language is tried; each failure is reported
            failed += 1
            print(f"{key}: FAILED: {exc}")
        else:
            print(f"{key}: ok")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
