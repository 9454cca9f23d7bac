//! The prompts. Each one makes the model use the compiler: every authoring
//! flow runs `puml_check` and repairs until the diagnostics are empty
//! before anything is rendered or presented. Arguments are treated as data:
//! they are quoted into the prompt, never interpreted.

use rmcp::model::{GetPromptResult, JsonObject, Prompt, PromptArgument, PromptMessage, Role};
use rmcp::ErrorData;

struct ArgSpec {
    name: &'static str,
    description: &'static str,
    required: bool,
}

struct PromptSpec {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    arguments: &'static [ArgSpec],
}

const STYLES: [&str; 6] = ["default", "minimal", "docs", "dark", "sand", "blueprint"];
const INPUT_TYPES: [&str; 6] = ["prose", "mermaid", "plantuml", "logs", "openapi", "code"];

const PROMPTS: [PromptSpec; 6] = [
    PromptSpec {
        name: "write_sequence_diagram",
        title: "Write a sequence diagram",
        description: "Draft a PlantUML sequence diagram from a description, validate it with puml_check and repair it until it is valid.",
        arguments: &[
            ArgSpec { name: "description", description: "What the diagram must show.", required: true },
            ArgSpec {
                name: "style",
                description: "default | minimal | docs | dark | sand | blueprint",
                required: false,
            },
            ArgSpec {
                name: "include_lifecycle",
                description: "true to show activation, creation and destruction",
                required: false,
            },
            ArgSpec { name: "include_notes", description: "true to annotate steps with notes", required: false },
        ],
    },
    PromptSpec {
        name: "review_sequence_diagram",
        title: "Review a sequence diagram",
        description: "Check, render and review an existing diagram for correctness and readability, and suggest a patch.",
        arguments: &[
            ArgSpec { name: "source", description: "The diagram source to review.", required: true },
            ArgSpec { name: "strict", description: "true to treat warnings and readability findings as blocking", required: false },
        ],
    },
    PromptSpec {
        name: "convert_to_puml",
        title: "Convert to a puml sequence diagram",
        description: "Convert prose, Mermaid, PlantUML, logs, OpenAPI or code into a valid puml sequence diagram.",
        arguments: &[
            ArgSpec { name: "input", description: "The material to convert.", required: true },
            ArgSpec {
                name: "input_type",
                description: "prose | mermaid | plantuml | logs | openapi | code",
                required: true,
            },
        ],
    },
    PromptSpec {
        name: "explain_sequence_diagram",
        title: "Explain a sequence diagram",
        description: "Explain a diagram with puml_explain: a human summary and the flow step by step.",
        arguments: &[ArgSpec { name: "source", description: "The diagram source to explain.", required: true }],
    },
    PromptSpec {
        name: "write_class_diagram",
        title: "Write a class diagram",
        description: "Draft a PlantUML class diagram (classes, interfaces, enums, members, relations, packages) from a description, validate it with puml_check and repair it until it is valid.",
        arguments: &[
            ArgSpec { name: "description", description: "What the diagram must show: the types, their members and how they relate.", required: true },
            ArgSpec { name: "include_members", description: "true to list fields and methods in the class bodies", required: false },
        ],
    },
    PromptSpec {
        name: "write_agent_workflow",
        title: "Write an agent workflow",
        description: "Write an agent workflow as a PlantUML activity diagram (seed 001: swimlanes are agents, YAML annotation notes), and validate it with puml_workflow_validate until it passes.",
        arguments: &[
            ArgSpec { name: "description", description: "What the workflow must do.", required: true },
            ArgSpec {
                name: "agents",
                description: "The agents (swimlanes) to use, comma-separated; chosen from the description when absent.",
                required: false,
            },
            ArgSpec {
                name: "templates",
                description: "A template registry inside the workspace (directory or JSON file) to validate template ids against.",
                required: false,
            },
        ],
    },
];

pub fn list() -> Vec<Prompt> {
    PROMPTS
        .iter()
        .map(|p| {
            let arguments = p
                .arguments
                .iter()
                .map(|a| {
                    PromptArgument::new(a.name)
                        .with_description(a.description)
                        .with_required(a.required)
                })
                .collect();
            Prompt::new(p.name, Some(p.description), Some(arguments)).with_title(p.title)
        })
        .collect()
}

/// Arguments as strings, checked against the prompt's declared arguments.
struct Args {
    values: JsonObject,
}

