#!/usr/bin/env python3
"""Black-box test of the puml-mcp binary with the official MCP Python SDK.

A real client that no one here wrote drives the server over stdio through
every tool, resource, resource template and prompt; the SDK itself checks
each successful tool result against the tool's output schema, and this
script checks the error results against it too. The same conformance run
then goes over streamable HTTP (`puml-mcp --http 127.0.0.1:0`, the SDK's
streamable HTTP client), followed by the REST endpoints.

  mcp-blackbox.py BINARY                  conformance run; prints "N passed, M failed"
  mcp-blackbox.py BINARY --no-http        the same, stdio only
  mcp-blackbox.py BINARY --load 10000     10,000 mixed calls on one session; RSS at start and end
  mcp-blackbox.py BINARY --bench 2000     median/p99 round trip of puml_check and puml_render_svg (50 lines)

Run it through scripts/mcp-blackbox.sh, which creates the virtualenv.
"""

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import jsonschema
import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

try:  # the SDK renamed the streamable HTTP client; accept either name
    from mcp.client.streamable_http import streamable_http_client
except ImportError:  # pragma: no cover - older SDKs
    from mcp.client.streamable_http import streamablehttp_client as streamable_http_client

LOGIN = """@startuml
actor User
participant Browser
participant API
database DB
User -> Browser : Submit credentials
Browser -> API : POST /login
activate API
API -> DB : SELECT user
DB --> API : user row
API --> Browser : session token
deactivate API
Browser --> User : Login complete
@enduml
"""

BROKEN = "@startuml\nA -> B : hi\nend\n@enduml\n"


def fifty_line_diagram() -> str:
    lines = ["@startuml", "title Fifty lines", "actor User", "participant Web", "participant API", "database DB"]
    i = 0
    while len(lines) < 49:
        lines.append(f"User -> Web : action {i}")
        lines.append(f"Web -> API : call {i}")
        lines.append(f"API --> Web : result {i}")
        i += 1
    lines = lines[:49]
    lines.append("@enduml")
    return "\n".join(lines) + "\n"


class Checks:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, condition: bool, what: str) -> None:
        if condition:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}", file=sys.stderr)


def structured(result):
    return result.structured_content or {}


def server_pid() -> int | None:
    """The puml-mcp child of this process."""
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if int(fields[1]) == me and "puml" in stat[stat.find("(") + 1 : stat.rfind(")")]:
            return int(entry.name)
    return None


def rss_kib(pid: int | None) -> int:
    if pid is None:
        return -1
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


def make_workspace() -> Path:
    root = Path(tempfile.mkdtemp(prefix="puml-mcp-blackbox-"))
    (root / "docs").mkdir()
    (root / "docs" / "login.puml").write_text(LOGIN)
    (root / "broken.puml").write_text(BROKEN)
    return root


