// The --hermes flags: where Hermes's API server is and its key (never echoed: a wrong value may be a
// secret typed in the wrong place). Errors are one sentence for the command line.
import { readFileSync } from 'node:fs';

export function hermesTarget(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error("--hermes needs the URL of Hermes's API server, e.g. http://127.0.0.1:8642");
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error("--hermes needs an http:// or https:// URL (Hermes's API server)");
  if (url.username || url.password || url.search || url.hash)
    throw new Error('--hermes takes a plain URL; give the key with HERMES_API_KEY or --hermes-key-file');
  return url;
}

/** The key from --hermes-key-file, else HERMES_API_KEY, else none (Hermes will then answer 401). */
export function readHermesKey(file: string | undefined, env: NodeJS.ProcessEnv = process.env): { key?: string } {
  if (file !== undefined) {
    let key: string;
    try {
      key = readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new Error(
        `cannot read the Hermes key file ${file} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`,
        { cause: error },
      );
    }
    if (!key) throw new Error(`the Hermes key file ${file} is empty`);
    return { key };
  }
  const key = env.HERMES_API_KEY?.trim();
  return key ? { key } : {};
}
