//! `puml-plantuml`: PlantUML's command line, so that every integration
//! that runs `plantuml` (Sphinx, Python-Markdown, MkDocs, Emacs, the VS
//! Code extension's local mode, Asciidoctor) runs puml unchanged.
//!
//! Flags, output names, exit codes and the text on stdout and stderr follow
//! PlantUML 1.2026.8 (settled against the jar): files are written beside
//! their input (or in `-o DIR`, relative to each input) as `name.svg`,
//! `name_001.svg`, …; `-pipe` reads stdin and writes one image per diagram;
//! a syntax error exits 200 and, with `-pipe`, prints `ERROR`, the 0-based
//! line and the message on three stderr lines. Flags puml has no use for
//! are accepted with a warning. Exit codes: 0 success, 200 a diagram has an
//! error, 50 no diagram or no file found, 210 a diagram of a kind puml does
//! not draw (and no `--fallback-jar`), 2 a flag puml cannot honour (an
//! output format it does not write).

use crate::blocks::{split_blocks, Block};
use crate::encoding::{decode, encode_plantuml};
use crate::renderer::{unsupported_message, ImageFormat, Outcome, Page, RenderSettings, Renderer};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub const EXIT_OK: i32 = 0;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_NO_DIAGRAM: i32 = 50;
pub const EXIT_ERROR: i32 = 200;
pub const EXIT_UNSUPPORTED_KIND: i32 = 210;

/// Largest input read (a file or stdin), as `puml check`.
pub const MAX_INPUT_BYTES: u64 = 8 * 1024 * 1024;

/// Extensions PlantUML looks for when given a directory.
const SCANNED_EXTENSIONS: &[&str] = &[
    "wsd", "pu", "puml", "plantuml", "iuml", "txt", "tex", "java", "htm", "html", "c", "h", "cpp", "apt", "md",
];

/// Flags that take a value and that puml ignores (with a warning).
const IGNORED_WITH_VALUE: &[&str] = &[
    "-graphvizdot",
    "-graphviz",
    "-nbthread",
    "-timeout",
    "-author",
    "-filename",
    "-language",
    "-ftp",
    "-sprite",
    "-encodesprite",
];
/// Flags without a value that puml ignores (with a warning).
const IGNORED: &[&str] = &[
    "-quiet",
    "-verbose",
    "-v",
    "-gui",
    "-splash",
    "-nosplash",
    "-progress",
    "-overwrite",
    "-duration",
    "-enablestats",
    "-disablestats",
    "-realtimestats",
    "-htmlstats",
    "-xmlstats",
    "-loopstats",
    "-debugsvek",
    "-headless",
    "-metadata",
    "-noerror",
    "-nbthread:auto",
    "-pipeNoStdErr",
    "-extractstdlib",
    "-stdlib",
    "-dumpstats",
    "-dumphtmlstats",
    "-clipboard",
    "-clipboardloop",
    "-testdot",
    "-printfonts",
    "-tests",
    "-keepfiles",
    "-checkmetadata",
    "-preproc",
];

/// The parsed command line.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub format: ImageFormat,
    pub pipe: bool,
    pub pipe_delimiter: Option<String>,
    pub output_dir: Option<PathBuf>,
    pub charset: Option<String>,
    pub no_metadata: bool,
    pub fail_fast: bool,
    pub fail_fast_before: bool,
    pub check_only: bool,
    pub syntax: bool,
    /// `-stdrpt`: 0 the default lines, 1 PlantUML's key=value protocol, 2 `file:line:error:message`.
    pub report_style: u8,
    pub defines: Vec<(String, Option<String>)>,
    pub include_files: Vec<PathBuf>,
    pub config_files: Vec<PathBuf>,
    pub theme: Option<String>,
    pub fallback_jar: Option<PathBuf>,
    pub include_root: Option<PathBuf>,
    pub inputs: Vec<String>,
    /// `-x PATTERN` / `-exclude PATTERN`: inputs whose path matches are skipped.
    pub excludes: Vec<String>,
    pub action: Action,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Render,
    Version,
    Help,
    EncodeUrl,
    DecodeUrl(String),
}

