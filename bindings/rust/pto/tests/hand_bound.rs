//! The functions bound by hand beyond the rows of src/operations.def: the
//! cube modes changing a Float32 matrix multiply's bits on their profile, the
//! fixpipe's thread configuration read by tmov_fp, tquant_mx against values
//! worked by hand, mgather and mscatter over slices; each refusal with
//! libpto's sentence and nothing written; the settings per thread.

use pto::{Coalesce, DType, ErrorKind, Layout, Location, MxAlg, NoTile, Profile, RoundMode, Saturation, Tile};

/// 1 + 2^-20: 1.0 in TF32 (e8m10) and HF32 (e8m11).
const ONE_PLUS: f32 = 1.0 + 1.0 / 1048576.0;

fn assert_err<T: std::fmt::Debug>(r: pto::Result<T>, kind: ErrorKind, needle: &str) {
    let e = r.unwrap_err();
    assert_eq!(e.kind(), kind, "{}", e.message());
    assert!(
        e.message().contains(needle),
        "{:?} lacks {:?}",
        e.message(),
        needle
    );
}

/// a @ b on the profile's cube tiles: a all ONE_PLUS, b's row 0 all 1 (so c
/// holds a's values exactly without a mode).
fn cube_matmul(profile: Profile, left: Layout) -> Vec<f32> {
    let (m, k, n) = (16u32, 32u32, 16u32);
    let a = vec![ONE_PLUS; (m * k) as usize];
    let b: Vec<f32> = (0..k * n).map(|i| if i < n { 1.0 } else { 0.0 }).collect();
    let mut ca = Tile::new_cube(DType::Float32, m, k, Location::Left, left).unwrap();
    let mut cb = Tile::new_cube(DType::Float32, k, n, Location::Right, Layout::Zn).unwrap();
    let mut cc = Tile::new_cube(DType::Float32, m, n, Location::Acc, Layout::Nz).unwrap();
    ca.write(&a).unwrap();
    cb.write(&b).unwrap();
    pto::with_profile(profile, || pto::tmatmul(&mut cc, &ca, &cb)).unwrap();
    cc.to_vec().unwrap()
}

fn all(values: &[f32], want: f32) -> bool {
    values.iter().all(|&v| v == want)
}

#[test]
fn cube_modes_round_float32_inputs() {
    assert_eq!(pto::tf32_mode(), (false, RoundMode::Round));
    assert!(all(&cube_matmul(Profile::A5, Layout::Nz), ONE_PLUS));
    pto::set_tf32_mode(true, RoundMode::Rint).unwrap();
    assert_eq!(pto::tf32_mode(), (true, RoundMode::Rint));
    assert!(all(&cube_matmul(Profile::A5, Layout::Nz), 1.0));
    // Another thread keeps its own (off) mode.
    let other = std::thread::spawn(|| (pto::tf32_mode(), cube_matmul(Profile::A5, Layout::Nz)))
        .join()
        .unwrap();
    assert_eq!(other.0, (false, RoundMode::Round));
    assert!(all(&other.1, ONE_PLUS));
    assert_err(
        pto::set_tf32_mode(false, RoundMode::Floor),
        ErrorKind::InvalidArgument,
        "pto_set_tf32_mode: round mode 3",
    );
    assert_eq!(pto::tf32_mode(), (true, RoundMode::Rint)); // kept by the refusal
    pto::set_tf32_mode(false, RoundMode::Round).unwrap();
    assert!(all(&cube_matmul(Profile::A5, Layout::Nz), ONE_PLUS));
    // HF32 under A2A3.
    pto::set_hf32_mode(true, RoundMode::Round).unwrap();
    assert_eq!(pto::hf32_mode(), (true, RoundMode::Round));
    assert!(all(&cube_matmul(Profile::A2A3, Layout::Zz), 1.0));
    assert!(all(&cube_matmul(Profile::A5, Layout::Nz), ONE_PLUS)); // not A5's
    pto::set_hf32_mode(false, RoundMode::Round).unwrap();
    assert!(all(&cube_matmul(Profile::A2A3, Layout::Zz), ONE_PLUS));
    assert_err(
        pto::set_hf32_mode(true, RoundMode::Odd),
        ErrorKind::InvalidArgument,
        "pto_set_hf32_mode",
    );
}

