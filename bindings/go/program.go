package pto

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/libpto/pto-go/internal/ptoc"
)

// Programs (v0.3): PTO assembly text parsed and verified once by NewProgram,
// then run any number of times, from any goroutines, with Run or Launch.
//
//	prog, err := pto.NewProgram(text, pto.SourceName("prelu.pto"))
//	if err != nil { ... } // *Error with Line and Column
//	defer prog.Close()
//	err = prog.Launch(3, pto.Named("x", xs), pto.Named("n", 8)) // xs []float32, zero-copy
//
// A snippet (text with no func.func) has one tile parameter per free tile
// name and one per tile it defines as a result; Run and Launch create a Tile
// of the declared shape for every written tile parameter the caller leaves
// unbound and return them by name (see Results), with the declared valid
// region where the type gives a static one (e.g. valid=8x8).

// String returns "POINTER", "INT", "FLOAT" or "TILE".
func (k ParamKind) String() string {
	switch k {
	case ParamPointer:
		return "POINTER"
	case ParamInt:
		return "INT"
	case ParamFloat:
		return "FLOAT"
	case ParamTile:
		return "TILE"
	}
	return "ParamKind(" + strconv.Itoa(int(k)) + ")"
}

// Access says whether a program reads a parameter's value as bound, writes
// it, or both (pto_program_param_access).
type Access uint

// The access flags of include/pto_c.h.
const (
	AccessRead  Access = Access(ptoc.PTO_PARAM_READ)
	AccessWrite Access = Access(ptoc.PTO_PARAM_WRITE)
)

// Param describes one program parameter.
type Param struct {
	Name  string    // without '%'
	Kind  ParamKind //
	DType DType     // element type of a pointer or tile; for scalars see pto_program_param_dtype
	Rows  int       // a tile's declared rows (0 for other kinds)
	Cols  int       // a tile's declared cols (0 for other kinds)
	// A tile's declared valid region: the type's static valid rows and cols,
	// or -1 where the type says `?` (the bound tile's region is then taken);
	// 0 for other kinds.
	ValidRows int64
	ValidCols int64
	Access    Access // AccessRead and/or AccessWrite
}

// StaticValid reports whether both dimensions of a tile's declared valid
// region are static (ValidRows and ValidCols are not -1).
func (p Param) StaticValid() bool { return p.ValidRows >= 0 && p.ValidCols >= 0 }

// declaredValid is the valid region a tile made for the parameter needs: the
// static dimensions, the whole tile's for a `?` one; ok is false when both are
// `?` (any region will do).
func (p Param) declaredValid() (rows, cols int, ok bool) {
	rows, cols = p.Rows, p.Cols
	if p.ValidRows >= 0 {
		rows, ok = int(p.ValidRows), true
	}
	if p.ValidCols >= 0 {
		cols, ok = int(p.ValidCols), true
	}
	return rows, cols, ok
}

// Reads reports whether the program reads the parameter's value as bound.
func (p Param) Reads() bool { return p.Access&AccessRead != 0 }

// Writes reports whether the program writes the parameter.
func (p Param) Writes() bool { return p.Access&AccessWrite != 0 }

// Program is a verified PTO program; immutable, safe for concurrent runs.
// Close frees it (a finalizer does, as a safety net, for one never closed);
// after Close, Run and Launch return an error matching ErrClosed.
type Program struct {
	*program
}

type program struct {
	handle  uintptr // 0 once closed
	name    string
	profile Profile
	params  []Param
}

// ProgramOption configures NewProgram.
type ProgramOption func(*programConfig)

type programConfig struct {
	name    string
	entry   string
	profile *Profile
}

// SourceName names the text in diagnostics ("NAME:LINE:COL: error: ...");
// the default is "<string>".
func SourceName(name string) ProgramOption {
	return func(c *programConfig) { c.name = name }
}

// Entry chooses the module's entry function by name (with or without a
// leading '@'), for a module of several func.func; every other function is
// verified too. Without it (or with "") the entry is the function marked
// pto.entry (or pto.kernel, or with a pto.kernel_kind attribute), else the
// module's only public function, else its only function: a module with
// several public functions and no mark is ErrInvalidArgument. A name that
// no function has is ErrInvalidArgument.
func Entry(name string) ProgramOption {
	return func(c *programConfig) { c.entry = name }
}

