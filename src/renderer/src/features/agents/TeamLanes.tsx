import { useEffect, useState } from 'react'
import type { AgentTree } from '../../../../shared/protocol/agent-tree'
import { api } from '../../api'
import { teamsOf, type TeamLane, type TeamView } from './team-lanes'

/**
 * The session's agent teams under the tree: one lane per member (the lead first) in its colour
 * with its state, each lane's mailbox readable (what was sent to it), and the messages between
 * members as arrows (`alice → team-lead`), each with an accessible name saying who sent what to whom.
 * An open mailbox also reads the member's mailbox file (`agents.teamMailbox`): what waits there
 * unread now, whether or not this page saw the events of it.
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
          <Lane key={lane.name} team={team.name} lane={lane} />
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

type FileMessage = { from: string; text: string; timestamp: string; summary?: string | undefined; kind: string }

/** The member's mailbox file while the mailbox is open, read again as the lane's messages change. */
function useMailboxFile(team: string, member: string, open: boolean, seen: number): FileMessage[] | 'unreadable' | undefined {
  const [file, setFile] = useState<FileMessage[] | 'unreadable' | undefined>(undefined)
  useEffect(() => {
    if (!open) return
    let live = true
    void api.invoke('agents.teamMailbox', { team, member }).then((result) => {
      if (live) setFile(result.ok ? result.value.messages : 'unreadable')
    })
    return () => {
      live = false
    }
  }, [team, member, open, seen])
  return file
}

function Lane({ team, lane }: { team: string; lane: TeamLane }) {
  const [open, setOpen] = useState(false)
  const file = useMailboxFile(team, lane.name, open, lane.mailbox.length)
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
      {open && file !== undefined && (
        <ol className="team__mailbox" aria-label={`Unread in the mailbox file of ${lane.name}`}>
          {file === 'unreadable' && <li>The mailbox file could not be read.</li>}
          {file !== 'unreadable' && file.length === 0 && <li>Nothing unread in the file.</li>}
          {file !== 'unreadable' &&
            file.map((message, index) => (
              <li key={`${message.timestamp}-${index}`} aria-label={`Unread from ${message.from}: ${message.summary ?? message.kind}`}>
                <strong>{message.from}</strong> <time dateTime={message.timestamp}>{new Date(message.timestamp).toLocaleTimeString()}</time>{' '}
                {message.kind !== 'message' && <span className="team__summary">[{message.kind.replace(/_/g, ' ')}]</span>}
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
