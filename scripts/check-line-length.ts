/**
 * Fails when a tracked source line is longer than 120 characters. Biome's formatter wraps code at
 * 120 but leaves comments, strings and template literals alone, so this catches what it cannot.
 * Run by `npm run lint` (and so by `npm test`).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const MAX = 120
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '*.ts', '*.tsx', '*.mjs', '*.js', '*.sh'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file !== '' && !file.startsWith('node_modules/'))

const long: string[] = []
for (const file of files) {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    continue // listed by git but deleted in the work tree
  }
  text.split('\n').forEach((line, index) => {
    if ([...line].length > MAX) long.push(`${file}:${index + 1}: ${[...line].length} characters`)
  })
}
if (long.length > 0) {
  console.error(`${long.length} lines are longer than ${MAX} characters:\n${long.join('\n')}`)
  process.exit(1)
}
console.log(`line length: ${files.length} files, every line <= ${MAX} characters`)
