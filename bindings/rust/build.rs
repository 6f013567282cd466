//! Finds libpto with `pkg-config pto` and generates the FFI declarations
//! from its header, pto_c.h, with the `bindgen` program (Debian package
//! `bindgen`; set BINDGEN to use another one). Nothing generated is committed:
//! the output lands in OUT_DIR.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    for var in ["PKG_CONFIG", "PKG_CONFIG_PATH", "BINDGEN", "LIBCLANG_PATH"] {
        println!("cargo:rerun-if-env-changed={}", var);
    }
    let pkg_config = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let cflags = capture(&pkg_config, &["--cflags", "pto"]);
    let libs = capture(&pkg_config, &["--libs", "pto"]);

    link(&libs);

    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let wrapper = out_dir.join("pto_wrapper.h");
    fs::write(&wrapper, "#include <pto_c.h>\n").expect("write pto_wrapper.h");
    for dir in include_dirs(&cflags) {
        let header = Path::new(&dir).join("pto_c.h");
        if header.exists() {
            println!("cargo:rerun-if-changed={}", header.display());
        }
    }

    let bindgen = env::var("BINDGEN").unwrap_or_else(|_| "bindgen".to_string());
    let output = out_dir.join("pto_sys.rs");
    let mut cmd = Command::new(&bindgen);
    cmd.arg(&wrapper)
        .args(["--allowlist-function", "pto_.*"])
        .args(["--allowlist-type", "pto_.*"])
        .args(["--allowlist-var", "PTO_.*"])
        // Enums as newtypes with associated constants: a value from C that
        // is outside the enum stays a value, never undefined behaviour.
        .args(["--newtype-enum", "pto_.*"])
        .arg("--no-layout-tests")
        // Quiet when rustfmt is not installed (the output is valid either way).
        .arg("--no-rustfmt-bindings")
        .arg("-o")
        .arg(&output)
        .arg("--")
        .args(cflags.split_whitespace());
    let status = cmd.status().unwrap_or_else(|e| {
        panic!(
            "cannot run `{}` ({}): install it (Debian: apt-get install bindgen libclang-dev) \
             or set BINDGEN to a bindgen executable",
            bindgen, e
        )
    });
    assert!(status.success(), "`{:?}` failed with {}", cmd, status);
}

/// Runs a program and returns its standard output, failing the build with a
/// clear message otherwise.
fn capture(program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `{} {}`: {} (install pkg-config)",
                program,
                args.join(" "),
                e
            )
        });
    if !out.status.success() {
        panic!(
            "`{} {}` failed: {}\nis libpto installed, or PKG_CONFIG_PATH set to its build tree \
             (BUILD/pkgconfig)?",
            program,
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    String::from_utf8(out.stdout)
        .expect("pkg-config output is UTF-8")
        .trim()
        .to_string()
}

/// Turns `pkg-config --libs` into cargo link instructions. An rpath (the
/// uninstalled build tree has one) applies to this crate's tests and examples.
fn link(libs: &str) {
    for flag in libs.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={}", dir);
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={}", lib);
        } else if flag.starts_with("-Wl,-rpath") {
            println!("cargo:rustc-link-arg={}", flag);
        }
    }
}

fn include_dirs(cflags: &str) -> Vec<String> {
    cflags
        .split_whitespace()
        .filter_map(|f| f.strip_prefix("-I"))
        .map(str::to_string)
        .collect()
}
