#!/usr/bin/env python3
"""Systematic activity-diagram probes: each construct x label widths x
nesting depth x neighbouring step, written to test-data/activity-probes/
(NAME.puml), with PlantUML's drawing beside each (NAME.plantuml.svg) when
run with --oracle (one JVM for the whole batch).

The probes are generated, not fitted one by one: the paint-fidelity test
(`activity_generated_probes_place_texts_like_plantuml`) measures how many
of PlantUML's texts puml places within 2 px and fails under the level
reached, so a layout rule that helps one construct and hurts another shows.

usage: scripts/activity_probes.py [--oracle [--only PREFIX]] [--out DIR]
"""

import argparse
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
JAR = pathlib.Path.home() / ".cache/plantuml-oracle/plantuml.jar"

# Label widths: a word, a phrase, a long phrase.
WIDTHS = {
    "short": ("ok", "Go"),
    "mid": ("a medium label", "Check the order"),
    "long": ("a considerably longer label text", "Send the confirmation e-mail to the customer"),
}


def constructs(label, action):
    """Each construct as lines, with `label` for arrow/branch labels and
    `action` for the text of the first action."""
    return {
        "if_else": [
            "if (valid?) then (%s)" % label,
            ":%s;" % action,
            "else (no)",
            ":Reject;",
            "endif",
        ],
        "if_elseif": [
            "if (kind?) then (%s)" % label,
            ":%s;" % action,
            "elseif (other?) then (yes)",
            ":B;",
            ":C;",
            "else (%s)" % label,
            ":D;",
            "endif",
        ],
        "if_lone": ["if (valid?) then (%s)" % label, ":%s;" % action, "endif"],
        # An `if` in an `else` beside a longer `then`: PlantUML's vertical
        # compression keeps the gaps of both that the other holds open.
        "if_rows_else_if": [
            "if (valid?) then (%s)" % label,
            ":%s;" % action,
            ":B;",
            ":C;",
            "else (no)",
            "if (inner?) then (yes)",
            ":D;",
            ":E;",
            "else (%s)" % label,
            ":F;",
            "endif",
            "endif",
        ],
        # An empty `then` before an `else`: the `else` runs down, the
        # bypass right.
        "if_rows_empty_then": [
            "if (valid?) then (%s)" % label,
            "else (no)",
            ":%s;" % action,
            ":B;",
            "endif",
        ],
        "while_exit": [
            "while (more?) is (%s)" % label,
            ":%s;" % action,
            "endwhile (%s)" % label,
        ],
        "repeat_backward": [
            "repeat",
            ":%s;" % action,
            "backward:Retry;",
            "repeat while (again?) is (%s) not (done)" % label,
        ],
        "repeat_plain": [
            "repeat",
            ":%s;" % action,
            ":Step;",
            "repeat while (again?) is (%s)" % label,
        ],
        "fork_heights": [
            "fork",
            ":%s;" % action,
            "fork again",
            ":B;",
            ":C;",
            ":D;",
            "end fork",
        ],
        "fork_merge": [
            "fork",
            ":%s;" % action,
            "fork again",
            ":B;",
            ":C;",
            "end merge",
        ],
        "split": ["split", ":%s;" % action, "split again", ":B;", ":C;", "end split"],
        "switch": [
            "switch (kind?)",
            "case (%s)" % label,
            ":%s;" % action,
            "case (b)",
            ":B;",
            "case (c)",
            ":C;",
            "endswitch",
        ],
        # Two cases: the cases span at least the diamond and two 15 px arms.
        "switch_two": [
            "switch (kind?)",
            "case (%s)" % label,
            ":%s;" % action,
            "case (b)",
            ":B;",
            "endswitch",
        ],
        # Two cases whose last one is wide: the diamond fits between them,
        # so they stand 20 px apart (PlantUML's small-diamond mode).
        "switch_two_wide_last": [
            "switch (kind?)",
            "case (%s)" % label,
            ":%s;" % action,
            "case (b)",
            ":A much wider last case;",
            "endswitch",
        ],
        # Labels written with spaces inside the parentheses: the spaces
        # hold the next case off.
        "switch_spaced": [
            "switch (kind?)",
            "case ( %s )" % label,
            ":%s;" % action,
            "case ( b )",
            ":B;",
            "case ( c )",
            ":C;",
            "endswitch",
        ],
        "note_right": [":%s;" % action, "note right: %s" % label],
        "note_left_multi": [
            ":%s;" % action,
            "note left",
            "%s" % label,
            "second line",
            "end note",
        ],
        "note_floating": [":%s;" % action, "floating note right: %s" % label],
        "partition": ['partition "%s" {' % label, ":%s;" % action, ":B;", "}"],
        "group": ["group %s" % label, ":%s;" % action, "end group"],
        "detach_branch": [
            "if (fail?) then (%s)" % label,
            ":%s;" % action,
            "detach",
            "endif",
        ],
        # A then beside its diamond wider than its label: PlantUML starts it
        # the label's width plus half its own past the corner, or its whole
        # width if more, and the compression closes the rest.
        "detach_wide_box": [
            "if (fail?) then (%s)" % label,
            ":A wider side action;",
            "detach",
            "endif",
        ],
        "kill_branch": [
            "if (fail?) then (%s)" % label,
            ":%s;" % action,
            "kill",
            "else (no)",
            ":Go on;",
            "endif",
        ],
        "arrow_styles": [
            ":%s;" % action,
            "-[#red,dashed]-> %s;" % label,
            ":B;",
            "-[#blue,bold]->",
            ":C;",
        ],
        "connector": [":%s;" % action, "(A)", "detach", "(A)", ":B;"],
        # An `if` holding a `fork`: both branches on PlantUML's half-row
        # grid (a fork three half rows).
        "if_fork_rows": [
            "if (ok?) then (%s)" % label,
            "fork",
            ":%s;" % action,
            "fork again",
            ":B;",
            "end fork",
            ":P;",
            "else (no)",
            ":Adj;",
            ":Re;",
            "endif",
        ],
        # A branch whose first step has a note taller than the step.
        "if_note_first": [
            "if (ok?) then (%s)" % label,
            ":%s;" % action,
            "note right",
            "first line",
            "second line",
            "end note",
            ":Re;",
            "else (no)",
            ":X;",
            "endif",
        ],
        # A partition opening a branch (corpus activity 009, 025/026).
        "if_partition_first": [
            "if (valid?) then (%s)" % label,
            "partition Checks {",
            ":%s;" % action,
            "}",
            "else (no)",
            ":Reject;",
            "endif",
        ],
        "if_fork_partitions": [
            "if (valid?) then (%s)" % label,
            "fork",
            "partition P1 {",
            ":%s;" % action,
            "}",
            "fork again",
            "partition P2 {",
            ":B;",
            "}",
            "end fork",
            "else (no)",
            ":Skip;",
            "endif",
        ],
        "fork_partition_if": [
            "fork",
            "partition P1 {",
            ":Start;",
            "if (ready?) then (%s)" % label,
            ":%s;" % action,
            "else (no)",
            ":Other;",
            "endif",
            "}",
            "fork again",
            "partition P2 {",
            ":B;",
            "}",
            "end fork",
        ],
        # A lone branch of two steps, the second of two lines (corpus 002/003).
        "if_lone_tall": [
            "if () then (%s)" % label,
            ":%s;" % action,
            ":Save the state",
            "to the list;",
            "else (else)",
            "endif",
        ],
        # An `if` opening an `else` (corpus activity 025/026).
        "if_nested_else": [
            "if (valid?) then (%s)" % label,
            ":%s;" % action,
            "else (no)",
            "if (retry?) then (yes)",
            ":Again;",
            "else (no)",
            ":Stop;",
            "endif",
            "endif",
        ],
        # Steps sharing a row with a taller step of another branch: the
        # shorter one's gaps widen by half the difference, at most 15 px.
        "fork_row_tall": [
            "fork",
            ":S1;",
            ":%s;" % action,
            ":S3;",
            "fork again",
            ":B",
            "%s;" % label,
            "fork again",
            ":C;",
            "end fork",
        ],
        "fork_row_if": [
            "fork",
            ":Start;",
            "if (ready?) then (%s)" % label,
            ":%s;" % action,
            "else (no)",
            ":Other;",
            "endif",
            "fork again",
            ":B",
            "second line",
            "third line;",
            "end fork",
        ],
        # An `if` holding a `fork` beside a step with a note taller than
        # the step: the note's overhang adds to the gap's extra room.
        "if_note_rows": [
            "if (ok?) then (yes)",
            "fork",
            ":F1;",
            "fork again",
            ":F2;",
            "end fork",
            ":P;",
            "else (no)",
            ":%s;" % action,
            "note right",
            "%s" % label,
            "second line",
            "third line",
            "end note",
            ":Re;",
            "endif",
        ],
        "fork_notes": [
            "fork",
            ":%s;" % action,
            "note right: %s" % label,
            "fork again",
            ":B;",
            "note right: %s" % label,
            "fork again",
            ":C;",
            "end fork",
        ],
    }


