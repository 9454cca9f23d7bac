pub mod arrow;

use crate::{Diagnostic, SyntaxKind};
use rowan::{GreenNode, GreenNodeBuilder};

pub(crate) fn parse_text(text: &str) -> (GreenNode, Vec<Diagnostic>) {
    let mut builder = GreenNodeBuilder::new();
    builder.start_node(SyntaxKind::ROOT.into());
    if !text.is_empty() {
        builder.token(SyntaxKind::OUTSIDE_TEXT.into(), text);
    }
    builder.finish_node();
    (builder.finish(), Vec::new())
}
