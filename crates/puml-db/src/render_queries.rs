//! Layout and render as tracked queries. Owned by the rendering work (issue 3).