impl Default for Options {
    fn default() -> Options {
        Options {
            format: ImageFormat::Png,
            pipe: false,
            pipe_delimiter: None,
            output_dir: None,
            charset: None,
            no_metadata: false,
            fail_fast: false,
            fail_fast_before: false,
            check_only: false,
            syntax: false,
            report_style: 0,
            defines: Vec::new(),
            include_files: Vec::new(),
            config_files: Vec::new(),
            theme: None,
            fallback_jar: None,
            include_root: None,
            inputs: Vec::new(),
            excludes: Vec::new(),
            action: Action::Render,
            warnings: Vec::new(),
        }
    }
}

/// A flag that cannot be honoured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

/// Parses PlantUML's flags (single dash, values as separate words).
pub fn parse_args(args: &[String]) -> Result<Options, UsageError> {
    let mut options = Options::default();
    let mut words = args.iter().peekable();
    let value_of = |flag: &str, words: &mut std::iter::Peekable<std::slice::Iter<String>>| {
        words
            .next()
            .cloned()
            .ok_or_else(|| UsageError(format!("{flag} needs a value")))
    };
    while let Some(word) = words.next() {
        let flag = word.as_str();
        if !flag.starts_with('-') || flag == "-" {
            options.inputs.push(word.clone());
            continue;
        }
        let lower = flag.to_ascii_lowercase();
        match lower.as_str() {
            "-pipe" | "-p" => options.pipe = true,
            "-pipedelimitor" | "-pipedelimiter" => options.pipe_delimiter = Some(value_of(flag, &mut words)?),
            "-o" | "-output" | "-outputdir" => options.output_dir = Some(PathBuf::from(value_of(flag, &mut words)?)),
            "-charset" => options.charset = Some(value_of(flag, &mut words)?),
            "-nometadata" => options.no_metadata = true,
            "-failfast" => options.fail_fast = true,
            "-failfast2" => options.fail_fast_before = true,
            "-checkonly" => options.check_only = true,
            "-syntax" => options.syntax = true,
            "-config" => options.config_files.push(PathBuf::from(value_of(flag, &mut words)?)),
            "-theme" => options.theme = Some(value_of(flag, &mut words)?),
            "-version" | "--version" => options.action = Action::Version,
            "-help" | "--help" | "-h" | "-?" => options.action = Action::Help,
            "-encodeurl" | "-computeurl" => options.action = Action::EncodeUrl,
            "-decodeurl" => options.action = Action::DecodeUrl(value_of(flag, &mut words)?),
            "-fallback-jar" | "--fallback-jar" => {
                options.fallback_jar = Some(PathBuf::from(value_of(flag, &mut words)?))
            }
            "-include-root" | "--include-root" => {
                options.include_root = Some(PathBuf::from(value_of(flag, &mut words)?))
            }
            "-i" => options.include_files.push(PathBuf::from(value_of(flag, &mut words)?)),
            "-x" | "-exclude" => options.excludes.push(value_of(flag, &mut words)?),
            "-pipemap" => {
                return Err(UsageError(
                    "-pipemap writes image maps, which puml does not produce; use -tsvg (its links are live)".into(),
                ))
            }
            _ if lower.starts_with("-stdrpt") => {
                options.report_style = match lower.strip_prefix("-stdrpt:") {
                    Some("1") => 1,
                    Some("2") => 2,
                    _ => 0,
                }
            }
            _ if lower.starts_with("-t")
                && lower.len() > 2
                && !lower.starts_with("-timeout")
                && !lower.starts_with("-theme")
                && !lower.starts_with("-test") =>
            {
                let name = &lower[2..];
                let (base, variant) = name.split_once(':').unwrap_or((name, ""));
                options.format = ImageFormat::from_name(base).ok_or_else(|| {
                    UsageError(format!(
                        "puml cannot write the `{base}` format; it writes svg, png, pdf, txt and utxt (use PlantUML for {base})"
                    ))
                })?;
                if !variant.is_empty() {
                    options
                        .warnings
                        .push(format!("the format option `{variant}` of {flag} is ignored"));
                }
            }
            _ if flag.starts_with("-D") && flag.len() > 2 => {
                let definition = &flag[2..];
                let (name, value) = match definition.split_once('=') {
                    Some((name, value)) => (name.to_string(), Some(value.to_string())),
                    None => (definition.to_string(), None),
                };
                if name == "plantuml.include.path" {
                    options.include_root = value.map(PathBuf::from);
                } else if name.contains('.') || name.starts_with("PLANTUML_") {
                    options
                        .warnings
                        .push(format!("{flag} is a Java or PlantUML setting; puml ignores it"));
                } else {
                    options.defines.push((name, value));
                }
            }
            _ if flag.starts_with("-I") && flag.len() > 2 => options.include_files.push(PathBuf::from(&flag[2..])),
            _ if lower.starts_with("-picoweb") => {
                return Err(UsageError(
                    "-picoweb starts PlantUML's server; run `puml serve --listen 127.0.0.1:PORT` instead".into(),
                ))
            }
            _ if IGNORED_WITH_VALUE.contains(&lower.as_str()) => {
                let value = words.next().cloned().unwrap_or_default();
                options
                    .warnings
                    .push(format!("{flag} {value} has no use in puml; ignored"));
            }
            _ if lower.starts_with("-x") || lower.starts_with("-j") => {
                options.warnings.push(format!("{flag} is a Java option; ignored"));
            }
            _ if IGNORED.iter().any(|ignored| ignored.eq_ignore_ascii_case(flag)) => {
                options.warnings.push(format!("{flag} has no use in puml; ignored"));
            }
            _ => options.warnings.push(format!("unknown flag {flag}; ignored")),
        }
    }
    Ok(options)
}