# Around a construct: nothing, inside a while loop, inside an if in a
# repeat, inside a partition (whose frame shows the room PlantUML's tile
# keeps beyond what it draws).
def wrap(lines, depth):
    if depth == 1:
        return lines
    if depth == 2:
        return ["while (loop?) is (yes)"] + lines + ["endwhile"]
    if depth == 4:
        return ["partition Outer {"] + lines + ["}"]
    return ["repeat", "if (inner?) then (yes)"] + lines + ["endif", "repeat while (outer?)"]


NEIGHBOURS = {
    "narrow": ":A;",
    "wide": ":A much wider neighbouring action;",
}


def note_lines(count):
    return ["note right"] + ["line %d" % (k + 1) for k in range(count)] + ["end note"]


# Notes beside the steps of a loop's body, shorter and taller than the gap
# (seed 001's `loop`): PlantUML lays the loop out with each note beside its
# step and then closes the rows nothing covers.
def loop_note_probes():
    cases = {
        "first": [(":A;", 4), (":B;", 0)],
        "first_short": [(":A;", 2), (":B;", 0)],
        "first_mid": [(":A;", 3), (":B;", 0)],
        "first_tall": [(":A;", 6), (":B;", 0)],
        "second": [(":A;", 0), (":B;", 4)],
        "second_mid": [(":A;", 0), (":B;", 3)],
        "both": [(":A;", 4), (":B;", 4)],
        "both_short": [(":A;", 2), (":B;", 2)],
        "both_uneven": [(":A;", 4), (":B;", 6)],
        "three": [(":A;", 4), (":B;", 0), (":C;", 4)],
        "middle": [(":A;", 0), (":B;", 4), (":C;", 0)],
        "only": [(":A;", 4)],
    }
    out = {}
    for name, steps in cases.items():
        body = []
        for step, lines in steps:
            body.append(step)
            if lines:
                body += note_lines(lines)
        for loop, head, tail in (
            ("repeat", ["repeat"], ["repeat while (again?) is (retry)"]),
            ("while", ["while (more?) is (yes)"], ["endwhile (no)"]),
        ):
            for start in ("start", "bare"):
                lines = (["start"] if start == "start" else []) + head + body + tail
                lines += ["stop"] if start == "start" else []
                key = "loop_notes_%s_%s_%s" % (loop, name, start)
                out[key] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    return out


# What the `loop_notes_while_*` family keeps fixed, varied: no `is`
# label, a two-line one, a note on the left, four steps (the way back's
# head in the middle gap), steps before and after the loop, a wide note on
# the last step before a `stop` on the exit line.
def while_note_probes():
    cases = {
        "unlabelled": (["while (more?)"], [(":A;", 4), (":B;", 0)], ["endwhile"], [], []),
        "two_line_is": (["while (more?) is (yes\\nagain)"], [(":A;", 4), (":B;", 2)], ["endwhile (no)"], [], []),
        "left": (["while (more?) is (yes)"], [(":A;", 4), (":B;", 0)], ["endwhile (no)"], [], ["left"]),
        "four": (
            ["while (more?) is (yes)"],
            [(":A;", 0), (":B;", 5), (":C;", 0), (":D;", 2)],
            ["endwhile (no)"],
            [],
            [],
        ),
        "around": (
            ["while (more?) is (yes)"],
            [(":Check the order;", 3), (":B;", 0)],
            ["endwhile (no)"],
            [":Before;"],
            [":After;"],
        ),
        "last_wide": (
            ["while (more?) is (yes)"],
            [(":A;", 0), (":B;", 6)],
            ["endwhile (no)"],
            [],
            [],
        ),
    }
    out = {}
    for name, (head, steps, tail, before, after) in cases.items():
        side = "left" if "left" in after else "right"
        after = [a for a in after if a != "left"]
        body = []
        for step, count in steps:
            body.append(step)
            if count:
                body += ["note %s" % side] + ["line %d" % (k + 1) for k in range(count)] + ["end note"]
        for start in ("start", "bare"):
            lines = (["start"] if start == "start" else []) + before + head + body + tail + after
            lines += ["stop"] if start == "start" else []
            out["while_notes_%s_%s" % (name, start)] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    return out


