"""Black-box test of puml-lsp with a real LSP client (pytest-lsp / pygls).

Drives the release binary (or $PUML_LSP) over stdio the way an editor does:
open, incremental edits with non-ASCII text, diagnostics, code actions and
fix all, formatting, hover, completion, definition, references, symbols,
folding, the custom `puml/render` and `puml/model` requests, a malformed
request, an unknown method, a request overtaken by an edit, and a soak of
many edits whose memory is reported.

Run: scripts/ci.d/30-lsp-blackbox.sh (sets up the venv).
"""

import asyncio
import re
import os
import pathlib
import sys

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = pathlib.Path(__file__).resolve().parent.parent
SERVER = os.environ.get("PUML_LSP", str(ROOT / "target" / "release" / "puml-lsp"))
URI = "file:///tmp/puml-lsp-blackbox/diagram.puml"

GOOD = """@startuml
participant "Ålice Ünïcode" as A
participant Bob
A -> Bob : héllo 😀
alt ok
Bob --> A : fine
else no
Bob --> A : nope
end
@enduml
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[SERVER]))
async def client(lsp_client: LanguageClient):
    initialized = await lsp_client.initialize_session(
        t.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri="file:///tmp/puml-lsp-blackbox",
            initialization_options={"puml": {"lint": False}},
        )
    )
    # The semantic token legend, to decode token types by name.
    lsp_client.puml_token_types = initialized.capabilities.semantic_tokens_provider.legend.token_types
    yield
    await lsp_client.shutdown_session()


def send_open(client: LanguageClient, text: str, uri: str = URI, version: int = 1):
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(uri=uri, language_id="puml", version=version, text=text)
        )
    )


async def open_document(client: LanguageClient, text: str, uri: str = URI, version: int = 1):
    send_open(client, text, uri, version)
    return await diagnostics(client, uri)


async def diagnostics(client: LanguageClient, uri: str = URI):
    await asyncio.wait_for(client.wait_for_notification("textDocument/publishDiagnostics"), 20)
    return list(client.diagnostics.get(uri, []))


def change(client: LanguageClient, version: int, start, end, text: str, uri: str = URI):
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[
                t.TextDocumentContentChangePartial(
                    range=t.Range(start=t.Position(*start), end=t.Position(*end)), text=text
                )
            ],
        )
    )


def doc(uri: str = URI):
    return t.TextDocumentIdentifier(uri=uri)


def offset_of(text: str, position) -> int:
    """The index in `text` of an LSP position (UTF-16 columns)."""
    lines = text.split("\n")
    before = "\n".join(lines[: position.line])
    start = len(before) + (1 if position.line > 0 else 0)
    line = lines[position.line] if position.line < len(lines) else ""
    units, chars = 0, 0
    for ch in line:
        if units >= position.character:
            break
        units += 2 if ord(ch) > 0xFFFF else 1
        chars += 1
    return start + chars


def covered(text: str, rng) -> str:
    """The text an LSP range covers."""
    return text[offset_of(text, rng.start) : offset_of(text, rng.end)]


def apply_edits(text: str, edits) -> str:
    """Applies LSP edits (UTF-16 positions) to text, last first."""
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        a, b = offset_of(text, edit.range.start), offset_of(text, edit.range.end)
        text = text[:a] + edit.new_text + text[b:]
    return text


# The server's unit of precision: a word, a run of blanks, a line break or
# any other single character.
TOKEN = re.compile(r"\w+|[ \t]+|\r\n|.", re.S)


def assert_precise(text: str, edits):
    """Each edit changes what it covers and covers no unchanged token at
    either end: the editor is sent the spans that change, not lines."""
    assert edits, "no edit"
    for edit in edits:
        old, new = covered(text, edit.range), edit.new_text
        assert old != new, edit
        a, b = TOKEN.findall(old), TOKEN.findall(new)
        if a and b:
            assert a[0] != b[0] and a[-1] != b[-1], (old, new)


async def test_diagnostics_follow_incremental_non_ascii_edits(client: LanguageClient):
    broken = GOOD.replace("A -> Bob : héllo 😀", "A -> Bob héllo 😀")
    found = await open_document(client, broken)
    assert [d.code for d in found] == ["E0103"], found
    assert found[0].range.start.line == 3
    assert found[0].severity == t.DiagnosticSeverity.Error
    # Insert the missing colon after "Bob" on line 3: UTF-16 column 8.
    change(client, 2, (3, 8), (3, 8), " :")
    assert await diagnostics(client) == []
    # Append after the emoji (2 UTF-16 units): positions after it must be
    # counted in UTF-16 for the edit to land at the end of the line.
    line = "A -> Bob : héllo 😀"
    col = len(line.encode("utf-16-le")) // 2
    change(client, 3, (3, col), (3, col), "!")
    assert await diagnostics(client) == []
    rendered = await client.protocol.send_request_async("puml/render", {"textDocument": {"uri": URI}})
    assert "héllo 😀!" in rendered.data and rendered.version == 3
    hover = await client.text_document_hover_async(t.HoverParams(text_document=doc(), position=t.Position(3, 5)))
    assert "Bob" in hover.contents.value
    # Remove the colon again: the error comes back on the same line.
    change(client, 4, (3, 8), (3, 10), "")
    assert [d.code for d in await diagnostics(client)] == ["E0103"]



async def test_quick_fix_and_fix_all(client: LanguageClient):
    uri = "file:///tmp/puml-lsp-blackbox/fix.puml"
    # The declaration keeps PlantUML from reading the block as a legacy
    # activity diagram (which it does for `A -> B hello` alone: W0240).
    text = "@startuml\nparticipant A\nA -> B hello\nB -> A world\n@enduml\n"
    found = await open_document(client, text, uri)
    assert [d.code for d in found] == ["E0103", "E0103"]
    actions = await client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=doc(uri),
            range=found[0].range,
            context=t.CodeActionContext(diagnostics=[found[0]], only=[t.CodeActionKind.QuickFix]),
        )
    )
    assert actions and actions[0].kind == t.CodeActionKind.QuickFix and actions[0].is_preferred
    fixed_one = apply_edits(text, actions[0].edit.changes[uri])
    assert "A -> B : hello" in fixed_one
    fix_all = await client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=doc(uri),
            range=t.Range(start=t.Position(0, 0), end=t.Position(0, 0)),
            context=t.CodeActionContext(diagnostics=[], only=["source.fixAll.puml"]),
        )
    )
    assert [a.kind for a in fix_all] == ["source.fixAll.puml"]
    fixed = apply_edits(text, fix_all[0].edit.changes[uri])
    assert fixed == "@startuml\nparticipant A\nA -> B : hello\nB -> A : world\n@enduml\n"


async def test_formatting_and_range_formatting(client: LanguageClient):
    uri = "file:///tmp/puml-lsp-blackbox/fmt.puml"
    text = "@startuml\nalt x\nA -> B : one\nend\n@enduml\n"
    await open_document(client, text, uri)
    edits = await client.text_document_formatting_async(
        t.DocumentFormattingParams(text_document=doc(uri), options=t.FormattingOptions(tab_size=2, insert_spaces=True))
    )
    assert apply_edits(text, edits) == "@startuml\nalt x\n  A -> B : one\nend\n@enduml\n"
    edits = await client.text_document_range_formatting_async(
        t.DocumentRangeFormattingParams(
            text_document=doc(uri),
            range=t.Range(start=t.Position(2, 0), end=t.Position(2, 3)),
            options=t.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    assert "    A -> B : one" in apply_edits(text, edits)


async def test_navigation_hover_completion_symbols(client: LanguageClient):
    await open_document(client, GOOD)
    hover = await client.text_document_hover_async(
        t.HoverParams(text_document=doc(), position=t.Position(3, 0))
    )
    assert "Ålice Ünïcode" in hover.contents.value and "alias `A`" in hover.contents.value
    definition = await client.text_document_definition_async(
        t.DefinitionParams(text_document=doc(), position=t.Position(5, 8))
    )
    assert definition.range.start.line == 1
    references = await client.text_document_references_async(
        t.ReferenceParams(
            text_document=doc(),
            position=t.Position(2, 13),
            context=t.ReferenceContext(include_declaration=True),
        )
    )
    assert sorted(r.range.start.line for r in references) == [2, 3, 5, 7]
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc()))
    assert [s.name for s in symbols] == ["Ålice Ünïcode", "Bob", "alt ok"]
    folds = await client.text_document_folding_range_async(t.FoldingRangeParams(text_document=doc()))
    assert [(f.start_line, f.end_line) for f in folds] == [(4, 8)]
    change(client, 2, (9, 0), (9, 0), "Bob -> \n")
    await diagnostics(client)
    completion = await client.text_document_completion_async(
        t.CompletionParams(text_document=doc(), position=t.Position(9, 7))
    )
    labels = [item.label for item in (completion.items if hasattr(completion, "items") else completion)]
    assert labels == ["A", "Bob"], labels


ACTIVITY = """@startuml
|Shop|
start
partition Billing {
if (paid?) then (yes)
  while (more?)
    :Pack
    item;
  endwhile
else (no)
  fork
    :A;
  fork again
    :B;
  end merge
endif
}
|Courier|
:Ship;
stop
@enduml
"""

ACTIVITY_URI = "file:///tmp/puml-lsp-blackbox/activity.puml"


async def test_activity_folding_symbols_completion_and_hover(client: LanguageClient):
    await open_document(client, ACTIVITY, ACTIVITY_URI)
    folds = await client.text_document_folding_range_async(t.FoldingRangeParams(text_document=doc(ACTIVITY_URI)))
    assert sorted((f.start_line, f.end_line) for f in folds) == [(3, 16), (4, 15), (5, 8), (6, 7), (10, 14)]
    symbols = await client.text_document_document_symbol_async(
        t.DocumentSymbolParams(text_document=doc(ACTIVITY_URI))
    )
    assert [s.name for s in symbols] == ["Shop", "partition Billing", "Courier"]
    partition = symbols[1]
    assert (partition.range.start.line, partition.range.end.line) == (3, 16)
    assert [c.name for c in partition.children] == ["if (paid?)"]
    assert [c.name for c in partition.children[0].children] == ["while (more?)", "fork"]
    found = await client.workspace_symbol_async(t.WorkspaceSymbolParams(query="more?"))
    assert [(s.name, s.location.range.start.line) for s in found] == [("while (more?)", 5)], found
    hover = await client.text_document_hover_async(
        t.HoverParams(text_document=doc(ACTIVITY_URI), position=t.Position(8, 3))
    )
    assert "Closed by `endwhile`" in hover.contents.value, hover.contents.value
    assert "Closes the `while` (more?) of line 6." in hover.contents.value, hover.contents.value
    # Inside the `while` (still open after this edit removes its closer):
    # `endwhile` first, and no sequence keywords.
    change(client, 2, (8, 0), (9, 0), "  \n", ACTIVITY_URI)
    await diagnostics(client, ACTIVITY_URI)
    completion = await client.text_document_completion_async(
        t.CompletionParams(text_document=doc(ACTIVITY_URI), position=t.Position(8, 2))
    )
    labels = [item.label for item in (completion.items if hasattr(completion, "items") else completion)]
    assert labels[:2] == ["endwhile", "break"], labels
    assert "participant" not in labels and "alt" not in labels, labels
    # Lane names after `|`.
    change(client, 3, (8, 0), (8, 2), "|", ACTIVITY_URI)
    await diagnostics(client, ACTIVITY_URI)
    completion = await client.text_document_completion_async(
        t.CompletionParams(text_document=doc(ACTIVITY_URI), position=t.Position(8, 1))
    )
    labels = [item.label for item in (completion.items if hasattr(completion, "items") else completion)]
    assert labels == ["Shop", "Courier"], labels


async def test_render_and_model_requests(client: LanguageClient):
    await open_document(client, GOOD)
    result = await client.protocol.send_request_async(
        "puml/render", {"textDocument": {"uri": URI}, "format": "svg", "page": 0}
    )
    assert result.format == "svg" and result.pageCount == 1 and result.version == 1
    assert result.data.startswith("<svg") or "<svg" in result.data[:200]
    assert "héllo" in result.data and result.width > 0 and result.errors == 0
    png = await client.protocol.send_request_async(
        "puml/render", {"textDocument": {"uri": URI}, "format": "png"}
    )
    assert png.data.startswith("iVBORw0KGgo")  # base64 of the PNG signature
    model = await client.protocol.send_request_async("puml/model", {"textDocument": {"uri": URI}})
    assert "diagrams" in repr(model)
    change(client, 2, (3, 8), (3, 10), "")  # removes " :" -> an error
    await diagnostics(client)
    with pytest.raises(Exception) as failure:
        await client.protocol.send_request_async("puml/render", {"textDocument": {"uri": URI}})
    assert "-32803" in repr(failure.value) or "line 4" in str(failure.value)


async def test_render_a_region_of_a_long_page(client: LanguageClient):
    lines = ["@startuml", "participant A", "participant B"]
    lines += [f"A -> B : message {i}" for i in range(400)]
    await open_document(client, "\n".join(lines + ["@enduml", ""]))
    whole = await client.protocol.send_request_async("puml/render", {"textDocument": {"uri": URI}})
    assert not hasattr(whole, "region"), "no region asked, none answered: the answer is unchanged"
    middle = int(whole.height // 2)
    region = {"x": 0, "y": middle, "width": whole.width, "height": 600}
    part = await client.protocol.send_request_async(
        "puml/render", {"textDocument": {"uri": URI}, "format": "svg", "region": region}
    )
    # The whole page's size, the region drawn, and only what lies in it.
    assert (part.width, part.height) == (whole.width, whole.height)
    assert part.region.y == region["y"] and part.region.height == 600
    assert f'viewBox="0 {middle} ' in part.data
    drawn = [int(n) for n in re.findall(r">message (\d+)<", part.data)]
    assert drawn and all(180 <= n <= 240 for n in drawn), drawn
    assert len(part.data) * 10 < len(whole.data)
    # Clamped to the page; refused when off the page, empty, or not SVG.
    clamped = await client.protocol.send_request_async(
        "puml/render", {"textDocument": {"uri": URI}, "region": {"x": -10, "y": -1e300, "width": 1e308, "height": 1e308}}
    )
    assert (clamped.region.x, clamped.region.y) == (0, 0) and clamped.region.height == whole.height
    for bad in [
        {"region": {"x": 0, "y": whole.height + 10, "width": 10, "height": 10}},
        {"region": {"x": 0, "y": 0, "width": 0, "height": 10}},
        {"region": {"x": 0, "y": 0, "width": "wide", "height": 10}},
        {"format": "png", "region": {"x": 0, "y": 0, "width": 10, "height": 10}},
    ]:
        with pytest.raises(Exception) as failure:
            await client.protocol.send_request_async("puml/render", {"textDocument": {"uri": URI}, **bad})
        assert "-32602" in repr(failure.value) or "region" in str(failure.value) or "invalid" in str(failure.value).lower()


async def test_bad_requests_are_errors_and_the_server_survives(client: LanguageClient):
    await open_document(client, GOOD)
    with pytest.raises(Exception):
        await client.protocol.send_request_async("puml/render", {"nonsense": True})
    with pytest.raises(Exception):
        await client.protocol.send_request_async("puml/unknownMethod", {})
    with pytest.raises(Exception):
        await client.protocol.send_request_async(
            "puml/render", {"textDocument": {"uri": "file:///not/open.puml"}}
        )
    # An edit that overtakes a render: the render answers or is cancelled
    # with ContentModified; either way the server answers the next request.
    pending = client.protocol.send_request_async("puml/render", {"textDocument": {"uri": URI}})
    change(client, 2, (3, 11), (3, 11), "x")
    try:
        await pending
    except Exception as error:  # noqa: BLE001
        assert "-32801" in repr(error) or "changed" in str(error)
    hover = await client.text_document_hover_async(t.HoverParams(text_document=doc(), position=t.Position(2, 13)))
    assert "Bob" in hover.contents.value


async def test_rename_tokens_links_and_hints(client: LanguageClient):
    text = "@startuml\nautonumber 10\n!include parts.iuml\nparticipant Bob\nAlice -> Bob : one\nBob --> Alice : two\n@enduml\n"
    uri = "file:///tmp/puml-lsp-blackbox/more.puml"
    await open_document(client, text, uri)
    prepared = await client.text_document_prepare_rename_async(
        t.PrepareRenameParams(text_document=doc(uri), position=t.Position(4, 10))
    )
    assert prepared.placeholder == "Bob"
    renamed = await client.text_document_rename_async(
        t.RenameParams(text_document=doc(uri), position=t.Position(4, 10), new_name="Robert")
    )
    after = apply_edits(text, renamed.changes[uri])
    assert after.count("Robert") == 3 and "Bob" not in after, after
    full = await client.text_document_semantic_tokens_full_async(t.SemanticTokensParams(text_document=doc(uri)))
    assert len(full.data) % 5 == 0 and len(full.data) >= 5 * 10
    change(client, 2, (4, 15), (4, 15), "x", uri)
    await diagnostics(client, uri)
    delta = await client.text_document_semantic_tokens_full_delta_async(
        t.SemanticTokensDeltaParams(text_document=doc(uri), previous_result_id=full.result_id)
    )
    assert hasattr(delta, "edits"), delta
    links = await client.text_document_document_link_async(t.DocumentLinkParams(text_document=doc(uri)))
    assert [link.target for link in links] == ["file:///tmp/puml-lsp-blackbox/parts.iuml"]
    hints = await client.text_document_inlay_hint_async(
        t.InlayHintParams(
            text_document=doc(uri), range=t.Range(start=t.Position(0, 0), end=t.Position(7, 0))
        )
    )
    assert [(h.position.line, h.label.strip()) for h in hints] == [(4, "10"), (5, "11")]
    selection = await client.text_document_selection_range_async(
        t.SelectionRangeParams(text_document=doc(uri), positions=[t.Position(4, 1)])
    )
    assert selection[0].range.start.character == 0 and selection[0].parent is not None
    symbols = await client.workspace_symbol_async(t.WorkspaceSymbolParams(query="bo"))
    assert [s.name for s in symbols] == ["Bob"]
    typed = await client.text_document_on_type_formatting_async(
        t.DocumentOnTypeFormattingParams(
            text_document=doc(uri),
            position=t.Position(1, 0),
            ch="\n",
            options=t.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    assert typed is not None


async def test_navigation_and_rename_reach_included_files(client: LanguageClient):
    folder = pathlib.Path("/tmp/puml-lsp-blackbox")
    folder.mkdir(parents=True, exist_ok=True)
    included = "actor Client\nparticipant Server\nClient -> Server : hello\n"
    (folder / "people.iuml").write_text(included, encoding="utf-8")
    people = (folder / "people.iuml").as_uri()
    text = "@startuml\n!include people.iuml\nClient -> Server : request\n@enduml\n"
    uri = "file:///tmp/puml-lsp-blackbox/uses-include.puml"
    await open_document(client, text, uri)
    definition = await client.text_document_definition_async(
        t.DefinitionParams(text_document=doc(uri), position=t.Position(2, 2))
    )
    assert definition.uri == people and definition.range.start == t.Position(0, 6), definition
    references = await client.text_document_references_async(
        t.ReferenceParams(
            text_document=doc(uri), position=t.Position(2, 2), context=t.ReferenceContext(include_declaration=True)
        )
    )
    assert sorted((r.uri, r.range.start.line, r.range.start.character) for r in references) == sorted(
        [(uri, 2, 0), (people, 0, 6), (people, 2, 0)]
    ), references
    renamed = await client.text_document_rename_async(
        t.RenameParams(text_document=doc(uri), position=t.Position(2, 2), new_name="Customer")
    )
    assert set(renamed.changes) == {uri, people}, renamed
    assert apply_edits(text, renamed.changes[uri]) == text.replace("Client", "Customer")
    assert apply_edits(included, renamed.changes[people]) == included.replace("Client", "Customer")

    # A procedure the included file defines: definition there, rename in both files.
    macros_text = "!procedure $hello($to)\nAlice -> $to : hi\n!endprocedure\n"
    (folder / "macros.iuml").write_text(macros_text, encoding="utf-8")
    macros = (folder / "macros.iuml").as_uri()
    text = "@startuml\n!include macros.iuml\n$hello(\"Bob\")\n@enduml\n"
    uri = "file:///tmp/puml-lsp-blackbox/uses-procedure.puml"
    await open_document(client, text, uri)
    definition = await client.text_document_definition_async(
        t.DefinitionParams(text_document=doc(uri), position=t.Position(2, 2))
    )
    assert definition.uri == macros and definition.range.start == t.Position(0, 11), definition
    renamed = await client.text_document_rename_async(
        t.RenameParams(text_document=doc(uri), position=t.Position(2, 2), new_name="wave")
    )
    assert set(renamed.changes) == {uri, macros}, renamed
    assert apply_edits(text, renamed.changes[uri]) == text.replace("$hello", "$wave")
    assert apply_edits(macros_text, renamed.changes[macros]) == macros_text.replace("$hello", "$wave")


async def test_rename_started_inside_an_included_file(client: LanguageClient):
    # The cursor is in the included file; the diagram that includes it is
    # not open: the server finds it under the workspace folder.
    folder = pathlib.Path("/tmp/puml-lsp-blackbox/crew")
    folder.mkdir(parents=True, exist_ok=True)
    crew_text = "actor Pilot\nparticipant Tower\nPilot -> Tower : hello\n"
    (folder / "crew.iuml").write_text(crew_text, encoding="utf-8")
    flight_text = "@startuml\n!include crew.iuml\nPilot -> Tower : takeoff\nnote over Pilot : Pilot speaks\n@enduml\n"
    (folder / "flight.puml").write_text(flight_text, encoding="utf-8")
    (folder / "other.puml").write_text("@startuml\nPilot -> Tower : unrelated\n@enduml\n", encoding="utf-8")
    crew = (folder / "crew.iuml").as_uri()
    flight = (folder / "flight.puml").as_uri()
    send_open(client, crew_text, crew)
    prepared = await client.text_document_prepare_rename_async(
        t.PrepareRenameParams(text_document=doc(crew), position=t.Position(0, 8))
    )
    assert prepared.placeholder == "Pilot" and prepared.range.start == t.Position(0, 6), prepared
    references = await client.text_document_references_async(
        t.ReferenceParams(
            text_document=doc(crew), position=t.Position(0, 8), context=t.ReferenceContext(include_declaration=True)
        )
    )
    assert sorted((r.uri, r.range.start.line, r.range.start.character) for r in references) == sorted(
        [(crew, 0, 6), (crew, 2, 0), (flight, 2, 0), (flight, 3, 10)]
    ), references
    renamed = await client.text_document_rename_async(
        t.RenameParams(text_document=doc(crew), position=t.Position(0, 8), new_name="Captain")
    )
    assert set(renamed.changes) == {crew, flight}, renamed
    assert apply_edits(crew_text, renamed.changes[crew]) == crew_text.replace("Pilot", "Captain")
    assert apply_edits(flight_text, renamed.changes[flight]) == flight_text.replace(
        "Pilot -> ", "Captain -> "
    ).replace("over Pilot", "over Captain")


async def test_rename_of_a_procedure_started_inside_its_library(client: LanguageClient):
    # The cursor is on a procedure (then a variable) the included file
    # defines; the diagram that calls it is found under the workspace
    # folder. A diagram with its own `$greet` and a note's words stay.
    folder = pathlib.Path("/tmp/puml-lsp-blackbox/library")
    folder.mkdir(parents=True, exist_ok=True)
    lib_text = '!procedure $greet($who)\nAlice -> $who : hello\n!endprocedure\n!$answer = "fine"\n'
    (folder / "lib.iuml").write_text(lib_text, encoding="utf-8")
    user_text = (
        '@startuml\n!include lib.iuml\n$greet("Bob")\nBob --> Alice : $answer\n'
        "note over Alice : greet stays a word\n@enduml\n"
    )
    (folder / "user.puml").write_text(user_text, encoding="utf-8")
    (folder / "other.puml").write_text(
        '@startuml\n!procedure $greet($who)\n$who -> Bob : own\n!endprocedure\n$greet("Eve")\n@enduml\n',
        encoding="utf-8",
    )
    lib = (folder / "lib.iuml").as_uri()
    user = (folder / "user.puml").as_uri()
    send_open(client, lib_text, lib)
    prepared = await client.text_document_prepare_rename_async(
        t.PrepareRenameParams(text_document=doc(lib), position=t.Position(0, 13))
    )
    assert prepared.placeholder == "$greet" and prepared.range.start == t.Position(0, 11), prepared
    renamed = await client.text_document_rename_async(
        t.RenameParams(text_document=doc(lib), position=t.Position(0, 13), new_name="wave")
    )
    assert set(renamed.changes) == {lib, user}, renamed
    assert apply_edits(lib_text, renamed.changes[lib]) == lib_text.replace("$greet", "$wave")
    assert apply_edits(user_text, renamed.changes[user]) == user_text.replace("$greet", "$wave")
    references = await client.text_document_references_async(
        t.ReferenceParams(
            text_document=doc(lib), position=t.Position(3, 3), context=t.ReferenceContext(include_declaration=True)
        )
    )
    assert sorted((r.uri, r.range.start.line, r.range.start.character) for r in references) == sorted(
        [(lib, 3, 1), (user, 3, 16)]
    ), references
    renamed = await client.text_document_rename_async(
        t.RenameParams(text_document=doc(lib), position=t.Position(3, 3), new_name="$reply")
    )
    assert set(renamed.changes) == {lib, user}, renamed
    assert apply_edits(user_text, renamed.changes[user]) == user_text.replace("$answer", "$reply")
    # An edit of the library moves its names: the next search sees it
    # (the server reuses a search only until a document changes).
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=lib, version=2),
            content_changes=[
                t.TextDocumentContentChangePartial(
                    range=t.Range(start=t.Position(0, 0), end=t.Position(0, 0)), text="' greetings\n"
                )
            ],
        )
    )
    references = await client.text_document_references_async(
        t.ReferenceParams(
            text_document=doc(lib), position=t.Position(4, 3), context=t.ReferenceContext(include_declaration=True)
        )
    )
    assert sorted((r.uri, r.range.start.line, r.range.start.character) for r in references) == sorted(
        [(lib, 4, 1), (user, 3, 16)]
    ), references


async def test_refactors(client: LanguageClient):
    uri = "file:///tmp/puml-lsp-blackbox/refactor.puml"
    text = "@startuml\nAlice -> Bob : hi\nBob -> Alice : ok\n@enduml\n"
    await open_document(client, text, uri)
    actions = await client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=doc(uri),
            range=t.Range(start=t.Position(1, 0), end=t.Position(3, 0)),
            context=t.CodeActionContext(diagnostics=[], only=[t.CodeActionKind.Refactor]),
        )
    )
    titles = {a.title: a for a in actions}
    declare = titles["Declare 2 implicit participant(s)"]
    assert apply_edits(text, declare.edit.changes[uri]).count("participant ") == 2
    wrapped = apply_edits(text, titles["Wrap the selected statements in a group"].edit.changes[uri])
    assert "group group\n" in wrapped and "\nend\n" in wrapped, wrapped
    mermaid = "sequenceDiagram\n    Alice->>Bob: hi\n"
    muri = "file:///tmp/puml-lsp-blackbox/mermaid.puml"
    await open_document(client, mermaid, muri)
    actions = await client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=doc(muri),
            range=t.Range(start=t.Position(0, 0), end=t.Position(2, 0)),
            context=t.CodeActionContext(diagnostics=[], only=[t.CodeActionKind.RefactorRewrite]),
        )
    )
    convert = [a for a in actions if a.title == "Convert the Mermaid diagram to PlantUML"]
    converted = apply_edits(mermaid, convert[0].edit.changes[muri])
    assert converted.startswith("@startuml") and "Alice -> Bob : hi" in converted, converted
    normalize = await client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=doc(uri),
            range=t.Range(start=t.Position(0, 0), end=t.Position(0, 0)),
            context=t.CodeActionContext(diagnostics=[], only=["source.normalize.puml"]),
        )
    )
    assert [a.kind for a in normalize] == ["source.normalize.puml"]


RENAME_UTF16 = """@startuml
participant API
"😀 é́" -> API : hi API
API --> "😀 é́" : ok
activate API
note over API : n
@enduml
"""


async def test_rename_is_one_precise_edit_per_occurrence(client: LanguageClient):
    uri = "file:///tmp/puml-lsp-blackbox/rename-utf16.puml"
    text = RENAME_UTF16
    await open_document(client, text, uri)
    # After an emoji (2 UTF-16 units) and a combining accent (1 unit of its own).
    line = text.split("\n")[2]
    column = len(line[: line.index("API")].encode("utf-16-le")) // 2
    assert column == 11
    prepared = await client.text_document_prepare_rename_async(
        t.PrepareRenameParams(text_document=doc(uri), position=t.Position(2, column + 1))
    )
    assert prepared.placeholder == "API" and prepared.range.start == t.Position(2, column), prepared
    renamed = await client.text_document_rename_async(
        t.RenameParams(text_document=doc(uri), position=t.Position(2, column + 1), new_name="Gateway")
    )
    edits = renamed.changes[uri]
    # Five occurrences (the label's word `API` is text, not the participant).
    assert len(edits) == 5, edits
    assert all(covered(text, e.range) == "API" and e.new_text == "Gateway" for e in edits), edits
    starts = sorted((e.range.start.line, e.range.start.character, e.range.end.character) for e in edits)
    assert starts == [(1, 12, 15), (2, column, column + 3), (3, 0, 3), (4, 9, 12), (5, 10, 13)], starts
    expected = text.replace("participant API", "participant Gateway").replace("-> API", "-> Gateway")
    expected = expected.replace("API -->", "Gateway -->").replace("activate API", "activate Gateway")
    expected = expected.replace("over API", "over Gateway")
    assert apply_edits(text, edits) == expected


FIXABLE = """@startuml
participant "Ünï 😀é́" as U
participant API
U -> API hello
autonumbr
rect rgb(200, 220, 255)
API -> U : in rect
end
participant "half as H
U -> API : last
activate
@enduml
"""


async def test_every_quick_fix_is_precise(client: LanguageClient):
    uri = "file:///tmp/puml-lsp-blackbox/fixable.puml"
    text = FIXABLE
    found = await open_document(client, text, uri)
    assert sorted(d.code for d in found) == ["E0101", "E0103", "E0104", "E0107", "E0111"], found
    for diagnostic in found:
        actions = await client.text_document_code_action_async(
            t.CodeActionParams(
                text_document=doc(uri),
                range=diagnostic.range,
                context=t.CodeActionContext(diagnostics=[diagnostic], only=[t.CodeActionKind.QuickFix]),
            )
        )
        fixes = [a for a in actions if a.diagnostics and a.diagnostics[0].code == diagnostic.code]
        assert fixes, diagnostic
        for fix in fixes:
            edits = fix.edit.changes[uri]
            assert_precise(text, edits)
            # Only the diagnostic's line is touched.
            assert {e.range.start.line for e in edits} | {e.range.end.line for e in edits} == {
                diagnostic.range.start.line
            }, (diagnostic.code, edits)
    by_code = {d.code: d for d in found}
    colon = await client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=doc(uri),
            range=by_code["E0103"].range,
            context=t.CodeActionContext(diagnostics=[by_code["E0103"]], only=[t.CodeActionKind.QuickFix]),
        )
    )
    [edit] = colon[0].edit.changes[uri]
    assert covered(text, edit.range) == "" and ":" in edit.new_text, edit
    typo = await client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=doc(uri),
            range=by_code["E0104"].range,
            context=t.CodeActionContext(diagnostics=[by_code["E0104"]], only=[t.CodeActionKind.QuickFix]),
        )
    )
    [edit] = typo[0].edit.changes[uri]
    assert (covered(text, edit.range), edit.new_text) == ("autonumbr", "autonumber")
    fix_all = await client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=doc(uri),
            range=t.Range(start=t.Position(0, 0), end=t.Position(0, 0)),
            context=t.CodeActionContext(diagnostics=[], only=["source.fixAll.puml"]),
        )
    )
    if fix_all:
        assert_precise(text, fix_all[0].edit.changes[uri])


async def test_formatting_sends_only_the_changed_indentation(client: LanguageClient):
    uri = "file:///tmp/puml-lsp-blackbox/fmt-precise.puml"
    text = "@startuml\nalt x\nA -> B : one\nB -> A : two\nend\n@enduml\n"
    await open_document(client, text, uri)
    edits = await client.text_document_formatting_async(
        t.DocumentFormattingParams(text_document=doc(uri), options=t.FormattingOptions(tab_size=2, insert_spaces=True))
    )
    assert sorted((e.range.start.line, e.range.start.character, covered(text, e.range), e.new_text) for e in edits) == [
        (2, 0, "", "  "),
        (3, 0, "", "  "),
    ], edits


async def test_completion_at_a_line_start_offers_participants_first(client: LanguageClient):
    uri = "file:///tmp/puml-lsp-blackbox/complete-start.puml"
    text = GOOD.replace("@enduml", "\n@enduml")
    await open_document(client, text, uri)
    line = text.split("\n").index("")
    completion = await client.text_document_completion_async(
        t.CompletionParams(text_document=doc(uri), position=t.Position(line, 0))
    )
    items = completion.items if hasattr(completion, "items") else completion
    ranked = [i.label for i in sorted(items, key=lambda i: i.sort_text or i.label)]
    # The participants (by alias where there is one) lead, keywords follow.
    assert ranked[:2] == ["A", "Bob"], ranked
    assert "participant" in ranked and "alt" in ranked, ranked
    # After a participant and a space: the arrows.
    change(client, 2, (line, 0), (line, 0), "Bob ", uri)
    await diagnostics(client, uri)
    completion = await client.text_document_completion_async(
        t.CompletionParams(text_document=doc(uri), position=t.Position(line, 4))
    )
    items = completion.items if hasattr(completion, "items") else completion
    assert [i.label for i in sorted(items, key=lambda i: i.sort_text or i.label)][:2] == ["->", "-->"]


async def test_preprocessor_navigation_and_skinparams(client: LanguageClient):
    uri = "file:///tmp/puml-lsp-blackbox/pre.puml"
    text = "@startuml\n!procedure $call($from, $to)\n$from -> $to : call\n!endprocedure\nskinparam Shadowing false\n$call(A, B)\n@enduml\n"
    await open_document(client, text, uri)
    signature = await client.text_document_signature_help_async(
        t.SignatureHelpParams(text_document=doc(uri), position=t.Position(5, 9))
    )
    assert signature.signatures[0].label == "$call($from, $to)" and signature.active_parameter == 1
    definition = await client.text_document_definition_async(
        t.DefinitionParams(text_document=doc(uri), position=t.Position(5, 2))
    )
    assert definition.range.start.line == 1
    completion = await client.text_document_completion_async(
        t.CompletionParams(text_document=doc(uri), position=t.Position(4, 12))
    )
    labels = [item.label for item in (completion.items if hasattr(completion, "items") else completion)]
    assert "ArrowColor" in labels, labels
    hover = await client.text_document_hover_async(t.HoverParams(text_document=doc(uri), position=t.Position(4, 12)))
    assert "true" in hover.contents.value
    # `$variables` and procedures: references, highlight and rename, comments left alone.
    uri = "file:///tmp/puml-lsp-blackbox/vars.puml"
    text = "@startuml\n!$who = \"Bob\"\n' $who in a comment\nAlice -> $who : hi $whom\n$who -> Alice : ok\n@enduml\n"
    await open_document(client, text, uri)
    references = await client.text_document_references_async(
        t.ReferenceParams(
            text_document=doc(uri), position=t.Position(3, 10), context=t.ReferenceContext(include_declaration=True)
        )
    )
    assert sorted(r.range.start.line for r in references) == [1, 3, 4], references
    highlights = await client.text_document_document_highlight_async(
        t.DocumentHighlightParams(text_document=doc(uri), position=t.Position(4, 1))
    )
    assert len(highlights) == 3
    prepared = await client.text_document_prepare_rename_async(
        t.PrepareRenameParams(text_document=doc(uri), position=t.Position(4, 2))
    )
    assert prepared.placeholder == "$who"
    renamed = await client.text_document_rename_async(
        t.RenameParams(text_document=doc(uri), position=t.Position(4, 2), new_name="$callee")
    )
    after = apply_edits(text, renamed.changes[uri])
    assert after.count("$callee") == 3 and "' $who in a comment" in after and "$whom" in after, after
    with pytest.raises(Exception):
        await client.text_document_rename_async(
            t.RenameParams(text_document=doc(uri), position=t.Position(4, 2), new_name="$9 bad")
        )


def rss_kib(pid: int) -> int:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def test_soak_many_edits_memory_stays_flat(client: LanguageClient):
    edits = int(os.environ.get("PUML_LSP_SOAK", "10000"))
    uri = "file:///tmp/puml-lsp-blackbox/soak.puml"
    await open_document(client, GOOD, uri)
    pid = client._server.pid  # the server subprocess
    warm = 0
    before = 0
    for i in range(edits):
        # Type a character into the label, then delete it again.
        if i % 2 == 0:
            change(client, i + 2, (3, 11), (3, 11), "é", uri)
        else:
            change(client, i + 2, (3, 11), (3, 12), "", uri)
        if i % 50 == 0:
            await client.text_document_hover_async(t.HoverParams(text_document=doc(uri), position=t.Position(3, 0)))
        if i == min(1000, edits // 10):
            warm = i
            before = rss_kib(pid)
    await client.text_document_hover_async(t.HoverParams(text_document=doc(uri), position=t.Position(3, 0)))
    await asyncio.sleep(0.5)
    after = rss_kib(pid)
    print(f"\nsoak: {edits} edits + {edits // 50} hovers; RSS after {warm} edits {before} KiB, at the end {after} KiB")
    assert after < before * 1.5 + 8192, (before, after)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v", "-s"]))


CLASSES = """@startuml
package shop {
  class Order {
    +total() : int
  }
}
class Customer
Customer "1" --> "*" shop.Order : places >
note right of Customer : pays
Customer : +name : String
@enduml
"""


async def test_class_hover_definition_and_rename(client: LanguageClient):
    uri = "file:///tmp/puml-lsp-blackbox/classes.puml"
    text = CLASSES
    await open_document(client, text, uri)
    lines = text.split("\n")
    link = 7
    assert lines[link].startswith("Customer ")
    hover = await client.text_document_hover_async(
        t.HoverParams(text_document=doc(uri), position=t.Position(link, 2))
    )
    value = hover.contents.value
    assert "**class** `Customer`" in value and "`+name : String`" in value, value
    assert "Relations out (1): `shop.Order`" in value, value
    order_column = lines[link].index("shop.Order") + len("shop.")
    definition = await client.text_document_definition_async(
        t.DefinitionParams(text_document=doc(uri), position=t.Position(link, order_column + 1))
    )
    assert definition.range.start == t.Position(2, 8), definition
    references = await client.text_document_references_async(
        t.ReferenceParams(
            text_document=doc(uri),
            position=t.Position(link, 2),
            context=t.ReferenceContext(include_declaration=True),
        )
    )
    # Declaration, link, note, one-line member.
    assert sorted(r.range.start.line for r in references) == [6, 7, 8, 9], references
    renamed = await client.text_document_rename_async(
        t.RenameParams(text_document=doc(uri), position=t.Position(link, order_column + 1), new_name="Purchase")
    )
    edits = renamed.changes[uri]
    # One edit per occurrence, covering the last part of the name alone.
    assert len(edits) == 2 and all(covered(text, e.range) == "Order" for e in edits), edits
    assert apply_edits(text, edits) == text.replace("Order", "Purchase")


async def test_class_completion_names_arrows_names(client: LanguageClient):
    uri = "file:///tmp/puml-lsp-blackbox/class-completion.puml"
    text = "@startuml\nclass Car\ninterface Engine\nCar \nCar *-- \n\n@enduml\n"
    await open_document(client, text, uri)

    async def labels(line: int, character: int):
        found = await client.text_document_completion_async(
            t.CompletionParams(text_document=doc(uri), position=t.Position(line, character))
        )
        items = found.items if hasattr(found, "items") else found
        return [i.label for i in items]

    at_start = await labels(5, 0)
    assert "Car" in at_start and "Engine" in at_start and "interface" in at_start, at_start
    assert await labels(3, 4) == ["<|--", "*--", "o--", "-->", "..>", "..|>", "--"]
    assert await labels(4, 8) == ["Car", "Engine"]


async def test_class_outline_folding_and_semantic_tokens(client: LanguageClient):
    uri = "file:///tmp/puml-lsp-blackbox/class-outline.puml"
    text = (
        "@startuml\npackage shop {\n  interface Shape {\n    + area() : double\n  }\n"
        "  enum Color {\n    RED\n  }\n}\nclass Circle\nnote top of Circle\n  two\n  lines\nend note\n@enduml\n"
    )
    await open_document(client, text, uri)
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc(uri)))
    assert [(s.name, s.kind) for s in symbols] == [("shop", t.SymbolKind.Package), ("Circle", t.SymbolKind.Class)]
    shop = symbols[0]
    assert [(c.name, c.kind) for c in shop.children] == [
        ("Shape", t.SymbolKind.Interface),
        ("Color", t.SymbolKind.Enum),
    ]
    assert [(m.name, m.kind) for m in shop.children[0].children] == [("area() : double", t.SymbolKind.Method)]
    assert [(m.name, m.kind) for m in shop.children[1].children] == [("RED", t.SymbolKind.EnumMember)]
    assert shop.range.start.line == 1 and shop.range.end.line == 8, shop.range
    folds = await client.text_document_folding_range_async(t.FoldingRangeParams(text_document=doc(uri)))
    spans = sorted((f.start_line, f.end_line) for f in folds)
    assert spans == [(1, 8), (2, 4), (5, 7), (10, 13)], spans
    # Semantic tokens: decode the legend's types of the tokens on line 3
    # (`    + area() : double`): the visibility, then the method.
    legend = client.puml_token_types
    tokens = await client.text_document_semantic_tokens_full_async(t.SemanticTokensParams(text_document=doc(uri)))
    data, line, column, found = tokens.data, 0, 0, []
    for i in range(0, len(data), 5):
        delta_line, delta_start, length, kind = data[i : i + 4]
        line += delta_line
        column = delta_start if delta_line else column + delta_start
        found.append((line, column, length, legend[kind]))
    assert [(c, n, k) for (l, c, n, k) in found if l == 3] == [(4, 1, "modifier"), (6, 15, "method")], found
    assert (2, 12, 5, "class") in found and (1, 8, 4, "namespace") in found, found


DESCRIPTION = """@startuml
left to right direction
actor :Customer: as Cu
rectangle Bank <<system>> {
  usecase (Withdraw cash) as W
  [ATM] <<device>>
}
Cu --> W
W ..> [ATM] : uses
note right of Cu
  a regular
