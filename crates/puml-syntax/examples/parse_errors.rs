//! Prints the syntax errors of the files given (a development aid).
fn main() {
    for path in std::env::args().skip(1) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let parse = puml_syntax::parse(&text);
        let index = puml_syntax::LineIndex::new(&text);
        for e in parse.errors() {
            let lc = index.line_col(&text, e.range.start());
            println!(
                "{path}:{}:{}: {:?} {} {}",
                lc.line, lc.col, e.severity, e.code, e.message
            );
        }
    }
}
