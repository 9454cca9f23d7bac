//! `puml render`: files (or stdin) → SVG, PNG, PDF, text art or scene JSON.
//! Output naming: `name.svg` beside the input (or in `--out-dir`), and
//! `name-1.svg`, `name-2.svg`, … when a file holds several diagrams or
//! pages. Writes are atomic and never replace an input file.

use crate::analysis::BatchHost;
use crate::io_util::{max_bytes_from_env, read_input_bytes, InputError};
use puml_ide::check::{decode_source, CheckOptions, LineColDiagnostic};
use puml_ide::render::{Format, RenderFailure, RenderOptions, RenderedPage};
use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The output formats `--format` takes.
pub const FORMATS: [&str; 6] = ["svg", "png", "pdf", "txt", "utxt", "scene-json"];

#[derive(clap::Args, Debug, PartialEq)]
pub struct RenderArgs {
    /// Files, directories (searched for .puml .plantuml .pu .iuml), globs, or `-` for stdin.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(short = 'f', long = "format", value_parser = FORMATS, default_value = "svg")]
    pub format: String,
    /// Output file (`-` for stdout). Only with a single input.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Directory for the outputs (default: beside each input).
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// Theme (overrides `!theme`): puml's looks (default, minimal, docs, dark, sand) or any theme PlantUML ships (plain, cerulean, …).
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

impl RenderArgs {
    /// `puml render [-f FORMAT] [-o OUTPUT] PATHS…`: what clap gives for it.
    pub fn for_paths(paths: Vec<PathBuf>, format: Option<String>, output: Option<PathBuf>) -> RenderArgs {
        RenderArgs {
            paths,
            format: format.unwrap_or_else(|| "svg".to_string()),
            output,
            out_dir: None,
            theme: None,
            page: None,
            scale: 1.0,
            include_root: None,
            max_bytes: None,
            sync: false,
            max_participants: 5_000,
            max_events: 500_000,
        }
    }
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
    // `-o new/dir/a.png` creates its folders as `--out-dir` does (the file
    // itself is still written atomically beside its final name).
    if let Some(parent) = args
        .output
        .as_ref()
        .filter(|o| o.as_os_str() != "-")
        .and_then(|o| o.parent())
        .filter(|p| !p.as_os_str().is_empty())
    {
        if let Err(e) = std::fs::create_dir_all(parent) {
            eprintln!("puml render: cannot create {}: {e}", parent.display());
            return ExitCode::from(2);
        }
    }
    // Without `-o`, every output is named `*.{extension}`, so only inputs
    // named so (someone rendering `x.svg` as a diagram) can be
    // overwritten; the others need no canonical path.
    let output_suffix = format!(".{}", format.extension());
    let may_be_overwritten = |input: &PathBuf| {
        args.output.is_some()
            || input
                .file_name()
                .is_some_and(|n| n.to_string_lossy().to_ascii_lowercase().ends_with(&output_suffix))
    };
    let inputs: HashSet<PathBuf> = files
        .iter()
        .filter(|f| may_be_overwritten(f))
        .filter_map(|f| std::fs::canonicalize(f).ok())
        .collect();
    let progress = files.len() > 1 && std::io::stderr().is_terminal();
    let limit = args.max_bytes.unwrap_or_else(max_bytes_from_env);
    // Files render on every core, each worker taking the next file as soon
    // as it is free (no batch waits for its slowest file) and writing its
    // outputs to temporary files; this thread prints the messages and
    // renames the outputs into place in input order, so the result does
    // not depend on timing, while the workers go on. Two inputs can name the
    // same output (the same `@startuml name`): the first keeps it and the
    // later one is an error, not a silent overwrite.
    let jobs = RenderJobs {
        files: &files,
        format,
        args: &args,
        limit,
        inputs: &inputs,
        progress,
    };
    let written_worst = jobs.run();
    worst = worst.max(written_worst);
    if progress {
        eprintln!("rendered {} file(s)", files.len());
    }
    ExitCode::from(worst as u8)
}

/// How many files may be rendered ahead of the one being written: bounds
/// the memory held by reports and the temporary files waiting for their
/// rename when one file is slow to render.
const RENDER_AHEAD: usize = 64;

/// One `puml render` run over many files.
struct RenderJobs<'a> {
    files: &'a [PathBuf],
    format: Format,
    args: &'a RenderArgs,
    limit: u64,
    inputs: &'a HashSet<PathBuf>,
    progress: bool,
}