impl Args {
    fn parse(spec: &PromptSpec, values: JsonObject) -> Result<Args, ErrorData> {
        for key in values.keys() {
            if !spec.arguments.iter().any(|a| a.name == key) {
                return Err(ErrorData::invalid_params(
                    format!("{}: unknown argument `{key}`", spec.name),
                    None,
                ));
            }
        }
        for arg in spec.arguments.iter().filter(|a| a.required) {
            if !values.contains_key(arg.name) {
                return Err(ErrorData::invalid_params(
                    format!("{}: missing required argument `{}`", spec.name, arg.name),
                    None,
                ));
            }
        }
        for (key, value) in &values {
            if !(value.is_string() || value.is_boolean()) {
                return Err(ErrorData::invalid_params(
                    format!("{}: `{key}` must be a string", spec.name),
                    None,
                ));
            }
            if let Some(text) = value.as_str() {
                if text.len() > crate::security::MAX_SOURCE_BYTES {
                    return Err(ErrorData::invalid_params(
                        format!("{}: `{key}` is larger than 1 MB", spec.name),
                        None,
                    ));
                }
            }
        }
        Ok(Args { values })
    }

    fn text(&self, name: &str) -> Option<String> {
        match self.values.get(name)? {
            serde_json::Value::String(s) => Some(s.clone()),
            serde_json::Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    fn flag(&self, prompt: &str, name: &str) -> Result<bool, ErrorData> {
        match self.text(name).as_deref().map(str::trim) {
            None | Some("") => Ok(false),
            Some(v) if v.eq_ignore_ascii_case("true") || v == "1" || v.eq_ignore_ascii_case("yes") => Ok(true),
            Some(v) if v.eq_ignore_ascii_case("false") || v == "0" || v.eq_ignore_ascii_case("no") => Ok(false),
            Some(v) => Err(ErrorData::invalid_params(
                format!("{prompt}: `{name}` must be true or false, not `{v}`"),
                None,
            )),
        }
    }

    fn choice(&self, prompt: &str, name: &str, allowed: &[&str], default: &str) -> Result<String, ErrorData> {
        let value = self.text(name).unwrap_or_else(|| default.to_string());
        let value = value.trim().to_ascii_lowercase();
        if allowed.contains(&value.as_str()) {
            Ok(value)
        } else {
            Err(ErrorData::invalid_params(
                format!(
                    "{prompt}: `{name}` must be one of {}, not `{value}`",
                    allowed.join(", ")
                ),
                None,
            ))
        }
    }
}

const REPAIR_LOOP: &str = "\
Repair loop (mandatory):
1. Call puml_check with the complete source.
2. If ok is false, fix every error diagnostic — apply the machine-applicable fixes it offers, otherwise \
change only what the message points at — and call puml_check again.
3. Repeat until ok is true. Never claim success, and never present a diagram as final, while puml_check reports errors.
4. Only after a passing check, render it with puml_render_svg (it refuses invalid sources).";

const SYNTAX_RULES: &str = "\
Use only syntax that puml supports: consult puml_list_primitives or the puml://syntax/spec resource \
when unsure, and the puml://examples/* resources for complete diagrams. Write native PlantUML between \
@startuml and @enduml; no freehand SVG, no invented syntax.";

/// Quotes user material so it reads as data inside the prompt.
fn quoted(text: &str) -> String {
    let fence = if text.contains("````") {
        "`````"
    } else if text.contains("```") {
        "````"
    } else {
        "```"
    };
    format!("{fence}\n{text}\n{fence}")
}

pub fn get(name: &str, arguments: JsonObject) -> Result<GetPromptResult, ErrorData> {
    let spec = PROMPTS
        .iter()
        .find(|p| p.name == name)
        .ok_or_else(|| ErrorData::invalid_params(format!("unknown prompt: {name}"), None))?;
    let args = Args::parse(spec, arguments)?;
    let text = match name {
        "write_sequence_diagram" => write_prompt(spec, &args)?,
        "review_sequence_diagram" => review_prompt(spec, &args)?,
        "convert_to_puml" => convert_prompt(spec, &args)?,
        "write_agent_workflow" => workflow_prompt(&args),
        "write_class_diagram" => class_prompt(spec, &args)?,
        _ => explain_prompt(&args),
    };
    Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)]).with_description(spec.description))
}

