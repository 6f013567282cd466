//! tscratch_table, a dummy of tests/ci/new-operation.sh, from Rust: its
//! generated call over a slice as the table, both tile results and the value
//! it returns; an index past the table refused, nothing written.

use pto::{DType, ErrorKind, Tile};

#[test]
fn tscratch_table_runs_from_rust() {
    let table = [0.5f32, -3.0, 4.0, 8.0];
    let src = Tile::from_slice(DType::Float32, 1, 4, &[2.0f32, -3.0, 0.5, 9.0]).unwrap();
    let mut dst = Tile::new(DType::Float32, 1, 4).unwrap();
    let dst1 = Tile::new(DType::Float32, 1, 4).unwrap();
    assert_eq!(pto::tscratch_table(&mut dst, &table, &src, &dst1, 2).unwrap(), 4.0);
    assert_eq!(dst.to_vec::<f32>().unwrap(), [6.0f32, 1.0, 4.5, 13.0]);
    assert_eq!(dst1.to_vec::<f32>().unwrap(), [8.0f32, -12.0, 2.0, 36.0]);
    let e = pto::tscratch_table(&mut dst, &table, &src, &dst1, 4).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfRange, "{}", e.message());
    assert_eq!(dst.to_vec::<f32>().unwrap(), [6.0f32, 1.0, 4.5, 13.0]);
}
