//! Quickstart: a row softmax, y = exp(x - max(x)) / sum(exp(x - max(x)))
//! along each row of a 64x256 float32 matrix, from the binding's calls
//! (trowmax, trowexpandsub, texp, trowsum, trowexpanddiv) and from the kernel
//! examples/kernels/softmax.pto (built into the example) run as a Program on
//! 2 blocks; the two must agree bit for bit (the Rust version of
//! examples/quickstart.c).
//!
//!     cd bindings/rust && cargo run -p pto --example quickstart
//!
//! with PKG_CONFIG_PATH pointing at libpto's pkg-config file if it is not
//! installed system-wide.

use pto::{DType, InPlace, Profile, Program, Tile};

const ROWS: u32 = 64;
const COLS: u32 = 256;
const BLOCKS: u32 = 2;
const KERNEL: &str = include_str!("../kernels/softmax.pto");

/// x in [-8, 8) from the linear congruential sequence every quickstart uses,
/// so each prints the same numbers.
fn input() -> Vec<f32> {
    let mut state = 12345u32;
    (0..ROWS * COLS)
        .map(|_| {
            state = state.wrapping_mul(1664525).wrapping_add(1013904223);
            (state >> 8) as f32 / (1u32 << 24) as f32 * 16.0 - 8.0
        })
        .collect()
}

/// The five instructions on one 64x256 tile, in place; max and sum are one
/// column of 64 rows.
fn softmax_from_calls(x: &[f32]) -> pto::Result<Vec<f32>> {
    let mut t = Tile::from_slice(DType::Float32, ROWS, COLS, x)?;
    let mut max = Tile::new(DType::Float32, ROWS, 1)?;
    let mut sum = Tile::new(DType::Float32, ROWS, 1)?;
    pto::trowmax(&mut max, &t, None)?; // max(i) = max_j x(i,j)
    pto::trowexpandsub(&mut t, InPlace, &max, None)?; // x(i,j) - max(i)
    pto::texp(&mut t, InPlace)?; // e^(x - max)
    pto::trowsum(&mut sum, &t, None)?; // sum(i) = sum_j e^(...)
    pto::trowexpanddiv(&mut t, InPlace, &sum, None)?; // e^(...) / sum(i)
    t.to_vec::<f32>()
}

/// The kernel, verified once, run on BLOCKS blocks; x and y are bound
/// zero-copy, y holds the result after the run.
fn softmax_from_kernel(x: &[f32]) -> pto::Result<Vec<f32>> {
    let p = Program::with_entry(KERNEL, "examples/kernels/softmax.pto", "softmax")?;
    let mut y = vec![0f32; x.len()];
    {
        let mut args = p.args()?;
        args.set("x", x)?.set("y", &mut y[..])?;
        args.set("m", ROWS as i64)?.set("n", COLS as i64)?;
        p.launch(BLOCKS, &mut args)?;
    }
    println!(
        "  {}: verified under profile {:?}, run on {} blocks",
        p.name(),
        p.profile(),
        BLOCKS
    );
    Ok(y)
}

/// The largest relative deviation of y from a softmax of x computed in f64.
fn largest_deviation(x: &[f32], y: &[f32]) -> f64 {
    let mut worst = 0f64;
    for (row, out) in x.chunks(COLS as usize).zip(y.chunks(COLS as usize)) {
        let max = row.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v.into()));
        let sum: f64 = row.iter().map(|&v| (f64::from(v) - max).exp()).sum();
        for (&v, &o) in row.iter().zip(out) {
            let exact = (f64::from(v) - max).exp() / sum;
            worst = worst.max((f64::from(o) - exact).abs() / exact);
        }
    }
    worst
}

fn main() -> Result<(), pto::Error> {
    println!(
        "libpto {}, SIMD target {}\n",
        pto::version(),
        pto::simd_target()
    );
    println!(
        "Row softmax of a {}x{} float32 matrix, y = exp(x - max(x)) / sum(exp(x - max(x)))",
        ROWS, COLS
    );
    let x = input();

    // The calls check the rules of the profile the kernel declares (A5).
    let y_calls = pto::with_profile(Profile::A5, || softmax_from_calls(&x))?;
    println!(
        "  calls: trowmax, trowexpandsub, texp, trowsum, trowexpanddiv on one {}x{} tile",
        ROWS, COLS
    );
    let y_kernel = softmax_from_kernel(&x)?;

    println!(
        "\n  x[0][0..3] {:10.6} {:10.6} {:10.6} {:10.6}",
        x[0], x[1], x[2], x[3]
    );
    println!(
        "  y[0][0..3] {:10.4e} {:10.4e} {:10.4e} {:10.4e}",
        y_calls[0], y_calls[1], y_calls[2], y_calls[3]
    );
    println!(
        "  largest relative deviation from a softmax in double: {:.3e} (float32's epsilon {:.3e})",
        largest_deviation(&x, &y_calls),
        f32::EPSILON
    );
    let same = y_calls
        .iter()
        .zip(&y_kernel)
        .all(|(a, b)| a.to_bits() == b.to_bits());
    println!(
        "  calls and the kernel on {} blocks: {}",
        BLOCKS,
        if same {
            "the same bits"
        } else {
            "DIFFERENT bits"
        }
    );

    println!(
        "\nErrors are values: trowexpanddiv by a 32-row column against {} rows",
        ROWS
    );
    let mut t = Tile::new(DType::Float32, ROWS, COLS)?;
    let half = Tile::new(DType::Float32, ROWS / 2, 1)?;
    match pto::trowexpanddiv(&mut t, InPlace, &half, None) {
        Err(e) if e.kind() == pto::ErrorKind::ShapeMismatch => {
            println!("  {}: {}", e.kind(), e.message())
        }
        Err(e) => return Err(e),
        Ok(()) => panic!("a 32-row column against 64 rows was accepted"),
    }
    if !same {
        std::process::exit(1);
    }
    Ok(())
}
