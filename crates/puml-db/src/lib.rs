//! The salsa database. Owned by the compiler-core work (issue 2).
mod render_queries;
