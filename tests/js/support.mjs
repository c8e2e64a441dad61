// Paths for the client's unit tests (a helper, not a test file: node --test runs only
// *.test.mjs here).
import { fileURLToPath } from "node:url";
import path from "node:path";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const STATIC = path.join(REPO, "src", "cardlab", "web", "static");
export const LIB = path.join(STATIC, "lib");
export const GAMES = path.join(REPO, "src", "cardlab", "games");
