"""A well-behaved test bot: answers each line with {"echo": <the message>} and logs to stderr."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    print(json.dumps({"echo": msg}), flush=True)
    print("got", msg.get("type"), file=sys.stderr, flush=True)
