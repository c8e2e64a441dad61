// What the table page sends and reads on its socket, and the words around it: the
// hello for the link's seat, why a table refused the page, the game's story lines, the
// links a host or a rematch hands out, the tab title on your turn, a survey's answer.
// Pure functions (tests/js/); static/table.js, social.js and survey.js use them.

// The first message on the socket, from the invite link's fragment (#seat=N&token=T or
// #role=R&token=T; a URLSearchParams of it).
export function helloMessage(params) {
  const token = params.get("token");
  if (params.has("seat")) return { type: "hello", seat: Number(params.get("seat")), token };
  return { type: "hello", role: params.get("role") || "spectator", token };
}

// Why this page cannot join (a socket's close code and the server's own reason: a
// revoked link says who and when).
export const REFUSALS = {
  4401: "This link's key does not open this seat: it may have been mistyped, cut short, or replaced by the host.",
  4403: "This page was opened from another site, so the table refused it.",
  4404: "There is no such table here: it may have been created on another server, or the link is incomplete.",
};
export function refusalText(code, reason) {
  const known = REFUSALS[code];
  const said = reason ? `The table refused this page: ${reason}.` : "";
  return known && said ? `${known} ${said}` : known || said || "The table refused this page.";
}

// A log entry in words: a string, its text, else the entry itself.
const entryText = (e) => (typeof e === "string" ? e : e.text || JSON.stringify(e));

// The game's story: the frame's narrative (from this seat's view), else its raw log.
export function logLines(view) {
  return view.narrative || (view.obs.log || []).map((e, index) => ({ index, group: "", text: entryText(e) }));
}

// The replay's last four lines of the story, each under its heading ("Deal 2: ...").
export function replayLines(frame) {
  const story = frame.narrative || (frame.obs.log || []).map((e) => ({ text: entryText(e) }));
  return story.slice(-4).map((line) => (line.group ? `${line.group}: ${line.text}` : line.text));
}

// A link the host replaced ({seat} or {role}, and its token): the new link and whose.
export function newLink(origin, tableId, msg) {
  const frag = msg.seat !== undefined ? `seat=${msg.seat}` : `role=${msg.role}`;
  const who = msg.seat !== undefined ? `seat ${msg.seat}` : `the ${msg.role}`;
  return { url: `${origin}/t/${tableId}#${frag}&token=${msg.token}`, who };
}

// Where a rematch link ({table, token, seat or role}) leads: the new table's page.
export function rematchPath(link) {
  const frag = link.seat !== undefined ? `seat=${link.seat}` : `role=${link.role || "host"}`;
  return `/t/${encodeURIComponent(link.table)}#${frag}&token=${encodeURIComponent(link.token)}`;
}

// Whether a state frame asks this page for a move now.
export function isMyTurn(msg) {
  return !msg.terminal && msg.you !== null && msg.you !== undefined && Array.isArray(msg.legal) && msg.legal.length > 0;
}

// The tab title says "● Your turn — …" on your turn, and only then.
export const TURN_PREFIX = "● Your turn — ";
export function turnTitle(title, myTurn) {
  const base = title.startsWith(TURN_PREFIX) ? title.slice(TURN_PREFIX.length) : title;
  return myTurn ? TURN_PREFIX + base : base;
}

// The after-game survey's answer from what the player gave: `fun` and `length` as
// picked (null: left out), the two texts as typed; an empty one is left out.
export function surveyAnswer(fun, length, confusing, text) {
  const answer = { type: "survey" };
  if (fun !== null) answer.fun = Number(fun);
  if (length !== null) answer.length = length;
  if (confusing.trim()) answer.confusing = confusing.trim();
  if (text.trim()) answer.text = text.trim();
  return answer;
}