// ForProfile verifies the program under profile p (as if created inside
// WithProfile(p, ...)); without it the calling thread's profile applies,
// which is HOST unless the caller is inside WithProfile. A module's
// pto.target_arch that differs from a non-HOST p is ErrInvalidArgument.
func ForProfile(p Profile) ProgramOption {
	return func(c *programConfig) { c.profile = &p }
}

// NewProgram parses and verifies text. Errors: an *Error with the status
// the C API would return for the same mistake (ErrInvalidArgument for
// syntax and unsupported constructs) and Line and Column of the offending
// token.
func NewProgram(text string, opts ...ProgramOption) (*Program, error) {
	cfg := programConfig{name: "<string>"}
	for _, o := range opts {
		o(&cfg)
	}
	var handle uintptr
	create := func() error {
		if cfg.entry != "" {
			return withPosition(check(ptoc.Pto_program_create_entry(text, cfg.name, cfg.entry, &handle)), cfg.name)
		}
		return withPosition(check(ptoc.Pto_program_create(text, cfg.name, &handle)), cfg.name)
	}
	var err error
	if cfg.profile != nil {
		err = WithProfile(*cfg.profile, create)
	} else {
		err = create()
	}
	if err != nil {
		return nil, err
	}
	p := &program{handle: handle, name: cfg.name, profile: Profile(ptoc.Pto_program_profile(handle))}
	n := int(ptoc.Pto_program_param_count(handle))
	p.params = make([]Param, n)
	for i := range p.params {
		j := int64(i)
		p.params[i] = Param{
			Name:      ptoc.Pto_program_param_name(handle, j),
			Kind:      ParamKind(ptoc.Pto_program_param_kind(handle, j)),
			DType:     DType(ptoc.Pto_program_param_dtype(handle, j)),
			Rows:      int(ptoc.Pto_program_param_rows(handle, j)),
			Cols:      int(ptoc.Pto_program_param_cols(handle, j)),
			ValidRows: ptoc.Pto_program_param_valid_rows(handle, j),
			ValidCols: ptoc.Pto_program_param_valid_cols(handle, j),
			Access:    Access(ptoc.Pto_program_param_access(handle, j)),
		}
	}
	runtime.SetFinalizer(p, (*program).release)
	return &Program{p}, nil
}

// Close frees the program. It always returns nil; closing again does nothing.
func (p *Program) Close() error {
	if p == nil || p.program == nil {
		return nil
	}
	p.release()
	runtime.SetFinalizer(p.program, nil)
	return nil
}

func (p *program) release() {
	if h := atomic.SwapUintptr(&p.handle, 0); h != 0 {
		ptoc.Pto_program_destroy(h)
	}
}

// Closed reports whether Close has been called.
func (p *Program) Closed() bool { return p.raw() == 0 }

func (p *Program) raw() uintptr {
	if p == nil || p.program == nil {
		return 0
	}
	return atomic.LoadUintptr(&p.handle)
}

// Name is the source name given to NewProgram ("<string>" by default).
func (p *Program) Name() string { return p.name }

// Profile is the profile the program was verified under and runs under.
func (p *Program) Profile() Profile { return p.profile }

// Describe returns a listing of the verified program, in lines of text: the
// module's functions with their parameters (the entry marked "(entry)"), the
// unified buffer's use and every tile's place in it, as pto-run --check
// prints it (pto_program_describe). It returns "" once the program is closed.
func (p *Program) Describe() string {
	h := p.raw()
	if h == 0 {
		return ""
	}
	defer runtime.KeepAlive(p.program)
	return ptoc.Pto_program_describe(h)
}

// Params returns the parameters in order (a copy).
func (p *Program) Params() []Param { return append([]Param(nil), p.params...) }

// Find returns the index of the parameter called name (with or without a
// leading '%'). Errors: ErrInvalidArgument if there is none.
func (p *Program) Find(name string) (int, error) {
	h := p.raw()
	if h == 0 {
		return 0, closedProgram("pto.Program.Find")
	}
	defer runtime.KeepAlive(p.program)
	var index uint64
	if err := check(ptoc.Pto_program_param_find(h, name, &index)); err != nil {
		return 0, err
	}
	return int(index), nil
}

// Arg binds one value to a parameter, by Name or, when Name is "", by
// Index. Make one with Named or At. Value is, by the parameter's kind:
//   - ParamPointer: a slice whose element type is the pointer's element
//     encoding ([]float32 for f32, []int32 for i32, ..., []uint16 for f16 and
//     bf16), bound zero-copy: the program loads from and stores to it during
//     the run (runtime.Pinner pins it for that time);
//   - ParamInt: any Go integer;
//   - ParamFloat: float32 or float64;
//   - ParamTile: a *Tile of the declared dtype and shape. The program reads
//     its value if the parameter is read, and the tile receives the result
//     if it is written (Launch with more than one block refuses a bound
//     written tile).
type Arg struct {
	Name  string
	Index int
	Value any
}