end note
@enduml
"""


async def test_description_outline_hover_references_and_rename(client: LanguageClient):
    uri = "file:///tmp/puml-lsp-blackbox/description.puml"
    text = DESCRIPTION
    await open_document(client, text, uri)
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc(uri)))
    assert [(s.name, s.kind, s.detail) for s in symbols] == [
        ("Cu", t.SymbolKind.Object, "actor"),
        ("Bank", t.SymbolKind.Package, "rectangle <<system>>"),
    ], symbols
    assert [(c.name, c.kind) for c in symbols[1].children] == [
        ("W", t.SymbolKind.Event),
        ("ATM", t.SymbolKind.Module),
    ]
    folds = await client.text_document_folding_range_async(t.FoldingRangeParams(text_document=doc(uri)))
    spans = sorted((f.start_line, f.end_line) for f in folds)
    assert spans == [(3, 6), (9, 11)], spans
    lines = text.split("\n")
    link = 8
    atm = lines[link].index("ATM")
    hover = await client.text_document_hover_async(
        t.HoverParams(text_document=doc(uri), position=t.Position(link, atm + 1))
    )
    value = hover.contents.value
    assert value.startswith("**component** `Bank.ATM` `<<device>>`"), value
    assert "In `Bank`." in value and "Links in (1): `Bank.W`" in value, value
    # `:Customer: as Cu` declared, `Cu` in a link and in a note: one actor.
    definition = await client.text_document_definition_async(
        t.DefinitionParams(text_document=doc(uri), position=t.Position(9, 15))
    )
    assert definition.range.start == t.Position(2, 20), definition
    references = await client.text_document_references_async(
        t.ReferenceParams(
            text_document=doc(uri),
            position=t.Position(7, 0),
            context=t.ReferenceContext(include_declaration=True),
        )
    )
    assert sorted(r.range.start.line for r in references) == [2, 7, 9], references
    renamed = await client.text_document_rename_async(
        t.RenameParams(text_document=doc(uri), position=t.Position(link, atm + 1), new_name="Kiosk")
    )
    edits = renamed.changes[uri]
    # The name alone, inside its brackets, each place it is written.
    assert len(edits) == 2 and all(covered(text, e.range) == "ATM" for e in edits), edits
    assert apply_edits(text, edits) == text.replace("[ATM]", "[Kiosk]")


async def test_description_completion_names_keywords_arrows(client: LanguageClient):
    text = "@startuml\nactor User\nrectangle Shop {\n  (Buy) as B\n}\n{}\n@enduml\n"

    async def labels(typed: str, name: str):
        # Each case in its own document: `typed` on line 5, cursor at its end.
        uri = f"file:///tmp/puml-lsp-blackbox/description-completion-{name}.puml"
        await open_document(client, text.replace("{}", typed), uri)
        found = await client.text_document_completion_async(
            t.CompletionParams(text_document=doc(uri), position=t.Position(5, len(typed)))
        )
        items = found.items if hasattr(found, "items") else found
        return [i.label for i in items]

    # The half-written link stops the block from reading as a use case
    # diagram: the server completes as if the line were not there.
    assert await labels("User --> ", "after-arrow") == ["User", "B"]
    arrows = await labels("User ", "arrows")
    assert arrows[:3] == ["-->", "->", "..>"] and "-up->" in arrows, arrows
    at_start = await labels("", "start")
    assert at_start[:4] == ["User", "B", "actor", "usecase"], at_start
    assert "class" not in at_start, at_start


async def test_legacy_activity_completion_names_arrows_keywords(client: LanguageClient):
    text = '@startuml\n(*) --> "First"\n"First" --> ===B1===\n===B1=== --> "Long text" as L\n{}\n@enduml\n'

    async def labels(typed: str, name: str):
        # Each case in its own document: `typed` on line 4, cursor at its end.
        uri = f"file:///tmp/puml-lsp-blackbox/legacy-completion-{name}.puml"
        await open_document(client, text.replace("{}", typed), uri)
        found = await client.text_document_completion_async(
            t.CompletionParams(text_document=doc(uri), position=t.Position(4, len(typed)))
        )
        items = found.items if hasattr(found, "items") else found
        return [i.label for i in items]

    # The half-written link stops the block from reading as a legacy
    # activity diagram: the server completes as if the line were not there.
    assert await labels("L --> ", "after-arrow") == ["First", "===B1===", "L", "(*)"]
    arrows = await labels("L ", "arrows")
    assert arrows[:3] == ["-->", "->", "..>"] and "-up->" in arrows, arrows
    at_start = await labels("", "start")
    assert at_start[:4] == ["First", "===B1===", "L", "(*)"], at_start
    assert {"if", "else", "endif", "partition", "note"} <= set(at_start), at_start
