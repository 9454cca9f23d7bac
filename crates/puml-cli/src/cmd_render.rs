//! `puml render`: files (or stdin) → SVG, PNG, PDF, text art or scene JSON.
//! Output naming: `name.svg` beside the input (or in `--out-dir`), and
//! `name-1.svg`, `name-2.svg`, … when a file holds several diagrams or
//! pages. Writes are atomic and never replace an input file.

use crate::io_util::{max_bytes_from_env, parallel_map, read_input_bytes, InputError};
use puml_ide::check::{decode_source, CheckOptions, LineColDiagnostic};
use puml_ide::render::{Format, RenderFailure, RenderOptions, RenderedPage};
use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(clap::Args)]
pub struct RenderArgs {
    /// Files, directories (searched for .puml .plantuml .pu .iuml), globs, or `-` for stdin.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(short = 'f', long = "format", value_parser = ["svg", "png", "pdf", "txt", "utxt", "scene-json"], default_value = "svg")]
    pub format: String,
    /// Output file (`-` for stdout). Only with a single input.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Directory for the outputs (default: beside each input).
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// Theme: default, plain, minimal, docs, dark, sand, blueprint (overrides `!theme`).
    #[arg(long)]
    pub theme: Option<String>,
    /// Render only page N (1-based, counting every diagram of the file).
    #[arg(long)]
    pub page: Option<usize>,
    /// PNG scale factor (0.1 to 10).
    #[arg(long, default_value_t = 1.0)]
    pub scale: f64,
    /// Resolve `!include` only inside this directory (default: each file's directory).
    #[arg(long)]
    pub include_root: Option<PathBuf>,
    /// Refuse inputs larger than this many bytes (default 8 MiB, or $PUML_MAX_BYTES).
    #[arg(long)]
    pub max_bytes: Option<u64>,
    /// Sync each written file to disk before returning (outputs are always
    /// written atomically; without this they may sit in the page cache).
    #[arg(long)]
    pub sync: bool,
    /// Refuse diagrams with more participants than this.
    #[arg(long, default_value_t = 5_000)]
    pub max_participants: usize,
    /// Refuse diagrams with more events (messages, notes, …) than this.
    #[arg(long, default_value_t = 500_000)]
    pub max_events: usize,
}

/// Exit status of one file, worst wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Ok = 0,
    DiagramErrors = 1,
    Failure = 2,
}

