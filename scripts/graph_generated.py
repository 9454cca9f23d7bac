#!/usr/bin/env python3
"""Writes the generated reference graphs test-data/graph/gen-*.dot for
crates/puml-graph (chains, trees, diamonds, fan-outs, clusters, labels,
minlen, flat edges, cycles, rank directions, seeded random graphs).
scripts/graph_reference.sh then adds dot's answer to each (NAME.plain)."""
import os
import random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test-data", "graph")
HEAD = "nodesep=0.486111;\nranksep=0.833333;\nsearchsize=500;\n"


def node(name, w, h):
    return f'{name} [shape=rect,label="",width={w:.6f},height={h:.6f}];\n'


def table(w, h):
    return f'<<TABLE FIXEDSIZE="TRUE" WIDTH="{w}" HEIGHT="{h}"><TR><TD></TD></TR></TABLE>>'


def sizes(rng, names):
    return "".join(node(n, rng.uniform(0.6, 2.8), rng.uniform(0.4, 1.6)) for n in names)


def write(name, body, extra=""):
    with open(os.path.join(OUT, f"gen-{name}.dot"), "w") as f:
        f.write("digraph g {\n" + HEAD + extra + body + "}\n")


def main():
    rng = random.Random(2026)
    n = [f"n{i}" for i in range(40)]
    write("chain", sizes(rng, n[:6]) + "".join(f"{a}->{b};\n" for a, b in zip(n[:5], n[1:6])))
    write("tree-binary", sizes(rng, n[:15]) + "".join(f"n{(i - 1) // 2}->n{i};\n" for i in range(1, 15)))
    write("fan-out", sizes(rng, n[:13]) + "".join(f"n0->n{i};\n" for i in range(1, 13)))
    write("fan-in", sizes(rng, n[:10]) + "".join(f"n{i}->n0;\n" for i in range(1, 10)))
    write("diamond", sizes(rng, n[:4]) + "n0->n1;\nn0->n2;\nn1->n3;\nn2->n3;\n")
    write("diamonds", sizes(rng, n[:9]) + "n0->n1;n0->n2;n1->n3;n2->n3;n3->n4;n3->n5;n4->n6;n5->n6;n0->n7;n7->n8;n8->n6;\n")
    write("long-edges", sizes(rng, n[:8]) + "n0->n1;n1->n2;n2->n3;n3->n4;n0->n4;n0->n3;n5->n4;n6->n7;n7->n2;\n")
    write("minlen", sizes(rng, n[:7]) + "n0->n1[minlen=2];n0->n2[minlen=3];n1->n3;n2->n3;n3->n4[minlen=2];n5->n6[minlen=3];n5->n3;\n")
    write("labels", sizes(rng, n[:6]) + "".join(
        f"{a}->{b}[label={table(rng.randint(20, 120), 17)}];\n" for a, b in [("n0", "n1"), ("n0", "n2"), ("n1", "n3"), ("n2", "n3"), ("n3", "n4"), ("n0", "n5")]))
    write("end-labels", sizes(rng, n[:5]) + "".join(
        f"{a}->{b}[taillabel={table(8, 15)},headlabel={table(24, 15)}];\n" for a, b in [("n0", "n1"), ("n0", "n2"), ("n1", "n3"), ("n2", "n4")]))
    write("flat", sizes(rng, n[:6]) + "n0->n1[minlen=0];n1->n2[minlen=0];n0->n3;n3->n4[minlen=0];n2->n5;\n")
    write("same-rank", sizes(rng, n[:6]) + "n0->n1;n0->n2;n2->n3;n1->n4;n4->n5;\n{rank=same; n3; n4;}\n")
    write("cycle", sizes(rng, n[:4]) + "n0->n1;n1->n2;n2->n0;n2->n3;\n")
    write("cycles-bidirectional", sizes(rng, n[:6]) + "n0->n1;n1->n0;n1->n2;n2->n1;n2->n3;n3->n0;n4->n5;n5->n4;n3->n4;\n")
    write("weights", sizes(rng, n[:7]) + "n0->n1;n0->n2;n0->n3[weight=5];n1->n4;n2->n5[weight=3];n3->n6;n4->n6;n5->n6;\n")
    write("constraint-false", sizes(rng, n[:6]) + "n0->n1;n1->n2;n2->n3;n3->n0[constraint=false];n4->n5;n5->n1[constraint=false];\n")
    write("self-loop", sizes(rng, n[:3]) + "n0->n0;n0->n1;n1->n2;n2->n2;\n")
    write("multi-edge", sizes(rng, n[:4]) + "n0->n1;n0->n1;n0->n2;n1->n3;n1->n3;n2->n3;\n")
    write("disconnected", sizes(rng, n[:8]) + "n0->n1;n1->n2;n3->n4;n5->n6;n5->n7;\n")
    write("cluster", "subgraph cluster_a {label=" + table(60, 11) + ";\n" + sizes(rng, n[:3]) + "}\n"
          + sizes(rng, n[3:5]) + "n0->n1;n0->n2;n3->n0;n2->n4;\n")
    write("clusters-siblings", "subgraph cluster_a {\n" + sizes(rng, n[:3]) + "}\nsubgraph cluster_b {\n" + sizes(rng, n[3:6]) + "}\n"
          + "n0->n1;n0->n2;n3->n4;n3->n5;n1->n4;n6->n0;n6->n3;\n" + sizes(rng, n[6:7]))
    write("clusters-nested", "subgraph cluster_outer {label=" + table(80, 11) + ";\n" + sizes(rng, n[:2])
          + "subgraph cluster_inner {label=" + table(40, 11) + ";\n" + sizes(rng, n[2:5]) + "}\n}\n"
          + sizes(rng, n[5:7]) + "n0->n2;n2->n3;n2->n4;n1->n4;n5->n0;n4->n6;n3->n6;\n")
    write("lr-tree", sizes(rng, n[:9]) + "".join(f"n{(i - 1) // 2}->n{i};\n" for i in range(1, 9)), "rankdir=LR;\n")
    write("lr-cluster", "subgraph cluster_a {label=" + table(50, 11) + ";\n" + sizes(rng, n[:3]) + "}\n" + sizes(rng, n[3:5])
          + "n0->n1;n0->n2;n3->n0;n2->n4;n1->n4;\n", "rankdir=LR;\n")
    write("bt-tree", sizes(rng, n[:7]) + "".join(f"n{(i - 1) // 2}->n{i};\n" for i in range(1, 7)), "rankdir=BT;\n")
    write("rl-tree", sizes(rng, n[:7]) + "".join(f"n{(i - 1) // 2}->n{i};\n" for i in range(1, 7)), "rankdir=RL;\n")
    for seed in range(8):
        r = random.Random(seed)
        count = r.randint(6, 30)
        body = sizes(r, n[:count])
        for i in range(1, count):
            body += f"n{max(0, i - 1 - r.randrange(5))}->n{i};\n"
        for _ in range(count // 3):
            body += f"n{r.randrange(count)}->n{r.randrange(count)};\n"
        write(f"random-{seed}", body)


if __name__ == "__main__":
    main()
