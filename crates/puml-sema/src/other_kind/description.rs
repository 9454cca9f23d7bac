//! The description reading of the fallback: PlantUML's description line
//! grammar lives in `puml_syntax::description_grammar` (the parser reads
//! description diagrams with it too); here it gets the colour table.

pub(super) use puml_syntax::description_grammar::{
    container_code, container_header, declared, first_names, multi_line_header, note_block_target,
    note_by_last_element, note_on_link_block, note_target, port, port_short_form, refused_multi_line_header,
};

fn is_color(text: &str) -> bool {
    crate::colors::is_valid_color(text)
}

/// The description reading of one line (see
/// `puml_syntax::description_grammar::line`).
pub(super) fn line(line: &str) -> Option<bool> {
    puml_syntax::description_grammar::line(line, &is_color)
}

/// The endpoints of a link line with the type their short forms give.
pub(super) fn link_endpoints(line: &str) -> Vec<(String, Option<&'static str>)> {
    puml_syntax::description_grammar::link_endpoints(line, &is_color)
}

/// Whether the line names an element by a short form (`(Use)`, `[Comp]`,
/// `:Actor:`, `()`): PlantUML's class reading refuses those even after
/// `allowmixing`, which lets it take only the keyword forms (`usecase U`).
pub(super) fn uses_short_form(line: &str) -> bool {
    let line = line.trim();
    puml_syntax::description_grammar::short_form(line).is_some()
        || link_endpoints(line).iter().any(|(_, kind)| kind.is_some())
}
