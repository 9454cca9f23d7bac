//! The repair engine behind `puml check --fix`, the MCP `puml_check`
//! `fix: true` option and the LSP's "fix all".
//!
//! Rounds: check, take the machine-applicable fix of every error in the
//! main file, drop the ones that overlap a fix already taken (diagnostics
//! are taken in source order, and at one position the narrower, more
//! specific one first, so the choice is deterministic), apply them, check
//! again. A round that would leave more errors than it started with is
//! retried with its first fix alone; the rounds stop at a fixpoint, when no
//! fix is left, or after [`MAX_ROUNDS`]. A file without errors is never
//! changed, and the result never has more errors than the input.

use crate::check::CheckOptions;
use puml_sema::FileLoader;
use puml_syntax::{Diagnostic, TextEdit, TextRange};

/// Enough for a cascade of dependent repairs (each round can reveal the
/// next problem); bounded so that a fix that undoes another cannot loop.
pub const MAX_ROUNDS: usize = 8;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixOutcome {
    /// The repaired source (the input itself when nothing was applied).
    pub source: String,
    /// Fixes applied, over all rounds.
    pub applied: usize,
    pub rounds: usize,
    pub errors_before: usize,
    pub errors_after: usize,
}

impl FixOutcome {
    pub fn changed(&self, original: &str) -> bool {
        self.source != original
    }
}

fn error_count(diagnostics: &[Diagnostic]) -> usize {
    diagnostics.iter().filter(|d| d.is_error()).count()
}

/// The edits of the machine-applicable fixes to apply together: one fix per
/// error diagnostic of the main file, none overlapping another.
pub fn select_fixes(diagnostics: &[Diagnostic]) -> Vec<Vec<TextEdit>> {
    let mut candidates: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.is_error() && d.file.is_none())
        .filter(|d| d.fixes.iter().any(|f| f.machine_applicable && !f.edits.is_empty()))
        .collect();
    // Earlier first; at one start, the narrower (more specific) first.
    candidates.sort_by_key(|d| (d.range.start(), d.range.len()));
    let mut taken: Vec<TextRange> = Vec::new();
    let mut chosen = Vec::new();
    for diagnostic in candidates {
        let Some(fix) = diagnostic
            .fixes
            .iter()
            .find(|f| f.machine_applicable && !f.edits.is_empty())
        else {
            continue;
        };
        let conflicts = fix.edits.iter().any(|e| taken.iter().any(|t| overlaps(*t, e.range)));
        if conflicts {
            continue;
        }
        taken.extend(fix.edits.iter().map(|e| e.range));
        chosen.push(fix.edits.clone());
    }
    chosen
}

/// Two edit ranges conflict when they share a byte, or when both insert at
/// the same point (their order would be arbitrary), or one inserts inside
/// the other.
fn overlaps(a: TextRange, b: TextRange) -> bool {
    if a.is_empty() || b.is_empty() {
        return a.start() == b.start()
            || (a.start() > b.start() && a.start() < b.end())
            || (b.start() > a.start() && b.start() < a.end());
    }
    a.start() < b.end() && b.start() < a.end()
}

/// Repairs `text` as far as its machine-applicable fixes go (see the module
/// documentation for the rules).
pub fn fix_all(text: &str, options: &CheckOptions, loader: &dyn FileLoader) -> FixOutcome {
    let analysis_options = options.analysis_options();
    let analyze = |source: &str| puml_sema::analyze(source, &analysis_options, loader).diagnostics;
    let mut diagnostics = analyze(text);
    let errors_before = error_count(&diagnostics);
    let mut outcome = FixOutcome {
        source: text.to_string(),
        applied: 0,
        rounds: 0,
        errors_before,
        errors_after: errors_before,
    };
    let mut seen = vec![text.to_string()];
    while outcome.rounds < MAX_ROUNDS && outcome.errors_after > 0 {
        let fixes = select_fixes(&diagnostics);
        if fixes.is_empty() {
            break;
        }
        outcome.rounds += 1;
        // All the round's fixes together; if that adds errors, the first alone.
        let attempts = [fixes.clone(), fixes[..1].to_vec()];
        let mut progressed = false;
        for attempt in attempts.iter().take(if fixes.len() > 1 { 2 } else { 1 }) {
            let edits: Vec<TextEdit> = attempt.iter().flatten().cloned().collect();
            let (next, skipped) = puml_syntax::apply_edits(&outcome.source, &edits);
            if skipped == edits.len() || seen.contains(&next) {
                continue;
            }
            let next_diagnostics = analyze(&next);
            let errors = error_count(&next_diagnostics);
            if errors > outcome.errors_after {
                continue;
            }
            outcome.applied += attempt.len();
            outcome.errors_after = errors;
            outcome.source = next.clone();
            seen.push(next);
            diagnostics = next_diagnostics;
            progressed = true;
            break;
        }
        if !progressed {
            break;
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use puml_sema::NoIncludes;

    fn fix(text: &str) -> FixOutcome {
        fix_all(text, &CheckOptions::default(), &NoIncludes)
    }

    #[test]
    fn a_clean_file_is_left_alone() {
        let text = "@startuml\nAlice -> Bob : hi\n@enduml\n";
        let outcome = fix(text);
        assert_eq!(outcome.source, text);
        assert_eq!((outcome.applied, outcome.rounds, outcome.errors_after), (0, 0, 0));
    }

    #[test]
    fn a_mermaid_arrow_is_repaired() {
        let outcome = fix("@startuml\nAlice->>Bob: hi\nAlice-)Bob: async\n@enduml\n");
        assert_eq!(outcome.errors_after, 0, "{}", outcome.source);
        assert!(outcome.errors_before > 0);
    }

    #[test]
    fn overlapping_fixes_keep_the_earlier_one() {
        let at = |s: u32, e: u32| TextRange::new(s.into(), e.into());
        assert!(overlaps(at(2, 5), at(4, 6)));
        assert!(!overlaps(at(2, 4), at(4, 6)));
        assert!(overlaps(at(3, 3), at(3, 3)));
        assert!(overlaps(at(3, 3), at(2, 5)));
        assert!(!overlaps(at(5, 5), at(2, 5)));
    }
}