pub fn run(args: RenderArgs) -> ExitCode {
    let Some(format) = Format::from_name(&args.format) else {
        eprintln!("puml render: unknown format `{}`", args.format);
        return ExitCode::from(2);
    };
    if let Some(theme) = &args.theme {
        if !puml_ide::render::THEME_NAMES
            .iter()
            .any(|t| t.eq_ignore_ascii_case(theme))
        {
            eprintln!(
                "puml render: unknown theme `{theme}` (known: {})",
                puml_ide::render::THEME_NAMES.join(", ")
            );
            return ExitCode::from(2);
        }
    }
    let (lo, hi) = puml_ide::render::SCALE_RANGE;
    if !args.scale.is_finite() || args.scale < lo || args.scale > hi {
        eprintln!("puml render: --scale must be between {lo} and {hi}");
        return ExitCode::from(2);
    }
    let stdin = args.paths.iter().any(|p| p.as_os_str() == "-");
    if stdin && args.paths.len() > 1 {
        eprintln!("puml render: `-` (stdin) cannot be combined with other inputs");
        return ExitCode::from(2);
    }
    let (files, io_errors) = if stdin {
        (vec![PathBuf::from("-")], Vec::new())
    } else {
        puml_ide::fs::collect_diagram_files(&args.paths)
    };
    let mut worst = Outcome::Ok;
    for e in &io_errors {
        eprintln!("puml render: {e}");
        worst = Outcome::Failure;
    }
    if files.is_empty() {
        if io_errors.is_empty() {
            eprintln!("puml render: no diagram files found");
        }
        return ExitCode::from(2);
    }
    if args.output.as_ref().is_some_and(|o| o.as_os_str() != "-") && files.len() > 1 {
        eprintln!("puml render: -o FILE takes a single input; use --out-dir for several");
        return ExitCode::from(2);
    }
    if let Some(dir) = &args.out_dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("puml render: cannot create {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    }
    let inputs: HashSet<PathBuf> = files.iter().filter_map(|f| std::fs::canonicalize(f).ok()).collect();
    let progress = files.len() > 1 && std::io::stderr().is_terminal();
    let limit = args.max_bytes.unwrap_or_else(max_bytes_from_env);
    // Files render in parallel, a bounded batch at a time; outputs are
    // written by one writer thread, in input order, so the result does not
    // depend on timing, while the next batch renders (the writes no longer
    // wait for the rendering nor the rendering for the writes). Two inputs
    // can name the same output (the same `@startuml name`): the first keeps
    // it and the later one is an error, not a silent overwrite.
    let written_worst = std::thread::scope(|scope| {
        // One batch waiting while another is written: bounds the memory
        // held by rendered pages to about three batches.
        let (sender, receiver) = std::sync::mpsc::sync_channel::<Vec<FileReport>>(1);
        let sync = args.sync;
        let writer = scope.spawn(move || write_reports(receiver, sync, progress));
        let mut finished = 0;
        for batch in files.chunks(RENDER_BATCH) {
            let reports = render_all(
                batch,
                format,
                &args,
                limit,
                &inputs,
                progress.then_some((finished, files.len())),
            );
            finished += batch.len();
            if sender.send(reports).is_err() {
                break;
            }
        }
        drop(sender);
        writer.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    worst = worst.max(written_worst);
    if progress {
        eprintln!("rendered {} file(s)", files.len());
    }
    ExitCode::from(worst as u8)
}

/// Files rendered before their outputs are handed to the writer: bounds
/// the memory held by rendered pages, and is small enough that writing one
/// batch overlaps with rendering the next.
const RENDER_BATCH: usize = 32;

/// Prints each report's messages and writes its outputs, in input order;
/// returns the worst outcome.
fn write_reports(reports: std::sync::mpsc::Receiver<Vec<FileReport>>, sync: bool, progress: bool) -> Outcome {
    let mut written: HashSet<PathBuf> = HashSet::new();
    let mut worst = Outcome::Ok;
    for report in reports.into_iter().flatten() {
        if progress && !report.log.is_empty() {
            // Clear the progress line the renderers keep redrawing.
            eprint!("\r\x1b[2K");
        }
        for line in report.log {
            eprintln!("{line}");
        }
        let mut outcome = report.outcome;
        for (target, bytes) in report.outputs {
            if !written.insert(target.clone()) {
                eprintln!(
                    "puml render: {} is already written by an earlier input (same diagram name); rename one of the diagrams or use another --out-dir",
                    target.display()
                );
                outcome = outcome.max(Outcome::Failure);
                continue;
            }
            if let Err(e) = puml_ide::fs::write_generated(&target, &bytes, sync) {
                eprintln!("puml render: cannot write {}: {e}", target.display());
                outcome = outcome.max(Outcome::Failure);
            }
        }
        worst = worst.max(outcome);
    }
    if progress {
        eprint!("\r\x1b[2K");
    }
    worst
}

/// What rendering one input produced: its outcome so far, the messages to
/// print, and the files to write.
struct FileReport {
    outcome: Outcome,
    log: Vec<String>,
    outputs: Vec<(PathBuf, Vec<u8>)>,
}

/// Renders `files` on every available core (one file per task), returning
/// each file's outcome and messages in input order.
fn render_all(
    files: &[PathBuf],
    format: Format,
    args: &RenderArgs,
    limit: u64,
    inputs: &HashSet<PathBuf>,
    progress: Option<(usize, usize)>,
) -> Vec<FileReport> {
    let done = AtomicUsize::new(0);
    parallel_map(files, |path| {
        let mut report = FileReport {
            outcome: Outcome::Ok,
            log: Vec::new(),
            outputs: Vec::new(),
        };
        report.outcome = render_file(path, format, args, limit, inputs, &mut report);
        if let Some((before, total)) = progress {
            let finished = before + done.fetch_add(1, Ordering::Relaxed) + 1;
            eprint!("\r\x1b[2K[{finished}/{total}] {}", path.display());
        }
        report
    })
}

/// Renders one input. Messages and the files to write go to `report`
/// (the caller prints and writes them in input order, even when files are
/// rendered in parallel); standard output is written here.
fn render_file(
    path: &Path,
    format: Format,
    args: &RenderArgs,
    limit: u64,
    inputs: &HashSet<PathBuf>,
    report: &mut FileReport,
) -> Outcome {
    let log = &mut report.log;
    let is_stdin = path.as_os_str() == "-";
    let display = if is_stdin {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    let bytes = match read_input_bytes(path, limit) {
        Ok(b) => b,
        Err(InputError::Io(e)) => {
            log.push(format!("puml render: {e}"));
            return Outcome::Failure;
        }
        Err(InputError::TooLarge { size, limit }) => {
            log.push(format!(
                "puml render: {display}: input is {size} bytes, over the limit of {limit} (see --max-bytes)"
            ));
            return Outcome::Failure;
        }
    };
    let text = match decode_source(&bytes) {
        Ok(t) => t,
        Err(d) => {
            log.push(format!("{display}: error[{}]: {}", d.code, d.message));
            return Outcome::DiagramErrors;
        }
    };
    let options = RenderOptions {
        format,
        theme: args.theme.clone(),
        page: args.page,
        scale: args.scale,
        check: CheckOptions {
            file_path: (!is_stdin).then(|| path.to_path_buf()),
            include_root: args.include_root.clone(),
            allow_url_includes: false,
        },
        max_participants: args.max_participants,
        max_events: args.max_events,
    };
    let (analysis, file) = crate::analysis::open_with(text, &options.check);
    let pages = match crate::analysis::answer(analysis.render(file, &options)) {
        Ok(p) => p,
        Err(RenderFailure::Diagnostics(diags)) => {
            print_diagnostics(&display, &diags, log);
            log.push(format!(
                "puml render: {display}: not rendered because of the errors above"
            ));
            return Outcome::DiagramErrors;
        }
        Err(e) => {
            log.push(format!("puml render: {display}: {e}"));
            return Outcome::Failure;
        }
    };
    let to_stdout = match &args.output {
        Some(o) => o.as_os_str() == "-",
        None => is_stdin && args.out_dir.is_none(),
    };
    if to_stdout {
        return write_stdout(&pages, format, log);
    }
    let targets = output_paths(path, is_stdin, &pages, format, args);
    let mut outcome = Outcome::Ok;
    for (page, target) in pages.into_iter().zip(targets) {
        let canonical_parent = target
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| std::fs::canonicalize("."), std::fs::canonicalize);
        let resolved = canonical_parent
            .ok()
            .and_then(|dir| target.file_name().map(|n| dir.join(n)));
        if resolved.is_some_and(|r| inputs.contains(&r)) {
            log.push(format!(
                "puml render: refusing to overwrite the input file {}",
                target.display()
            ));
            outcome = Outcome::Failure;
            continue;
        }
        report.outputs.push((target, page.bytes));
    }
    outcome
}

fn write_stdout(pages: &[RenderedPage], format: Format, log: &mut Vec<String>) -> Outcome {
    if format.is_binary() && pages.len() > 1 {
        log.push(format!(
            "puml render: the input has {} pages; choose one with --page N or write files with --out-dir",
            pages.len()
        ));
        return Outcome::Failure;
    }
    let mut stdout = std::io::stdout().lock();
    for (i, page) in pages.iter().enumerate() {
        if i > 0 && stdout.write_all(b"\n").is_err() {
            return Outcome::Failure;
        }
        if stdout.write_all(&page.bytes).is_err() {
            return Outcome::Failure;
        }
    }
    if stdout.flush().is_err() {
        return Outcome::Failure;
    }
    Outcome::Ok
}

/// `name.ext`, or `name-1.ext`, `name-2.ext`… for several pages.
fn output_paths(
    input: &Path,
    is_stdin: bool,
    pages: &[RenderedPage],
    format: Format,
    args: &RenderArgs,
) -> Vec<PathBuf> {
    let ext = format.extension();
    let (dir, stem) = match &args.output {
        Some(o) if o.as_os_str() != "-" => {
            let stem = o
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "diagram".into());
            let stem = stem
                .strip_suffix(&format!(".{ext}"))
                .map(str::to_string)
                .unwrap_or_else(|| stem.clone());
            if pages.len() == 1 {
                return vec![o.clone()];
            }
            (o.parent().map(Path::to_path_buf).unwrap_or_default(), stem)
        }
        _ => {
            let stem = if is_stdin {
                "diagram".to_string()
            } else {
                input
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "diagram".into())
            };
            let dir = match &args.out_dir {
                Some(d) => d.clone(),
                None => input.parent().map(Path::to_path_buf).unwrap_or_default(),
            };
            (dir, stem)
        }
    };
    if pages.len() == 1 {
        vec![dir.join(format!("{stem}.{ext}"))]
    } else {
        (1..=pages.len())
            .map(|i| dir.join(format!("{stem}-{i}.{ext}")))
            .collect()
    }
}

fn print_diagnostics(display: &str, diags: &[LineColDiagnostic], log: &mut Vec<String>) {
    for d in diags {
        let file = d.file.as_deref().unwrap_or(display);
        log.push(format!(
            "{file}:{}:{}: {}[{}]: {}",
            d.range.line,
            d.range.column,
            d.severity.as_str(),
            d.code,
            d.message
        ));
    }
}
