// Tokenizes files with two versions of the grammar and prints the lines whose
// tokens differ, to prove a grammar change leaves other diagrams alone:
//   git show main:editors/vscode/syntaxes/puml.tmLanguage.json > /tmp/old.json
//   node scripts/grammar-diff.js /tmp/old.json syntaxes/puml.tmLanguage.json /path/to/corpus/*.puml
const fs = require('fs');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');
const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
const onigLib = oniguruma.loadWASM(wasm).then(() => ({
  createOnigScanner: (p) => new oniguruma.OnigScanner(p),
  createOnigString: (s) => new oniguruma.OnigString(s),
}));
async function load(file) {
  const registry = new vsctm.Registry({ onigLib, loadGrammar: async () => vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file) });
  return registry.loadGrammar('source.puml');
}
function tokenize(grammar, text) {
  let stack = vsctm.INITIAL;
  return text.split('\n').map((line) => {
    const r = grammar.tokenizeLine(line, stack);
    stack = r.ruleStack;
    return JSON.stringify(r.tokens.map((t) => [t.startIndex, t.scopes]));
  });
}
(async () => {
  const [oldG, newG] = [await load(process.argv[2]), await load(process.argv[3])];
  let files = 0, lines = 0, diffs = 0;
  for (const f of process.argv.slice(4)) {
    const text = fs.readFileSync(f, 'utf8');
    const a = tokenize(oldG, text), b = tokenize(newG, text);
    files++; lines += a.length;
    a.forEach((x, i) => { if (x !== b[i]) { diffs++; if (diffs <= 30) console.log(`${f}:${i + 1}: ${text.split('\n')[i]}\n  old ${x}\n  new ${b[i]}`); } });
  }
  console.log(`${files} files, ${lines} lines, ${diffs} lines tokenized differently`);
})();
