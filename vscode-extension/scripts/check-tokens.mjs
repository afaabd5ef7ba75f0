// Checks the TextMate grammar against gdef's real scanner, token by token, over the examples.
//
// gdef's scanner (run through scripts/scan_tokens.py with $GDEF_PYTHON, default python3) says
// what every piece of each file is: keyword, number, built-in name, comment...; this script
// tokenizes the same files with the grammar as VS Code does and fails on every token the
// grammar colours as something else. Hand-written cases live in test/grammar/ instead.
//
//   node scripts/check-tokens.mjs [FILE.gdef ...]   (default: ../examples/**/*.gdef, test/grammar/*.gdef)
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import oniguruma from 'vscode-oniguruma';
import textmate from 'vscode-textmate';

const here = dirname(fileURLToPath(import.meta.url));
const extensionDir = resolve(here, '..');
const require = createRequire(import.meta.url);

// What the grammar must say about each kind of token of the scanner (a scope prefix).
const EXPECTED_BY_TYPE = {
  DEFINE: 'storage.type.function.gdef',
  RETURN: 'keyword.control.gdef',
  IF: 'keyword.control.gdef',
  ELSE: 'keyword.control.gdef',
  WHILE: 'keyword.control.gdef',
  START: 'keyword.other.start.gdef',
  USE: 'keyword.control.import.gdef',
  TRUE: 'constant.language.boolean.gdef',
  FALSE: 'constant.language.boolean.gdef',
  TYPE: 'storage.type.gdef',
  OBJ: 'storage.type',
  INT: 'constant.numeric',
  FLOAT: 'constant.numeric.float.gdef',
  STRING: 'string.quoted.double.gdef',
  ARROW: 'keyword.operator.arrow.gdef',
  OROR: 'keyword.operator.logical.gdef',
  ANDAND: 'keyword.operator.logical.gdef',
  BANG: 'keyword.operator.logical.gdef',
  EQEQ: 'keyword.operator.comparison.gdef',
  NEQ: 'keyword.operator.comparison.gdef',
  LE: 'keyword.operator.comparison.gdef',
  GE: 'keyword.operator.comparison.gdef',
  LT: 'keyword.operator.comparison.gdef',
  GT: 'keyword.operator.comparison.gdef',
  EQUAL: 'keyword.operator.assignment.gdef',
  PLUS: 'keyword.operator.arithmetic.gdef',
  MINUS: 'keyword.operator.arithmetic.gdef',
  STAR: 'keyword.operator.arithmetic.gdef',
  SLASH: 'keyword.operator.arithmetic.gdef',
  PERCENT: 'keyword.operator.arithmetic.gdef',
  COLON: 'punctuation.separator.key-value.gdef',
  SEMICOLON: 'punctuation.terminator.statement.gdef',
  COMMA: 'punctuation.separator.comma.gdef',
};
const EXPECTED_BY_BUILTIN = {
  value: 'constant.language.empty.gdef',
  board: 'variable.language.board.gdef',
  function: 'support.function.builtin.gdef',
};
const PARAMETER = 'support.type.property-name.parameter.gdef';
// `size: n x n`: each side a number or a parameter's name, then the `x` between them.
const SIDES = /^([0-9]+|[A-Za-z_][A-Za-z0-9_]*)([ \t]*x[ \t]*)([0-9]+|[A-Za-z_][A-Za-z0-9_]*)$/;
// A plain identifier must be coloured as a name, never as a keyword, built-in or comment.
const IDENTIFIER = /^(variable\.(other|parameter)|entity\.name)\./;

function gdefFiles(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      return gdefFiles(path);
    }
    return path.endsWith('.gdef') ? [path] : [];
  });
}

async function loadGrammar() {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.gdef') {
        return null;
      }
      const path = join(extensionDir, 'syntaxes', 'gdef.tmLanguage.json');
      return textmate.parseRawGrammar(readFileSync(path, 'utf8'), path);
    },
  });
  return registry.loadGrammar('source.gdef');
}

/** For each line, the scopes of each UTF-16 offset, as VS Code would colour them. */
function scopesByLine(grammar, text) {
  let stack = textmate.INITIAL;
  return text.split('\n').map((line) => {
    const result = grammar.tokenizeLine(line, stack);
    stack = result.ruleStack;
    const scopes = new Array(line.length);
    for (const token of result.tokens) {
      for (let i = token.startIndex; i < Math.min(token.endIndex, line.length); i++) {
        scopes[i] = token.scopes;
      }
    }
    return { line, scopes };
  });
}

/** The scanner counts columns in code points; the grammar in UTF-16 units. */
function utf16Column(line, codePoints) {
  return Array.from(line).slice(0, codePoints).join('').length;
}

