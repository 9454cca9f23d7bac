//! `cargo xtask bench-serve`: `puml serve` against PlantUML's own server
//! (PicoWeb, from the jar) in the same run, on the same machine and the same
//! URL: requests per second with concurrent clients, and per-request p50/p99
//! (a fresh connection per request for both: PicoWeb does not keep
//! connections alive). Then `puml-plantuml -tsvg -pipe` against
//! `java -jar plantuml.jar -tsvg -pipe` as whole processes.
//! Targets: ≥ 20× PicoWeb's throughput with p99 ≤ 5 ms; the command ≥ 100×.

use crate::corpus::{flag_value, plantuml_jar, workspace_root};
use crate::serve_common::{get, start_picoweb, start_puml};
use puml_compat::encoding::encode_plantuml;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CLIENTS: usize = 4;

struct Load {
    per_second: f64,
    p50_ms: f64,
    p99_ms: f64,
    requests: usize,
}

pub fn run(args: &[String]) -> Result<(), String> {
    let root = workspace_root();
    let diagram_path = flag_value(args, "--diagram")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("test-data/examples/login.puml"));
    let seconds: f64 = flag_value(args, "--seconds")
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    let text = std::fs::read_to_string(&diagram_path).map_err(|e| format!("{}: {e}", diagram_path.display()))?;
    let path = format!("/plantuml/svg/{}", encode_plantuml(&text));
    println!(
        "bench-serve: {} ({} lines), GET /plantuml/svg/…, {CLIENTS} clients, {} core(s)",
        diagram_path.display(),
        text.lines().count(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );

    let puml = start_puml(2)?;
    let ours = load(puml, &path, 200, Duration::from_secs_f64(seconds))?;
    report("puml serve", &ours);

    let jar = plantuml_jar();
    let theirs = match &jar {
        Some(jar) => {
            let pico = start_picoweb(jar)?;
            // PicoWeb's first requests run in the JVM's interpreter: warm it up.
            let theirs = load(pico.addr, &path, 300, Duration::from_secs_f64(seconds.max(3.0)))?;
            report("PlantUML PicoWeb", &theirs);
            Some(theirs)
        }
        None => {
            println!("PlantUML: jar not installed (../shared/tools/plantuml-oracle --install): no ratio");
            None
        }
    };
    if let Some(theirs) = &theirs {
        let ratio = ours.per_second / theirs.per_second.max(f64::EPSILON);
        println!(
            "throughput ratio: {ratio:.1}× PicoWeb (target ≥ 20×: {}); puml p99 {:.2} ms (target ≤ 5 ms: {})",
            verdict(ratio >= 20.0),
            ours.p99_ms,
            verdict(ours.p99_ms <= 5.0)
        );
    }

    let command = crate::corpus::build_release_binary(&root, "puml-plantuml")?;
    let puml_runs = time_process(&command_line(&command, &[]), &text, 20)?;
    println!(
        "puml-plantuml -tsvg -pipe: median {:.1} ms per process (20 runs)",
        puml_runs
    );
    if let Some(jar) = &jar {
        let java_args = [
            "-Djava.awt.headless=true".to_string(),
            "-jar".into(),
            jar.display().to_string(),
        ];
        let java_runs = time_process(&command_line("java", &java_args), &text, 5)?;
        let ratio = java_runs / puml_runs.max(f64::EPSILON);
        println!(
            "java -jar plantuml.jar -tsvg -pipe: median {java_runs:.0} ms per process (5 runs); ratio {ratio:.0}× (target ≥ 100×: {})",
            verdict(ratio >= 100.0)
        );
    }
    Ok(())
}

fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "NOT met"
    }
}

fn report(name: &str, load: &Load) {
    println!(
        "{name}: {:.0} requests/s, p50 {:.2} ms, p99 {:.2} ms ({} requests)",
        load.per_second, load.p50_ms, load.p99_ms, load.requests
    );
}

/// `warmup` requests, then `CLIENTS` threads for `duration`.
fn load(addr: SocketAddr, path: &str, warmup: usize, duration: Duration) -> Result<Load, String> {
    for _ in 0..warmup {
        let reply = get(addr, path)?;
        if reply.status != 200 {
            return Err(format!("{addr}{path} answered {}", reply.status));
        }
    }
    let start = Instant::now();
    let mut latencies: Vec<f64> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..CLIENTS)
            .map(|_| {
                scope.spawn(move || {
                    let mut times = Vec::new();
                    while start.elapsed() < duration {
                        let begin = Instant::now();
                        match get(addr, path) {
                            Ok(reply) if reply.status == 200 && !reply.body.is_empty() => {
                                times.push(begin.elapsed().as_secs_f64() * 1000.0)
                            }
                            _ => return Err(format!("a request to {addr} failed")),
                        }
                    }
                    Ok(times)
                })
            })
            .collect();
        let mut all = Vec::new();
        for worker in workers {
            all.extend(worker.join().map_err(|_| "a client thread panicked".to_string())??);
        }
        Ok::<_, String>(all)
    })?;
    let elapsed = start.elapsed().as_secs_f64();
    latencies.sort_by(f64::total_cmp);
    let at = |q: f64| latencies[((latencies.len() as f64 - 1.0) * q).round() as usize];
    if latencies.is_empty() {
        return Err("no request completed".into());
    }
    Ok(Load {
        per_second: latencies.len() as f64 / elapsed,
        p50_ms: at(0.5),
        p99_ms: at(0.99),
        requests: latencies.len(),
    })
}

fn command_line(program: &(impl AsRef<std::ffi::OsStr> + ?Sized), args: &[String]) -> Command {
    let mut command = Command::new(program);
    command.args(args).args(["-tsvg", "-pipe"]);
    command
}

/// Median wall time (ms) of `runs` runs of `command` with `input` on stdin.
fn time_process(command: &Command, input: &str, runs: usize) -> Result<f64, String> {
    let mut times = Vec::new();
    for _ in 0..runs {
        let mut fresh = Command::new(command.get_program());
        fresh.args(command.get_args());
        let begin = Instant::now();
        let mut child = fresh
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {:?}: {e}", command.get_program()))?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(input.as_bytes()).map_err(|e| e.to_string())?;
        }
        let output = child.wait_with_output().map_err(|e| e.to_string())?;
        if !output.status.success() || !output.stdout.starts_with(b"<svg") {
            return Err(format!("{:?} failed ({})", command.get_program(), output.status));
        }
        times.push(begin.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}
