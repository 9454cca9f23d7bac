//! Syntax highlighting from the lossless tree: every significant token
//! with the class an editor colours it by (LSP semantic tokens, previews).

use puml_syntax::{Parse, SyntaxKind, TextRange};

/// What a highlighted token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HighlightClass {
    Comment,
    Keyword,
    /// A preprocessor directive (`!include`, `!define`, `!theme`).
    Directive,
    /// A participant name or alias where a participant is named.
    Participant,
    String,
    /// An arrow and lifecycle markers (`->`, `-->>`, `++`).
    Arrow,
    Color,
    Stereotype,
    Number,
    /// Label, note and title text; activity actions, conditions and
    /// branch labels (`(yes)`), connectors (`(A)`).
    Text,
}

impl HighlightClass {
    /// Every class, in a stable order (an LSP legend's order).
    pub const ALL: [HighlightClass; 10] = [
        HighlightClass::Comment,
        HighlightClass::Keyword,
        HighlightClass::Directive,
        HighlightClass::Participant,
        HighlightClass::String,
        HighlightClass::Arrow,
        HighlightClass::Color,
        HighlightClass::Stereotype,
        HighlightClass::Number,
        HighlightClass::Text,
    ];
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Highlight {
    pub range: TextRange,
    pub class: HighlightClass,
}

/// The highlighted tokens of a parse, in text order (no overlaps).
pub fn highlights(parse: &Parse) -> Vec<Highlight> {
    use SyntaxKind::*;
    let mut out = Vec::new();
    for element in parse.syntax().descendants_with_tokens() {
        let Some(token) = element.into_token() else {
            continue;
        };
        let parent = token.parent().map(|p| p.kind());
        let class = match token.kind() {
            COMMENT | BLOCK_COMMENT => HighlightClass::Comment,
            KEYWORD => HighlightClass::Keyword,
            DIRECTIVE => HighlightClass::Directive,
            IDENT
                if matches!(
                    parent,
                    Some(PARTICIPANT | MESSAGE | ENDPOINT | CREATE | ACTIVATE | DEACTIVATE | DESTROY | NOTE | REF)
                ) =>
            {
                HighlightClass::Participant
            }
            STRING => HighlightClass::String,
            ARROW | LIFECYCLE => HighlightClass::Arrow,
            COLOR => HighlightClass::Color,
            STEREOTYPE => HighlightClass::Stereotype,
            NUMBER => HighlightClass::Number,
            // PAREN: an activity condition or label, `(done?)`, or a connector.
            TEXT | PAREN => HighlightClass::Text,
            _ => continue,
        };
        out.push(Highlight {
            range: token.text_range(),
            class,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_tree() {
        let text = "@startuml\n' note\nparticipant \"Long\" as L #red\nL -> Bob ++ : hi\n@enduml\n";
        let parse = puml_syntax::parse(text);
        let got: Vec<(&str, HighlightClass)> = highlights(&parse).iter().map(|h| (&text[h.range], h.class)).collect();
        use HighlightClass::*;
        assert!(got.contains(&("' note", Comment)), "{got:?}");
        assert!(got.contains(&("participant", Keyword)), "{got:?}");
        assert!(got.contains(&("\"Long\"", String)), "{got:?}");
        assert!(got.contains(&("#red", Color)), "{got:?}");
        assert!(got.contains(&("->", Arrow)) && got.contains(&("++", Arrow)), "{got:?}");
        assert!(got.contains(&("Bob", Participant)), "{got:?}");
        assert!(got.iter().any(|(t, c)| *c == Text && t.contains("hi")), "{got:?}");
    }

    #[test]
    fn activity_keywords_texts_conditions_and_colours_get_classes() {
        let text = "@startuml\n|#pink|Lane|\nstart\n:check **stock**;\nif (in stock?) then (yes)\n  -[#red]-> ship;\n  :ship; <<#green>>\nelse (no)\nendif\nfork again\n(A)\nstop\n@enduml\n";
        let parse = puml_syntax::parse(text);
        let got: Vec<(&str, HighlightClass)> = highlights(&parse).iter().map(|h| (&text[h.range], h.class)).collect();
        use HighlightClass::*;
        for keyword in ["start", "if", "then", "else", "endif", "fork", "again", "stop"] {
            assert!(got.contains(&(keyword, Keyword)), "{keyword}: {got:?}");
        }
        assert!(
            got.contains(&("#pink", Color)) && got.contains(&("Lane", Text)),
            "{got:?}"
        );
        assert!(got.contains(&("check **stock**", Text)), "{got:?}");
        assert!(got.contains(&("(in stock?)", Text)), "{got:?}");
        assert!(
            got.contains(&("(yes)", Text)) && got.contains(&("(no)", Text)),
            "{got:?}"
        );
        assert!(
            got.contains(&("-[#red]->", Arrow)) && got.contains(&("ship", Text)),
            "{got:?}"
        );
        assert!(got.contains(&("<<#green>>", Stereotype)), "{got:?}");
        assert!(got.contains(&("(A)", Text)), "{got:?}");
    }
}
