//! Which `skinparam` names a sequence diagram reads. PlantUML ignores
//! the others silently; puml warns (W0234) with the closest name it reads
//! as a fix. The names are PlantUML 1.2026.8's own list (`java -jar
//! plantuml.jar -language`, its `;skinparameter` section), the names it
//! reads without listing them (`ParticipantBackgroundColor`, `ArrowColor`,
//! …), and the probes of `scripts/skinparam_probe.py`
//! (`test-data/skinparam-sequence`), which show the listed names a
//! sequence diagram ignores.

use rustc_hash::FxHashMap;

/// PlantUML 1.2026.8's skin parameters (`-language`), every diagram kind.
pub const PLANTUML_SKINPARAMS: &[&str] = &[
    "ActivityBackgroundColor",
    "ActivityBorderColor",
    "ActivityBorderThickness",
    "ActivityDiamondFontColor",
    "ActivityDiamondFontName",
    "ActivityDiamondFontSize",
    "ActivityDiamondFontStyle",
    "ActivityFontColor",
    "ActivityFontName",
    "ActivityFontSize",
    "ActivityFontStyle",
    "ActorBackgroundColor",
    "ActorBorderColor",
    "ActorFontColor",
    "ActorFontName",
    "ActorFontSize",
    "ActorFontStyle",
    "ActorStereotypeFontColor",
    "ActorStereotypeFontName",
    "ActorStereotypeFontSize",
    "ActorStereotypeFontStyle",
    "AgentBorderThickness",
    "AgentFontColor",
    "AgentFontName",
    "AgentFontSize",
    "AgentFontStyle",
    "AgentStereotypeFontColor",
    "AgentStereotypeFontName",
    "AgentStereotypeFontSize",
    "AgentStereotypeFontStyle",
    "ArchimateBorderThickness",
    "ArchimateFontColor",
    "ArchimateFontName",
    "ArchimateFontSize",
    "ArchimateFontStyle",
    "ArchimateStereotypeFontColor",
    "ArchimateStereotypeFontName",
    "ArchimateStereotypeFontSize",
    "ArchimateStereotypeFontStyle",
    "ArrowFontColor",
    "ArrowFontName",
    "ArrowFontSize",
    "ArrowFontStyle",
    "ArrowHeadColor",
    "ArrowLollipopColor",
    "ArrowMessageAlignment",
    "ArrowThickness",
    "ArtifactFontColor",
    "ArtifactFontName",
    "ArtifactFontSize",
    "ArtifactFontStyle",
    "ArtifactStereotypeFontColor",
    "ArtifactStereotypeFontName",
    "ArtifactStereotypeFontSize",
    "ArtifactStereotypeFontStyle",
    "BackgroundColor",
    "BiddableBackgroundColor",
    "BiddableBorderColor",
    "BoundaryFontColor",
    "BoundaryFontName",
    "BoundaryFontSize",
    "BoundaryFontStyle",
    "BoundaryStereotypeFontColor",
    "BoundaryStereotypeFontName",
    "BoundaryStereotypeFontSize",
    "BoundaryStereotypeFontStyle",
    "BoxPadding",
    "CaptionFontColor",
    "CaptionFontName",
    "CaptionFontSize",
    "CaptionFontStyle",
    "CardBorderThickness",
    "CardFontColor",
    "CardFontName",
    "CardFontSize",
    "CardFontStyle",
    "CardStereotypeFontColor",
    "CardStereotypeFontName",
    "CardStereotypeFontSize",
    "CardStereotypeFontStyle",
    "CircledCharacterFontColor",
    "CircledCharacterFontName",
    "CircledCharacterFontSize",
    "CircledCharacterFontStyle",
    "CircledCharacterRadius",
    "ClassAttributeFontColor",
    "ClassAttributeFontName",
    "ClassAttributeFontSize",
    "ClassAttributeFontStyle",
    "ClassAttributeIconSize",
    "ClassBackgroundColor",
    "ClassBorderColor",
    "ClassBorderThickness",
    "ClassFontColor",
    "ClassFontName",
    "ClassFontSize",
    "ClassFontStyle",
    "ClassStereotypeFontColor",
    "ClassStereotypeFontName",
    "ClassStereotypeFontSize",
    "ClassStereotypeFontStyle",
    "CloudFontColor",
    "CloudFontName",
    "CloudFontSize",
    "CloudFontStyle",
    "CloudStereotypeFontColor",
    "CloudStereotypeFontName",
    "CloudStereotypeFontSize",
    "CloudStereotypeFontStyle",
    "ColorArrowSeparationSpace",
    "ComponentBorderThickness",
    "ComponentFontColor",
    "ComponentFontName",
    "ComponentFontSize",
    "ComponentFontStyle",
    "ComponentStereotypeFontColor",
    "ComponentStereotypeFontName",
    "ComponentStereotypeFontSize",
    "ComponentStereotypeFontStyle",
    "ComponentStyle",
    "ConditionEndStyle",
    "ConditionStyle",
    "ControlFontColor",
    "ControlFontName",
    "ControlFontSize",
    "ControlFontStyle",
    "ControlStereotypeFontColor",
    "ControlStereotypeFontName",
    "ControlStereotypeFontSize",
    "ControlStereotypeFontStyle",
    "DatabaseFontColor",
    "DatabaseFontName",
    "DatabaseFontSize",
    "DatabaseFontStyle",
    "DatabaseStereotypeFontColor",
    "DatabaseStereotypeFontName",
    "DatabaseStereotypeFontSize",
    "DatabaseStereotypeFontStyle",
    "DefaultFontColor",
    "DefaultFontName",
    "DefaultFontSize",
    "DefaultFontStyle",
    "DefaultMonospacedFontName",
    "DefaultTextAlignment",
    "DesignedBackgroundColor",
    "DesignedBorderColor",
    "DesignedDomainBorderThickness",
    "DesignedDomainFontColor",
    "DesignedDomainFontName",
    "DesignedDomainFontSize",
    "DesignedDomainFontStyle",
    "DesignedDomainStereotypeFontColor",
    "DesignedDomainStereotypeFontName",
    "DesignedDomainStereotypeFontSize",
    "DesignedDomainStereotypeFontStyle",
    "DiagramBorderColor",
    "DiagramBorderThickness",
    "DomainBackgroundColor",
    "DomainBorderColor",
    "DomainBorderThickness",
    "DomainFontColor",
    "DomainFontName",
    "DomainFontSize",
    "DomainFontStyle",
    "DomainStereotypeFontColor",
    "DomainStereotypeFontName",
    "DomainStereotypeFontSize",
    "DomainStereotypeFontStyle",
    "Dpi",
    "EntityFontColor",
    "EntityFontName",
    "EntityFontSize",
    "EntityFontStyle",
    "EntityStereotypeFontColor",
    "EntityStereotypeFontName",
    "EntityStereotypeFontSize",
    "EntityStereotypeFontStyle",
    "FileFontColor",
    "FileFontName",
    "FileFontSize",
    "FileFontStyle",
    "FileStereotypeFontColor",
    "FileStereotypeFontName",
    "FileStereotypeFontSize",
    "FileStereotypeFontStyle",
    "FixCircleLabelOverlapping",
    "FolderFontColor",
    "FolderFontName",
    "FolderFontSize",
    "FolderFontStyle",
    "FolderStereotypeFontColor",
    "FolderStereotypeFontName",
    "FolderStereotypeFontSize",
    "FolderStereotypeFontStyle",
    "FooterFontColor",
    "FooterFontName",
    "FooterFontSize",
    "FooterFontStyle",
    "FrameFontColor",
    "FrameFontName",
    "FrameFontSize",
    "FrameFontStyle",
    "FrameStereotypeFontColor",
    "FrameStereotypeFontName",
    "FrameStereotypeFontSize",
    "FrameStereotypeFontStyle",
    "GenericDisplay",
    "Guillemet",
    "Handwritten",
    "HeaderFontColor",
    "HeaderFontName",
    "HeaderFontSize",
    "HeaderFontStyle",
    "HexagonBorderThickness",
    "HexagonFontColor",
    "HexagonFontName",
    "HexagonFontSize",
    "HexagonFontStyle",
    "HexagonStereotypeFontColor",
    "HexagonStereotypeFontName",
    "HexagonStereotypeFontSize",
    "HexagonStereotypeFontStyle",
    "HyperlinkColor",
    "HyperlinkUnderline",
    "IconIEMandatoryColor",
    "IconPackageBackgroundColor",
    "IconPackageColor",
    "IconPrivateBackgroundColor",
    "IconPrivateColor",
    "IconProtectedBackgroundColor",
    "IconProtectedColor",
    "IconPublicBackgroundColor",
    "IconPublicColor",
    "InterfaceFontColor",
    "InterfaceFontName",
    "InterfaceFontSize",
    "InterfaceFontStyle",
    "InterfaceStereotypeFontColor",
    "InterfaceStereotypeFontName",
    "InterfaceStereotypeFontSize",
    "InterfaceStereotypeFontStyle",
    "LabelFontColor",
    "LabelFontName",
    "LabelFontSize",
    "LabelFontStyle",
    "LabelStereotypeFontColor",
    "LabelStereotypeFontName",
    "LabelStereotypeFontSize",
    "LabelStereotypeFontStyle",
    "LegendBorderThickness",
    "LegendFontColor",
    "LegendFontName",
    "LegendFontSize",
    "LegendFontStyle",
    "LexicalBackgroundColor",
    "LexicalBorderColor",
    "Linetype",
    "MachineBackgroundColor",
    "MachineBorderColor",
    "MachineBorderThickness",
    "MachineFontColor",
    "MachineFontName",
    "MachineFontSize",
    "MachineFontStyle",
    "MachineStereotypeFontColor",
    "MachineStereotypeFontName",
    "MachineStereotypeFontSize",
    "MachineStereotypeFontStyle",
    "MaxAsciiMessageLength",
    "MaxMessageSize",
    "MinClassWidth",
    "Monochrome",
    "NodeFontColor",
    "NodeFontName",
    "NodeFontSize",
    "NodeFontStyle",
    "NodeStereotypeFontColor",
    "NodeStereotypeFontName",
    "NodeStereotypeFontSize",
    "NodeStereotypeFontStyle",
    "Nodesep",
    "NoteBackgroundColor",
    "NoteBorderColor",
    "NoteBorderThickness",
    "NoteFontColor",
    "NoteFontName",
    "NoteFontSize",
    "NoteFontStyle",
    "NoteShadowing",
    "NoteTextAlignment",
    "ObjectAttributeFontColor",
    "ObjectAttributeFontName",
    "ObjectAttributeFontSize",
    "ObjectAttributeFontStyle",
    "ObjectBorderThickness",
    "ObjectFontColor",
    "ObjectFontName",
    "ObjectFontSize",
    "ObjectFontStyle",
    "ObjectStereotypeFontColor",
    "ObjectStereotypeFontName",
    "ObjectStereotypeFontSize",
    "ObjectStereotypeFontStyle",
    "PackageBorderThickness",
    "PackageFontColor",
    "PackageFontName",
    "PackageFontSize",
    "PackageFontStyle",
    "PackageStereotypeFontColor",
    "PackageStereotypeFontName",
    "PackageStereotypeFontSize",
    "PackageStereotypeFontStyle",
    "PackageStyle",
    "PackageTitleAlignment",
    "Padding",
    "PageBorderColor",
    "PageExternalColor",
    "PageMargin",
    "ParticipantFontColor",
    "ParticipantFontName",
    "ParticipantFontSize",
    "ParticipantFontStyle",
    "ParticipantPadding",
    "ParticipantStereotypeFontColor",
    "ParticipantStereotypeFontName",
    "ParticipantStereotypeFontSize",
    "ParticipantStereotypeFontStyle",
    "PartitionBorderThickness",
    "PartitionFontColor",
    "PartitionFontName",
    "PartitionFontSize",
    "PartitionFontStyle",
    "PathHoverColor",
    "PersonBorderThickness",
    "PersonFontColor",
    "PersonFontName",
    "PersonFontSize",
    "PersonFontStyle",
    "PersonStereotypeFontColor",
    "PersonStereotypeFontName",
    "PersonStereotypeFontSize",
    "PersonStereotypeFontStyle",
    "QueueBorderThickness",
    "QueueFontColor",
    "QueueFontName",
    "QueueFontSize",
    "QueueFontStyle",
    "QueueStereotypeFontColor",
    "QueueStereotypeFontName",
    "QueueStereotypeFontSize",
    "QueueStereotypeFontStyle",
    "Ranksep",
    "RectangleBorderThickness",
    "RectangleFontColor",
    "RectangleFontName",
    "RectangleFontSize",
    "RectangleFontStyle",
    "RectangleStereotypeFontColor",
    "RectangleStereotypeFontName",
    "RectangleStereotypeFontSize",
    "RectangleStereotypeFontStyle",
    "RequirementBackgroundColor",
    "RequirementBorderColor",
    "RequirementBorderThickness",
    "RequirementFontColor",
    "RequirementFontName",
    "RequirementFontSize",
    "RequirementFontStyle",
    "RequirementStereotypeFontColor",
    "RequirementStereotypeFontName",
    "RequirementStereotypeFontSize",
    "RequirementStereotypeFontStyle",
    "ResponseMessageBelowArrow",
    "RoundCorner",
    "SameClassWidth",
    "SequenceActorBorderThickness",
    "SequenceArrowThickness",
    "SequenceBoxBorderColor",
    "SequenceBoxFontColor",
    "SequenceBoxFontName",
    "SequenceBoxFontSize",
    "SequenceBoxFontStyle",
    "SequenceDelayFontColor",
    "SequenceDelayFontName",
    "SequenceDelayFontSize",
    "SequenceDelayFontStyle",
    "SequenceDividerBorderThickness",
    "SequenceDividerFontColor",
    "SequenceDividerFontName",
    "SequenceDividerFontSize",
    "SequenceDividerFontStyle",
    "SequenceGroupBodyBackgroundColor",
    "SequenceGroupBorderThickness",
    "SequenceGroupFontColor",
    "SequenceGroupFontName",
    "SequenceGroupFontSize",
    "SequenceGroupFontStyle",
    "SequenceGroupHeaderFontColor",
    "SequenceGroupHeaderFontName",
    "SequenceGroupHeaderFontSize",
    "SequenceGroupHeaderFontStyle",
    "SequenceLifeLineBorderColor",
    "SequenceLifeLineBorderThickness",
    "SequenceMessageAlignment",
    "SequenceMessageTextAlignment",
    "SequenceNewpageSeparatorColor",
    "SequenceParticipant",
    "SequenceParticipantBorderThickness",
    "SequenceReferenceAlignment",
    "SequenceReferenceBackgroundColor",
    "SequenceReferenceBorderThickness",
    "SequenceReferenceFontColor",
    "SequenceReferenceFontName",
    "SequenceReferenceFontSize",
    "SequenceReferenceFontStyle",
    "SequenceReferenceHeaderBackgroundColor",
    "SequenceStereotypeFontColor",
    "SequenceStereotypeFontName",
    "SequenceStereotypeFontSize",
    "SequenceStereotypeFontStyle",
    "Shadowing",
    "StackFontColor",
    "StackFontName",
    "StackFontSize",
    "StackFontStyle",
    "StackStereotypeFontColor",
    "StackStereotypeFontName",
    "StackStereotypeFontSize",
    "StackStereotypeFontStyle",
    "StateAttributeFontColor",
    "StateAttributeFontName",
    "StateAttributeFontSize",
    "StateAttributeFontStyle",
    "StateBorderColor",
    "StateFontColor",
    "StateFontName",
    "StateFontSize",
    "StateFontStyle",
    "StateMessageAlignment",
    "StereotypePosition",
    "StorageFontColor",
    "StorageFontName",
    "StorageFontSize",
    "StorageFontStyle",
    "StorageStereotypeFontColor",
    "StorageStereotypeFontName",
    "StorageStereotypeFontSize",
    "StorageStereotypeFontStyle",
    "Style",
    "SvglinkTarget",
    "SwimlaneBorderThickness",
    "SwimlaneTitleFontColor",
    "SwimlaneTitleFontName",
    "SwimlaneTitleFontSize",
    "SwimlaneTitleFontStyle",
    "SwimlaneWidth",
    "SwimlaneWrapTitleWidth",
    "TabSize",
    "TimingFontColor",
    "TimingFontName",
    "TimingFontSize",
    "TimingFontStyle",
    "TitleBorderRoundCorner",
    "TitleBorderThickness",
    "TitleFontColor",
    "TitleFontName",
    "TitleFontSize",
    "TitleFontStyle",
    "UsecaseBorderThickness",
    "UsecaseFontColor",
    "UsecaseFontName",
    "UsecaseFontSize",
    "UsecaseFontStyle",
    "UsecaseStereotypeFontColor",
    "UsecaseStereotypeFontName",
    "UsecaseStereotypeFontSize",
    "UsecaseStereotypeFontStyle",
    "WrapWidth",
    "",
];

