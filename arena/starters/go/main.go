// A starter bot for Meeple Arena (bot protocol version 1), in Go. Standard library only
// (no modules can be downloaded: bots are built with no network).
// Game: any Meeple Arena game
//
// The referee starts this program once per match and talks to it over stdin/stdout, one JSON
// object per line. Whatever you print to stdout must be protocol messages; write debugging
// output to stderr (the log package writes there): it is kept with the match, for you to read.
//
// As written, it plays a random legal move (seeded by the match id, so a replay repeats it).
// Put your own logic in choose() below.
//
// Build and run by hand:  go build -o bot main.go && ./bot
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log"
	"math/rand"
	"os"
)

// Message is any message from the referee; the fields a kind does not carry stay empty.
// Observations and actions differ by game, so they are kept as raw JSON: decode them into
// your own structs (json.Unmarshal) or into map[string]any, as choose() shows.
type Message struct {
	Type         string            `json:"type"`
	Game         string            `json:"game"`
	MatchID      string            `json:"match_id"`
	Seat         int               `json:"seat"`
	Players      int               `json:"players"`
	Options      map[string]any    `json:"options"`
	Turn         int64             `json:"turn"`
	Observation  json.RawMessage   `json:"observation"`
	LegalActions []json.RawMessage `json:"legal_actions"`
	TimeLeftMs   int64             `json:"time_left_ms"`
	Result       json.RawMessage   `json:"result"`
}

var out = bufio.NewWriter(os.Stdout)

// send writes one JSON object on one line, flushed at once (the referee waits for the newline).
func send(message any) {
	line, err := json.Marshal(message)
	if err != nil {
		log.Fatal(err)
	}
	out.Write(append(line, '\n'))
	out.Flush()
}

var rng = rand.New(rand.NewSource(1))

// choose returns the index of the action to play in legalActions.
//
// observation is everything your seat may know now (the game's rules page documents its
// fields); legalActions lists every legal choice, never empty; start is the "start" message
// (game, seat, players, options). For example:
//
//	var obs map[string]any
//	json.Unmarshal(observation, &obs)
//	if round, ok := obs["round"].(float64); ok { ... }     // JSON numbers are float64
//	var first map[string]any
//	json.Unmarshal(legalActions[0], &first)                // an action, e.g. {"type": "take"}
//	log.Println(first["type"])
func choose(observation json.RawMessage, legalActions []json.RawMessage, start Message) int {
	return rng.Intn(len(legalActions))
}

func main() {
	log.SetFlags(0) // stderr lines without a timestamp
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24) // observations can be long lines
	var start Message
	for in.Scan() {
		var message Message
		if err := json.Unmarshal(in.Bytes(), &message); err != nil {
			log.Fatal("the referee sent bad JSON: ", err)
		}
		switch message.Type {
		case "start":
			// Answer within time.start_ms. Set up anything slow (tables, models) here.
			start = message
			h := fnv.New64a()
			h.Write([]byte(message.MatchID))
			rng = rand.New(rand.NewSource(int64(h.Sum64())))
			send(map[string]any{"type": "ready", "name": "starter-go"})
		case "act":
			// Answer within time_left_ms (move_ms plus what is left of your time bank), or
			// the referee plays the first legal action for you and ends this program.
			index := choose(message.Observation, message.LegalActions, start)
			log.Printf("turn %d: %d legal actions, chose %d", message.Turn, len(message.LegalActions), index)
			// Echo "turn" so that the referee can tell this answer from a stale one.
			send(map[string]any{"action_index": index, "turn": message.Turn})
		case "end":
			log.Println("the match is over:", string(message.Result))
			return // exit
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "reading stdin:", err)
	}
}
