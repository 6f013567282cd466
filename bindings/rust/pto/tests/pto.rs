//! The Rust binding against known results: every instruction, every error a
//! safe caller can meet, tile lifetime and bulk round trips for every dtype.

use pto::{CmpMode, DType, ErrorKind, GatherAxis, InPlace, MaskPattern, PowAlgorithm, RoundMode, Saturation, Tile};

const INF: f32 = f32::INFINITY;
const NAN: f32 = f32::NAN;

fn f32_tile(dtype: DType, rows: u32, cols: u32, values: &[f32]) -> Tile {
    Tile::from_slice(dtype, rows, cols, values).unwrap()
}

fn zeros(dtype: DType, rows: u32, cols: u32) -> Tile {
    Tile::new(dtype, rows, cols).unwrap()
}

/// Bitwise comparison: NaN equals NaN, -0 differs from +0.
fn assert_floats(got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let same = (g.is_nan() && w.is_nan()) || g.to_bits() == w.to_bits();
        assert!(
            same,
            "element {}: got {:?}, want {:?} (all: {:?})",
            i, g, w, got
        );
    }
}

fn assert_err<T: std::fmt::Debug>(r: pto::Result<T>, kind: ErrorKind, in_message: &str) {
    let err = r.expect_err("expected an error");
    assert_eq!(err.kind(), kind, "{}", err);
    assert!(
        err.message().contains(in_message),
        "message {:?} lacks {:?}",
        err.message(),
        in_message
    );
    assert!(err.to_string().starts_with(&kind.name()), "{}", err);
}

// ------------------------------------------------------------------ library

#[test]
fn version_and_target() {
    let v = pto::version();
    assert_eq!(v.split('.').count(), 3, "{}", v);
    assert!(v.split('.').all(|p| p.parse::<u32>().is_ok()), "{}", v);
    assert!(!pto::simd_target().is_empty());
}

#[test]
fn dtype_sizes() {
    let sizes = [1, 1, 2, 2, 4, 4, 2, 2, 4];
    for (d, size) in DType::ALL.iter().zip(sizes) {
        assert_eq!(d.size(), size, "{:?}", d);
    }
}

// -------------------------------------------------------------------- tiles

#[test]
fn shape_and_valid_region() {
    let mut t = zeros(DType::Int16, 3, 5);
    assert_eq!(
        (t.dtype(), t.rows(), t.cols(), t.len()),
        (DType::Int16, 3, 5, 15)
    );
    assert_eq!((t.valid_rows(), t.valid_cols()), (3, 5));
    t.set_valid(2, 0).unwrap();
    assert_eq!((t.valid_rows(), t.valid_cols()), (2, 0));
    assert_err(t.set_valid(4, 1), ErrorKind::OutOfRange, "");
    assert_eq!((t.valid_rows(), t.valid_cols()), (2, 0));
    assert_eq!(t.to_vec::<i16>().unwrap(), vec![0; 15]);
    assert!(format!("{:?}", t).contains("valid_rows: 2"));
}

#[test]
fn create_errors() {
    assert_err(
        Tile::new(DType::Float32, 0, 4),
        ErrorKind::InvalidArgument,
        "pto_tile_create",
    );
    assert_err(
        Tile::new(DType::Float32, 1 << 20, 1 << 20),
        ErrorKind::InvalidArgument,
        "pto_tile_create",
    );
}

#[test]
fn lifetime() {
    // Drop frees exactly once; close() is an explicit drop. Use after either
    // is a compile error (see the compile_fail example on Tile).
    let t = zeros(DType::Float32, 2, 2);
    t.close();
    for _ in 0..200 {
        let _ = zeros(DType::Uint8, 64, 64);
    }
    // A tile can move to another thread.
    let mut t = f32_tile(DType::Float32, 1, 2, &[4.0, 16.0]);
    let out = std::thread::spawn(move || {
        pto::trsqrt(&mut t, InPlace).unwrap();
        t.to_vec::<f32>().unwrap()
    })
    .join()
    .unwrap();
    assert_floats(&out, &[0.5, 0.25]);
}

// -------------------------------------------------------------- bulk copies

#[test]
fn round_trip_integers() {
    let i8s = [i8::MIN, -1, 0, 1, 42, i8::MAX];
    assert_eq!(
        Tile::from_slice(DType::Int8, 2, 3, &i8s)
            .unwrap()
            .to_vec::<i8>()
            .unwrap(),
        i8s
    );
    let u8s = [0u8, 1, 200, u8::MAX];
    assert_eq!(
        Tile::from_slice(DType::Uint8, 1, 4, &u8s)
            .unwrap()
            .to_vec::<u8>()
            .unwrap(),
        u8s
    );
    let i16s = [i16::MIN, -2, 300, i16::MAX];
    assert_eq!(
        Tile::from_slice(DType::Int16, 2, 2, &i16s)
            .unwrap()
            .to_vec::<i16>()
            .unwrap(),
        i16s
    );
    let u16s = [0u16, 1, 40000, u16::MAX];
    assert_eq!(
        Tile::from_slice(DType::Uint16, 2, 2, &u16s)
            .unwrap()
            .to_vec::<u16>()
            .unwrap(),
        u16s
    );
    let i32s = [i32::MIN, -7, 0, 123456789, i32::MAX];
    assert_eq!(
        Tile::from_slice(DType::Int32, 1, 5, &i32s)
            .unwrap()
            .to_vec::<i32>()
            .unwrap(),
        i32s
    );
    let u32s = [0u32, 3_000_000_000, u32::MAX];
    let t = Tile::from_slice(DType::Uint32, 1, 3, &u32s).unwrap();
    let mut into = [0u32; 3];
    t.read_into(&mut into).unwrap();
    assert_eq!(into, u32s);
}