/// Names a sequence diagram reads that `-language` does not list.
const UNLISTED: &[&str] = &[
    "ParticipantBackgroundColor",
    "ParticipantBorderColor",
    "ParticipantBorderThickness",
    "ActorBackgroundColor",
    "ActorBorderColor",
    "BoundaryBackgroundColor",
    "BoundaryBorderColor",
    "ControlBackgroundColor",
    "ControlBorderColor",
    "EntityBackgroundColor",
    "EntityBorderColor",
    "DatabaseBackgroundColor",
    "DatabaseBorderColor",
    "CollectionsBackgroundColor",
    "CollectionsBorderColor",
    "CollectionsFontColor",
    "CollectionsFontName",
    "CollectionsFontSize",
    "CollectionsFontStyle",
    "QueueBackgroundColor",
    "QueueBorderColor",
    "ArrowColor",
    "NoteBackgroundColor",
    "NoteBorderColor",
    "SequenceLifeLineBorderColor",
    "SequenceLifeLineBackgroundColor",
    "SequenceGroupBackgroundColor",
    "SequenceGroupBorderColor",
    "SequenceDividerBackgroundColor",
    "SequenceDividerBorderColor",
    "SequenceReferenceBorderColor",
    "SequenceBoxBackgroundColor",
    "SequenceMessageAlign",
    "LegendBackgroundColor",
    "LegendBorderColor",
    "TitleBackgroundColor",
    "TitleBorderColor",
    "LifelineStrategy",
    "ActorStyle",
    "ParticipantStyle",
];

