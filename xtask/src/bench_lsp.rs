//! `cargo xtask bench-lsp`: the language server's latencies on a generated
//! 5,000-line diagram, measured in process through the real service (the
//! JSON-RPC layer included): a one-character `didChange` to published
//! diagnostics, hover, completion, semantic tokens (delta) and formatting,
//! with a cold check of the same text as the baseline of the same run. And
//! the MCP server's repeated check of an unchanged source through its one
//! host, against the uncached check every call made before the host.
//! A benchmark: it prints, never fails on figures.

use crate::bench_render::big_diagram;
use futures::StreamExt;
use puml_ide::check::{check_source, CheckOptions};
use puml_sema::NoIncludes;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tower::{Service, ServiceExt};
use tower_lsp_server::jsonrpc::Request;

const URI: &str = "file:///bench/diagram.puml";

fn median_and_p99(mut times: Vec<Duration>) -> (f64, f64) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let median = ms(times[times.len() / 2]);
    let p99 = ms(times[(times.len() * 99 / 100).min(times.len() - 1)]);
    (median, p99)
}

/// `--edits-only N`: open the document and time N one-character edits,
/// nothing else (for instruction counts under `valgrind --tool=callgrind`:
/// the difference between two values of N is the cost of the edits).
pub fn run(args: &[String]) -> Result<(), String> {
    let edits_only = args
        .iter()
        .position(|a| a == "--edits-only")
        .map(|i| {
            args.get(i + 1)
                .and_then(|n| n.parse::<i64>().ok())
                .ok_or("--edits-only N")
        })
        .transpose()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(lsp(edits_only))?;
    if edits_only.is_none() {
        mcp();
    }
    Ok(())
}

struct Client {
    service: tower_lsp_server::LspService<puml_lsp::Backend>,
    diagnostics: tokio::sync::mpsc::UnboundedReceiver<Value>,
    next_id: i64,
}

impl Client {
    async fn request(&mut self, method: &'static str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let request = Request::build(method).id(self.next_id).params(params).finish();
        let service = self.service.ready().await.map_err(|e| e.to_string())?;
        let response = service.call(request).await.map_err(|e| e.to_string())?;
        let response = response.ok_or("no response")?;
        let (_, result) = response.into_parts();
        result.map_err(|e| format!("{method}: {e}"))
    }

    async fn notify(&mut self, method: &'static str, params: Value) -> Result<(), String> {
        let request = Request::build(method).params(params).finish();
        let service = self.service.ready().await.map_err(|e| e.to_string())?;
        service.call(request).await.map_err(|e| e.to_string())?;
        Ok(())
    }

    /// Waits for the diagnostics of `version`.
    async fn diagnostics_for(&mut self, version: i64) -> Result<Value, String> {
        loop {
            let params = self.diagnostics.recv().await.ok_or("server gone")?;
            if params["version"].as_i64() == Some(version) {
                return Ok(params);
            }
        }
    }
}