/// Where the command's output goes (the real process or a test).
pub struct Io<'a> {
    pub stdin: &'a mut dyn Read,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
}

/// Runs the command; returns the exit code.
pub fn run(args: &[String], io: &mut Io) -> i32 {
    let options = match parse_args(args) {
        Ok(options) => options,
        Err(UsageError(message)) => {
            let _ = writeln!(io.stderr, "puml-plantuml: {message}");
            return EXIT_USAGE;
        }
    };
    for warning in &options.warnings {
        let _ = writeln!(io.stderr, "puml-plantuml: warning: {warning}");
    }
    match &options.action {
        Action::Version => {
            let _ = write!(io.stdout, "{}", version_text());
            return EXIT_OK;
        }
        Action::Help => {
            let _ = write!(io.stdout, "{}", HELP);
            return EXIT_OK;
        }
        Action::DecodeUrl(encoded) => {
            return match decode(encoded, MAX_INPUT_BYTES as usize) {
                Ok((text, _)) => {
                    let _ = writeln!(io.stdout, "@startuml\n{text}\n@enduml");
                    EXIT_OK
                }
                Err(error) => {
                    let _ = writeln!(io.stderr, "puml-plantuml: {error}");
                    EXIT_USAGE
                }
            };
        }
        Action::EncodeUrl | Action::Render => {}
    }
    if options.syntax {
        return run_syntax(&options, io);
    }
    if options.pipe {
        return run_pipe(&options, io);
    }
    if options.inputs.is_empty() {
        let _ = write!(io.stderr, "{}", HELP);
        return EXIT_USAGE;
    }
    run_files(&options, io)
}

fn version_text() -> String {
    format!(
        "PlantUML version {} (puml-plantuml {}: the language of this PlantUML release, drawn by puml, no Java)\n\
         puml-plantuml {} (puml: PlantUML-compatible command line, no Java)\n\
         Draws: {}.\n\
         Other kinds: error image, or --fallback-jar PATH to hand them to PlantUML.\n",
        crate::PLANTUML_VERSION,
        crate::VERSION,
        crate::VERSION,
        drawn_kinds(),
    )
}

/// The kinds puml draws, in words (`SEQUENCE`, `ACTIVITY` → "sequence and
/// activity diagrams").
fn drawn_kinds() -> String {
    let names: Vec<String> = crate::DRAWN_KINDS.iter().map(|k| k.to_ascii_lowercase()).collect();
    match names.split_last() {
        Some((last, [])) => format!("{last} diagrams"),
        Some((last, rest)) => format!("{} and {last} diagrams", rest.join(", ")),
        None => "no diagrams".to_string(),
    }
}

const HELP: &str = "\
Usage: puml-plantuml [options] [file|dir ...]
       puml-plantuml [options] -pipe < in > out