# Loops whose steps carry notes, nested in a `while` or an `if`, and a
# `repeat` with a `backward` action: where PlantUML's page-wide vertical
# compression meets the rows of what surrounds the loop.
def nested_note_loop_probes():
    note = ["note right", "line 1", "line 2", "line 3", "line 4", "end note"]
    body = [":A;"] + note + [":B;"]
    repeat = ["repeat"] + body + ["repeat while (again?) is (retry)"]
    loop = ["while (more?) is (yes)"] + body + ["endwhile (no)"]
    cases = {
        "repeat_in_while": ["while (outer?) is (yes)"] + repeat + ["endwhile (done)"],
        "repeat_in_if": ["if (ok?) then (yes)"] + repeat + ["endif"],
        "repeat_in_if_else": ["if (ok?) then (yes)"] + repeat + ["else (no)", ":Other;", "endif"],
        "repeat_backward": ["repeat"] + body + ["backward:Back;", "repeat while (again?) is (retry)"],
        "repeat_backward_second": ["repeat", ":A;", ":B;"]
        + note
        + ["backward:Back;", "repeat while (again?) is (retry)"],
        "repeat_backward_three": ["repeat"]
        + body
        + [":C;", "note right", "line 1", "line 2", "end note", "backward:Back;", "repeat while (again?)"],
        "while_in_if": ["if (ok?) then (yes)"] + loop + ["endif"],
        "while_in_if_else": ["if (ok?) then (yes)"] + loop + ["else (no)", ":Other;", ":More;", "endif"],
        "repeat_in_else": ["if (ok?) then (yes)", ":Other;", "else (no)"] + repeat + ["endif"],
        "while_plain_in_if_else": ["if (ok?) then (yes)", "while (more?) is (yes)", ":A;", ":B;", "endwhile (no)"]
        + ["else (no)", ":Other;", "endif"],
        "while_then_step_in_if_else": ["if (ok?) then (yes)"] + loop + [":C;", "else (no)", ":Other;", ":More;", "endif"],
        "while_in_while": ["while (outer?) is (yes)"] + loop + ["endwhile (done)"],
        "while_in_repeat": ["repeat"] + loop + ["repeat while (again?)"],
    }
    out = {}
    for name, lines in cases.items():
        for start in ("start", "bare"):
            full = (["start"] if start == "start" else []) + lines + (["stop"] if start == "start" else [])
            out["nested_note_loop_%s_%s" % (name, start)] = "@startuml\n" + "\n".join(full) + "\n@enduml\n"
    return out


# Notes beside the first steps of a diagram without `start`: nothing
# reaches above the drawing's top, so the note moves its step down.
def top_note_probes():
    out = {}
    for name, steps in {
        "first": [(":A;", 4), (":B;", 0)],
        "both": [(":A;", 4), (":B;", 6)],
        "short": [(":A;", 2), (":B;", 0)],
    }.items():
        lines = []
        for step, count in steps:
            lines.append(step)
            if count:
                lines += note_lines(count)
        out["notes_top_%s" % name] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    return out


# A lone `if` branch opening with a frame under labels of zero to three
# lines: the compression closes the rows above the frame.
def lone_frame_probes():
    out = {}
    for name, label in {"unlabelled": "", "one": " (yes)", "two": " (first\\nsecond line)", "three": " (a\\nb\\nc)"}.items():
        lines = ["start", ":A;", "if (inner?) then%s" % label, 'partition "a medium label" {', ":Check the order;", "}"]
        lines += ["endif", ":Z;", "stop"]
        out["lone_frame_%s" % name] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    return out


# Two-branch `if`s holding `if`s further down, of one or two branches:
# PlantUML lays the branches out 35 px apart and its vertical compression
# closes the rows nothing but lines covers.
def if_rows_probes():
    steps = lambda prefix, n: [":%s%d;" % (prefix, k + 1) for k in range(n)]
    cases = {
        "after_step": steps("A", 5) + ["else (b)", ":E1;", "if () then (c)"] + steps("B", 2)
        + ["else (d)", ":C1;", "endif"],
        "then_if": ["if () then (c)"] + steps("B", 3) + ["else (d)", ":C1;", "endif", "else (b)"] + steps("A", 3),
        "merge_then_steps": steps("A", 5) + ["else (b)", "if () then (c)", ":B1;", "else (d)", ":C1;", "endif"]
        + steps("D", 2),
        "lone_in_else": steps("A", 3) + ["else (b)", "if () then (c)"] + steps("B", 3) + ["endif"],
        "lone_last": steps("A", 1) + ["else (b)", "if () then (c)"] + steps("B", 2) + ["endif"],
        "lone_after_step": steps("A", 5) + ["else (b)", ":E1;", "if () then (c)"] + steps("B", 2) + ["endif", ":E2;"],
        "empty_then_in_else": steps("A", 4) + ["else (b)", "if () then (c)", "else (d)"] + steps("B", 2) + ["endif"],
        "else_while_long_exit": steps("A", 3) + ["else (b)", ":E1;", "while () is ([more])", ":W1;", ":W2;",
                                                 "endwhile ([a much longer exit label here])"],
        "else_while_short_exit": steps("A", 3) + ["else (b)", ":E1;", "while (more?) is (yes)", ":W1;", "endwhile (no)"],
        # `if`s on the else's left edge, one in another's branch: each
        # keeps its room.
        "else_if_in_if": steps("A", 1) + ["else (b)", "if () then (c)", "if () then (e)", ":B1;", "else (f)", ":C1;",
                                          "endif", "else (d)", ":D1;", "endif"],
        "else_step_if_in_if": steps("A", 1) + ["else (b)", ":E1;", "if () then (c)", "if () then (e)", ":B1;",
                                               "else (f)", ":C1;", "endif", "else (d)", ":D1;", "endif"],
        "else_if_step_if": steps("A", 1) + ["else (b)", "if () then (c)", ":D0;", "if () then (e)", ":B1;",
                                            "else (f)", ":C1;", "endif", "else (d)", ":D1;", "endif"],
        "deep": ["if () then (c)", "if () then (e)"] + steps("B", 2) + ["else (f)", ":F1;", "endif", "else (d)"]
        + steps("C", 2) + ["endif", "else (b)"] + steps("A", 3),
    }
    # Branch labels of several lines beside the diamond (the compression
    # closes the rows above to 10 px over the labels' top).
    lines_of = lambda n: "\\n".join("line %d" % k for k in range(n))
    for n in (2, 3, 4):
        cases["label_lines_then_%d" % n] = ["if () then (%s)" % lines_of(n), ":B;", "else (no)", ":C;", "endif"]
        cases["label_lines_lone_%d" % n] = ["if () then (yes)", ":B;", "else (%s)" % lines_of(n), "endif"]
    out = {}
    for name, lines in cases.items():
        if name.startswith("label_lines"):
            body = ["start", ":A;"] + lines + ["stop"]
            out["if_rows_%s" % name] = "@startuml\n" + "\n".join(body) + "\n@enduml\n"
            continue
        body = ["start", "if () then (a)"]
        body += lines
        body += ["endif", ":Z;", "stop"]
        out["if_rows_%s" % name] = "@startuml\n" + "\n".join(body) + "\n@enduml\n"
    return out


