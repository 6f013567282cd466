//! Programs (v0.3): PTO assembly text parsed and verified once, then run any
//! number of times, from any threads.
//!
//! ```
//! use pto::{Program, Tile, DType};
//!
//! fn main() -> pto::Result<()> {
//!     let prog = Program::new(
//!         "%dst = pto.tpow %base, %exp : (!pto.tile<1x4xf32>, !pto.tile<1x4xf32>) -> !pto.tile<1x4xf32>",
//!     )?;
//!     let base = Tile::from_slice(DType::Float32, 1, 4, &[2.0f32, 3.0, 4.0, 5.0])?;
//!     let exp = Tile::from_slice(DType::Float32, 1, 4, &[2.0f32; 4])?;
//!     let mut args = prog.args()?;
//!     args.set("base", &base)?.set("exp", &exp)?;
//!     let out = prog.run(&mut args)?; // the snippet's result tiles, by name
//!     assert_eq!(out["dst"].as_slice::<f32>()?, [4.0, 9.0, 16.0, 25.0]);
//!
//!     let err = Program::builder().name("bad.pto").build("pto.tfoo ins()").unwrap_err();
//!     assert_eq!((err.line(), err.column()), (Some(1), Some(1)));
//!     Ok(())
//! }
//! ```

use std::collections::HashMap;
use std::ffi::CString;
use std::marker::PhantomData;
use std::os::raw::c_void;
use std::ptr::{self, NonNull};

use crate::error::{check, Error, ErrorKind, Result};
use crate::profile::{with_profile, Profile};
use crate::sys;
use crate::enums::ParamKind;
use crate::tile::{DType, Operand, Storage, Tile};

/// One program parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    index: usize,
    name: String,
    kind: ParamKind,
    dtype: DType,
    rows: u32,
    cols: u32,
    valid_rows: Option<u32>,
    valid_cols: Option<u32>,
    access: u32,
}

impl Param {
    /// Position in the parameter list.
    pub fn index(&self) -> usize {
        self.index
    }
    /// The name without `%`.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// What the parameter is.
    pub fn kind(&self) -> ParamKind {
        self.kind
    }
    /// Element type of a pointer or tile (for scalars see `pto_program_param_dtype`).
    pub fn dtype(&self) -> DType {
        self.dtype
    }
    /// A tile's declared rows (0 for other kinds).
    pub fn rows(&self) -> u32 {
        self.rows
    }
    /// A tile's declared columns (0 for other kinds).
    pub fn cols(&self) -> u32 {
        self.cols
    }
    /// A tile's declared valid rows: the type's static value, or `None`
    /// where the type says `?` (the bound tile's region is then taken);
    /// `Some(0)` for other kinds.
    pub fn valid_rows(&self) -> Option<u32> {
        self.valid_rows
    }
    /// A tile's declared valid columns: static, or `None` for `?`; `Some(0)`
    /// for other kinds.
    pub fn valid_cols(&self) -> Option<u32> {
        self.valid_cols
    }
    /// Whether the program reads the value as bound.
    pub fn reads(&self) -> bool {
        self.access & sys::PTO_PARAM_READ != 0
    }
    /// Whether the program writes the parameter.
    pub fn writes(&self) -> bool {
        self.access & sys::PTO_PARAM_WRITE != 0
    }
}

/// A verified PTO program, freed when dropped. Immutable: it may run from
/// several threads at once.
pub struct Program {
    raw: NonNull<sys::pto_program>,
    name: String,
    profile: Profile,
    params: Vec<Param>,
}

// SAFETY: a program is immutable after creation and libpto allows concurrent
// runs of one program from any threads.
unsafe impl Send for Program {}
unsafe impl Sync for Program {}

/// Options of [`Program::builder`]: a source name, an entry function and a
/// profile.
#[derive(Debug, Clone, Default)]
pub struct ProgramBuilder {
    name: Option<String>,
    entry: Option<String>,
    profile: Option<Profile>,
}