A drop-in for the `plantuml` command (no Java): sequence and activity diagrams
are drawn by puml; other kinds get an error image (or PlantUML itself with --fallback-jar).

  -tsvg -tpng -tpdf -ttxt -tutxt   output format (default png)
  -pipe                     read stdin, write the images to stdout
  -pipedelimitor TEXT       write TEXT and a newline after each image
  -o DIR                    output directory (relative to each input file)
  -charset NAME             input charset (UTF-8, ISO-8859-1, US-ASCII, windows-1252)
  -checkonly                check only, write nothing
  -syntax                   read stdin, print the diagram type or the error
  -failfast                 stop at the first error
  -failfast2                check everything before writing anything
  -stdrpt[:1|:2]            error report format
  -DNAME=VALUE              as `!define NAME VALUE` in every diagram
  -I FILE  | -IFILE         insert FILE at the start of every diagram
  -config FILE              insert FILE's lines at the start of every diagram
  -x PATTERN | -exclude PATTERN   skip inputs whose path matches (* and ?)
  -theme NAME               a puml theme (default plain minimal docs dark sand blueprint)
  -nometadata               (puml embeds no source metadata)
  -encodeurl | -computeurl  print the PlantUML URL encoding of each file's diagrams
  -decodeurl TEXT           print the diagram an encoded URL holds
  --fallback-jar PATH       render kinds puml does not draw with PlantUML's jar
  --include-root DIR        !include reads only inside DIR (default: the current
                            directory, or the input's directory when outside it)
  -version, -help

Exit codes: 0 ok, 200 a diagram has an error, 50 no diagram / no file found,
210 a diagram kind puml does not draw, 2 a flag puml cannot honour.
Java and Graphviz options are accepted and ignored (with a warning).
";

/// Decodes input bytes with the `-charset` (UTF-8 by default).
fn decode_input(bytes: &[u8], charset: Option<&str>, warnings: &mut Vec<String>) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let charset = charset.unwrap_or("UTF-8").to_ascii_lowercase().replace('_', "-");
    match charset.as_str() {
        "utf-8" | "utf8" => String::from_utf8_lossy(bytes).into_owned(),
        "iso-8859-1" | "latin1" | "latin-1" | "iso8859-1" | "us-ascii" | "ascii" | "windows-1252" | "cp1252" => {
            bytes.iter().map(|&b| char::from(b)).collect()
        }
        other => {
            warnings.push(format!("charset {other} is not supported; reading UTF-8"));
            String::from_utf8_lossy(bytes).into_owned()
        }
    }
}

/// What every diagram gets in front of its own lines: `-config` files, then
/// `-I` files, then `-D` definitions (read once).
fn prelude(options: &Options, stderr: &mut dyn Write) -> Result<String, i32> {
    let mut prelude = String::new();
    for path in options.config_files.iter().chain(&options.include_files) {
        match std::fs::read(path) {
            Ok(bytes) => {
                let mut warnings = Vec::new();
                let text = decode_input(&bytes, options.charset.as_deref(), &mut warnings);
                for line in text
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("@start") && !l.trim_start().starts_with("@end"))
                {
                    prelude.push_str(line);
                    prelude.push('\n');
                }
            }
            Err(error) => {
                let _ = writeln!(stderr, "puml-plantuml: cannot read {}: {error}", path.display());
                return Err(EXIT_NO_DIAGRAM);
            }
        }
    }
    for (name, value) in &options.defines {
        match value {
            Some(value) => prelude.push_str(&format!("!define {name} {value}\n")),
            None => prelude.push_str(&format!("!define {name}\n")),
        }
    }
    Ok(prelude)
}

/// Puts the prelude after the block's start line; error lines are then
/// mapped back with [`Injected::source_line`].
struct Injected {
    block: Block,
    lines: usize,
}

impl Injected {
    fn new(block: &Block, prelude: &str) -> Injected {
        if prelude.is_empty() {
            return Injected {
                block: block.clone(),
                lines: 0,
            };
        }
        let (start, rest) = block.text.split_once('\n').unwrap_or((&block.text, ""));
        let mut block = block.clone();
        block.text = format!("{start}\n{prelude}{rest}");
        Injected {
            block,
            lines: prelude.lines().count(),
        }
    }

    /// A line of the injected text → the line in the block as written (an
    /// error inside the prelude is reported on the start line).
    fn source_line(&self, line: usize) -> usize {
        line.saturating_sub(self.lines)
    }
}

fn settings(options: &Options, path: Option<PathBuf>, all_pages: bool, warnings: &mut Vec<String>) -> RenderSettings {
    let mut settings = RenderSettings::new(options.format);
    settings.all_pages = all_pages;
    settings.path = path;
    if let Some(theme) = &options.theme {
        if puml_ide::render::THEME_NAMES.contains(&theme.as_str()) {
            settings.theme = Some(theme.clone());
        } else {
            warnings.push(format!(
                "theme `{theme}` is not a puml theme ({}); the diagram's own theme is used",
                puml_ide::render::THEME_NAMES.join(" ")
            ));
        }
    }
    settings
}

