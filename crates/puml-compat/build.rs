//! Links the `puml-plantuml` binary (the drop-in `plantuml` command that
//! tools run once per diagram) as a position-dependent executable on
//! x86_64 Linux, as `crates/puml-cli/build.rs` does for `puml`: the loader
//! then maps the file as it is instead of applying the relative
//! relocations of a position-independent binary at every start. Only this
//! crate's binaries are linked so (`rustc-link-arg-bins`): the library
//! (also built for wasm32), tests and dependants keep the defaults.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if arch == "x86_64" && os == "linux" && env == "gnu" {
        // Passed to the linker itself: the compiler driver's `-no-pie`
        // would also pick the executable start files.
        println!("cargo:rustc-link-arg-bins=-Wl,--no-pie");
    }
}
