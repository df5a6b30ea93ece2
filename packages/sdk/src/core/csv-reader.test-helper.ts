// The CSV tests' reader: a line as a spreadsheet splits it (RFC 4180), to check what csvLine wrote.

/** RFC 4180 fields of one line written by csvLine (its `\n` dropped): the reader a spreadsheet is. */
export function readLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  const body = line.slice(0, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}
