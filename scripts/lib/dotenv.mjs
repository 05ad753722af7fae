// Creates .env with fresh secrets on first run and loads it into process.env (existing env wins).
import { randomBytes } from "node:crypto";
import fs from "node:fs";

/** Parses KEY=VALUE lines (no expansion); ignores comments and blank lines. */
export function parseDotenv(text) {
  const out = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/.exec(line);
    if (!m) continue;
    out[m[1]] = m[2].replace(/^(['"])(.*)\1$/, "$2");
  }
  return out;
}

/** Ensures `.env` exists with AUTH_SECRET and WEFT_ENCRYPTION_KEY, then loads it. Returns what was created. */
export function ensureDotenv(file = ".env") {
  const created = !fs.existsSync(file);
  if (created) {
    const lines = [
      '# Written by `npm run up` on first start. Keep it secret; see README "Configuration".',
      `AUTH_SECRET=${randomBytes(32).toString("base64")}`,
      `WEFT_ENCRYPTION_KEY=${randomBytes(32).toString("base64")}`,
      "WEFT_ENCRYPTION_KEY_ID=k1",
      "DATABASE_URL=postgresql://postgres@127.0.0.1:5432/weft",
      "REDIS_URL=redis://127.0.0.1:6379",
      "AUTH_URL=http://localhost:3000",
      "# OPENAI_BASE_URL=https://api.openai.com/v1",
      "# OPENAI_API_KEY=sk-...",
      "",
    ];
    fs.writeFileSync(file, lines.join("\n"), { mode: 0o600 });
  }
  const values = parseDotenv(fs.readFileSync(file, "utf8"));
  for (const [k, v] of Object.entries(values)) if (process.env[k] === undefined) process.env[k] = v;
  return { created };
}
