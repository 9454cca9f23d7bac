//! Links the `puml` binary as a position-dependent executable on x86_64
//! Linux. A tool that runs `puml` once per diagram pays its start each
//! time, and most of that start was the dynamic loader applying the
//! relative relocations of a position-independent 18 MB binary (every
//! vtable, string table and static pointer): linked with `--no-pie`, the
//! linker resolves them and the loader maps the file as it is. Only this
//! crate's binaries are linked so (`rustc-link-arg-bins`): libraries,
//! proc macros and tests keep the defaults, and no other crate rebuilds.
//! The figures: `cargo xtask bench-check` (process start against /bin/true).

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