/// The families a sequence diagram draws, as skin parameter names begin
/// (after an optional `sequence`).
const SEQUENCE_FAMILIES: &[&str] = &[
    "participant",
    "actor",
    "boundary",
    "control",
    "entity",
    "database",
    "collections",
    "queue",
    "arrow",
    "note",
    "lifeline",
    "group",
    "divider",
    "reference",
    "delay",
    "box",
    "title",
    "header",
    "footer",
    "legend",
    "caption",
    "stereotype",
    "newpageseparator",
    "default",
    "diagram",
];

/// Single names a sequence diagram reads (after an optional `sequence`).
const SEQUENCE_SINGLES: &[&str] = &[
    "backgroundcolor",
    "boxpadding",
    "participantpadding",
    "maxmessagesize",
    "maxasciimessagelength",
    "monochrome",
    "padding",
    "roundcorner",
    "shadowing",
    "responsemessagebelowarrow",
    "style",
    "guillemet",
    "hyperlinkcolor",
    "hyperlinkunderline",
    "handwritten",
    "dpi",
    "svglinktarget",
    "pathhovercolor",
    "wrapwidth",
    "tabsize",
    "minclasswidth",
    "messagealignment",
    "referencealignment",
];

/// Names a sequence diagram does not read although their family is one it
/// draws (observed: each alone on the probe body draws what the body
/// alone draws), with the name it reads instead where there is one.
const IGNORED_IN_SEQUENCE: &[(&str, Option<&str>)] = &[
    ("lifelinebordercolor", Some("sequenceLifeLineBorderColor")),
    ("lifelinebackgroundcolor", Some("sequenceLifeLineBackgroundColor")),
    ("dividerfontsize", Some("sequenceDividerFontSize")),
    ("groupheaderfontsize", Some("sequenceGroupHeaderFontSize")),
    ("sequencetitlefontsize", Some("TitleFontSize")),
    ("sequenceboxfontsize", None),
    ("sequenceboxfontname", None),
    ("sequenceboxfontstyle", None),
    ("sequencelifelineborderthickness", None),
    ("sequencereferenceborderthickness", None),
    ("sequencemessagetextalignment", Some("sequenceMessageAlign")),
    ("arrowmessagealignment", Some("sequenceMessageAlign")),
    ("arrowheadcolor", Some("ArrowColor")),
    ("pagemargin", None),
];

