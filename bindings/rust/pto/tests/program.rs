//! Programs: snippets against the direct calls, a kernel on 1 and 3 blocks,
//! diagnostics with their position.

use std::collections::HashMap;

use pto::{DType, ErrorKind, ParamKind, PowAlgorithm, Profile, Program, Tile};

const PRELU_DPS: &str = "pto.tprelu ins(%src0, %src1 : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%dst : !pto.tile_buf<vec, 16x16xf32>)";

const POW_SSA: &str = "%dst = pto.tpow %base, %exp : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>";

/// examples/pto/prelu-rows.pto, the kernel that the Go, Java and Rust tests share.
const PRELU_KERNEL: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../examples/pto/prelu-rows.pto"));

/// n deterministic floats in [-lo, hi).
fn values(n: usize, seed: u32, lo: f32, hi: f32) -> Vec<f32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1664525).wrapping_add(1013904223);
            -lo + (lo + hi) * (x >> 8) as f32 / (1u32 << 24) as f32
        })
        .collect()
}

fn assert_bits(got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "element {}: {} vs {}", i, g, w);
    }
}

fn tile(values: &[f32]) -> Tile {
    Tile::from_slice(DType::Float32, 16, 16, values).unwrap()
}

#[test]
fn dps_snippet_matches_tprelu() {
    let p = Program::builder()
        .name("prelu.pto")
        .build(PRELU_DPS)
        .unwrap();
    assert_eq!(p.name(), "prelu.pto");
    assert_eq!(p.profile(), Profile::Host);
    assert_eq!(p.params().len(), 3);
    for prm in p.params() {
        assert_eq!(
            (prm.kind(), prm.dtype(), prm.rows(), prm.cols()),
            (ParamKind::Tile, DType::Float32, 16, 16)
        );
    }
    let src0_i = p.find("src0").unwrap();
    assert!(p.params()[src0_i].reads() && !p.params()[src0_i].writes());
    let dst_i = p.find("%dst").unwrap();
    assert!(p.params()[dst_i].writes());

    let src0 = tile(&values(256, 1, 4.0, 4.0));
    let src1 = tile(&values(256, 2, 1.0, 1.0));
    let mut want = Tile::new(DType::Float32, 16, 16).unwrap();
    pto::tprelu(&mut want, &src0, &src1, None).unwrap();

    // The caller's own dst, by name; src1 by position.
    let mut dst = Tile::new(DType::Float32, 16, 16).unwrap();
    {
        let mut args = p.args().unwrap();
        args.set("src0", &src0)
            .unwrap()
            .set(p.find("src1").unwrap(), &src1)
            .unwrap();
        args.set("dst", &mut dst).unwrap();
        assert!(p.run(&mut args).unwrap().is_empty());
    }
    assert_bits(
        dst.as_slice::<f32>().unwrap(),
        want.as_slice::<f32>().unwrap(),
    );

    // dst left unbound: run creates it and returns it; the set is reusable.
    let mut args = p.args().unwrap();
    args.set("src0", &src0).unwrap().set("src1", &src1).unwrap();
    for _ in 0..2 {
        let out: HashMap<String, Tile> = p.run(&mut args).unwrap();
        assert_eq!(out.len(), 1);
        assert_bits(
            out["dst"].as_slice::<f32>().unwrap(),
            want.as_slice::<f32>().unwrap(),
        );
    }
}

const PRELU_VALID_8: &str = "%dst = pto.tprelu %a, %b : !pto.tile<16x16xf32, valid=8x8>";

const PRELU_VALID_DYNAMIC: &str = "%dst = pto.tprelu %a, %b : !pto.tile<16x16xf32, valid=?x?>";

/// The top-left rows x cols elements of a 16-column tile, row by row.
fn valid_region(tile: &Tile, rows: usize, cols: usize) -> Vec<f32> {
    let all = tile.as_slice::<f32>().unwrap();
    (0..rows)
        .flat_map(|r| all[r * 16..r * 16 + cols].iter().copied())
        .collect()
}

