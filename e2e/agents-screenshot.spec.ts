import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { expect, test } from './fixtures'
import { openTrusted } from './support/app'

/**
 * Not a test: renders the README's picture of the agent tree (the main agent at work, a project's
 * reviewer agent done with two Explore agents of its own nested under it, a background agent
 * still running).
 *   SOUS_AGENTS_SCREENSHOT=docs/agents.png npx playwright test e2e/agents-screenshot.spec.ts --project=chromium
 */
const target = process.env.SOUS_AGENTS_SCREENSHOT

test.skip(!target, 'Set SOUS_AGENTS_SCREENSHOT=<file.png> to render the agent tree screenshot.')

const agent = (id: string, input: Record<string, unknown>) => ({ type: 'tool_use', id, name: 'Agent', input })
const text = (value: string) => ({ type: 'text', text: value })
// The last two requests (the main agent after starting the background agent, and the background
// agent's first) race, so both get the same slow, long reply: both are still running in the picture.
const stillWorking = {
  reply: { content: [text(`The review is in, and the test suite runs in the background. Meanwhile I am making the expiry warning skip items without a date. ${'Checking each caller of addItem. '.repeat(60)}`)] },
  chunkSize: 4,
  delayMs: 200,
}

test('agent tree screenshot', async ({ app, projectDir, modelServer, host }) => {
  test.skip(host !== 'browser', 'The screenshot is taken in Chromium.')
  const project = join(projectDir, 'pantry')
  await mkdir(join(project, 'src'), { recursive: true })
  await mkdir(join(project, '.claude', 'agents'), { recursive: true })
  await writeFile(join(project, 'src', 'items.ts'), 'export const items: string[] = []\n')
  await writeFile(
    join(project, '.claude', 'agents', 'reviewer.md'),
    '---\nname: reviewer\ndescription: Reviews a change for bugs and missing tests\ntools: Read, Grep, Glob, Agent\n---\nYou review changes. Send Explore agents to gather facts, then report the problems you found.\n',
  )
  await modelServer.setScenario([
    { reply: { content: [text('I will have the reviewer look at the expiry change first.'), agent('toolu_review', { description: 'Review the expiry change', prompt: 'Review the expiry change in src/items.ts.', subagent_type: 'reviewer' })] } },
    // The reviewer starts two Explore agents at once; their replies are interchangeable.
    {
      reply: {
        content: [
          agent('toolu_callers', { description: 'Find the callers of addItem', prompt: 'List every caller of addItem.', subagent_type: 'Explore' }),
          agent('toolu_tests', { description: 'Read the date tests', prompt: 'Summarise the tests of item dates.', subagent_type: 'Explore' }),
        ],
      },
    },
    { reply: { content: [text('Found what was asked: three places, listed with their lines.')] } },
    { reply: { content: [text('Found what was asked: two places, listed with their lines.')] } },
    { reply: { content: [text('One problem: items without an expiry date are warned about as if they expired today.')] } },
    { reply: { content: [agent('toolu_suite', { description: 'Run the test suite', prompt: 'Run the whole test suite and report failures.', run_in_background: true })] } },
    stillWorking,
    stillWorking,
  ])
  // Tall enough for the Agents panel (a quarter of the sidebar) to hold the whole tree.
  await app.setViewportSize({ width: 1440, height: 1600 })
  await openTrusted(app, project)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Review the expiry change, then run the tests while you fix what the review finds.')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  const tree = app.getByRole('tree', { name: 'Agent tree' })
  await expect(tree.getByRole('treeitem', { name: 'reviewer: Review the expiry change — Done' })).toBeVisible()
  await expect(tree.getByRole('treeitem', { name: 'Explore: Find the callers of addItem — Done' })).toHaveAttribute('aria-level', '3')
  await expect(tree.getByRole('treeitem', { name: 'Explore: Read the date tests — Done' })).toBeVisible()
  await expect(tree.getByRole('treeitem', { name: 'general-purpose: Run the test suite — Running' })).toBeVisible()
  await expect(chat.getByLabel('Assistant').last()).toContainText('Checking each caller')
  // A few seconds of elapsed time on the running nodes.
  await app.waitForTimeout(3000)
  await app.mouse.move(0, 0)
  // The sidebar and the conversation; the empty terminal is left out.
  const box = await chat.boundingBox()
  await app.screenshot({ path: resolve(target ?? 'agents.png'), clip: { x: 0, y: 0, width: Math.ceil((box?.x ?? 0) + (box?.width ?? 1440) + 10), height: 1600 } })
})
