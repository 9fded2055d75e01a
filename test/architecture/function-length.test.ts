/**
 * No production function longer than 100 lines (the project's size rule, issue 21). Every
 * function declaration, method, constructor, accessor, arrow function and function expression under
 * src/ and adapters/ is found with the TypeScript compiler's parser, and its body measured from the
 * line of its opening brace (or, for an arrow's expression body, its first line) to its last line.
 * A function nested in another counts in both. The files that held longer functions when the rule
 * came were listed below with how many, and the list could only shrink; all were split (issue 21),
 * so the list is empty and stays so.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { productionFiles, root } from './sources.js'

const MAX_LINES = 100

/**
 * How many functions over {@link MAX_LINES} each file holds: none since issue 21. Add nothing here:
 * split the function instead.
 */
const KNOWN_LONG_FUNCTIONS: Readonly<Record<string, number>> = {}

/** A function with a body, where it starts and how many lines its body spans. */
interface Measured {
  name: string
  line: number
  lines: number
}

/** A readable name for a function: its own, its variable's or property's, else what it is passed to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  if (node.name !== undefined) return node.name.getText(source)
  const parent = node.parent
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name !== undefined)
    return parent.name.getText(source)
  if (ts.isCallExpression(parent)) return `callback of ${parent.expression.getText(source).slice(0, 40)}`
  return `anonymous ${ts.SyntaxKind[node.kind]}`
}

/** Every function with a body in a source text, with the lines its body spans. */
function measure(text: string, fileName = 'file.ts'): Measured[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true)
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line
  const found: Measured[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const fn = node as ts.FunctionLikeDeclaration & { body: ts.Node }
      found.push({
        name: nameOf(fn, source),
        line: lineOf(fn.getStart(source)) + 1,
        lines: lineOf(fn.body.getEnd()) - lineOf(fn.body.getStart(source)) + 1,
      })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('function length', () => {
  const files = [...productionFiles('src', /\.tsx?$/), ...productionFiles('adapters', /\.tsx?$/)]
  const long = new Map<string, Measured[]>()
  for (const file of files) {
    const over = measure(readFileSync(join(root, file), 'utf8'), file).filter((f) => f.lines > MAX_LINES)
    if (over.length > 0) long.set(file, over)
  }
  const describeAll = (file: string) =>
    (long.get(file) ?? []).map((f) => `${file}:${f.line} ${f.name} (${f.lines} lines)`)

  it('measures every kind of function by its body', () => {
    const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const v${i} = ${i}`).join('\n')
    const text = [
      `function declared() {\n${body(101)}\n}`,
      `const arrow = () => {\n${body(100)}\n}`,
      `const expression = function () {\n${body(102)}\n}`,
      `class C {\n  method() {\n${body(101)}\n  }\n  constructor() {}\n  get value() { return 1 }\n}`,
      `const object = { shorthand() {\n${body(3)}\n}, short: (x: number) =>\n  x + 1 }`,
      `run(async () => {\n${body(101)}\n})`,
      'declare function signature(): void',
    ].join('\n')
    expect(measure(text).map((f) => `${f.name} ${f.lines}`)).toEqual([
      'declared 101',
      'arrow 100',
      'expression 102',
      'method 101',
      'constructor 1',
      'value 1',
      'shorthand 3',
      'short 1',
      'callback of run 101',
    ])
  })

  it(`no function under src/ or adapters/ is longer than ${MAX_LINES} lines, but the known ones`, () => {
    const wrong = [...long.keys()]
      .filter((file) => long.get(file)!.length > (KNOWN_LONG_FUNCTIONS[file] ?? 0))
      .flatMap(describeAll)
    expect(wrong, `split these into functions of at most ${MAX_LINES} lines`).toEqual([])
  })

  it('the list of known long functions only shrinks: each count is what the file holds now', () => {
    const stale = Object.entries(KNOWN_LONG_FUNCTIONS)
      .filter(([file, count]) => (long.get(file)?.length ?? 0) < count)
      .map(([file, count]) => `${file}: ${count} listed, ${long.get(file)?.length ?? 0} now`)
    expect(stale, 'lower (or remove) these counts in KNOWN_LONG_FUNCTIONS').toEqual([])
  })
})
