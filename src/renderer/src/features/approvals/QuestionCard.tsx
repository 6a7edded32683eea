import { useState } from 'react'
import type { ApprovalPreview, RequestInput } from '../../../../shared/ipc/contract'

type Questions = Extract<ApprovalPreview, { kind: 'questions' }>['questions']

export interface QuestionCardProps {
  /** The approval's id (what the reply answers). */
  id: string
  questions: Questions
  busy: boolean
  onReply(input: RequestInput<'approval.reply'>): void
}

const OTHER = '__other__'

/**
 * AskUserQuestion's card: each question is a group of radio buttons (checkboxes for a
 * multi-select) with an "Other" choice that takes the user's own words. Native controls, so the
 * keyboard works as everywhere (Tab between groups, arrows within one, Space to pick); "Send
 * answers" (`y`) sends them as `answers` keyed by question text, "Decline" (`n`) refuses.
 */
export function QuestionCard({ id, questions, busy, onReply }: QuestionCardProps) {
  const [picked, setPicked] = useState<Record<string, string[]>>({})
  const [other, setOther] = useState<Record<string, string>>({})
  const toggle = (question: string, value: string, multi: boolean) =>
    setPicked((current) => {
      const now = current[question] ?? []
      if (!multi) return { ...current, [question]: [value] }
      return { ...current, [question]: now.includes(value) ? now.filter((v) => v !== value) : [...now, value] }
    })
  const answerOf = (question: string): string | undefined => {
    const values = (picked[question] ?? []).map((value) => (value === OTHER ? (other[question] ?? '').trim() : value)).filter((value) => value !== '')
    return values.length > 0 ? values.join(', ') : undefined
  }
  const answers = Object.fromEntries(questions.flatMap((q) => (answerOf(q.question) ? [[q.question, answerOf(q.question)!]] : [])))
  const complete = questions.every((q) => answers[q.question] !== undefined)

  return (
    <form
      className="question-card"
      aria-label="Questions from the agent"
      onSubmit={(event) => {
        event.preventDefault()
        if (complete && !busy) onReply({ id, decision: 'allow_once', answers })
      }}
    >
      {questions.map((q, index) => (
        <fieldset key={q.question} className="question-card__question">
          <legend>
            <span className="question-card__header">{q.header}</span> {q.question}
          </legend>
          {q.options.map((option) => (
            <label key={option.label} className="question-card__option">
              <input
                type={q.multiSelect ? 'checkbox' : 'radio'}
                name={`question-${id}-${index}`}
                value={option.label}
                checked={(picked[q.question] ?? []).includes(option.label)}
                onChange={() => toggle(q.question, option.label, q.multiSelect)}
              />
              <span className="question-card__label">{option.label}</span>
              {option.description && <span className="question-card__description"> — {option.description}</span>}
            </label>
          ))}
          <label className="question-card__option">
            <input
              type={q.multiSelect ? 'checkbox' : 'radio'}
              name={`question-${id}-${index}`}
              value={OTHER}
              aria-label={`Other answer to: ${q.question}`}
              checked={(picked[q.question] ?? []).includes(OTHER)}
              onChange={() => toggle(q.question, OTHER, q.multiSelect)}
            />
            <span className="question-card__label">Other:</span>{' '}
            <input
              type="text"
              className="field question-card__other"
              aria-label={`Your own answer to: ${q.question}`}
              value={other[q.question] ?? ''}
              onChange={(event) => {
                const text = event.target.value
                setOther((current) => ({ ...current, [q.question]: text }))
                if (!(picked[q.question] ?? []).includes(OTHER) && text !== '') toggle(q.question, OTHER, q.multiSelect)
              }}
            />
          </label>
        </fieldset>
      ))}
      <div className="approval__actions">
        <button type="button" className="button" data-approval-action="reject" disabled={busy} onClick={() => onReply({ id, decision: 'reject' })}>
          Decline
        </button>
        <button type="submit" className="button button--primary" data-approval-action="approve" disabled={busy || !complete}>
          Send answers
        </button>
      </div>
    </form>
  )
}