/// The reports waiting for their turn, and the writer that prints them and
/// names their outputs in input order.
struct InOrder {
    next_to_write: usize,
    waiting: std::collections::BTreeMap<usize, FileReport>,
    writer: ReportWriter,
}

/// Where the renderers hand their reports over. The renderer whose report
/// is next writes it, and the reports behind it that are ready: no thread
/// waits only to write, and no thread is woken per file.
struct WriteFront {
    state: std::sync::Mutex<InOrder>,
    advanced: std::sync::Condvar,
}

impl WriteFront {
    fn lock(&self) -> std::sync::MutexGuard<'_, InOrder> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits while file `index` is [`RENDER_AHEAD`] files or more ahead of
    /// the next one to write.
    fn wait_until_within_reach(&self, index: usize) {
        let mut state = self.lock();
        while index >= state.next_to_write + RENDER_AHEAD {
            state = self.advanced.wait(state).unwrap_or_else(|p| p.into_inner());
        }
    }

    fn hand_over(&self, index: usize, report: FileReport) {
        let mut state = self.lock();
        state.waiting.insert(index, report);
        let before = state.next_to_write;
        loop {
            let next = state.next_to_write;
            let Some(report) = state.waiting.remove(&next) else {
                break;
            };
            state.writer.write(report);
            state.next_to_write = next + 1;
        }
        if state.next_to_write != before {
            self.advanced.notify_all();
        }
    }
}

impl RenderJobs<'_> {
    /// Renders and stages every file on every core (this thread included);
    /// the outputs are named in input order; returns the worst outcome.
    fn run(&self) -> Outcome {
        // One file renders on this thread alone, without reading the core
        // count (cgroup files) at start-up.
        let workers = if self.files.len() <= 1 {
            1
        } else {
            std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(self.files.len())
        };
        let next_to_render = AtomicUsize::new(0);
        let rendered = AtomicUsize::new(0);
        let front = WriteFront {
            state: std::sync::Mutex::new(InOrder {
                next_to_write: 0,
                waiting: std::collections::BTreeMap::new(),
                writer: ReportWriter::new(self.progress),
            }),
            advanced: std::sync::Condvar::new(),
        };
        if workers > 1 {
            crate::allocator::use_mimalloc();
        }
        std::thread::scope(|scope| {
            for _ in 1..workers {
                scope.spawn(|| self.render_until_done(&next_to_render, &rendered, &front));
            }
            self.render_until_done(&next_to_render, &rendered, &front);
        });
        let state = front.state.into_inner().unwrap_or_else(|p| p.into_inner());
        state.writer.finish()
    }

    /// One renderer: takes the next file until none is left, on one host.
    fn render_until_done(&self, next_to_render: &AtomicUsize, rendered: &AtomicUsize, front: &WriteFront) {
        let mut host = BatchHost::default();
        loop {
            let index = next_to_render.fetch_add(1, Ordering::Relaxed);
            let Some(path) = self.files.get(index) else {
                break;
            };
            front.wait_until_within_reach(index);
            // A defect in one diagram's rendering must not stop the batch
            // (nor leave the files after it unwritten).
            let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.render_one(&mut host, path)))
                .unwrap_or_else(|_| {
                    // The host may hold the failed file's half-done work:
                    // the next file starts on a new one.
                    host = BatchHost::default();
                    FileReport {
                        outcome: Outcome::Failure,
                        log: vec![format!(
                            "puml render: {}: internal error while rendering (a defect in puml; please report it with this file)",
                            path.display()
                        )],
                        outputs: Vec::new(),
                    }
                });
            if self.progress {
                let finished = rendered.fetch_add(1, Ordering::Relaxed) + 1;
                eprint!("\r\x1b[2K[{finished}/{}] {}", self.files.len(), path.display());
            }
            front.hand_over(index, report);
        }
    }

    fn render_one(&self, host: &mut BatchHost, path: &Path) -> FileReport {
        let mut rendered = RenderedFile {
            log: Vec::new(),
            outputs: Vec::new(),
        };
        let outcome = render_file(
            host,
            path,
            self.format,
            self.args,
            self.limit,
            self.inputs,
            &mut rendered,
        );
        // Each output is created and filled here, by the renderer that drew
        // it; it is named later, in input order (see `StagedWrite`).
        let outputs = rendered
            .outputs
            .into_iter()
            .map(|(target, bytes)| {
                puml_ide::fs::StagedWrite::stage(&target, &bytes, self.args.sync).map_err(|error| (target, error))
            })
            .collect();
        FileReport {
            outcome,
            log: rendered.log,
            outputs,
        }
    }
}

