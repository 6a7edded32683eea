import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expandGlob } from '../glob-expand'
import { optionTable, parseArgs } from '../options'
import { describeCommand } from '.'
import { unsafeSedScript } from './sed-script'

describe('parseArgs', () => {
  const table = optionTable({ flag: ['-l', '-a', '--all'], value: ['-n', '--lines'], write: ['-o', '--output'], exec: ['--pre'] })

  it('reads bundles, attached and separate values, abbreviations and --', () => {
    const parsed = parseArgs(['x', '-la', '-n5', '--lines', '7', '--out=f', 'op', '--', '-o'], 1, table)
    expect(parsed.options.map((o) => [o.name, o.kind, o.value])).toEqual([
      ['-l', 'flag', undefined], ['-a', 'flag', undefined], ['-n', 'value', '5'], ['--lines', 'value', '7'], ['--output', 'write', 'f'],
    ])
    expect(parsed.operands).toEqual([6, 8])
  })

  it('marks what it does not know, and a flag given a value', () => {
    expect(parseArgs(['x', '-lz'], 1, table).options.at(-1)).toEqual({ name: '-z', kind: 'unknown' })
    expect(parseArgs(['x', '--all=yes'], 1, table).options[0]?.kind).toBe('unknown')
    expect(parseArgs(['x', '--pr'], 1, { ...table, abbreviations: false }).options[0]?.kind).toBe('unknown')
  })
})

describe('describeCommand', () => {
  it.each([
    [['git', 'grep', '--open-files-in-pager=sh', 'x'], false, 'git grep --open-files-in-pager'],
    [['git', '-c', 'core.pager=x', 'log'], false, undefined],
    [['rg', '--pre', 'sh', 'x'], false, 'rg --pre'],
    [['find', '.', '-exec', 'cat', '{}', ';'], false, 'find -exec'],
    [['sort', '-o', 'x', 'y'], false, undefined],
    [['git', 'log', '--oneline', '-5'], true, undefined],
    [['sed', '-n', '1p', 'f'], true, undefined],
  ] as const)('%j → read-only %s', (argv, readOnly, runsProgram) => {
    const facts = describeCommand(argv)
    expect(facts.readOnly).toBe(readOnly)
    expect(facts.runsProgram).toBe(runsProgram)
  })

  it('takes path-valued options as paths whatever they start with', () => {
    expect(describeCommand(['sort', '--output=sub/../../x', 'y']).paths).toContainEqual({ index: 1, from: 9, write: true })
    expect(describeCommand(['tar', '-xf', 'a.tar', '-C', 'dir']).paths).toContainEqual({ index: 4, from: 0, write: true })
  })
})

describe('unsafeSedScript', () => {
  it.each(['p', '1,5p', 's/a/b/g', '/x/{p;q}', 'y/ab/cd/', '$!N;P;D', ':a;N;ba', 's|/|-|g', '1i\\\nhello', '# c\np'])('%j is safe', (script) => {
    expect(unsafeSedScript(script)).toBeUndefined()
  })

  it.each(['e id', 's/a/b/e', 's/a/b/w /tmp/x', 'w out', '1W x', 'r /etc/passwd', 'R x', 's/[/]/g#/w /tmp/f', 's/a/b/gx', 'k', 's/unterminated'])('%j is not', (script) => {
    expect(unsafeSedScript(script)).toBeDefined()
  })
})

describe('expandGlob', () => {
  it('matches as bash does: no leading dot for *, [!x] negates, only what exists', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sous-glob-'))
    try {
      for (const name of ['secrets', 'src', '.env', 'a.ts']) mkdirSync(join(dir, name === 'a.ts' || name === '.env' ? '' : name), { recursive: true })
      writeFileSync(join(dir, '.env'), '')
      writeFileSync(join(dir, 'a.ts'), '')
      writeFileSync(join(dir, 'secrets', 'key'), '')
      const paths = (value: string, shape = value) => expandGlob(value, shape, dir)?.map((match) => match.path).sort()
      expect(paths('*')).toEqual([`${dir}/a.ts`, `${dir}/secrets`, `${dir}/src`])
      expect(paths('.e*')).toEqual([`${dir}/.env`])
      expect(paths('s*/k*')).toEqual([`${dir}/secrets/key`])
      expect(paths('[!s]*')).toEqual([`${dir}/a.ts`])
      expect(paths('s*/nothing')).toEqual([])
      expect(paths('s*/key')).toEqual([`${dir}/secrets/key`])
      // A quoted star is a star, not a glob.
      expect(paths('*', '\0')).toEqual([`${dir}/*`])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
