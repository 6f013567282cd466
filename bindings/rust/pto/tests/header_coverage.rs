//! Fails when include/pto_c.h declares a function that the safe crate
//! neither calls (`sys::NAME(`) nor lists below with the reason, so a new C
//! function cannot be left out of the binding unnoticed.

use std::fs;
use std::path::Path;

const NOT_CALLED: &[(&str, &str)] = &[
    (
        "pto_set_warning_handler",
        "board-mode warnings go to stderr: a Rust closure would be called from libpto's pool threads",
    ),
    (
        "pto_tile_buffer",
        "a PlacedTile borrows its Buffer (lifetime 'b), so the buffer is known statically",
    ),
    (
        "pto_program_check",
        "checks a module of several kernels without an entry, for pto-run --check; a program \
         here is made to run (created with an entry)",
    ),
];

#[test]
fn every_header_function_is_called() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let header = match fs::read_to_string(dir.join("../../../include/pto_c.h")) {
        Ok(h) => h,
        Err(_) => return, // a published crate has no header beside it
    };
    let mut src = String::new();
    for entry in fs::read_dir(dir.join("src")).unwrap() {
        src.push_str(&fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    let mut names = Vec::new();
    for decl in header.split("\nPTO_API ").skip(1) {
        let decl = &decl[..decl.find(';').unwrap_or(decl.len())];
        let head = &decl[..decl.find('(').expect("a function declaration")];
        let name = head
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap();
        names.push(name.to_owned());
    }
    assert!(names.len() >= 40, "found only {} declarations", names.len());
    let mut missing = Vec::new();
    for name in &names {
        let called = src.contains(&format!("sys::{}(", name));
        let listed = NOT_CALLED.iter().any(|(n, _)| n == name);
        if called == listed {
            missing.push(format!(
                "{}{}",
                name,
                if called { " (called, yet listed)" } else { "" }
            ));
        }
    }
    assert!(
        missing.is_empty(),
        "in pto_c.h but not called by the pto crate: {:?}",
        missing
    );
}
