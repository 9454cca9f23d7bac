//! Scene → output formats. Owned by the rendering work (issue 3).