#[test]
fn declared_valid_region() {
    let p = Program::new(PRELU_VALID_8).unwrap();
    assert_eq!(p.params().len(), 3);
    for prm in p.params() {
        assert_eq!(
            (prm.rows(), prm.cols(), prm.valid_rows(), prm.valid_cols()),
            (16, 16, Some(8), Some(8))
        );
    }

    // Full 16x16 inputs whose valid region is the declared one.
    let mut a = tile(&values(256, 5, 4.0, 4.0));
    let mut b = tile(&values(256, 6, 1.0, 1.0));
    a.set_valid(8, 8).unwrap();
    b.set_valid(8, 8).unwrap();
    let mut want = Tile::new(DType::Float32, 16, 16).unwrap();
    want.set_valid(8, 8).unwrap();
    pto::tprelu(&mut want, &a, &b, None).unwrap();
    let want_valid = valid_region(&want, 8, 8);

    // The created dst has the declared valid region.
    let mut full = Tile::new(DType::Float32, 16, 16).unwrap();
    {
        let mut args = p.args().unwrap();
        args.set("a", &a).unwrap().set("b", &b).unwrap();
        let out = p.run(&mut args).unwrap();
        let dst = &out["dst"];
        assert_eq!(
            (dst.rows(), dst.cols(), dst.valid_rows(), dst.valid_cols()),
            (16, 16, 8, 8)
        );
        assert_bits(&valid_region(dst, 8, 8), &want_valid);

        // A tile whose region differs from the declared one is refused.
        let err = args.set("dst", &mut full).map(|_| ()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ShapeMismatch);
    }

    let dyn_p = Program::new(PRELU_VALID_DYNAMIC).unwrap();
    for prm in dyn_p.params() {
        assert_eq!((prm.valid_rows(), prm.valid_cols()), (None, None));
    }
}

#[test]
fn ssa_snippet_matches_tpow() {
    let p = Program::new(POW_SSA).unwrap();
    let base = tile(&values(256, 3, 0.0, 8.0));
    let exp = tile(&values(256, 4, 3.0, 3.0));
    let tmp = Tile::new(DType::Float32, 16, 16).unwrap();
    let mut want = Tile::new(DType::Float32, 16, 16).unwrap();
    pto::tpow(&mut want, &base, &exp, &tmp, PowAlgorithm::Default).unwrap();
    let mut args = p.args().unwrap();
    args.set("base", &base).unwrap().set("exp", &exp).unwrap();
    let out = p.run(&mut args).unwrap();
    assert_bits(
        out["dst"].as_slice::<f32>().unwrap(),
        want.as_slice::<f32>().unwrap(),
    );
}

#[test]
fn kernel_on_one_and_three_blocks() {
    let p = Program::builder()
        .name("prelu_rows.pto")
        .build(PRELU_KERNEL)
        .unwrap();
    let kinds: Vec<ParamKind> = p.params().iter().map(|q| q.kind()).collect();
    assert_eq!(
        kinds,
        [
            ParamKind::Pointer,
            ParamKind::Pointer,
            ParamKind::Pointer,
            ParamKind::Int
        ]
    );
    assert!(p.params()[2].writes() && !p.params()[2].reads());
    let n = 7usize;
    let x = values(n * 64, 5, 3.0, 3.0);
    let s = values(n * 64, 6, 1.0, 1.0);
    let mut y1 = vec![0f32; n * 64];
    let mut y3 = vec![0f32; n * 64];
    {
        let mut args = p.args().unwrap();
        args.set("x", &x[..]).unwrap().set("s", &s).unwrap();
        args.set("y", &mut y1[..])
            .unwrap()
            .set("n", n as i64)
            .unwrap();
        assert!(p.run(&mut args).unwrap().is_empty());
    }
    {
        let mut args = p.args().unwrap();
        args.set(0, &x)
            .unwrap()
            .set(1, &s[..])
            .unwrap()
            .set(2, &mut y3)
            .unwrap()
            .set(3, n as i32)
            .unwrap();
        assert!(p.launch(3, &mut args).unwrap().is_empty());
    }
    assert_bits(&y3, &y1);
    // The same computation through the direct call, 4 rows at a time.
    let mut o = Tile::new(DType::Float32, 4, 16).unwrap();
    for r in 0..n {
        let a = Tile::from_slice(DType::Float32, 4, 16, &x[r * 64..(r + 1) * 64]).unwrap();
        let b = Tile::from_slice(DType::Float32, 4, 16, &s[r * 64..(r + 1) * 64]).unwrap();
        pto::tprelu(&mut o, &a, &b, None).unwrap();
        assert_bits(&y1[r * 64..(r + 1) * 64], o.as_slice::<f32>().unwrap());
    }
}