#[test]
fn quant_configuration_feeds_the_fixpipe() {
    let mut values = vec![0.0f32; 16 * 32];
    values[..6].copy_from_slice(&[3.0, 5.0, -7.0, 300.0, -300.0, 1.25]);
    let mut acc = Tile::new_cube(DType::Float32, 16, 32, Location::Acc, Layout::Nz).unwrap();
    acc.write(&values).unwrap();
    let mut q = Tile::new(DType::Int8, 16, 32).unwrap();
    // x * 0.5, to nearest even, clamped to int8.
    pto::set_quant_scalar(0.5, DType::Int8).unwrap();
    pto::tmov_fp(&mut q, &acc, NoTile).unwrap();
    assert_eq!(
        q.as_slice::<i8>().unwrap()[..7],
        [2, 2, -4, 127, -128, 1, 0]
    );
    // The same with the fixpipe's relu: the negative products give 0.
    pto::tmov_fp_ex(&mut q, &acc, NoTile, pto::FIXPIPE_RELU).unwrap();
    assert_eq!(q.as_slice::<i8>().unwrap()[..7], [2, 2, 0, 127, 0, 1, 0]);
    assert_err(
        pto::tmov_fp_ex(&mut q, &acc, NoTile, 8),
        ErrorKind::InvalidArgument,
        "pto_tmov_fp_ex",
    );
    assert_err(
        pto::set_quant_scalar(1.0, DType::Float32),
        ErrorKind::UnsupportedDType,
        "pto_set_quant_scalar",
    );
    let mut fp = Tile::new_cube(DType::Float32, 1, 32, Location::Scaling, Layout::Nd).unwrap();
    let mut words = vec![0.0f32; 32];
    words[..4].copy_from_slice(&[0.25, 0.5, 1.0, 2.0]);
    fp.write(&words).unwrap();
    pto::set_quant_vector(&fp).unwrap();
    fp.write(&[0.0f32; 32]).unwrap(); // not seen: copied when set
    pto::tmov_fp(&mut q, &acc, NoTile).unwrap();
    assert_eq!(q.as_slice::<i8>().unwrap()[..4], [1, 2, -7, 127]);
    let vec_tile = Tile::new(DType::Float32, 1, 32).unwrap();
    assert_err(
        pto::set_quant_vector(&vec_tile),
        ErrorKind::InvalidArgument,
        "pto_set_quant_vector",
    );
    // A fresh thread has no configuration.
    let refused =
        std::thread::spawn(move || pto::tmov_fp(&mut q, &acc, NoTile).unwrap_err().kind())
            .join()
            .unwrap();
    assert_eq!(refused, ErrorKind::InvalidArgument);
}

#[test]
fn tquant_mx_hand_values() {
    // One block: max 3 has biased exponent 128, so E8M0 120 (OCP: less 8),
    // the scale 2^7; 3 -> 1.5 * 2^8 (E4M3 0x7C), 1 -> 0x70, 2 -> 0x78,
    // -0.5 -> -2^6 (0xE8), 0 -> 0.
    let mut values = [0.0f32; 32];
    values[..4].copy_from_slice(&[3.0, 1.0, 2.0, -0.5]);
    let src = Tile::from_slice(DType::Float32, 1, 32, &values).unwrap();
    let mut dst = Tile::new(DType::Uint8, 1, 32).unwrap();
    let mut exp = Tile::new(DType::Uint8, 1, 1).unwrap();
    let mut mx = Tile::new(DType::Float32, 1, 1).unwrap();
    let mut sc = Tile::new(DType::Float32, 1, 1).unwrap();
    pto::tquant_mx(
        &mut dst,
        &src,
        &mut exp,
        Some(&mut mx),
        Some(&mut sc),
        MxAlg::OcpFp8E4M3,
        1,
    )
    .unwrap();
    assert_eq!(
        dst.as_slice::<u8>().unwrap()[..5],
        [0x7C, 0x70, 0x78, 0xE8, 0]
    );
    assert_eq!(exp.as_slice::<u8>().unwrap()[0], 120);
    assert_eq!(
        (
            mx.as_slice::<f32>().unwrap()[0],
            sc.as_slice::<f32>().unwrap()[0]
        ),
        (3.0, 128.0)
    );
    // NV: 3 / 448 has exponent 119, rounded up to 120.
    pto::tquant_mx(&mut dst, &src, &mut exp, None, None, MxAlg::NvFp8E4M3, 1).unwrap();
    assert_eq!(exp.as_slice::<u8>().unwrap()[0], 120);
    assert_err(
        pto::with_profile(Profile::A2A3, || {
            pto::tquant_mx(&mut dst, &src, &mut exp, None, None, MxAlg::OcpFp8E4M3, 1)
        }),
        ErrorKind::UnsupportedDType,
        "pto_tquant_mx",
    );
    assert_err(
        pto::tquant_mx(&mut dst, &src, &mut exp, None, None, MxAlg::OcpFp8E4M3, 2),
        ErrorKind::InvalidArgument,
        "pto_tquant_mx",
    );
    assert_eq!(dst.as_slice::<u8>().unwrap()[0], 0x7C);
}

