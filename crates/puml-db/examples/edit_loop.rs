//! Repeats the one-character edit of `cargo xtask bench-check` (a profiling aid).
use puml_db::{diagnostics, Config, Database, SourceFile};
use salsa::Setter;
use std::time::Instant;

fn main() {
    let mut text = String::from("@startuml\nparticipant Client\nparticipant Server\n");
    for line in 3..4_998 {
        if line % 50 == 0 {
            text.push_str(if (line / 50) % 2 == 1 { "alt branch\n" } else { "end\n" });
        } else {
            text.push_str(&format!("Client -> Server : request {line}\n"));
        }
    }
    text.push_str("end\n@enduml\n");
    let mut db = Database::default();
    let file = SourceFile::new(&db, None, text.clone().into());
    let config = Config::new(&db, None, false, None);
    let target = text.find("request 2501").unwrap_or(text.len() / 2) + "request ".len();
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(500);
    let start = Instant::now();
    for i in 0..rounds {
        let mut edited = text.clone();
        edited.replace_range(target..target + 1, &char::from(b'0' + (i % 10) as u8).to_string());
        file.set_text(&mut db).to(edited.into());
        std::hint::black_box(diagnostics(&db, file, config).len());
    }
    println!("{:.3} ms per edit", start.elapsed().as_secs_f64() * 1e3 / rounds as f64);
}
