//! Color names PlantUML knows: the table lives in `puml_syntax::colors`
//! (the parser's description reading checks a colour glued to a name).

pub use puml_syntax::colors::*;
