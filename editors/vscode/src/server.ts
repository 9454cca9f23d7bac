// Where the language server binary is: the `puml.server.path` setting, else
// the binary bundled in the extension (server/<platform>-<arch>/), else
// `puml-lsp` on PATH. Pure (file checks are injected) so it is unit-tested.

import * as fs from "fs";
import * as path from "path";

export interface ServerLookup {
  /** `puml.server.path`, possibly empty. */
  configured: string;
  /** The extension's install directory. */
  extensionDir: string;
  platform: string;
  arch: string;
  /** The PATH environment variable. */
  pathEnv: string;
  isExecutable: (file: string) => boolean;
}

export type Resolution =
  | { kind: "found"; command: string; source: "setting" | "bundled" | "path" }
  | { kind: "missing"; message: string };

export function binaryName(platform: string): string {
  return platform === "win32" ? "puml-lsp.exe" : "puml-lsp";
}

export function bundledPath(extensionDir: string, platform: string, arch: string): string {
  return path.join(extensionDir, "server", `${platform}-${arch}`, binaryName(platform));
}

export const INSTALL_HELP =
  "puml-lsp was not found. Install puml (cargo install --path crates/puml-lsp from the puml repository, " +
  "or a release archive) and put puml-lsp on PATH, or set `puml.server.path` to the binary.";

export function resolveServer(lookup: ServerLookup): Resolution {
  const configured = lookup.configured.trim();
  if (configured !== "") {
    if (lookup.isExecutable(configured)) {
      return { kind: "found", command: configured, source: "setting" };
    }
    return {
      kind: "missing",
      message: `The puml.server.path setting points at ${configured}, which is not an executable file.`,
    };
  }
  const bundled = bundledPath(lookup.extensionDir, lookup.platform, lookup.arch);
  if (lookup.isExecutable(bundled)) {
    return { kind: "found", command: bundled, source: "bundled" };
  }
  const separator = lookup.platform === "win32" ? ";" : ":";
  for (const dir of lookup.pathEnv.split(separator)) {
    if (dir === "") {
      continue;
    }
    const candidate = path.join(dir, binaryName(lookup.platform));
    if (lookup.isExecutable(candidate)) {
      return { kind: "found", command: candidate, source: "path" };
    }
  }
  return { kind: "missing", message: INSTALL_HELP };
}

/** The file check the extension passes to `resolveServer`: an executable
 * regular file (the installed-package test uses the same). */
export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
