// WhatsApp templates: seeded from fixtures, listed for the send screens, looked up by name and language.
import type { WhatsappTemplate } from '@blockcatch/sdk';
import type { Queryable } from './db.js';

interface TemplateRow {
  id: string;
  name: string;
  language: string;
  components: WhatsappTemplate['components'];
}

const toTemplate = (row: TemplateRow): WhatsappTemplate => ({
  id: row.id,
  name: row.name,
  language: row.language,
  components: row.components,
});

/** Inserts templates, replacing one with the same id; returns how many were written. */
export async function upsertTemplates(
  db: Queryable,
  templates: readonly WhatsappTemplate[],
): Promise<number> {
  if (templates.length === 0) return 0;
  const rows = await db.query<{ id: string }>(
    `INSERT INTO whatsapp_templates (id, name, language, components)
     SELECT id, name, language, components::jsonb
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(id, name, language, components)
     ON CONFLICT (id) DO UPDATE
       SET name = EXCLUDED.name, language = EXCLUDED.language, components = EXCLUDED.components
     RETURNING id`,
    [
      templates.map((t) => t.id),
      templates.map((t) => t.name),
      templates.map((t) => t.language),
      templates.map((t) => JSON.stringify(t.components)),
    ],
  );
  return rows.length;
}

export async function listTemplates(db: Queryable): Promise<WhatsappTemplate[]> {
  const rows = await db.query<TemplateRow>('SELECT * FROM whatsapp_templates ORDER BY name, id');
  return rows.map(toTemplate);
}

export async function findTemplate(
  db: Queryable,
  name: string,
  language: string,
): Promise<WhatsappTemplate | null> {
  const rows = await db.query<TemplateRow>(
    'SELECT * FROM whatsapp_templates WHERE name = $1 AND language = $2',
    [name, language],
  );
  const row = rows[0];
  return row ? toTemplate(row) : null;
}
