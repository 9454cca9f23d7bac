//! Layout as a tracked query over the model: it depends on `document`
//! only, so edits to comments or whitespace never re-run it.

use crate::{document, Config, Db, SourceFile};
use puml_layout::{LayoutOptions, Scene};

/// The scenes (one per page) of every diagram of the file, in order.
#[salsa::tracked(returns(ref), no_eq)]
pub fn scenes(db: &dyn Db, file: SourceFile, config: Config) -> Vec<Vec<Scene>> {
    let options = LayoutOptions {
        theme: config.theme(db).clone(),
        ..LayoutOptions::default()
    };
    document(db, file, config)
        .diagrams
        .iter()
        .map(|d| puml_layout::layout(d, &options))
        .collect()
}
