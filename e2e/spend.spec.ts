import { expect, test } from './fixtures'
import { openByPath } from './support/app'

// One cost figure: the turn's footer, the status bar and the agent tree are one reckoning of what
// the session spent (the main agent and its subagents), written the same way.

test('the footer, the status bar and the agent tree give the same tokens and cost for a turn with a subagent', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_agent', name: 'Agent', input: { description: 'Count the files', prompt: 'Count the files.' } }], usage: { input_tokens: 1200, output_tokens: 100 } } },
    // The subagent's one request: it spends more than the main agent.
    { reply: { content: [{ type: 'text', text: 'There are three files.' }], usage: { input_tokens: 6000, output_tokens: 900 } } },
    { reply: { content: [{ type: 'text', text: 'The helper counted three files.' }], usage: { input_tokens: 1500, output_tokens: 200 } } },
    { reply: { content: [{ type: 'text', text: 'Nothing else.' }], usage: { input_tokens: 1800, output_tokens: 50 } } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const message = chat.getByRole('textbox', { name: 'Message' })
  await message.fill('Have a helper count the files')
  await message.press('Enter')
  await expect(chat.getByLabel('Assistant').last()).toContainText('The helper counted three files.')
  await expect(app.getByRole('tree', { name: 'Agent tree' }).getByRole('treeitem', { name: /^general-purpose: Count the files — Done$/ })).toBeVisible()

  const footer = chat.getByLabel('Usage').last()
  const bar = chat.getByLabel('Status', { exact: true })
  const treeTotal = app.getByRole('region', { name: 'Agents' }).getByTestId('agents-total')
  const root = app.getByRole('tree', { name: 'Agent tree' }).getByRole('treeitem', { name: /^Main agent:/ })
  // The server counts the prompt itself (and its cache), so the figures are read, not assumed.
  await expect(footer).toContainText('by subagents')
  const one = figures((await footer.textContent()) ?? '')
  // The status bar and the tree say exactly what the one turn's footer says.
  await expect(bar.getByTestId('session-cost')).toHaveText(one.cost)
  const barTokens = async () => count(/^([\d,.]+k?) tokens$/.exec((await bar.getByTestId('session-tokens').textContent()) ?? '')?.[1])
  near(await barTokens(), one.tokens)
  const shown = (await bar.getByTestId('session-tokens').textContent())!.replace(' tokens', '')
  await expect(treeTotal).toHaveText(`${shown} tok · ${one.cost}`)
  await expect(root).toContainText(`${shown} tok · ${one.cost}`)

  // A second turn: its footer has its own figures, and the footers add up to the bar and the tree.
  await message.fill('Anything else?')
  await message.press('Enter')
  await expect(chat.getByLabel('Assistant').last()).toContainText('Nothing else.')
  const second = chat.getByLabel('Usage').last()
  await expect(second).toContainText(' · 50 out · $')
  await expect(second).not.toContainText('subagents')
  const two = figures((await second.textContent()) ?? '')
  near(await barTokens(), one.tokens + two.tokens)
  const total = (await bar.getByTestId('session-cost').textContent()) ?? ''
  expect(Math.abs(Number(total.slice(1)) - (Number(one.cost.slice(1)) + Number(two.cost.slice(1))))).toBeLessThan(0.011)
  const both = (await bar.getByTestId('session-tokens').textContent())!.replace(' tokens', '')
  await expect(treeTotal).toHaveText(`${both} tok · ${total}`)
})

/** A figure as written ("9,202", "21.2k") as a number. */
function count(figure = ''): number {
  return figure.endsWith('k') ? Math.round(Number(figure.slice(0, -1)) * 1000) : Number(figure.replaceAll(',', ''))
}

/** Figures agree: exactly below 10k, within the rounding of their parts past it (tenths of a thousand). */
function near(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(expected >= 10_000 ? 150 : 0)
}

/** A footer's tokens (read, written and the subagents') and its cost as written. */
function figures(text: string): { tokens: number; cost: string } {
  const [, read, out] = /^([\d,.]+k?) in.* · ([\d,.]+k?) out/.exec(text) ?? []
  const agents = / · ([\d,.]+k?) by subagents/.exec(text)?.[1]
  const cost = /\$[\d.]+$/.exec(text)?.[0] ?? ''
  expect(cost).not.toBe('')
  return { tokens: count(read) + count(out) + (agents ? count(agents) : 0), cost }
}
