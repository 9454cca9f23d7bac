#!/usr/bin/env bash
# Runs the eval tasks against a real Claude Code agent with the pack loaded
# and records each run as a trajectory the eval checker can judge:
#   run-live.sh OUT_DIR [CATEGORY]
# then: PUML_EVALS_LIVE_DIR=OUT_DIR cargo test -p puml-agent-evals --test live
set -euo pipefail
out=${1:?usage: run-live.sh OUT_DIR [CATEGORY]}
only=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
pack=$(cd "$here/../.." && pwd)
command -v claude >/dev/null || { echo "run-live.sh: claude is not on PATH" >&2; exit 127; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

for file in "$here"/*/*.json; do
  category=$(basename "$(dirname "$file")")
  id=$(basename "$file" .json)
  [ -z "$only" ] || [ "$only" = "$category" ] || continue
  [ "$category" = security_adversarial ] && continue   # recorded only: the attacks are scripted steps
  ws=$(mktemp -d)
  python3 - "$file" "$ws" <<'PY'
import json, os, sys
e = json.load(open(sys.argv[1]))
for rel, text in e.get("workspace", {}).items():
    p = os.path.join(sys.argv[2], rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write(text)
PY
  task=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["task"])' "$file")
  echo "== $category/$id"
  (cd "$ws" && claude -p "$task" --plugin-dir "$pack" --output-format stream-json --verbose \
      --permission-mode acceptEdits > "$out/$category--$id.jsonl" 2> "$out/$category--$id.stderr") || true
  python3 - "$out/$category--$id.jsonl" "$out/$category--$id.json" <<'PY'
import json, re, sys
steps, answer = [], ""
for line in open(sys.argv[1]):
    try:
        ev = json.loads(line)
    except ValueError:
        continue
    if ev.get("type") == "assistant":
        for block in ev.get("message", {}).get("content", []):
            if block.get("type") == "tool_use" and "__puml_" in block.get("name", ""):
                steps.append({"tool": "puml_" + block["name"].split("__puml_", 1)[1], "arguments": block.get("input", {})})
    if ev.get("type") == "result":
        answer = ev.get("result", "")
blocks = re.findall(r"```(?:plantuml|puml)?\n(@startuml.*?@enduml\n?)```", answer, re.S)
json.dump({"steps": steps, "answer": {"source": blocks[-1] if blocks else None, "text": answer}}, open(sys.argv[2], "w"), indent=2)
print(f"   {len(steps)} puml calls, {'a diagram' if blocks else 'no diagram'} in the answer")
PY
  rm -rf "$ws"
done
