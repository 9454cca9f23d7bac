//! Layering rules that `Cargo.toml` can show: the compiler core and the
//! IDE layer depend on no protocol or CLI crate.

#[test]
fn core_crates_know_no_protocol() {
    let forbidden = [
        "serde_json",
        "rmcp",
        "tower-lsp",
        "tower-lsp-server",
        "lsp-types",
        "clap",
        "tokio",
        "schemars",
    ];
    let core = [
        "puml-syntax",
        "puml-sema",
        "puml-db",
        "puml-layout",
        "puml-fmt",
        "puml-ide",
    ];
    for krate in core {
        let path = format!("{}/../{krate}/Cargo.toml", env!("CARGO_MANIFEST_DIR"));
        let manifest = std::fs::read_to_string(&path).unwrap();
        let dependencies = manifest.split("[dependencies]").nth(1).unwrap_or("");
        let dependencies = dependencies.split("\n[").next().unwrap_or("");
        for name in forbidden {
            let uses = dependencies.lines().any(|l| {
                l.trim_start().starts_with(&format!("{name} "))
                    || l.trim_start().starts_with(&format!("{name}."))
                    || l.trim_start().starts_with(&format!("{name}="))
            });
            assert!(
                !uses,
                "{krate} depends on {name}: protocol and CLI crates belong to the glue layer"
            );
        }
    }
}

#[test]
fn syntax_knows_nothing_above_it() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../puml-syntax/Cargo.toml")).unwrap();
    for name in ["puml-sema", "puml-layout", "puml-render", "puml-ide", "salsa", "serde"] {
        assert!(
            !manifest.contains(&format!("\n{name}")),
            "puml-syntax must not depend on {name}"
        );
    }
}