async def conformance(session: ClientSession, root: Path) -> Checks:
    c = Checks()
    init = session.initialize_result
    c.check(init is not None and init.server_info.name == "puml-mcp", "initialize names puml-mcp")

    tools = {t.name: t for t in (await session.list_tools()).tools}
    expected = [
        "puml_parse", "puml_check", "puml_render_svg", "puml_export", "puml_normalize",
        "puml_apply_edit", "puml_explain", "puml_list_primitives", "puml_lint_readability", "puml_render_file",
        "puml_workflow_import", "puml_workflow_export", "puml_workflow_validate",
    ]
    c.check(sorted(tools) == sorted(expected), f"tools/list has the 13 tools: {sorted(tools)}")
    for name, tool in tools.items():
        c.check(tool.input_schema.get("additionalProperties") is False, f"{name} rejects unknown fields")
        c.check(tool.output_schema is not None, f"{name} declares an output schema")

    async def call(name, arguments, expect_error=False):
        result = await session.call_tool(name, arguments)
        c.check(bool(result.is_error) == expect_error, f"{name} isError={result.is_error} (expected {expect_error})")
        try:
            jsonschema.validate(structured(result), tools[name].output_schema)
            c.check(True, "")
        except jsonschema.ValidationError as e:
            c.check(False, f"{name}: structured content does not match the output schema: {e.message}")
        return result

    r = await call("puml_parse", {"source": LOGIN})
    c.check(structured(r).get("ast", {}).get("kind") == "ROOT", "puml_parse returns the tree")
    r = await call("puml_check", {"source": LOGIN})
    c.check(structured(r).get("ok") is True and structured(r)["summary"]["participants"] == 4, "puml_check ok")
    r = await call("puml_check", {"path": "broken.puml"}, expect_error=True)
    c.check(structured(r).get("ok") is False and structured(r)["diagnostics"], "puml_check reports errors")
    r = await call("puml_render_svg", {"source": LOGIN, "preview_png": True})
    c.check(structured(r).get("svg", "").lstrip().startswith("<"), "puml_render_svg returns SVG")
    kinds = [item.type for item in r.content]
    c.check(kinds.count("image") == 1, f"preview_png adds one image: {kinds}")
    c.check(all(getattr(i, "mime_type", "image/png") == "image/png" for i in r.content if i.type == "image"), "PNG only")
    for fmt in ["svg", "png", "pdf", "puml", "ast-json", "model-json", "scene-json", "txt"]:
        r = await call("puml_export", {"source": LOGIN, "format": fmt})
        c.check(structured(r).get("format") == fmt and structured(r).get("content"), f"puml_export {fmt}")
    r = await call("puml_export", {"source": LOGIN, "format": "svg", "outputPath": "x.svg"}, expect_error=True)
    c.check(not (root / "x.svg").exists(), "no write without write: true")
    r = await call("puml_export", {"source": LOGIN, "format": "svg", "outputPath": "x.svg", "write": True})
    c.check((root / "x.svg").is_file() and structured(r).get("path") == "x.svg", "puml_export writes with write: true")
    r = await call("puml_export", {"source": LOGIN, "format": "svg", "outputPath": "x.svg", "write": True}, expect_error=True)
    c.check(structured(r)["diagnostics"][0]["code"] == "M0004", "no overwrite without overwrite: true")
    r = await call("puml_normalize", {"source": "@startuml\nA->B:hi\n@enduml\n", "addExplicitParticipants": True})
    c.check("participant A" in structured(r).get("source", ""), "puml_normalize declares participants")
    r = await call("puml_apply_edit", {"source": LOGIN, "edit": {"kind": "rename_participant", "args": {"from": "API", "to": "Gateway"}}})
    c.check("Gateway" in structured(r).get("source", ""), "puml_apply_edit renames")
    # A description (use case) diagram: an element inside a container, then
    # a link written in the innermost container holding both ends.
    shop = '@startuml\nactor Customer\nrectangle Shop {\n  usecase "Check out" as CO\n}\nCustomer --> CO\n@enduml\n'
    r = await call("puml_apply_edit", {"source": shop, "edit": {"kind": "add_element", "args": {"kind": "usecase", "name": "Pay online", "alias": "Pay", "parent": "Shop", "stereotype": "main"}}})
    shop = structured(r).get("source", "")
    c.check('  usecase "Pay online" as Pay <<main>>\n}' in shop and structured(r).get("ok") is True, f"puml_apply_edit add_element: {shop!r}")
    r = await call("puml_apply_edit", {"source": shop, "edit": {"kind": "add_link", "args": {"from": "Check out", "to": "Pay", "arrow": "..>", "label": "include"}}})
    shop = structured(r).get("source", "")
    c.check("  CO ..> Pay : include\n}" in shop and structured(r).get("ok") is True, f"puml_apply_edit add_link: {shop!r}")
    r = await call("puml_apply_edit", {"source": shop, "edit": {"kind": "add_link", "args": {"from": "Customer", "to": "Nobody"}}}, expect_error=True)
    c.check(structured(r)["diagnostics"][0]["code"] == "M0010", "add_link to an unknown element refused")
    r = await call("puml_explain", {"path": "docs/login.puml"})
    c.check(len(structured(r).get("flow", [])) == 6, "puml_explain lists the flow")
    r = await call("puml_list_primitives", {})
    c.check(len(structured(r).get("arrows", [])) > 0, "puml_list_primitives lists arrows")
    r = await call("puml_lint_readability", {"source": LOGIN})
    c.check(structured(r).get("ok") is True, "puml_lint_readability runs")
    r = await call("puml_render_file", {"path": "docs/login.puml", "output_path": "docs/login.png", "write": True})
    c.check((root / "docs" / "login.png").read_bytes().startswith(b"\x89PNG"), "puml_render_file writes a PNG")
    r = await call("puml_check", {"path": "../etc/passwd"}, expect_error=True)
    c.check(structured(r)["diagnostics"][0]["code"] == "M0001", "traversal refused")

    # Agent workflows (seed 001): import, export, validate, and the round trip.
    workflow_source = (await session.read_resource("puml://workflow/examples/code-review")).contents[0].text
    schema = json.loads((await session.read_resource("puml://workflow/schema")).contents[0].text)
    r = await call("puml_workflow_import", {"source": workflow_source})
    workflow = structured(r).get("workflow") or {}
    c.check(structured(r).get("ok") is True and len(workflow.get("nodes", [])) == 9, "puml_workflow_import reads the example")
    try:
        jsonschema.validate(workflow, schema)
        c.check(True, "")
    except jsonschema.ValidationError as e:
        c.check(False, f"imported workflow does not match puml://workflow/schema: {e.message}")
    c.check([a["name"] for a in workflow.get("agents", [])] == ["Analyzer", "SecurityScanner", "Reviewer", "Reporter"], "agents from swimlanes")
    r = await call("puml_workflow_export", {"workflow": workflow})
    exported = structured(r).get("source") or ""
    c.check(exported.startswith("@startuml") and "<<aggregator>>" in exported, "puml_workflow_export writes a diagram")
    r = await call("puml_workflow_import", {"source": exported})
    again = structured(r).get("workflow") or {}
    strip = lambda w: [{k: v for k, v in n.items() if k != "span"} for n in w.get("nodes", [])]
    c.check(strip(again) == strip(workflow) and again.get("edges") == workflow.get("edges"), "import(export(w)) == w")
    r = await call("puml_workflow_validate", {"source": workflow_source})
    c.check(structured(r).get("ok") is True and structured(r).get("templatesChecked") is False, "puml_workflow_validate passes the example")
    (root / "templates.json").write_text(json.dumps(["static-analysis", "security-scan", "finding-reviewer", "critical-summary"]))
    r = await call("puml_workflow_validate", {"source": workflow_source, "templates": "templates.json"}, expect_error=True)
    diags = structured(r).get("diagnostics", [])
    c.check([d["code"] for d in diags] == ["F0203"] and "report-generator" in diags[0]["message"], f"unknown template reported: {diags}")
    bad = workflow_source.replace("{{allFindings}}", "{{allFinding}}")
    r = await call("puml_workflow_validate", {"source": bad}, expect_error=True)
    diags = structured(r).get("diagnostics", [])
    c.check(any(d["code"] == "F0201" and d["fixes"] and d["fixes"][0]["edits"][0]["new_text"] == "{{allFindings}}" for d in diags), "undefined variable with its fix")
    r = await call("puml_workflow_validate", {"source": workflow_source, "templates": "../etc"}, expect_error=True)
    c.check(structured(r)["diagnostics"][0]["code"] == "M0001", "template registry outside the roots refused")
    r = await call("puml_workflow_export", {"workflow": {"nodes": [{"id": "a", "type": "nope"}]}}, expect_error=True)
    c.check(structured(r)["diagnostics"][0]["code"] == "F0002", "bad Workflow JSON reported")

    for bad in [("puml_check", {"source": LOGIN, "bogus": 1}), ("puml_nope", {})]:
        try:
            r = await session.call_tool(*bad)
            c.check(False, f"{bad[0]} with bad arguments must be a protocol error, got {r}")
        except Exception:  # the SDK raises on JSON-RPC errors
            c.check(True, "")

    resources = (await session.list_resources()).resources
    c.check(len(resources) == 22, f"22 resources, got {len(resources)}")
    for resource in resources:
        contents = (await session.read_resource(str(resource.uri))).contents
        c.check(bool(contents and getattr(contents[0], "text", "")), f"read {resource.uri}")
    for name in ["hello", "login-flow", "async-job", "lifecycle", "shop-classes"]:
        source = (await session.read_resource(f"puml://examples/{name}")).contents[0].text
        r = await call("puml_check", {"source": source})
        c.check(structured(r).get("ok") is True, f"example {name} passes puml_check")
    for name in ["code-review", "support-router", "refine-loop", "parallel-research"]:
        source = (await session.read_resource(f"puml://workflow/examples/{name}")).contents[0].text
        r = await call("puml_workflow_validate", {"source": source})
        c.check(structured(r).get("ok") is True, f"workflow example {name} passes puml_workflow_validate")
    templates = (await session.list_resource_templates()).resource_templates
    c.check([t.uri_template for t in templates] == ["puml://project/file/{path}"], "one resource template")
    text = (await session.read_resource("puml://project/file/docs%2Flogin.puml")).contents[0].text
    c.check(text == LOGIN, "the template reads a project file")
    listing = json.loads((await session.read_resource("puml://project/diagrams")).contents[0].text)
    c.check(listing["total"] == 2, f"project diagrams: {listing}")

    prompts = {p.name: p for p in (await session.list_prompts()).prompts}
    c.check(sorted(prompts) == sorted(["write_sequence_diagram", "review_sequence_diagram", "convert_to_puml", "explain_sequence_diagram", "write_agent_workflow", "write_class_diagram"]), "6 prompts")
    cases = [
        ("write_sequence_diagram", {"description": "login", "style": "docs", "include_lifecycle": "true", "include_notes": "false"}),
        ("review_sequence_diagram", {"source": LOGIN, "strict": "true"}),
        ("convert_to_puml", {"input": "sequenceDiagram\n  A->>B: hi\n", "input_type": "mermaid"}),
        ("explain_sequence_diagram", {"source": LOGIN}),
        ("write_agent_workflow", {"description": "review a pull request with two agents"}),
        ("write_class_diagram", {"description": "an order with lines and a customer", "include_members": "true"}),
    ]
    for name, arguments in cases:
        got = await session.get_prompt(name, arguments)
        text = got.messages[0].content.text
        c.check("puml_" in text, f"prompt {name} drives the tools")
        if name == "write_agent_workflow":
            c.check("puml_workflow_validate" in text and "Repeat until ok is true" in text, "the workflow prompt requires puml_workflow_validate")
    await session.send_ping()
    return c