// Named binds value to the parameter called name (without '%').
func Named(name string, value any) Arg { return Arg{Name: name, Value: value} }

// At binds value to the parameter at index.
func At(index int, value any) Arg { return Arg{Index: index, Value: value} }

// Results maps the names of written tile parameters that the caller left
// unbound to the tiles Run created for them, of the declared dtype and
// shape (and the declared valid region where it is static), holding the
// program's results. The caller owns (and closes) them.
type Results map[string]*Tile

// Close closes every tile in r.
func (r Results) Close() error {
	for _, t := range r {
		t.Close()
	}
	return nil
}

// Run runs the program once, as block 0 of 1: Launch(1, args...).
func (p *Program) Run(args ...Arg) (Results, error) { return p.launch("pto.Program.Run", 1, args) }

// Launch runs the program for block ids 0..blocks-1 concurrently (at most
// one thread per CPU, or PTO_NUM_THREADS) and waits for them. Each block has
// its own unified buffer; global memory (the bound slices) is shared.
// With one block, Launch creates the unbound written tiles of a snippet and
// returns them (Results); with more, it creates none and returns nil.
//
// Errors: an *Error from libpto for an unknown name, a value of the wrong
// kind, dtype or shape, a missing argument that the program reads, or a
// run-time fault (with Line and Column of the instruction); ErrDTypeMismatch
// for a slice whose element type is not the pointer's; ErrInvalidArgument
// for an unsupported value type.
func (p *Program) Launch(blocks int, args ...Arg) (Results, error) {
	return p.launch("pto.Program.Launch", blocks, args)
}

func (p *Program) launch(op string, blocks int, args []Arg) (_ Results, err error) {
	h := p.raw()
	if h == 0 {
		return nil, closedProgram(op)
	}
	defer runtime.KeepAlive(p.program)
	if blocks < 0 || uint64(blocks) > math.MaxUint32 {
		return nil, bindingError(ErrInvalidArgument, op+": blocks must be in [1, 65536], got "+strconv.Itoa(blocks))
	}
	var a uintptr
	if err := check(ptoc.Pto_args_create(h, &a)); err != nil {
		return nil, err
	}
	defer ptoc.Pto_args_destroy(a)
	// C keeps the slices' addresses in the argument set until it is
	// destroyed, so they are pinned until then (deferred calls run last in,
	// first out: Unpin runs after Pto_args_destroy).
	var pinner runtime.Pinner
	defer pinner.Unpin()
	var tiles []*Tile
	defer func() { keepAlive(tiles) }()

	bound := make([]bool, len(p.params))
	for _, arg := range args {
		i := arg.Index
		if arg.Name != "" {
			if i, err = p.Find(arg.Name); err != nil {
				return nil, err
			}
		} else if i < 0 {
			return nil, bindingError(ErrInvalidArgument, op+": parameter index "+strconv.Itoa(i)+" is negative")
		}
		if err := p.bind(op, a, i, arg, &pinner, &tiles); err != nil {
			return nil, err
		}
		if i < len(bound) {
			bound[i] = true
		}
	}

	results := Results{}
	defer func() {
		if err != nil {
			results.Close()
		}
	}()
	if blocks == 1 {
		for i, prm := range p.params {
			if bound[i] || prm.Kind != ParamTile || !prm.Writes() || prm.Reads() {
				continue
			}
			t, err := NewTile(prm.DType, prm.Rows, prm.Cols)
			if err != nil {
				return nil, err
			}
			results[prm.Name] = t
			tiles = append(tiles, t)
			if vr, vc, ok := prm.declaredValid(); ok {
				// pto_args_set_tile requires the declared static region.
				if err := t.SetValid(vr, vc); err != nil {
					return nil, err
				}
			}
			if err := check(ptoc.Pto_args_set_tile(a, int64(i), t.raw())); err != nil {
				return nil, err
			}
		}
	}
	var status *ptoc.Failure
	if blocks == 1 {
		status = ptoc.Pto_program_run(h, a)
	} else {
		status = ptoc.Pto_program_launch(h, uint(blocks), a)
	}
	if err := withPosition(check(status), p.name); err != nil {
		return nil, err
	}
	if blocks != 1 {
		return nil, nil
	}
	return results, nil
}

