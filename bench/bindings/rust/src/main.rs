//! The Rust row of bench/bindings/run.sh (best of 31 rounds), printed as "rust CASE NS".

use pto::{DType, Tile};
use std::time::Instant;

fn run(name: &str, n: u32, iters: u32) {
    let mut dst = Tile::new(DType::Float32, n, n).unwrap();
    let mut src = Tile::new(DType::Float32, n, n).unwrap();
    for (i, v) in src.as_mut_slice::<f32>().unwrap().iter_mut().enumerate() {
        *v = (i + 1) as f32;
    }
    let mut rounds: Vec<f64> = (0..31)
        .map(|_| {
            let t0 = Instant::now();
            for _ in 0..iters {
                pto::trsqrt(&mut dst, &src).unwrap();
            }
            t0.elapsed().as_nanos() as f64 / iters as f64
        })
        .collect();
    rounds.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("rust {} {:.1}", name, rounds[0]);
}

fn main() {
    run("trsqrt_1x1", 1, 200_000);
    run("trsqrt_64x64", 64, 2_000);
}