async def narrowed_roots(binary: str, root: Path) -> Checks:
    """A client that offers MCP roots narrows the server's roots to docs/."""
    c = Checks()

    async def list_roots(context):
        return types.ListRootsResult(roots=[types.Root(uri=(root / "docs").as_uri(), name="docs")])

    params = StdioServerParameters(command=binary, args=["--root", str(root)], cwd=str(root))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, list_roots_callback=list_roots) as session:
            await session.initialize()
            inside = await session.call_tool("puml_check", {"path": "login.puml"})
            c.check(structured(inside).get("ok") is True, f"client root docs/: login.puml readable: {inside}")
            outside = await session.call_tool("puml_check", {"path": str(root / "broken.puml")})
            codes = [d["code"] for d in structured(outside).get("diagnostics", [])]
            c.check(outside.is_error and codes == ["M0001"], f"client root docs/: broken.puml refused: {codes}")
    return c


def post_rest(base: str, path: str, body: bytes) -> tuple[int, dict]:
    request = urllib.request.Request(base + path, data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def rest_checks(base: str) -> Checks:
    """POST /api/verify, /api/render, /api/svg with {"code"}: valid, invalid, malformed."""
    c = Checks()
    code = lambda source: json.dumps({"code": source}).encode()
    status, body = post_rest(base, "/api/verify", code(LOGIN))
    c.check(status == 200 and body.get("ok") is True, f"REST verify valid: {status} {body}")
    status, body = post_rest(base, "/api/verify", code(BROKEN))
    c.check(status == 200 and body.get("ok") is False and body.get("code") == "invalid_diagram"
            and body.get("diagnostics"), f"REST verify invalid: {status} {body}")
    status, render = post_rest(base, "/api/render", code(LOGIN))
    c.check(status == 200 and render.get("svg", "").startswith("<svg"), f"REST render: {status}")
    status, svg = post_rest(base, "/api/svg", code(LOGIN))
    c.check(status == 200 and svg.get("svg") == render.get("svg")
            and svg.get("filename", "").startswith("diagram-"), f"REST svg: {status} {svg.get('filename')}")
    for path in ["/api/render", "/api/svg"]:
        status, body = post_rest(base, path, code(BROKEN))
        c.check(status == 422 and body.get("code") == "invalid_diagram", f"REST {path} invalid: {status} {body}")
    for path in ["/api/verify", "/api/render", "/api/svg"]:
        for bad in [b"{", b'{"code": ""}', b'{"code": "x", "extra": 1}']:
            status, body = post_rest(base, path, bad)
            c.check(status == 400 and body.get("code") == "invalid_input", f"REST {path} {bad!r}: {status} {body}")
    return c


async def http_pass(binary: str) -> Checks:
    """The conformance run over streamable HTTP, then the REST endpoints, on a fresh workspace."""
    root = make_workspace()
    server = subprocess.Popen(
        [binary, "--root", str(root), "--http", "127.0.0.1:0", "--rate-limit", "100000/10"],
        cwd=str(root), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        # The server prints its address (port chosen by the kernel) once it listens.
        line = server.stderr.readline()
        if "http://" not in line:
            c = Checks()
            c.check(False, f"the HTTP server did not start: {line!r}")
            return c
        base = "http://" + line.split("http://", 1)[1].split()[0]
        async with streamable_http_client(base + "/mcp") as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                checks = await conformance(session, root)
        rest = await asyncio.to_thread(rest_checks, base)
        checks.passed += rest.passed
        checks.failed += rest.failed
        return checks
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(root, ignore_errors=True)


async def load(session: ClientSession, calls: int) -> int:
    pid = server_pid()
    mix = [
        ("puml_check", {"source": LOGIN}),
        ("puml_render_svg", {"source": LOGIN}),
        ("puml_parse", {"source": LOGIN}),
        ("puml_explain", {"source": LOGIN}),
        ("puml_lint_readability", {"source": LOGIN}),
        ("puml_normalize", {"source": LOGIN}),
        ("puml_apply_edit", {"source": LOGIN, "edit": {"kind": "set_title", "args": {"title": "T"}}}),
        ("puml_export", {"source": LOGIN, "format": "txt"}),
        ("puml_check", {"source": BROKEN}),
        ("puml_list_primitives", {}),
    ]
    for name, arguments in mix:  # warm-up, so the start figure is steady state
        await session.call_tool(name, arguments)
    start_rss = rss_kib(pid)
    errors = 0
    started = time.perf_counter()
    for i in range(calls):
        if i % 50 == 49:
            await session.read_resource("puml://examples/login-flow")
            continue
        name, arguments = mix[i % len(mix)]
        result = await session.call_tool(name, arguments)
        expect_error = arguments.get("source") == BROKEN
        if bool(result.is_error) != expect_error:
            errors += 1
    elapsed = time.perf_counter() - started
    end_rss = rss_kib(pid)
    print(f"load: {calls} mixed calls in {elapsed:.1f} s on one stdio session, {errors} unexpected results")
    print(f"load: server RSS start {start_rss} KiB, end {end_rss} KiB")
    return errors


async def bench(session: ClientSession, rounds: int) -> None:
    source = fifty_line_diagram()
    assert source.count("\n") == 50
    for name in ["puml_check", "puml_render_svg"]:
        for _ in range(50):
            await session.call_tool(name, {"source": source})
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            result = await session.call_tool(name, {"source": source})
            times.append((time.perf_counter() - t0) * 1000)
            assert not result.is_error, result
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(f"bench: {name} on a 50-line diagram: median {statistics.median(times):.3f} ms, p99 {p99:.3f} ms ({rounds} calls)")


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--load", type=int, default=0)
    parser.add_argument("--bench", type=int, default=0)
    parser.add_argument("--no-http", action="store_true", help="skip the streamable HTTP and REST pass")
    args = parser.parse_args()
    root = make_workspace()
    try:
        params = StdioServerParameters(command=args.binary, args=["--root", str(root)], cwd=str(root))
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                if args.load:
                    return 1 if await load(session, args.load) else 0
                if args.bench:
                    await bench(session, args.bench)
                    return 0
                checks = await conformance(session, root)
        roots = await narrowed_roots(args.binary, root)
        checks.passed += roots.passed
        checks.failed += roots.failed
        if not args.no_http:
            http = await http_pass(args.binary)
            print(f"mcp-blackbox: over HTTP {http.passed} passed, {http.failed} failed")
            checks.passed += http.passed
            checks.failed += http.failed
        print(f"mcp-blackbox: {checks.passed} passed, {checks.failed} failed")
        return 1 if checks.failed else 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