# A `repeat :label;` over actions and over such loops: PlantUML lays the
# loop out before its vertical compression, the head on its way back
# holding the body's middle gap open by as much as the box lifts it.
def repeat_label_probes():
    out = {}
    labels = {"one": "outer", "two": "outer\\nsecond line", "three": "outer\\n2\\n3", "five": "outer\\n2\\n3\\n4\\n5"}
    for name, label in labels.items():
        for steps in (2, 4) if name in ("one", "two") else (2,):
            body = [":a%d;" % (i + 1) for i in range(steps)]
            lines = ["start", "repeat :%s;" % label] + body + ["repeat while (b)", ":after;"]
            out["repeat_label_%s_%d" % (name, steps)] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    inner = ["repeat :inner;", ":x1;", ":x2;", "repeat while (more projects?)"]
    for name, before, after in (
        ("nested_three", [":a1;", ":a2;", ":a3;"], [":delete;"]),
        ("nested_one", [":a1;"], []),
        ("nested_alone", [], []),
    ):
        lines = ["start", "repeat :outer;"] + before + inner + after + ["repeat while (more?)", ":save;", "end"]
        out["repeat_label_%s" % name] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    # A `repeat` the diagram ends before closing: no condition, the way
    # back leaving 48 px under the body, 12 px right of half its width.
    for name, body in (
        ("two", [":b;", ":c;"]),
        ("three", [":b;", ":c;", ":d;"]),
        ("four_wide", [":b;", ":a much wider action;", ":d;", ":e;"]),
        ("label", [":b;", ":c;"]),
        ("stop", [":b;", ":c;", ":d;", "stop"]),
    ):
        head = ["repeat :outer;"] if name == "label" else ["repeat"]
        lines = ["start", ":a;"] + head + body
        out["repeat_unclosed_%s" % name] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    # A loop whose whole body is one two-branch `if`: the way back's head
    # holds the middle gap of the longest branch (an even row count) open.
    two = [":r1;", ":r2;"]
    for name, head, then, other, tail in (
        ("repeat", ["repeat"], two, [":v1;"], ["repeat while (a)"]),
        ("repeat_bare", ["repeat"], two, [":v1;"], ["repeat while (a)"]),
        ("repeat_four", ["repeat"], two + [":r3;", ":r4;"], [":v1;"], ["repeat while (a)"]),
        ("repeat_else", ["repeat"], [":v1;"], two, ["repeat while (a)"]),
        ("repeat_both", ["repeat"], two, [":v1;", ":v2;"], ["repeat while (a)"]),
        ("repeat_box", ["repeat :lab;"], two, [":v1;"], ["repeat while (a)"]),
        ("repeat_after_step", [":pre;", "repeat"], two, [":v1;"], ["repeat while (a) is (yes)"]),
        ("while", ["while (w)"], two, [":v1;"], ["endwhile"]),
        ("while_labelled", ["while (w) is (more)"], two, [":v1;"], ["endwhile (done)"]),
    ):
        labels = ("", "") if name.endswith("bare") else (" (yes)", " (no)")
        lines = ["start"] + head + ["if (x) then%s" % labels[0]] + then + ["else%s" % labels[1]] + other
        lines += ["endif"] + tail + [":after;"]
        out["loop_if_middle_%s" % name] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    # A `backward` action beside a body whose middle row falls inside a
    # block: half-way between the entry's and the condition's middles.
    fork = ["fork", ":r;", "fork again", ":p;", "end merge"]
    branches = ["if (c) then (yes)", ":t1;", ":t2;", "else (no)", ":e1;", ":e2;", "endif"]
    for name, head, body in (
        ("fork", ["repeat"], fork),
        ("fork_between", ["repeat"], [":a;"] + fork + [":b;"]),
        ("if_after_step", ["repeat"], [":a;"] + branches),
        ("if_box", ["repeat :lab;"], [":a;"] + branches),
    ):
        lines = ["start"] + head + body + ["backward:Back;", "repeat while (x)", ":after;"]
        out["repeat_backward_block_%s" % name] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    # A `while` with an `is` label opening a `then` beside an `else`: its
    # body's middle gap stays 15 px wide.
    for name, steps in (("two", 2), ("four", 4)):
        body = [":%s;" % chr(ord("A") + i) for i in range(steps)]
        lines = ["if (ok?) then (yes)", "while (more?) is (yes)"] + body + ["endwhile (no)", "else (no)", ":Other;", "endif"]
        out["while_then_beside_else_%s" % name] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    # A `while` opening an `else`: it keeps its room left of its exit line.
    for name, head, then in (
        ("labelled", ["while (more?) is (yes)"], [":Other;"]),
        ("bare", ["while (more?)"], [":Other;"]),
        ("then_two", ["while (more?) is (yes)"], [":Other;", ":More;"]),
    ):
        tail = ["endwhile (no)"] if "is" in head[0] else ["endwhile"]
        lines = ["if (ok?) then (yes)"] + then + ["else (no)"] + head + [":A;", ":B;"] + tail + ["endif"]
        out["while_else_beside_then_%s" % name] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    for name, steps in (("bare_one", 1), ("bare_two", 2)):
        body = [":%s;" % chr(ord("A") + i) for i in range(steps)]
        lines = ["if (ok?) then (yes)", "while (more?)"] + body + ["endwhile", "else (no)", ":Other;", "endif"]
        out["while_then_beside_else_%s" % name] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    # A `while` ending another's body: the outer way back 12 px right of
    # the inner one, the outer loop's room ending where the inner's does.
    for name, body in (
        ("alone", ["while (inner?)", ":b;", "endwhile"]),
        ("labelled", ["while (inner?) is (yes)", ":b;", ":c;", "endwhile (no)"]),
        ("after_step", [":a;", "while (inner?)", ":b;", ":c;", "endwhile"]),
        ("between_steps", [":a;", "while (inner?)", ":b;", "endwhile", ":c;"]),
    ):
        head = ["while (outer?) is (yes)"] if name == "labelled" else ["while (outer?)"]
        lines = ["start"] + head + body + ["endwhile", ":z;"]
        out["while_in_while_%s" % name] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    out.update(break_probes())
    # A plain `repeat` opening a branch beside a one-step branch: laid out
    # before the compression, the other branch's rows held open.
    for name, then, other in (
        ("one", ["repeat", ":a;", "repeat while (more?)"], [":y;"]),
        ("two", ["repeat", ":a;", ":k;", "repeat while (more?)"], [":y;"]),
        ("three", ["repeat", ":a;", ":k;", ":m;", "repeat while (more?)"], [":y;"]),
        ("in_else", [":y;"], ["repeat", ":a;", ":k;", "repeat while (more?)"]),
    ):
        lines = ["start", "if (o?) then (yes)"] + then + ["else (no)"] + other + ["endif", ":after;", "stop"]
        out["repeat_beside_step_%s" % name] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    return out