fn read_stdin(io: &mut Io) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    io.stdin
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read stdin: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!("stdin exceeds the limit of {MAX_INPUT_BYTES} bytes"));
    }
    Ok(bytes)
}

/// `-syntax`: stdin's first diagram → its type and description, or the error.
fn run_syntax(options: &Options, io: &mut Io) -> i32 {
    let bytes = match read_stdin(io) {
        Ok(bytes) => bytes,
        Err(message) => {
            let _ = writeln!(io.stderr, "puml-plantuml: {message}");
            return EXIT_USAGE;
        }
    };
    let mut warnings = Vec::new();
    let text = decode_input(&bytes, options.charset.as_deref(), &mut warnings);
    let Some(block) = split_blocks(&text, true).into_iter().next() else {
        return EXIT_NO_DIAGRAM;
    };
    let prelude = match prelude(options, io.stderr) {
        Ok(prelude) => prelude,
        Err(code) => return code,
    };
    let injected = Injected::new(&block, &prelude);
    let mut renderer = Renderer::new(options.include_root.clone().or_else(default_include_root));
    let mut settings = settings(options, None, false, &mut warnings);
    settings.format = ImageFormat::Txt;
    match renderer.render(&injected.block, &settings) {
        Outcome::Rendered { kind, description, .. } => {
            let _ = writeln!(io.stdout, "{kind}\n{description}");
            EXIT_OK
        }
        Outcome::Error { line, message, .. } => {
            let _ = writeln!(io.stdout, "ERROR\n{}\n{message}", injected.source_line(line));
            EXIT_ERROR
        }
        Outcome::Unsupported { kind, .. } => {
            let _ = writeln!(io.stdout, "{kind}\n(not drawn by puml)");
            EXIT_UNSUPPORTED_KIND
        }
    }
}

/// `-pipe`: stdin → one image per diagram on stdout.
fn run_pipe(options: &Options, io: &mut Io) -> i32 {
    let bytes = match read_stdin(io) {
        Ok(bytes) => bytes,
        Err(message) => {
            let _ = writeln!(io.stderr, "puml-plantuml: {message}");
            return EXIT_USAGE;
        }
    };
    let mut warnings = Vec::new();
    let text = decode_input(&bytes, options.charset.as_deref(), &mut warnings);
    let blocks = split_blocks(&text, true);
    if options.action == Action::EncodeUrl {
        for block in &blocks {
            let _ = writeln!(io.stdout, "{}", encode_plantuml(&block_body(&block.text)));
        }
        return if blocks.is_empty() { EXIT_NO_DIAGRAM } else { EXIT_OK };
    }
    if blocks.is_empty() {
        return EXIT_NO_DIAGRAM;
    }
    let prelude = match prelude(options, io.stderr) {
        Ok(prelude) => prelude,
        Err(code) => return code,
    };
    let settings = settings(options, None, false, &mut warnings);
    for warning in warnings {
        let _ = writeln!(io.stderr, "puml-plantuml: warning: {warning}");
    }
    let mut renderer = Renderer::new(options.include_root.clone().or_else(default_include_root));
    let mut exit = EXIT_OK;
    for block in &blocks {
        let injected = Injected::new(block, &prelude);
        let outcome = renderer.render(&injected.block, &settings);
        let image = match &outcome {
            Outcome::Rendered { pages, .. } => pages.first().map(|p| p.bytes.clone()).unwrap_or_default(),
            Outcome::Error {
                line, message, image, ..
            } => {
                let line = injected.source_line(*line);
                if options.report_style == 1 {
                    let _ = write!(io.stderr, "{}", protocol_report(line + 1, message));
                } else {
                    let _ = writeln!(io.stderr, "ERROR\n{line}\n{message}");
                }
                exit = exit.max(EXIT_ERROR);
                image.bytes.clone()
            }
            Outcome::Unsupported { kind, image } => match &options.fallback_jar {
                Some(jar) => match fallback(jar, &block.text, options.format) {
                    Ok((bytes, status)) => {
                        if status != 0 {
                            exit = exit.max(EXIT_ERROR);
                        }
                        bytes
                    }
                    Err(message) => {
                        let _ = writeln!(io.stderr, "ERROR\n0\n{message}");
                        exit = exit.max(EXIT_ERROR);
                        image.bytes.clone()
                    }
                },
                None => {
                    let _ = writeln!(io.stderr, "ERROR\n0\n{}", unsupported_message(kind).replace('\n', " "));
                    if exit == EXIT_OK {
                        exit = EXIT_UNSUPPORTED_KIND;
                    }
                    image.bytes.clone()
                }
            },
        };
        let _ = io.stdout.write_all(&image);
        if let Some(delimiter) = &options.pipe_delimiter {
            let _ = writeln!(io.stdout, "{delimiter}");
        }
    }
    let _ = io.stdout.flush();
    exit
}