fn write_prompt(spec: &PromptSpec, args: &Args) -> Result<String, ErrorData> {
    let description = args.text("description").unwrap_or_default();
    let style = args.choice(spec.name, "style", &STYLES, "default")?;
    let lifecycle = args.flag(spec.name, "include_lifecycle")?;
    let notes = args.flag(spec.name, "include_notes")?;
    let mut out = String::from("Write a PlantUML sequence diagram for the following description.\n\n");
    out.push_str(&quoted(&description));
    out.push_str("\n\n");
    out.push_str(SYNTAX_RULES);
    out.push_str("\n\nRequirements:\n");
    out.push_str("- Declare every participant explicitly, with the fitting kind (actor, participant, database, queue…), in the order they first act.\n");
    out.push_str("- Keep message labels short; use `-->` for replies.\n");
    if style == "blueprint" {
        // PlantUML ships `blueprint` too, so the source carries it.
        out.push_str("- Apply the `blueprint` theme with `!theme blueprint` right after @startuml.\n");
    } else if style != "default" {
        // puml's own looks: PlantUML has no theme of that name and would
        // reject `!theme {style}`, so the style belongs to the rendering.
        out.push_str(&format!(
            "- Render with the `{style}` theme (the `theme` argument of puml_render_svg or puml_export); do not write `!theme {style}` in the source: PlantUML has no theme of that name and rejects it.\n"
        ));
    }
    if lifecycle {
        out.push_str("- Show lifecycle: activate/deactivate participants while they work, create participants with `**` and destroy them with `!!` where it fits.\n");
    } else {
        out.push_str("- Do not add activation bars or creation/destruction unless the description needs them.\n");
    }
    if notes {
        out.push_str("- Add brief notes where a step needs context.\n");
    } else {
        out.push_str("- No notes unless essential.\n");
    }
    out.push_str("\nDraft the source, then:\n");
    out.push_str(REPAIR_LOOP);
    out.push_str("\n\nFinal answer: the final source (the exact text that passed puml_check) in a ```plantuml block, followed by the rendered SVG or the path it was written to.");
    Ok(out)
}

fn class_prompt(spec: &PromptSpec, args: &Args) -> Result<String, ErrorData> {
    let description = args.text("description").unwrap_or_default();
    let members = args.flag(spec.name, "include_members")?;
    let mut out = String::from("Write a PlantUML class diagram for the following description.\n\n");
    out.push_str(&quoted(&description));
    out.push_str("\n\n");
    out.push_str(SYNTAX_RULES);
    out.push_str(" The puml://examples/shop-classes resource is a complete class diagram.");
    out.push_str("\n\nRequirements:\n");
    out.push_str("- Declare each type with its keyword (`class`, `abstract class`, `interface`, `enum`), one per line; group related types in `package name { … }`.\n");
    out.push_str("- Relations as links: `Base <|-- Derived` (inheritance), `Interface <|.. Impl` (realization), `Whole *-- Part` (composition), `Whole o-- Part` (aggregation), `A --> B` (association), `A ..> B` (dependency); multiplicities in quotes (`Order \"1\" *-- \"many\" Line`), a label after ` : `.\n");
    out.push_str("- PlantUML is not Mermaid or Java: no `classDiagram` header, no `<<interface>> Name` lines, no `public class`, no `A extends B` statements (write `class A extends B` or `B <|-- A`), bodies over several lines, type arguments on a supertype only in a declaration that opens a body.\n");
    if members {
        out.push_str("- List members in the bodies, one per line, with visibility (`+ - # ~`) and types: `+ total() : Money`, `- id : UUID`; `{static}` and `{abstract}` where they apply.\n");
    } else {
        out.push_str("- Members only where they carry the point of the diagram; `hide empty members` keeps bodiless classes small.\n");
    }
    out.push_str("- Structural changes to an existing class diagram go through puml_apply_edit (add_class, add_member, add_relation, remove_relation, rename_class).\n");
    out.push_str("\nDraft the source, then:\n");
    out.push_str(REPAIR_LOOP);
    out.push_str("\n\nFinal answer: the final source (the exact text that passed puml_check) in a ```plantuml block, followed by the rendered SVG or the path it was written to.");
    Ok(out)
}

