// WhatsApp templates: seeded from fixtures, listed for the send screens, looked up by name and
// language. A template may carry its provider content id, WhatsApp's approval of it (synced from
// Twilio's Content API) and the variables its text uses.
import type { TemplateApprovalStatus, WhatsappTemplate } from '@blockcatch/sdk';
import type { Queryable } from './db.js';

interface TemplateRow {
  id: string;
  name: string;
  language: string;
  components: WhatsappTemplate['components'];
  content_sid: string | null;
  variables: NonNullable<WhatsappTemplate['variables']>;
  approval_status: TemplateApprovalStatus;
  rejection_reason: string | null;
}

const toTemplate = (row: TemplateRow): WhatsappTemplate => ({
  id: row.id,
  name: row.name,
  language: row.language,
  components: row.components,
  contentSid: row.content_sid,
  variables: row.variables,
  approvalStatus: row.approval_status,
  rejectionReason: row.rejection_reason,
});

/**
 * Inserts templates, replacing one with the same id; returns how many were written. A template
 * given without an approval status keeps the one it has (`unknown` when new).
 */
export async function upsertTemplates(
  db: Queryable,
  templates: readonly WhatsappTemplate[],
): Promise<number> {
  if (templates.length === 0) return 0;
  const rows = await db.query<{ id: string }>(
    `INSERT INTO whatsapp_templates (id, name, language, components, content_sid, variables,
       approval_status, rejection_reason)
     SELECT id, name, language, components::jsonb, content_sid, variables::jsonb,
            COALESCE(status, 'unknown'), reason
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                 $7::text[], $8::text[])
       AS t(id, name, language, components, content_sid, variables, status, reason)
     ON CONFLICT (id) DO UPDATE
       SET name = EXCLUDED.name, language = EXCLUDED.language, components = EXCLUDED.components,
           content_sid = EXCLUDED.content_sid, variables = EXCLUDED.variables,
           approval_status = CASE WHEN $9::text[] @> ARRAY[EXCLUDED.id]
                                  THEN EXCLUDED.approval_status
                                  ELSE whatsapp_templates.approval_status END,
           rejection_reason = CASE WHEN $9::text[] @> ARRAY[EXCLUDED.id]
                                   THEN EXCLUDED.rejection_reason
                                   ELSE whatsapp_templates.rejection_reason END
     RETURNING id`,
    [
      templates.map((t) => t.id),
      templates.map((t) => t.name),
      templates.map((t) => t.language),
      templates.map((t) => JSON.stringify(t.components)),
      templates.map((t) => t.contentSid ?? null),
      templates.map((t) => JSON.stringify(t.variables ?? [])),
      templates.map((t) => t.approvalStatus ?? null),
      templates.map((t) => t.rejectionReason ?? null),
      templates.filter((t) => t.approvalStatus !== undefined).map((t) => t.id),
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

/** Templates with a content id: the ones whose approval can be asked for. */
export async function listTemplatesWithContent(
  db: Queryable,
): Promise<{ id: string; contentSid: string }[]> {
  const rows = await db.query<{ id: string; content_sid: string }>(
    'SELECT id, content_sid FROM whatsapp_templates WHERE content_sid IS NOT NULL ORDER BY id',
  );
  return rows.map((r) => ({ id: r.id, contentSid: r.content_sid }));
}

/** Records WhatsApp's answer about one template's content. */
export async function saveTemplateApproval(
  db: Queryable,
  id: string,
  approval: { status: TemplateApprovalStatus; rejectionReason: string | null },
  now: number,
): Promise<void> {
  await db.query(
    `UPDATE whatsapp_templates SET approval_status = $2, rejection_reason = $3,
       approval_checked_ts = $4 WHERE id = $1`,
    [id, approval.status, approval.rejectionReason?.slice(0, 1000) ?? null, now],
  );
}
