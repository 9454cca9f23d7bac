//! Parse + lower time for 1,000 and 10,000 messages (a development aid).
use std::time::{Duration, Instant};

fn diagram(messages: usize) -> String {
    let mut text = String::from("@startuml\n");
    for i in 0..messages {
        text.push_str(&format!("Client -> Server : request {i}\n"));
    }
    text.push_str("@enduml\n");
    text
}

fn best(text: &str, runs: usize) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(puml_sema::analyze(text, &Default::default(), &puml_sema::NoIncludes));
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    if let Some(n) = std::env::args().nth(1).and_then(|a| a.parse::<usize>().ok()) {
        let text = diagram(n);
        for _ in 0..(200_000 / n) {
            std::hint::black_box(puml_sema::analyze(&text, &Default::default(), &puml_sema::NoIncludes));
        }
        return;
    }
    let small = best(&diagram(1_000), 41);
    let large = best(&diagram(10_000), 11);
    println!(
        "analyze 1k {small:?} 10k {large:?} ratio {:.2}",
        large.as_secs_f64() / small.as_secs_f64()
    );
}
