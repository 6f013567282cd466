//! Quickstart: runs tpow, trsqrt, tprelu, tcolexpanddiv and tpartadd on
//! small tiles and prints inputs and results (the Rust version of
//! examples/quickstart.c).
//!
//!     cd bindings/rust && cargo run -p pto --example quickstart
//!
//! with PKG_CONFIG_PATH pointing at libpto's pkg-config file if it is not
//! installed system-wide.

use pto::{DType, PowAlgorithm, Tile};

const ROWS: u32 = 2;
const COLS: u32 = 4;

fn show(name: &str, t: &Tile) -> pto::Result<()> {
    print!(
        "  {:<6} [{}x{} valid {}x{}]",
        name,
        t.rows(),
        t.cols(),
        t.valid_rows(),
        t.valid_cols()
    );
    for (i, v) in t.to_vec::<f32>()?.iter().enumerate() {
        if i % t.cols() as usize == 0 {
            print!("\n    ");
        }
        print!("{:>10.6} ", v);
    }
    println!();
    Ok(())
}

fn main() -> Result<(), pto::Error> {
    println!(
        "libpto {}, SIMD target {}\n",
        pto::version(),
        pto::simd_target()
    );

    let x = Tile::from_slice(
        DType::Float32,
        ROWS,
        COLS,
        &[2.0f32, -3.0, 0.5, 9.0, -1.5, 4.0, 10.0, 0.0],
    )?;
    let mut y = Tile::from_slice(
        DType::Float32,
        ROWS,
        COLS,
        &[10.0f32, 3.0, -2.0, 0.5, 0.25, 0.25, -1.0, 0.1],
    )?;
    let mut dst = Tile::new(DType::Float32, ROWS, COLS)?;
    let tmp = Tile::new(DType::Float32, ROWS, COLS)?;
    show("x", &x)?;
    show("y", &y)?;

    println!("\nTPOW dst = x ^ y (high precision)");
    pto::tpow(&mut dst, &x, &y, &tmp, PowAlgorithm::HighPrecision)?;
    show("dst", &dst)?;

    println!("\nTRSQRT dst = 1 / sqrt(x)  (negative -> NaN, 0 -> inf)");
    pto::trsqrt(&mut dst, &x)?;
    show("dst", &dst)?;

    println!("\nTPRELU dst = x > 0 ? x : x * y");
    pto::tprelu(&mut dst, &x, &y, None)?;
    show("dst", &dst)?;

    println!("\nTCOLEXPANDDIV dst[i,j] = x[i,j] / y[0,j]");
    pto::tcolexpanddiv(&mut dst, &x, &y)?;
    show("dst", &dst)?;

    println!("\nTPARTADD with y valid only in its 1x2 corner: sum there, copy of x elsewhere");
    y.set_valid(1, 2)?;
    pto::tpartadd(&mut dst, &x, &y)?;
    show("dst", &dst)?;

    println!("\nErrors are values: a 1x2 base against a 2x4 dst");
    match pto::tpow(&mut dst, &y, &x, &tmp, PowAlgorithm::Default) {
        Err(e) if e.kind() == pto::ErrorKind::ShapeMismatch => {
            println!("  {}: {}", e.kind(), e.message());
            Ok(())
        }
        Err(e) => Err(e),
        Ok(()) => panic!("a 1x2 base against a 2x4 dst was accepted"),
    }
}
