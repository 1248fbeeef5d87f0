// Hostile bot: at its first move, fills /tmp with files of 4 MiB (under the file-size limit)
// until it cannot, reports how far it got, then exits 3.
use std::fs::File;
use std::io::{self, BufRead, Write};

fn attack() -> ! {
    let chunk = vec![b'x'; 1 << 20];
    let mut total: usize = 0;
    let err = 'fill: loop {
        for i in 0.. {
            let mut f = match File::create(format!("/tmp/fill{}", i)) {
                Ok(f) => f,
                Err(e) => break 'fill e,
            };
            for _ in 0..4 {
                if let Err(e) = f.write_all(&chunk).and_then(|_| f.flush()) {
                    break 'fill e;
                }
                total += chunk.len();
            }
        }
    };
    eprintln!("fill stopped after {} MB: {}", total >> 20, err);
    std::process::exit(3);
}

fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout();
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        if line.contains("\"legal_actions\"") {
            attack();
        } else if line.contains("\"start\"") {
            writeln!(out, "{{\"type\": \"ready\"}}").unwrap();
        } else if line.contains("\"end\"") {
            return;
        }
        out.flush().unwrap();
    }
}
