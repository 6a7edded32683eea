import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A temp project (with a symlink escaping it), a fake home and $SOUS_HOME; `cleanup` removes it all. */
export interface TempProject {
  base: string
  root: string
  home: string
  sousHome: string
  outside: string
  cleanup(): void
}

/** Creates the temp layout tests share. */
export function makeTempProject(settings?: unknown): TempProject {
  const base = mkdtempSync(join(tmpdir(), 'sous-gov-'))
  const root = join(base, 'project')
  const home = join(base, 'home')
  const sousHome = join(base, 'sous-home')
  const outside = join(base, 'outside')
  for (const d of [root, join(root, 'src'), join(root, '.claude'), join(root, 'secrets'), home, sousHome, outside]) mkdirSync(d, { recursive: true })
  writeFileSync(join(root, 'src', 'a.ts'), 'export {}\n')
  writeFileSync(join(root, 'README.md'), '# x\n')
  writeFileSync(join(root, '.env'), 'TOKEN=1\n')
  writeFileSync(join(outside, 'secret.txt'), 'secret\n')
  symlinkSync(outside, join(root, 'link-out'))
  if (settings !== undefined) writeFileSync(join(root, '.claude', 'settings.json'), JSON.stringify(settings, null, 2))
  return { base, root, home, sousHome, outside, cleanup: () => rmSync(base, { recursive: true, force: true }) }
}