def break_probes():
    """A `break` in an `if` inside a loop: in a `repeat` its line leaves
    for a diamond stacked under the loop, 10 px left of what the loop
    draws; in a `while` it joins the exit line."""
    out = {}
    for name, head, branches, tail in (
        ("else", ["repeat"], ["if (c?) then (yes)", ":b;", "else (no)", "break", "endif"], ["repeat while (more?) is (yes)"]),
        ("else_two", ["repeat"], ["if (c?) then (yes)", ":b;", ":b2;", "else (no)", "break", "endif"], ["repeat while (more?)"]),
        ("then", ["repeat"], ["if (c?) then (yes)", "break", "else (no)", ":b;", "endif"], ["repeat while (more?)"]),
        ("then_alone", ["repeat"], ["if (c?) then (yes)", "break", "endif", ":b;"], ["repeat while (more?)"]),
        ("else_wide", [":x;", "repeat"], ["if (c?) then (yes)", ":b;", "else (no)", "break", "endif"], ["repeat while (more?) is (yes) not (no)"]),
        ("while_then_alone", ["while (more?)"], ["if (c?) then (yes)", "break", "endif", ":b;"], ["endwhile"]),
        ("else_after_step", ["repeat"], ["if (c?) then (yes)", ":b;", "else (no)", ":log;", "break", "endif"], ["repeat while (more?)"]),
        ("after_step", ["repeat"], ["break"], ["repeat while (more?)"]),
    ):
        first = [":a wide action here;"] if name == "else_wide" else [":a;"]
        lines = ["start"] + head + first + branches + tail + [":after;", "stop"]
        out["break_%s" % name] = "@startuml\n" + "\n".join(lines) + "\n@enduml\n"
    return out


# The blanks PlantUML keeps in an action's text: leading and trailing ones
# (drawn: the box wider, the text shifted), a tab as blanks to the next
# stop of eight, and a continuation line's beyond the indentation common
# to the raw lines, the first counted from its line's start.
def action_blanks_probes():
    cases = {
        "lead_one": ": Display no one;",
        "lead_three": ":   Display;",
        "trail_three": ":Display   ;",
        "lead_tab": ":\tDisplay;",
        "newline_escape": ": Display\\n  two;",
        "cont_deeper": "    :Display all\n                     either criteria;",
        "cont_shallower": "    :Display all\n  two\n      three;",
        "cont_mixed": "    :Display all\n          two\n      three;",
        "cont_first_blanks": "    :  Display all\n          two;",
        "cont_tabs": "\t:Display all\n\t\t  two;",
        "cont_unindented": ":a\n    two   ;",
        "cont_empty_first": ":\n  two;",
        "cont_blank_line": ":Display all\n\neither;",
    }
    return {
        "action_blanks_%s" % name: "@startuml\nstart\n%s\n:Next;\nstop\n@enduml\n" % text
        for name, text in cases.items()
    }


# `- text` and `* text`: PlantUML's oldest action form (one line, its text
# to the line's end, `;` included); only `->` and `-[style]->` are arrows.
def bullet_action_probes():
    cases = {
        "dash": "- Start Round",
        "star": "* star item",
        "tight": "-tight",
        "semicolon": "- Pick One Card and\\nGive the rest;",
        "double_dash": "--> dashed;",
        "styled_dash": "-[#red]- x;",
        "spaced": "    -   spaced   ",
        "alone": "-",
    }
    out = {
        "bullet_action_%s" % name: "@startuml\nstart\n:A;\n%s\n:B;\nstop\n@enduml\n" % line
        for name, line in cases.items()
    }
    return out


