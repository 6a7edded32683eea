/**
 * Flow-control marks for terminals a person watches (characters of output sent but not yet
 * acknowledged as rendered). The PTY service's defaults (100 K / 5 K) drain the pipe before
 * resuming, which caps a flood at about 4–6 MB/s; keeping 250–500 K in flight lets xterm parse
 * while the next chunks travel: about 10 MB/s in `bench/workspace.bench.ts`, frame p95 still one
 * frame. After Ctrl+C at most this much is left to draw (well under a tenth of a second).
 */
export const TERMINAL_FLOW = { highWaterChars: 500_000, lowWaterChars: 250_000 } as const