fn review_prompt(spec: &PromptSpec, args: &Args) -> Result<String, ErrorData> {
    let source = args.text("source").unwrap_or_default();
    let strict = args.flag(spec.name, "strict")?;
    let mut out = String::from("Review this PlantUML sequence diagram.\n\n");
    out.push_str(&quoted(&source));
    out.push_str("\n\nSteps:\n");
    out.push_str("1. Check syntax: call puml_check with the source. Its diagnostics are the authority on validity.\n");
    out.push_str(
        "2. Render if valid: when ok is true, call puml_render_svg; if not, skip rendering and report the errors.\n",
    );
    out.push_str("3. Review readability: call puml_lint_readability and weigh its findings (participant order, label length, nesting, reply arrows).\n");
    out.push_str("4. Suggest a patch: prefer puml_apply_edit or puml_normalize to produce it, and run puml_check on the patched source: it must pass.\n");
    if strict {
        out.push_str("\nStrict review: warnings and readability findings are blocking issues.\n");
    } else {
        out.push_str("\nWarnings and readability findings are recommendations, not blocking issues.\n");
    }
    out.push_str("\nAnswer in this format:\nVerdict: pass / needs changes / invalid\nBlocking issues:\nRecommended improvements:\nRendered artifact:\nSuggested patch:\n");
    Ok(out)
}

fn convert_prompt(spec: &PromptSpec, args: &Args) -> Result<String, ErrorData> {
    let input = args.text("input").unwrap_or_default();
    let input_type = args.choice(spec.name, "input_type", &INPUT_TYPES, "prose")?;
    let mut out = format!("Convert the following {input_type} input into a puml sequence diagram.\n\n");
    out.push_str(&quoted(&input));
    out.push_str("\n\n");
    match input_type.as_str() {
        "mermaid" => match puml_ide::mermaid::convert(&input) {
            Ok(conversion) => {
                out.push_str("puml's Mermaid converter produced this draft:\n\n");
                out.push_str(&quoted(&conversion.source));
                out.push('\n');
                if !conversion.warnings.is_empty() {
                    out.push_str("\nConverter warnings (information the draft may have lost; restore what you can):\n");
                    for w in &conversion.warnings {
                        out.push_str(&format!("- Mermaid line {}: {}\n", w.line, w.message));
                    }
                }
                out.push_str("\nStart from this draft.\n");
            }
            Err(error) => {
                out.push_str(&format!("puml's Mermaid converter refused the input: {error}.\n"));
                out.push_str("It is not a Mermaid sequence diagram: do not convert it unless the user explicitly asks to translate the idea into sequence form.\n");
            }
        },
        "plantuml" => out.push_str("It is PlantUML already: keep its meaning, drop constructs puml does not support (check with puml_check), and keep it a sequence diagram.\n"),
        "logs" => out.push_str("Each participant is a service or component that appears in the logs; each message is a request, response or event between them, in timestamp order. Leave out noise.\n"),
        "openapi" => out.push_str("Model the main flow across the operations: the client, the API and the back-ends the operations imply; label messages with method and path; replies with status codes.\n"),
        "code" => out.push_str("Model the calls between the components, classes or services in the code, in execution order; replies for returned values that matter.\n"),
        _ => out.push_str("Identify the actors and systems, then the messages between them in order.\n"),
    }
    out.push_str("\nOnly sequence diagrams are supported. If the input describes another kind of diagram (class, state, flowchart, ER…), say so and stop, unless the user explicitly asks to translate the idea into sequence form.\n\n");
    out.push_str(SYNTAX_RULES);
    out.push_str("\n\n");
    out.push_str(REPAIR_LOOP);
    out.push_str("\n\nFinal answer: the final source that passed puml_check, in a ```plantuml block.");
    Ok(out)
}

const WORKFLOW_LOOP: &str = "\
Validation loop (mandatory):
1. Call puml_workflow_validate with the complete source (and `templates` when a registry is given).
2. If ok is false, fix every error diagnostic — the activity syntax errors (E…) first, then the annotation \
notes (F01…), then the workflow rules (F02…): apply the machine-applicable fixes it offers, otherwise change \
only what the message points at — and call puml_workflow_validate again.
3. Repeat until ok is true. Never present a workflow as final while puml_workflow_validate reports errors.
4. Then call puml_workflow_import on the same source and show its Workflow JSON summary.";

