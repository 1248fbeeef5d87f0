//! A starter bot for Meeple Arena (bot protocol version 1), in Rust. Standard library only
//! (no crates: bots are built with no network).
//! Game: any Meeple Arena game
//!
//! The referee starts this program once per match and talks to it over stdin/stdout, one JSON
//! object per line. Whatever you print to stdout must be protocol messages; write debugging
//! output to stderr (eprintln!): it is kept with the match, for you to read.
//!
//! As written, it plays a random legal move (seeded by the match id, so a replay repeats it).
//! Put your own logic in choose() below. The small JSON reader at the bottom (enum Json) is
//! enough to read every message.
//!
//! Build and run by hand:  rustc --edition 2021 -O -o bot main.rs && ./bot
//! (A Cargo project works too: this file as src/main.rs, a Cargo.toml with no dependencies.)

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

/// One JSON object on one line, flushed at once (the referee waits for the newline).
fn send(line: &str) {
    let mut out = io::stdout().lock();
    writeln!(out, "{}", line).expect("stdout closed");
    out.flush().expect("stdout closed");
}

/// A small random number generator (xorshift64*), seeded by the match id.
struct Rng(u64);

impl Rng {
    fn seeded(text: &str) -> Rng {
        // FNV-1a of the text; never zero (xorshift would stay at zero).
        let mut h: u64 = 0xcbf29ce484222325;
        for b in text.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        }
        Rng(h | 1)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545F4914F6CDD1D) % n as u64) as usize
    }
}

/// Return the index of the action to play in `legal_actions`.
///
/// `observation` is everything your seat may know now (the game's rules page documents its
/// fields); `legal_actions` lists every legal choice, never empty; `start` is the "start"
/// message (game, seat, players, options, time). For example:
///
/// ```text
/// if let Some(round) = observation.get("round").and_then(Json::as_f64) { ... }
/// let first = &legal_actions[0];                       // an action, e.g. {"type": "take"}
/// eprintln!("{:?}", first.get("type").and_then(Json::as_str));
/// ```
fn choose(observation: &Json, legal_actions: &[Json], start: &Json, rng: &mut Rng) -> usize {
    let _ = (observation, start);
    rng.below(legal_actions.len())
}

fn main() {
    let mut start = Json::Null;
    let mut rng = Rng::seeded("");
    for line in io::stdin().lock().lines() {
        let line = line.expect("stdin unreadable");
        let message = Json::parse(&line).expect("the referee sent bad JSON");
        match message.get("type").and_then(Json::as_str) {
            Some("start") => {
                // Answer within time.start_ms. Set up anything slow (tables, models) here.
                rng = Rng::seeded(message.get("match_id").and_then(Json::as_str).unwrap_or(""));
                start = message;
                send(r#"{"type": "ready", "name": "starter-rust"}"#);
            }
            Some("act") => {
                // Answer within time_left_ms (move_ms plus what is left of your time bank), or
                // the referee plays the first legal action for you and ends this program.
                let legal = message.get("legal_actions").and_then(Json::as_array).unwrap();
                let observation = message.get("observation").unwrap_or(&Json::Null);
                let index = choose(observation, legal, &start, &mut rng);
                let turn = message.get("turn").and_then(Json::as_f64).unwrap_or(0.0) as i64;
                eprintln!("turn {}: {} legal actions, chose {}", turn, legal.len(), index);
                // Echo "turn" so that the referee can tell this answer from a stale one.
                send(&format!(r#"{{"action_index": {}, "turn": {}}}"#, index, turn));
            }
            Some("end") => {
                eprintln!("the match is over: {}", line);
                break; // exit
            }
            _ => {}
        }
    }
}

/// A JSON value. Read it with get("key"), as_array(), as_str(), as_f64(), as_bool().
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
    Str(String),
    Array(Vec<Json>),
    Object(BTreeMap<String, Json>),
}

impl Json {
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut reader = Reader { s: text.as_bytes(), p: 0 };
        let value = reader.value()?;
        reader.space();
        if reader.p != reader.s.len() {
            return Err("JSON: text after the value".into());
        }
        Ok(value)
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(map) => map.get(key),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(n) => Some(*n),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

struct Reader<'a> {
    s: &'a [u8],
    p: usize,
}

impl Reader<'_> {
    fn space(&mut self) {
        while self.p < self.s.len() && b" \t\r\n".contains(&self.s[self.p]) {
            self.p += 1;
        }
    }

    fn peek(&self) -> Result<u8, String> {
        self.s.get(self.p).copied().ok_or_else(|| "JSON: unexpected end".to_string())
    }

    fn expect(&mut self, word: &str) -> Result<(), String> {
        if self.s[self.p..].starts_with(word.as_bytes()) {
            self.p += word.len();
            Ok(())
        } else {
            Err(format!("JSON: expected {}", word))
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.space();
        match self.peek()? {
            b'{' => {
                self.p += 1;
                let mut map = BTreeMap::new();
                self.space();
                if self.peek()? == b'}' {
                    self.p += 1;
                    return Ok(Json::Object(map));
                }
                loop {
                    self.space();
                    let key = self.string()?;
                    self.space();
                    self.expect(":")?;
                    let value = self.value()?;
                    map.insert(key, value);
                    self.space();
                    if self.peek()? == b',' {
                        self.p += 1;
                        continue;
                    }
                    self.expect("}")?;
                    return Ok(Json::Object(map));
                }
            }
            b'[' => {
                self.p += 1;
                let mut items = Vec::new();
                self.space();
                if self.peek()? == b']' {
                    self.p += 1;
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value()?);
                    self.space();
                    if self.peek()? == b',' {
                        self.p += 1;
                        continue;
                    }
                    self.expect("]")?;
                    return Ok(Json::Array(items));
                }
            }
            b'"' => Ok(Json::Str(self.string()?)),
            b't' => self.expect("true").map(|_| Json::Bool(true)),
            b'f' => self.expect("false").map(|_| Json::Bool(false)),
            b'n' => self.expect("null").map(|_| Json::Null),
            _ => {
                let start = self.p;
                while self.p < self.s.len() && b"+-0123456789.eE".contains(&self.s[self.p]) {
                    self.p += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.p]).unwrap();
                text.parse().map(Json::Number).map_err(|_| format!("JSON: bad number {:?}", text))
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self.s.get(self.p..self.p + 4).ok_or("JSON: short \\u escape")?;
        self.p += 4;
        u32::from_str_radix(std::str::from_utf8(digits).unwrap_or("?"), 16)
            .map_err(|_| "JSON: bad \\u escape".to_string())
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect("\"")?;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = self.peek()?;
            self.p += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = self.peek()?;
                    self.p += 1;
                    let ch = match e {
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => {
                            let mut cp = self.hex4()?;
                            // a surrogate pair: \ud83d\ude00
                            if (0xD800..0xDC00).contains(&cp) && self.s[self.p..].starts_with(b"\\u") {
                                self.p += 2;
                                let low = self.hex4()?;
                                cp = 0x10000 + ((cp - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF);
                            }
                            char::from_u32(cp).unwrap_or('\u{FFFD}')
                        }
                        other => other as char, // \" \\ \/
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                _ => out.push(c),
            }
        }
        String::from_utf8(out).map_err(|_| "JSON: invalid UTF-8".to_string())
    }
}
