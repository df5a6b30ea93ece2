// WhatsApp templates: seeded from fixtures, listed for the send screens, looked up by name and
// language. A template may carry its provider content id and the variables its text uses.
import type { WhatsappTemplate } from '@blockcatch/sdk';
import type { Queryable } from './db.js';

interface TemplateRow {
  id: string;
  name: string;
  language: string;
  components: WhatsappTemplate['components'];
  content_sid: string | null;
  variables: NonNullable<WhatsappTemplate['variables']>;
}

const toTemplate = (row: TemplateRow): WhatsappTemplate => ({
  id: row.id,
  name: row.name,
  language: row.language,
  components: row.components,
  contentSid: row.content_sid,
  variables: row.variables,
});

/** Inserts templates, replacing one with the same id; returns how many were written. */
export async function upsertTemplates(
  db: Queryable,
  templates: readonly WhatsappTemplate[],
): Promise<number> {
  if (templates.length === 0) return 0;
  const rows = await db.query<{ id: string }>(
    `INSERT INTO whatsapp_templates (id, name, language, components, content_sid, variables)
     SELECT id, name, language, components::jsonb, content_sid, variables::jsonb
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
       AS t(id, name, language, components, content_sid, variables)
     ON CONFLICT (id) DO UPDATE
       SET name = EXCLUDED.name, language = EXCLUDED.language, components = EXCLUDED.components,
           content_sid = EXCLUDED.content_sid, variables = EXCLUDED.variables
     RETURNING id`,
    [
      templates.map((t) => t.id),
      templates.map((t) => t.name),
      templates.map((t) => t.language),
      templates.map((t) => JSON.stringify(t.components)),
      templates.map((t) => t.contentSid ?? null),
      templates.map((t) => JSON.stringify(t.variables ?? [])),
    ],
  );
  return rows.length;
}

export async function listTemplates(db: Queryable): Promise<WhatsappTemplate[]> {
  const rows = await db.query<TemplateRow>('SELECT * FROM whatsapp_templates ORDER BY name, id');
  return rows.map(toTemplate);
}

/** Every language version of the template called `name`. */
export async function findTemplateLanguages(
  db: Queryable,
  name: string,
): Promise<WhatsappTemplate[]> {
  const rows = await db.query<TemplateRow>(
    'SELECT * FROM whatsapp_templates WHERE name = $1 ORDER BY language',
    [name],
  );
  return rows.map(toTemplate);
}
