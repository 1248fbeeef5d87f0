"""A starter bot for Meeple Arena (bot protocol version 1). Standard library only.

The referee starts this program once per match and talks to it over stdin/stdout, one JSON
object per line. Whatever you print to stdout must be protocol messages; use stderr (the
``log`` function below) for debugging: it is kept with the match, for you to read.

As written, it plays a random legal move. Replace ``choose`` with something smarter.
"""

import json
import random
import sys


def log(*args):
    """Debug output: goes to stderr, never to the referee."""
    print(*args, file=sys.stderr, flush=True)


def send(message):
    """One JSON object on one line, flushed at once (the referee waits for the newline)."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def choose(observation, legal_actions, me):
    """Return the index of the action to play in ``legal_actions``.

    ``observation`` is everything your seat may know now (the game's rules document its
    fields); ``legal_actions`` lists every legal choice as a JSON value, never empty. ``me``
    holds the facts of the ``start`` message (game, seat, players, options, time).
    """
    return random.randrange(len(legal_actions))


def main():
    me = {}
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            # Answer within time.start_ms. Set up anything slow (tables, models) here.
            me = message
            random.seed(message.get("match_id"))
            send({"type": "ready", "name": "starter"})
        elif kind == "act":
            # Answer within time_left_ms (move_ms plus what is left of your time bank), or
            # the referee plays the first legal action for you and ends this program.
            index = choose(message["observation"], message["legal_actions"], me)
            # Echo "turn" so that the referee can tell this answer from a stale one.
            send({"action_index": index, "turn": message["turn"]})
        elif kind == "end":
            log("result:", message.get("result"))
            break  # the match is over: exit


if __name__ == "__main__":
    main()
