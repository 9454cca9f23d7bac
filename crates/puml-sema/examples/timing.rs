//! Times parse and lowering of a generated 5,000-message diagram (a development aid).
use std::time::Instant;
fn main() {
    let mut text = String::from("@startuml\n");
    for i in 0..5000 {
        text.push_str(&format!("Client -> Server : request {i}\n"));
    }
    text.push_str("@enduml\n");
    for _ in 0..3 {
        let t = Instant::now();
        let parse = puml_syntax::parse(&text);
        let p = t.elapsed();
        let t = Instant::now();
        let a = puml_sema::analyze_parsed(&text, &parse, &Default::default(), &puml_sema::NoIncludes);
        let l = t.elapsed();
        let t = Instant::now();
        let n = puml_sema::preprocess::needs_preprocessing(&text);
        let pp = t.elapsed();
        println!(
            "parse {:?} lower {:?} needs_pp {:?} {} {}",
            p,
            l,
            pp,
            a.diagnostics.len(),
            n
        );
    }
}