#[test]
fn round_trip_floats() {
    let denormal = f32::from_bits(1);
    let f32s = [0.0, -0.0, 1.5, -2.25, INF, -INF, NAN, denormal];
    assert_floats(
        &f32_tile(DType::Float32, 2, 4, &f32s)
            .to_vec::<f32>()
            .unwrap(),
        &f32s,
    );
    // float16: 1 + 2^-11 rounds to even (1), 65520 overflows, 2^-24 is the smallest subnormal.
    let tiny = 2f32.powi(-24);
    let f16_in = [
        1.5,
        -0.099975586,
        1.0 + 1.0 / 2048.0,
        65520.0,
        65504.0,
        NAN,
        tiny,
        -INF,
    ];
    let f16_out = [1.5, -0.099975586, 1.0, INF, 65504.0, NAN, tiny, -INF];
    assert_floats(
        &f32_tile(DType::Float16, 2, 4, &f16_in)
            .to_vec::<f32>()
            .unwrap(),
        &f16_out,
    );
    // bfloat16 keeps 8 significant bits.
    let bf_in = [1.5, 1.0 + 1.0 / 256.0, 1.0 + 3.0 / 256.0, 3.0e38, -INF, NAN];
    let bf_out = [
        1.5,
        1.0,
        1.0 + 1.0 / 64.0,
        f32::from_bits(0x7f62 << 16),
        -INF,
        NAN,
    ];
    assert_floats(
        &f32_tile(DType::BFloat16, 2, 3, &bf_in)
            .to_vec::<f32>()
            .unwrap(),
        &bf_out,
    );
}

#[test]
fn bulk_copy_errors() {
    let mut t = zeros(DType::Int8, 2, 2);
    assert_err(
        t.write(&[1i8, 2, 3]),
        ErrorKind::InvalidArgument,
        "pto_tile_write",
    );
    assert_err(
        t.read_into(&mut [0i8; 5]),
        ErrorKind::InvalidArgument,
        "pto_tile_read",
    );
    assert_err(t.write(&[1i16, 2]), ErrorKind::DTypeMismatch, "[i16]");
    assert_err(t.to_vec::<u8>(), ErrorKind::DTypeMismatch, "[u8]");
    assert_err(
        t.write(&[0f32; 4]),
        ErrorKind::UnsupportedDType,
        "pto_tile_write_f32",
    );
    assert_err(
        t.to_vec::<f32>(),
        ErrorKind::UnsupportedDType,
        "pto_tile_read_f32",
    );
    let mut f = zeros(DType::Float32, 2, 2);
    assert_err(
        f.write(&[1f32]),
        ErrorKind::InvalidArgument,
        "pto_tile_write_f32",
    );
    assert_err(
        f.write::<f32>(&[]),
        ErrorKind::InvalidArgument,
        "pto_tile_write_f32",
    );
}

// --------------------------------------------------------------- operations

#[test]
fn tpow_floats() {
    for algo in [PowAlgorithm::Default, PowAlgorithm::HighPrecision] {
        for dtype in [DType::Float32, DType::Float16, DType::BFloat16] {
            let base = f32_tile(dtype, 2, 3, &[2.0, 3.0, -2.0, 4.0, 1.0, 0.0]);
            let exp = f32_tile(dtype, 2, 3, &[10.0, 2.0, 3.0, 0.5, 100.0, 0.0]);
            let mut dst = zeros(dtype, 2, 3);
            pto::tpow(&mut dst, &base, &exp, &zeros(dtype, 2, 3), algo).unwrap();
            assert_floats(
                &dst.to_vec::<f32>().unwrap(),
                &[1024.0, 9.0, -8.0, 2.0, 1.0, 1.0],
            );
        }
    }
    let mut dst = zeros(DType::Float32, 1, 2);
    pto::tpow(
        &mut dst,
        &f32_tile(DType::Float32, 1, 2, &[-2.0, 0.0]),
        &f32_tile(DType::Float32, 1, 2, &[0.5, -1.0]),
        &zeros(DType::Float32, 1, 2),
        PowAlgorithm::HighPrecision,
    )
    .unwrap();
    assert_floats(&dst.to_vec::<f32>().unwrap(), &[NAN, INF]);
}

