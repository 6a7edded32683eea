import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath, openTrusted } from './support/app'

// The agent tree through `sous serve` in Chromium, against the scripted model server: a subagent's
// live states (running, waiting for approval, done), its conversation opened read-only (with its
// compactions), stopping a node, and the tree rebuilt from transcripts after a reload.

test('a subagent shows live in the tree, waits for approval there, opens read-only, and is still there after a reload', async ({ app, projectDir, modelServer }) => {
  await writeFile(join(projectDir, 'plan.txt'), 'write the marker\n')
  await modelServer.setScenario([
    // The main agent starts a subagent (foreground: the requests come in this order).
    { reply: { content: [{ type: 'tool_use', id: 'toolu_agent', name: 'Agent', input: { description: 'Write the marker', prompt: 'Write the marker file.' } }] } },
    // The subagent says what it will do and reads (allowed: inside the project), then asks to run a command that changes files.
    { reply: { content: [{ type: 'text', text: 'First the marker file.' }, { type: 'tool_use', id: 'toolu_look', name: 'Read', input: { file_path: join(projectDir, 'plan.txt') } }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_touch', name: 'Bash', input: { command: 'touch marker.txt' } }] } },
    { reply: { content: [{ type: 'text', text: 'The marker is written.' }] } },
    { reply: { content: [{ type: 'text', text: 'The helper wrote the marker.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Have a helper write the marker')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')

  const tree = app.getByRole('tree', { name: 'Agent tree' })
  await expect(tree.getByRole('treeitem', { name: 'general-purpose: Write the marker — Waiting for approval' })).toBeVisible()
  await expect(tree.getByRole('treeitem', { name: /^Main agent: .* — Running$/ })).toBeVisible()
  const approvals = app.getByRole('region', { name: 'Approvals' })
  await expect(approvals).toContainText('touch marker.txt')
  await approvals.getByRole('button', { name: 'Allow once' }).click()

  const helper = tree.getByRole('treeitem', { name: 'general-purpose: Write the marker — Done' })
  await expect(helper).toBeVisible()
  await expect(helper).toHaveAttribute('aria-level', '2')
  await expect(tree.getByRole('treeitem', { name: /^Main agent: .* — Idle$/ })).toBeVisible()
  await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant').last()).toContainText('The helper wrote the marker.')
  expect(existsSync(join(projectDir, 'marker.txt'))).toBe(true)
  // The main conversation shows the Agent call and its result, not the subagent's own tool calls.
  await expect(chat.getByRole('log', { name: 'Conversation' })).toContainText('The marker is written.')
  await expect(chat.getByRole('log', { name: 'Conversation' })).not.toContainText('touch marker.txt')

  await helper.getByRole('button', { name: 'Open the conversation of general-purpose: Write the marker' }).click()
  const conversation = app.getByRole('dialog', { name: 'Conversation of general-purpose: Write the marker' })
  const entries = conversation.getByRole('list', { name: 'Agent conversation' })
  await expect(entries).toContainText('Write the marker file.')
  await expect(entries).toContainText('Bash touch marker.txt')
  await expect(entries).toContainText('The marker is written.')
  // In the order it happened: the text the reply began with, then its tool call, named once.
  const items = await entries.getByRole('listitem').allTextContents()
  const said = items.findIndex((item) => item.includes('First the marker file.'))
  const read = items.findIndex((item) => item.includes(`Read ${join(projectDir, 'plan.txt')}`))
  expect(said).toBeGreaterThan(-1)
  expect(read).toBe(said + 1)
  expect(items.findIndex((item) => item.includes('Bash touch marker.txt'))).toBeGreaterThan(read)
  expect(items.filter((item) => item.includes('First the marker file.'))).toHaveLength(1)
  expect(items.join('\n')).not.toContain('Read Read')
  await expect(conversation.getByRole('textbox')).toHaveCount(0)
  await conversation.getByRole('button', { name: 'Close' }).click()

  // A fresh window: the tree comes back from the transcripts.
  await app.reload()
  await openByPath(app, projectDir)
  await app.getByRole('region', { name: 'Sessions' }).getByRole('button', { name: 'Open session Have a helper write the marker' }).click()
  await expect(app.getByRole('tree', { name: 'Agent tree' }).getByRole('treeitem', { name: 'general-purpose: Write the marker — Done' })).toBeVisible()
  expect((await modelServer.recorded()).failures).toEqual([])
})

test('stopping a running subagent from the tree stops it, and the main agent goes on', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_slow', name: 'Agent', input: { description: 'Slow survey', prompt: 'Survey everything slowly.', subagent_type: 'Explore' } }] } },
    // Streams for about a minute unless stopped.
    { reply: { content: [{ type: 'text', text: 'Surveying… '.repeat(120) }] }, chunkSize: 11, delayMs: 500 },
    { reply: { content: [{ type: 'text', text: 'The survey was stopped.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Survey the project')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')

  const tree = app.getByRole('tree', { name: 'Agent tree' })
  const survey = tree.getByRole('treeitem', { name: 'Explore: Slow survey — Running' })
  await expect(survey).toBeVisible()
  await survey.getByRole('button', { name: 'Stop Explore: Slow survey' }).click()
  await expect(tree.getByRole('treeitem', { name: 'Explore: Slow survey — Stopped' })).toBeVisible()
  await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant').last()).toContainText('The survey was stopped.')
  await expect(tree.getByRole('treeitem', { name: /^Main agent: .* — Idle$/ })).toBeVisible()
})

test('/agents moves focus into the tree', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([{ reply: { content: [{ type: 'text', text: 'Hello.' }] } }])
  await openByPath(app, projectDir)
  const input = app.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' })
  await expect(app.getByRole('region', { name: 'Agents' })).toContainText('Agents appear here once the conversation starts.')
  await input.fill('Say hello')
  await input.press('Enter')
  await expect(app.getByRole('region', { name: 'Chat' }).getByRole('log', { name: 'Conversation' }).getByLabel('Assistant').last()).toContainText('Hello.')
  await input.fill('/agents')
  await input.press('Enter')
  await expect(app.getByRole('button', { name: 'Open the conversation of Main agent: The conversation' })).toBeFocused()
})

test('a subagent that compacts shows it in its read-only conversation', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_agent', name: 'Agent', input: { description: 'Read the readme', prompt: 'Read the README.' } }] } },
    // The API counts this request at nearly the whole window: the subagent's next one crosses the threshold.
    { reply: { content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: join(projectDir, 'README.md') } }], usage: { input_tokens: 170_000 } } },
    // Its summary request, then its next request from the summary.
    { reply: { content: [{ type: 'text', text: '<analysis>Short.</analysis>\n<summary>The helper read the README.</summary>' }] } },
    { reply: { content: [{ type: 'text', text: 'The README is short.' }] } },
    { reply: { content: [{ type: 'text', text: 'The helper read it.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Have a helper read the readme')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant').last()).toContainText('The helper read it.')
  // The main conversation does not show the subagent's compaction as its own.
  await expect(chat.getByRole('log', { name: 'Conversation' })).not.toContainText('Compacted (automatic summary)')

  const helper = app.getByRole('tree', { name: 'Agent tree' }).getByRole('treeitem', { name: 'general-purpose: Read the readme — Done' })
  await helper.getByRole('button', { name: 'Open the conversation of general-purpose: Read the readme' }).click()
  const entries = app.getByRole('dialog', { name: 'Conversation of general-purpose: Read the readme' }).getByRole('list', { name: 'Agent conversation' })
  await expect(entries).toContainText(/Compacted \(automatic summary\): 1\d\dk → [\d.]+k? tokens; summarized 3 messages/)
  await expect(entries).toContainText('The README is short.')
  expect((await modelServer.recorded()).failures).toEqual([])
})

test('a skill with context: fork typed as /name runs as a subagent under a Skill card, without the main model', async ({ app, projectDir, modelServer }) => {
  await mkdir(join(projectDir, '.claude', 'skills', 'survey'), { recursive: true })
  await writeFile(join(projectDir, '.claude', 'skills', 'survey', 'SKILL.md'), '---\ndescription: Survey a folder\ncontext: fork\nagent: Explore\n---\nSurvey the $ARGUMENTS folder.\n')
  // Only the subagent's request: the main model is not asked.
  await modelServer.setScenario([{ reply: { content: [{ type: 'text', text: 'SURVEY-RESULT: the docs folder is empty.' }] } }])
  await openTrusted(app, projectDir)
  const before = (await modelServer.recorded()).requests.length
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('/survey docs')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')

  const tree = app.getByRole('tree', { name: 'Agent tree' })
  await expect(tree.getByRole('treeitem', { name: 'Explore: Skill survey — Done' })).toBeVisible()
  const log = chat.getByRole('log', { name: 'Conversation' })
  await expect(log).toContainText('Skill')
  await expect(log).toContainText('SURVEY-RESULT: the docs folder is empty.')
  const recorded = await modelServer.recorded()
  expect(recorded.failures).toEqual([])
  expect(recorded.requests).toHaveLength(before + 1)
  expect(JSON.stringify(recorded.requests[before]!.body['messages'])).toContain('Survey the docs folder.')
})
