//! `cargo xtask bench-serve`: `puml serve` against PlantUML's own server
//! (PicoWeb, from the jar) in the same run, on the same machine and the same
//! URL: requests per second with concurrent clients, and per-request p50/p99
//! (a fresh connection per request for both: PicoWeb does not keep
//! connections alive). Then `puml-plantuml -tsvg -pipe` against
//! `java -jar plantuml.jar -tsvg -pipe` as whole processes.
//! Targets: ≥ 20× PicoWeb's throughput with p99 ≤ 5 ms; the command ≥ 100×.
//!
//! Then the memory of a burst against the release `puml serve` process:
//! 32 concurrent clients mixing ordinary diagrams with a 20,000-message PNG
//! (refused as too large), then three 20,000-message SVGs one after the
//! other; its resident memory before, at the peak and after each
//! (`--burst-only` runs just this).

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

    if args.iter().any(|a| a == "--burst-only") {
        return burst(&root, &text);
    }
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
    burst(&root, &text)
}

/// Concurrent clients of the burst, and requests each sends.
const BURST_CLIENTS: usize = 32;
const BURST_REQUESTS_EACH: usize = 40;
/// Every this many requests a client sends the large PNG.
const LARGE_EVERY: usize = 10;

/// Resident memory of process `pid`, in MiB (Linux; `None` elsewhere).
fn resident_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// One POST of `body` to `path`: the status, or `None` when the connection failed.
fn post(addr: SocketAddr, path: &str, body: &str) -> Option<u16> {
    use std::io::{BufRead, BufReader, Read};
    let mut stream = std::net::TcpStream::connect(addr).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(120))).ok()?;
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body.as_bytes()).ok()?;
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let status = line.split_whitespace().nth(1)?.parse().ok()?;
    let mut rest = Vec::new();
    reader.read_to_end(&mut rest).ok()?;
    Some(status)
}

/// The burst against a `puml serve` process of its own (its memory is the
/// server's alone): resident memory before, at the peak, and after.
fn burst(root: &std::path::Path, ordinary: &str) -> Result<(), String> {
    let puml = crate::corpus::build_release_binary(root, "puml")?;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let mut server = Command::new(&puml)
        .args(["serve", "--listen", &addr.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", puml.display()))?;
    let outcome = measure_burst(addr, server.id(), ordinary);
    let _ = server.kill();
    let _ = server.wait();
    outcome
}

fn measure_burst(addr: SocketAddr, pid: u32, ordinary: &str) -> Result<(), String> {
    let ordinary_path = format!("/plantuml/svg/{}", encode_plantuml(ordinary));
    let started = Instant::now();
    while crate::serve_common::get(addr, &ordinary_path).is_err() {
        if started.elapsed() > Duration::from_secs(10) {
            return Err("puml serve did not start".to_string());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    for _ in 0..50 {
        crate::serve_common::get(addr, &ordinary_path)?;
    }
    let mut large = String::from("@startuml\n");
    for i in 0..20_000 {
        large.push_str(&format!("Alice -> Bob : message {i}\n"));
    }
    large.push_str("@enduml\n");
    let before = resident_mib(pid).unwrap_or(f64::NAN);
    let done = std::sync::atomic::AtomicBool::new(false);
    let (peak, statuses) = std::thread::scope(|scope| {
        let sampler = scope.spawn(|| {
            let mut peak = 0f64;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(resident_mib(pid).unwrap_or(0.0));
                std::thread::sleep(Duration::from_millis(5));
            }
            peak
        });
        let clients: Vec<_> = (0..BURST_CLIENTS)
            .map(|client| {
                let (large, ordinary_path) = (&large, &ordinary_path);
                scope.spawn(move || {
                    (0..BURST_REQUESTS_EACH)
                        .map(|i| {
                            if (i + client) % LARGE_EVERY == 0 {
                                post(addr, "/plantuml/png", large)
                            } else {
                                crate::serve_common::get(addr, ordinary_path).ok().map(|r| r.status)
                            }
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let statuses: Vec<Option<u16>> = clients.into_iter().flat_map(|c| c.join().unwrap_or_default()).collect();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        (sampler.join().unwrap_or(0.0), statuses)
    });
    std::thread::sleep(Duration::from_secs(1));
    let after = resident_mib(pid).unwrap_or(f64::NAN);
    let failed = statuses.iter().filter(|s| s.is_none()).count();
    let server_errors = statuses.iter().filter(|s| s.is_some_and(|s| s >= 500)).count();
    let refused = statuses
        .iter()
        .filter(|s| s.is_some_and(|s| (400..500).contains(&s)))
        .count();
    println!(
        "serve burst: {BURST_CLIENTS} clients, {} requests ({refused} large PNGs refused, {server_errors} 5xx, {failed} failed connections); resident memory before {before:.0} MiB, peak {peak:.0} MiB, 1 s after {after:.0} MiB",
        statuses.len()
    );
    let mut large_peak = 0f64;
    for _ in 0..3 {
        let status = post(addr, "/plantuml/svg", &large);
        if status != Some(200) {
            return Err(format!("a 20,000-message SVG answered {status:?}"));
        }
        large_peak = large_peak.max(resident_mib(pid).unwrap_or(0.0));
    }
    std::thread::sleep(Duration::from_secs(1));
    println!(
        "serve: three 20,000-message SVGs one after the other: resident memory after each up to {large_peak:.0} MiB, 1 s after {:.0} MiB",
        resident_mib(pid).unwrap_or(f64::NAN)
    );
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
