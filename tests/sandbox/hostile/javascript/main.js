// Hostile bot: at its first move, spins on the CPU for ever and never answers.
const readline = require("readline");
const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "start") {
    process.stdout.write(JSON.stringify({ type: "ready" }) + "\n");
  } else if (msg.type === "act") {
    process.stderr.write("spinning\n");
    let n = 0;
    for (;;) n = (n + 1) % 1000003;  // the event loop never turns again
  } else {
    input.close();
  }
});
