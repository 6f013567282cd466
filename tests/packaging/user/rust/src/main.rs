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
    Ok(())
}