# A note that names no side (`note:`, `floating note`) is drawn on the left;
# one written after a container's `}` belongs to the container's last step,
# drawn beside it inside the frame.
def note_side_probes():
    out = {}
    for name, note in {
        "bare": "note: Bootloader addr",
        "block": "note\nBootloader addr\nend note",
        "floating": "floating note: Bootloader addr",
        "floating_block": "floating note\nBootloader addr\nend note",
        "floating_right": "floating note right: Bootloader addr",
    }.items():
        out["note_side_%s" % name] = "@startuml\nstart\n:Check bootflag;\n%s\n:Next;\nstop\n@enduml\n" % note
    for name, (opening, closing, body, note) in {
        "partition_floating": ("partition Boot {", "}", ":Check bootflag;", "floating note: Bootloader addr"),
        "partition_right": ("partition Boot {", "}", ":Check bootflag;", "note right: Bootloader addr"),
        "partition_two": ("partition Boot {", "}", ":Check bootflag;\n:Second;", "note left: Bootloader addr"),
        "group_right": ("group Boot", "end group", ":Check bootflag;", "note right: Bootloader addr"),
        "nested_right": (
            "partition Outer {\npartition Inner {",
            "}\n}",
            ":Check bootflag;",
            "note right: Bootloader addr",
        ),
    }.items():
        out["note_after_container_%s" % name] = "@startuml\nstart\n%s\n%s\n%s\n%s\n:Next;\nstop\n@enduml\n" % (
            opening,
            body,
            closing,
            note,
        )
    return out


# A labelled arrow into a container (its frame stands higher than an action
# would) and out of one (its label nearer the frame, the next step closer);
# a package as wide as its content or title, with blank room beside it.
def container_label_probes():
    out = {}
    for kind in ("partition", "group", "package", "rectangle", "card"):
        out["label_container_into_%s" % kind] = (
            "@startuml\nstart\n:A;\n-> reset;\n%s Boot {\n    :Check;\n}\nstop\n@enduml\n" % kind
        )
        out["label_container_after_%s" % kind] = (
            "@startuml\nstart\n:A;\n%s Boot {\n    :Check;\n}\n-> reset;\n:B;\nstop\n@enduml\n" % kind
        )
    out["label_container_after_two_lines"] = (
        "@startuml\nstart\n:A;\npartition Boot {\n    :Check;\n}\n-> two\\nlines;\n:B;\nstop\n@enduml\n"
    )
    out["label_container_into_two_lines"] = (
        "@startuml\nstart\n:A;\n-> two\\nlines;\npartition Boot {\n    :Check;\n}\nstop\n@enduml\n"
    )
    out["label_container_lanes_same"] = (
        "@startuml\n|A|\nstart\n:First;\n-> go;\npartition Boot {\n    :Check;\n}\n|B|\n:Next;\nstop\n@enduml\n"
    )
    out["label_container_into_after_start"] = (
        "@startuml\nstart\n-> reset;\npartition Boot {\n    :Check;\n}\nstop\n@enduml\n"
    )
    for title in ("B", "Boot", "Bootloader", "A much longer package title"):
        for name, action in (("x", "x"), ("mid", "Check"), ("long", "Check this long thing")):
            key = "package_widths_%s_%s" % (title.split()[0 if len(title.split()) == 1 else 2].lower(), name)
            out[key] = "@startuml\nstart\n:A;\npackage %s {\n    :%s;\n}\nstop\n@enduml\n" % (title, action)
    return out


# A note beside a case of a `switch`: the last case's column widened by a
# right note stands left of the diamond's right point and is reached by a
# detour; a tall note lowers its case's first step.
def switch_note_probes():
    cases = {
        "last_right": ("Wakeup Source", "note right: Handle restart", ""),
        "last_right_short_condition": ("W", "note right: Handle restart", ""),
        "last_right_then_step": ("Wakeup Source", "note right: Handle restart\n:Next;", ""),
        "last_tall": ("Wakeup Source", "note right\nHandle restart\nand more lines\nend note", ""),
        "middle_right": ("Wakeup Source", "note right: Handle restart", "case (C)\n:Other;\n"),
        "last_left": ("Wakeup Source", "note left: Handle restart", ""),
    }
    out = {}
    for name, (condition, note, after) in cases.items():
        out["switch_note_%s" % name] = (
            "@startuml\nstart\nswitch (%s)\ncase (A)\n:Pull PS_ON High;\ncase (B)\n:Wait 3 seconds;\n%s\n%sendswitch\nstop\n@enduml\n"
            % (condition, note, after)
        )
    out["switch_note_first_left"] = (
        "@startuml\nstart\nswitch (Wakeup Source)\ncase (A)\n:Pull PS_ON High;\nnote left: Handle restart\n"
        "case (B)\n:Wait 3 seconds;\nendswitch\nstop\n@enduml\n"
    )
    return out


