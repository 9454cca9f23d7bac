// The installed-package test (scripts/ci.d/50-vscode.sh): given the folder a
// platform .vsix was unpacked into (as VS Code installs it), run the
// extension's own server lookup with an empty PATH, start the server it
// finds, and get diagnostics for a broken diagram over LSP.
// Usage: node scripts/installed-server.js EXTENSION_DIR
"use strict";
const assert = require("node:assert/strict");
const cp = require("node:child_process");
const { resolveServer, isExecutable, bundledPath } = require("../out/server.js");
const rpc = require("vscode-jsonrpc/node");

async function main() {
  const extensionDir = process.argv[2];
  assert.ok(extensionDir, "usage: installed-server.js EXTENSION_DIR");
  const resolution = resolveServer({
    configured: "",
    extensionDir,
    platform: process.platform,
    arch: process.arch,
    pathEnv: "",
    isExecutable,
  });
  assert.deepEqual(
    resolution,
    { kind: "found", command: bundledPath(extensionDir, process.platform, process.arch), source: "bundled" },
    "the bundled server is found with an empty PATH",
  );
  const server = cp.spawn(resolution.command, [], { env: { PATH: "" }, stdio: ["pipe", "pipe", "inherit"] });
  const connection = rpc.createMessageConnection(
    new rpc.StreamMessageReader(server.stdout),
    new rpc.StreamMessageWriter(server.stdin),
  );
  const uri = "file:///tmp/puml-installed/broken.puml";
  const published = new Promise((resolve) => {
    connection.onNotification("textDocument/publishDiagnostics", (params) => {
      if (params.uri === uri) {
        resolve(params.diagnostics);
      }
    });
  });
  connection.listen();
  const init = await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
  assert.ok(init.capabilities.textDocumentSync, "the server answers initialize");
  await connection.sendNotification("initialized", {});
  await connection.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "puml", version: 1, text: "@startuml\nparticipant A\nA -> B hello\n@enduml\n" },
  });
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("no diagnostics in 20 s")), 20000));
  const diagnostics = await Promise.race([published, timeout]);
  assert.ok(
    diagnostics.some((d) => d.code === "E0103" && d.range.start.line === 2),
    JSON.stringify(diagnostics),
  );
  await connection.sendRequest("shutdown");
  await connection.sendNotification("exit");
  connection.dispose();
  console.log(`installed package: ${resolution.command} found with PATH empty; diagnostics ${diagnostics.map((d) => d.code).join(", ")}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
