package pto

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Go's garbage collector cannot see the C memory behind a Tile: a program
// that drops tiles without closing them grows the C heap while the Go heap
// (a few words per tile) never asks for a collection, so the finalizers that
// would free them never run. The binding therefore counts the bytes of C
// storage its tiles hold and forces a collection when the tiles created and
// neither closed nor collected since the last one exceed both
// GCTriggerBytes and the bytes that survived it (as GOGC=100 would).
// Programs that Close their tiles never reach the trigger.

// GCTriggerBytes is the least C storage, in bytes, of tiles created and not
// closed since the last forced collection that makes NewTile force one.
var GCTriggerBytes int64 = 64 << 20

// nativeOverhead is counted per tile on top of its elements: the C tile
// record and the 64-byte alignment of its storage.
const nativeOverhead = 128

var gcAccount struct {
	live    atomic.Int64 // bytes of tiles not yet freed
	pending atomic.Int64 // bytes created since the last forced collection, less those closed since
	forced  atomic.Int64 // collections forced so far
	mu      sync.Mutex
}

func accountCreate(n int64) {
	gcAccount.live.Add(n)
	pending := gcAccount.pending.Add(n)
	if pending < GCTriggerBytes {
		return
	}
	gcAccount.mu.Lock()
	defer gcAccount.mu.Unlock()
	pending = gcAccount.pending.Load()
	// What was live before the tiles created since the last collection: the
	// survivors, whose finalizers have had time to run since.
	if survivors := gcAccount.live.Load() - pending; pending < GCTriggerBytes || pending < survivors {
		return
	}
	gcAccount.pending.Store(0)
	gcAccount.forced.Add(1)
	runtime.GC()
}

func accountClose(n int64) {
	gcAccount.live.Add(-n)
	gcAccount.pending.Add(-n)
}

func accountFinalized(n int64) { gcAccount.live.Add(-n) }

// NativeBytes reports the C storage, in bytes, held by tiles that are
// neither closed nor collected yet, and how many collections the binding has
// forced because of unclosed tiles (see GCTriggerBytes).
func NativeBytes() (live int64, forcedGCs int64) {
	return gcAccount.live.Load(), gcAccount.forced.Load()
}
