/**
 * One team member as a process of its own, for the mailbox race: it sends `count` messages to the
 * other members in turn while polling its own mailbox, until it has sent them all and received
 * `expect` messages (or gives up). Prints one JSON line: what it received, in order.
 * Usage: node --import tsx mailbox-member.ts <teamDir> <name> <others,comma> <count> <expect> <pollMs>
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { TeamMailboxes } from '../../src/main/store/teams/mailbox'

const [teamDir, name, othersList, countText, expectText, pollText] = process.argv.slice(2)
const others = othersList!.split(',')
const count = Number(countText)
const expected = Number(expectText)
const pollMs = Number(pollText)
const problems: string[] = []
const mailboxes = new TeamMailboxes(teamDir!, (problem) => problems.push(problem.message))
const received: string[] = []
let sent = 0
let stop = false

async function poll(): Promise<void> {
  while (!stop) {
    for (const message of await mailboxes.take(name!)) received.push(`${message.from}>${message.text}`)
    if (sent === count && received.length >= expected) return
    await sleep(pollMs)
  }
}

async function write(): Promise<void> {
  for (let index = 0; index < count; index++) {
    const to = others[index % others.length]!
    await mailboxes.send(to, { from: name!, text: `${name}:${index}`, summary: `message ${index}` })
    sent++
  }
}

const deadline = setTimeout(() => (stop = true), 60_000)
process.stdout.write('ready\n')
await Promise.all([write(), poll()])
clearTimeout(deadline)
process.stdout.write(`${JSON.stringify({ name, sent, received, problems })}\n`)
