// Time on the table page: the turn timer's words, whether it ran out on a decision,
// the rematch countdown. Pure functions of the milliseconds left (tests/js/); the page
// reads the clock (performance.now()) and passes the difference.

// " · time left 12 s", never below 0 s.
export function clockText(msLeft) {
  return ` · time left ${Math.max(0, msLeft / 1000).toFixed(0)} s`;
}

// The turn timer had run out, or was within 1.5 s of it, at `now`: a move the table
// made then was the quick bot's for the player. No timer (null): never.
export function timeRanOut(clockEnd, now) {
  return clockEnd !== null && now >= clockEnd - 1500;
}

// Whole seconds left, rounded up, never below 0.
export function secondsLeft(msLeft) {
  return Math.max(0, Math.ceil(msLeft / 1000));
}

// A rematch someone else started, which this page follows in `left` seconds.
export function rematchCountdown(by, left) {
  return `${by || "A player"} started a rematch (same seats, a new deal). Joining in ${left} s…`;
}
