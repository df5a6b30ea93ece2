// The message part of both send forms: SMS or WhatsApp, a text box kept to one segment while
// 'Limit characters' holds, or a template selector with a read-only preview.
import {
  type Channel,
  limitToSingleSegment,
  segmentSms,
  type WhatsappTemplate,
} from '@blockcatch/sdk';
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../components/ui/Checkbox.js';
import { templatePreview, templateSummary } from './send-request.js';

export interface MessageDraft {
  channel: Channel;
  message: string;
  templateId: string;
  limitCharacters: boolean;
}

export const EMPTY_DRAFT: MessageDraft = {
  channel: 'sms',
  message: '',
  templateId: '',
  limitCharacters: true,
};

export function MessageComposer({
  draft,
  onChange,
  templates,
  whatsappAllowed,
  limitControl,
}: {
  draft: MessageDraft;
  onChange(draft: MessageDraft): void;
  /** Undefined while loading or without the permission. */
  templates: readonly WhatsappTemplate[] | undefined;
  whatsappAllowed: boolean;
  /** 'fixed': always one segment (notifications); 'locked'/'free': the checkbox, clearable or not. */
  limitControl: 'fixed' | 'locked' | 'free';
}) {
  const { t } = useTranslation();
  const id = useId();
  const limited = limitControl === 'fixed' || draft.limitCharacters;
  const segments = segmentSms(draft.message);
  const template = templates?.find((tpl) => tpl.id === draft.templateId);
  const [refused, setRefused] = useState<string | null>(null);

  return (
    <fieldset className="composer">
      <legend>{t('admin.sendSms.messageType')}</legend>
      <div className="radio-row">
        <label className="inline">
          <input
            type="radio"
            name={`${id}-channel`}
            checked={draft.channel === 'sms'}
            onChange={() => onChange({ ...draft, channel: 'sms' })}
          />
          {t('admin.sendSms.sms')}
        </label>
        {whatsappAllowed && (
          <label className="inline">
            <input
              type="radio"
              name={`${id}-channel`}
              checked={draft.channel === 'whatsapp'}
              onChange={() => onChange({ ...draft, channel: 'whatsapp' })}
            />
            {t('admin.sendSms.whatsapp')}
          </label>
        )}
      </div>

      {draft.channel === 'sms' ? (
        <>
          <label htmlFor={`${id}-message`}>{t('admin.sendSms.message')}</label>
          <textarea
            id={`${id}-message`}
            rows={4}
            value={draft.message}
            placeholder={t('admin.sendSms.messagePlaceholder')}
            aria-describedby={`${id}-remaining`}
            onChange={(e) => {
              const next = e.target.value;
              // 'Limit characters': input that would need a second message is ignored, and the
              // box says why instead of silently dropping a paste.
              const message = limited ? limitToSingleSegment(draft.message, next) : next;
              setRefused(
                message === next
                  ? null
                  : `${refusalText(t, next)}${limitControl === 'free' ? ` ${t('admin.sendSms.refusedHint')}` : ''}`,
              );
              onChange({ ...draft, message });
            }}
          />
          {refused && (
            <p className="field-error" role="alert" data-testid="message-refused">
              {refused}
            </p>
          )}
          <p id={`${id}-remaining`} className="hint" aria-live="polite">
            {limited
              ? t('admin.sendSms.charactersRemaining', { remaining: segments.remainingInSegment })
              : t('admin.sendSms.segments', {
                  count: segments.segments,
                  remaining: segments.remainingInSegment,
                })}
          </p>
          {limitControl !== 'fixed' && (
            <>
              <Checkbox
                labelClassName="inline"
                label={t('admin.sendSms.limitCharacters')}
                checked={draft.limitCharacters}
                disabled={limitControl === 'locked'}
                aria-describedby={`${id}-limit-note`}
                onChange={(limitCharacters) => onChange({ ...draft, limitCharacters })}
              />
              <p id={`${id}-limit-note`} className="hint">
                {t('admin.sendSms.limitCharactersNote')}
              </p>
            </>
          )}
        </>
      ) : (
        <>
          <label htmlFor={`${id}-template`}>{t('admin.sendSms.template')}</label>
          <select
            id={`${id}-template`}
            value={draft.templateId}
            onChange={(e) => onChange({ ...draft, templateId: e.target.value })}
          >
            <option value="">{t('admin.sendSms.selectTemplate')}</option>
            {templates?.map((tpl) => (
              <option key={tpl.id} value={tpl.id}>
                {t('admin.sendSms.templateOption', {
                  name: tpl.name,
                  summary: templateSummary(tpl),
                })}
                {tpl.approvalStatus === 'approved'
                  ? ''
                  : ` · ${t(`admin.sendSms.approval.${tpl.approvalStatus ?? 'unknown'}`)}`}
              </option>
            ))}
          </select>
          {template && (
            <>
              <label htmlFor={`${id}-preview`}>{t('admin.notifications.templatePreview')}</label>
              <textarea id={`${id}-preview`} rows={5} readOnly value={templatePreview(template)} />
              <p className="hint" data-testid="template-status">
                {t('admin.sendSms.templateStatus', {
                  status: t(`admin.sendSms.approval.${template.approvalStatus ?? 'unknown'}`),
                })}
                {template.rejectionReason ? ` (${template.rejectionReason})` : ''}
              </p>
            </>
          )}
        </>
      )}
    </fieldset>
  );
}

/** The composed message for review, or null while incomplete. */
export function composedFrom(
  draft: MessageDraft,
  templates: readonly WhatsappTemplate[] | undefined,
) {
  if (draft.channel === 'sms') {
    return draft.message.trim() ? { channel: 'sms' as const, message: draft.message } : null;
  }
  const template = templates?.find((tpl) => tpl.id === draft.templateId);
  return template ? { channel: 'whatsapp' as const, template } : null;
}

/** Why 'Limit characters' refused `text`: too long, or a character that shrinks a message to 70. */
function refusalText(t: TFunction, text: string): string {
  const { encoding, segments } = segmentSms(text);
  return encoding === 'UCS-2'
    ? t('admin.sendSms.refusedUnicode', { count: segments })
    : t('admin.sendSms.refusedLong', { count: segments });
}