#[test]
fn tcvt_modes_and_saturation() {
    let src = f32_tile(DType::Float32, 1, 5, &[-2.5, -0.5, 1.5, 2.5, 3e9]);
    for (mode, want) in [
        (RoundMode::Rint, [-2, 0, 2, 2, i32::MAX]),
        (RoundMode::Round, [-3, -1, 2, 3, i32::MAX]),
        (RoundMode::Floor, [-3, -1, 1, 2, i32::MAX]),
        (RoundMode::Trunc, [-2, 0, 1, 2, i32::MAX]),
    ] {
        let mut dst = zeros(DType::Int32, 1, 5);
        pto::tcvt(&mut dst, &src, None, mode, Saturation::On).unwrap();
        assert_eq!(dst.to_vec::<i32>().unwrap(), want, "{mode:?}");
    }
    let mut half = zeros(DType::Float16, 1, 5);
    pto::tcvt(&mut half, &src, None, RoundMode::Trunc, Saturation::Off).unwrap();
    assert_eq!(half.to_vec::<f32>().unwrap()[4], 65504.0);
    let mut bf = zeros(DType::BFloat16, 1, 5);
    assert_err(
        pto::tcvt(&mut bf, &src, None, RoundMode::Odd, Saturation::On),
        ErrorKind::InvalidArgument,
        "PTO_ROUND_ODD",
    );
}

#[test]
fn tpow_integers() {
    let mut dst = zeros(DType::Int32, 1, 6);
    pto::tpow(
        &mut dst,
        &Tile::from_slice(DType::Int32, 1, 6, &[2i32, 3, -2, 0, 1, -1]).unwrap(),
        &Tile::from_slice(DType::Int32, 1, 6, &[10i32, 4, 3, 0, -5, -3]).unwrap(),
        &zeros(DType::Int32, 1, 6),
        PowAlgorithm::Default,
    )
    .unwrap();
    assert_eq!(dst.to_vec::<i32>().unwrap(), [1024, 81, -8, 1, 1, -1]);
    // Wrapping modulo 2^8.
    let mut d8 = zeros(DType::Int8, 1, 2);
    let b8 = Tile::from_slice(DType::Int8, 1, 2, &[2i8, 2]).unwrap();
    let e8 = Tile::from_slice(DType::Int8, 1, 2, &[7i8, 9]).unwrap();
    pto::tpow(
        &mut d8,
        &b8,
        &e8,
        &zeros(DType::Int8, 1, 2),
        PowAlgorithm::Default,
    )
    .unwrap();
    assert_eq!(d8.to_vec::<i8>().unwrap(), [-128, 0]);
    let mut u8d = zeros(DType::Uint8, 1, 1);
    let u8b = Tile::from_slice(DType::Uint8, 1, 1, &[3u8]).unwrap();
    let u8e = Tile::from_slice(DType::Uint8, 1, 1, &[5u8]).unwrap();
    pto::tpow(
        &mut u8d,
        &u8b,
        &u8e,
        &zeros(DType::Uint8, 1, 1),
        PowAlgorithm::Default,
    )
    .unwrap();
    assert_eq!(u8d.to_vec::<u8>().unwrap(), [243]);
    let mut u16d = zeros(DType::Uint16, 1, 1);
    let u16b = Tile::from_slice(DType::Uint16, 1, 1, &[2u16]).unwrap();
    let u16e = Tile::from_slice(DType::Uint16, 1, 1, &[10u16]).unwrap();
    pto::tpow(
        &mut u16d,
        &u16b,
        &u16e,
        &zeros(DType::Uint16, 1, 1),
        PowAlgorithm::Default,
    )
    .unwrap();
    assert_eq!(u16d.to_vec::<u16>().unwrap(), [1024]);
}

#[test]
fn tpow_errors() {
    let f = |r, c| zeros(DType::Float32, r, c);
    let (mut dst, base, exp, tmp) = (f(2, 2), f(2, 2), f(2, 2), f(2, 2));
    let d = PowAlgorithm::Default;
    // tmp == dst cannot be written: tmp is &Tile while dst is &mut Tile. The
    // raw call's Aliasing status is checked in error.rs.
    assert_err(
        pto::tpow(&mut dst, &base, &zeros(DType::Float16, 2, 2), &tmp, d),
        ErrorKind::DTypeMismatch,
        "pto_tpow",
    );
    assert_err(
        pto::tpow(&mut dst, &f(1, 2), &exp, &tmp, d),
        ErrorKind::ShapeMismatch,
        "pto_tpow",
    );
    assert_err(
        pto::tpow(&mut dst, &base, &exp, &f(1, 2), d),
        ErrorKind::ShapeMismatch,
        "pto_tpow",
    );
    let i = |_| zeros(DType::Int32, 2, 2);
    assert_err(
        pto::tpow(&mut i(0), &i(1), &i(2), &i(3), PowAlgorithm::HighPrecision),
        ErrorKind::UnsupportedDType,
        "pto_tpow",
    );
}

