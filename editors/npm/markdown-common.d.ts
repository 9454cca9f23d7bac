export interface PumlMarkdownOptions {
  /** Fence languages rendered as diagrams; default ["plantuml", "puml"]. */
  languages?: string[];
  /** Also render bare `@startuml … @enduml` blocks; default true. */
  startuml?: boolean;
  /** What an error diagnostic does: fail the build (default), warn, or nothing. */
  errors?: "throw" | "warn" | "ignore";
  /** What a warning does: warn (default), fail the build, or nothing. */
  warnings?: "throw" | "warn" | "ignore";
  /** Theme for every diagram (overrides `!theme`). */
  theme?: string;
  /** Class of the wrapping element; default "puml". */
  className?: string;
  /** File name used in messages (markdown-it also reads `env.file`; unified the vfile's path). */
  file?: string;
}
