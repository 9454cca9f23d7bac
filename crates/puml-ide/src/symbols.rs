//! The preprocessor's names: `$variables` (`!$x = …`, `!global`, `!local`),
//! `!procedure`s and `!function`s (with or without `!unquoted`). Each symbol
//! has its definition and every use, found in the syntax tree's tokens
//! (comments skipped, a `$name` matched as a whole word), so that the
//! language server's definition, references, highlight and rename work on
//! them as they do on participants.

use puml_syntax::{Parse, SyntaxKind, TextRange, TextSize};
use std::path::PathBuf;

/// What a preprocessor name stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreprocessorKind {
    Variable,
    Procedure,
    Function,
}

/// One name, its definition and its uses (the definition included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreprocessorSymbol {
    /// With its `$` (`$greet`).
    pub name: String,
    pub kind: PreprocessorKind,
    /// The name in its (first) definition: in this file, or in
    /// `definition_file` when an included file defines it.
    pub definition: TextRange,
    /// The included file that defines the name (`None`: this file does).
    pub definition_file: Option<PathBuf>,
    /// Every occurrence in this file, in text order, the definition's
    /// included when it is here.
    pub uses: Vec<TextRange>,
    /// Occurrences in the files this one includes: `(file, range there)`.
    pub included_uses: Vec<(PathBuf, TextRange)>,
}

impl PreprocessorSymbol {
    /// Whether `offset` lies on one of the symbol's occurrences.
    pub fn occurs_at(&self, offset: TextSize) -> Option<TextRange> {
        self.uses
            .iter()
            .copied()
            .find(|r| r.start() <= offset && offset <= r.end())
    }
}

/// The preprocessor symbols of a file.
pub fn preprocessor_symbols(parse: &Parse) -> Vec<PreprocessorSymbol> {
    let mut symbols = definitions(&parse.syntax().text().to_string(), None);
    if !symbols.is_empty() {
        add_uses(parse, &mut symbols);
    }
    symbols
}

/// The symbols of a file that `!include`s others (`included`: each
/// included file's path and text, as the preprocessor read them): this
/// file's own, then the names the included files define, each with its
/// uses here and its occurrences in the included files.
pub fn preprocessor_symbols_with_includes(parse: &Parse, included: &[(String, String)]) -> Vec<PreprocessorSymbol> {
    let mut symbols = definitions(&parse.syntax().text().to_string(), None);
    let included_parses: Vec<(PathBuf, Parse)> = included
        .iter()
        .map(|(path, text)| (PathBuf::from(path), puml_syntax::parse(text)))
        .collect();
    for (path, included_parse) in &included_parses {
        for symbol in definitions(&included_parse.syntax().text().to_string(), Some(path)) {
            if !symbols.iter().any(|s| s.name == symbol.name) {
                symbols.push(symbol);
            }
        }
    }
    if symbols.is_empty() {
        return symbols;
    }
    add_uses(parse, &mut symbols);
    for (path, included_parse) in &included_parses {
        for (name, occurrence) in occurrences(included_parse) {
            if let Some(symbol) = symbols.iter_mut().find(|s| s.name == name) {
                symbol.included_uses.push((path.clone(), occurrence));
            }
        }
    }
    symbols
}

/// The names `text` defines, one per line that defines one (the first
/// definition wins), with no uses yet.
fn definitions(text: &str, file: Option<&PathBuf>) -> Vec<PreprocessorSymbol> {
    let mut symbols: Vec<PreprocessorSymbol> = Vec::new();
    let mut offset = 0usize;
    for line in text.split_inclusive('\n') {
        if let Some((name, start, kind)) = defined_name(line) {
            if !symbols.iter().any(|s| s.name == name) {
                let at = offset + start;
                symbols.push(PreprocessorSymbol {
                    definition: range(at, at + name.len()),
                    definition_file: file.cloned(),
                    name,
                    kind,
                    uses: Vec::new(),
                    included_uses: Vec::new(),
                });
            }
        }
        offset += line.len();
    }
    symbols
}

/// Every `$name` of `parse` outside comments, in text order.
fn occurrences(parse: &Parse) -> Vec<(String, TextRange)> {
    let mut found = Vec::new();
    for token in parse.syntax().descendants_with_tokens().filter_map(|e| e.into_token()) {
        if matches!(token.kind(), SyntaxKind::COMMENT | SyntaxKind::BLOCK_COMMENT) {
            continue;
        }
        let base = usize::from(token.text_range().start());
        for (at, name) in dollar_words(token.text()) {
            let occurrence = range(base + at, base + at + name.len());
            found.push((name, occurrence));
        }
    }
    found
}

