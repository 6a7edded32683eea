import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * Not a test: renders the README's picture of the context view (a session that read a dozen
 * files, was compacted on request and went on).
 *   SOUS_CONTEXT_SCREENSHOT=docs/context.png npx playwright test e2e/context-screenshot.spec.ts --project=chromium
 */
const target = process.env.SOUS_CONTEXT_SCREENSHOT

test.skip(!target, 'Set SOUS_CONTEXT_SCREENSHOT=<file.png> to render the context view screenshot.')

/** A source file of about `lines` lines. */
function source(name: string, lines: number): string {
  return Array.from({ length: lines }, (_, index) => `export function ${name}Step${index}(input: string): string { return input.trim().toLowerCase() + ${index} }`).join('\n')
}

test('context view screenshot', async ({ app, projectDir, modelServer, host }) => {
  test.skip(host !== 'browser', 'The screenshot is taken in Chromium.')
  const project = join(projectDir, 'parser')
  await mkdir(join(project, 'src'), { recursive: true })
  await writeFile(join(project, 'CLAUDE.md'), '# Parser\n\nRun `npm test` after every change. Keep functions small.\n')
  const names = ['lexer', 'tokens', 'grammar', 'ast', 'printer', 'errors', 'spans', 'cli', 'config', 'cache']
  for (const name of names) await writeFile(join(project, 'src', `${name}.ts`), source(name, 260))
  const read = (name: string, index: number) => ({ reply: { content: [{ type: 'tool_use', id: `toolu_read_${index}`, name: 'Read', input: { file_path: join(project, 'src', `${name}.ts`) } }] } })
  await modelServer.setScenario([
    ...names.slice(0, 8).map(read),
    { reply: { content: [{ type: 'text', text: 'I have read the lexer, grammar and printer; the spans are off by one in `spans.ts`.' }] } },
    { reply: { content: [{ type: 'text', text: '<analysis>Reviewing.</analysis>\n<summary>\n1. Primary request: find why error spans are off by one.\n8. Current work: spans.ts computes end offsets exclusively.\n</summary>' }] } },
    ...names.slice(8).map((name, index) => read(name, 8 + index)),
    { reply: { content: [{ type: 'text', text: 'The config and cache modules do not touch spans.' }] } },
  ])
  await app.setViewportSize({ width: 1280, height: 900 })
  await openByPath(app, project)
  const input = app.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' })
  const log = app.getByRole('region', { name: 'Chat' }).getByRole('log', { name: 'Conversation' })
  await input.fill('Why are the error spans off by one? Read the sources.')
  await input.press('Enter')
  await expect(log).toContainText('the spans are off by one')
  await input.fill('/compact keep the span findings')
  await input.press('Enter')
  await expect(log).toContainText('Compacted (summary on request)')
  await input.fill('Do config or cache touch spans?')
  await input.press('Enter')
  await expect(log).toContainText('do not touch spans')
  await app.getByRole('button', { name: /^Context used: / }).click()
  const view = app.getByRole('dialog', { name: 'Context' })
  await expect(view.getByRole('table', { name: 'Compactions in this session' })).toContainText('Summary on request (you)')
  await app.mouse.move(0, 0)
  await app.screenshot({ path: resolve(target ?? 'context.png') })
})
