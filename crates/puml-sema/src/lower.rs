//! AST → model (in progress).
use crate::model::{Document, SourceMap};
use crate::preprocess::FileLoader;
use puml_syntax::{Diagnostic, Parse};
use std::path::PathBuf;

#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct AnalysisOptions {
    pub file_path: Option<PathBuf>,
    pub include_root: Option<PathBuf>,
    pub allow_url_includes: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    pub document: Document,
    pub source_map: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

pub fn analyze(text: &str, options: &AnalysisOptions, loader: &dyn FileLoader) -> Analysis {
    let parse = puml_syntax::parse(text);
    analyze_parsed(text, &parse, options, loader)
}

pub fn analyze_parsed(_text: &str, parse: &Parse, _options: &AnalysisOptions, _loader: &dyn FileLoader) -> Analysis {
    Analysis {
        document: Document::default(),
        source_map: SourceMap::default(),
        diagnostics: parse.errors().to_vec(),
    }
}
