// The server's operator (a playtest run, the design page, the players' answers): the
// token `cardlab serve` printed comes in the operator link's fragment (#operator=T,
// never in a request line, so never in a log), is kept in the tab's sessionStorage
// under OPERATOR_KEY and sent as an Authorization header. Pure helpers (tests/js/).

export const OPERATOR_KEY = "cardlab-operator";

// The token as the fragment carries it (still URI-encoded), or null.
export function operatorFragment(hash) {
  const m = /(?:^#|&)operator=([^&]+)/.exec(hash);
  return m ? m[1] : null;
}

// The request headers that carry a token (none without one).
export function authHeaders(token) {
  return token ? { authorization: `Bearer ${token}` } : {};
}