/// Whether a sequence diagram reads `lower` (lower case, no stereotype).
fn read_by_sequence(lower: &str) -> bool {
    let names = known_names();
    let bare = lower.strip_prefix("sequence").unwrap_or(lower);
    read_with(names.of(lower), names.of(bare), bare)
}

/// [`read_by_sequence`] from what the lists say of the name (`own`) and
/// of its form without the `sequence` prefix (`bare_lists`).
fn read_with(own: u8, bare_lists: u8, bare: &str) -> bool {
    if own & KnownNames::UNLISTED != 0 || bare_lists & KnownNames::SINGLE != 0 {
        return true;
    }
    // A family name is read when PlantUML knows it, with or without the
    // `sequence` prefix (a `skinparam sequence { … }` block adds it).
    let known = own & KnownNames::LISTED != 0
        || bare_lists & (KnownNames::LISTED | KnownNames::UNLISTED | KnownNames::LISTED_AFTER_SEQUENCE) != 0;
    known && SEQUENCE_FAMILIES.iter().any(|family| bare.starts_with(family))
}

/// The name lists in lower case, as one map from a name to the lists that
/// hold it (one bit each): every skinparam line asks about its name and
/// its bare form, two look-ups (scanning the lists took more time than the
/// rest of a typical diagram's check; a set per list took five).
struct KnownNames {
    lists: FxHashMap<String, u8>,
}

