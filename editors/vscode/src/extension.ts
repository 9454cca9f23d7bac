// The VS Code extension: starts puml-lsp, forwards settings, and adds the
// live preview, exports and commands on top of the language client.

import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  Trace,
} from "vscode-languageclient/node";
import { FromWebview, makeNonce, previewHtml, ToWebview } from "./preview";
import { Rect } from "./window";
import { isExecutable, resolveServer } from "./server";
import { exportTarget, serverSettings } from "./settings";

let client: LanguageClient | undefined;
const output = vscode.window.createOutputChannel("puml", { log: true });

interface RenderResult {
  version: number | null;
  format: string;
  page: number;
  pageCount: number;
  /** The whole page's size, also when only `region` of it is drawn. */
  width: number;
  height: number;
  /** Present when a region was asked for: the part drawn, clamped. */
  region?: Rect;
  data: string;
  errors: number;
  warnings: number;
}


function settings() {
  const config = vscode.workspace.getConfiguration("puml");
  return serverSettings((key) => config.get(key));
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const resolution = resolveServer({
    configured: vscode.workspace.getConfiguration("puml").get<string>("server.path") ?? "",
    extensionDir: context.extensionPath,
    platform: process.platform,
    arch: process.arch,
    pathEnv: process.env.PATH ?? "",
    isExecutable,
  });
  if (resolution.kind === "missing") {
    output.error(resolution.message);
    void vscode.window.showErrorMessage(resolution.message, "Open Settings").then((choice) => {
      if (choice === "Open Settings") {
        void vscode.commands.executeCommand("workbench.action.openSettings", "puml.server.path");
      }
    });
    return;
  }
  output.info(`starting ${resolution.command} (${resolution.source})`);
  const serverOptions: ServerOptions = { command: resolution.command, args: ["--stdio"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: "puml" }],
    initializationOptions: settings(),
    outputChannel: output,
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue }),
      closed: () => ({ action: CloseAction.Restart }),
    },
  };
  client = new LanguageClient("puml", "puml", serverOptions, clientOptions);
  await client.start();
  const trace = vscode.workspace.getConfiguration("puml").get<string>("trace.server");
  await client.setTrace(Trace.fromString(trace ?? "off"));
}

function activePumlEditor(): vscode.TextEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor && editor.document.languageId === "puml" ? editor : undefined;
}

/** `region` (SVG only) asks for just that part of the page; exports never
 * pass one, so they always write the whole diagram. */
async function render(
  document: vscode.TextDocument,
  format: "svg" | "png" | "pdf",
  page: number,
  theme: string,
  region?: Rect | null,
) {
  if (!client) {
    throw new Error("the puml language server is not running");
  }
  return client.sendRequest<RenderResult>("puml/render", {
    textDocument: { uri: document.uri.toString() },
    format,
    page,
    theme: theme === "" ? undefined : theme,
    region: region ?? undefined,
  });
}

/** The same-sized region at the page's top-left (another page, another
 * document: the view starts at the top). */
function topOf(region: Rect | null): Rect | null {
  return region ? { x: 0, y: 0, width: region.width, height: region.height } : null;
}

class Preview {
  private page = 0;
  private theme = "";
  /** The part of the page the webview shows (null: the whole page), and
   * the number of the webview's request for it. */
  private region: Rect | null = null;
  private regionSeq = 0;
  private timer: NodeJS.Timeout | undefined;
  private disposables: vscode.Disposable[] = [];