#[test]
fn errors_carry_the_position() {
    let err = Program::builder()
        .name("bad.pto")
        .build("pto.tfoo ins()")
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert_eq!((err.line(), err.column()), (Some(1), Some(1)));
    assert!(err.message().starts_with("bad.pto:1:1: error: "), "{}", err);
    let err = Program::new("\n\n  pto.tfoo ins()").unwrap_err();
    assert_eq!((err.line(), err.column()), (Some(3), Some(3)));
    assert!(
        err.message().starts_with("<string>:3:3: error: "),
        "{}",
        err
    );

    let p = Program::builder()
        .name("k.pto")
        .build(PRELU_KERNEL)
        .unwrap();
    let small = vec![0f32; 64];
    let mut out = vec![0f32; 64];
    let mut ints = vec![0i32; 64];
    {
        // A missing argument that the program reads.
        let mut args = p.args().unwrap();
        args.set("s", &small)
            .unwrap()
            .set("y", &mut out)
            .unwrap()
            .set("n", 1)
            .unwrap();
        let err = p.run(&mut args).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArgument);
        assert!(
            err.message().contains("%x is read but not bound"),
            "{}",
            err
        );
        assert_eq!(err.line(), None);
        // Unknown names, values of the wrong kind or element type, shared memory to write.
        assert_eq!(
            args.set("nope", 1).unwrap_err().kind(),
            ErrorKind::InvalidArgument
        );
        assert_eq!(
            args.set("n", 1.5).unwrap_err().kind(),
            ErrorKind::InvalidArgument
        );
        assert_eq!(
            args.set("x", &mut ints).unwrap_err().kind(),
            ErrorKind::DTypeMismatch
        );
        assert_eq!(
            args.set("y", &small).unwrap_err().kind(),
            ErrorKind::InvalidArgument
        );
        // A run-time fault, with its position: n larger than the arrays.
        args.set("x", &small).unwrap().set("n", 2).unwrap();
        let err = p.run(&mut args).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::OutOfRange);
        assert!(
            err.line().unwrap() > 1 && err.message().starts_with("k.pto:"),
            "{}",
            err
        );
    }
}

#[test]
fn profiles_names_and_threads() {
    let p = Program::builder()
        .profile(Profile::A5)
        .build(PRELU_DPS)
        .unwrap();
    assert_eq!(p.profile(), Profile::A5);
    assert_eq!(Profile::current(), Profile::Host);
    assert_eq!(DType::Float16.to_string(), "FLOAT16");
    // One program, runs from several threads.
    let p = Program::new(POW_SSA).unwrap();
    let base = tile(&values(256, 7, 0.0, 4.0));
    let exp = tile(&values(256, 8, 2.0, 2.0));
    std::thread::scope(|sc| {
        for _ in 0..2 {
            sc.spawn(|| {
                let mut args = p.args().unwrap();
                args.set("base", &base).unwrap().set("exp", &exp).unwrap();
                assert_eq!(p.run(&mut args).unwrap().len(), 1);
            });
        }
    });
}

/// examples/pto/entry-by-name.pto: two public functions and no `pto.entry`
/// mark, the entry chosen by name.
const TWO_PUBLIC: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../examples/pto/entry-by-name.pto"));

#[test]
fn entry_by_name_and_describe() {
    let err = Program::builder()
        .name("two.pto")
        .build(TWO_PUBLIC)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert!(
        err.message().contains("2 public functions (@fill, @twice)"),
        "{}",
        err
    );
    assert_eq!(
        Program::with_entry(TWO_PUBLIC, "two.pto", "")
            .unwrap_err()
            .kind(),
        ErrorKind::InvalidArgument
    );
    let err = Program::with_entry(TWO_PUBLIC, "two.pto", "nope").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert!(err.message().contains("no function @nope"), "{}", err);

    let p = Program::with_entry(TWO_PUBLIC, "two.pto", "twice").unwrap();
    assert_eq!(p.name(), "two.pto");
    let names: Vec<&str> = p.params().iter().map(|q| q.name()).collect();
    assert_eq!(names, ["p", "n"]);
    assert_eq!(p.params()[1].kind(), ParamKind::Int);
    let d = p.describe();
    assert!(
        d.contains("@twice(") && d.contains("(entry)") && d.contains("@fill("),
        "{}",
        d
    );
    let mut out = [0i32; 1];
    {
        let mut args = p.args().unwrap();
        args.set("p", &mut out[..]).unwrap().set("n", 21).unwrap();
        p.run(&mut args).unwrap();
    }
    assert_eq!(out[0], 42);

    // Through the builder, with a leading '@' and a profile: the other function.
    let q = Program::builder()
        .entry("@fill")
        .profile(Profile::A5)
        .build(TWO_PUBLIC)
        .unwrap();
    assert_eq!(q.params().len(), 1);
    assert_eq!(q.profile(), Profile::A5);
    assert!(
        q.describe().contains("@fill(%p: !pto.ptr<i32>)  (entry)"),
        "{}",
        q.describe()
    );
}
