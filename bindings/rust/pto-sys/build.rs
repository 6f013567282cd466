//! Finds libpto with pkg-config (the `pkg-config` crate: `pkg-config pto`,
//! honouring PKG_CONFIG_PATH) and links it. The FFI declarations are the
//! committed `src/bindings.rs`, so neither bindgen nor libclang is needed;
//! with the `bindgen` feature they are regenerated from the installed
//! `pto_c.h` into OUT_DIR instead.
//!
//! With DOCS_RS set (docs.rs, or any documentation-only build) nothing is
//! probed or linked, so the docs build without libpto.

fn main() {
    println!("cargo:rerun-if-env-changed=DOCS_RS");
    println!("cargo:rerun-if-env-changed=PTO_NO_PKG_CONFIG");
    if std::env::var_os("DOCS_RS").is_some() {
        return;
    }
    let library = match pkg_config::Config::new()
        .atleast_version("0.6.0")
        .probe("pto")
    {
        Ok(library) => library,
        Err(e) => panic!(
            "\n\npto-sys: libpto not found by pkg-config ({})\n\
             Install libpto (its README: meson setup ... && meson install), and if its prefix \
             is not a system one set PKG_CONFIG_PATH to the directory of its pto.pc, e.g. \
             PREFIX/lib/x86_64-linux-gnu/pkgconfig on Debian.\n\n",
            e
        ),
    };
    // Tell dependent crates' build scripts where the header is
    // (DEP_PTO_INCLUDE), as the links convention does.
    if let Some(dir) = library.include_paths.first() {
        println!("cargo:include={}", dir.display());
    }
    #[cfg(feature = "bindgen")]
    generate(&library.include_paths);
}

#[cfg(feature = "bindgen")]
fn generate(include_paths: &[std::path::PathBuf]) {
    let header = include_paths
        .iter()
        .map(|dir| dir.join("pto_c.h"))
        .find(|p| p.exists())
        .expect("pto_c.h not found in pkg-config's include paths");
    println!("cargo:rerun-if-changed={}", header.display());
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("bindings.rs");
    bindgen::Builder::default()
        .header(header.to_string_lossy())
        .allowlist_function("pto_.*")
        .allowlist_type("pto_.*")
        .allowlist_var("PTO_.*")
        .newtype_enum("pto_.*")
        .layout_tests(false)
        .generate()
        .expect("bindgen failed on pto_c.h")
        .write_to_file(out)
        .expect("write bindings.rs");
}
