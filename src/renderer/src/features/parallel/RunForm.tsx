import { useState } from 'react'

/** The models a session can be given; any other id goes through `/model` in that session. */
const MODELS = ['default', 'opus', 'sonnet', 'haiku'] as const

/**
 * Run on N: one prompt for every session, and one row per session with its model (the same or
 * different ones). Starting creates N worktree sessions at once.
 */
export function RunForm({ disabled, onStart }: { disabled: boolean; onStart(prompt: string, models: string[]): void }) {
  const [prompt, setPrompt] = useState('')
  const [models, setModels] = useState<string[]>(['opus', 'sonnet'])
  const setModel = (index: number, model: string) => setModels((now) => now.map((old, i) => (i === index ? model : old)))
  return (
    <form
      className="parallel-form"
      aria-label="Run on N"
      onSubmit={(event) => {
        event.preventDefault()
        if (prompt.trim()) onStart(prompt.trim(), models)
      }}
    >
      <label className="parallel-form__prompt">
        Prompt for every session
        <textarea value={prompt} rows={4} onChange={(event) => setPrompt(event.target.value)} placeholder="What every session should do, each in its own worktree" />
      </label>
      <ol className="parallel-form__models" aria-label="Sessions to start">
        {models.map((model, index) => (
          <li key={index}>
            <label>
              Model of session {index + 1}{' '}
              <select value={model} onChange={(event) => setModel(index, event.target.value)}>
                {MODELS.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            {models.length > 1 && (
              <button type="button" className="button button--small button--quiet" aria-label={`Remove session ${index + 1}`} onClick={() => setModels((now) => now.filter((_, i) => i !== index))}>
                ✕
              </button>
            )}
          </li>
        ))}
      </ol>
      <div className="parallel-form__actions">
        <button type="button" className="button button--small" disabled={models.length >= 8} onClick={() => setModels((now) => [...now, now.at(-1) ?? 'default'])}>
          Add a session
        </button>
        <button type="submit" className="button button--primary" disabled={disabled || !prompt.trim()}>
          Start {models.length} session{models.length === 1 ? '' : 's'}
        </button>
      </div>
    </form>
  )
}