# Style settings real diagrams use (issue 31): a `none` fill, the font size
# every element takes from `defaultFontSize`, arrow labels of other sizes
# (their room and drop grow with the font's descent) and tall branch labels
# beside a diamond (they lower it).
def style_size_probes():
    flow = (":hello;\n:two lines\nsecond;\nif (cond?) then (yes)\n  :a;\nelse (no)\n  :b;\n"
            "endif\n-> lab;\n:c;\n")
    out = {}
    for value in ("none", "transparent"):
        for mono in ("", "skinparam monochrome true\n"):
            name = "deco_fill_%s%s" % (value, "_mono" if mono else "")
            out[name] = ("@startuml\n%sskinparam activityBackgroundColor %s\nstart\n%sstop\n@enduml\n"
                         % (mono, value, flow))
    out["deco_fill_none_style"] = (
        "@startuml\nskinparam monochrome true\n<style>\nactivityDiagram {\n  activity { BackgroundColor none }\n}\n"
        "</style>\nstart\n:hello;\nstop\n@enduml\n"
    )
    for size in (10, 12, 14, 16, 20):
        out["deco_default_font_%d" % size] = (
            "@startuml\nskinparam defaultFontSize %d\nstart\n%sstop\n@enduml\n" % (size, flow))
    out["deco_default_font_lanes"] = (
        "@startuml\nskinparam defaultFontSize 16\n|Lane|\nstart\n:a;\n|B|\n:b;\nstop\n@enduml\n")
    out["deco_default_font_under_activity"] = (
        "@startuml\nskinparam defaultFontSize 16\nskinparam activityFontSize 12\nstart\npartition P {\n:a;\n}\n"
        "if (c?) then (y)\n:b;\nendif\nstop\n@enduml\n")
    for size in (8, 10, 12, 14, 16, 20, 30):
        out["deco_arrow_font_%d" % size] = (
            "@startuml\nskinparam ArrowFontSize %d\nstart\n:a;\n-> lab;\n:c;\nstop\n@enduml\n" % size)
    for name, then_label, else_label in (
        ("two_lines", "yes\\nyes2", "no"),
        ("three_lines_else", "yes", "no\\nno2\\nno3"),
        ("one_line", "yes", "no"),
    ):
        out["deco_branch_label_%s" % name] = (
            "@startuml\nstart\n:hello;\nif (cond?) then (%s)\n  :a;\nelse (%s)\n  :b;\nendif\nstop\n@enduml\n"
            % (then_label, else_label))
    out["deco_branch_label_lone_then"] = (
        "@startuml\nstart\n:hello;\nif (cond?) then (yes\\nyes2)\n  :a;\nendif\nstop\n@enduml\n")
    rows = "|= Colour |= Meaning |\n|<#D6EAF8> | User command |\n| x | System action |\n"
    for where in ("right", "left", "center"):
        out["deco_legend_table_%s" % where] = (
            "@startuml\nstart\n:a;\nstop\nlegend %s\n%sendlegend\n@enduml\n" % (where, rows))
    out["deco_legend_table_three_columns"] = (
        "@startuml\nstart\n:a wide enough action;\nstop\nlegend\n|= A |= Bee |= C |\n|1|two|  three  |\n"
        "|<#FADBD8>four| five |six|\nendlegend\n@enduml\n")
    return out