#[test]
fn trsqrt() {
    for dtype in [DType::Float32, DType::Float16] {
        let mut src = f32_tile(dtype, 2, 3, &[4.0, 0.25, 0.0, -0.0, -1.0, INF]);
        let mut dst = zeros(dtype, 2, 3);
        pto::trsqrt(&mut dst, &src).unwrap();
        assert_floats(
            &dst.to_vec::<f32>().unwrap(),
            &[0.5, 2.0, INF, -INF, NAN, 0.0],
        );
        pto::trsqrt(&mut src, InPlace).unwrap();
        assert_floats(&src.to_vec::<f32>().unwrap()[..2], &[0.5, 2.0]);
    }
    assert_err(
        pto::trsqrt(
            &mut zeros(DType::BFloat16, 1, 1),
            &zeros(DType::BFloat16, 1, 1),
        ),
        ErrorKind::UnsupportedDType,
        "pto_trsqrt",
    );
    assert_err(
        pto::trsqrt(
            &mut zeros(DType::Float32, 1, 1),
            &zeros(DType::Float16, 1, 1),
        ),
        ErrorKind::DTypeMismatch,
        "pto_trsqrt",
    );
    assert_err(
        pto::trsqrt(
            &mut zeros(DType::Float32, 2, 2),
            &zeros(DType::Float32, 2, 1),
        ),
        ErrorKind::ShapeMismatch,
        "pto_trsqrt",
    );
}

#[test]
fn tprelu() {
    let src0 = f32_tile(DType::Float32, 1, 4, &[2.0, -3.0, 0.0, -0.5]);
    let src1 = f32_tile(DType::Float32, 1, 4, &[10.0, 0.5, 7.0, -2.0]);
    let mut dst = zeros(DType::Float32, 1, 4);
    pto::tprelu(&mut dst, &src0, &src1, None).unwrap();
    assert_floats(&dst.to_vec::<f32>().unwrap(), &[2.0, -1.5, 0.0, 1.0]);
    pto::tprelu(&mut dst, &src0, &src1, Some(&zeros(DType::Float32, 1, 4))).unwrap();
    assert_floats(&dst.to_vec::<f32>().unwrap(), &[2.0, -1.5, 0.0, 1.0]);
    // Integers wrap: -100 * 2 = -200 is 56 in i8; in place.
    let mut a = Tile::from_slice(DType::Int8, 1, 3, &[5i8, -3, -100]).unwrap();
    pto::tprelu(
        &mut a,
        InPlace,
        &Tile::from_slice(DType::Int8, 1, 3, &[9i8, 4, 2]).unwrap(),
        None,
    )
    .unwrap();
    assert_eq!(a.to_vec::<i8>().unwrap(), [5, -12, 56]);

    assert_err(
        pto::tprelu(&mut dst, &src0, &src1, Some(&src0)),
        ErrorKind::Aliasing,
        "pto_tprelu",
    );
    assert_err(
        pto::tprelu(&mut dst, &src0, &zeros(DType::Int32, 1, 4), None),
        ErrorKind::DTypeMismatch,
        "pto_tprelu",
    );
    assert_err(
        pto::tprelu(&mut dst, &src0, &zeros(DType::Float32, 1, 3), None),
        ErrorKind::ShapeMismatch,
        "pto_tprelu",
    );
}

#[test]
fn tcolexpanddiv() {
    for dtype in [DType::Float32, DType::Float16] {
        let mut dst = zeros(dtype, 2, 3);
        pto::tcolexpanddiv(
            &mut dst,
            &f32_tile(dtype, 2, 3, &[2.0, 9.0, 1.0, 4.0, -3.0, 0.0]),
            &f32_tile(dtype, 2, 3, &[2.0, 3.0, 0.0, 100.0, 100.0, 100.0]),
        )
        .unwrap();
        assert_floats(
            &dst.to_vec::<f32>().unwrap(),
            &[1.0, 3.0, INF, 2.0, -1.0, NAN],
        );
    }
    let mut s = f32_tile(DType::Float32, 2, 2, &[2.0, 4.0, 8.0, 16.0]);
    pto::tcolexpanddiv(&mut s, InPlace, InPlace).unwrap(); // every row divided by the original row 0
    assert_floats(&s.to_vec::<f32>().unwrap(), &[1.0, 1.0, 4.0, 4.0]);

    let src0 = f32_tile(DType::Float32, 2, 2, &[2.0, 4.0, 6.0, 8.0]);
    let mut row = f32_tile(DType::Float32, 1, 2, &[2.0, 4.0]);
    let mut dst = zeros(DType::Float32, 2, 2);
    pto::tcolexpanddiv(&mut dst, &src0, &row).unwrap();
    assert_floats(&dst.to_vec::<f32>().unwrap(), &[1.0, 1.0, 3.0, 2.0]);
    row.set_valid(1, 1).unwrap();
    assert_err(
        pto::tcolexpanddiv(&mut dst, &src0, &row),
        ErrorKind::ShapeMismatch,
        "pto_tcolexpanddiv",
    );
    let mut i = zeros(DType::Int8, 2, 2);
    assert_err(
        pto::tcolexpanddiv(&mut i, InPlace, InPlace),
        ErrorKind::UnsupportedDType,
        "pto_tcolexpanddiv",
    );
}

