// Staff actions are recorded where routes are declared: `config: { audit: 'send.cancel' }`. The
// handler may say what it acted on (`noteAudit`); once the route answers with success, one hook
// appends the event, before the caller has the answer, so a client that saw the answer finds it in
// the trail. A refused or failed request did nothing and records nothing.
import type { AuditAction } from '@blockcatch/sdk';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../api/authenticate.js';
import { appendAuditEvent } from '../storage/audit-events.js';
import type { Queryable } from '../storage/db.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The staff action a successful call of this route is recorded as. */
    audit?: AuditAction;
  }
}

export interface AuditNote {
  /** Another action than the route's (a test send is `send.test`). */
  action?: AuditAction;
  target?: string | null;
  detail?: Record<string, unknown>;
}

const kNote = Symbol('auditNote');
type WithNote = FastifyRequest & { [kNote]?: AuditNote };

/** What the handler acted on, for the event its route records. Later notes add to earlier ones. */
export function noteAudit(request: FastifyRequest, note: AuditNote): void {
  const current = (request as WithNote)[kNote] ?? {};
  (request as WithNote)[kNote] = {
    ...current,
    ...note,
    detail: { ...current.detail, ...note.detail },
  };
}

/** Appends one event for `principal`: the routes' hook and the sign-in path share it. */
export function recordAudit(
  db: Queryable,
  principal: Principal,
  event: { action: AuditAction; ip: string | null; ts: number } & AuditNote,
): Promise<void> {
  const { user } = principal;
  return appendAuditEvent(db, {
    ts: event.ts,
    actorId: user.id,
    actorName: user.name,
    actorPhone: user.phone_number,
    action: event.action,
    target: event.target ?? null,
    detail: event.detail ?? {},
    ip: event.ip,
    tokenId: principal.tokenId ?? null,
  });
}

export function installAudit(
  app: FastifyInstance,
  deps: { db: Queryable; now: () => number },
): void {
  app.decorateRequest(kNote, null);
  /** Records an audited answer's event; never throws: the action already happened. */
  const record = async (request: FastifyRequest, action: AuditAction) => {
    const note = (request as WithNote)[kNote] ?? {};
    try {
      await recordAudit(deps.db, request.principal, {
        ...note,
        action: note.action ?? action,
        ip: request.ip,
        ts: deps.now(),
      });
    } catch (error) {
      // The caller still gets its answer, and operators the error.
      request.log.error({ err: error }, 'an audit event could not be recorded');
    }
  };
  // Most answers record nothing: those go on without a promise to wait on.
  app.addHook('onSend', (request, reply, payload, done) => {
    const declared = request.routeOptions.config.audit;
    if (declared === undefined || reply.statusCode >= 400) done(null, payload);
    else void record(request, declared).then(() => done(null, payload));
  });
}
