"""Rust 1.63: a Cargo project without crates (the build has no network) or a single main.rs."""

from __future__ import annotations

from sandbox.languages.base import BINARY, NativeProgram, build_binary, image

HELLO = b"""use std::io::{self, BufRead, Write};
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

LANGUAGE = NativeProgram(
    key="rust",
    name="Rust 1.63 (rustc, Cargo without crates)",
    source="main.rs",
    suffixes=(".rs",),
    order=40,
    hello=HELLO,
    broken=b"fn main() { undefined_name(); }\n",
    broken_says="cannot find function `undefined_name`",
    markers=("Cargo.toml",),
    build=build_binary(
        "if [ -f Cargo.toml ]; then cargo build --release --offline --quiet && "
        f'cp "$(find target/release -maxdepth 1 -type f -perm -u+x | head -n1)" {BINARY}; '
        f"else rustc --edition 2021 -O -o {BINARY} main.rs; fi"
    ),
    env={"CARGO_HOME": "/tmp/cargo", "CARGO_TARGET_DIR": "target"},
    build_image=image("rust"),
    host_tools=("rustc", "cargo"),
)