impl ProgramBuilder {
    /// Names the text in diagnostics (default `"<string>"`).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Chooses the module's entry function by name (with or without a leading
    /// `@`), for a module of several `func.func`; every other function is
    /// verified too. Without it (or with `""`) the entry is the function
    /// marked `pto.entry` (or `pto.kernel`, or with a `pto.kernel_kind`
    /// attribute), else the module's only public function, else its only
    /// function. [`build`](Self::build) fails with
    /// [`ErrorKind::InvalidArgument`] if no function has that name, or, with
    /// no name, if the module marks several entries or has several public
    /// functions and marks none.
    pub fn entry(mut self, entry: impl Into<String>) -> Self {
        self.entry = Some(entry.into());
        self
    }

    /// Verifies (and runs) the program under `profile` instead of the
    /// calling thread's; a module's `pto.target_arch` applies when present.
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = Some(profile);
        self
    }

    /// Parses and verifies `text`. Errors: the status the C API gives for
    /// the same mistake ([`ErrorKind::InvalidArgument`] for syntax and
    /// unsupported constructs), with [`Error::line`] and [`Error::column`].
    pub fn build(self, text: &str) -> Result<Program> {
        let name = self.name.unwrap_or_else(|| "<string>".to_owned());
        let c_name = CString::new(name.as_str()).map_err(|_| {
            Error::new(
                ErrorKind::InvalidArgument,
                "Program: the source name contains a NUL byte",
            )
        })?;
        let c_entry = match self.entry.as_deref() {
            None | Some("") => None,
            Some(entry) => Some(CString::new(entry).map_err(|_| {
                Error::new(
                    ErrorKind::InvalidArgument,
                    "Program: the entry name contains a NUL byte",
                )
            })?),
        };
        let create = || {
            let mut raw: *mut sys::pto_program = ptr::null_mut();
            check(unsafe {
                match &c_entry {
                    None => sys::pto_program_create(
                        text.as_ptr().cast(),
                        text.len() as _,
                        c_name.as_ptr(),
                        &mut raw,
                    ),
                    Some(entry) => sys::pto_program_create_entry(
                        text.as_ptr().cast(),
                        text.len() as _,
                        c_name.as_ptr(),
                        entry.as_ptr(),
                        &mut raw,
                    ),
                }
            })
            .map(|()| raw)
        };
        let raw = match self.profile {
            Some(p) => with_profile(p, create),
            None => create(),
        }
        .map_err(|e| e.with_position(&name))?;
        let raw = NonNull::new(raw).ok_or_else(|| {
            Error::new(
                ErrorKind::OutOfMemory,
                "pto_program_create returned no program",
            )
        })?;
        let p = raw.as_ptr();
        let count = unsafe { sys::pto_program_param_count(p) } as usize;
        let params = (0..count)
            .map(|i| unsafe {
                let j = i as _;
                Param {
                    index: i,
                    name: crate::c_string(sys::pto_program_param_name(p, j)),
                    kind: ParamKind::from_raw(sys::pto_program_param_kind(p, j)).unwrap_or(ParamKind::Pointer),
                    dtype: DType::from_raw(sys::pto_program_param_dtype(p, j)).unwrap_or(DType::Int8),
                    rows: sys::pto_program_param_rows(p, j),
                    cols: sys::pto_program_param_cols(p, j),
                    valid_rows: u32::try_from(sys::pto_program_param_valid_rows(p, j)).ok(),
                    valid_cols: u32::try_from(sys::pto_program_param_valid_cols(p, j)).ok(),
                    access: sys::pto_program_param_access(p, j),
                }
            })
            .collect();
        let profile = Profile::from_raw(unsafe { sys::pto_program_profile(p) }).unwrap_or(Profile::Host);
        Ok(Program {
            raw,
            name,
            profile,
            params,
        })
    }
}

impl Program {
    /// Parses and verifies `text` under the calling thread's profile, named
    /// `"<string>"` in diagnostics; see [`ProgramBuilder::build`].
    pub fn new(text: &str) -> Result<Program> {
        ProgramBuilder::default().build(text)
    }