impl KnownNames {
    /// In [`PLANTUML_SKINPARAMS`].
    const LISTED: u8 = 1;
    /// In [`UNLISTED`].
    const UNLISTED: u8 = 2;
    /// A listed name that starts with `sequence`, without it.
    const LISTED_AFTER_SEQUENCE: u8 = 4;
    /// In [`SEQUENCE_SINGLES`].
    const SINGLE: u8 = 8;
    /// A key of [`IGNORED_IN_SEQUENCE`].
    const IGNORED: u8 = 16;

    fn of(&self, lower: &str) -> u8 {
        self.lists.get(lower).copied().unwrap_or(0)
    }
}

fn known_names() -> &'static KnownNames {
    static NAMES: std::sync::OnceLock<KnownNames> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let mut lists: FxHashMap<String, u8> = FxHashMap::default();
        let mut mark = |name: &str, list: u8| *lists.entry(name.to_ascii_lowercase()).or_default() |= list;
        for name in PLANTUML_SKINPARAMS {
            mark(name, KnownNames::LISTED);
            if name.len() > 8 && name[..8].eq_ignore_ascii_case("sequence") {
                mark(&name[8..], KnownNames::LISTED_AFTER_SEQUENCE);
            }
        }
        for name in UNLISTED {
            mark(name, KnownNames::UNLISTED);
        }
        for name in SEQUENCE_SINGLES {
            mark(name, KnownNames::SINGLE);
        }
        for (name, _) in IGNORED_IN_SEQUENCE {
            mark(name, KnownNames::IGNORED);
        }
        KnownNames { lists }
    })
}

/// What a sequence diagram makes of a skin parameter it does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoredSkinparam {
    pub message: String,
    /// The name a sequence diagram reads in its place, when one is close.
    pub instead: Option<&'static str>,
}

