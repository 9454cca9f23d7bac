"""Black-box tests of puml as a drop-in for PlantUML, driven by the clients
people use (none written here): Sphinx with sphinxcontrib-plantuml and
Python-Markdown with plantuml-markdown pointed at `puml-plantuml`;
plantuml-markdown in server mode and the `plantuml` PyPI client against
`puml serve`; Asciidoctor.js with asciidoctor-kroki (see the Node script
beside this file). Binaries: $PUML_BIN_DIR (release builds)."""

import os
import re
import subprocess
import sys
import textwrap

import pytest

BIN = os.environ["PUML_BIN_DIR"]
PLANTUML = os.path.join(BIN, "puml-plantuml")
PUML = os.path.join(BIN, "puml")
HERE = os.path.dirname(os.path.abspath(__file__))

SEQUENCE = "@startuml\nAlice -> Bob : hello from sphinx\nBob --> Alice : ok\n@enduml\n"
BROKEN = "@startuml\nAlice -> Bob : hi\nthis is not a statement\n@enduml\n"


@pytest.fixture(scope="module")
def server():
    process = subprocess.Popen(
        [PUML, "serve", "--listen", "127.0.0.1:0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stderr.readline()
    match = re.search(r"listening on (http://[0-9.:]+)", line)
    assert match, line
    yield match.group(1)
    process.terminate()
    process.wait(timeout=10)


def test_sphinx_builds_html_with_our_svgs(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        textwrap.dedent(
            f"""
            extensions = ["sphinxcontrib.plantuml"]
            plantuml = {PLANTUML!r}
            plantuml_output_format = "svg"
            project = "dropin"
            """
        )
    )
    body = textwrap.indent(SEQUENCE, "   ")
    (source / "index.rst").write_text(f"Diagrams\n========\n\n.. uml::\n\n{body}\n")
    out = tmp_path / "html"
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-q", str(source), str(out)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    svgs = list((out / "_images").glob("plantuml-*.svg"))
    assert len(svgs) == 1, list(out.rglob("*"))
    svg = svgs[0].read_text()
    assert svg.startswith("<svg") and "hello from sphinx" in svg
    assert svgs[0].name in (out / "index.html").read_text()


def test_sphinx_reports_a_broken_diagram(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        f'extensions = ["sphinxcontrib.plantuml"]\nplantuml = {PLANTUML!r}\nplantuml_output_format = "svg"\n'
    )
    body = textwrap.indent(BROKEN, "   ")
    (source / "index.rst").write_text(f"Broken\n======\n\n.. uml::\n\n{body}\n")
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-q", str(source), str(tmp_path / "html")],
        capture_output=True,
        text=True,
    )
    # PlantUML exits 200 and Sphinx warns that the diagram failed; so with puml.
    assert "plantuml" in result.stderr.lower(), result.stderr


def markdown_html(config):
    import markdown

    text = "# Doc\n\n```plantuml\nAlice -> Bob : from markdown\n```\n"
    return markdown.markdown(
        text,
        extensions=["plantuml_markdown"],
        extension_configs={"plantuml_markdown": config},
    )


def inline_svg(html):
    return "<svg" in html and "from markdown" in html


def test_python_markdown_command_mode():
    html = markdown_html({"plantuml_cmd": PLANTUML, "format": "svg_inline"})
    assert inline_svg(html), html[:500]


def test_python_markdown_server_mode_get_and_post(server):
    html = markdown_html({"server": server + "/plantuml", "format": "svg_inline"})
    assert inline_svg(html), html[:500]
    html = markdown_html({"server": server + "/plantuml", "format": "svg_inline", "http_method": "POST"})
    assert inline_svg(html), html[:500]


def test_python_markdown_kroki_mode(server):
    html = markdown_html({"kroki_server": server + "/plantuml", "format": "svg_inline"})
    assert inline_svg(html), html[:500]


def test_plantuml_pypi_client(server, tmp_path):
    from plantuml import PlantUML, PlantUMLHTTPError

    client = PlantUML(url=server + "/plantuml/img/")
    png = client.processes(SEQUENCE)
    assert png.startswith(b"\x89PNG")
    svg_client = PlantUML(url=server + "/plantuml/svg/")
    assert b"hello from sphinx" in svg_client.processes(SEQUENCE)
    # The client raises on a non-200 answer (its PlantUMLHTTPError's own
    # constructor trips over a missing attribute, hence AttributeError too).
    with pytest.raises((PlantUMLHTTPError, AttributeError)):
        client.processes(BROKEN)
    diagram = tmp_path / "d.puml"
    diagram.write_text(SEQUENCE)
    assert client.processes_file(str(diagram), outfile=str(tmp_path / "d.png"))
    assert (tmp_path / "d.png").read_bytes().startswith(b"\x89PNG")


def test_asciidoctor_kroki(server, tmp_path):
    modules = os.environ["PUML_NODE_MODULES"]
    result = subprocess.run(
        ["node", os.path.join(HERE, "asciidoctor_kroki_check.js"), server, str(tmp_path)],
        capture_output=True,
        text=True,
        env={**os.environ, "NODE_PATH": modules},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    print(result.stdout.strip())
