/**
 * `npm run bench`: runs every `bench/*.bench.ts` (or only those whose name contains an argument)
 * in turn. Each file's default export prints its own figures and ratios.
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const filters = process.argv.slice(2)
const files = readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
  .sort()

for (const name of files) {
  console.log(`\n## ${name.replace('.bench.ts', '')}`)
  const mod = (await import(pathToFileURL(join(here, name)).href)) as { default: () => Promise<void> }
  await mod.default()
}
