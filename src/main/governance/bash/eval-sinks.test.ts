import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MATRIX, MORE_ATTACKS, PAYLOAD, SETTERS, SINKS } from '../../../../test/corpus/evaluating'
import { analyzeBashSync } from './analyze'
import { expandedTextProblem, expansionProblem, isLiteralArithmetic } from './eval-sinks'
import { initBashParser } from './parser'

let base: string
const opts = () => ({ cwd: base, projectRoot: base, home: base })

beforeAll(async () => {
  await initBashParser()
  base = mkdtempSync(join(tmpdir(), 'sous-eval-sinks-'))
})
afterAll(() => rmSync(base, { recursive: true, force: true }))

/** Runs `command` in real bash in a fresh folder; true when the payload's `touch pwned` ran. */
function payloadRuns(command: string, env: Record<string, string> = {}): boolean {
  const dir = mkdtempSync(join(base, 'run-'))
  try {
    execFileSync('bash', ['--noprofile', '--norc', '-c', command], { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, ...env }, stdio: 'ignore', timeout: 10_000 })
  } catch {
    // Many attacks end in an arithmetic error after the payload has run: the marker is what counts.
  }
  return existsSync(join(dir, 'pwned'))
}

describe('evaluating contexts, grounded in real bash', () => {
  it('crosses every implicit setter with every sink', () => {
    expect(MATRIX.length).toBe(SETTERS.length * SINKS.length)
    expect(MATRIX.length + MORE_ATTACKS.length).toBeGreaterThanOrEqual(150)
  })

  it.each([...MATRIX, ...MORE_ATTACKS].map((attack) => [attack.command, attack] as const))('%j runs its payload in bash, and is not read-only', (_command, attack) => {
    expect(payloadRuns(attack.command, attack.env), 'real bash must carry the attack out (else the case proves nothing)').toBe(true)
    const analysis = analyzeBashSync(attack.command, opts())
    expect(analysis.readOnly).toBe(false)
    expect(analysis.problems.length, JSON.stringify(analysis.problems)).toBeGreaterThan(0)
  })

  // What stays read-only with the payload in a variable: bash does not evaluate the value here.
  it.each([
    '[[ -n $x ]] && ls',
    '[[ $x == foo* ]] || ls',
    '[[ $x =~ ^a ]] && ls',
    '[ "$x" -eq 1 ] 2>/dev/null || ls',
    'case "$x" in a*) ls;; esac',
    'cat <<EOF\n$x ${x} ${x:-none}\nEOF\n',
    'for f in "$x"; do ls; done',
    '[[ $? -eq 0 ]] && ls',
    '(( 1 + 2 )) && ls',
  ])('%j does not run the payload in a variable, and stays read-only', (command) => {
    expect(payloadRuns(command, { x: PAYLOAD })).toBe(false)
    const analysis = analyzeBashSync(command, opts())
    expect(analysis.problems).toEqual([])
    expect(analysis.readOnly).toBe(true)
  })
})

// Builtins that evaluate a word: not read-only anyway, but no allow rule (`Bash(test *)`) may cover the code either.
describe('builtins that evaluate their words, grounded in real bash', () => {
  it.each([`test -v '${PAYLOAD}'`, `let '${PAYLOAD}'`, `read '${PAYLOAD}' <<< 1`, `printf -v '${PAYLOAD}' x`, `declare '${PAYLOAD}=1'`, `declare -i x='${PAYLOAD}'`])(
    '%j runs its payload in bash and is a problem',
    (command) => {
      expect(payloadRuns(command)).toBe(true)
      expect(analyzeBashSync(command, opts()).problems.join()).toMatch(/evaluat|variable name/)
    },
  )

  it('leaves their ordinary forms alone', () => {
    for (const command of ['printf "[%s]\\n" x', 'read -r line', 'read -p "ok [y/n]" x', 'test -v PATH', 'let 1+2', 'export PATH="$PATH:/x"', 'mapfile -t lines'])
      expect(analyzeBashSync(command, opts()).problems, command).toEqual([])
  })
})

describe('literal arithmetic', () => {
  it('accepts numbers, operators and the integer specials only', () => {
    for (const ok of ['1+2', ' 0x1f * 2#101 ', '(1 << 3) % 7', '$? + $# + $$ + $!', '"$?"', '${#} + ${#x} + ${#a[@]}', '1 ? 2 : 3', '']) expect(isLiteralArithmetic(ok), ok).toBe(true)
    for (const bad of ['x', '1 + x', '$x', '${x}', '$_', 'a[1]', "'1'", '"1"', '"$x"', '${#a[x]}', '${#a[$x]}', '$(id)', '`id`', '1a', '$-', '$1', '\\x']) expect(isLiteralArithmetic(bad), bad).toBe(false)
    expect(isLiteralArithmetic('1; 2', true)).toBe(true)
    expect(isLiteralArithmetic('1; 2')).toBe(false)
  })

  it('judges the forms of ${…}', () => {
    for (const ok of ['${x}', '${x:-a}', '${x:=a}', '${#x}', '${a[@]}', '${a[1]}', '${x: -1}', '${x:1:2}', '${!}', '${#}', '${x/a/b}', '${x@Q}'])
      expect(expansionProblem(ok), ok).toBeUndefined()
    for (const bad of ['${!x}', '${!x*}', '${!a[@]}', '${x@P}', '${a[x]}', '${a[$x]}', '${x:y}', '${x:1:y}', '${x:$y}', '${ x}', '${'])
      expect(expansionProblem(bad), bad).toBeDefined()
  })

  it('scans expanded text (here-document bodies) for every sink, nested ones too', () => {
    expect(expandedTextProblem('plain $x ${y} ${z:-w} \\$((q))')).toBeUndefined()
    for (const bad of ['$((x))', '$[x]', '${!x}', '${x@P}', '${a[x]}', 'a ${y:-${!x}}', '$(id)', '`id`', '$((1'])
      expect(expandedTextProblem(bad), bad).toBeDefined()
    expect(expandedTextProblem('$((1 + (2)))')).toBeUndefined()
  })
})
