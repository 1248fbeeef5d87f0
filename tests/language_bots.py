"""Small bots in each language for the tests: they answer ``start`` with ready and every ``act``
with its first legal action, and exit at ``end`` (the protocol's minimum, standard library
only). The starter kits (arena/starters/) are fuller; these keep the tests independent of them.
"""

from __future__ import annotations

CPP = b"""#include <iostream>
#include <string>
int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\\"legal_actions\\"") != std::string::npos) {
            std::cout << "{\\"action_index\\": 0}" << std::endl;
        } else if (line.find("\\"start\\"") != std::string::npos) {
            std::cout << "{\\"type\\": \\"ready\\"}" << std::endl;
        } else if (line.find("\\"end\\"") != std::string::npos) {
            return 0;
        }
    }
}
"""

GO = b"""package main

import (
\t"bufio"
\t"fmt"
\t"os"
\t"strings"
)

func main() {
\tin := bufio.NewScanner(os.Stdin)
\tin.Buffer(make([]byte, 1<<20), 2<<20)
\tfor in.Scan() {
\t\tline := in.Text()
\t\tswitch {
\t\tcase strings.Contains(line, `"legal_actions"`):
\t\t\tfmt.Println(`{"action_index": 0}`)
\t\tcase strings.Contains(line, `"start"`):
\t\t\tfmt.Println(`{"type": "ready"}`)
\t\tcase strings.Contains(line, `"end"`):
\t\t\treturn
\t\t}
\t}
}
"""

RUST = b"""use std::io::{self, BufRead, Write};
fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout();
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        if line.contains("\\"legal_actions\\"") {
            writeln!(out, "{{\\"action_index\\": 0}}").unwrap();
        } else if line.contains("\\"start\\"") {
            writeln!(out, "{{\\"type\\": \\"ready\\"}}").unwrap();
        } else if line.contains("\\"end\\"") {
            return;
        }
        out.flush().unwrap();
    }
}
"""

JAVASCRIPT = b"""const readline = require("readline");
const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "start") process.stdout.write(JSON.stringify({ type: "ready" }) + "\\n");
  else if (msg.type === "act")
    process.stdout.write(JSON.stringify({ action_index: 0, turn: msg.turn }) + "\\n");
  else input.close();
});
"""

JAVA = b"""import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Main {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.contains("\\"legal_actions\\"")) {
                System.out.println("{\\"action_index\\": 0}");
            } else if (line.contains("\\"start\\"")) {
                System.out.println("{\\"type\\": \\"ready\\"}");
            } else if (line.contains("\\"end\\"")) {
                return;
            }
            System.out.flush();
        }
    }
}
"""

#: language key -> (single-file name, source)
BOTS: dict[str, tuple[str, bytes]] = {
    "cpp": ("main.cpp", CPP),
    "go": ("main.go", GO),
    "rust": ("main.rs", RUST),
    "javascript": ("main.js", JAVASCRIPT),
    "java": ("Main.java", JAVA),
}

#: Code that does not compile, per compiled language.
BROKEN = {
    "cpp": ("main.cpp", b"int main() { return undefined_name; }\n"),
    "go": ("main.go", b"package main\nfunc main() { undefinedName() }\n"),
    "rust": ("main.rs", b"fn main() { undefined_name(); }\n"),
    "java": ("Main.java", b"public class Main { void f() { undefinedName(); } }\n"),
    "javascript": ("main.js", b"function (\n"),
}
