//! `cargo xtask dist`: release artifacts for one platform.
//!
//! Builds `puml`, `puml-lsp` and `puml-mcp` in release mode (for the host, or
//! `--target TRIPLE`; on x86_64 Linux `puml` statically, through
//! `scripts/static-bins.sh`) and writes to `target/dist/` (or `--out DIR`):
//!
//! - `puml-agent-pack-claude-VERSION-PLATFORM.tar.gz`: a Claude Code
//!   marketplace (`.claude-plugin/marketplace.json`) holding the plugin
//!   `puml-agent-pack/` with the binaries in `bin/PLATFORM/`;
//! - `puml-agent-pack-codex-VERSION-PLATFORM.tar.gz`: the same for Codex
//!   (`.agents/plugins/marketplace.json`, Codex's manifest and MCP file);
//! - `puml-VERSION-PLATFORM.tar.gz`, `puml-lsp-…`, `puml-mcp-…`: each binary
//!   alone with the license;
//! - `puml-VERSION.cdx.json`: a CycloneDX SBOM of `Cargo.lock`;
//! - `puml-vscode-VSCODE_TARGET.vsix`: the VS Code extension with the release
//!   `puml-lsp` inside (`server/VSCODE_TARGET/`, where the extension looks
//!   first), packed by `vsce package --target VSCODE_TARGET` (needs Node and
//!   npm; `editors/vscode`'s packages are installed with `npm ci` when
//!   missing; `--no-vsix` leaves it out, `--only-vsix` builds only it);
//! - `SHA256SUMS` over every file above.
//!
//! Each bundle also carries `SHA256SUMS` of its own files. After packing, the
//! unpacked bundles are validated like the source pack
//! (`validate-agent-pack` checks, the bundled binaries started through the
//! launchers) unless `--no-validate`.
//!
//! PLATFORM is the launchers' `<os>-<arch>`: `linux-x86_64`,
//! `linux-aarch64`, `macos-x86_64`, `macos-aarch64`, `windows-x86_64`;
//! VSCODE_TARGET is VS Code's name for the same platform: `linux-x64`,
//! `linux-arm64`, `darwin-x64`, `darwin-arm64`, `win32-x64`. A release job
//! runs `cargo xtask dist --target TRIPLE` on a runner of each platform
//! (see `editors/vscode/README.md`, "Platform packages").

use crate::agent_pack::{self, is_executable, list_files, set_executable, ValidateOptions};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

const BINARIES: [&str; 3] = ["puml", "puml-lsp", "puml-mcp"];

/// Rust target triple → the launchers' platform directory.
pub fn platform_of_triple(triple: &str) -> Result<String, String> {
    let arch = if triple.starts_with("x86_64") {
        "x86_64"
    } else if triple.starts_with("aarch64") || triple.starts_with("arm64") {
        "aarch64"
    } else {
        return Err(format!("unsupported architecture in {triple}"));
    };
    let os = if triple.contains("linux") {
        "linux"
    } else if triple.contains("apple-darwin") {
        "macos"
    } else if triple.contains("windows") {
        "windows"
    } else {
        return Err(format!("unsupported OS in {triple}"));
    };
    Ok(format!("{os}-{arch}"))
}