/// `-stdrpt:1`: PlantUML's key=value error report.
fn protocol_report(line: usize, message: &str) -> String {
    format!(
        "protocolVersion=1\nstatus=ERROR\nlineNumber={line}\nlabel={}\n",
        message.replace('\n', " ")
    )
}

/// The block without its start and end lines (what `-encodeurl` encodes).
fn block_body(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let inner = match lines.as_slice() {
        [_, inner @ .., last] if last.trim_start().starts_with("@end") => inner,
        [_, inner @ ..] => inner,
        [] => &[],
    };
    inner.join("\n")
}

/// `!include` reads inside the current directory by default: a docs build
/// runs at the project's root, and its diagrams include from there.
fn default_include_root() -> Option<PathBuf> {
    std::env::current_dir().ok()
}

/// Runs PlantUML's jar on one diagram (`-pipe`): its image and exit status.
fn fallback(jar: &Path, text: &str, format: ImageFormat) -> Result<(Vec<u8>, i32), String> {
    let java = std::env::var_os("JAVA").unwrap_or_else(|| "java".into());
    let mut child = Command::new(java)
        .arg("-Djava.awt.headless=true")
        .arg("-jar")
        .arg(jar)
        .arg(format!(
            "-t{}",
            if format == ImageFormat::Txt {
                "txt"
            } else {
                format.extension()
            }
        ))
        .args(["-pipe", "-charset", "UTF-8"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run PlantUML ({}): {e}", jar.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(text.as_bytes())
            .map_err(|e| format!("cannot write to PlantUML: {e}"))?;
    }
    let output = child.wait_with_output().map_err(|e| format!("PlantUML failed: {e}"))?;
    Ok((output.stdout, output.status.code().unwrap_or(EXIT_ERROR)))
}

/// One input file and the directory its outputs go to.
struct Input {
    path: PathBuf,
}

/// `*` any run of characters (`/` included, so `**` works too), `?` one character.
fn wildcard_match(pattern: &str, text: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = text.chars().collect();
    // matches[j]: the pattern's prefix read so far matches text[..j].
    let mut matches = vec![false; text.len() + 1];
    matches[0] = true;
    for &p in &pattern {
        let mut next = vec![false; text.len() + 1];
        match p {
            '*' => {
                let mut reachable = false;
                for j in 0..=text.len() {
                    reachable |= matches[j];
                    next[j] = reachable;
                }
            }
            _ => {
                for j in 0..text.len() {
                    next[j + 1] = matches[j] && (p == '?' || p == text[j]);
                }
            }
        }
        matches = next;
    }
    matches[text.len()]
}

fn collect_inputs(options: &Options, warnings: &mut Vec<String>) -> Vec<Input> {
    let inputs = collect_all_inputs(options, warnings);
    inputs
        .into_iter()
        .filter(|input| {
            let path = input.path.to_string_lossy();
            !options
                .excludes
                .iter()
                .any(|pattern| wildcard_match(pattern, &path) || wildcard_match(&format!("*{pattern}"), &path))
        })
        .collect()
}

fn collect_all_inputs(options: &Options, warnings: &mut Vec<String>) -> Vec<Input> {
    let mut inputs = Vec::new();
    for argument in &options.inputs {
        let path = PathBuf::from(argument);
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(&path)
                .map(|entries| {
                    entries
                        .flatten()
                        .map(|entry| entry.path())
                        .filter(|p| p.is_file())
                        .filter(|p| {
                            p.extension()
                                .and_then(|e| e.to_str())
                                .is_some_and(|e| SCANNED_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
                        })
                        .collect()
                })
                .unwrap_or_default();
            found.sort();
            inputs.extend(found.into_iter().map(|path| Input { path }));
        } else if path.is_file() {
            inputs.push(Input { path });
        } else {
            warnings.push(format!("{argument}: no such file or directory"));
        }
    }
    inputs
}

/// `name.svg`, then `name_001.svg`, `name_002.svg`, … for further images of the same name.
struct OutputNames {
    used: HashMap<String, usize>,
}

impl OutputNames {
    fn next(&mut self, base: &str, extension: &str) -> String {
        let count = self.used.entry(base.to_string()).or_insert(0);
        let name = if *count == 0 {
            format!("{base}.{extension}")
        } else {
            format!("{base}_{count:03}.{extension}")
        };
        *count += 1;
        name
    }
}

/// A located error of one input.
struct FileError {
    path: PathBuf,
    /// 1-based line in the file.
    line: usize,
    message: String,
}

/// Files and directories → images beside them (or in `-o`).
fn run_files(options: &Options, io: &mut Io) -> i32 {
    let mut warnings = Vec::new();
    let inputs = collect_inputs(options, &mut warnings);
    if options.action == Action::EncodeUrl {
        for input in &inputs {
            let bytes = std::fs::read(&input.path).unwrap_or_default();
            let text = decode_input(&bytes, options.charset.as_deref(), &mut warnings);
            for block in split_blocks(&text, false) {
                let _ = writeln!(io.stdout, "{}", encode_plantuml(&block_body(&block.text)));
            }
        }
        return if inputs.is_empty() { EXIT_NO_DIAGRAM } else { EXIT_OK };
    }
    if inputs.is_empty() {
        for warning in &warnings {
            let _ = writeln!(io.stderr, "puml-plantuml: warning: {warning}");
        }
        let _ = writeln!(io.stderr, "No file found");
        return EXIT_NO_DIAGRAM;
    }
    let prelude = match prelude(options, io.stderr) {
        Ok(prelude) => prelude,
        Err(code) => return code,
    };
    let cwd = std::env::current_dir().ok();
    let mut errors: Vec<FileError> = Vec::new();
    let mut unsupported = false;
    // Two passes with -failfast2 (check everything, then write); one otherwise.
    let passes: &[bool] = if options.fail_fast_before && !options.check_only {
        &[false, true]
    } else {
        &[!options.check_only]
    };
    for &write in passes {
        let mut renderer: Option<(Option<PathBuf>, Renderer)> = None;
        for input in &inputs {
            let bytes = match read_limited(&input.path) {
                Ok(bytes) => bytes,
                Err(message) => {
                    warnings.push(message);
                    continue;
                }
            };
            let text = decode_input(&bytes, options.charset.as_deref(), &mut warnings);
            let blocks = split_blocks(&text, false);
            if blocks.is_empty() {
                if write || !options.fail_fast_before {
                    let _ = writeln!(io.stderr, "Warning: no image in {}", input.path.display());
                }
                continue;
            }
            let root = options
                .include_root
                .clone()
                .or_else(|| include_root_for(&input.path, cwd.as_deref()));
            if renderer.as_ref().is_none_or(|(current, _)| *current != root) {
                renderer = Some((root.clone(), Renderer::new(root)));
            }
            let Some((_, renderer)) = renderer.as_mut() else {
                continue;
            };
            let settings = settings(
                options,
                Some(absolute(&input.path, cwd.as_deref())),
                write,
                &mut warnings,
            );
            let mut names = OutputNames { used: HashMap::new() };
            let stem = input
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "diagram".into());
            let out_dir = output_dir(&input.path, options.output_dir.as_deref());
            for block in &blocks {
                let injected = Injected::new(block, &prelude);
                let outcome = renderer.render(&injected.block, &settings);
                let base = block.name.clone().unwrap_or_else(|| stem.clone());
                let images: Vec<Page> = match outcome {
                    Outcome::Rendered { pages, .. } => pages,
                    Outcome::Error {
                        line, message, image, ..
                    } => {
                        let error = FileError {
                            path: input.path.clone(),
                            line: block.first_line + injected.source_line(line) + 1 - block.added_lines,
                            message,
                        };
                        if write || options.check_only || options.fail_fast_before {
                            report_error(options, &error, io.stderr);
                        }
                        errors.push(error);
                        if options.fail_fast || !write {
                            vec![]
                        } else {
                            vec![image]
                        }
                    }
                    Outcome::Unsupported { kind, image } => match (&options.fallback_jar, write) {
                        (Some(jar), true) => match fallback(jar, &block.text, options.format) {
                            Ok((bytes, _)) => vec![Page {
                                bytes,
                                width: 0.0,
                                height: 0.0,
                            }],
                            Err(message) => {
                                let _ = writeln!(io.stderr, "{}: {message}", input.path.display());
                                vec![image]
                            }
                        },
                        (Some(_), false) => vec![],
                        (None, _) => {
                            if write || options.check_only {
                                let _ = writeln!(
                                    io.stderr,
                                    "{}: {}",
                                    input.path.display(),
                                    unsupported_message(kind).replace('\n', " ")
                                );
                            }
                            unsupported = true;
                            if write {
                                vec![image]
                            } else {
                                vec![]
                            }
                        }
                    },
                };
                if write {
                    for image in images {
                        let name = names.next(&base, options.format.extension());
                        if let Err(message) = write_atomic(&out_dir, &name, &image.bytes) {
                            warnings.push(message);
                        }
                    }
                }
                if options.fail_fast && !errors.is_empty() {
                    break;
                }
            }
            if options.fail_fast && !errors.is_empty() {
                break;
            }
        }
        if !errors.is_empty() && (options.fail_fast_before || options.fail_fast) {
            break;
        }
    }
    for warning in &warnings {
        let _ = writeln!(io.stderr, "puml-plantuml: warning: {warning}");
    }
    if !errors.is_empty() {
        if options.report_style != 2 {
            let _ = writeln!(io.stderr, "Some diagram description contains errors");
        }
        return EXIT_ERROR;
    }
    if unsupported {
        return EXIT_UNSUPPORTED_KIND;
    }
    EXIT_OK
}

