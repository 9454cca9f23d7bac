// The settings the language server reads (initializationOptions and
// workspace/didChangeConfiguration), built from the extension's settings.

export interface PumlSettings {
  includeRoots: string[];
  theme: string;
  lint: boolean;
}

export function serverSettings(read: (key: string) => unknown): { puml: PumlSettings } {
  const roots = read("includeRoots");
  const theme = read("theme");
  const lint = read("lint");
  return {
    puml: {
      includeRoots: Array.isArray(roots) ? roots.filter((r): r is string => typeof r === "string") : [],
      theme: typeof theme === "string" ? theme : "",
      lint: typeof lint === "boolean" ? lint : true,
    },
  };
}

/** The file an export writes: the diagram's path with the format's extension. */
export function exportTarget(documentPath: string, format: "svg" | "png" | "pdf", page: number, pageCount: number): string {
  const base = documentPath.replace(/\.(puml|plantuml|pu|iuml|wsd)$/i, "");
  const suffix = pageCount > 1 ? `-${page + 1}` : "";
  return `${base}${suffix}.${format}`;
}