    /// Options for a source name, an entry function and a profile:
    /// `Program::builder().name("k.pto").entry("main").build(text)`.
    pub fn builder() -> ProgramBuilder {
        ProgramBuilder::default()
    }

    /// Parses and verifies `text`, a module whose entry function is `entry`
    /// (with or without a leading `@`), named `source_name` in diagnostics;
    /// see [`ProgramBuilder::entry`].
    pub fn with_entry(text: &str, source_name: &str, entry: &str) -> Result<Program> {
        ProgramBuilder::default()
            .name(source_name)
            .entry(entry)
            .build(text)
    }

    /// A listing of the verified program, in lines of text: the module's
    /// functions with their parameters (the entry marked `(entry)`), the
    /// unified buffer's use and every tile's place in it, as `pto-run
    /// --check` prints it.
    pub fn describe(&self) -> String {
        // SAFETY: the text lives as long as the program, which self holds.
        crate::c_string(unsafe { sys::pto_program_describe(self.raw.as_ptr()) })
    }

    /// The source name used in diagnostics.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The profile the program was verified under and runs under.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The parameters in order.
    pub fn params(&self) -> &[Param] {
        &self.params
    }

    /// The index of the parameter called `name` (with or without `%`).
    /// Errors: [`ErrorKind::InvalidArgument`] if there is none.
    pub fn find(&self, name: &str) -> Result<usize> {
        let c_name = CString::new(name).map_err(|_| {
            Error::new(
                ErrorKind::InvalidArgument,
                "Program::find: the name contains a NUL byte",
            )
        })?;
        let mut index = 0;
        check(unsafe {
            sys::pto_program_param_find(self.raw.as_ptr(), c_name.as_ptr(), &mut index)
        })?;
        Ok(index as usize)
    }