/// `None` when a sequence diagram reads `key` (a skinparam name as written,
/// `skinparam sequence { … }` prefixes joined, a `<<stereotype>>` allowed
/// at its end; any case).
pub fn check_sequence_skinparam(key: &str) -> Option<IgnoredSkinparam> {
    let name = before_stereotype(key).trim();
    // By bytes: a byte of a character beyond ASCII is no ASCII letter or
    // digit either.
    if name.is_empty() || name.len() > 80 || !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    // Lower-cased on the stack: the name is at most 80 ASCII characters.
    let mut buffer = [0u8; 80];
    let lower = &mut buffer[..name.len()];
    lower.copy_from_slice(name.as_bytes());
    lower.make_ascii_lowercase();
    let Ok(lower) = std::str::from_utf8(lower) else {
        return None;
    };
    let names = known_names();
    let own = names.of(lower);
    if own & KnownNames::IGNORED != 0 {
        let instead = IGNORED_IN_SEQUENCE
            .iter()
            .find(|(k, _)| *k == lower)
            .and_then(|(_, instead)| *instead);
        let message = match instead {
            Some(other) => format!("PlantUML ignores `skinparam {name}` in sequence diagrams; it reads `{other}`"),
            None => format!("PlantUML ignores `skinparam {name}` in sequence diagrams"),
        };
        return Some(IgnoredSkinparam { message, instead });
    }
    let bare = lower.strip_prefix("sequence").unwrap_or(lower);
    let bare_lists = if bare.len() == lower.len() { own } else { names.of(bare) };
    if read_with(own, bare_lists, bare) {
        return None;
    }
    let known = own & KnownNames::LISTED != 0;
    let message = if known {
        format!("`{name}` is a skin parameter of other diagram kinds: a sequence diagram ignores it")
    } else {
        format!("`{name}` is not a skin parameter a sequence diagram reads: PlantUML ignores it")
    };
    Some(IgnoredSkinparam {
        message,
        instead: remembered_closest_sequence_name(lower),
    })
}

/// [`closest_sequence_name`], remembered per name for the process: the
/// same unknown names come back in every diagram including one style file
/// and at every re-analysis of an edited one, and the search was the
/// largest cost of checking a skinparam block (the answer depends on the
/// name alone, so a remembered one is the one the search would give).
/// Bounded: past [`REMEMBERED_NAMES`] names it starts over.
fn remembered_closest_sequence_name(lower: &str) -> Option<&'static str> {
    type Remembered = std::sync::Mutex<FxHashMap<Box<str>, Option<&'static str>>>;
    static REMEMBERED: std::sync::OnceLock<Remembered> = std::sync::OnceLock::new();
    let remembered = REMEMBERED.get_or_init(Default::default);
    // A poisoned lock only means another thread panicked while holding
    // it; the map itself is always whole (one insert or clear at a time).
    let mut names = remembered.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(closest) = names.get(lower) {
        return *closest;
    }
    let closest = closest_sequence_name(lower);
    if names.len() >= REMEMBERED_NAMES {
        names.clear();
    }
    names.insert(lower.into(), closest);
    closest
}

/// How many names [`remembered_closest_sequence_name`] keeps (each at most
/// 80 bytes): far more than any set of style files writes.
const REMEMBERED_NAMES: usize = 4096;

/// `text` up to its first `<<` (a stereotype), or all of it. A search for
/// one `<`, then a look at the next byte, not a substring search: every
/// skinparam line asks it, and setting up a two-byte pattern search (or
/// comparing every pair of bytes) cost more than the search for one byte,
/// which most names lack.
pub(crate) fn before_stereotype(text: &str) -> &str {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = bytes[from..].iter().position(|&b| b == b'<') {
        let at = from + found;
        if bytes.get(at + 1) == Some(&b'<') {
            // `<` is ASCII: the cut is a character boundary.
            return &text[..at];
        }
        from = at + 1;
    }
    text
}

/// The name a sequence diagram reads within a couple of edits of `lower`,
/// the `sequence` prefix aside (PlantUML reads most names with or without it).
fn closest_sequence_name(lower: &str) -> Option<&'static str> {
    let bare = lower.strip_prefix("sequence").unwrap_or(lower);
    let bare_chars = bare.chars().count();
    let letters = LetterCounts::of(bare);
    let SequenceNames { names, present } = sequence_names();
    // The distance is at least the difference in length (names are
    // ASCII): only names within two characters of this one's length.
    let first = names.partition_point(|known| known.bare.len() + 2 < bare_chars);
    let end = names
        .partition_point(|known| known.bare.len() <= bare_chars + 2)
        .max(first);
    // More than four letters that only one of the two names has means at
    // least three edits ([`LetterCounts::edits_at_least`]), more than any
    // name may take: one count over a dense array of the letter sets puts
    // most names aside before their entries are read.
    (first..end)
        .filter(|&index| (present[index] ^ letters.present).count_ones() <= 4)
        .map(|index| &names[index])
        .filter_map(|known| {
            let limit = if known.name.len() >= 8 { 2 } else { 1 };
            // It is at least the letters one has more of than the other:
            // most names need no distance table.
            if letters.edits_at_least(&known.letters) > limit {
                return None;
            }
            let distance = puml_syntax::edit_distance_within(bare, &known.bare, limit)?;
            (distance > 0).then_some(((distance, known.listed_at), known.name))
        })
        // The nearest; between equals, the one listed first.
        .min_by_key(|(rank, _)| *rank)
        .map(|(_, name)| name)
}