#[test]
fn tpartadd() {
    let mut src0 = f32_tile(DType::Float32, 2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let mut src1 = f32_tile(DType::Float32, 2, 3, &[10.0, 20.0, 30.0, 40.0, 50.0, 60.0]);
    src1.set_valid(1, 2).unwrap();
    let mut dst = f32_tile(DType::Float32, 2, 3, &[-1.0; 6]);
    pto::tpartadd(&mut dst, &src0, &src1).unwrap();
    assert_floats(
        &dst.to_vec::<f32>().unwrap(),
        &[11.0, 22.0, 3.0, 4.0, 5.0, 6.0],
    );
    // Only dst's valid region is written.
    dst.write(&[-1.0f32; 6]).unwrap();
    dst.set_valid(1, 3).unwrap();
    src0.set_valid(1, 3).unwrap();
    pto::tpartadd(&mut dst, &src1, &src0).unwrap();
    assert_floats(
        &dst.to_vec::<f32>().unwrap(),
        &[11.0, 22.0, 3.0, -1.0, -1.0, -1.0],
    );
    // Integers wrap.
    let mut u = Tile::from_slice(DType::Uint16, 1, 2, &[u16::MAX, 1]).unwrap();
    pto::tpartadd(&mut u, InPlace, InPlace).unwrap();
    assert_eq!(u.to_vec::<u16>().unwrap(), [65534, 2]);

    let mut d = zeros(DType::Float32, 2, 2);
    let mut x = zeros(DType::Float32, 2, 2);
    let mut y = zeros(DType::Float32, 2, 2);
    x.set_valid(1, 2).unwrap();
    y.set_valid(2, 1).unwrap();
    assert_err(
        pto::tpartadd(&mut d, &x, &y),
        ErrorKind::ShapeMismatch,
        "pto_tpartadd",
    );
    assert_err(
        pto::tpartadd(&mut d, &x, &zeros(DType::Int8, 2, 2)),
        ErrorKind::DTypeMismatch,
        "pto_tpartadd",
    );
}

/// pto_last_error is per thread: concurrent failures keep their own messages.
#[test]
fn errors_from_many_threads() {
    let threads: Vec<_> = (0..8)
        .map(|g| {
            std::thread::spawn(move || {
                let mut dst = zeros(DType::Float32, 2, 2);
                let other = zeros(DType::Float32, 2, 2);
                let bad = zeros(DType::Int16, 2, 2);
                for i in 0..200 {
                    if (i + g) % 2 == 0 {
                        assert_err(
                            pto::trsqrt(&mut dst, &bad),
                            ErrorKind::DTypeMismatch,
                            "pto_trsqrt",
                        );
                    } else {
                        assert_err(
                            pto::tpartadd(&mut dst, &other, &bad),
                            ErrorKind::DTypeMismatch,
                            "pto_tpartadd",
                        );
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

// ---------------------------------------------------- sharing and zero copy

#[test]
fn tiles_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Tile>();
    // One source read by several threads at once, each writing its own dst.
    let src = f32_tile(DType::Float32, 1, 4, &[1.0, 4.0, 16.0, 64.0]);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                let mut dst = zeros(DType::Float32, 1, 4);
                for _ in 0..100 {
                    pto::trsqrt(&mut dst, &src).unwrap();
                }
                assert_floats(dst.as_slice::<f32>().unwrap(), &[1.0, 0.5, 0.25, 0.125]);
            });
        }
    });
}

#[test]
fn slices_are_zero_copy() {
    let mut t = zeros(DType::Float32, 2, 2);
    t.as_mut_slice::<f32>()
        .unwrap()
        .copy_from_slice(&[1.0, 4.0, 16.0, 64.0]);
    assert_eq!(t.to_vec::<f32>().unwrap(), [1.0, 4.0, 16.0, 64.0]);
    let before = t.as_slice::<f32>().unwrap().as_ptr();
    pto::trsqrt(&mut t, InPlace).unwrap();
    let after = t.as_slice::<f32>().unwrap();
    assert_eq!(after.as_ptr(), before, "the slice is the tile's storage");
    assert_floats(after, &[1.0, 0.5, 0.25, 0.125]);
    assert_eq!(
        after.as_ptr() as usize % 64,
        0,
        "storage is 64-byte aligned"
    );

    let h = f32_tile(DType::Float16, 1, 2, &[1.0, -2.0]);
    assert_eq!(h.as_slice::<u16>().unwrap(), [0x3c00, 0xc000]);
    assert_err(h.as_slice::<f32>(), ErrorKind::DTypeMismatch, "as_slice");
    let mut i = zeros(DType::Int32, 1, 1);
    assert_err(
        i.as_mut_slice::<u32>(),
        ErrorKind::DTypeMismatch,
        "as_mut_slice",
    );
    i.as_mut_slice::<i32>().unwrap()[0] = -7;
    assert_eq!(i.to_vec::<i32>().unwrap(), [-7]);
}

// ------------------------------------------------------------- v0.2 API

#[test]
fn profiles_are_scoped_and_per_thread() {
    use pto::Profile;
    assert_eq!(Profile::A2A3.name(), "A2A3");
    assert_eq!(Profile::current(), Profile::Host);
    let mut t = zeros(DType::Uint8, 1, 2);
    pto::tpartadd(&mut t, InPlace, InPlace).unwrap();
    {
        let _guard = pto::set_profile(Profile::A2A3);
        assert_eq!(Profile::current(), Profile::A2A3);
        assert_err(
            pto::tpartadd(&mut t, InPlace, InPlace),
            ErrorKind::UnsupportedDType,
            "A2A3",
        );
        // Another thread still has its own (HOST) profile.
        std::thread::scope(|s| {
            s.spawn(|| {
                assert_eq!(Profile::current(), Profile::Host);
                let mut u = zeros(DType::Uint8, 1, 2);
                pto::tpartadd(&mut u, InPlace, InPlace).unwrap();
            });
        });
        pto::with_profile(Profile::A5, || {
            assert_eq!(Profile::current(), Profile::A5);
            pto::tpartadd(&mut t, InPlace, InPlace).unwrap();
        });
        assert_eq!(Profile::current(), Profile::A2A3);
    }
    assert_eq!(Profile::current(), Profile::Host);
    // Restored after a panic too.
    let caught = std::panic::catch_unwind(|| pto::with_profile(Profile::A5, || panic!("inside")));
    assert!(caught.is_err());
    assert_eq!(Profile::current(), Profile::Host);
}

#[test]
fn placed_tiles_in_owned_and_wrapped_buffers() {
    let mut buf = pto::Buffer::new(64).unwrap();
    assert_eq!(buf.len(), 64);
    {
        let mut a = buf.tile_at(DType::Float32, 1, 4, 0).unwrap();
        let mut b = buf.tile_at(DType::Float32, 1, 4, 16).unwrap();
        assert_eq!((b.offset(), b.rows(), b.cols()), (16, 1, 4));
        a.write(&[1.0f32, 4.0, 16.0, 64.0]).unwrap();
        pto::trsqrt(&mut b, &a).unwrap();
        assert_floats(&b.to_vec::<f32>().unwrap(), &[1.0, 0.5, 0.25, 0.125]);
        // Mixed operands: an owned source into a placed dst.
        let owned = f32_tile(DType::Float32, 1, 4, &[1.0, 1.0, 1.0, 1.0]);
        pto::tpartadd(&mut b, InPlace, &owned).unwrap();
        assert_floats(&b.to_vec::<f32>().unwrap(), &[2.0, 1.5, 1.25, 1.125]);
        // A partial overlap between dst and a source is refused.
        let mut c = buf.tile_at(DType::Float32, 1, 4, 8).unwrap();
        assert_err(pto::trsqrt(&mut c, &a), ErrorKind::Aliasing, "pto_trsqrt");
        assert_err(
            buf.tile_at(DType::Float32, 1, 16, 8),
            ErrorKind::OutOfRange,
            "pto_tile_create_at",
        );
        assert_err(
            buf.tile_at(DType::Float32, 1, 1, 2),
            ErrorKind::InvalidArgument,
            "pto_tile_create_at",
        );
    }
    // With the tiles gone, the bytes are the buffer's.
    assert_eq!(buf.as_bytes()[16..20], 2.0f32.to_ne_bytes());
    buf.as_bytes_mut()[0..4].copy_from_slice(&9.0f32.to_ne_bytes());
    assert_eq!(
        buf.tile_at(DType::Float32, 1, 1, 0)
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        [9.0]
    );

    // Over the caller's memory: results land there, zero-copy.
    let mut memory = vec![0u8; 8];
    {
        let wrapped = pto::Buffer::wrap(&mut memory).unwrap();
        let mut t = wrapped.tile_at(DType::Int16, 1, 4, 0).unwrap();
        t.write(&[1i16, 2, 3, 4]).unwrap();
        pto::tpartadd(&mut t, InPlace, InPlace).unwrap();
    }
    let words: Vec<i16> = memory
        .chunks(2)
        .map(|c| i16::from_ne_bytes([c[0], c[1]]))
        .collect();
    assert_eq!(words, [2, 4, 6, 8]);
    assert_err(
        pto::Buffer::new(0),
        ErrorKind::InvalidArgument,
        "pto_buffer_create",
    );
    assert_err(
        pto::Buffer::wrap(&mut []),
        ErrorKind::InvalidArgument,
        "pto_buffer_wrap",
    );
}

#[test]
fn tsel_picks_by_the_mask() {
    let a = f32_tile(
        DType::Float32,
        1,
        9,
        &[1.0, 5.0, -2.0, 4.0, 3.0, 0.0, 7.0, 8.0, 9.0],
    );
    let b = f32_tile(
        DType::Float32,
        1,
        9,
        &[2.0, 4.0, -1.0, 0.0, 3.0, -0.0, 0.0, 9.0, 8.0],
    );
    let mut mask = zeros(DType::Uint8, 1, 2);
    pto::tcmp(&mut mask, &a, &b, CmpMode::Gt).unwrap();
    let mut dst = zeros(DType::Float32, 1, 9);
    pto::tsel(&mut dst, &mask, &a, &b, None).unwrap();
    assert_floats(
        &dst.to_vec::<f32>().unwrap(),
        &[2.0, 5.0, -1.0, 4.0, 3.0, -0.0, 7.0, 9.0, 9.0],
    );
    pto::tsel(&mut dst, &mask, &b, &a, None).unwrap();
    assert_floats(
        &dst.to_vec::<f32>().unwrap(),
        &[1.0, 4.0, -2.0, 0.0, 3.0, 0.0, 0.0, 8.0, 8.0],
    );
    let other = zeros(DType::Float32, 1, 9);
    assert_err(
        pto::tsel(&mut dst, &other, &a, &b, None),
        ErrorKind::UnsupportedDType,
        "mask",
    );
}

// ------------------------------------------------------------ data movement

#[test]
fn textract_tgather_tsetval_tgetval() {
    let src = Tile::from_slice(DType::Int32, 3, 4, &[0i32, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23]).unwrap();
    let mut dst = zeros(DType::Int32, 2, 2);
    pto::textract(&mut dst, &src, 1, 2).unwrap();
    assert_eq!(dst.to_vec::<i32>().unwrap(), vec![12, 13, 22, 23]);
    assert_err(pto::textract(&mut dst, &src, 2, 0), ErrorKind::OutOfRange, "window");

    let idx = Tile::from_slice(DType::Uint32, 1, 4, &[11u32, 0, 5, 5]).unwrap();
    let mut g = zeros(DType::Int32, 1, 4);
    pto::tgather(&mut g, &src, &idx, None).unwrap();
    assert_eq!(g.to_vec::<i32>().unwrap(), vec![23, 0, 11, 11]);
    let bad = Tile::from_slice(DType::Uint32, 1, 4, &[12u32, 0, 0, 0]).unwrap();
    assert_err(pto::tgather(&mut g, &src, &bad, None), ErrorKind::OutOfRange, "indices (0, 0) is 12");
    assert_eq!(g.to_vec::<i32>().unwrap(), vec![23, 0, 11, 11]);
    // two sorted lists of (value, index) pairs merged until list 1 is used up
    let l0 = Tile::from_slice(DType::Float32, 1, 4, &[9.0f32, 0.0, 5.0, 0.0]).unwrap();
    let l1 = Tile::from_slice(DType::Float32, 1, 2, &[7.0f32, 0.0]).unwrap();
    let mut merged = zeros(DType::Float32, 1, 6);
    let counts = pto::tmrgsort_lists(&mut merged, &l0, &l1, None, None, None, true).unwrap();
    assert_eq!(counts, [1, 1, 0, 0]);
    assert_eq!(merged.to_vec::<f32>().unwrap()[..4], [9.0, 0.0, 7.0, 0.0]);
    // the mask-pattern form: columns 1 and 3 of each row, packed; row 1 along Col
    let mut m = zeros(DType::Int32, 3, 2);
    pto::tgather_mask(&mut m, &src, MaskPattern::P1010, GatherAxis::Row).unwrap();
    assert_eq!(m.to_vec::<i32>().unwrap(), vec![1, 3, 11, 13, 21, 23]);
    let mut r = zeros(DType::Int32, 1, 4);
    pto::tgather_mask(&mut r, &src, MaskPattern::P1010, GatherAxis::Col).unwrap();
    assert_eq!(r.to_vec::<i32>().unwrap(), vec![10, 11, 12, 13]);
    assert_err(pto::tgather_mask(&mut m, &src, MaskPattern::P1111, GatherAxis::Row), ErrorKind::ShapeMismatch, "12 elements");

    let mut h = zeros(DType::Float16, 2, 3);
    pto::tsetval(&mut h, 4, 1.0 / 3.0).unwrap();
    assert_eq!(pto::tgetval(&h, 4).unwrap(), 0.333251953125); // FLOAT16's nearest
    assert_eq!(pto::tgetval(&h, 0).unwrap(), 0.0);
    assert_err(pto::tgetval(&h, 6), ErrorKind::OutOfRange, "index 6");
    assert_err(pto::tsetval(&mut g, 0, 0.5), ErrorKind::InvalidArgument, "value 0.5");

    // trandom: Random123's philox4x32_10 known answer (counter 0, key 0)
    let mut r = zeros(DType::Uint32, 1, 8);
    pto::trandom(&mut r, [0, 0], [0, 0, 0, 0], 10).unwrap();
    assert_eq!(r.to_vec::<u32>().unwrap()[..4], [0x6627e8d5u32, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]);
    assert_err(pto::trandom(&mut r, [0, 0], [0, 0, 0, 0], 8), ErrorKind::InvalidArgument, "rounds");

    // timg2col: a 2x2 map of one channel under a 2x2 filter is one row of its
    // four pixels; the row past the matrix is the pad element.
    let mut fmap = zeros(DType::Uint32, 4, 1);
    fmap.write(&[1u32, 2, 3, 4]).unwrap();
    let mut col = zeros(DType::Uint32, 2, 4);
    let mut cfg = pto::Img2colConfig {
        fmap_h: 2, fmap_w: 2, pad_left: 0, pad_right: 0, pad_top: 0, pad_bottom: 0, pad_bits: 9,
        repeat_stride: 0, repeat_time: 1, repeat_mode: 0, stride_h: 1, stride_w: 1,
        dilation_h: 1, dilation_w: 1, filter_h: 2, filter_w: 2, channel_size: 1,
    };
    pto::setfmatrix(&cfg).unwrap();
    pto::set_img2col_padding(&cfg).unwrap();
    pto::set_img2col_rpt(&cfg).unwrap();
    pto::timg2col(&mut col, &fmap, &cfg, 0, 0).unwrap();
    assert_eq!(col.to_vec::<u32>().unwrap(), [1u32, 2, 3, 4, 9, 9, 9, 9]);
    cfg.stride_w = 0;
    assert_err(pto::timg2col(&mut col, &fmap, &cfg, 0, 0), ErrorKind::InvalidArgument, "strides 1x0");
    cfg.repeat_mode = 2;
    assert_err(pto::set_img2col_rpt(&cfg), ErrorKind::InvalidArgument, "repeat_mode 2");
    // Each field's range is its src/settings.def row's, checked by the C call.
    cfg.fmap_h = 0;
    assert_err(pto::setfmatrix(&cfg), ErrorKind::InvalidArgument, "config's fmap_h 0 is outside");
}

// Cube tiles keep their location and layout and exchange values row-major;
// under A2A3 and A5 the matrix multiply on the NPU's cube tiles gives HOST's
// bits on row-major tiles, and a row-major a is refused naming the profile.
#[test]
fn cube_tiles() {
    use pto::{Layout, Location, Profile};
    let (m, k, n) = (16u32, 32u32, 16u32);
    let a: Vec<f32> = (0..m * k).map(|i| (i % 7) as f32 - 3.5).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 5) as f32 * 0.25).collect();
    let ha = f32_tile(DType::BFloat16, m, k, &a);
    let hb = f32_tile(DType::BFloat16, k, n, &b);
    let mut host = zeros(DType::Float32, m, n);
    pto::tmatmul(&mut host, &ha, &hb).unwrap();
    let want: Vec<f32> = host.to_vec().unwrap();
    assert_eq!((host.location(), host.layout()), (Location::Vec, Layout::Nd));
    for (profile, left) in [(Profile::A2A3, Layout::Zz), (Profile::A5, Layout::Nz)] {
        let mut ca = Tile::new_cube(DType::BFloat16, m, k, Location::Left, left).unwrap();
        let mut cb = Tile::new_cube(DType::BFloat16, k, n, Location::Right, Layout::Zn).unwrap();
        let mut cc = Tile::new_cube(DType::Float32, m, n, Location::Acc, Layout::Nz).unwrap();
        assert_eq!((ca.location(), ca.layout()), (Location::Left, left));
        ca.write(&a).unwrap();
        cb.write(&b).unwrap();
        pto::with_profile(profile, || {
            let refused = pto::tmatmul(&mut cc, &ha, &cb);
            assert_err(refused, ErrorKind::InvalidArgument, "a must be a left");
            pto::tmatmul(&mut cc, &ca, &cb).unwrap();
        });
        let got: Vec<f32> = cc.to_vec().unwrap();
        assert_floats(&got, &want);
    }
    assert_err(
        Tile::new_cube(DType::Float32, 16, 12, Location::Left, Layout::Nz),
        ErrorKind::InvalidArgument,
        "do not tile 16x12",
    );
}

