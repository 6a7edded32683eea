/** The optional reason the agent is given with a rejection; shared by every approval card. */
export function RejectReason({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <input
      className="field approval__message"
      aria-label="Reason for rejecting (sent to the agent)"
      placeholder="Why not? (optional, sent to the agent)"
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  )
}