/// This file's uses of each symbol.
fn add_uses(parse: &Parse, symbols: &mut [PreprocessorSymbol]) {
    for (name, occurrence) in occurrences(parse) {
        if let Some(symbol) = symbols.iter_mut().find(|s| s.name == name) {
            symbol.uses.push(occurrence);
        }
    }
    for symbol in symbols.iter_mut() {
        symbol.uses.sort_by_key(|r| r.start());
        symbol.uses.dedup();
    }
}

/// The symbol whose name is at `offset`.
pub fn symbol_at(symbols: &[PreprocessorSymbol], offset: TextSize) -> Option<&PreprocessorSymbol> {
    symbols.iter().find(|s| s.occurs_at(offset).is_some())
}

/// Whether `name` can name a preprocessor symbol of this kind (`$` and a word).
pub fn is_valid_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('$') else {
        return false;
    };
    let mut chars = rest.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_') && chars.all(|c| c.is_alphanumeric() || c == '_')
}

fn range(start: usize, end: usize) -> TextRange {
    TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32))
}

/// `(byte offset, "$name")` of each whole `$name` word in `text`.
fn dollar_words(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut index = 0;
    while let Some(relative) = text[index..].find('$') {
        let at = index + relative;
        let word_end = text[at + 1..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(text.len(), |e| at + 1 + e);
        let preceded_by_word = at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        if word_end > at + 1 && !preceded_by_word {
            found.push((at, text[at..word_end].to_string()));
        }
        index = word_end.max(at + 1);
    }
    found
}

/// The name a line defines, where it starts in the line, and its kind.
fn defined_name(line: &str) -> Option<(String, usize, PreprocessorKind)> {
    let indent = line.len() - line.trim_start().len();
    let trimmed = line.trim();
    let lower = trimmed.to_ascii_lowercase();
    let forms: [(&str, PreprocessorKind); 6] = [
        ("!unquoted procedure ", PreprocessorKind::Procedure),
        ("!procedure ", PreprocessorKind::Procedure),
        ("!unquoted function ", PreprocessorKind::Function),
        ("!function ", PreprocessorKind::Function),
        ("!global ", PreprocessorKind::Variable),
        ("!local ", PreprocessorKind::Variable),
    ];
    let (after, kind) = forms
        .iter()
        .find_map(|(prefix, kind)| lower.starts_with(prefix).then_some((prefix.len(), *kind)))
        .or_else(|| trimmed.starts_with("!$").then_some((1, PreprocessorKind::Variable)))?;
    let rest = &trimmed[after..];
    let skipped = rest.len() - rest.trim_start().len();
    let rest = rest.trim_start();
    let name: String = rest
        .chars()
        .take_while(|c| *c == '$' || c.is_alphanumeric() || *c == '_')
        .collect();
    is_valid_name(&name).then(|| (name, indent + after + skipped, kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symbols(text: &str) -> Vec<PreprocessorSymbol> {
        preprocessor_symbols(&puml_syntax::parse(text))
    }

    fn slices<'a>(text: &'a str, ranges: &[TextRange]) -> Vec<&'a str> {
        ranges.iter().map(|r| &text[*r]).collect()
    }

    #[test]
    fn variables_procedures_and_functions_with_their_uses() {
        let text = "@startuml\n!$who = \"Bob\"\n!procedure $greet($to)\n  Alice -> $to : hi\n!endprocedure\n!function $twice($x)\n!return $x + $x\n!endfunction\n' $who in a comment\n$greet($who)\nAlice -> $who : $twice(2) $whom\n@enduml\n";
        let all = symbols(text);
        let who = all.iter().find(|s| s.name == "$who").unwrap();
        assert_eq!(who.kind, PreprocessorKind::Variable);
        assert_eq!(&text[who.definition], "$who");
        assert_eq!(
            who.uses.len(),
            3,
            "definition, the call argument, the message; not the comment nor $whom"
        );
        let greet = all.iter().find(|s| s.name == "$greet").unwrap();
        assert_eq!((greet.kind, greet.uses.len()), (PreprocessorKind::Procedure, 2));
        let twice = all.iter().find(|s| s.name == "$twice").unwrap();
        assert_eq!((twice.kind, twice.uses.len()), (PreprocessorKind::Function, 2));
        assert!(slices(text, &twice.uses).iter().all(|s| *s == "$twice"));
        let at = who.uses[2].start() + TextSize::from(2);
        assert_eq!(symbol_at(&all, at).map(|s| s.name.as_str()), Some("$who"));
    }

    #[test]
    fn names() {
        assert!(is_valid_name("$a_1"));
        assert!(!is_valid_name("a"));
        assert!(!is_valid_name("$1a"));
        assert!(!is_valid_name("$a-b"));
        assert!(symbols("@startuml\nA -> B : $x\n@enduml\n").is_empty());
    }
}