#[test]
fn tquant_forms_and_tdequant() {
    // x * scale per row, ties to even, saturated; NoTile for INT8_SYM's offset.
    let x = Tile::from_slice(
        DType::Float32,
        2,
        8,
        &[
            0.5f32, 1.5, 2.5, -2.5, 200.0, -200.0, 3.0, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5,
            100.0,
        ],
    )
    .unwrap();
    let mut scale = Tile::from_slice(DType::Float32, 2, 8, &[1.0f32; 16]).unwrap();
    scale.set_valid(2, 1).unwrap();
    let mut offset = Tile::from_slice(DType::Float32, 2, 8, &[10.0f32; 16]).unwrap();
    offset.set_valid(2, 1).unwrap();
    let mut q = zeros(DType::Int8, 2, 8);
    pto::tquant(&mut q, &x, &scale, pto::NoTile, None).unwrap();
    let got: Vec<i8> = q.to_vec().unwrap();
    assert_eq!(
        got,
        vec![0, 2, 2, -2, 127, -128, 3, 0, 0, 1, 2, 2, 2, 3, 4, 100]
    );
    let mut u = zeros(DType::Uint8, 2, 8);
    pto::tquant(&mut u, &x, &scale, &offset, None).unwrap();
    let got: Vec<u8> = u.to_vec().unwrap();
    assert_eq!(
        got,
        vec![10, 12, 12, 8, 210, 0, 13, 10, 10, 11, 12, 12, 12, 13, 14, 110]
    );
    assert_err(
        pto::tquant(&mut u, &x, &scale, pto::NoTile, None),
        ErrorKind::NullArgument,
        "INT8_ASYM",
    );
    let mut back = zeros(DType::Float32, 2, 8);
    pto::tdequant(&mut back, &u, &scale, &offset).unwrap_err();
    let qi = Tile::from_slice(
        DType::Int8,
        2,
        8,
        &got.iter()
            .map(|&v| (v as i32 - 128) as i8)
            .collect::<Vec<i8>>(),
    )
    .unwrap();
    pto::tdequant(&mut back, &qi, &scale, &offset).unwrap();
    let want: Vec<f32> = got.iter().map(|&v| (v as f32 - 128.0) - 10.0).collect();
    assert_floats(&back.to_vec::<f32>().unwrap(), &want);
}
