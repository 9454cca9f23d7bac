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
    /// A class diagram's element name where one is named (declarations,
    /// links, notes, `A : member` lines).
    ClassName,
    /// A package or namespace name.
    Package,
    /// A field of a class (or an enum constant, a map row).
    Field,
    /// A method of a class.
    Method,
    /// A member's visibility character (`-`, `#`, `~`, `+`) or modifier
    /// (`{static}`, `{abstract}`, `{field}`, `{method}`).
    Modifier,
    /// A generic's parameters (`<T extends Number>`).
    Generic,
}

impl HighlightClass {
    /// Every class, in a stable order (an LSP legend's order).
    /// (Classes added later come last, so a legend's earlier indices stay.)
    pub const ALL: [HighlightClass; 16] = [
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
        HighlightClass::ClassName,
        HighlightClass::Package,
        HighlightClass::Field,
        HighlightClass::Method,
        HighlightClass::Modifier,
        HighlightClass::Generic,
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
            // A description diagram's element names are class names too
            // (`actor A`, `[Comp]`, `(Use case)`, `:Actor:` as written).
            IDENT
                if matches!(
                    parent,
                    Some(CLASS_DECL | CLASS_LINK | MEMBER_LINE | CLASS_NOTE | DESC_ELEMENT | DESC_LINK | DESC_NOTE)
                ) =>
            {
                HighlightClass::ClassName
            }
            IDENT if matches!(parent, Some(PACKAGE_START | DESC_CONTAINER_START)) => HighlightClass::Package,
            GENERIC => HighlightClass::Generic,
            // A member line: its modifiers, visibility and text apart.
            TEXT if matches!(parent, Some(CLASS_MEMBER | MEMBER_LINE)) => {
                member_highlights(token.text(), token.text_range().start(), &mut out);
                continue;
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

/// A class member's pieces: modifiers and visibility, then its text as a
/// field or a method (a separator line is plain text).
fn member_highlights(text: &str, start: puml_syntax::TextSize, out: &mut Vec<Highlight>) {
    let written = text.trim_end();
    let at = |from: usize, to: usize| {
        TextRange::new(
            start + puml_syntax::TextSize::from(from as u32),
            start + puml_syntax::TextSize::from(to as u32),
        )
    };
    if ["--", "..", "==", "__"]
        .iter()
        .any(|m| written.trim_start().starts_with(m))
    {
        out.push(Highlight {
            range: at(0, written.len()),
            class: HighlightClass::Text,
        });
        return;
    }
    let parts = crate::class_outline::member_parts(written);
    let mut pieces: Vec<(usize, usize, HighlightClass)> = parts
        .modifiers
        .iter()
        .map(|(from, to)| (*from, *to, HighlightClass::Modifier))
        .collect();
    if let Some((_, offset)) = parts.visibility {
        pieces.push((offset, offset + 1, HighlightClass::Modifier));
    }
    pieces.sort_by_key(|p| p.0);
    let class = if parts.is_method {
        HighlightClass::Method
    } else {
        HighlightClass::Field
    };
    if parts.text_start < written.len() {
        pieces.push((parts.text_start, written.len(), class));
    }
    out.extend(pieces.into_iter().map(|(from, to, class)| Highlight {
        range: at(from, to),
        class,
    }));
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
    fn description_elements_and_containers_get_classes() {
        let text = "@startuml\nnode Server {\n  [Cart] as C\n}\nactor User\nUser --> (Buy) : go\n:Clerk: ..> C\nnote right of User : hi\n@enduml\n";
        let parse = puml_syntax::parse(text);
        let got: Vec<(&str, HighlightClass)> = highlights(&parse).iter().map(|h| (&text[h.range], h.class)).collect();
        use HighlightClass::*;
        for expected in [
            ("node", Keyword),
            ("Server", Package),
            ("[Cart]", ClassName),
            ("C", ClassName),
            ("User", ClassName),
            ("(Buy)", ClassName),
            (":Clerk:", ClassName),
            ("-->", Arrow),
        ] {
            assert!(got.contains(&expected), "{expected:?} in {got:?}");
        }
        // The note's target too.
        assert_eq!(got.iter().filter(|g| **g == ("User", ClassName)).count(), 3, "{got:?}");
    }

    #[test]
    fn class_names_members_and_modifiers_get_classes() {
        let text = "@startuml\npackage shop {\nabstract class Shape<T> {\n  - {static} count : int\n  + draw()\n  --\n}\n}\nShape <|-- Circle\nCircle : {abstract} #area() : double\n@enduml\n";
        let parse = puml_syntax::parse(text);
        let got: Vec<(&str, HighlightClass)> = highlights(&parse).iter().map(|h| (&text[h.range], h.class)).collect();
        use HighlightClass::*;
        for expected in [
            ("shop", Package),
            ("abstract", Keyword),
            ("Shape", ClassName),
            ("<T>", Generic),
            ("-", Modifier),
            ("{static}", Modifier),
            ("count : int", Field),
            ("+", Modifier),
            ("draw()", Method),
            ("--", Text),
            ("<|--", Arrow),
            ("Circle", ClassName),
            ("{abstract}", Modifier),
            ("#", Modifier),
            ("area() : double", Method),
        ] {
            assert!(got.contains(&expected), "{expected:?}: {got:?}");
        }
        // In text order, no overlaps.
        let ranges: Vec<TextRange> = highlights(&parse).iter().map(|h| h.range).collect();
        assert!(ranges.windows(2).all(|w| w[0].end() <= w[1].start()), "{ranges:?}");
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
