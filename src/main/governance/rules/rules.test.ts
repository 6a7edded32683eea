import { describe, expect, it } from 'vitest'
import { bashPatternMatches } from './bash-pattern'
import { domainMatches } from './domain'
import { isAllowableToolGlob, parseRule, toolNameMatches } from './parse'
import { compilePathPattern, pathPatternMatches } from './path-pattern'

describe('parseRule', () => {
  it.each([
    ['Bash', { kind: 'tool', tool: 'Bash' }],
    ['Bash(*)', { kind: 'tool', tool: 'Bash' }],
    ['Bash(npm run test:*)', { kind: 'bash', tool: 'Bash', pattern: 'npm run test:*' }],
    ['Read(./.env)', { kind: 'path', tool: 'Read', pattern: './.env' }],
    ['Edit(src/**)', { kind: 'path', tool: 'Edit', pattern: 'src/**' }],
    ['WebFetch(domain:Example.COM.)', { kind: 'domain', tool: 'WebFetch', domain: 'example.com' }],
    ['mcp__server__*', { kind: 'tool', tool: 'mcp__server__*' }],
    ['Agent(Explore)', { kind: 'agent', tool: 'Agent', agentType: 'Explore' }],
    ['Skill(deploy)', { kind: 'skill', tool: 'Skill', pattern: 'deploy' }],
    ['Skill(review-pr *)', { kind: 'skill', tool: 'Skill', pattern: 'review-pr' }],
    ['Skill(db-*)', { kind: 'skill', tool: 'Skill', pattern: 'db-*' }],
  ])('%s', (text, rule) => {
    expect(parseRule(text)).toEqual({ ok: true, rule })
  })

  it.each(['Bash(ls', 'Ba sh', 'Write(src/**)', 'WebFetch(url:x)', '', 'Skill(a b)'])('rejects %j', (text) => {
    expect(parseRule(text).ok).toBe(false)
  })
})

describe('bash patterns', () => {
  it.each([
    ['ls *', 'ls', true], ['ls *', 'ls -la', true], ['ls *', 'lsof', false], ['ls*', 'lsof', true],
    ['npm run test:*', 'npm run test', true], ['npm run test:*', 'npm run test -- x', true], ['npm run test:*', 'npm run test:unit', false],
    ['git * main', 'git checkout main', true], ['git * main', 'git checkout main2', false], ['* --version', 'node --version', true],
    ['git status', 'git status', true], ['git status', 'git status x', false], ['foo:*bar', 'foo:xbar', true],
  ])('%s vs %s → %s', (pattern, text, expected) => {
    expect(bashPatternMatches(pattern, text)).toBe(expected)
  })
})

describe('path patterns', () => {
  const bases = { sourceRoot: '/p', cwd: '/p', home: '/h' }
  const m = (pattern: string, path: string, allow = false) => pathPatternMatches(compilePathPattern(pattern, bases, allow), path)
  it('anchors ./ and / at the project, // at the root, ~ at home', () => {
    expect(m('./.env', '/p/.env')).toBe(true)
    expect(m('./.env', '/p/sub/.env')).toBe(false)
    expect(m('/src/**/*.ts', '/p/src/a/b.ts')).toBe(true)
    expect(m('//etc/passwd', '/etc/passwd')).toBe(true)
    expect(m('~/.ssh/**', '/h/.ssh/id_rsa')).toBe(true)
  })
  it('matches slash-less patterns at any depth and directories with their contents', () => {
    expect(m('.env', '/p/a/b/.env')).toBe(true)
    expect(m('*.key', '/p/x/y.key')).toBe(true)
    expect(m('./secrets', '/p/secrets/a/b')).toBe(true)
    expect(m('build/', '/p/build/x')).toBe(true)
  })
  it('single-segment directory patterns: only at the root for allow, any depth for deny', () => {
    expect(m('src/**', '/p/pkg/src/a.ts', true)).toBe(false)
    expect(m('src/**', '/p/src/a.ts', true)).toBe(true)
    expect(m('src/**', '/p/pkg/src/a.ts', false)).toBe(true)
  })
})

describe('domains and tool names', () => {
  it.each([
    ['example.com', 'example.com', true], ['example.com', 'EXAMPLE.com.', true], ['example.com', 'a.example.com', false],
    ['*.example.com', 'a.b.example.com', true], ['*.example.com', 'example.com', false], ['example.*', 'example.org', true],
    ['example.*', 'example.evil.com', false],
  ])('%s vs %s', (p, h, e) => expect(domainMatches(p, h)).toBe(e))

  it('matches MCP names and limits allow globs', () => {
    expect(toolNameMatches('mcp__srv', 'mcp__srv__tool')).toBe(true)
    expect(toolNameMatches('mcp__srv', 'mcp__srv2__tool')).toBe(false)
    expect(toolNameMatches('mcp__srv__*', 'mcp__srv__x')).toBe(true)
    expect(toolNameMatches('mcp__*', 'mcp__a__b')).toBe(true)
    expect(isAllowableToolGlob('mcp__*')).toBe(false)
    expect(isAllowableToolGlob('*')).toBe(false)
    expect(isAllowableToolGlob('mcp__srv__*')).toBe(true)
  })
})
