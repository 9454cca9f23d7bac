//! The database recomputes only what an edit can change.

use puml_db::{analysis, diagnostics, document, scenes, summary, Config, Database, SourceFile};
use salsa::Setter;

const DIAGRAM: &str = "@startuml\n' a comment\nAlice -> Bob : hello\nBob --> Alice : hi\n@enduml\n";

fn executed(log: &[String], query: &str) -> bool {
    log.iter().any(|entry| entry.starts_with(&format!("{query}(")))
}

#[test]
fn comment_edit_reparses_but_keeps_the_model() {
    let mut db = Database::with_execution_log();
    let file = SourceFile::new(&db, None, DIAGRAM.to_string().into());
    let config = Config::new(&db, None, false, None);
    let before = summary(&db, file, config);
    assert_eq!(before.participants, 2);
    assert_eq!(scenes(&db, file, config).len(), 1);
    let first = db.take_log();
    assert!(
        executed(&first, "parse") && executed(&first, "summary") && executed(&first, "scenes"),
        "{first:?}"
    );

    // Edit inside the comment only.
    file.set_text(&mut db)
        .to(DIAGRAM.replace("a comment", "a longer comment").into());
    let after = summary(&db, file, config);
    let _ = scenes(&db, file, config);
    let second = db.take_log();
    assert_eq!(before, after);
    assert!(
        executed(&second, "parse"),
        "the text changed, so parse re-runs: {second:?}"
    );
    assert!(executed(&second, "analysis"), "{second:?}");
    assert!(
        !executed(&second, "summary"),
        "the model is equal, so summary must not re-run: {second:?}"
    );
    assert!(
        !executed(&second, "scenes"),
        "the model is equal, so layout must not re-run: {second:?}"
    );

    // A real edit re-runs everything downstream.
    file.set_text(&mut db)
        .to(DIAGRAM.replace("Bob --> Alice", "Bob --> Carol").into());
    let changed = summary(&db, file, config);
    let third = db.take_log();
    assert_eq!(changed.participants, 3);
    assert!(executed(&third, "summary"), "{third:?}");
}

#[test]
fn diagnostics_follow_edits() {
    let mut db = Database::default();
    let file = SourceFile::new(&db, None, DIAGRAM.to_string().into());
    let config = Config::new(&db, None, false, None);
    assert!(diagnostics(&db, file, config).is_empty());
    file.set_text(&mut db)
        .to(DIAGRAM.replace("Bob --> Alice : hi", "endloop").into());
    let found = diagnostics(&db, file, config);
    assert_eq!(found[0].code, "E0105", "{found:?}");
    assert_eq!(document(&db, file, config).diagrams.len(), 1);
    assert!(analysis(&db, file, config).included_files.is_empty());
}

#[test]
fn included_files_are_inputs() {
    let dir = std::env::temp_dir().join(format!("puml-db-include-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let included = dir.join("parts.iuml");
    std::fs::write(&included, "participant Included\n").unwrap();
    let main = dir.join("main.puml");
    let text = "@startuml\n!include parts.iuml\nIncluded -> Other\n@enduml\n";
    let mut db = Database::default();
    let file = SourceFile::new(&db, Some(main), text.to_string().into());
    let config = Config::new(&db, None, false, None);
    let first = summary(&db, file, config);
    assert_eq!(first.participants, 2, "{:?}", diagnostics(&db, file, config));
    std::fs::write(&included, "participant Included\nparticipant Extra\n").unwrap();
    db.refresh_included_files();
    assert_eq!(summary(&db, file, config).participants, 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Keystrokes go through the remembered parse; each answer must equal a
/// from-scratch analysis of the same text.
#[test]
fn typed_edits_give_the_diagnostics_of_a_fresh_analysis() {
    let mut text = String::from("@startuml\nparticipant A\n");
    for i in 0..40 {
        text.push_str(&format!("A -> B : step {i}\n"));
    }
    text.push_str("@enduml\n");
    let mut db = Database::default();
    let file = SourceFile::new(&db, None, text.clone().into());
    let config = Config::new(&db, None, false, None);
    let _ = diagnostics(&db, file, config);
    let at = text.find("step 20").unwrap();
    // Type a bad color, an unknown participant and a dangling deactivate, one
    // character at a time, then delete them again.
    let typed = " #Nocolor ++ --";
    let mut states = Vec::new();
    for end in 1..=typed.len() {
        let mut next = text.clone();
        next.insert_str(at + "step 20".len(), &typed[..end]);
        states.push(next);
    }
    states.extend(states.clone().into_iter().rev());
    states.push(text.replace("A -> B : step 3\n", "deactivate C\n"));
    for state in states {
        file.set_text(&mut db).to(state.clone().into());
        let fresh = puml_sema::analyze(&state, &Default::default(), &puml_sema::NoIncludes);
        assert_eq!(diagnostics(&db, file, config), &fresh.diagnostics, "{state}");
    }
}