pub fn run(args: &[String]) -> Result<(), String> {
    let root = agent_pack::repo_root();
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let out = crate::corpus::flag_value(args, "--out")
        .map(PathBuf::from)
        .unwrap_or_else(|| target_dir.join("dist"));
    let triple = crate::corpus::flag_value(args, "--target").map(str::to_string);
    let skip_build = args.iter().any(|a| a == "--skip-build");
    let only_vsix = args.iter().any(|a| a == "--only-vsix");
    let with_vsix = only_vsix || !args.iter().any(|a| a == "--no-vsix");
    let validate = !args.iter().any(|a| a == "--no-validate");
    let version = workspace_version(&root)?;
    let (platform, exe) = match &triple {
        Some(t) => (platform_of_triple(t)?, if t.contains("windows") { ".exe" } else { "" }),
        None => (agent_pack::platform_dir(), std::env::consts::EXE_SUFFIX),
    };
    let release_dir = match &triple {
        Some(t) => target_dir.join(t).join("release"),
        None => target_dir.join("release"),
    };

    if !skip_build {
        // `puml` is linked statically where scripts/static-bins.sh can
        // (x86_64 Linux with glibc): it runs once per diagram, and the
        // dynamic loader was most of its start.
        let static_puml = !only_vsix
            && triple.as_deref().is_none_or(|t| t == "x86_64-unknown-linux-gnu")
            && Command::new(root.join("scripts/static-bins.sh"))
                .arg("--supported")
                .status()
                .is_ok_and(|s| s.success());
        let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cmd.args(["build", "--release", "--locked", "-p", "puml-lsp"]);
        if !only_vsix {
            cmd.args(["-p", "puml-server"]);
            if !static_puml {
                cmd.args(["-p", "puml-cli"]);
            }
        }
        cmd.arg("--bins");
        if let Some(t) = &triple {
            cmd.args(["--target", t]);
        }
        println!("== building release binaries ({platform})");
        let status = cmd.current_dir(&root).status().map_err(|e| format!("cargo: {e}"))?;
        if !status.success() {
            return Err("cargo build failed".into());
        }
        if static_puml {
            let mut cmd = Command::new(root.join("scripts/static-bins.sh"));
            cmd.arg("puml");
            if let Some(t) = &triple {
                cmd.args(["--target", t]);
            }
            let status = cmd
                .current_dir(&root)
                .status()
                .map_err(|e| format!("static-bins.sh: {e}"))?;
            if !status.success() {
                return Err("scripts/static-bins.sh failed".into());
            }
        }
    }
    let needed: &[&str] = if only_vsix { &["puml-lsp"] } else { &BINARIES };
    for bin in needed {
        let path = release_dir.join(format!("{bin}{exe}"));
        if !path.is_file() {
            return Err(format!(
                "{} is missing (build it, or drop --skip-build)",
                path.display()
            ));
        }
    }

    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    if only_vsix {
        std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
        let vsix = package_vsix(&root, &release_dir, exe, vscode_target(&platform)?, &out)?;
        println!("\n== {}", vsix.display());
        return Ok(());
    }
    // Make sure the pack's copies of skills/ and agents/ are current.
    agent_pack::sync(&["--check".to_string()])?;

    let staging = out.join("staging");
    std::fs::create_dir_all(&staging).map_err(|e| e.to_string())?;
    let mut archives = Vec::new();

    for host in [Host::Claude, Host::Codex] {
        let name = format!("puml-agent-pack-{}-{version}-{platform}", host.name());
        let bundle = staging.join(&name);
        assemble_bundle(&root, &bundle, host, &release_dir, &platform, exe)?;
        archives.push(tar_gz(&staging, &name, &out)?);
        if validate {
            validate_bundle(&bundle, host)?;
        }
    }
    for bin in BINARIES {
        let name = format!("{bin}-{version}-{platform}");
        let dir = staging.join(&name);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        copy_file(
            &release_dir.join(format!("{bin}{exe}")),
            &dir.join(format!("{bin}{exe}")),
            true,
        )?;
        copy_file(&root.join("agent-pack/LICENSE"), &dir.join("LICENSE"), false)?;
        archives.push(tar_gz(&staging, &name, &out)?);
    }
    if with_vsix {
        archives.push(package_vsix(&root, &release_dir, exe, vscode_target(&platform)?, &out)?);
    }
    let sbom = out.join(format!("puml-{version}.cdx.json"));
    std::fs::write(&sbom, sbom_json(&root, &version)?).map_err(|e| e.to_string())?;
    archives.push(sbom);

    let mut sums = String::new();
    for path in &archives {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        sums.push_str(&format!("{}  {}\n", sha256_hex(&bytes), file_name(path)));
    }
    std::fs::write(out.join("SHA256SUMS"), &sums).map_err(|e| e.to_string())?;
    std::fs::remove_dir_all(&staging).map_err(|e| e.to_string())?;

    println!("\n== {}", out.display());
    for path in &archives {
        let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        println!("  {:>12} bytes  {}", len, file_name(path));
    }
    println!(
        "  SHA256SUMS:\n{}",
        sums.lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n")
    );
    println!(
        "\nOther platforms: cargo xtask dist --target TRIPLE on a machine with that toolchain\n\
         (x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu, x86_64-apple-darwin,\n\
         aarch64-apple-darwin, x86_64-pc-windows-msvc); see agent-pack/README.md and\n\
         editors/vscode/README.md (each gives its puml-vscode-TARGET.vsix)."
    );
    Ok(())
}

/// The launchers' platform (`linux-x86_64`…) → VS Code's target name.
pub fn vscode_target(platform: &str) -> Result<&'static str, String> {
    Ok(match platform {
        "linux-x86_64" => "linux-x64",
        "linux-aarch64" => "linux-arm64",
        "macos-x86_64" => "darwin-x64",
        "macos-aarch64" => "darwin-arm64",
        "windows-x86_64" => "win32-x64",
        other => return Err(format!("no VS Code target for {other}")),
    })
}

