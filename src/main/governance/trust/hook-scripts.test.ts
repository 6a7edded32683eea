import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { hookScriptPaths } from './hook-scripts'

const root = mkdtempSync(join(tmpdir(), 'sous-hook-scripts-'))
for (const path of ['.claude/hooks/a.sh', 'scripts/b.py', 'bin/tool', 'conf/rules.json', 'out/started.marker', 'notes.txt']) {
  mkdirSync(join(root, path, '..'), { recursive: true })
  writeFileSync(join(root, path), 'x')
}
afterAll(() => rmSync(root, { recursive: true, force: true }))

const scripts = (command: string, args?: string[]) => hookScriptPaths({ command, args }, root).map((path) => path.slice(root.length + 1)).sort()

describe('hookScriptPaths', () => {
  it.for([
    ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh', ['.claude/hooks/a.sh']],
    ['${CLAUDE_PROJECT_DIR}/.claude/hooks/a.sh --fast', ['.claude/hooks/a.sh']],
    ["python3 'scripts/b.py' && bin/tool|tee log", ['bin/tool', 'scripts/b.py']],
    ['node --config=conf/rules.json RULES=bin/tool x', ['bin/tool', 'conf/rules.json']],
    ['bash ./scripts/not-yet.sh', ['scripts/not-yet.sh']],
    ['"$SOUS_PROJECT_DIR/tools/new"', ['tools/new']],
  ] as const)('finds the project files %s runs', ([command, expected]) => {
    expect(scripts(command)).toEqual([...expected].sort())
  })

  it.for([
    "sed -e 's/a/b/' input",
    '$HOME/bin/x.sh',
    'cat /etc/passwd ../outside.sh',
    'bash "$OTHER/.claude/hooks/a.sh"',
    'echo scripts/*.py',
    'jq .x',
  ])('finds nothing that is not a project file in %s', (command) => {
    expect(scripts(command)).toEqual([])
  })

  it.for(['touch out/started.marker', 'date > notes.txt', 'echo done | tee -a notes.txt', 'cp notes.txt out/started.marker'])(
    'does not count a file %s only writes or reads as data: a hook that creates its marker keeps its trust',
    (command) => {
      expect(scripts(command)).toEqual([])
    },
  )

  it('reads the exec form (command and args) too', () => {
    expect(scripts('python3', ['scripts/b.py', '--x'])).toEqual(['scripts/b.py'])
  })
})
