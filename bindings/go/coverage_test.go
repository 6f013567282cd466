package pto

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// notCalled lists the functions of include/pto_c.h that the Go layer does
// not call through package ptoc, and why.
var notCalled = map[string]string{
	"pto_set_warning_handler": "board-mode warnings go to stderr: a Go callback would be called from libpto's pool threads",
	"pto_last_error":          "read by the C wrapper of every failing call (bindings/pto.i), returned in Error.Message",
	"pto_buffer_wrap":         "Go memory cannot be wrapped (C may not keep Go pointers); ignored in pto.i",
	"pto_program_check":       "checks a module of several kernels without an entry, for pto-run --check; a program here is made to run (created with an entry)",
}

// TestHeaderCovered fails when include/pto_c.h declares a function that the
// Go binding neither calls nor lists in notCalled, so a new C function cannot
// be left out of the binding unnoticed.
func TestHeaderCovered(t *testing.T) {
	header, err := os.ReadFile(filepath.Join("..", "..", "include", "pto_c.h"))
	if err != nil {
		t.Skipf("include/pto_c.h not beside the binding: %v", err)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	decls := regexp.MustCompile(`PTO_API[^;]*?\b(pto_\w+)\s*\(`).FindAllStringSubmatch(string(header), -1)
	if len(decls) < 40 {
		t.Fatalf("found only %d declarations in pto_c.h", len(decls))
	}
	for _, d := range decls {
		name := d[1]
		called := strings.Contains(src.String(), "ptoc.P"+name[1:]+"(")
		_, listed := notCalled[name]
		if !called && !listed {
			t.Errorf("%s is in pto_c.h but the Go binding does not call it", name)
		}
		if called && listed {
			t.Errorf("%s is called but listed in notCalled", name)
		}
	}
}