fn report_error(options: &Options, error: &FileError, stderr: &mut dyn Write) {
    let message = error.message.replace('\n', " ");
    let _ = match options.report_style {
        1 => writeln!(
            stderr,
            "{}Error line {} in file: {}",
            protocol_report(error.line, &message),
            error.line,
            error.path.display()
        ),
        2 => writeln!(stderr, "{}:{}:error:{message}", error.path.display(), error.line),
        _ if options.check_only => Ok(()),
        _ => writeln!(stderr, "Error line {} in file: {}", error.line, error.path.display()),
    };
}

fn read_limited(path: &Path) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!(
            "{}: larger than {MAX_INPUT_BYTES} bytes; skipped",
            path.display()
        ));
    }
    Ok(bytes)
}

fn absolute(path: &Path, cwd: Option<&Path>) -> PathBuf {
    match cwd {
        Some(cwd) if path.is_relative() => cwd.join(path),
        _ => path.to_path_buf(),
    }
}

/// The current directory when the input lies under it, else the input's own directory.
fn include_root_for(path: &Path, cwd: Option<&Path>) -> Option<PathBuf> {
    let absolute = absolute(path, cwd).canonicalize().ok()?;
    let directory = absolute.parent()?.to_path_buf();
    match cwd.and_then(|c| c.canonicalize().ok()) {
        Some(cwd) if directory.starts_with(&cwd) => Some(cwd),
        _ => Some(directory),
    }
}

/// `-o DIR` is relative to each input's directory (PlantUML's rule).
fn output_dir(input: &Path, requested: Option<&Path>) -> PathBuf {
    let parent = input.parent().map(Path::to_path_buf).unwrap_or_default();
    match requested {
        Some(dir) if dir.is_absolute() => dir.to_path_buf(),
        Some(dir) => parent.join(dir),
        None => parent,
    }
}

/// Writes an output image atomically (temporary file + rename, no sync:
/// it can be generated again), creating `dir` if needed as PlantUML does.
fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let target = dir.join(name);
    puml_ide::fs::write_generated(&target, bytes, false).map_err(|e| format!("cannot write {}: {e}", target.display()))
}

#[cfg(test)]
mod tests {
    use super::wildcard_match;

    #[test]
    fn wildcards() {
        assert!(wildcard_match("*.puml", "docs/a.puml"));
        assert!(wildcard_match("**/draft*", "docs/x/draft1.puml"));
        assert!(wildcard_match("a?c", "abc"));
        assert!(!wildcard_match("a?c", "ac"));
        assert!(!wildcard_match("*.iuml", "docs/a.puml"));
    }
}