/// Packs `editors/vscode` for one VS Code target with the release
/// `puml-lsp` at `server/TARGET/` (the extension's bundled-binary path):
/// `OUT/puml-vscode-TARGET.vsix`. The binary is staged in the extension's
/// folder only while `vsce` runs.
fn package_vsix(root: &Path, release_dir: &Path, exe: &str, target: &str, out: &Path) -> Result<PathBuf, String> {
    let extension = root.join("editors/vscode");
    let run = |program: &str, args: &[&str]| -> Result<(), String> {
        let status = Command::new(program)
            .args(args)
            .current_dir(&extension)
            .status()
            .map_err(|e| format!("{program}: {e} (the VS Code package needs Node and npm)"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("{program} {} failed", args.join(" ")))
        }
    };
    if !extension.join("node_modules/.bin/vsce").exists() {
        println!("== npm ci (editors/vscode)");
        run("npm", &["ci", "--no-audit", "--no-fund", "--loglevel=error"])?;
    }
    println!("== packaging the VS Code extension ({target})");
    let server = extension.join("server");
    if server.exists() {
        std::fs::remove_dir_all(&server).map_err(|e| format!("{}: {e}", server.display()))?;
    }
    let binary = format!("puml-lsp{exe}");
    copy_file(&release_dir.join(&binary), &server.join(target).join(&binary), true)?;
    let vsix = out.join(format!("puml-vscode-{target}.vsix"));
    let vsix_arg = vsix.to_string_lossy().into_owned();
    let packed = run("npm", &["run", "-s", "build"]).and_then(|()| {
        run(
            "node_modules/.bin/vsce",
            &[
                "package",
                "--target",
                target,
                "--no-dependencies",
                "--allow-missing-repository",
                "--no-rewrite-relative-links",
                "-o",
                &vsix_arg,
            ],
        )
    });
    let cleaned = std::fs::remove_dir_all(&server).map_err(|e| format!("{}: {e}", server.display()));
    packed?;
    cleaned?;
    Ok(vsix)
}

#[derive(Clone, Copy, PartialEq)]
enum Host {
    Claude,
    Codex,
}

impl Host {
    fn name(self) -> &'static str {
        match self {
            Host::Claude => "claude",
            Host::Codex => "codex",
        }
    }
}

/// Files of the source pack that a host's bundle leaves out.
fn excluded(host: Host, rel: &Path) -> bool {
    let first = rel
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    match host {
        Host::Claude => first == ".codex-plugin" || first == ".codex-mcp.json",
        Host::Codex => false,
    }
}

fn assemble_bundle(
    root: &Path,
    bundle: &Path,
    host: Host,
    release_dir: &Path,
    platform: &str,
    exe: &str,
) -> Result<(), String> {
    let src = root.join("agent-pack");
    let plugin = bundle.join(agent_pack::PLUGIN_NAME);
    for rel in list_files(&src)? {
        if excluded(host, &rel) || rel.starts_with("tests") {
            continue;
        }
        // Platform directories under bin/ are build outputs, never copied from the tree.
        if rel.starts_with("bin") && rel.components().count() > 2 {
            continue;
        }
        let from = src.join(&rel);
        copy_file(&from, &plugin.join(&rel), is_executable(&from))?;
    }
    let bin = plugin.join("bin").join(platform);
    let mut sums = String::new();
    for name in BINARIES {
        let file = format!("{name}{exe}");
        copy_file(&release_dir.join(&file), &bin.join(&file), true)?;
        let bytes = std::fs::read(bin.join(&file)).map_err(|e| e.to_string())?;
        sums.push_str(&format!("{}  bin/{platform}/{file}\n", sha256_hex(&bytes)));
    }
    std::fs::write(plugin.join("SHA256SUMS"), sums).map_err(|e| e.to_string())?;
    // The marketplace that makes the unpacked bundle installable.
    match host {
        Host::Claude => {
            let mut m: serde_json::Value = read_json(&root.join(".claude-plugin/marketplace.json"))?;
            m["plugins"][0]["source"] = format!("./{}", agent_pack::PLUGIN_NAME).into();
            write_json(&bundle.join(".claude-plugin/marketplace.json"), &m)?;
        }
        Host::Codex => {
            let mut m: serde_json::Value = read_json(&root.join(".agents/plugins/marketplace.json"))?;
            m["plugins"][0]["source"]["path"] = format!("./{}", agent_pack::PLUGIN_NAME).into();
            write_json(&bundle.join(".agents/plugins/marketplace.json"), &m)?;
            let mut c: serde_json::Value = read_json(&root.join(".claude-plugin/marketplace.json"))?;
            c["plugins"][0]["source"] = format!("./{}", agent_pack::PLUGIN_NAME).into();
            write_json(&bundle.join(".claude-plugin/marketplace.json"), &c)?;
        }
    }
    Ok(())
}