def probes():
    out = loop_note_probes()
    out.update(style_size_probes())
    out.update(if_rows_probes())
    out.update(repeat_label_probes())
    out.update(switch_note_probes())
    out.update(container_label_probes())
    out.update(note_side_probes())
    out.update(bullet_action_probes())
    out.update(action_blanks_probes())
    out.update(lone_frame_probes())
    out.update(while_note_probes())
    out.update(nested_note_loop_probes())
    out.update(top_note_probes())
    for width, (label, action) in WIDTHS.items():
        for name, lines in constructs(label, action).items():
            depths = (1, 2, 3, 4) if width == "mid" else (1, 4)
            for depth in depths:
                for neighbour, before in NEIGHBOURS.items():
                    if neighbour == "wide" and (width != "short" or depth != 1):
                        continue
                    body = [before] + wrap(lines, depth) + [":Z;"]
                    key = "%s_%s_d%d_%s" % (name, width, depth, neighbour)
                    out[key] = "@startuml\nstart\n" + "\n".join(body) + "\nstop\n@enduml\n"
    # Swimlanes: arrows crossing lanes, lanes of different widths.
    for width, (label, action) in WIDTHS.items():
        out["lanes_%s" % width] = (
            "@startuml\n|Lane one|\nstart\n:%s;\n|%s|\n:B;\n-> %s;\n|Lane one|\n:C;\nstop\n@enduml\n"
            % (action, label, label)
        )
    # Swimlanes holding the branches of a fork, split or if: PlantUML lays
    # the block out as without lanes, draws each part in its lane's column
    # and closes what a lane leaves empty (seed 001's workflows).
    lanes3 = "|One|\n|Two|\n|Three|\n"
    out["lanes_fork_other_lanes"] = (
        "@startuml\n|Alpha|\n|Beta|\nfork\n|Alpha|\n:Research Topic A;\nfork again\n"
        "|Beta|\n:Research Topic B;\nend fork\n:Combine;\n@enduml\n"
    )
    out["lanes_fork_own_and_other"] = (
        "@startuml\n|Alpha|\n|Beta|\n|Alpha|\nstart\nfork\n:Topic A;\nfork again\n"
        "|Beta|\n:Topic B;\nend fork\n:Combine;\nstop\n@enduml\n"
    )
    out["lanes_fork_one_lane"] = (
        "@startuml\n|Alpha|\n|Beta|\n|Alpha|\nstart\nfork\n:Topic A;\nfork again\n"
        ":Topic B;\nend fork\n|Beta|\n:Combine;\nstop\n@enduml\n"
    )
    out["lanes_fork_three"] = (
        "@startuml\n" + lanes3 + "|One|\nstart\nfork\n:Task one;\nfork again\n|Two|\n"
        ":Task two is longer;\nfork again\n|Three|\n:T3;\nend fork\n:Join;\nstop\n@enduml\n"
    )
    out["lanes_fork_two_of_three"] = (
        "@startuml\n" + lanes3 + "|One|\nstart\n:First;\nfork\n|Two|\n:Task two;\n"
        "fork again\n|Three|\n:Task three;\nend fork\n:Join;\nstop\n@enduml\n"
    )
    out["lanes_fork_merge"] = (
        "@startuml\n|Alpha|\n|Beta|\n|Alpha|\nstart\nfork\n:Topic A;\nfork again\n"
        "|Beta|\n:Topic B;\nend merge\n:After;\nstop\n@enduml\n"
    )
    out["lanes_title_wider"] = (
        "@startuml\n|A very long swimlane title here|\nstart\n:x;\n|B|\n"
        ":A much wider action than the title of this lane;\n"
        "|A very long swimlane title here|\nstop\n@enduml\n"
    )
    out["lanes_if_other_lane"] = (
        "@startuml\n|Alpha|\n|Beta|\n|Alpha|\nstart\nif (ok?) then (yes)\n:Flag;\n"
        "else (no)\n|Beta|\n:Report;\nendif\nstop\n@enduml\n"
    )
    out["lanes_split_other_lanes"] = (
        "@startuml\n" + lanes3 + "|One|\nstart\nsplit\n|Two|\n:Handle two;\nsplit again\n"
        "|Three|\n:Handle three;\nend split\nstop\n@enduml\n"
    )
    # A split across lanes: its opening line in its first branch's lane,
    # its closing line in its last branch's (seed 001's `router`).
    out["lanes_split_widths"] = (
        "@startuml\n" + lanes3 + "|One|\nstart\nsplit\n|Two|\n:Go;\nsplit again\n"
        "|Three|\n:A much longer action in lane three;\nend split\nstop\n@enduml\n"
    )
    out["lanes_split_first_wide"] = (
        "@startuml\n" + lanes3 + "|One|\nstart\nsplit\n|Two|\n:A much longer action in lane two;\n"
        "split again\n|Three|\n:Go;\nend split\nstop\n@enduml\n"
    )
    out["lanes_split_own_and_other"] = (
        "@startuml\n|Alpha|\n|Beta|\n|Alpha|\nstart\nsplit\n:Topic A;\nsplit again\n"
        "|Beta|\n:Topic B is longer;\nend split\n:After;\nstop\n@enduml\n"
    )
    out["lanes_split_three_from_last"] = (
        "@startuml\n|One|\n|Two|\n|Three|\n|Four|\n:Classify;\nsplit\n|One|\n:Handle one;\n"
        "split again\n|Two|\n:Handle two;\nsplit again\n|Three|\n:Handle three;\nend split\n@enduml\n"
    )
    # An arrow into another lane after a step with a note beside it: it
    # turns lower when the note hangs below the step (seed 001's `router`).
    for side, lines in (("right_1", 1), ("right_3", 3), ("right_6", 6), ("right_10", 10), ("left_6", 6)):
        note = "".join("line %d\n" % (i + 1) for i in range(lines))
        out["lanes_note_cross_%s" % side] = (
            "@startuml\n|A|\n|B|\n|A|\nstart\n:Step;\nnote %s\n%send note\n|B|\n:Next;\nstop\n@enduml\n"
            % (side.split("_")[0], note)
        )
    # A step moved to another lane inside a branch or a loop: PlantUML lays
    # the block out as without lanes and draws each step in its lane's
    # column, each lane as wide as what it draws (held-out `*-lanes`).
    two = "@startuml\n|A|\n|B|\n|A|\nstart\n"
    inner = {
        "if_else_mid": "if (c?) then (yes)\n:a1;\nelse (no)\n:b1;\n|B|\n:b2;\nendif\n:d;\n",
        "if_then_mid": "if (c?) then (yes)\n:a1;\n|B|\n:a2;\nelse (no)\n:b1;\nendif\n:d;\n",
        "if_then_only": "if (c?) then (yes)\n|B|\n:a1;\nendif\n:d;\n",
        "if_then_back": "if (c?) then (yes)\n|B|\n:a1;\n|A|\nendif\n:d;\n",
        "if_stop_branch": ":x;\n|B|\n:y;\nif (c?) then (yes)\n:a1;\nstop\nelse (no)\n:b1;\n|A|\n:b2;\nendif\n:d;\n",
        "while_mid": "while (more?) is (yes)\n:a;\n|B|\n:b;\nendwhile (no)\n:d;\n",
        "while_mid_back": "while (more?) is (yes)\n:a;\n|B|\n:b;\n|A|\nendwhile (no)\n:d;\n",
        "repeat_mid": "repeat\n:a;\n|B|\n:b;\nrepeat while (more?) is (yes)\n:d;\n",
        "repeat_mid_back": "repeat\n:a;\n|B|\n:b;\n|A|\nrepeat while (more?) is (yes)\n:d;\n",
        "if_lone_then": "if (c?) then (yes)\n:a1;\nendif\n|B|\n:d;\n",
        "if_then_wide": "if (c?) then (yes)\n|B|\n:a much wider step here;\nendif\n:d;\n",
        "if_then_empty_else": "if (c?) then (yes)\n|B|\n:a1;\nelse (no)\nendif\n:d;\n",
        "if_then_after_step": "if (c?) then (yes)\n:a0;\n|B|\n:a1;\nendif\n:d;\n",
        "nested_two_branch_if": "if (c?) then (yes)\n:a1;\nif (inner?) then (yes)\n:i1;\nelse (no)\n:i2;\nendif\n"
        "|B|\n:a2;\nelse (no)\n:b1;\nendif\n:d;\n",
        "nested_if": "if (c?) then (yes)\n:a1;\nelse (no)\n:Some wider step;\n|B|\n:b2;\n"
        "if (again?) then (yes)\n:b3;\nendif\nendif\n:d;\n",
    }
    for name, body in inner.items():
        out["lanes_inner_%s" % name] = two + body + "stop\n@enduml\n"
    # `if (c) is (x) then`: the condition and the `then` label (held-out
    # `rankode-submission-lanes`); with a label after `then` the condition
    # runs to the last `)`.
    for name, head in (
        ("is", "if (Role?) is (Teacher/Admin) then"),
        ("equals", "if (Role?) equals (Teacher) then"),
        ("is_then_label", "if (Role?) is (Teacher) then (yes)"),
    ):
        out["if_is_%s" % name] = (
            "@startuml\nstart\n:Log in;\n%s\n:Manage;\nelse (Student)\n:Solve;\nendif\nstop\n@enduml\n" % head
        )
    out["lanes_label_crossing"] = (
        "@startuml\n|Alpha|\nstart\n:Step one;\n-> handed over;\n|Beta|\n:Step two;\n"
        "-> back;\n|Alpha|\n:Step three;\nstop\n@enduml\n"
    )
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--oracle", action="store_true", help="render PlantUML's SVG beside each probe")
    parser.add_argument("--out", default=str(ROOT / "test-data/activity-probes"))
    parser.add_argument("--only", default="", help="ask the oracle only about probes starting with this")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in sorted(probes().items()):
        path = out / (name + ".puml")
        path.write_text(text)
        written.append(path)
    print("%d probes in %s" % (len(written), out))
    if not args.oracle:
        return 0
    tmp = out / ".oracle"
    tmp.mkdir(exist_ok=True)
    cmd = ["java", "-Djava.awt.headless=true", "-jar", str(JAR), "-tsvg", "-o", str(tmp)]
    asked = [p for p in written if p.stem.startswith(args.only)]
    subprocess.run(cmd + [str(p) for p in asked], check=False)
    for path in asked:
        svg = tmp / (path.stem + ".svg")
        if svg.exists():
            svg.rename(path.with_suffix(".plantuml.svg"))
    for leftover in tmp.iterdir():
        leftover.unlink()
    tmp.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
