"""Go 1.19: a module (go.mod, no downloads: the build has no network) or a single main.go."""

from __future__ import annotations

from sandbox.languages.base import BINARY, NativeProgram, build_binary, image

HELLO = b"""package main

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

LANGUAGE = NativeProgram(
    key="go",
    name="Go 1.19",
    source="main.go",
    suffixes=(".go",),
    order=50,
    hello=HELLO,
    broken=b"package main\nfunc main() { undefinedName() }\n",
    broken_says="undefined: undefinedName",
    markers=("go.mod",),
    build=build_binary(
        f"if [ -f go.mod ]; then go build -o {BINARY} .; else go build -o {BINARY} main.go; fi"
    ),
    # Caches in /tmp; no module download (no network); one OS thread per core is plenty.
    env={
        "GOCACHE": "/tmp/gocache",
        "GOPATH": "/tmp/gopath",
        "GOFLAGS": "-mod=mod",
        "GOPROXY": "off",
        "CGO_ENABLED": "0",
        "GOMAXPROCS": "2",
    },
    build_image=image("go"),
    host_tools=("go",),
    reserve_mb=512,
)
