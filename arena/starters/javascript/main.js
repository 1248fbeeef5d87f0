// A starter bot for Meeple Arena (bot protocol version 1), in JavaScript for Node.js.
// Standard library only (no npm packages: nothing is installed for a bot).
// Game: any Meeple Arena game
//
// The referee starts this program once per match and talks to it over stdin/stdout, one JSON
// object per line. Whatever you print to stdout must be protocol messages; write debugging
// output to stderr (console.error): it is kept with the match, for you to read.
//
// As written, it plays a random legal move (seeded by the match id, so a replay repeats it).
// Put your own logic in choose() below.
//
// Run by hand:  node main.js
"use strict";

const readline = require("readline");

/** One JSON object on one line (the referee waits for the newline). */
function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

/** A small seeded random number generator (mulberry32): random() gives [0, 1). */
function seededRandom(text) {
  let seed = 2166136261;
  for (const ch of String(text)) seed = Math.imul(seed ^ ch.codePointAt(0), 16777619);
  return function random() {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let random = seededRandom("");

/**
 * Return the index of the action to play in legalActions.
 *
 * observation is everything your seat may know now (the game's rules page documents its
 * fields); legalActions lists every legal choice, never empty; start is the "start" message
 * (game, seat, players, options, time). For example:
 *
 *   const round = observation.round;          // undefined if the game has none
 *   const first = legalActions[0];            // an action, e.g. {type: "take", slot: 3}
 *   console.error(first.type);
 */
function choose(observation, legalActions, start) {
  return Math.floor(random() * legalActions.length);
}

let start = {};
const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });

input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "start") {
    // Answer within time.start_ms. Set up anything slow (tables, models) here.
    start = message;
    random = seededRandom(message.match_id);
    send({ type: "ready", name: "starter-javascript" });
  } else if (message.type === "act") {
    // Answer within time_left_ms (move_ms plus what is left of your time bank), or the
    // referee plays the first legal action for you and ends this program.
    const legal = message.legal_actions;
    const index = choose(message.observation, legal, start);
    console.error(`turn ${message.turn}: ${legal.length} legal actions, chose ${index}`);
    // Echo "turn" so that the referee can tell this answer from a stale one.
    send({ action_index: index, turn: message.turn });
  } else if (message.type === "end") {
    console.error("the match is over:", JSON.stringify(message.result));
    input.close(); // stop reading: the program exits
  }
});
