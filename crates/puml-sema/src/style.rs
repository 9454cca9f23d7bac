//! PlantUML `<style>` sheets, read as PlantUML reads them: nested selector
//! blocks (`sequenceDiagram { participant { … } }`), selector lists
//! (`participant, actor { … }`), stereotype selectors (`.name`, on their own,
//! nested in an element or joined to it: `participant.name`), and
//! `Property value` declarations separated by newlines or `;`.
//!
//! What PlantUML does with the odd cases (observed with PlantUML 1.2026.8):
//! an unknown selector or property is silently ignored; a block never closed
//! is dropped whole (the diagram still renders); a stray `}` is ignored. puml
//! does the same and reports each case as a warning ([`StyleIssue`]).
//!
//! The cascade (also observed): rules apply in source order, later ones win,
//! whether nested in `sequenceDiagram` or not; a stereotype rule beats an
//! element rule wherever it stands; `skinparam`s and `<style>` blocks
//! interleave in source order; both beat the `!theme`; an inline colour
//! (`participant A #pink`) beats everything.

use std::ops::Range;

/// The diagram kinds a rule may be scoped to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StyleScope {
    Sequence,
    Activity,
    /// A diagram kind puml does not draw (`classDiagram`, …): its rules
    /// never apply.
    Other,
}

/// One declaration with the selector it sits under (innermost element wins).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StyleRule {
    /// `None`: for every diagram kind.
    pub scope: Option<StyleScope>,
    /// The element selector, lower-case (`participant`, `lifeline`, …);
    /// `root` for declarations outside any element (`sequenceDiagram { FontColor red }`).
    pub element: String,
    /// The stereotype, lower-case without its dot (`.command` → `command`).
    pub stereotype: Option<String>,
    /// The property, lower-case (`backgroundcolor`).
    pub property: String,
    pub value: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StyleIssueKind {
    UnknownSelector,
    UnknownProperty,
    /// A `{` never closed: its block is dropped.
    Unclosed,
}

/// Something in a sheet PlantUML ignores. `range` is a byte range of the sheet's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StyleIssue {
    pub kind: StyleIssueKind,
    pub range: Range<usize>,
    pub message: String,
    /// The known name a misspelt selector or property most likely meant.
    pub closest: Option<&'static str>,
}

/// Element selectors of the diagrams puml draws, as PlantUML spells them.
pub const ELEMENT_SELECTORS: &[&str] = &[
    "root",
    "element",
    "document",
    "participant",
    "actor",
    "boundary",
    "control",
    "entity",
    "database",
    "collections",
    "queue",
    "arrow",
    "lifeLine",
    "activationBox",
    "group",
    "groupHeader",
    "note",
    "reference",
    "referenceHeader",
    "box",
    "title",
    "legend",
    "header",
    "footer",
    "caption",
    "separator",
    "delay",
    "mainframe",
    "destroy",
    "activity",
    "activityBar",
    "diamond",
    "swimlane",
    "partition",
    "circle",
    "start",
    "stop",
    "end",
];

/// Scopes: one per diagram kind PlantUML styles.
const SCOPES: &[(&str, StyleScope)] = &[
    ("sequenceDiagram", StyleScope::Sequence),
    ("activityDiagram", StyleScope::Activity),
    ("classDiagram", StyleScope::Other),
    ("componentDiagram", StyleScope::Other),
    ("deploymentDiagram", StyleScope::Other),
    ("objectDiagram", StyleScope::Other),
    ("stateDiagram", StyleScope::Other),
    ("usecaseDiagram", StyleScope::Other),
    ("timingDiagram", StyleScope::Other),
    ("mindmapDiagram", StyleScope::Other),
    ("wbsDiagram", StyleScope::Other),
    ("ganttDiagram", StyleScope::Other),
    ("jsonDiagram", StyleScope::Other),
    ("yamlDiagram", StyleScope::Other),
    ("nwdiagDiagram", StyleScope::Other),
    ("chenEerDiagram", StyleScope::Other),
    ("chronologyDiagram", StyleScope::Other),
];