fn workflow_prompt(args: &Args) -> String {
    let description = args.text("description").unwrap_or_default();
    let mut out =
        String::from("Write an agent workflow as a PlantUML activity diagram for the following description.\n\n");
    out.push_str(&quoted(&description));
    if let Some(agents) = args.text("agents").filter(|a| !a.trim().is_empty()) {
        out.push_str("\n\nUse these agents as swimlanes:\n");
        out.push_str(&quoted(&agents));
    }
    out.push_str("\n\nThe format (read the resources puml://workflow/schema and puml://workflow/examples/* for complete examples):\n");
    out.push_str("- Declare every swimlane at the top, once each, with a colour: `|#LightBlue|Researcher|`. Swimlanes are agents.\n");
    out.push_str("- `start`, then an `<<input>>` note declaring the workflow's `variables:` (`- name: …`, `type:`, `required:`, `default:`).\n");
    out.push_str("- Each step is `|Agent|` (when the agent changes) and `:Step name;` followed by a note whose first line is `<<prompt>>`, `<<router>>` or `<<aggregator>>`, then YAML: `template`, `input` (`{{variable}}`, `{{node.output}}`, `$VAR`), `output`, optional `outputMode` (full json jsonpath regex first_line), `outputSchema`, `retries`, `timeout`; a router has `routes:` (`- category:` / `target:` agent) followed by `split`; an aggregator has `strategy` (concatenate merge array first vote), `inputs: [a, b]`, `output` after `end fork`.\n");
    out.push_str("- Control flow: `if (x.score > 0.8?) then (yes) … else (no) … endif` with the operators == != > < >= <= contains matches only; `repeat … repeat while (cond?) is (retry)` then `->done;` for refinement loops; `fork … fork again … end fork` for parallel steps. End with `stop`.\n");
    out.push_str("- Every `{{variable}}` must be an input variable or the output of an earlier step; aggregator inputs must be outputs of steps before it.\n");
    if let Some(templates) = args.text("templates").filter(|t| !t.trim().is_empty()) {
        out.push_str(&format!(
            "- Use template ids from the registry `{}` (pass it as `templates` to puml_workflow_validate).\n",
            templates.trim()
        ));
    }
    out.push_str("\nDraft the source, then:\n");
    out.push_str(WORKFLOW_LOOP);
    out.push_str("\n\nFinal answer: the final source (the exact text that passed puml_workflow_validate) in a ```plantuml block, then the workflow's nodes and agents in one short list.");
    out
}

fn explain_prompt(args: &Args) -> String {
    let source = args.text("source").unwrap_or_default();
    let mut out = String::from("Explain this PlantUML sequence diagram.\n\n");
    out.push_str(&quoted(&source));
    out.push_str("\n\nCall puml_explain with the source and base the explanation on its result (and on puml_check's diagnostics if it reports errors: say the diagram is invalid and where).\n");
    out.push_str("Answer with:\n1. A human summary: two to four sentences on what the diagram shows.\n2. Participants: each with its role.\n3. Flow breakdown: the numbered steps in order, including alternatives, loops and notes.\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(pairs: &[(&str, serde_json::Value)]) -> JsonObject {
        pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
    }

    #[test]
    fn argument_validation() {
        assert!(get("write_sequence_diagram", args(&[])).is_err());
        assert!(get(
            "write_sequence_diagram",
            args(&[("description", "x".into()), ("bogus", "y".into())])
        )
        .is_err());
        assert!(get(
            "write_sequence_diagram",
            args(&[("description", "x".into()), ("style", "neon".into())])
        )
        .is_err());
        assert!(get(
            "write_sequence_diagram",
            args(&[("description", "x".into()), ("include_notes", "maybe".into())])
        )
        .is_err());
        assert!(get("write_sequence_diagram", args(&[("description", 3.into())])).is_err());
        assert!(get("nope", args(&[])).is_err());
        let ok = get(
            "write_sequence_diagram",
            args(&[("description", "x".into()), ("include_notes", true.into())]),
        );
        assert!(ok.is_ok());
    }

    #[test]
    fn every_authoring_prompt_requires_the_repair_loop() {
        let write = get("write_sequence_diagram", args(&[("description", "login".into())])).unwrap();
        let convert = get(
            "convert_to_puml",
            args(&[("input", "a calls b".into()), ("input_type", "prose".into())]),
        )
        .unwrap();
        for result in [write, convert] {
            let text = serde_json::to_string(&result).unwrap();
            assert!(text.contains("puml_check"));
            assert!(text.contains("Repeat until ok is true"));
        }
        let workflow = get("write_agent_workflow", args(&[("description", "review code".into())])).unwrap();
        let text = serde_json::to_string(&workflow).unwrap();
        assert!(text.contains("puml_workflow_validate"));
        assert!(text.contains("Repeat until ok is true"));
    }

    #[test]
    fn quoting_survives_fences_in_the_input() {
        assert!(quoted("a ``` b").starts_with("````\n"));
        assert!(quoted("a ```` b").starts_with("`````\n"));
    }
}