/// How many times each letter occurs in a name (the digits share the
/// last six slots: merged slots only lower the bound below, and 32 slots
/// compare as two vector registers).
struct LetterCounts {
    counts: [u8; 32],
    /// The slots that occur at all, one bit each.
    present: u32,
}

impl LetterCounts {
    fn of(name: &str) -> Self {
        let mut counts = [0u8; 32];
        for byte in name.bytes() {
            let slot = match byte {
                b'a'..=b'z' => usize::from(byte - b'a'),
                b'A'..=b'Z' => usize::from(byte - b'A'),
                b'0'..=b'9' => 26 + usize::from(byte - b'0') % 6,
                _ => continue,
            };
            counts[slot] = counts[slot].saturating_add(1);
        }
        let present = counts
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .fold(0u32, |bits, (slot, _)| bits | 1 << slot);
        Self { counts, present }
    }

    /// A lower bound of the edits from one name to the other: an edit
    /// removes at most one surplus letter and supplies at most one missing
    /// one (a swap neither), so it takes at least as many edits as the
    /// larger of the two counts. (Characters other than letters and
    /// digits are not counted, which only lowers the bound.)
    fn edits_at_least(&self, other: &Self) -> usize {
        // The letters one name has and the other lacks altogether: a
        // weaker bound, but a few instructions, and past two edits (the
        // most a close name may take) it sets the name aside at once.
        let only_mine = (self.present & !other.present).count_ones();
        let only_theirs = (other.present & !self.present).count_ones();
        let absent = only_mine.max(only_theirs);
        if absent > 2 {
            return absent as usize;
        }
        let surplus: u32 = self
            .counts
            .iter()
            .zip(&other.counts)
            .map(|(a, b)| u32::from(a.saturating_sub(*b)))
            .sum();
        let missing: u32 = other
            .counts
            .iter()
            .zip(&self.counts)
            .map(|(a, b)| u32::from(a.saturating_sub(*b)))
            .sum();
        surplus.max(missing) as usize
    }
}

/// A name a sequence diagram reads, as PlantUML lists it, with its
/// lowercased form without the `sequence` prefix and that form's letters.
struct SequenceName {
    name: &'static str,
    bare: String,
    letters: LetterCounts,
    /// Its place in the lists ([`PLANTUML_SKINPARAMS`], then [`UNLISTED`]).
    listed_at: usize,
}

/// The names a sequence diagram reads, by the length of their bare form:
/// worked out once (deciding whether one name is read looks it up in the
/// lists, so doing it per misspelt skinparam was quadratic in their length).
fn sequence_names() -> &'static SequenceNames {
    static NAMES: std::sync::OnceLock<SequenceNames> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: Vec<SequenceName> = PLANTUML_SKINPARAMS
            .iter()
            .chain(UNLISTED)
            .filter(|k| read_by_sequence(&k.to_ascii_lowercase()))
            .enumerate()
            .map(|(listed_at, k)| {
                let known = k.to_ascii_lowercase();
                let bare = known.strip_prefix("sequence").unwrap_or(&known).to_string();
                SequenceName {
                    name: k,
                    letters: LetterCounts::of(&bare),
                    bare,
                    listed_at,
                }
            })
            .collect();
        names.sort_by_key(|known| (known.bare.len(), known.listed_at));
        let present = names.iter().map(|known| known.letters.present).collect();
        SequenceNames { names, present }
    })
}

