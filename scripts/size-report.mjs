#!/usr/bin/env node
// Size rules of STYLE.md, measured on the formatted tree: source files over 300 lines and
// functions over 60 lines, each allowed only where a `size-exception:` comment says why.
// Usage: node scripts/size-report.mjs [--json] [DIR...]   (default: src)
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const FILE_LIMIT = 300;
const FUNCTION_LIMIT = 60;
const EXCEPTION = /size-exception:\s*\S/;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    const ok = entry.name.endsWith('.ts') && !/\.(test|fixture)\.ts$/.test(entry.name);
    return ok ? [full] : [];
  });
}

/** The comment text just above a node (its leading trivia). */
function leadingComment(text, node) {
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  return ranges.map((range) => text.slice(range.pos, range.end)).join('\n');
}

function isFunctionLike(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The statement that owns a function (for an arrow in `const x = () => …`, the declaration). */
function owner(node) {
  let current = node;
  while (
    current.parent &&
    (ts.isVariableDeclaration(current.parent) ||
      ts.isVariableDeclarationList(current.parent) ||
      ts.isVariableStatement(current.parent) ||
      ts.isPropertyAssignment(current.parent) ||
      ts.isExportAssignment(current.parent) ||
      ts.isCallExpression(current.parent))
  ) {
    current = current.parent;
    if (ts.isVariableStatement(current)) break;
  }
  return current;
}

export function measure(files) {
  const longFiles = [];
  const longFunctions = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > FILE_LIMIT) {
      const head = text.split('\n').slice(0, 15).join('\n');
      longFiles.push({
        file,
        lines,
        exception: EXCEPTION.test(head) ? head.match(/size-exception:\s*(.*)/)[1] : null,
      });
    }
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (isFunctionLike(node) && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const length = end - start + 1;
        if (length > FUNCTION_LIMIT) {
          const comment = leadingComment(text, owner(node)) + leadingComment(text, node);
          const name =
            node.name?.getText?.() ??
            owner(node).declarationList?.declarations?.[0]?.name?.getText() ??
            '(anonymous)';
          const match = comment.match(/size-exception:\s*(.*)/);
          longFunctions.push({
            file,
            line: start + 1,
            name,
            lines: length,
            exception: match ? match[1].trim() : null,
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { longFiles, longFunctions };
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const dirs = args.filter((arg) => !arg.startsWith('--'));
const files = (dirs.length > 0 ? dirs : ['src']).flatMap(sourceFiles);
const { longFiles, longFunctions } = measure(files);
if (json) {
  console.log(JSON.stringify({ longFiles, longFunctions }, null, 2));
} else {
  const mark = (item) => (item.exception ? `  (exception: ${item.exception})` : '');
  console.log(
    `files over ${FILE_LIMIT} lines: ${longFiles.length} (${longFiles.filter((f) => !f.exception).length} without an exception)`,
  );
  for (const item of longFiles) console.log(`  ${item.lines}  ${item.file}${mark(item)}`);
  console.log(
    `functions over ${FUNCTION_LIMIT} lines: ${longFunctions.length} (${longFunctions.filter((f) => !f.exception).length} without an exception)`,
  );
  for (const item of longFunctions)
    console.log(`  ${item.lines}  ${item.file}:${item.line} ${item.name}${mark(item)}`);
}
