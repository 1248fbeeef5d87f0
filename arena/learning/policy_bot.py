"""A bot that plays a small JSON policy, standard library only: copy this file as ``main.py``
into a folder next to ``policy.json`` (``arena.learning.export_bot`` does it), zip the folder
or upload it as it is, and the referee runs it like any other bot (docs/learning.md).

The same file is the reference for the learning adapters' features: ``features`` hashes a
JSON value into a fixed-length vector (``arena.learning.spec.encode`` is this, as numpy), and
a linear policy scores each legal action as ``action_features . (W @ observation_features)``,
``W`` being ``action_dim x obs_dim`` numbers in ``policy.json``.
"""

import hashlib
import json
import math
import os
import sys

#: Each slot is clipped to +-BOUND, after squashing numbers with sign * log1p(|x|).
BOUND = 16.0
_SLOTS: dict = {}


def slot(key, dim):
    """A stable slot in 0..dim-1 for a feature name (the same on every machine and run)."""
    found = _SLOTS.get((key, dim))
    if found is None:
        digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
        found = _SLOTS[(key, dim)] = int.from_bytes(digest, "little") % dim
    return found


def leaves(value, path, out):
    """``(feature name, value)`` for every leaf of a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            leaves(v, f"{path}.{k}", out)
    elif isinstance(value, list):
        out.append((f"{path}#len", float(len(value))))
        for i, v in enumerate(value):
            leaves(v, f"{path}[{i}]", out)  # by position...
            if not isinstance(v, (dict, list)):
                leaves(v, f"{path}[*]", out)  # ...and as a bag, for hands and sets
    elif value is None:
        out.append((f"{path}=null", 1.0))
    elif isinstance(value, bool):
        out.append((f"{path}={value}", 1.0))
    elif isinstance(value, (int, float)):
        out.append((path, math.copysign(math.log1p(abs(value)), value)))
        if isinstance(value, int) and -16 <= value <= 64:
            out.append((f"{path}={value}", 1.0))  # small integers also as categories
    else:
        out.append((f"{path}={value}", 1.0))


def features(value, dim):
    """The hashed feature vector (a list of ``dim`` floats) of a JSON value."""
    found: list[tuple[str, float]] = []
    leaves(value, "", found)
    vec = [0.0] * dim
    for key, x in found:
        vec[slot(key, dim)] += x
    return [max(-BOUND, min(BOUND, x)) for x in vec]


def new_policy(game, obs_dim=256, action_dim=16):
    """An all-zero linear policy (it plays the first legal action until trained)."""
    weights = [[0.0] * obs_dim for _ in range(action_dim)]
    return {"game": game, "obs_dim": obs_dim, "action_dim": action_dim, "weights": weights}


def scores(policy, observation, legal_actions):
    """The policy's score of each legal action."""
    obs = features(observation, policy["obs_dim"])
    query = [sum(w * o for w, o in zip(row, obs, strict=True)) for row in policy["weights"]]
    return [
        sum(a * q for a, q in zip(features(action, policy["action_dim"]), query, strict=True))
        for action in legal_actions
    ]


def choose(policy, observation, legal_actions):
    """The index of the best-scored legal action (the first of equals)."""
    s = scores(policy, observation, legal_actions)
    return s.index(max(s))


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "policy.json"), encoding="utf-8") as f:
        policy = json.load(f)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            if message.get("game") != policy.get("game"):
                print(f"policy is for {policy.get('game')}", file=sys.stderr, flush=True)
            send({"type": "ready", "name": "linear-policy"})
        elif kind == "act":
            index = choose(policy, message["observation"], message["legal_actions"])
            send({"action_index": index, "turn": message["turn"]})
        elif kind == "end":
            break


if __name__ == "__main__":
    main()