/// [`sequence_names`]: the names, and beside them each one's letter set.
struct SequenceNames {
    names: Vec<SequenceName>,
    /// `names[i].letters.present`, packed.
    present: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte scan cuts where splitting at the first `<<` does.
    #[test]
    fn before_stereotype_cuts_at_the_first_double_angle() {
        for text in [
            "",
            "<",
            "<<",
            "a<b",
            "Color<<S>>",
            "a<<<b",
            "<<x",
            "é<<ü",
            "ArrowColor",
            "x<<y<<z",
        ] {
            assert_eq!(
                before_stereotype(text),
                text.split("<<").next().unwrap_or(text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn sequence_names_pass_and_others_are_reported() {
        for read in [
            "ParticipantBackgroundColor",
            "participantfontstyle",
            "sequenceArrowThickness",
            "sequencegroupheaderfontsize",
            "sequencearrowcolor",
            "sequenceparticipantbordercolor",
            "ArrowColor",
            "DefaultFontName",
            "maxMessageSize",
            "ParticipantBackgroundColor<<Store>>",
            "sequenceLifeLineBorderColor",
            "DiagramBorderColor",
            "shadowing",
            "BoxPadding",
        ] {
            assert_eq!(check_sequence_skinparam(read), None, "{read}");
        }
        let misspelt = check_sequence_skinparam("ParticipantBackgroudColor").expect("reported");
        assert_eq!(misspelt.instead, Some("ParticipantBackgroundColor"));
        assert!(
            misspelt.message.contains("not a skin parameter"),
            "{}",
            misspelt.message
        );
        let other_kind = check_sequence_skinparam("ClassBackgroundColor").expect("reported");
        assert!(
            other_kind.message.contains("other diagram kinds"),
            "{}",
            other_kind.message
        );
        let bare = check_sequence_skinparam("LifeLineBorderColor").expect("reported");
        assert_eq!(bare.instead, Some("sequenceLifeLineBorderColor"));
    }

    /// A remembered answer is the search's: asked twice, in any order, each
    /// name gets what the search gives it.
    #[test]
    fn remembered_closest_names_are_the_searched_ones() {
        let names = [
            "participantbackgroudcolor",
            "lifelinebordercolor",
            "sequencelifelinebordercolr",
            "classbackgroundcolor",
            "arrowcolour",
            "zzzz",
            "participantbackgroudcolor",
        ];
        for _ in 0..2 {
            for name in names {
                assert_eq!(
                    remembered_closest_sequence_name(name),
                    closest_sequence_name(name),
                    "{name}"
                );
            }
        }
        assert_eq!(
            remembered_closest_sequence_name("participantbackgroudcolor"),
            Some("ParticipantBackgroundColor")
        );
    }

    /// The map of lists answers as the lists themselves, read one by one:
    /// every listed name with and without the prefix, and misspellings.
    #[test]
    fn the_map_of_lists_answers_as_the_lists() {
        let in_list = |list: &[&str], name: &str| list.iter().any(|k| k.eq_ignore_ascii_case(name));
        let after_sequence = |name: &str| {
            PLANTUML_SKINPARAMS
                .iter()
                .any(|k| k.len() > 8 && k[..8].eq_ignore_ascii_case("sequence") && k[8..].eq_ignore_ascii_case(name))
        };
        let by_lists = |lower: &str| {
            let bare = lower.strip_prefix("sequence").unwrap_or(lower);
            if in_list(UNLISTED, lower) || SEQUENCE_SINGLES.contains(&bare) {
                return true;
            }
            let known = in_list(PLANTUML_SKINPARAMS, lower)
                || in_list(PLANTUML_SKINPARAMS, bare)
                || in_list(UNLISTED, bare)
                || after_sequence(bare);
            known && SEQUENCE_FAMILIES.iter().any(|family| bare.starts_with(family))
        };
        let mut asked = 0;
        for name in PLANTUML_SKINPARAMS.iter().chain(UNLISTED).chain(SEQUENCE_SINGLES) {
            let lower = name.to_ascii_lowercase();
            let bare = lower.strip_prefix("sequence").unwrap_or(&lower).to_string();
            let shorter = bare.get(1..).unwrap_or_default();
            for variant in [
                format!("sequence{bare}"),
                bare.clone(),
                format!("{bare}x"),
                shorter.to_string(),
                format!("sequence{shorter}"),
                lower.clone(),
            ] {
                assert_eq!(read_by_sequence(&variant), by_lists(&variant), "{variant}");
                let ignored = IGNORED_IN_SEQUENCE.iter().any(|(k, _)| *k == variant);
                assert_eq!(
                    known_names().of(&variant) & KnownNames::IGNORED != 0,
                    ignored,
                    "{variant}"
                );
                assert_eq!(
                    known_names().of(&variant) & KnownNames::LISTED != 0,
                    in_list(PLANTUML_SKINPARAMS, &variant),
                    "{variant}"
                );
                asked += 1;
            }
        }
        assert!(asked > 2_000, "only {asked}");
    }

    /// The letter count never claims more edits than the distance takes
    /// (else a close name would be skipped): every pair of names a sequence
    /// diagram reads, and each name against its misspellings.
    #[test]
    fn the_letter_bound_never_exceeds_the_distance() {
        let names = &sequence_names().names;
        let mut pairs = 0;
        for a in names {
            let mut variants = vec![a.bare.clone()];
            let bytes = a.bare.as_bytes();
            for i in 0..bytes.len().saturating_sub(1) {
                let mut swapped = bytes.to_vec();
                swapped.swap(i, i + 1);
                variants.push(String::from_utf8(swapped).expect("ASCII"));
                let mut dropped = bytes.to_vec();
                dropped.remove(i);
                variants.push(String::from_utf8(dropped).expect("ASCII"));
            }
            variants.push(format!("{}x", a.bare));
            for b in names
                .iter()
                .map(|n| n.bare.as_str())
                .chain(variants.iter().map(String::as_str))
            {
                let (mine, theirs) = (LetterCounts::of(&a.bare), LetterCounts::of(b));
                let distance = puml_syntax::edit_distance(&a.bare, b);
                assert!(mine.edits_at_least(&theirs) <= distance, "{} {b}", a.bare);
                // The quicker test `closest_sequence_name` makes first:
                // letters only one name has, at most two per edit.
                let one_sided = (mine.present ^ theirs.present).count_ones() as usize;
                assert!(one_sided <= 2 * distance, "{} {b}", a.bare);
                pairs += 1;
            }
        }
        assert!(pairs > 10_000, "only {pairs} pairs");
    }
}
