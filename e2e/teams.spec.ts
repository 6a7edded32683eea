import { expect, test } from './fixtures'
import { openByPath } from './support/app'

// An agent team through `sous serve` in Chromium and the scripted model server: /team asks the
// lead to create it, a teammate joins, and the Agents view shows the team as lanes — one per
// member in its colour, each mailbox readable, the messages between them as arrows. The lead
// answers on the main model's lane, the teammate (started on opus) on its own.
const LEAD = 'claude-sonnet-4-6'
const MATE = 'claude-opus-4-6'

test('a team shows in the agent tree as lanes, with mailboxes and the messages between members', async ({ app, projectDir, modelServer }) => {
  const tool = (id: string, name: string, input: unknown) => ({ reply: { content: [{ type: 'tool_use', id, name, input }] } })
  const text = (value: string) => ({ reply: { content: [{ type: 'text', text: value }] } })
  await modelServer.setScenario([
    { ...tool('toolu_create', 'TeamCreate', { team_name: 'crew', description: 'Review the parser' }), forModel: LEAD },
    { ...tool('toolu_alice', 'Agent', { description: 'Parser review', prompt: 'Review the parser.', name: 'alice', model: 'opus' }), forModel: LEAD },
    { ...tool('toolu_tell', 'SendMessage', { to: 'alice', message: 'Start with lexer.ts.', summary: 'where to start' }), forModel: LEAD },
    { ...text('The crew is at work.'), forModel: LEAD },
    { ...tool('toolu_report', 'SendMessage', { to: 'team-lead', message: 'The lexer looks fine.', summary: 'lexer reviewed' }), forModel: MATE },
    { ...text('Review done.'), forModel: MATE },
    // Her inbox and her idle notices start more turns (how many depends on how the one-second polls
    // fall under load): each is answered briefly, with more spare answers than any run needs, so a
    // slow machine never runs the script dry.
    ...Array.from({ length: 40 }, () => ({ ...text('Noted.'), forModel: MATE })),
    ...Array.from({ length: 40 }, () => ({ ...text('Noted, the crew goes on.'), forModel: LEAD })),
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('/team crew review the parser')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')

  const team = app.getByRole('region', { name: 'Team crew' })
  await expect(team).toBeVisible()
  const lanes = team.getByRole('list', { name: 'Lanes of team crew' })
  await expect(lanes.getByRole('listitem', { name: /^Lane of team-lead \(lead\), gray, / })).toBeVisible()
  await expect(lanes.getByRole('listitem', { name: /^Lane of alice, blue, / })).toBeVisible()
  // The teammate is a node of the tree too.
  await expect(app.getByRole('tree', { name: 'Agent tree' }).getByRole('treeitem', { name: /^general-purpose: Parser review — / })).toBeVisible()

  const messages = team.getByRole('list', { name: 'Messages of team crew' })
  await expect(messages.getByRole('listitem', { name: 'team-lead to alice: where to start' })).toBeVisible()
  await expect(messages.getByRole('listitem', { name: 'alice to team-lead: lexer reviewed' })).toBeVisible()
  await expect(messages.getByRole('listitem', { name: /^alice to team-lead: idle/ }).first()).toBeVisible()

  await lanes.getByRole('button', { name: /^Mailbox of alice/ }).click()
  const mailbox = lanes.getByRole('list', { name: 'Mailbox of alice' })
  await expect(mailbox.getByRole('listitem', { name: 'From team-lead: where to start' })).toContainText('Start with lexer.ts.')
  // The open mailbox also reads her mailbox file from disk (agents.teamMailbox): what waits there unread.
  await expect(lanes.getByRole('list', { name: 'Unread in the mailbox file of alice' })).toBeVisible()

  // What the typed command sent, and the teammate's own prompt: the lead created the team with its tool.
  // (Looked for among the requests, not at a position: under load the polls' turns interleave differently.)
  const { requests, failures } = await modelServer.recorded()
  expect(requests.some((request) => request.body['model'] === LEAD && JSON.stringify(request.body['messages']).includes('Create an agent team named \\"crew\\" with TeamCreate'))).toBe(true)
  expect(requests.some((request) => request.body['model'] === MATE && JSON.stringify(request.body['system']).includes('you MUST use the SendMessage tool'))).toBe(true)
  expect(failures).toEqual([])
})
