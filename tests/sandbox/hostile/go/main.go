// Hostile bot: at its first move, starts goroutines without end, each keeping 1 MiB it has
// touched, and never answers.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"time"
)

func hold() {
	chunk := make([]byte, 1<<20)
	for i := 0; i < len(chunk); i += 4096 {
		chunk[i] = 1 // touch every page
	}
	for {
		time.Sleep(time.Hour)
		chunk[0]++
	}
}

func attack() {
	for n := 1; ; n++ {
		go hold()
		if n%1000 == 0 {
			fmt.Fprintf(os.Stderr, "goroutines started: %d\n", n)
		}
	}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 2<<20)
	for in.Scan() {
		line := in.Text()
		switch {
		case strings.Contains(line, `"legal_actions"`):
			attack()
		case strings.Contains(line, `"start"`):
			fmt.Println(`{"type": "ready"}`)
		case strings.Contains(line, `"end"`):
			return
		}
	}
}