    /// A new, empty argument set for this program.
    pub fn args<'a>(&self) -> Result<Args<'_, 'a>> {
        let mut raw: *mut sys::pto_args = ptr::null_mut();
        check(unsafe { sys::pto_args_create(self.raw.as_ptr(), &mut raw) })?;
        let raw = NonNull::new(raw).ok_or_else(|| {
            Error::new(
                ErrorKind::OutOfMemory,
                "pto_args_create returned no argument set",
            )
        })?;
        Ok(Args {
            program: self,
            raw,
            bound: vec![false; self.params.len()],
            _borrows: PhantomData,
        })
    }

    /// Runs the program once, as block 0 of 1, and returns the tiles it
    /// created for the written tile parameters left unbound, by name (a
    /// snippet's results, of the declared shape and, where the type gives a
    /// static one, the declared valid region; empty for a kernel). A `&mut Tile` bound to a
    /// written parameter receives the result itself.
    ///
    /// Errors: [`ErrorKind::InvalidArgument`] for a parameter the program
    /// reads that is not bound, or `args` made for another program; a
    /// run-time fault of an instruction, with [`Error::line`] and [`Error::column`].
    pub fn run(&self, args: &mut Args<'_, '_>) -> Result<HashMap<String, Tile>> {
        self.execute(1, args)
    }

    /// Runs the program for block ids `0..blocks` concurrently and waits.
    /// Each block has its own unified buffer; global memory is shared. With
    /// one block, the same as [`Program::run`]; with more, no tiles are
    /// created and a bound written tile is refused.
    pub fn launch(&self, blocks: u32, args: &mut Args<'_, '_>) -> Result<HashMap<String, Tile>> {
        self.execute(blocks, args)
    }

    fn execute(&self, blocks: u32, args: &mut Args<'_, '_>) -> Result<HashMap<String, Tile>> {
        let mut created = Vec::new();
        if blocks == 1 && ptr::eq(args.program, self) {
            for p in &self.params {
                if p.kind == ParamKind::Tile && p.writes() && !p.reads() && !args.bound[p.index] {
                    let mut t = Tile::new(p.dtype, p.rows, p.cols)?;
                    if p.valid_rows.is_some() || p.valid_cols.is_some() {
                        // pto_args_set_tile requires the declared static region.
                        t.set_valid(
                            p.valid_rows.unwrap_or(p.rows),
                            p.valid_cols.unwrap_or(p.cols),
                        )?;
                    }
                    args.set_raw_tile(p.index, t.as_ptr())?;
                    created.push((p.index, p.name.clone(), t));
                }
            }
        }
        let status = if blocks == 1 {
            unsafe { sys::pto_program_run(self.raw.as_ptr(), args.raw.as_ptr()) }
        } else {
            unsafe { sys::pto_program_launch(self.raw.as_ptr(), blocks, args.raw.as_ptr()) }
        };
        let result = check(status).map_err(|e| e.with_position(&self.name));
        for (index, _, _) in &created {
            // Unbinding a tile parameter of a valid index cannot fail.
            let _ = args.set_raw_tile(*index, ptr::null_mut());
        }
        result?;
        Ok(created.into_iter().map(|(_, name, t)| (name, t)).collect())
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        unsafe { sys::pto_program_destroy(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("name", &self.name)
            .field("profile", &self.profile)
            .field("params", &self.params)
            .finish()
    }
}

/// A parameter, by position (`usize`) or name (`&str`, with or without `%`).
pub trait ParamKey: sealed::Sealed {
    #[doc(hidden)]
    fn index(&self, program: &Program) -> Result<usize>;
}

impl ParamKey for usize {
    fn index(&self, _: &Program) -> Result<usize> {
        Ok(*self)
    }
}

impl ParamKey for &str {
    fn index(&self, program: &Program) -> Result<usize> {
        program.find(self)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for &str {}
}

/// Global memory for a pointer parameter: a slice of the pointer's element
/// encoding (see [`Storage`]), made from `&mut [T]` (the program may read and
/// write it) or `&[T]` (only for a parameter the program does not write).
#[derive(Debug)]
pub struct Memory<'a> {
    data: *mut c_void,
    bytes: usize,
    holds: fn(DType) -> bool,
    element: &'static str,
    writable: bool,
    _borrow: PhantomData<&'a mut [u8]>,
}

/// A value bound to a parameter; usually made with `.into()` from a slice
/// (`&mut [f32]`, `&[i32]`, ...), an integer, a float or a tile (`&Tile` for
/// a tile the program reads, `&mut Tile` for one it writes).
#[derive(Debug)]
pub enum Arg<'a> {
    /// An integer parameter.
    Int(i64),
    /// A float parameter (rounded to nearest even to the declared type).
    Float(f64),
    /// A pointer parameter, zero-copy.
    Memory(Memory<'a>),
    /// A tile parameter the program only reads.
    Tile(&'a Tile),
    /// A tile parameter the program may write (the result lands in it).
    TileMut(&'a mut Tile),
}

impl<'a, T: Storage> From<&'a mut [T]> for Arg<'a> {
    fn from(s: &'a mut [T]) -> Arg<'a> {
        Arg::Memory(Memory {
            data: s.as_mut_ptr().cast(),
            bytes: std::mem::size_of_val(s),
            holds: T::holds,
            element: std::any::type_name::<T>(),
            writable: true,
            _borrow: PhantomData,
        })
    }
}

impl<'a, T: Storage> From<&'a [T]> for Arg<'a> {
    fn from(s: &'a [T]) -> Arg<'a> {
        Arg::Memory(Memory {
            data: s.as_ptr() as *mut c_void,
            bytes: std::mem::size_of_val(s),
            holds: T::holds,
            element: std::any::type_name::<T>(),
            writable: false,
            _borrow: PhantomData,
        })
    }
}

impl<'a, T: Storage> From<&'a mut Vec<T>> for Arg<'a> {
    fn from(v: &'a mut Vec<T>) -> Arg<'a> {
        v.as_mut_slice().into()
    }
}

impl<'a, T: Storage> From<&'a Vec<T>> for Arg<'a> {
    fn from(v: &'a Vec<T>) -> Arg<'a> {
        v.as_slice().into()
    }
}

impl<'a> From<&'a Tile> for Arg<'a> {
    fn from(t: &'a Tile) -> Arg<'a> {
        Arg::Tile(t)
    }
}

impl<'a> From<&'a mut Tile> for Arg<'a> {
    fn from(t: &'a mut Tile) -> Arg<'a> {
        Arg::TileMut(t)
    }
}

macro_rules! int_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg<'_> {
            fn from(v: $t) -> Self {
                Arg::Int(v.into())
            }
        }
    )*};
}
int_arg!(i8, u8, i16, u16, i32, u32, i64);

