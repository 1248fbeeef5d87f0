"""A starter bot for Meeple Arena (bot protocol version 1), in Python. Standard library only.
Game: any Meeple Arena game

The referee starts this program once per match and talks to it over stdin/stdout, one JSON
object per line. Whatever you print to stdout must be protocol messages; use stderr (the
``log`` function below) for debugging: it is kept with the match, for you to read.

As written, it plays a random legal move (seeded by the match id, so a replay repeats it).
Put your own logic in ``choose`` below.

Run by hand:  python3 main.py
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
    holds the facts of the ``start`` message (game, seat, players, options, time). For example::

        round_ = observation.get("round")   # None if the game has none
        first = legal_actions[0]            # an action, e.g. {"type": "take", "slot": 3}
        log(first.get("type"))
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
            legal = message["legal_actions"]
            index = choose(message["observation"], legal, me)
            log(f"turn {message['turn']}: {len(legal)} legal actions, chose {index}")
            # Echo "turn" so that the referee can tell this answer from a stale one.
            send({"action_index": index, "turn": message["turn"]})
        elif kind == "end":
            log("the match is over:", json.dumps(message.get("result")))
            break  # the match is over: exit


if __name__ == "__main__":
    main()
