import { Dialog, DialogHeader } from '../../lib/Dialog'
import { toolDetail, type ConversationEntry } from './conversation'
import { useAgentTree } from './store'
import './agents.css'

/** An agent's conversation, read-only: its prompts, replies, tool calls and how it ended; live while it runs. */
export function AgentConversation({ onClose }: { onClose(): void }) {
  const opened = useAgentTree((state) => state.opened)
  const close = () => {
    useAgentTree.getState().closeConversation()
    onClose()
  }
  const title = opened ? `Conversation of ${opened.title}` : 'Conversation'
  return (
    <Dialog label={title} className="dialog-frame dialog agents-conversation" onClose={close}>
      <DialogHeader title={title} onClose={close} />
      <p className="agents-conversation__note">Read-only: this is what the agent saw and did.</p>
      {opened?.error && (
        <p className="pane__error" role="alert">
          {opened.error}
        </p>
      )}
      <ol className="agents-conversation__list" aria-label="Agent conversation">
        {opened?.entries.map((entry, index) => (
          <Entry key={index} entry={entry} />
        ))}
      </ol>
    </Dialog>
  )
}

function Entry({ entry }: { entry: ConversationEntry }) {
  switch (entry.kind) {
    case 'prompt':
      return (
        <li className="agents-conversation__prompt">
          <strong>Prompt</strong>
          <pre>{entry.text}</pre>
        </li>
      )
    case 'text':
      return (
        <li className="agents-conversation__text">
          <pre>{entry.text}</pre>
        </li>
      )
    case 'tool':
      return (
        <li className={`agents-conversation__tool${entry.isError ? ' agents-conversation__tool--error' : ''}`}>
          <details>
            <summary>
              {entry.name}
              {toolDetail(entry.name, entry.summary) && ` ${toolDetail(entry.name, entry.summary)}`}
              {entry.result === undefined ? ' …' : entry.isError ? ' (failed)' : ''}
            </summary>
            {entry.result !== undefined && <pre>{entry.result}</pre>}
          </details>
        </li>
      )
    case 'compaction':
      return <li className={`agents-conversation__compaction${entry.failed ? ' agents-conversation__compaction--failed' : ''}`}>{entry.text}</li>
    case 'end':
      return <li className={`agents-conversation__end${entry.failed ? ' agents-conversation__end--failed' : ''}`}>{entry.text}</li>
  }
}
