"""JavaScript on Node.js 18: no build, a syntax check (``node --check``) instead."""

from __future__ import annotations

from sandbox.languages.base import Language, image

HELLO = b"""const readline = require("readline");
const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "start") process.stdout.write(JSON.stringify({ type: "ready" }) + "\\n");
  else if (msg.type === "act")
    process.stdout.write(JSON.stringify({ action_index: 0, turn: msg.turn }) + "\\n");
  else input.close();
});
"""

LANGUAGE = Language(
    key="javascript",
    name="JavaScript (Node.js 18)",
    source="main.js",
    suffixes=(".js", ".mjs", ".cjs", ".json"),
    order=10,
    hello=HELLO,
    broken=b"function (\n",
    broken_says="SyntaxError",
    markers=("package.json",),
    check=("node", "--check", "main.js"),
    run=("node", "--max-old-space-size=384", "main.js"),
    image=image("javascript"),
    build_image=image("javascript"),
    host_tools=("node",),
    reserve_mb=512,
)