#[test]
fn hif4_hand_values() {
    // One group: 7 gives Ea 0xC0 (7/7 = 1) with Eb and Ec set in the first 8
    // and 4 (7 -> 1.75, 1 -> 0.25); -0.5 and 0.30078125 keep scale 1. b's
    // column 0 is 1.0 (Ea 0xC0, no Eb, Ec), column 1 zero: a b = 7.75.
    let mut values = [0.0f32; 64];
    values[0] = 7.0;
    values[1] = 1.0;
    values[8] = -0.5;
    values[9] = 0.30078125;
    let src = Tile::from_slice(DType::BFloat16, 1, 64, &values).unwrap();
    let mut dst = Tile::new(DType::Float4E1M2X2, 1, 32).unwrap();
    let mut exp = Tile::new(DType::Uint32, 1, 1).unwrap();
    pto::tquant_hif4(&mut dst, &src, &mut exp, None, None).unwrap();
    assert_eq!(exp.as_slice::<u32>().unwrap()[0], 0x101C0);
    let mut bv = [0.0f32; 128];
    for k in 0..64 {
        bv[2 * k] = 1.0;
    }
    let bsrc = Tile::from_slice(DType::BFloat16, 64, 2, &bv).unwrap();
    let mut b = Tile::new(DType::Float4E1M2X2, 64, 1).unwrap();
    pto::tcvt(&mut b, &bsrc, None, RoundMode::Rint, Saturation::Off).unwrap();
    let bs = Tile::from_slice(DType::Uint32, 1, 2, &[0xC0u32, 0xC0]).unwrap();
    let mut out = Tile::new(DType::Float32, 1, 2).unwrap();
    pto::tmatmul_mx_hif4(&mut out, &dst, &exp, &b, &bs).unwrap();
    assert_eq!(out.as_slice::<f32>().unwrap(), &[7.75, 0.0]);
    assert_err(
        pto::with_profile(Profile::A5, || {
            pto::tquant_hif4(&mut dst, &src, &mut exp, None, None)
        }),
        ErrorKind::UnsupportedDType,
        "pto_tquant_hif4",
    );
}

