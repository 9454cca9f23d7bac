//! Development aid: `dump_tree FILE` prints the syntax tree and the parse
//! errors; `dump_tree --fmt FILE` prints the formatted text.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (format, path) = match args.as_slice() {
        [flag, path] if flag == "--fmt" => (true, path.clone()),
        [path] => (false, path.clone()),
        _ => {
            eprintln!("usage: dump_tree [--fmt] FILE");
            return;
        }
    };
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    if format {
        print!("{}", puml_fmt::format(&text, &puml_fmt::FormatOptions::default()));
        return;
    }
    let parse = puml_syntax::parse(&text);
    print!("{}", puml_syntax::debug_dump(&parse.syntax()));
    for error in parse.errors() {
        println!("{} {:?} {}", error.code, error.range, error.message);
    }
}
