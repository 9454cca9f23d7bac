//! PlantUML's themes as puml style sheets, one file per theme in
//! `crates/puml-layout/themes/` (written from PlantUML's observed output by
//! `scripts/theme_probe.py write`; `_none_` is the default look).

/// The PlantUML themes that draw at 100 dpi: their SVG is scaled by
/// 100/96 (observed: a `skinparam dpi 96` after `!theme cerulean` draws at
/// the default size).
pub(crate) const DRAWN_AT_100_DPI: [&str; 24] = [
    "aws-orange",
    "black-knight",
    "bluegray",
    "cerulean",
    "cerulean-outline",
    "cloudscape-design",
    "cyborg",
    "cyborg-outline",
    "hacker",
    "lightgray",
    "materia",
    "materia-outline",
    "metal",
    "minty",
    "sandstone",
    "silver",
    "sketchy",
    "sketchy-outline",
    "spacelab",
    "spacelab-white",
    "sunlust",
    "superhero",
    "superhero-outline",
    "united",
];

/// The PlantUML themes whose outlines are drawn by hand (jittered).
pub(crate) const HAND_DRAWN: [&str; 2] = ["sketchy", "sketchy-outline"];

pub(crate) const SHEETS: [(&str, &str); 43] = [
    ("amiga", include_str!("../themes/amiga.style")),
    ("aws-orange", include_str!("../themes/aws-orange.style")),
    ("black-knight", include_str!("../themes/black-knight.style")),
    ("bluegray", include_str!("../themes/bluegray.style")),
    ("blueprint", include_str!("../themes/blueprint.style")),
    ("carbon-gray", include_str!("../themes/carbon-gray.style")),
    ("cerulean", include_str!("../themes/cerulean.style")),
    ("cerulean-outline", include_str!("../themes/cerulean-outline.style")),
    ("cloudscape-design", include_str!("../themes/cloudscape-design.style")),
    ("crt-amber", include_str!("../themes/crt-amber.style")),
    ("crt-green", include_str!("../themes/crt-green.style")),
    ("cyborg", include_str!("../themes/cyborg.style")),
    ("cyborg-outline", include_str!("../themes/cyborg-outline.style")),
    ("hacker", include_str!("../themes/hacker.style")),
    ("lightgray", include_str!("../themes/lightgray.style")),
    ("mars", include_str!("../themes/mars.style")),
    ("materia", include_str!("../themes/materia.style")),
    ("materia-outline", include_str!("../themes/materia-outline.style")),
    ("metal", include_str!("../themes/metal.style")),
    ("mimeograph", include_str!("../themes/mimeograph.style")),
    ("minty", include_str!("../themes/minty.style")),
    ("mono", include_str!("../themes/mono.style")),
    ("plain", include_str!("../themes/plain.style")),
    ("reddress-darkblue", include_str!("../themes/reddress-darkblue.style")),
    ("reddress-darkgreen", include_str!("../themes/reddress-darkgreen.style")),
    (
        "reddress-darkorange",
        include_str!("../themes/reddress-darkorange.style"),
    ),
    ("reddress-darkred", include_str!("../themes/reddress-darkred.style")),
    ("reddress-lightblue", include_str!("../themes/reddress-lightblue.style")),
    (
        "reddress-lightgreen",
        include_str!("../themes/reddress-lightgreen.style"),
    ),
    (
        "reddress-lightorange",
        include_str!("../themes/reddress-lightorange.style"),
    ),
    ("reddress-lightred", include_str!("../themes/reddress-lightred.style")),
    ("sandstone", include_str!("../themes/sandstone.style")),
    ("silver", include_str!("../themes/silver.style")),
    ("sketchy", include_str!("../themes/sketchy.style")),
    ("sketchy-outline", include_str!("../themes/sketchy-outline.style")),
    ("spacelab", include_str!("../themes/spacelab.style")),
    ("spacelab-white", include_str!("../themes/spacelab-white.style")),
    ("sunlust", include_str!("../themes/sunlust.style")),
    ("superhero", include_str!("../themes/superhero.style")),
    ("superhero-outline", include_str!("../themes/superhero-outline.style")),
    ("toy", include_str!("../themes/toy.style")),
    ("united", include_str!("../themes/united.style")),
    ("vibrant", include_str!("../themes/vibrant.style")),
];