/// Properties PlantUML's styles know, as PlantUML spells them.
pub const PROPERTIES: &[&str] = &[
    "FontColor",
    "FontSize",
    "FontStyle",
    "FontName",
    "FontWeight",
    "BackGroundColor",
    "LineColor",
    "LineThickness",
    "LineStyle",
    "RoundCorner",
    "DiagonalCorner",
    "Padding",
    "Margin",
    "HorizontalAlignment",
    "MaximumWidth",
    "MinimumWidth",
    "Shadowing",
    "ShadowColor",
    "HyperLinkColor",
    "HyperlinkUnderlineColor",
    "HyperlinkUnderlineStyle",
    "HyperlinkUnderlineThickness",
    "ExportedName",
    "ImagePosition",
    "WordWrap",
    "Clickable",
];

fn find_ci(list: &[&'static str], name: &str) -> Option<&'static str> {
    list.iter().copied().find(|k| k.eq_ignore_ascii_case(name))
}

/// The known name within a couple of edits of `name`.
fn closest(list: &[&'static str], name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    if lower.len() > 40 {
        return None;
    }
    list.iter()
        .map(|k| (puml_syntax::edit_distance(&lower, &k.to_ascii_lowercase()), *k))
        .filter(|(d, k)| *d <= if k.len() >= 6 { 2 } else { 1 })
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// One part of a selector: an element, a stereotype or both, or a scope.
#[derive(Debug, Clone)]
struct Selector {
    scope: Option<StyleScope>,
    element: Option<String>,
    stereotype: Option<String>,
}

struct Frame {
    /// The selector list of this block (one entry per comma-separated part).
    selectors: Vec<Selector>,
    open_at: usize,
    /// Rules declared inside, kept until the block closes (an unclosed block is dropped).
    rules: Vec<StyleRule>,
}

/// Parses one sheet (the text of a `<style>` block; the `<style>` and
/// `</style>` tags themselves may be included). Never fails: what PlantUML
/// ignores is left out and reported.
pub fn parse_sheet(text: &str) -> (Vec<StyleRule>, Vec<StyleIssue>) {
    let mut parser = SheetParser {
        text,
        stack: Vec::new(),
        out: Vec::new(),
        issues: Vec::new(),
        pending_start: 0,
    };
    parser.run();
    (parser.out, parser.issues)
}

struct SheetParser<'a> {
    text: &'a str,
    stack: Vec<Frame>,
    out: Vec<StyleRule>,
    issues: Vec<StyleIssue>,
    pending_start: usize,
}

impl SheetParser<'_> {
    fn run(&mut self) {
        let text = self.text;
        let mut line_start = true;
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if line_start {
                // Comment lines (`'` or `//`) and the `<style>`/`</style>` tags are not part of the sheet.
                let rest = &text[i..];
                let line_end = rest.find('\n').map_or(text.len(), |n| i + n);
                let line = text[i..line_end].trim();
                let lower = line.to_ascii_lowercase();
                if line.starts_with('\'')
                    || line.starts_with("//")
                    || lower.starts_with("<style")
                    || lower == "</style>"
                {
                    self.declaration(self.pending_start, i);
                    while chars.peek().is_some_and(|(j, _)| *j < line_end) {
                        chars.next();
                    }
                    self.pending_start = line_end;
                    continue;
                }
                line_start = false;
            }
            match c {
                '{' => {
                    let selectors = self.selectors(self.pending_start, i);
                    self.stack.push(Frame {
                        selectors,
                        open_at: i,
                        rules: Vec::new(),
                    });
                    self.pending_start = i + 1;
                }
                '}' => {
                    self.declaration(self.pending_start, i);
                    // A stray `}` is ignored, as PlantUML does.
                    if let Some(frame) = self.stack.pop() {
                        match self.stack.last_mut() {
                            Some(parent) => parent.rules.extend(frame.rules),
                            None => self.out.extend(frame.rules),
                        }
                    }
                    self.pending_start = i + 1;
                }
                '\n' | ';' => {
                    self.declaration(self.pending_start, i);
                    self.pending_start = i + 1;
                    line_start = c == '\n';
                }
                _ => {}
            }
        }
        self.declaration(self.pending_start, text.len());
        for frame in std::mem::take(&mut self.stack).into_iter().rev() {
            self.issues.push(StyleIssue {
                kind: StyleIssueKind::Unclosed,
                range: frame.open_at..frame.open_at + 1,
                message: "this `{` is never closed: PlantUML ignores the whole block".into(),
                closest: None,
            });
        }
    }

    /// Reads the selector list before a `{`.
    fn selectors(&mut self, start: usize, end: usize) -> Vec<Selector> {
        let mut out = Vec::new();
        let mut offset = start;
        for part in self.text[start..end].split(',') {
            let part_start = offset + (part.len() - part.trim_start().len());
            offset += part.len() + 1;
            let name = part.trim();
            if name.is_empty() {
                continue;
            }
            let range = part_start..part_start + name.len();
            // `participant.name`, `.name`, `element`
            let (element, stereotype) = match name.find('.') {
                Some(dot) => (&name[..dot], Some(name[dot + 1..].to_ascii_lowercase())),
                None => (name, None),
            };
            if element.is_empty() {
                out.push(Selector {
                    scope: None,
                    element: None,
                    stereotype,
                });
                continue;
            }
            if let Some((_, scope)) = SCOPES.iter().find(|(s, _)| s.eq_ignore_ascii_case(element)) {
                out.push(Selector {
                    scope: Some(*scope),
                    element: None,
                    stereotype,
                });
                continue;
            }
            let known = find_ci(ELEMENT_SELECTORS, element);
            let in_other_kind = self
                .stack
                .iter()
                .any(|f| f.selectors.iter().any(|s| s.scope == Some(StyleScope::Other)));
            if known.is_none() && !in_other_kind {
                let near = closest(ELEMENT_SELECTORS, element);
                let message = match near {
                    Some(k) => format!("unknown style selector `{element}` (PlantUML ignores it): did you mean `{k}`?"),
                    None => format!(
                        "unknown style selector `{element}` (PlantUML ignores it); sequence diagrams know {}",
                        ELEMENT_SELECTORS[3..28].join(", ")
                    ),
                };
                self.issues.push(StyleIssue {
                    kind: StyleIssueKind::UnknownSelector,
                    range: range.start..range.start + element.len(),
                    message,
                    closest: near,
                });
            }
            out.push(Selector {
                scope: None,
                element: Some(known.map_or_else(|| element.to_ascii_lowercase(), |k| k.to_ascii_lowercase())),
                stereotype,
            });
        }
        out
    }

    fn declaration(&mut self, start: usize, end: usize) {
        let raw = &self.text[start..end];
        let decl = raw.trim();
        if decl.is_empty() {
            return;
        }
        let at = start + (raw.len() - raw.trim_start().len());
        let Some(frame) = self.stack.last() else {
            // Text outside any block: PlantUML skips it; so does puml, quietly
            // (it is usually a stray word of an unfinished edit).
            return;
        };
        let split = decl.find(|c: char| c == ':' || c.is_whitespace()).unwrap_or(decl.len());
        let name = &decl[..split];
        let value = decl[split..].trim().trim_start_matches(':').trim();
        let Some(property) = find_ci(PROPERTIES, name) else {
            let near = closest(PROPERTIES, name);
            let message = match near {
                Some(k) => format!("unknown style property `{name}` (PlantUML ignores it): did you mean `{k}`?"),
                None => format!("unknown style property `{name}` (PlantUML ignores it)"),
            };
            self.issues.push(StyleIssue {
                kind: StyleIssueKind::UnknownProperty,
                range: at..at + name.len(),
                message,
                closest: near,
            });
            return;
        };
        // Every combination of the enclosing selector lists: the innermost
        // element, stereotype and scope win.
        let mut combos: Vec<Selector> = vec![Selector {
            scope: None,
            element: None,
            stereotype: None,
        }];
        for f in &self.stack {
            let mut next = Vec::new();
            for base in &combos {
                for s in &f.selectors {
                    next.push(Selector {
                        scope: s.scope.or(base.scope),
                        element: s.element.clone().or_else(|| base.element.clone()),
                        stereotype: s.stereotype.clone().or_else(|| base.stereotype.clone()),
                    });
                }
            }
            if next.len() > 64 {
                next.truncate(64);
            }
            combos = next;
        }
        let _ = frame;
        let rules: Vec<StyleRule> = combos
            .into_iter()
            .map(|s| StyleRule {
                scope: s.scope,
                element: s.element.unwrap_or_else(|| "root".into()),
                stereotype: s.stereotype,
                property: property.to_ascii_lowercase(),
                value: value.to_string(),
            })
            .collect();
        if let Some(frame) = self.stack.last_mut() {
            frame.rules.extend(rules);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &str) -> Vec<String> {
        let (rules, issues) = parse_sheet(text);
        assert!(issues.is_empty(), "{issues:?}");
        rules
            .iter()
            .map(|r| {
                format!(
                    "{:?} {}{} {}={}",
                    r.scope,
                    r.element,
                    r.stereotype.as_deref().map(|s| format!(".{s}")).unwrap_or_default(),
                    r.property,
                    r.value
                )
            })
            .collect()
    }

    #[test]
    fn nesting_lists_and_stereotypes() {
        let got = rules(
            "<style>\nsequenceDiagram {\n participant, actor { BackGroundColor #fff; FontSize: 12 }\n .cmd { LineColor red }\n}\nparticipant.db { FontColor blue }\n' a comment\nnote { .x { Padding 3 } }\n</style>",
        );
        assert_eq!(
            got,
            [
                "Some(Sequence) participant backgroundcolor=#fff",
                "Some(Sequence) actor backgroundcolor=#fff",
                "Some(Sequence) participant fontsize=12",
                "Some(Sequence) actor fontsize=12",
                "Some(Sequence) root.cmd linecolor=red",
                "None participant.db fontcolor=blue",
                "None note.x padding=3",
            ]
        );
    }

    #[test]
    fn malformed_sheets_are_reported_never_fatal() {
        let (rules, issues) = parse_sheet("participnt { BackGroundColr red }\narrow { LineColor red\n}}\nnote {");
        let kinds: Vec<_> = issues.iter().map(|i| (i.kind, i.closest)).collect();
        assert_eq!(
            kinds,
            [
                (StyleIssueKind::UnknownSelector, Some("participant")),
                (StyleIssueKind::UnknownProperty, Some("BackGroundColor")),
                (StyleIssueKind::Unclosed, None),
            ]
        );
        // The arrow rule stands; the unclosed `note {` is dropped.
        assert_eq!(rules.len(), 1);
        assert_eq!(rules[0].element, "arrow");
        assert_eq!(
            &"participnt { BackGroundColr"[issues[1].range.clone()],
            "BackGroundColr"
        );
        for text in [
            "{",
            "}",
            "{{{",
            ";;",
            ".{",
            "a.b.c { x }",
            ",,{ FontColor red }",
            "é { Fontcolor ü }",
        ] {
            let _ = parse_sheet(text);
        }
    }

    #[test]
    fn other_diagram_kinds_are_not_checked() {
        let (rules, issues) = parse_sheet("classDiagram { class { BackGroundColor red } }");
        assert!(issues.is_empty());
        assert_eq!(rules[0].scope, Some(StyleScope::Other));
    }
}