// bind sets parameter i of the argument set a to arg.Value.
func (p *Program) bind(op string, a uintptr, i int, arg Arg, pinner *runtime.Pinner, tiles *[]*Tile) error {
	j := int64(i)
	switch v := arg.Value.(type) {
	case *Tile:
		th, err := v.handleFor(op, p.paramLabel(i))
		if err != nil {
			return err
		}
		*tiles = append(*tiles, v)
		return check(ptoc.Pto_args_set_tile(a, j, th))
	case int:
		return check(ptoc.Pto_args_set_int(a, j, int64(v)))
	case int8:
		return check(ptoc.Pto_args_set_int(a, j, int64(v)))
	case int16:
		return check(ptoc.Pto_args_set_int(a, j, int64(v)))
	case int32:
		return check(ptoc.Pto_args_set_int(a, j, int64(v)))
	case int64:
		return check(ptoc.Pto_args_set_int(a, j, v))
	case uint:
		return p.bindUint(op, a, i, uint64(v))
	case uint64:
		return p.bindUint(op, a, i, v)
	case uint32:
		return check(ptoc.Pto_args_set_int(a, j, int64(v)))
	case float32:
		return check(ptoc.Pto_args_set_float(a, j, float64(v)))
	case float64:
		return check(ptoc.Pto_args_set_float(a, j, v))
	case []int8:
		return bindSlice(p, op, a, i, v, pinner)
	case []uint8:
		return bindSlice(p, op, a, i, v, pinner)
	case []int16:
		return bindSlice(p, op, a, i, v, pinner)
	case []uint16:
		return bindSlice(p, op, a, i, v, pinner)
	case []int32:
		return bindSlice(p, op, a, i, v, pinner)
	case []uint32:
		return bindSlice(p, op, a, i, v, pinner)
	case []float32:
		return bindSlice(p, op, a, i, v, pinner)
	}
	return bindingError(ErrInvalidArgument, op+": "+p.paramLabel(i)+": unsupported value type "+typeName(arg.Value))
}

func (p *Program) bindUint(op string, a uintptr, i int, v uint64) error {
	if v > math.MaxInt64 {
		return bindingError(ErrOutOfRange, op+": "+p.paramLabel(i)+": "+strconv.FormatUint(v, 10)+" does not fit int64")
	}
	return check(ptoc.Pto_args_set_int(a, int64(i), int64(v)))
}

// bindSlice binds s zero-copy to pointer parameter i, pinning its array.
func bindSlice[T Storage](p *Program, op string, a uintptr, i int, s []T, pinner *runtime.Pinner) error {
	if i < len(p.params) && p.params[i].Kind == ParamPointer {
		got := p.params[i].DType
		want, alt := storageDType[T]()
		if got != want && got != alt && !(want == Uint16 && got == BFloat16) {
			return bindingError(ErrDTypeMismatch, op+": "+p.paramLabel(i)+" is a pointer to "+got.String()+
				", the slice's elements are "+want.String())
		}
	}
	var data unsafe.Pointer
	if len(s) > 0 {
		pinner.Pin(&s[0])
		data = unsafe.Pointer(&s[0])
	}
	var zero T
	return check(ptoc.Pto_args_set_pointer(a, int64(i), data, int64(len(s))*int64(unsafe.Sizeof(zero))))
}

// paramLabel names parameter i in the binding's own messages.
func (p *Program) paramLabel(i int) string {
	if i >= 0 && i < len(p.params) {
		return "parameter %" + p.params[i].Name
	}
	return "parameter " + strconv.Itoa(i)
}

func typeName(v any) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprintf("%T", v)
}

func closedProgram(op string) error {
	return &Error{Status: ErrNullArgument, Message: op + ": the program is closed", closed: true}
}

// withPosition fills in Line and Column of a program diagnostic
// "NAME:LINE:COL: error: SENTENCE" whose NAME is name.
func withPosition(err error, name string) error {
	e, ok := err.(*Error)
	if !ok || !strings.HasPrefix(e.Message, name+":") {
		return err
	}
	rest := e.Message[len(name)+1:]
	parts := strings.SplitN(rest, ":", 3)
	if len(parts) < 3 || !strings.HasPrefix(parts[2], " error: ") {
		return err
	}
	line, err1 := strconv.Atoi(parts[0])
	col, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || line < 1 || col < 1 {
		return err
	}
	e.Line, e.Column = line, col
	return e
}
