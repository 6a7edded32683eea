/**
 * The small model's line on what a long-running call is doing (the `tool_summary` event), shown
 * on its tool card until the result arrives. A status role, so a screen reader hears it once.
 */
export function RunningSummary({ toolName, summary }: { toolName: string; summary: string }) {
  return (
    <p className="tool-card__summary" role="status" aria-label={`What ${toolName} is doing: ${summary}`}>
      {summary}
    </p>
  )
}
