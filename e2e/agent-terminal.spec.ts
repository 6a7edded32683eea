import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath, openTrusted } from './support/app'

/** Lets the agent run Bash without asking (the project's own settings, as Claude Code reads them). */
async function allowBash(projectDir: string): Promise<void> {
  await mkdir(join(projectDir, '.claude'), { recursive: true })
  await writeFile(
    join(projectDir, '.claude', 'settings.json'),
    JSON.stringify({ permissions: { allow: ['Bash'] } }),
  )
}

/** The model asks for one Bash command, then ends its turn with `closing`. */
function bashThenText(command: string, closing: string) {
  return [
    {
      reply: {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_e2e_bash',
            name: 'Bash',
            input: { command, description: 'e2e command' },
          },
        ],
      },
    },
    { reply: { content: [{ type: 'text', text: closing }] } },
  ]
}

async function prompt(app: Page, text: string): Promise<void> {
  const message = app.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' })
  await message.fill(text)
  await message.press('Enter')
}

test('an agent Bash command shows live in the Agent terminal: command line, output, exit code', async ({
  app,
  host,
  projectDir,
  modelServer,
}) => {
  await allowBash(projectDir)
  await modelServer.setScenario(bashThenText('echo step-one; sleep 2; echo step-two', 'All steps ran.'))
  await openTrusted(app, projectDir)
  const terminal = app.getByRole('region', { name: 'Terminal' })
  await terminal.getByRole('tab', { name: 'Agent' }).click()
  const rows = terminal.getByRole('tabpanel', { name: 'Agent' }).locator('.xterm-rows > div')

  await prompt(app, 'Run the steps')
  await expect(rows.filter({ hasText: '$ echo step-one; sleep 2; echo step-two' })).toHaveCount(1)
  // Live: the first line is there while the command still runs.
  await expect(rows.filter({ hasText: /^\s*step-one\s*$/ })).toHaveCount(1)
  await expect(rows.filter({ hasText: /^\s*step-two\s*$/ })).toHaveCount(0)
  await expect(app.getByRole('region', { name: 'Chat' }).getByRole('status')).toHaveText('Responding…')

  await expect(rows.filter({ hasText: /^\s*step-two\s*$/ })).toHaveCount(1)
  await expect(rows.filter({ hasText: /^\s*\[exit 0\]\s*$/ })).toHaveCount(1)
  await expect(app.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant').last()).toContainText(
    'All steps ran.',
  )

  // The page reloaded brings this session back by itself: its earlier commands are replayed under a banner.
  // The browser host's WebSocket is the IPC: count what the page asks for.
  const channels: string[] = []
  app.on('websocket', (socket) => socket.on('framesent', ({ payload }) => void channels.push(/"channel":"([^"]+)"/.exec(String(payload))?.[1] ?? '')))
  await app.reload()
  await openByPath(app, projectDir)
  await terminal.getByRole('tab', { name: 'Agent' }).click()
  await expect(rows.filter({ hasText: '── Run the steps ──' })).toHaveCount(1)
  await expect(rows.filter({ hasText: '$ echo step-one; sleep 2; echo step-two' })).toHaveCount(1)
  await expect(rows.filter({ hasText: /^\s*step-two\s*$/ })).toHaveCount(1)
  await expect(rows.filter({ hasText: /^\s*\[exit 0\]\s*$/ })).toHaveCount(1)
  await expect(app.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant').last()).toContainText('All steps ran.')
  // The chat and the Agent terminal both showed it from one parse of the transcript.
  if (host === 'browser') expect(channels.filter((channel) => channel === 'session.history')).toHaveLength(1)
})

test('a command asking "Continue? [y/N]" is answered from the Agent terminal and the turn completes', async ({
  app,
  projectDir,
  modelServer,
}) => {
  await allowBash(projectDir)
  await modelServer.setScenario(
    bashThenText('read -p "Continue? [y/N] " answer; echo "answer=$answer"', 'The command went on.'),
  )
  await openTrusted(app, projectDir)
  const terminal = app.getByRole('region', { name: 'Terminal' })
  await terminal.getByRole('tab', { name: 'Agent' }).click()
  const panel = terminal.getByRole('tabpanel', { name: 'Agent' })
  const rows = panel.locator('.xterm-rows > div')

  await prompt(app, 'Ask me first')
  // The prompt's own row, not the command line above it (which quotes it): typing before `read`
  // prints its prompt would be echoed ahead of it.
  await expect(rows.filter({ hasText: /^\s*Continue\? \[y\/N\]\s*$/ })).toHaveCount(1)
  await panel.locator('.xterm').click()
  await app.keyboard.type('y')
  await app.keyboard.press('Enter')

  await expect(rows.filter({ hasText: /^\s*answer=y\s*$/ })).toHaveCount(1)
  await expect(rows.filter({ hasText: /^\s*\[exit 0\]\s*$/ })).toHaveCount(1)
  const chat = app.getByRole('region', { name: 'Chat' })
  await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant').last()).toContainText(
    'The command went on.',
  )
  await expect(chat.getByRole('button', { name: 'Send' })).toBeVisible()
  // The model was given the command's output, answer included.
  const { requests } = await modelServer.recorded()
  expect(JSON.stringify(requests.at(-1)?.body['messages'])).toContain('answer=y')
})
