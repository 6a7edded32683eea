import { useMemory } from './store'

/** Memories the agent proposed while writes wait for approval: save or dismiss each. */
export function Proposals() {
  const proposals = useMemory((state) => state.proposals)
  const decide = useMemory((state) => state.decide)
  if (proposals.length === 0) return null
  return (
    <section className="memory-proposals" aria-label="Proposed by the agent">
      <h3 className="memory-list__scope">Proposed by the agent</h3>
      {proposals.map((proposal) => (
        <article key={proposal.id} className="memory-proposal" aria-label={`Proposal: ${proposal.name}`}>
          <p className="memory-row__name">
            {proposal.action === 'create' ? 'New' : 'Update'} {proposal.type} memory ({proposal.scope}): {proposal.name}
          </p>
          <p className="memory-row__description">{proposal.description}</p>
          <details>
            <summary>Text</summary>
            <pre className="memory-proposal__body">{proposal.body}</pre>
          </details>
          <div className="memory-proposal__actions">
            <button type="button" className="button button--small button--primary" onClick={() => void decide(proposal.id, true)}>
              Save
            </button>
            <button type="button" className="button button--small" onClick={() => void decide(proposal.id, false)}>
              Dismiss
            </button>
          </div>
        </article>
      ))}
    </section>
  )
}