fn validate_bundle(bundle: &Path, host: Host) -> Result<(), String> {
    println!("\n== validating the unpacked {} bundle", host.name());
    let options = ValidateOptions {
        pack: bundle.join(agent_pack::PLUGIN_NAME),
        marketplace_root: Some(bundle.to_path_buf()),
        bin_dir: None,
        source_root: None,
        hosts: match host {
            Host::Claude => agent_pack::Hosts { codex: false },
            Host::Codex => agent_pack::Hosts { codex: true },
        },
    };
    let failures = agent_pack::validate_pack(&options);
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the {} bundle failed validation:\n  {}",
            host.name(),
            failures.join("\n  ")
        ))
    }
}

fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn write_json(path: &Path, value: &serde_json::Value) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())? + "\n";
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn copy_file(from: &Path, to: &Path, exec: bool) -> Result<(), String> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    std::fs::copy(from, to).map_err(|e| format!("{} → {}: {e}", from.display(), to.display()))?;
    set_executable(to, exec)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `OUT/NAME.tar.gz` of `DIR/NAME`, reproducible with GNU tar (sorted names,
/// fixed owner and time) and `gzip -n`.
fn tar_gz(dir: &Path, name: &str, out: &Path) -> Result<PathBuf, String> {
    let tar = out.join(format!("{name}.tar"));
    let gnu = Command::new("tar")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("GNU"))
        .unwrap_or(false);
    let mut cmd = Command::new("tar");
    if gnu {
        cmd.args(["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "--mtime=@0"]);
    }
    cmd.arg("-cf").arg(&tar).arg("-C").arg(dir).arg(name);
    let status = cmd.status().map_err(|e| format!("tar: {e}"))?;
    if !status.success() {
        return Err(format!("tar failed for {name}"));
    }
    let status = Command::new("gzip")
        .args(["-n", "-9", "-f"])
        .arg(&tar)
        .status()
        .map_err(|e| format!("gzip: {e}"))?;
    if !status.success() {
        return Err(format!("gzip failed for {name}"));
    }
    Ok(out.join(format!("{name}.tar.gz")))
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn workspace_version(root: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(root.join("Cargo.toml")).map_err(|e| e.to_string())?;
    let section = text
        .split("[workspace.package]")
        .nth(1)
        .ok_or("no [workspace.package]")?;
    section
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("version = ")
                .map(|v| v.trim_matches('"').to_string())
        })
        .ok_or_else(|| "no workspace version".to_string())
}

/// A CycloneDX 1.5 document listing every package of `Cargo.lock`.
pub fn sbom_json(root: &Path, version: &str) -> Result<String, String> {
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| e.to_string())?;
    let mut components = Vec::new();
    for block in lock.split("[[package]]").skip(1) {
        let field = |key: &str| {
            block.lines().find_map(|l| {
                l.strip_prefix(&format!("{key} = "))
                    .map(|v| v.trim_matches('"').to_string())
            })
        };
        let (Some(name), Some(ver)) = (field("name"), field("version")) else {
            continue;
        };
        let source = field("source");
        let mut c = serde_json::json!({
            "type": "library",
            "bom-ref": format!("pkg:cargo/{name}@{ver}"),
            "name": name,
            "version": ver,
            "purl": format!("pkg:cargo/{name}@{ver}"),
        });
        if let Some(sum) = field("checksum") {
            c["hashes"] = serde_json::json!([{"alg": "SHA-256", "content": sum}]);
        }
        match source.as_deref() {
            Some(s) if s.starts_with("registry+") => {
                c["externalReferences"] = serde_json::json!([{"type": "distribution", "url": format!("https://crates.io/crates/{name}/{ver}")}]);
            }
            None => c["scope"] = "required".into(),
            _ => {}
        }
        components.push(c);
    }
    let doc = serde_json::json!({
        "bomFormat": "CycloneDX",
        "specVersion": "1.5",
        "version": 1,
        "metadata": {
            "component": {
                "type": "application",
                "bom-ref": format!("pkg:cargo/puml@{version}"),
                "name": "puml",
                "version": version,
                "licenses": [{"expression": "MIT OR Apache-2.0"}],
            },
            "tools": [{"name": "cargo xtask dist"}],
            "properties": [{"name": "source", "value": "Cargo.lock (every locked package, build and dev dependencies included)"}],
        },
        "components": components,
    });
    serde_json::to_string_pretty(&doc)
        .map_err(|e| e.to_string())
        .map(|s| s + "\n")
}
