//! The formatter. Owned by the source-tools work (issue 4).
