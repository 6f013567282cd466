// Peak memory of a loop that creates tiles and never closes them (the
// binding's GC accounting on or off): bench/bindings/gc.sh runs it.
//
//	go run . -tiles 200000 -rows 16 -cols 16 [-no-accounting]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"

	pto "github.com/libpto/pto-go"
)

func peakRSS() string {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return "?"
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if strings.HasPrefix(s.Text(), "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(s.Text(), "VmHWM:"))
		}
	}
	return "?"
}

func main() {
	tiles := flag.Int("tiles", 200000, "tiles to create")
	rows := flag.Int("rows", 16, "rows per tile")
	cols := flag.Int("cols", 16, "cols per tile")
	off := flag.Bool("no-accounting", false, "never force a collection (the finalizers alone)")
	flag.Parse()
	if *off {
		pto.GCTriggerBytes = math.MaxInt64
	}
	for i := 0; i < *tiles; i++ {
		if _, err := pto.NewTile(pto.Float32, *rows, *cols); err != nil {
			panic(err)
		}
	}
	live, forced := pto.NativeBytes()
	fmt.Printf("go: %d unclosed %dx%d float32 tiles, accounting %v: peak RSS %s, %d collections forced, %d MiB still counted live\n",
		*tiles, *rows, *cols, !*off, peakRSS(), forced, live>>20)
}
