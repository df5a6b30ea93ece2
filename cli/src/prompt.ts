// Line prompts for login on a terminal: plain for the phone, without echo for secrets.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

export async function ask(question: string, options: { secret?: boolean } = {}): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  try {
    const answer = new Promise<string>((resolve) => rl.question(question, resolve));
    muted = options.secret === true;
    return (await answer).trim();
  } finally {
    rl.close();
    if (options.secret) process.stderr.write('\n');
  }
}

/** Everything on stdin, without the final newline: `--password-stdin`. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
