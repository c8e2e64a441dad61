// Where things go on the board, computed from positions alone: a grid's frame, how far
// to scroll so a decision's cards come into view. Pure functions (tests/js/); the page
// measures the elements and passes the numbers.

// Where cells at (x, y) sit on a square grid (SUPER COMPUTER's computers): its number of
// columns and each cell's column and row counted from 1 at the top left, as CSS grid
// lines and in words ("row 1, column 2"), never the engine's coordinates. North is
// y - 1 in the engine, so y grows downward as on screen.
// No cells (a computer not started yet) is a frame of no columns, not -Infinity.
export function gridFrame(cells) {
  const xs = cells.map((c) => c.x), ys = cells.map((c) => c.y);
  const minX = xs.length ? Math.min(...xs) : 0, maxX = xs.length ? Math.max(...xs) : -1;
  const minY = ys.length ? Math.min(...ys) : 0;
  const column = (c) => c.x - minX + 1;
  const row = (c) => c.y - minY + 1;
  return { columns: maxX - minX + 1, column, row, where: (c) => `row ${row(c)}, column ${column(c)}` };
}

// How far to scroll (window.scrollBy's top) so the span from `top` to `bottom` (the
// decision's cards, in viewport pixels) shows above `room` (where the decision bar
// begins): the least that shows it all, or to its top when it cannot fit; null when it
// is in view already.
export function decisionScroll(top, bottom, room) {
  if (!(top < 0 || bottom > room)) return null;
  return bottom - top <= room ? (top < 0 ? top - 4 : bottom - room + 4) : top - 4;
}
