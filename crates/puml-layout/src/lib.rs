//! Model → scene. Owned by the rendering work (issue 3).
