//! A user program of the Rust binding, built from the published crates alone.

use pto::{DType, ErrorKind, InPlace, Tile};

fn main() -> pto::Result<()> {
    let mut x = Tile::from_slice(DType::Float32, 1, 4, &[1.0f32, 4.0, 16.0, 64.0])?;
    pto::trsqrt(&mut x, InPlace)?;
    let v = x.as_slice::<f32>()?;
    println!("rust: {} {:?}", pto::version(), v);
    assert_eq!(v[3], 0.125);
    let bad = Tile::new(DType::Int32, 1, 4)?;
    let err = pto::trsqrt(&mut x, &bad).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DTypeMismatch);

    // A program: a snippet whose result tile run creates.
    let prog = pto::Program::builder()
        .name("user.pto")
        .build("%y = pto.trsqrt %x : (!pto.tile<1x4xf32>) -> !pto.tile<1x4xf32>")?;
    let input = Tile::from_slice(DType::Float32, 1, 4, &[1.0f32, 4.0, 16.0, 64.0])?;
    let mut args = prog.args()?;
    args.set("x", &input)?;
    let out = prog.run(&mut args)?;
    let y = out["y"].as_slice::<f32>()?;
    println!("rust program: {:?}", y);
    assert_eq!(y[3], 0.125);
    let err = pto::Program::new("pto.tfoo ins()").unwrap_err();
    assert_eq!((err.line(), err.column()), (Some(1), Some(1)));
    Ok(())
}
