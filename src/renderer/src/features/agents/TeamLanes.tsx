import { useState } from 'react'
import type { AgentTree } from '../../../../shared/protocol/agent-tree'
import { teamsOf, type TeamLane, type TeamView } from './team-lanes'

/**
 * The session's agent teams under the tree: one lane per member (the lead first) in its colour
 * with its state, each lane's mailbox readable (what was sent to it), and the messages between
 * members as arrows (`alice → team-lead`), each with an accessible name saying who sent what to whom.
 */
export function TeamLanes({ tree }: { tree: AgentTree }) {
  const teams = teamsOf(tree)
  if (teams.length === 0) return null
  return (
    <>
      {teams.map((team) => (
        <Team key={team.name} team={team} />
      ))}
    </>
  )
}

function Team({ team }: { team: TeamView }) {
  return (
    <section className="team" aria-label={`Team ${team.name}`}>
      <h3 className="team__title">Team {team.name}</h3>
      <ul className="team__lanes" aria-label={`Lanes of team ${team.name}`}>
        {team.lanes.map((lane) => (
          <Lane key={lane.name} lane={lane} />
        ))}
      </ul>
      <ol className="team__messages" aria-label={`Messages of team ${team.name}`}>
        {team.messages.slice(-50).map((message, index) => (
          <li key={`${message.at}-${index}`} className={`team__message${message.kind === 'error' ? ' team__message--error' : ''}`} aria-label={`${message.from} to ${message.to}: ${message.summary}`}>
            <span className="team__who" style={{ color: colorOf(team, message.from) }}>{message.from}</span>
            <span className="team__arrow" aria-hidden="true"> → </span>
            <span className="team__who" style={{ color: colorOf(team, message.to) }}>{message.to}</span>
            <span className="team__summary">{message.kind !== 'message' && message.kind !== 'error' ? `[${message.kind.replace(/_/g, ' ')}] ` : ''}{message.summary}</span>
          </li>
        ))}
      </ol>
    </section>
  )
}

function Lane({ lane }: { lane: TeamLane }) {
  const [open, setOpen] = useState(false)
  const label = `${lane.name}${lane.lead ? ' (lead)' : ''}`
  return (
    <li className={`team__lane team__lane--${lane.state}`} aria-label={`Lane of ${label}, ${lane.color}, ${lane.state}`} style={{ borderLeftColor: lane.color }}>
      <span className="team__lane-name">{label}</span> <span className="team__lane-state">{lane.state}</span>{' '}
      <button type="button" className="button button--quiet button--small" aria-expanded={open} aria-label={`Mailbox of ${lane.name} (${lane.mailbox.length})`} onClick={() => setOpen(!open)}>
        Mailbox ({lane.mailbox.length})
      </button>
      {open && (
        <ol className="team__mailbox" aria-label={`Mailbox of ${lane.name}`}>
          {lane.mailbox.length === 0 && <li>No messages yet.</li>}
          {lane.mailbox.map((message, index) => (
            <li key={`${message.at}-${index}`} aria-label={`From ${message.from}: ${message.summary}`}>
              <strong>{message.from}</strong> <time dateTime={new Date(message.at).toISOString()}>{new Date(message.at).toLocaleTimeString()}</time>
              <pre className="team__text">{message.text}</pre>
            </li>
          ))}
        </ol>
      )}
    </li>
  )
}

function colorOf(team: TeamView, name: string): string | undefined {
  const color = team.lanes.find((lane) => lane.name === name)?.color
  return color && color !== 'gray' ? `var(--team-${color}, ${color})` : undefined
}