/// Prints each report's messages and writes its outputs; remembers the
/// worst outcome.
struct ReportWriter {
    written: HashSet<PathBuf>,
    worst: Outcome,
    progress: bool,
}

impl ReportWriter {
    fn new(progress: bool) -> Self {
        ReportWriter {
            written: HashSet::new(),
            worst: Outcome::Ok,
            progress,
        }
    }

    fn write(&mut self, report: FileReport) {
        if self.progress && !report.log.is_empty() {
            // Clear the progress line the renderers keep redrawing.
            eprint!("\r\x1b[2K");
        }
        for line in report.log {
            eprintln!("{line}");
        }
        let mut outcome = report.outcome;
        for output in report.outputs {
            let target = match &output {
                Ok(staged) => staged.target().to_path_buf(),
                Err((target, _)) => target.clone(),
            };
            if !self.written.insert(target.clone()) {
                // Dropping the staged write removes its temporary file.
                eprintln!(
                    "puml render: {} is already written by an earlier input (same diagram name); rename one of the diagrams or use another --out-dir",
                    target.display()
                );
                outcome = outcome.max(Outcome::Failure);
                continue;
            }
            let written = match output {
                Ok(staged) => staged.commit(),
                Err((_, error)) => Err(error),
            };
            if let Err(e) = written {
                eprintln!("puml render: cannot write {}: {e}", target.display());
                outcome = outcome.max(Outcome::Failure);
            }
        }
        self.worst = self.worst.max(outcome);
    }

    fn finish(self) -> Outcome {
        if self.progress {
            eprint!("\r\x1b[2K");
        }
        self.worst
    }
}

/// What rendering one input produced: its outcome, the messages to print,
/// and its outputs, staged beside their targets (or why they could not be).
struct FileReport {
    outcome: Outcome,
    log: Vec<String>,
    outputs: Vec<Result<puml_ide::fs::StagedWrite, (PathBuf, std::io::Error)>>,
}

/// What [`render_file`] leaves for the caller: the messages to print and
/// the files to write.
struct RenderedFile {
    log: Vec<String>,
    outputs: Vec<(PathBuf, Vec<u8>)>,
}

/// Renders one input. Messages and the files to write go to `report`
/// (the caller prints and writes them in input order, even when files are
/// rendered in parallel); standard output is written here.
fn render_file(
    host: &mut BatchHost,
    path: &Path,
    format: Format,
    args: &RenderArgs,
    limit: u64,
    inputs: &HashSet<PathBuf>,
    report: &mut RenderedFile,
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
    let (analysis, file) = host.open(text, &options.check);
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
        if inputs.is_empty() {
            report.outputs.push((target, page.bytes));
            continue;
        }
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
