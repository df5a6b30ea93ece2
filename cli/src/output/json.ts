// JSON for machines: one document on stdout, two-space indented, ending in a newline. The shapes
// are documented in cli/README.md and kept stable.
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