async fn lsp(edits_only: Option<i64>) -> Result<(), String> {
    let text = big_diagram(4_800);
    let lines = text.lines().count();
    let (service, socket) = puml_lsp::service();
    let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut socket = socket;
        while let Some(message) = socket.next().await {
            if message.method() == "textDocument/publishDiagnostics" {
                if let Some(params) = message.params() {
                    let _ = sender.send(params.clone());
                }
            }
        }
    });
    let mut client = Client {
        service,
        diagnostics: receiver,
        next_id: 0,
    };
    client
        .request(
            "initialize",
            json!({"capabilities": {}, "initializationOptions": {"puml": {"lint": false}}}),
        )
        .await?;
    client.notify("initialized", json!({})).await?;

    // Baseline: a cold check of the same text (no database), timed in
    // rounds interleaved with the edits below, so that both sample the
    // same moments of a shared machine's load.
    let cold_check = || {
        let start = Instant::now();
        std::hint::black_box(check_source(&text, &CheckOptions::default(), &NoIncludes));
        start.elapsed()
    };
    let mut cold = Vec::new();

    let start = Instant::now();
    client
        .notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": URI, "languageId": "puml", "version": 1, "text": text}}),
        )
        .await?;
    client.diagnostics_for(1).await?;
    println!(
        "lsp: {lines}-line diagram; open to first diagnostics {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );

    // A one-character edit inside a message label in the middle, typed and deleted.
    let line = lines / 2;
    let column = text.lines().nth(line).map_or(0, |l| l.len()) as u32;
    let mut edits = Vec::new();
    // Per round: its cold checks and its edits, for a ratio per round.
    let mut rounds: Vec<(Vec<Duration>, Vec<Duration>)> = Vec::new();
    const ROUNDS: i64 = 5;
    const COLD_PER_ROUND: usize = 3;
    let total = edits_only.unwrap_or(200);
    for version in 2..=total + 1 {
        if edits_only.is_none() && (version - 2) % (total / ROUNDS).max(1) == 0 {
            rounds.push(((0..COLD_PER_ROUND).map(|_| cold_check()).collect(), Vec::new()));
        }
        let change = if version % 2 == 0 {
            json!({"range": {"start": {"line": line, "character": column}, "end": {"line": line, "character": column}}, "text": "x"})
        } else {
            json!({"range": {"start": {"line": line, "character": column}, "end": {"line": line, "character": column + 1}}, "text": ""})
        };
        let start = Instant::now();
        client
            .notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]}),
            )
            .await?;
        client.diagnostics_for(version).await?;
        let elapsed = start.elapsed();
        edits.push(elapsed);
        if let Some((_, round)) = rounds.last_mut() {
            round.push(elapsed);
        }
    }
    if edits.is_empty() {
        return Ok(());
    }
    let mut round_ratios: Vec<f64> = Vec::new();
    for (round_cold, round_edits) in &rounds {
        cold.extend(round_cold);
        if !round_cold.is_empty() && !round_edits.is_empty() {
            round_ratios.push(median_and_p99(round_cold.clone()).0 / median_and_p99(round_edits.clone()).0);
        }
    }
    round_ratios.sort_by(f64::total_cmp);
    let cold_ms = if cold.is_empty() {
        f64::NAN
    } else {
        median_and_p99(cold.clone()).0
    };
    let (edit_ms, edit_p99) = median_and_p99(edits);
    println!(
        "lsp: one-character didChange → published diagnostics: median {edit_ms:.3} ms, p99 {edit_p99:.3} ms; cold check median {cold_ms:.2} ms ({} runs interleaved with the edits)",
        cold.len()
    );
    if let Some(median_ratio) = round_ratios.get(round_ratios.len() / 2) {
        println!(
            "lsp: edit vs cold check: {:.0}× faster (ratio of the medians); per round of {} edits: median {median_ratio:.0}×, min {:.0}×, max {:.0}×",
            cold_ms / edit_ms,
            total / ROUNDS,
            round_ratios[0],
            round_ratios[round_ratios.len() - 1]
        );
    }
    if edits_only.is_some() {
        return Ok(());
    }

    let position = json!({"line": 12, "character": 1});
    let cases: [(&str, &'static str, Value); 4] = [
        (
            "hover",
            "textDocument/hover",
            json!({"textDocument": {"uri": URI}, "position": position}),
        ),
        (
            "completion",
            "textDocument/completion",
            json!({"textDocument": {"uri": URI}, "position": {"line": 12, "character": 6}}),
        ),
        (
            "formatting",
            "textDocument/formatting",
            json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}}),
        ),
        (
            "semantic tokens (full)",
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": URI}}),
        ),
    ];
    for (name, method, params) in cases {
        let mut times = Vec::new();
        for _ in 0..50 {
            let start = Instant::now();
            client.request(method, params.clone()).await?;
            times.push(start.elapsed());
        }
        let (median, p99) = median_and_p99(times);
        println!("lsp: {name}: median {median:.3} ms, p99 {p99:.3} ms");
    }
    let full = client
        .request(
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": URI}}),
        )
        .await?;
    let mut previous = full["resultId"].as_str().unwrap_or_default().to_string();
    // The full answer after the same one-character edits: what a client
    // without deltas pays per edit (the re-analysis included), the figure
    // a delta must beat.
    let mut full_times = Vec::new();
    for version in 202..=251i64 {
        let change = json!({"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "text": if version % 2 == 0 { "x" } else { "" }});
        client
            .notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]}),
            )
            .await?;
        let start = Instant::now();
        client
            .request(
                "textDocument/semanticTokens/full",
                json!({"textDocument": {"uri": URI}}),
            )
            .await?;
        full_times.push(start.elapsed());
    }
    let (full_median, full_p99) = median_and_p99(full_times);
    println!("lsp: semantic tokens (full after an edit): median {full_median:.3} ms, p99 {full_p99:.3} ms");
    let full = client
        .request(
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": URI}}),
        )
        .await?;
    previous = full["resultId"].as_str().unwrap_or(&previous).to_string();
    let mut times = Vec::new();
    for version in 252..=301i64 {
        let change = json!({"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "text": if version % 2 == 0 { "x" } else { "" }});
        client
            .notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]}),
            )
            .await?;
        let start = Instant::now();
        let delta = client
            .request(
                "textDocument/semanticTokens/full/delta",
                json!({"textDocument": {"uri": URI}, "previousResultId": previous}),
            )
            .await?;
        times.push(start.elapsed());
        previous = delta["resultId"].as_str().unwrap_or_default().to_string();
    }
    let (median, p99) = median_and_p99(times);
    println!(
        "lsp: semantic tokens (delta after an edit): median {median:.3} ms, p99 {p99:.3} ms ({:.0} % of the full answer after an edit)",
        100.0 * median / full_median.max(f64::EPSILON)
    );
    Ok(())
}

/// The MCP server's repeated check: its one host against the uncached
/// check each call made before the host existed.
fn mcp() {
    let roots = match puml_mcp::security::Roots::new(&[std::env::temp_dir()]) {
        Ok(roots) => roots,
        Err(e) => {
            println!("mcp: skipped ({e:?})");
            return;
        }
    };
    let analyzer = puml_mcp::analyzer::Analyzer::default();
    for messages in [40, 4_800] {
        let text = big_diagram(messages);
        let lines = text.lines().count();
        let options = CheckOptions::default();
        let rounds = if messages > 1000 { 20 } else { 500 };
        let mut before = Vec::new();
        for _ in 0..rounds {
            let start = Instant::now();
            std::hint::black_box(check_source(&text, &options, &NoIncludes));
            before.push(start.elapsed());
        }
        let mut after = Vec::new();
        for _ in 0..rounds {
            let start = Instant::now();
            std::hint::black_box(analyzer.run(&roots, &text, &options, |a, f| a.check(f)));
            after.push(start.elapsed());
        }
        let (before_ms, _) = median_and_p99(before);
        let (after_ms, _) = median_and_p99(after);
        println!(
            "mcp: repeated puml_check of an unchanged {lines}-line source: {after_ms:.4} ms through the host, {before_ms:.3} ms uncached (before): {:.0}×",
            before_ms / after_ms
        );
    }
}