impl From<f32> for Arg<'_> {
    fn from(v: f32) -> Self {
        Arg::Float(v.into())
    }
}

impl From<f64> for Arg<'_> {
    fn from(v: f64) -> Self {
        Arg::Float(v)
    }
}

/// The values bound to one program's parameters (the C `pto_args`), freed
/// when dropped. It borrows what is bound for `'a`: slices and tiles stay
/// borrowed until the argument set is dropped, and the program reads and
/// writes them at each run, not when bound.
pub struct Args<'p, 'a> {
    program: &'p Program,
    raw: NonNull<sys::pto_args>,
    bound: Vec<bool>,
    _borrows: PhantomData<&'a mut [u8]>,
}

impl<'p, 'a> Args<'p, 'a> {
    /// Binds `value` to a parameter, by position or name.
    ///
    /// Errors: [`ErrorKind::InvalidArgument`] for an unknown name or index,
    /// a value of another kind, a shared slice or tile for a parameter the
    /// program writes; [`ErrorKind::DTypeMismatch`] for a slice whose
    /// element type is not the pointer's (or a tile of another dtype);
    /// [`ErrorKind::ShapeMismatch`]; [`ErrorKind::OutOfRange`] for an
    /// integer the declared type cannot hold.
    pub fn set(&mut self, param: impl ParamKey, value: impl Into<Arg<'a>>) -> Result<&mut Self> {
        let index = param.index(self.program)?;
        let decl = self.program.params.get(index);
        let writes = decl.map_or(false, Param::writes);
        let label = decl.map_or_else(
            || format!("parameter {}", index),
            |p| format!("parameter %{}", p.name),
        );
        let a = self.raw.as_ptr();
        let i = index as _;
        match value.into() {
            Arg::Int(v) => check(unsafe { sys::pto_args_set_int(a, i, v) })?,
            Arg::Float(v) => check(unsafe { sys::pto_args_set_float(a, i, v) })?,
            Arg::Memory(m) => {
                if let Some(p) = decl.filter(|p| p.kind == ParamKind::Pointer) {
                    if !(m.holds)(p.dtype) {
                        return Err(Error::new(
                            ErrorKind::DTypeMismatch,
                            format!(
                                "Args::set: {} points to {}, the slice holds {}",
                                label, p.dtype, m.element
                            ),
                        ));
                    }
                }
                if writes && !m.writable {
                    return Err(Error::new(
                        ErrorKind::InvalidArgument,
                        format!("Args::set: the program writes {}: pass a &mut slice", label),
                    ));
                }
                check(unsafe { sys::pto_args_set_pointer(a, i, m.data, m.bytes as _) })?
            }
            Arg::Tile(t) => {
                if writes {
                    return Err(Error::new(
                        ErrorKind::InvalidArgument,
                        format!("Args::set: the program writes {}: pass a &mut Tile", label),
                    ));
                }
                self.set_raw_tile(index, t.as_ptr())?
            }
            Arg::TileMut(t) => self.set_raw_tile(index, t.as_ptr())?,
        }
        if let Some(b) = self.bound.get_mut(index) {
            *b = true;
        }
        Ok(self)
    }

    fn set_raw_tile(&mut self, index: usize, tile: *mut sys::pto_tile) -> Result<()> {
        check(unsafe { sys::pto_args_set_tile(self.raw.as_ptr(), index as _, tile) })
    }
}

impl Drop for Args<'_, '_> {
    fn drop(&mut self) {
        unsafe { sys::pto_args_destroy(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for Args<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Args")
            .field("program", &self.program.name)
            .field("bound", &self.bound)
            .finish()
    }
}