function checkFile(grammar, scanned, failures) {
  const text = readFileSync(scanned.path, 'utf8').replace(/\r\n/g, '\n');
  const lines = scopesByLine(grammar, text);
  const name = relative(process.cwd(), scanned.path);
  let checked = 0;
  const fail = (lineNo, column, what, expected, scopes) => {
    failures.push(`${name}:${lineNo + 1}:${column + 1}: ${what}: expected ${expected}, ` +
      `the grammar says ${JSON.stringify((scopes ?? []).slice(1))}`);
  };
  const charsOf = (lineNo, from, to) => {
    const { line, scopes } = lines[lineNo];
    const start = utf16Column(line, from);
    const end = utf16Column(line, to);
    const chars = [];
    for (let i = start; i < end; i++) {
      chars.push({ column: i, scopes: scopes[i] ?? [] });
    }
    return chars;
  };
  const isComment = (scopes) => scopes.some((s) => s.startsWith('comment.'));

  // Every character of every comment is a comment.
  for (const comment of scanned.comments) {
    for (let lineNo = comment.line; lineNo <= comment.endLine; lineNo++) {
      const from = lineNo === comment.line ? comment.column : 0;
      const to = lineNo === comment.endLine ? comment.endColumn : Array.from(lines[lineNo].line).length;
      const bad = charsOf(lineNo, from, to).find((c) => !isComment(c.scopes));
      checked++;
      if (bad) {
        fail(lineNo, bad.column, 'comment', 'comment.*', bad.scopes);
      }
    }
  }

  const tokens = scanned.tokens;
  let startDepth = 0; // inside `start { ... }`, `x: O` is a square, not a game parameter
  let showDepth = 0; // inside `show { ... }`, `key:` is a presentation key, not a game parameter
  let inParam = false; // in `param TYPE name = ... in ... to ...;`: `in` and `to` are words
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const chars = charsOf(token.line, token.column, token.endColumn);
    checked++;
    const commented = chars.find((c) => isComment(c.scopes));
    if (commented) {
      fail(token.line, commented.column, `'${token.value}' (${token.type})`, 'code, not a comment', commented.scopes);
      continue;
    }
    if (token.type === 'START') {
      startDepth = 1;
    } else if (startDepth > 0 && token.type === 'RBRACE') {
      startDepth = 0;
    } else if (token.type === 'NAME' && token.value === 'show' && tokens[i + 1]?.type === 'LBRACE') {
      showDepth = 1;
    } else if (showDepth > 0 && token.type === 'RBRACE') {
      showDepth = 0;
    }
    if (token.type === 'NAME' && token.value === 'param' && ['TYPE', 'OBJ'].includes(tokens[i + 1]?.type)) {
      inParam = true;
    } else if (token.type === 'SEMICOLON') {
      inParam = false;
    }
    let expected;
    if (token.type === 'NAME') {
      if (inParam && token.value === 'param' && ['TYPE', 'OBJ'].includes(tokens[i + 1]?.type)) {
        expected = 'storage.modifier.param.gdef';
      } else if (inParam && ['in', 'to'].includes(token.value) && tokens[i - 1]?.type !== 'TYPE') {
        expected = 'keyword.other.domain.gdef';
      } else if (token.builtin) {
        expected = EXPECTED_BY_BUILTIN[token.builtin];
      } else if (showDepth > 0 && tokens[i + 1]?.type === 'COLON') {
        expected = 'variable.other.property.gdef';
      } else if (startDepth === 0 && tokens[i + 1]?.type === 'COLON') {
        expected = PARAMETER;
      } else {
        const bad = chars.find((c) => !c.scopes.slice(1).some((s) => IDENTIFIER.test(s)));
        if (bad) {
          fail(token.line, bad.column, `name '${token.value}'`, 'an identifier scope (variable.* or entity.name.*)', bad.scopes);
        }
        continue;
      }
    } else if (token.type === 'DIMS') {
      const [, width, gap, height] = SIDES.exec(token.value);
      const sides = [[0, width], [width.length + gap.length, height]];
      const times = chars.filter((c, k) => k >= width.length && k < width.length + gap.length && lines[token.line].line[c.column] === 'x');
      for (const [offset, side] of sides) {
        const want = /^[0-9]/.test(side) ? 'constant.numeric' : 'variable.other';
        const bad = chars.slice(offset, offset + side.length).find((c) => !c.scopes.some((s) => s.startsWith(want)));
        if (bad) {
          fail(token.line, bad.column, `size '${token.value}'`, want, bad.scopes);
        }
      }
      for (const c of times) {
        if (!c.scopes.includes('keyword.operator.dimension.gdef')) {
          fail(token.line, c.column, `size '${token.value}'`, 'keyword.operator.dimension.gdef', c.scopes);
        }
      }
      continue;
    } else if (token.type === 'INT' && /^0[0-9]/.test(token.value)) {
      expected = 'invalid.illegal.numeric'; // leading zeros: the checker reports them
    } else {
      expected = EXPECTED_BY_TYPE[token.type];
    }
    if (!expected) {
      continue; // brackets and braces: any punctuation scope will do
    }
    const bad = chars.find((c) => !c.scopes.some((s) => s.startsWith(expected)));
    if (bad) {
      fail(token.line, bad.column, `'${token.value}' (${token.type})`, expected, bad.scopes);
    }
  }
  return checked;
}

async function main() {
  const args = process.argv.slice(2);
  const files = args.length > 0
    ? args
    : [...gdefFiles(resolve(extensionDir, '..', 'examples')), ...gdefFiles(join(extensionDir, 'test', 'grammar'))];
  if (files.length === 0) {
    console.error('check-tokens: no .gdef files to check');
    process.exit(1);
  }
  const python = process.env.GDEF_PYTHON || 'python3';
  let scanned;
  try {
    const out = execFileSync(python, [join(here, 'scan_tokens.py'), ...files], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    scanned = JSON.parse(out);
  } catch (error) {
    console.error(`check-tokens: could not run gdef's scanner with ${python} (set GDEF_PYTHON to a Python where gdef is installed): ${error.message}`);
    process.exit(1);
  }
  const grammar = await loadGrammar();
  const failures = [];
  let checked = 0;
  for (const file of scanned) {
    checked += checkFile(grammar, file, failures);
  }
  for (const failure of failures) {
    console.error(failure);
  }
  console.log(`check-tokens: ${files.length} files, ${checked} tokens and comment lines compared with gdef's scanner, ${failures.length} disagreements`);
  process.exit(failures.length > 0 ? 1 : 0);
}

await main();