#[test]
fn mgather_and_mscatter() {
    let table: Vec<i32> = (0..16).map(|i| 10 * i).collect();
    let mut dst = Tile::new(DType::Int32, 1, 4).unwrap();
    let mut idx = Tile::from_slice(DType::Int32, 1, 4, &[3i32, 0, 15, 7]).unwrap();
    pto::mgather(&mut dst, &table, &idx, Coalesce::Elem).unwrap();
    assert_eq!(dst.as_slice::<i32>().unwrap(), [30, 0, 150, 70]);
    // Rows 2 and 0 of a 4 x 4 table.
    let mut rows = Tile::new(DType::Int32, 2, 4).unwrap();
    let ri = Tile::from_slice(DType::Int32, 2, 1, &[2i32, 0]).unwrap();
    pto::mgather(&mut rows, &table, &ri, Coalesce::Row).unwrap();
    assert_eq!(
        rows.as_slice::<i32>().unwrap(),
        [80, 90, 100, 110, 0, 10, 20, 30]
    );
    // An index past the table: refused, naming it; nothing written.
    idx.write(&[3i32, 0, 16, 7]).unwrap();
    let mut fresh = Tile::new(DType::Int32, 1, 4).unwrap();
    assert_err(
        pto::mgather(&mut fresh, &table, &idx, Coalesce::Elem),
        ErrorKind::OutOfRange,
        "pto_mgather: indices (0, 2) is 16",
    );
    assert_eq!(fresh.as_slice::<i32>().unwrap(), [0; 4]);
    let mut out = [0i32; 8];
    let src = Tile::from_slice(DType::Int32, 1, 4, &[1i32, 2, 3, 4]).unwrap();
    assert_err(
        pto::mscatter(&mut out, &src, &idx, Coalesce::Elem),
        ErrorKind::OutOfRange,
        "pto_mscatter",
    );
    assert_eq!(out, [0; 8]);
    idx.write(&[0i32, 5, 5, 2]).unwrap();
    pto::mscatter(&mut out, &src, &idx, Coalesce::Elem).unwrap(); // the last writer of 5 wins
    assert_eq!(out, [1, 0, 4, 0, 0, 3, 0, 0]);
    // A table of another type: libpto's refusal.
    let mut f = Tile::new(DType::Float32, 1, 4).unwrap();
    assert_err(
        pto::mgather(&mut f, &table, &idx, Coalesce::Elem),
        ErrorKind::DTypeMismatch,
        "pto_mgather",
    );
    // BFloat16 tables as u16 bits.
    let mut bf = Tile::new(DType::BFloat16, 1, 4).unwrap();
    idx.write(&[1i32, 0, 1, 0]).unwrap();
    pto::mgather(&mut bf, &[0x3F80u16, 0x4000], &idx, Coalesce::Elem).unwrap();
    assert_eq!(
        bf.as_slice::<u16>().unwrap(),
        [0x4000, 0x3F80, 0x4000, 0x3F80]
    );
}

#[test]
fn mgather_oob_and_mscatter_ex() {
    use pto::{GatherOob, ScatterAtomic, ScatterOob};
    let mut table = [10i32, 11, 12, 13, 14, 15];
    let mut dst = Tile::new(DType::Int32, 1, 4).unwrap();
    let idx = Tile::from_slice(DType::Int32, 1, 4, &[5i32, 6, 13, -1]).unwrap();
    pto::mgather_oob(&mut dst, &table, &idx, Coalesce::Elem, GatherOob::Wrap).unwrap();
    assert_eq!(dst.as_slice::<i32>().unwrap(), [15, 10, 11, 13]); // 4294967295 % 6 = 3
    pto::mgather_oob(&mut dst, &table, &idx, Coalesce::Elem, GatherOob::Zero).unwrap();
    assert_eq!(dst.as_slice::<i32>().unwrap(), [15, 0, 0, 0]);
    assert_err(
        pto::mgather_oob(&mut dst, &table, &idx, Coalesce::Elem, GatherOob::Undefined),
        ErrorKind::OutOfRange,
        "pto_mgather_oob: indices (0, 1) is 6",
    );
    let src = Tile::from_slice(DType::Int32, 1, 4, &[1i32, 2, 3, 4]).unwrap();
    pto::mscatter_ex(
        &mut table,
        &src,
        &idx,
        Coalesce::Elem,
        ScatterAtomic::Add,
        ScatterOob::Clamp,
    )
    .unwrap();
    assert_eq!(table, [10, 11, 12, 13, 14, 25]);
    let u = Tile::new(DType::Uint8, 1, 4).unwrap();
    assert_err(
        pto::mscatter_ex(
            &mut [0u8; 8],
            &u,
            &idx,
            Coalesce::Elem,
            ScatterAtomic::Max,
            ScatterOob::Skip,
        ),
        ErrorKind::UnsupportedDType,
        "pto_mscatter_ex: atomic max",
    );
}