  constructor(private readonly panel: vscode.WebviewPanel, private document: vscode.TextDocument) {
    const nonce = makeNonce();
    panel.webview.options = { enableScripts: true, localResourceRoots: [] };
    panel.webview.html = previewHtml(panel.webview.cspSource, nonce, path.basename(document.fileName));
    this.theme = vscode.workspace.getConfiguration("puml").get<string>("theme") ?? "";
    panel.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(m), null, this.disposables);
    vscode.workspace.onDidChangeTextDocument(
      (e) => {
        if (e.document === this.document) {
          this.schedule();
        }
      },
      null,
      this.disposables,
    );
    vscode.window.onDidChangeActiveTextEditor(
      (editor) => {
        if (editor && editor.document.languageId === "puml" && editor.document !== this.document) {
          this.document = editor.document;
          this.page = 0;
          this.region = topOf(this.region);
          this.panel.title = `Preview ${path.basename(editor.document.fileName)}`;
          this.schedule();
        }
      },
      null,
      this.disposables,
    );
    panel.onDidDispose(() => this.dispose(), null, this.disposables);
  }

  private onMessage(message: FromWebview) {
    if (message.type === "page") {
      this.page = message.page;
      this.region = topOf(this.region);
    } else if (message.type === "theme") {
      this.theme = message.theme;
    } else if (message.type === "region" || message.type === "ready") {
      // The webview coalesces these to one per animation frame.
      this.region = message.region ?? null;
      this.regionSeq = message.seq ?? 0;
    }
    void this.update();
  }

  /** One render per burst of typing; the server cancels superseded ones. */
  schedule() {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => void this.update(), 30);
  }

  async update() {
    const seq = this.regionSeq;
    const region = this.region;
    try {
      let result: RenderResult;
      try {
        result = await render(this.document, "svg", this.page, this.theme, region);
      } catch (error) {
        // The page shrank under the region (or the region was refused):
        // ask for the top of the page instead.
        if (!region || !/region/.test(error instanceof Error ? error.message : String(error))) {
          throw error;
        }
        result = await render(this.document, "svg", this.page, this.theme, topOf(region));
      }
      const message: ToWebview = {
        type: "render",
        svg: result.data,
        version: result.version,
        pageSize: { width: result.width, height: result.height },
        region: result.region ?? null,
        seq,
        state: { page: result.page, pageCount: result.pageCount, zoom: 1, theme: this.theme },
      };
      void this.panel.webview.postMessage(message);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if (!/changed|-32801/.test(text)) {
        const message: ToWebview = { type: "error", message: text };
        void this.panel.webview.postMessage(message);
      }
    }
  }

  dispose() {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}

async function exportDiagram(format: "svg" | "png" | "pdf") {
  const editor = activePumlEditor();
  if (!editor) {
    return;
  }
  const theme = vscode.workspace.getConfiguration("puml").get<string>("theme") ?? "";
  try {
    const first = await render(editor.document, format, 0, theme);
    for (let page = 0; page < first.pageCount; page++) {
      const result = page === 0 ? first : await render(editor.document, format, page, theme);
      const bytes = format === "svg" ? Buffer.from(result.data, "utf8") : Buffer.from(result.data, "base64");
      const target = exportTarget(editor.document.uri.fsPath, format, page, first.pageCount);
      // Atomic: a temporary file beside the target, then a rename.
      const temporary = `${target}.${process.pid}.tmp`;
      await fs.promises.writeFile(temporary, bytes);
      await fs.promises.rename(temporary, target);
      output.info(`wrote ${target}`);
    }
    void vscode.window.showInformationMessage(`Exported ${first.pageCount} page(s) as ${format.toUpperCase()}.`);
  } catch (error) {
    void vscode.window.showErrorMessage(`Export failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(output);
  await startClient(context);
  context.subscriptions.push(
    vscode.commands.registerCommand("puml.preview", () => {
      const editor = activePumlEditor();
      if (!editor) {
        return;
      }
      const panel = vscode.window.createWebviewPanel(
        "puml.preview",
        `Preview ${path.basename(editor.document.fileName)}`,
        vscode.ViewColumn.Beside,
        { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [] },
      );
      // The first render follows the webview's "ready", which says which
      // part of the page is in view (a long page never travels whole).
      new Preview(panel, editor.document);
    }),
    vscode.commands.registerCommand("puml.exportSvg", () => exportDiagram("svg")),
    vscode.commands.registerCommand("puml.exportPng", () => exportDiagram("png")),
    vscode.commands.registerCommand("puml.exportPdf", () => exportDiagram("pdf")),
    vscode.commands.registerCommand("puml.format", () =>
      vscode.commands.executeCommand("editor.action.formatDocument"),
    ),
    vscode.commands.registerCommand("puml.fixAll", () =>
      vscode.commands.executeCommand("editor.action.codeAction", { kind: "source.fixAll.puml", apply: "first" }),
    ),
    vscode.commands.registerCommand("puml.showModel", async () => {
      const editor = activePumlEditor();
      if (!editor || !client) {
        return;
      }
      const model = await client.sendRequest("puml/model", { textDocument: { uri: editor.document.uri.toString() } });
      const document = await vscode.workspace.openTextDocument({
        language: "json",
        content: JSON.stringify(model, null, 2),
      });
      await vscode.window.showTextDocument(document, vscode.ViewColumn.Beside);
    }),
    vscode.commands.registerCommand("puml.restartServer", async () => {
      await client?.stop();
      client = undefined;
      await startClient(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (!event.affectsConfiguration("puml")) {
        return;
      }
      if (event.affectsConfiguration("puml.server.path")) {
        await vscode.commands.executeCommand("puml.restartServer");
      } else {
        await client?.sendNotification("workspace/didChangeConfiguration", { settings: settings() });
      }
    }),
  );
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
